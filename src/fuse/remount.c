// SPDX-License-Identifier: GPL-2.0-only
/*
 * remount.c - "mount -o remount,ro MOUNTPOINT" of a smackfuse mount.
 *
 * mount(8) hands a remount of a fuse.smackfuse mount to mount.fuse3,
 * which runs "smackfuse SOURCE MOUNTPOINT -o remount,...".  That process
 * starts no daemon: it changes the mount with mount(2) (MS_REMOUNT) and
 * exits.  The kernel applies the change at once to every caller (a
 * read-only mount refuses every write itself, EROFS; EBUSY while a file
 * is open for writing, as for any filesystem); the daemon serving the
 * mount is not involved.
 *
 * A remount sets the mount's per-mount flags anew, so those not named
 * (nosuid, nodev, noexec) are kept from /proc/self/mountinfo.  "suid"
 * and "dev" never lift nosuid or nodev here: mount.fuse3 adds them to
 * every command line it runs.  The atime flags not named are kept by
 * the kernel.  Options of the daemon (subject=, users=, ...) cannot
 * change without a new mount and are ignored, as mount(8) repeats the
 * fstab line's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>

#include "smackfuse.h"
#include "mountinfo.h"

/* One option of the remount into *@flags; -EINVAL for an unknown one. */
static int sf_remount_opt(const char *opt, unsigned long *flags)
{
	static const struct { const char *name; unsigned long set, clear; }
	known[] = {
		{ "ro", MS_RDONLY, 0 }, { "rw", 0, MS_RDONLY },
		{ "noatime", MS_NOATIME, 0 },
		{ "atime", 0, MS_NOATIME },
		{ "relatime", MS_RELATIME, 0 },
		{ "norelatime", 0, MS_RELATIME },
		{ "strictatime", MS_STRICTATIME, 0 },
		{ "nodiratime", MS_NODIRATIME, 0 },
		{ "diratime", 0, MS_NODIRATIME },
		{ "lazytime", MS_LAZYTIME, 0 },
		{ "nolazytime", 0, MS_LAZYTIME },
		{ "noexec", MS_NOEXEC, 0 }, { "exec", 0, MS_NOEXEC },
		{ "nosuid", MS_NOSUID, 0 }, { "nodev", MS_NODEV, 0 },
		{ "suid", 0, 0 }, { "dev", 0, 0 }, { "remount", 0, 0 },
		{ "defaults", 0, 0 }, { "allow_other", 0, 0 },
		{ "default_permissions", 0, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(*known); i++) {
		if (strcmp(opt, known[i].name))
			continue;
		*flags = (*flags | known[i].set) & ~known[i].clear;
		return 0;
	}
	return strchr(opt, '=') ? 0 : -EINVAL;
}

/**
 * sf_remount - remount @mountpoint, a smackfuse mount, with the mount
 * options in @opts (a comma-separated list: the libfuse part of -o).
 * Returns the process's exit status.
 */
int sf_remount(const char *mountpoint, const char *opts)
{
	char cur[1024], type[256], *list, *opt, *save = NULL;
	unsigned long flags = MS_REMOUNT;
	int rc;

	rc = sf_mount_options(mountpoint, cur, sizeof(cur), type,
			      sizeof(type));
	if (rc || strcmp(type, "fuse.smackfuse")) {
		fprintf(stderr, "smackfuse: remount: %s is not a smackfuse "
			"mount\n", mountpoint);
		return 1;
	}
	if (sf_mount_has_opt(cur, "nosuid"))
		flags |= MS_NOSUID;
	if (sf_mount_has_opt(cur, "nodev"))
		flags |= MS_NODEV;
	if (sf_mount_has_opt(cur, "noexec"))
		flags |= MS_NOEXEC;
	if (sf_mount_has_opt(cur, "ro"))
		flags |= MS_RDONLY;
	list = strdup(opts ? opts : "");
	if (!list)
		return 1;
	for (opt = strtok_r(list, ",", &save); opt;
	     opt = strtok_r(NULL, ",", &save)) {
		if (sf_remount_opt(opt, &flags)) {
			fprintf(stderr, "smackfuse: remount: -o %s cannot "
				"change without a new mount\n", opt);
			free(list);
			return 1;
		}
	}
	free(list);
	if (mount(NULL, mountpoint, NULL, flags, NULL)) {
		fprintf(stderr, "smackfuse: remount %s: %s\n", mountpoint,
			strerror(errno));
		return 1;
	}
	return 0;
}
