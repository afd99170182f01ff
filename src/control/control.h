/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * control.h - the smackfs-compatible control filesystem of a smackfuse mount.
 *
 * The daemon starts one control filesystem per enforcement mount.  It is a
 * second FUSE session, served by its own thread, that offers smackfs's files
 * (load2, load, change-rule, access2, access, revoke-subject, onlycap,
 * logging, cipso2, cipso, doi, direct, mapped, ambient, netlabel, and,
 * kept and shown only, ipv6host, syslog, ptrace and relabel-self; and
 * load-self and load-self2, which refuse well-formed writes) in the
 * kernel's formats and modes, plus a read-only "status".  Policy writes
 * go to the shared struct sf_policy; after each accepted change the
 * daemon's
 * invalidate hook runs, before the write returns, so the very next
 * operation on the enforcement mount sees the new policy.
 *
 * Usage from the daemon:
 *
 *	struct sf_control_config cc = { .dir = opt_control,
 *		.mountpoint = mnt, .source = src };
 *	struct sf_control_hooks ch = { .arg = state,
 *		.invalidate = sf_invalidate_all, .status = sf_status };
 *	if (sf_control_start(&ctl, policy, &cc, &ch) < 0) ... fail the mount
 *	... fuse_session_loop_mt(se) ...
 *	sf_control_stop(ctl);
 */
#ifndef SMACKFUSE_CONTROL_H
#define SMACKFUSE_CONTROL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "smack.h"

struct sf_control;

struct sf_control_hooks {
	void *arg;
	/* Policy changed: drop the enforcement mount's kernel caches. */
	void (*invalidate)(void *arg);
	/* Subject label of the task @pid (to apply onlycap); NULL = "_". */
	sf_lid (*subject)(void *arg, pid_t pid, uid_t uid, gid_t gid);
	/* Append "key: value\n" lines (subject source, checks, denials,
	 * cache hits) to @buf; snprintf-style return.  May be NULL. */
	size_t (*status)(void *arg, char *buf, size_t size);
	/* "logging" was written (0..3).  May be NULL: see sf_control_logging */
	void (*set_logging)(void *arg, int level);
	/* replace-rules was applied (a reload: `smackfusectl apply`): the
	 * daemon looks up again what it keeps of the accounts.  Runs before
	 * the write returns.  May be NULL. */
	void (*reload)(void *arg);
};

struct sf_control_config {
	/* Where to mount: NULL or "" for the default
	 * RUNDIR/<escaped mountpoint>, "none" to disable. */
	const char *dir;
	/* RUNDIR, the index of mounts, which holds every control directory
	 * or a symlink to it: NULL for $SMACKFUSE_RUNDIR, else
	 * /run/smackfuse (paths.h). */
	const char *rundir;
	const char *mountpoint;	/* the enforcement mountpoint (absolute) */
	const char *source;	/* the backing tree (absolute) */
	bool log_stderr;	/* log to stderr as well as syslog (-f) */
	bool debug;		/* libfuse debug output for the control session */
	int logging;		/* initial "logging" value, 0..3 */
	/* doi, ambient and netlabel writes are kept by this mount only and
	 * not applied to the kernel's NetLabel (-o netlabel=off). */
	bool netlabel_off;
};

/*
 * sf_control_start - mount the control filesystem and start its thread.
 * Returns 0 with *@out set (NULL when cfg->dir is "none"), or a negative
 * errno after logging why.
 */
int sf_control_start(struct sf_control **out, struct sf_policy *policy,
		     const struct sf_control_config *cfg,
		     const struct sf_control_hooks *hooks);

/* Unmount, stop the thread, remove the index entry, free.  NULL is fine. */
void sf_control_stop(struct sf_control *ctl);

/* Current "logging" value, 0..3 (mainline: 0 none, 1 denials, 2 grants,
 * 3 both); the default is 1. */
int sf_control_logging(const struct sf_control *ctl);

/* Directory the control filesystem is mounted on. */
const char *sf_control_dir(const struct sf_control *ctl);

#endif /* SMACKFUSE_CONTROL_H */
