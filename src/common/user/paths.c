// SPDX-License-Identifier: GPL-2.0-only
/*
 * paths.c - the policy directory and the index of running mounts: the
 * build default, the environment, the command line (see paths.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "paths.h"

static struct sf_dir sf_dir_pick(const char *opt, const char *optname,
				 const char *env, const char *def)
{
	const char *e = getenv(env);

	if (opt)
		return (struct sf_dir){ opt, optname, true };
	if (e && *e)
		return (struct sf_dir){ e, env, true };
	return (struct sf_dir){ def, "built-in default", false };
}

struct sf_dir sf_etc_dir(const char *opt, const char *optname)
{
	return sf_dir_pick(opt, optname, SF_ETC_ENV, SF_ETC_DEFAULT);
}

struct sf_dir sf_run_dir(const char *opt, const char *optname)
{
	return sf_dir_pick(opt, optname, SF_RUN_ENV, SF_RUN_DEFAULT);
}

int sf_dir_check(const struct sf_dir *d,
		 void (*report)(void *arg, const char *msg), void *arg)
{
	char msg[512];
	struct stat st;
	int e = 0;

	if (!d->explicit)
		return 0;
	if (!*d->path)
		e = ENOENT;
	else if (stat(d->path, &st))
		e = errno;
	else if (!S_ISDIR(st.st_mode))
		e = ENOTDIR;
	if (!e)
		return 0;
	snprintf(msg, sizeof(msg), "%s (from %s): %s", d->path, d->from,
		 strerror(e));
	report(arg, msg);
	return -e;
}
