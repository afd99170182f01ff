/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * procstatus.h - what the checks read of a caller in /proc/PID/status:
 * its effective and permitted capabilities (CapEff, CapPrm: masks whose
 * bit N is capability N, caps.h), its real and fs uids (the first and
 * fourth numbers of Uid) and its supplementary groups.  One parser for the daemon (subject.c, which reads the text
 * through a kept descriptor, procfd.c) and the control filesystem
 * (control_priv.c, which reads the file by name, sf_task_status_read()).
 */
#ifndef SMACKFUSE_PROCSTATUS_H
#define SMACKFUSE_PROCSTATUS_H

#include <stdint.h>
#include <sys/types.h>

/* Groups kept; beyond them a caller is taken to be in no group (the safe
 * side for the set-group-ID rules, setid.c). */
#define SF_TASK_GROUPS	64

/* Which lines were found (struct sf_task_status.have). */
#define SF_TASK_HAVE_CAPEFF	(1u << 0)
#define SF_TASK_HAVE_UID	(1u << 1)
#define SF_TASK_HAVE_GROUPS	(1u << 2)
#define SF_TASK_HAVE_CAPPRM	(1u << 3)

struct sf_task_status {
	unsigned int have;	/* SF_TASK_HAVE_* */
	uint64_t capeff;	/* 0 unless have CAPEFF */
	uint64_t capprm;	/* 0 unless have CAPPRM */
	uid_t ruid;		/* valid if have UID */
	uid_t fsuid;		/* valid if have UID */
	int ngroups;
	gid_t groups[SF_TASK_GROUPS];
};

/* Parse @text, a status file's text (NUL-terminated; may be cut short),
 * into @st: what is not there is left empty. */
void sf_task_status_parse(const char *text, struct sf_task_status *st);

/* Read /proc/@pid/status by name and parse it, whole lines of any length.
 * Returns 0 or a negative errno (no such task, no such file). */
int sf_task_status_read(pid_t pid, struct sf_task_status *st);

#endif /* SMACKFUSE_PROCSTATUS_H */
