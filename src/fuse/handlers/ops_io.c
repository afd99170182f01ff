// SPDX-License-Identifier: GPL-2.0-only
/*
 * ops_io.c - open files and their I/O: open, read, write, flush,
 * release, fsync, fallocate, copy_file_range and lseek (smack_file_open;
 * what a passed-through file does is passthrough.c's).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "ops.h"
#include "file.h"
#include "transport.h"

/* A read-only open that the kernel passes through gets the daemon's
 * descriptor on first use (file.c). */
static bool sf_open_lazily(const struct sf_node *n, int flags,
			   int32_t backing_id)
{
	return backing_id > 0 && n->type == S_IFREG &&
	       (flags & O_ACCMODE) == O_RDONLY && !(flags & O_TRUNC);
}

void sf_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct sf_fs *fs = sf_fs_of(req);
	struct sf_node *n = sf_node(req, ino);
	struct sf_subject s;
	struct sf_open_reply reply = { 0 };
	int32_t backing_id;
	char proc[64];
	int fd = -1, rc;

	sf_subject_get(fs, req, &s);
	rc = sf_file_check_open(fs, &s, n, fi->flags);
	if (rc) {
		fuse_reply_err(req, -rc);
		return;
	}
	backing_id = sf_passthrough_open(fs, req, n);
	if (backing_id < 0) {
		fuse_reply_err(req, -backing_id);
		return;
	}
	if (!sf_open_lazily(n, fi->flags, backing_id)) {
		sf_proc_path(n, proc, sizeof(proc));
		fd = open(proc, sf_file_open_flags(fi->flags));
		if (fd < 0) {
			fuse_reply_err(req, errno);
			return;
		}
	}
	rc = sf_setid_open(fs, &s, fd, fi->flags);
	if (!rc)
		rc = sf_file_new(fi, fd, fi->flags);
	if (rc) {
		if (fd >= 0)
			close(fd);
		fuse_reply_err(req, -rc);
		return;
	}
	fi->keep_cache = sf_keep_cache(fs, backing_id, fd, fi->flags);
	sf_open_mapped_write(fs, n, fi->flags, backing_id);
	reply.fi = fi;
	reply.backing_id = backing_id;
	if (sf_reply_open(req, &reply) == -ENOENT)
		sf_file_release(fi);	/* the caller was interrupted */
}

/*
 * Reads and writes come here only when the open is not passed through
 * (passthrough.c: -o passthrough=off, or a kernel without it).
 *
 * Read into memory and reply with one writev.  fuse_reply_data() with an
 * fd buffer (splice, or libfuse's copy fallback when the pipe cannot hold
 * a 1 MiB reply) measured 7-8x slower for sequential reads, cold or warm
 * (bench/fs-results.txt).  Read access was decided at open.
 */
void sf_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
	     struct fuse_file_info *fi)
{
	int fd = sf_file_fd(sf_node(req, ino), fi);
	char *buf;
	size_t got = 0;
	ssize_t res;

	if (fd < 0) {
		fuse_reply_err(req, -fd);
		return;
	}
	buf = malloc(size ? size : 1);
	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	while (got < size) {
		res = pread(fd, buf + got, size - got,
			    off + (off_t)got);
		if (res < 0 && errno == EINTR)
			continue;
		if (res < 0) {
			if (!got) {
				fuse_reply_err(req, errno);
				free(buf);
				return;
			}
			break;
		}
		if (!res)
			break;
		got += (size_t)res;
	}
	fuse_reply_buf(req, buf, got);
	free(buf);
}

/* Write access was decided at open: writeback may send pid 0. */
void sf_write_buf(fuse_req_t req, fuse_ino_t ino,
		  struct fuse_bufvec *in, off_t off,
		  struct fuse_file_info *fi)
{
	struct fuse_bufvec out = FUSE_BUFVEC_INIT(fuse_buf_size(in));
	int fd = sf_file_fd(sf_node(req, ino), fi);
	ssize_t res;

	if (fd < 0) {
		fuse_reply_err(req, -fd);
		return;
	}
	out.buf[0].flags = FUSE_BUF_IS_FD | FUSE_BUF_FD_SEEK;
	out.buf[0].fd = fd;
	out.buf[0].pos = off;
	res = fuse_buf_copy(&out, in, 0);
	if (res < 0)
		fuse_reply_err(req, (int)-res);
	else
		fuse_reply_write(req, (size_t)res);
}

