// SPDX-License-Identifier: GPL-2.0-only
/*
 * procstatus.c - the lines of /proc/PID/status the checks use (CapEff,
 * CapPrm, Uid, Groups), for the daemon and the control filesystem alike.
 * Whether the task read is still the one that asked is the caller's
 * question: see procstatus.h's users.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procstatus.h"

/* A capability mask into @mask, setting @have in st->have. */
static void sf_task_status_caps(const char *p, struct sf_task_status *st,
				uint64_t *mask, unsigned int have)
{
	char *end;
	unsigned long long v = strtoull(p, &end, 16);

	if (end != p) {
		*mask = v;
		st->have |= have;
	}
}

/* "Uid:" real, effective, saved, fs: the fs uid is the one access uses,
 * the real one what access(2) checks with (access_override_creds()). */
static void sf_task_status_uid(const char *p, struct sf_task_status *st)
{
	unsigned long id[4];
	char *end;
	int i;

	for (i = 0; i < 4; i++, p = end) {
		id[i] = strtoul(p, &end, 10);
		if (end == p)
			return;
	}
	st->ruid = (uid_t)id[0];
	st->fsuid = (uid_t)id[3];
	st->have |= SF_TASK_HAVE_UID;
}

static void sf_task_status_groups(const char *p, struct sf_task_status *st)
{
	char *end;

	st->have |= SF_TASK_HAVE_GROUPS;
	while (st->ngroups < SF_TASK_GROUPS) {
		unsigned long g = strtoul(p, &end, 10);

		if (end == p)
			break;
		st->groups[st->ngroups++] = (gid_t)g;
		p = end;
	}
}

/* One line of the file (its newline, if any, ends the numbers). */
static void sf_task_status_line(const char *line, struct sf_task_status *st)
{
	if (!strncmp(line, "CapEff:", 7))
		sf_task_status_caps(line + 7, st, &st->capeff,
				    SF_TASK_HAVE_CAPEFF);
	else if (!strncmp(line, "CapPrm:", 7))
		sf_task_status_caps(line + 7, st, &st->capprm,
				    SF_TASK_HAVE_CAPPRM);
	else if (!strncmp(line, "Uid:", 4))
		sf_task_status_uid(line + 4, st);
	else if (!strncmp(line, "Groups:", 7))
		sf_task_status_groups(line + 7, st);
}

/*
 * Only whole lines count: a line the reader's buffer cut short would give
 * a wrong number (the first digits of a CapEff mask are another mask).
 */
void sf_task_status_parse(const char *text, struct sf_task_status *st)
{
	const char *line = text, *nl;

	memset(st, 0, sizeof(*st));
	while ((nl = strchr(line, '\n'))) {
		sf_task_status_line(line, st);
		line = nl + 1;
	}
}

int sf_task_status_read(pid_t pid, struct sf_task_status *st)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	FILE *f;

	memset(st, 0, sizeof(*st));
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0)
		sf_task_status_line(line, st);
	free(line);
	fclose(f);
	return 0;
}
