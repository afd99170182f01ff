// SPDX-License-Identifier: GPL-2.0-only
/*
 * control_path.c - where a mount's control directory lives, and the index
 * that lets tools find every running mount.
 *
 * The index is the run directory (/run/smackfuse unless the daemon's
 * --rundir or $SMACKFUSE_RUNDIR says otherwise, paths.h): one entry per
 * mount, named like `systemd-escape --path MOUNTPOINT`.  By default the
 * entry IS the control directory; with -o control=DIR it is a symlink to
 * DIR.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <syslog.h>
#include <unistd.h>

#include "control_int.h"
#include "escape.h"
#include "paths.h"

/* A directory left by a daemon that died: its FUSE mount is dead. */
static void ctl_clear_stale(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) != 0 && errno == ENOTCONN)
		umount2(dir, MNT_DETACH);
}

/* Is something mounted on @dir (a live control fs of another daemon)? */
static bool ctl_is_mountpoint(const char *dir)
{
	char parent[PATH_MAX];
	struct stat a, b;

	if (snprintf(parent, sizeof(parent), "%s/..", dir) >=
	    (int)sizeof(parent))
		return false;
	return stat(dir, &a) == 0 && stat(parent, &b) == 0 &&
	       a.st_dev != b.st_dev;
}

static int ctl_mkdir(struct sf_control *c, const char *dir, bool *made)
{
	*made = false;
	ctl_clear_stale(dir);
	if (mkdir(dir, 0755) == 0) {
		*made = true;
		return 0;
	}
	if (errno != EEXIST) {
		ctl_log(c, LOG_ERR, "mkdir %s: %s", dir, strerror(errno));
		return -errno;
	}
	if (ctl_is_mountpoint(dir)) {
		ctl_log(c, LOG_ERR, "%s is already in use (another smackfuse "
			"for the same mountpoint?)", dir);
		return -EBUSY;
	}
	return 0;
}

int ctl_path_setup(struct sf_control *c, const char *dir,
		   const char *rundir)
{
	char name[PATH_MAX - 64], entry[PATH_MAX];
	const char *run = rundir ? rundir : sf_run_dir(NULL, NULL).path;
	struct stat st;
	int rc;

	if (sf_escape_path(c->mountpoint, name, sizeof(name)) >=
	    sizeof(name))
		return -ENAMETOOLONG;
	if ((size_t)snprintf(entry, sizeof(entry), "%s/%s", run, name) >=
	    sizeof(entry))
		return -ENAMETOOLONG;
	if (mkdir(run, 0755) != 0 && errno != EEXIST) {
		rc = -errno;
		ctl_log(c, LOG_ERR, "mkdir %s: %s", run, strerror(-rc));
		return rc;
	}
	c->dir = realpath(dir && *dir ? dir : entry, NULL);
	if (!c->dir)
		c->dir = strdup(dir && *dir ? dir : entry);
	if (!c->dir)
		return -ENOMEM;
	rc = ctl_mkdir(c, c->dir, &c->made_dir);
	if (rc < 0 || strcmp(c->dir, entry) == 0)
		return rc;

	/* A directory elsewhere: point the index entry at it. */
	if (lstat(entry, &st) == 0) {
		if (S_ISLNK(st.st_mode))
			unlink(entry);
		else if (S_ISDIR(st.st_mode) && !ctl_is_mountpoint(entry))
			rmdir(entry);
	}
	if (symlink(c->dir, entry) == 0) {
		c->link = strdup(entry);
	} else {
		ctl_log(c, LOG_WARNING, "cannot index %s as %s: %s (tools "
			"will need --mount)", c->dir, entry, strerror(errno));
	}
	return 0;
}

void ctl_path_teardown(struct sf_control *c)
{
	char target[PATH_MAX];
	ssize_t n;

	if (c->link) {
		/* Only remove the link if it is still ours. */
		n = readlink(c->link, target, sizeof(target) - 1);
		if (n >= 0) {
			target[n] = '\0';
			if (strcmp(target, c->dir) == 0)
				unlink(c->link);
		}
		free(c->link);
		c->link = NULL;
	}
	if (c->made_dir && c->dir)
		rmdir(c->dir);
	c->made_dir = false;
}
