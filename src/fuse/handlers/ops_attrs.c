// SPDX-License-Identifier: GPL-2.0-only
/*
 * ops_attrs.c - attributes: getattr, setattr (mode, owner, size,
 * times), statfs, and access(2) (smack_inode_getattr, _setattr,
 * smack_sb_statfs, smack_inode_permission).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "ops.h"
#include "file.h"

void sf_getattr(fuse_req_t req, fuse_ino_t ino,
		struct fuse_file_info *fi)
{
	struct sf_fs *fs = sf_fs_of(req);
	struct sf_node *n = sf_node(req, ino);
	struct sf_subject s;
	struct stat st;
	int rc;

	sf_subject_get(fs, req, &s);
	rc = sf_check_getattr(fs, &s, n, fi);
	if (rc) {
		fuse_reply_err(req, -rc);
		return;
	}
	/* fi: the node's descriptor is of the same inode */
	if (fstatat(n->fd, "", &st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW)) {
		fuse_reply_err(req, errno);
		return;
	}
	sf_verdicts_post(fs, &s, NULL, n, true);
	fuse_reply_attr(req, &st, sf_attr_timeout(fs, n));
}

/* @fd: the open file's descriptor, for futimens(2); or -1. */
static int sf_utimens(struct sf_node *n, int fd, const struct timespec tv[2])
{
	char proc[64];

	if (fd >= 0)
		return futimens(fd, tv);
	if (n->type == S_IFLNK)
		return utimensat(n->fd, "", tv, AT_EMPTY_PATH |
				 AT_SYMLINK_NOFOLLOW);
	sf_proc_path(n, proc, sizeof(proc));
	return utimensat(AT_FDCWD, proc, tv, 0);
}

void sf_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr,
		int valid, struct fuse_file_info *fi)
{
	struct sf_fs *fs = sf_fs_of(req);
	struct sf_node *n = sf_node(req, ino);
	struct sf_subject s;
	char proc[64];
	struct stat st;
	mode_t kill;
	int rc, fd = -1;

	sf_subject_get(fs, req, &s);
	rc = sf_check_node(fs, &s, n, SF_MAY_WRITE, "smack_inode_setattr",
			   NULL);
	if (rc)
		goto out_err;
	/* A read-only open without a descriptor of its own goes through
	 * the node's, of the same inode; ftruncate comes only from opens
	 * that may write, which always have one. */
	if (fi)
		fd = sf_file_fd_if_open(fi);
	rc = sf_setid_setattr(fs, &s, n, fd, valid, &kill);
	if (rc)
		goto out_err;
	sf_proc_path(n, proc, sizeof(proc));
	rc = -EIO;
	if (valid & FUSE_SET_ATTR_MODE) {
		if (fd >= 0 ? fchmod(fd, attr->st_mode) :
		    fchmodat(AT_FDCWD, proc, attr->st_mode, 0))
			goto out_errno;
	}
	if (valid & (FUSE_SET_ATTR_UID | FUSE_SET_ATTR_GID)) {
		uid_t uid = (valid & FUSE_SET_ATTR_UID) ? attr->st_uid :
			(uid_t)-1;
		gid_t gid = (valid & FUSE_SET_ATTR_GID) ? attr->st_gid :
			(gid_t)-1;

		if (fchownat(n->fd, "", uid, gid, AT_EMPTY_PATH |
			     AT_SYMLINK_NOFOLLOW))
			goto out_errno;
	}
	if (valid & FUSE_SET_ATTR_SIZE) {
		if (fd >= 0 ? ftruncate(fd, attr->st_size) :
		    truncate(proc, attr->st_size))
			goto out_errno;
	}
	if (valid & (FUSE_SET_ATTR_ATIME | FUSE_SET_ATTR_MTIME)) {
		struct timespec tv[2];

		tv[0].tv_sec = tv[1].tv_sec = 0;
		tv[0].tv_nsec = tv[1].tv_nsec = UTIME_OMIT;
		if (valid & FUSE_SET_ATTR_ATIME_NOW)
			tv[0].tv_nsec = UTIME_NOW;
		else if (valid & FUSE_SET_ATTR_ATIME)
			tv[0] = attr->st_atim;
		if (valid & FUSE_SET_ATTR_MTIME_NOW)
			tv[1].tv_nsec = UTIME_NOW;
		else if (valid & FUSE_SET_ATTR_MTIME)
			tv[1] = attr->st_mtim;
		if (sf_utimens(n, fd, tv))
			goto out_errno;
	}
	rc = sf_setid_clear(n, fd, kill);
	if (rc)
		goto out_err;
	if (fstatat(n->fd, "", &st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW))
		goto out_errno;
	fuse_reply_attr(req, &st, sf_attr_timeout(fs, n));
	return;
out_errno:
	rc = -errno;
out_err:
	fuse_reply_err(req, -rc);
}

/* smack_sb_statfs: read on the mount's floor label. */
void sf_statfs(fuse_req_t req, fuse_ino_t ino)
{
	struct sf_fs *fs = sf_fs_of(req);
	struct sf_subject s;
	struct statvfs st;
	int rc;

	sf_subject_get(fs, req, &s);
	rc = sf_check_label(fs, &s, fs->opt.floor, SF_MAY_READ,
			    "smack_sb_statfs", &fs->root, NULL);
	if (rc)
		fuse_reply_err(req, -rc);
	else if (fstatvfs(sf_node(req, ino)->fd, &st))
		fuse_reply_err(req, errno);
	else
		fuse_reply_statfs(req, &st);
}

/* Not sent with default_permissions; answered as inode_permission would. */
void sf_op_access(fuse_req_t req, fuse_ino_t ino, int mask)
{
	struct sf_fs *fs = sf_fs_of(req);
	struct sf_subject s;
	u32 may = sf_access_request(mask);

	sf_subject_get(fs, req, &s);
	fuse_reply_err(req, may ? -sf_check_node(fs, &s, sf_node(req, ino),
						 may, SF_FN_PERM, NULL) : 0);
}
