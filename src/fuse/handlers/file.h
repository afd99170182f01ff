/* SPDX-License-Identifier: GPL-2.0-only */
/* file.h - the daemon's side of an open file (fi->fh of a non-directory). */
#ifndef SMACKFUSE_FILE_H
#define SMACKFUSE_FILE_H

#include "smackfuse.h"

/**
 * struct sf_file - what fi->fh of an open non-directory points to.
 * @fd: the daemon's own descriptor of the backing file, or -1 while it
 *	has none (sf_file_new() given -1).
 * @flags: the open's flags, to open @fd late with.
 */
struct sf_file {
	atomic_int fd;
	int flags;
};

int sf_file_open_flags(int flags);
int sf_file_new(struct fuse_file_info *fi, int fd, int flags);
int sf_file_fd(const struct sf_node *n, const struct fuse_file_info *fi);
int sf_file_fd_if_open(const struct fuse_file_info *fi);
void sf_file_release(struct fuse_file_info *fi);
/* What opening decides: the open's mode, read, and the mmap rule at exec. */
int sf_file_check_open(struct sf_fs *fs, struct sf_subject *s,
		       struct sf_node *n, int flags);

#endif /* SMACKFUSE_FILE_H */
