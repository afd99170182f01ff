// SPDX-License-Identifier: GPL-2.0-only
/*
 * mountinfo.c - the device number of a mount, read from
 * /proc/self/mountinfo.
 *
 * The daemon needs the device numbers of its own FUSE mounts (to abort a
 * connection, to tune its read-ahead).  stat() of our own mount is a
 * request that only our session threads can answer: it waits for INIT,
 * and under valgrind, which runs one thread at a time and keeps its lock
 * across stat(), it never returns.  mountinfo asks nothing of FUSE.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/sysmacros.h>

#include "mountinfo.h"

/* mountinfo writes ' ', '\t', '\n' and '\\' in paths as \ooo. */
void sf_unescape_mountinfo(char *s)
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

dev_t sf_mount_dev(const char *dir)
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
		sf_unescape_mountinfo(mnt);
		if (strcmp(mnt, dir) == 0)
			dev = makedev(maj, min);
	}
	free(line);
	fclose(f);
	return dev;
}

/**
 * sf_mount_options - the per-mount options and the type of the mount at
 * @dir (the topmost), from mountinfo ("ID PARENT MAJ:MIN ROOT MOUNTPOINT
 * OPTIONS ... - TYPE ...").  Returns 0, or -ENOENT if @dir is no mount.
 */
int sf_mount_options(const char *dir, char *opts, size_t osize, char *type,
		     size_t tsize)
{
	char *line = NULL, mnt[PATH_MAX], o[1024], t[256], *dash;
	size_t cap = 0;
	int rc = -ENOENT;
	FILE *f;

	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		dash = strstr(line, " - ");
		if (!dash || sscanf(line, "%*d %*d %*s %*s %4095s %1023s",
				    mnt, o) != 2 ||
		    sscanf(dash + 3, "%255s", t) != 1)
			continue;
		sf_unescape_mountinfo(mnt);
		if (strcmp(mnt, dir))
			continue;
		snprintf(opts, osize, "%s", o);	/* the last mount wins */
		snprintf(type, tsize, "%s", t);
		rc = 0;
	}
	free(line);
	fclose(f);
	return rc;
}

/* Is @opt one of the comma-separated @list? */
bool sf_mount_has_opt(const char *list, const char *opt)
{
	size_t len = strlen(opt);
	const char *p = list;

	while ((p = strstr(p, opt))) {
		if ((p == list || p[-1] == ',') &&
		    (p[len] == ',' || p[len] == '\0'))
			return true;
		p += len;
	}
	return false;
}
