// SPDX-License-Identifier: GPL-2.0-only
/*
 * file.c - the daemon's side of an open file.
 *
 * Each open of a non-directory gets a struct sf_file behind fi->fh,
 * holding the daemon's own descriptor of the backing file.  Opens that
 * the kernel passes through read-only get none at first: the kernel
 * opens the backing file itself (passthrough.c) and reads it without
 * the daemon, so a descriptor of the daemon's would serve only the rare
 * fsync, flock or lseek, yet cost an open() and a close() on every
 * open(2) (8 us of a warm open, read and close of 4 KiB: 0.89x).
 * Those opens get theirs on first use, from the node's O_PATH
 * descriptor: the same inode, never a name looked up again.  Opens
 * that may write always open at once, so that the backing filesystem's
 * refusals (immutable, ETXTBSY, read-only) come back from open(2).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "file.h"

static struct sf_file *sf_file_of(const struct fuse_file_info *fi)
{
	return (struct sf_file *)(uintptr_t)fi->fh;
}

/* The flags the daemon opens the backing file with for an open(2) with
 * @flags: creating, and following the name, were done already. */
int sf_file_open_flags(int flags)
{
	return (flags | O_CLOEXEC) & ~(O_CREAT | O_EXCL | O_NOFOLLOW |
				       O_NOCTTY | SF_FMODE_EXEC);
}

/**
 * sf_file_new - hang the daemon's descriptor @fd (or -1, to be opened
 * on first use with @flags) on @fi.  Returns 0 or -ENOMEM; on error @fd
 * is still the caller's.
 */
int sf_file_new(struct fuse_file_info *fi, int fd, int flags)
{
	struct sf_file *f = malloc(sizeof(*f));

	if (!f)
		return -ENOMEM;
	atomic_init(&f->fd, fd);
	f->flags = sf_file_open_flags(flags) & ~O_TRUNC;
	fi->fh = (uintptr_t)f;
	return 0;
}

/**
 * sf_file_fd - the daemon's descriptor of the open file @fi of @n,
 * opened now if it has none yet.  Returns it, or a negative errno.
 * Requests on one open file may run at once: the first to open wins.
 */
int sf_file_fd(const struct sf_node *n, const struct fuse_file_info *fi)
{
	struct sf_file *f = sf_file_of(fi);
	int fd = atomic_load(&f->fd), none = -1;
	char proc[64];

	if (fd >= 0)
		return fd;
	sf_proc_path(n, proc, sizeof(proc));
	fd = open(proc, f->flags);
	if (fd < 0)
		return -errno;
	if (atomic_compare_exchange_strong(&f->fd, &none, fd))
		return fd;
	close(fd);
	return none;
}

/* The daemon's descriptor of @fi, or -1 if it has none yet. */
int sf_file_fd_if_open(const struct fuse_file_info *fi)
{
	return atomic_load(&sf_file_of(fi)->fd);
}

/* RELEASE: no request on @fi can follow. */
void sf_file_release(struct fuse_file_info *fi)
{
	struct sf_file *f = sf_file_of(fi);
	int fd = atomic_load(&f->fd);

	if (fd >= 0)
		close(fd);
	free(f);
	fi->fh = 0;
}
