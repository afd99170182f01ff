/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * paths.h - where the policy and the index of running mounts are, for the
 * daemon, its control filesystem and smackfusectl alike.
 *
 * Each is a build default, replaced by an environment variable, replaced
 * by a command-line option (--etc, --rundir).  A directory named by the
 * environment or the command line must exist: a typo must not silently
 * become an empty policy.  The build default may be absent (nothing is
 * installed yet).  pam_smackfuse never reads these variables: it runs
 * inside setuid programs whose environment the user chooses.
 */
#ifndef SMACKFUSE_PATHS_H
#define SMACKFUSE_PATHS_H

#include <stdbool.h>

#ifndef SF_SYSCONFDIR		/* Makefile.am defines it; cppcheck does not */
#define SF_SYSCONFDIR "/etc"
#endif
#define SF_ETC_DEFAULT SF_SYSCONFDIR "/smackfuse"
#define SF_RUN_DEFAULT "/run/smackfuse"
#define SF_ETC_ENV "SMACKFUSE_ETC"
#define SF_RUN_ENV "SMACKFUSE_RUNDIR"

/* A resolved directory and where it came from. */
struct sf_dir {
	const char *path;
	const char *from;	/* "--etc", "SMACKFUSE_ETC", "built-in" ... */
	bool explicit;		/* named by the environment or an option */
};

/*
 * sf_etc_dir / sf_run_dir - the policy directory and the index of mounts:
 * @opt (from the command line, @optname) if not NULL, else the
 * environment variable if set and not empty, else the build default.
 */
struct sf_dir sf_etc_dir(const char *opt, const char *optname);
struct sf_dir sf_run_dir(const char *opt, const char *optname);

/*
 * sf_dir_check - an explicit directory must be there: 0, or a negative
 * errno (-ENOTDIR for something else) after one message through @report
 * naming the path and where it came from.  A build default is not checked.
 */
int sf_dir_check(const struct sf_dir *d,
		 void (*report)(void *arg, const char *msg), void *arg);

#endif /* SMACKFUSE_PATHS_H */
