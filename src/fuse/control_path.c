// SPDX-License-Identifier: GPL-2.0-only
/*
 * control_path.c - where a mount's control directory lives, and the index
 * that lets tools find every running mount.
 *
 * The index is SF_CONTROL_RUNDIR itself: one entry per enforcement mount,
 * named like `systemd-escape --path MOUNTPOINT`.  By default the entry IS
 * the control directory; with -o control=DIR it is a symlink to DIR.
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

/* mountinfo writes ' ', '\t', '\n' and '\\' in paths as \ooo. */
static void ctl_unescape_mountinfo(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = '\0';
}

/**
 * ctl_mount_dev - the device number of the newest mount on @dir, from
 * /proc/self/mountinfo; 0 if there is none.
 *
 * Not stat(): a stat of our own FUSE mount is a request that only our
 * session thread can answer, and under valgrind (which runs one thread at
 * a time and does not let go of its lock during stat) it never does.
 */
dev_t ctl_mount_dev(const char *dir)
{
	char *line = NULL, mnt[PATH_MAX];
	unsigned int maj, min;
	size_t cap = 0;
	dev_t dev = 0;
	FILE *f;

	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return 0;
	while (getline(&line, &cap, f) > 0) {
		if (sscanf(line, "%*d %*d %u:%u %*s %4095s", &maj, &min,
			   mnt) != 3)
			continue;
		ctl_unescape_mountinfo(mnt);
		if (strcmp(mnt, dir) == 0)
			dev = makedev(maj, min);
	}
	free(line);
	fclose(f);
	return dev;
}

int ctl_path_setup(struct sf_control *c, const char *dir)
{
	char name[PATH_MAX - 64], entry[PATH_MAX];
	struct stat st;
	int rc;

	if (sf_control_escape(c->mountpoint, name, sizeof(name)) >=
	    sizeof(name))
		return -ENAMETOOLONG;
	snprintf(entry, sizeof(entry), "%s/%s", SF_CONTROL_RUNDIR, name);
	if (mkdir(SF_CONTROL_RUNDIR, 0755) != 0 && errno != EEXIST) {
		ctl_log(c, LOG_ERR, "mkdir %s: %s", SF_CONTROL_RUNDIR,
			strerror(errno));
		return -errno;
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
