// SPDX-License-Identifier: GPL-2.0-only
/*
 * atime.c - -o noatime, relatime, strictatime, nodiratime (and atime,
 * diratime) govern the access times of what is read through the mount.
 *
 * A read through the daemon and a passed-through read alike update the
 * backing file's atime, under the rules of the mount the daemon reaches
 * the backing tree by; the FUSE mount's own flags only touch the
 * kernel's copy, which the next GETATTR replaces.  So when the mount is
 * given an atime option, the daemon reaches the backing tree through a
 * private copy of its mounts (open_tree(OPEN_TREE_CLONE), attached
 * nowhere) that carries the same atime flags (mount_setattr()), and
 * follows the FUSE mount's flags when it is remounted: a thread waits for
 * changes of the mount table (/proc/self/mountinfo polls POLLPRI).
 *
 * The copy holds the mounts below the source as they were at start:
 * mounts made inside the tree later are not seen through smackfuse.
 * Without an atime option the backing tree is reached as it is, and its
 * own mount's atime rules apply.
 *
 * libfuse 3.14 takes noatime and nodiratime but not relatime or
 * strictatime: every atime option is set on the FUSE mount here, once
 * INIT is answered, so that mount(8) shows what holds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "smackfuse.h"
#include "mountinfo.h"

#define SF_ATIME_MASK	(MOUNT_ATTR__ATIME | MOUNT_ATTR_NODIRATIME)
/* relatime updates an atime older than a day (relatime_need_update()). */
#define SF_RELATIME_SECS	(24 * 60 * 60)

/**
 * sf_atime_option - take @opt if it is an atime option.  Returns true
 * if it was (it is then not passed to libfuse).
 */
bool sf_atime_option(struct sf_options *o, const char *opt)
{
	unsigned int a = o->atime_attr;

	if (!strcmp(opt, "noatime"))
		a = (a & ~MOUNT_ATTR__ATIME) | MOUNT_ATTR_NOATIME;
	else if (!strcmp(opt, "relatime") || !strcmp(opt, "atime"))
		a = (a & ~MOUNT_ATTR__ATIME) | MOUNT_ATTR_RELATIME;
	else if (!strcmp(opt, "strictatime"))
		a = (a & ~MOUNT_ATTR__ATIME) | MOUNT_ATTR_STRICTATIME;
	else if (!strcmp(opt, "nodiratime"))
		a |= MOUNT_ATTR_NODIRATIME;
	else if (!strcmp(opt, "diratime"))
		a &= ~MOUNT_ATTR_NODIRATIME;
	else
		return false;
	o->atime_attr = a;
	o->atime_given = true;
	return true;
}

static int sf_atime_set(int dfd, const char *path, unsigned int flags,
			unsigned int attr)
{
	struct mount_attr ma = {
		.attr_set = attr, .attr_clr = SF_ATIME_MASK,
	};

	return mount_setattr(dfd, path, flags, &ma, sizeof(ma)) ? -errno : 0;
}

/**
 * sf_atime_open_root - an O_PATH descriptor of the backing tree's root,
 * @source: through a private copy of its mounts with the atime flags
 * asked for, if any were.  Returns it or -errno.
 */
int sf_atime_open_root(struct sf_fs *fs, const char *source)
{
	int fd, rc;

	if (!fs->opt.atime_given) {
		fd = open(source, O_PATH | O_DIRECTORY | O_CLOEXEC);
		return fd < 0 ? -errno : fd;
	}
	fd = open_tree(AT_FDCWD, source, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
		       AT_RECURSIVE);
	if (fd < 0)
		return -errno;
	rc = sf_atime_set(fd, "", AT_EMPTY_PATH | AT_RECURSIVE,
			  fs->opt.atime_attr);
	if (rc) {
		close(fd);
		return rc;
	}
	return fd;
}

/* The atime flags mountinfo shows for the FUSE mount, or -1. */
static int sf_atime_of_mount(const char *dir)
{
	char opts[1024], type[256];
	int a;

	if (sf_mount_options(dir, opts, sizeof(opts), type, sizeof(type)))
		return -1;
	if (sf_mount_has_opt(opts, "noatime"))
		a = MOUNT_ATTR_NOATIME;
	else if (sf_mount_has_opt(opts, "relatime"))
		a = MOUNT_ATTR_RELATIME;
	else
		a = MOUNT_ATTR_STRICTATIME;
	if (sf_mount_has_opt(opts, "nodiratime"))
		a |= MOUNT_ATTR_NODIRATIME;
	return a;
}

/* Remounts: each change of the mount table, the FUSE mount's atime
 * flags go to the backing copy. */
static void *sf_atime_watch(void *arg)
{
	struct sf_fs *fs = arg;
	int cur = (int)fs->opt.atime_attr, a;
	struct pollfd p;

	p.fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	if (p.fd < 0)
		return NULL;
	p.events = POLLPRI;
	for (;;) {
		if (poll(&p, 1, -1) < 0 && errno != EINTR)
			break;
		lseek(p.fd, 0, SEEK_SET);	/* rearm */
		a = sf_atime_of_mount(fs->mountpoint);
		if (a < 0 || a == cur)
			continue;
		if (sf_atime_set(fs->root.fd, "",
				 AT_EMPTY_PATH | AT_RECURSIVE, (unsigned)a))
			syslog(LOG_WARNING, "%s: remount: the backing tree's "
			       "atime flags did not follow: %m",
			       fs->mountpoint);
		else
			cur = a;
	}
	close(p.fd);
	return NULL;
}

static bool sf_ts_le(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec ||
	       (a->tv_sec == b->tv_sec && a->tv_nsec <= b->tv_nsec);
}

/**
 * sf_atime_read_moves - would a read of the backing file @fd, open with
 * @flags, move its atime now?  A file opened without passthrough is read
 * from the kernel's FUSE page cache where the open keeps it
 * (FOPEN_KEEP_CACHE), and such a read reaches neither the daemon nor the
 * backing file: its atime would never move.  So the cache is kept only
 * where the backing mount's rules say a read changes nothing (the
 * kernel's atime_needs_update() and relatime_need_update(), fs/inode.c):
 * noatime, a read-only mount, O_NOATIME, or relatime with atime already
 * past mtime and ctime and less than a day old.  Not knowing is "moves".
 */
bool sf_atime_read_moves(int fd, int flags)
{
	struct statvfs v;
	struct stat st;
	struct timespec now;

	if ((flags & O_ACCMODE) == O_WRONLY || (flags & O_NOATIME))
		return false;
	if (fstatvfs(fd, &v) || fstat(fd, &st))
		return true;
	if (v.f_flag & (ST_NOATIME | ST_RDONLY))
		return false;
	if (!(v.f_flag & ST_RELATIME))
		return true;	/* strictatime */
	if (sf_ts_le(&st.st_atim, &st.st_mtim) ||
	    sf_ts_le(&st.st_atim, &st.st_ctim))
		return true;
	clock_gettime(CLOCK_REALTIME, &now);
	return now.tv_sec - st.st_atim.tv_sec >= SF_RELATIME_SECS;
}

/* Once INIT is answered: the FUSE mount's own flags, and the watch. */
void sf_atime_mounted(struct sf_fs *fs)
{
	pthread_t t;

	if (!fs->opt.atime_given)
		return;
	if (sf_atime_set(AT_FDCWD, fs->mountpoint, 0, fs->opt.atime_attr))
		syslog(LOG_WARNING, "%s: the mount's atime flags: %m",
		       fs->mountpoint);
	if (!pthread_create(&t, NULL, sf_atime_watch, fs))
		pthread_detach(t);
}
