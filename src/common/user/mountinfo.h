/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mountinfo.h - what /proc/self/mountinfo says of a mount: its device
 * number, its options.  For the daemon's own FUSE mounts (the enforcement
 * mount and the control filesystem), where stat() or statfs() would be a
 * request to ourselves.
 */
#ifndef SMACKFUSE_MOUNTINFO_H
#define SMACKFUSE_MOUNTINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The device number of the newest mount on @dir; 0 if none. */
dev_t sf_mount_dev(const char *dir);
/* Undo mountinfo's \ooo escapes of a path, in place. */
void sf_unescape_mountinfo(char *s);
int sf_mount_options(const char *dir, char *opts, size_t osize, char *type,
		     size_t tsize);
bool sf_mount_has_opt(const char *list, const char *opt);

#endif /* SMACKFUSE_MOUNTINFO_H */
