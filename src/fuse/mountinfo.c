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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/sysmacros.h>

#include "control.h"

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