/*
 * Filesystems whose close(2) does nothing a caller could see (no ->flush
 * in their file operations): ext4, xfs and tmpfs.  Closing a duplicate
 * of the backing fd on FLUSH, as a network filesystem needs to report
 * its write errors at close, would only cost two system calls there.
 */
bool sf_close_is_quiet(int fd)
{
	struct statfs sfs;

	if (fstatfs(fd, &sfs))
		return false;
	switch ((unsigned long)sfs.f_type) {
	case EXT4_SUPER_MAGIC:
	case XFS_SUPER_MAGIC:
	case TMPFS_MAGIC:
		return true;
	default:
		return false;
	}
}

void sf_flush(fuse_req_t req, fuse_ino_t ino,
	      struct fuse_file_info *fi)
{
	struct sf_fs *fs = sf_fs_of(req);
	struct sf_node *n = sf_node(req, ino);
	int fd;

	/* close() ends the owner's POSIX locks (no system call, and no
	 * lock taken, for a node that never had one). */
	if (fi->lock_owner)
		sf_lock_release_owner(n, fi->lock_owner);
	if (fs->close_quiet && n->dev == fs->root.dev) {
		fuse_reply_err(req, 0);
		return;
	}
	/* Without a descriptor of its own the daemon wrote nothing. */
	fd = sf_file_fd_if_open(fi);
	if (fd < 0) {
		fuse_reply_err(req, 0);
		return;
	}
	fd = dup(fd);
	fuse_reply_err(req, fd < 0 ? errno : close(fd) ? errno : 0);
}

void sf_release(fuse_req_t req, fuse_ino_t ino,
		struct fuse_file_info *fi)
{
	struct sf_node *n = sf_node(req, ino);

	if (fi->flock_release || fi->lock_owner)
		sf_lock_release_owner(n, fi->lock_owner);
	sf_lock_release_file(n, fi->fh);
	sf_file_release(fi);
	fuse_reply_err(req, 0);
}

void sf_fsync(fuse_req_t req, fuse_ino_t ino, int datasync,
	      struct fuse_file_info *fi)
{
	int fd = sf_file_fd(sf_node(req, ino), fi);

	if (fd < 0)
		fuse_reply_err(req, -fd);
	else
		fuse_reply_err(req, (datasync ? fdatasync(fd) : fsync(fd)) ?
			       errno : 0);
}

void sf_fallocate(fuse_req_t req, fuse_ino_t ino, int mode,
		  off_t offset, off_t length, struct fuse_file_info *fi)
{
	int fd = sf_file_fd(sf_node(req, ino), fi), err, rc;

	if (fd < 0) {
		fuse_reply_err(req, -fd);
		return;
	}
	err = fallocate(fd, mode, offset, length) ? errno : 0;
	rc = sf_setid_fallocate(sf_fs_of(req), req, fd, err);
	fuse_reply_err(req, err ? err : -rc);
}

void sf_copy_file_range(fuse_req_t req, fuse_ino_t ino_in,
			off_t off_in, struct fuse_file_info *fi_in,
			fuse_ino_t ino_out, off_t off_out,
			struct fuse_file_info *fi_out, size_t len,
			int flags)
{
	int fd_in = sf_file_fd(sf_node(req, ino_in), fi_in);
	int fd_out = sf_file_fd(sf_node(req, ino_out), fi_out);
	loff_t in = off_in, out = off_out;
	ssize_t res;

	if (fd_in < 0 || fd_out < 0) {
		fuse_reply_err(req, fd_in < 0 ? -fd_in : -fd_out);
		return;
	}
	res = copy_file_range(fd_in, &in, fd_out, &out, len,
			      (unsigned int)flags);
	if (res < 0)
		fuse_reply_err(req, errno);
	else
		fuse_reply_write(req, (size_t)res);
}

void sf_lseek(fuse_req_t req, fuse_ino_t ino, off_t off, int whence,
	      struct fuse_file_info *fi)
{
	int fd = sf_file_fd(sf_node(req, ino), fi);
	off_t res;

	if (fd < 0) {
		fuse_reply_err(req, -fd);
		return;
	}
	res = lseek(fd, off, whence);
	if (res < 0)
		fuse_reply_err(req, errno);
	else
		fuse_reply_lseek(req, res);
}
