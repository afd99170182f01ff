// SPDX-License-Identifier: GPL-2.0-only
/*
 * ctl_targets.c - what a smackfusectl command acts on: the running mounts
 * (their control directories, from the index /run/smackfuse, paths.h),
 * the kernel module, NetLabel; --mount, --target and --wait decide.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "escape.h"
#include "ctl.h"

/* A control directory has CTL_ANSWER_MS to answer a lookup, asked every
 * millisecond; a child that did not is given CTL_REAP_MS more to die. */
#define CTL_ANSWER_MS	2000
#define CTL_REAP_MS	100
/* --wait=SECONDS looks for the mounts this often a second. */
#define CTL_WAIT_PER_SEC	10

/*
 * Is @dir a live control directory?  A daemon that is stopped or hung
 * would block a lookup there for ever, and with it every command that
 * looks at all mounts: so ask from a child, and give it 2 seconds.
 */
static bool ctl_is_control_dir(const char *dir)
{
	char path[PATH_MAX];
	int status, i;
	pid_t pid;

	if (snprintf(path, sizeof(path), "%s/load2", dir) >=
	    (int)sizeof(path))
		return false;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return access(path, F_OK) == 0;
	if (pid == 0)
		_exit(access(path, F_OK) == 0 ? 0 : 1);
	for (i = 0; i < CTL_ANSWER_MS; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) && WEXITSTATUS(status) == 0;
		usleep(1000);
	}
	kill(pid, SIGKILL);	/* FUSE waits are killable */
	for (i = 0; i < CTL_REAP_MS && waitpid(pid, &status, WNOHANG) != pid;
	     i++)
		usleep(1000);
	ctl_err("%s: does not answer (its daemon is stopped or hung); "
		"skipped", dir);
	return false;
}

static int ctl_targets_add(struct ctl_targets *t, const char *dir)
{
	char **grown = realloc(t->dirs, (t->n + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	t->dirs = grown;
	t->dirs[t->n] = strdup(dir);
	if (!t->dirs[t->n])
		return -ENOMEM;
	t->n++;
	return 0;
}

static int ctl_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int ctl_find_once(const struct ctl_opts *o, struct ctl_targets *t,
			 bool quiet)
{
	char path[PATH_MAX], name[PATH_MAX - 64], *real;
	struct dirent *de;
	DIR *d;

	memset(t, 0, sizeof(*t));
	if (o->mount) {
		if (ctl_is_control_dir(o->mount))
			return ctl_targets_add(t, o->mount);
		real = realpath(o->mount, NULL);
		sf_escape_path(real ? real : o->mount, name, sizeof(name));
		free(real);
		if (snprintf(path, sizeof(path), "%s/%s", o->rundir, name) >=
		    (int)sizeof(path))
			return -ENAMETOOLONG;
		if (ctl_is_control_dir(path))
			return ctl_targets_add(t, path);
		if (!quiet)
			ctl_err("%s: no running smackfuse mount there "
				"(looked for %s)", o->mount, path);
		return -ENOENT;
	}
	d = opendir(o->rundir);
	if (d) {
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			if (snprintf(path, sizeof(path), "%s/%s", o->rundir,
				 de->d_name) >=
			    (int)sizeof(path))
				continue;
			if (!ctl_is_control_dir(path)) {
				if (o->verbose)
					ctl_err("%s: not a live control "
						"directory, skipped", path);
				continue;
			}
			if (ctl_targets_add(t, path)) {
				closedir(d);
				return -ENOMEM;
			}
		}
		closedir(d);
	}
	if (t->n == 0) {
		if (!quiet)
			ctl_err("no running smackfuse mount found in %s",
				o->rundir);
		return -ENOENT;
	}
	qsort(t->dirs, t->n, sizeof(*t->dirs), ctl_name_cmp);
	return 0;
}

static int ctl_find_wait(const struct ctl_opts *o, struct ctl_targets *t,
			 bool quiet)
{
	int tries = o->wait * CTL_WAIT_PER_SEC;

	/* --wait: the unit runs us right after starting the daemon. */
	while (tries-- > 0) {
		if (ctl_find_once(o, t, true) == 0)
			return 0;
		ctl_targets_free(t);
		usleep(1000000 / CTL_WAIT_PER_SEC);
	}
	return ctl_find_once(o, t, quiet);
}

int ctl_targets_find(const struct ctl_opts *o, struct ctl_targets *t)
{
	return ctl_find_wait(o, t, false);
}

/* Is smackfuse.ko loaded (its control files there)? */
bool ctl_kmod_present(const struct ctl_opts *o)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/" SF_KMOD_LOAD2, o->kmod_dir) >=
	    (int)sizeof(path))
		return false;
	return access(path, F_OK) == 0;
}

bool ctl_want(const struct ctl_opts *o, unsigned int target)
{
	if (o->targets)
		return o->targets & target;
	return o->mount ? target == CTL_T_MOUNTS : true;
}

int ctl_policy_targets(const struct ctl_opts *o, unsigned int allowed,
		       struct ctl_targets *t, bool *kmod)
{
	bool named_mounts = o->mount || (o->targets & CTL_T_MOUNTS);

	memset(t, 0, sizeof(*t));
	*kmod = false;
	if ((allowed & CTL_T_KMOD) && ctl_want(o, CTL_T_KMOD)) {
		*kmod = ctl_kmod_present(o);
		if (!*kmod && (o->targets & CTL_T_KMOD)) {
			ctl_err("kmod: smackfuse.ko is not loaded (no %s/load2)",
				o->kmod_dir);
			return -ENOENT;
		}
	}
	if (ctl_want(o, CTL_T_MOUNTS)) {
		/* a missing mount is fine when the module is the target */
		if (ctl_find_wait(o, t, !named_mounts && *kmod) &&
		    (named_mounts || !*kmod)) {
			if (!named_mounts && (allowed & CTL_T_KMOD) &&
			    ctl_want(o, CTL_T_KMOD))
				ctl_err("and smackfuse.ko is not loaded (no "
					"%s/load2): nothing to act on",
					o->kmod_dir);
			return -ENOENT;
		}
	}
	if (!t->n && !*kmod && !((allowed & CTL_T_NETLABEL) &&
				 (o->targets & CTL_T_NETLABEL))) {
		ctl_err("nothing to act on: --target names no mount or "
			"module%s", allowed & CTL_T_NETLABEL ? "" :
			" (this command has no NetLabel part)");
		return -ENOENT;
	}
	return 0;
}

void ctl_targets_free(struct ctl_targets *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->dirs[i]);
	free(t->dirs);
	memset(t, 0, sizeof(*t));
}
