// SPDX-License-Identifier: GPL-2.0-only
/*
 * ops_locks.c - lock requests: POSIX record locks (fcntl(2), OFD) and
 * flock(2), decided as smack_file_lock and smack_file_fcntl; lock.c
 * keeps the locks.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>

#include "ops.h"
#include "file.h"

/* smack_file_fcntl: lock for F_SETLK/F_SETLKW, smack_file_lock for the
 * OFD ones (and flock).  Unlocking is not checked: the kernel unlocks on
 * close, and that must never fail. */
static int sf_check_lock(fuse_req_t req, fuse_ino_t ino, int type)
{
	struct sf_fs *fs = sf_fs_of(req);
	struct sf_subject s;

	if (type == F_UNLCK)
		return 0;
	sf_subject_get(fs, req, &s);
	return sf_check_node(fs, &s, sf_node(req, ino), SF_MAY_LOCK,
			     "smack_file_lock", NULL);
}

/* Check a POSIX lock request of @type and find the open file description
 * of its owner (lock.c).  Returns the descriptor or a negative errno. */
static int sf_lock_fd(fuse_req_t req, fuse_ino_t ino,
		      struct fuse_file_info *fi, int type)
{
	int rc = sf_check_lock(req, ino, type);

	if (rc)
		return rc;
	return sf_lock_get(sf_node(req, ino), fi->lock_owner, fi->fh,
			   fi->flags);
}

/* F_GETLK and F_OFD_GETLK: no Smack check.  Mainline's smack_file_fcntl
 * lets F_GETLK through, and neither reaches smack_file_lock: testing a
 * lock takes none. */
void sf_getlk(fuse_req_t req, fuse_ino_t ino,
	      struct fuse_file_info *fi, struct flock *lock)
{
	int fd = sf_lock_get(sf_node(req, ino), fi->lock_owner, fi->fh,
			     fi->flags);
	int rc;

	if (fd < 0) {
		fuse_reply_err(req, -fd);
		return;
	}
	lock->l_pid = 0;
	rc = sf_lock_test(fd, lock);
	if (rc) {
		fuse_reply_err(req, rc);
		return;
	}
	if (lock->l_type != F_UNLCK)
		lock->l_pid = 1;	/* OFD locks have no pid to report */
	fuse_reply_lock(req, lock);
}

void sf_setlk(fuse_req_t req, fuse_ino_t ino,
	      struct fuse_file_info *fi, struct flock *lock, int sleep)
{
	int fd = sf_lock_fd(req, ino, fi, lock->l_type);

	if (fd < 0) {
		fuse_reply_err(req, -fd);
		return;
	}
	lock->l_pid = 0;
	if (sleep)
		fuse_reply_err(req, sf_lock_wait(req, fd, lock, 0));
	else
		fuse_reply_err(req, sf_lock_try(fd, lock, 0));
}

/* smack_file_lock: lock for flock(2). */
void sf_flock(fuse_req_t req, fuse_ino_t ino,
	      struct fuse_file_info *fi, int op)
{
	int rc, fd;

	rc = sf_check_lock(req, ino, (op & LOCK_UN) ? F_UNLCK : F_WRLCK);
	fd = rc ? rc : sf_file_fd(sf_node(req, ino), fi);
	if (fd < 0)
		fuse_reply_err(req, -fd);
	else if (op & (LOCK_NB | LOCK_UN))
		fuse_reply_err(req, sf_lock_try(fd, NULL, op));
	else
		fuse_reply_err(req, sf_lock_wait(req, fd, NULL, op));
}
