// SPDX-License-Identifier: GPL-2.0-only
/*
 * setid.c - set-user-ID and set-group-ID bits cleared at a write,
 * truncate or chown, as the kernel clears them for the caller.
 *
 * The daemon's backing calls run as root with CAP_FSETID, so the backing
 * filesystem keeps the bits where the caller's own write, truncate or
 * fallocate would have cleared them (setattr_should_drop_suidgid()), and
 * a chown clears only what it clears for root.  With
 * FUSE_HANDLE_KILLPRIV_V2 (caps.c) the kernel leaves the bits to the
 * daemon and says when in these requests:
 *  - SETATTR with a size, and FATTR_KILL_SUIDGID (libfuse:
 *    FUSE_SET_ATTR_KILL_SUID) when the caller lacks CAP_FSETID:
 *    truncate(2), ftruncate(2);
 *  - SETATTR of an owner or group: chown(2) (FATTR_KILL_SUIDGID always);
 *  - SETATTR with nothing to set: file_remove_privs() found a bit to
 *    clear at a write or copy_file_range (with passthrough the only
 *    request a write makes), or chown(2) with -1 and -1; at a
 *    fallocate(2), the FALLOCATE after it (sf_setid_fallocate());
 *  - OPEN with O_TRUNC (FUSE_OPEN_KILL_SUIDGID, which libfuse does not
 *    pass on: the caller's capabilities are read instead, and only when
 *    the file has a bit to lose).
 * WRITE's FUSE_WRITE_KILL_SUIDGID is not needed (libfuse does not pass
 * it on either): the empty SETATTR came before the WRITE.
 *
 * File capabilities (security.capability) need nothing here: the backing
 * filesystem's own write, truncate, fallocate and chown remove them
 * whoever calls (cap_inode_killpriv() does not look at the caller).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "smackfuse.h"

/*
 * capable(@cap) for the caller: in its effective set, and the caller in
 * the daemon's user namespace (capable() asks the initial one, where the
 * backing filesystem is; a container's root has its capabilities in its
 * own namespace only).
 */
static bool sf_setid_capable(struct sf_subject *s, int cap)
{
	char path[64], mine[64], theirs[64];
	ssize_t a, b;

	if (!sf_subject_capable(s, cap))
		return false;
	snprintf(path, sizeof(path), "/proc/%d/ns/user", s->pid);
	a = readlink("/proc/self/ns/user", mine, sizeof(mine));
	b = readlink(path, theirs, sizeof(theirs));
	return a > 0 && a == b && !memcmp(mine, theirs, (size_t)a);
}

/* setattr_should_drop_sgid(): set-group-ID goes with group execute, or
 * when the caller is not in the file's group and (unless @unpriv) has
 * no CAP_FSETID. */
static bool sf_drop_sgid(struct sf_subject *s, const struct stat *st,
			 bool unpriv)
{
	if (!(st->st_mode & S_ISGID))
		return false;
	if (st->st_mode & S_IXGRP)
		return true;
	return !sf_subject_in_group(s, st->st_gid) &&
	       (unpriv || !sf_setid_capable(s, SF_CAP_FSETID));
}

/* setattr_should_drop_suidgid(): what a write or truncate of the regular
 * file @st by @s clears; @unpriv when the kernel said that @s lacks
 * CAP_FSETID. */
static mode_t sf_write_kills(struct sf_subject *s, const struct stat *st,
			     bool unpriv)
{
	mode_t kill;

	if (!S_ISREG(st->st_mode))
		return 0;
	kill = st->st_mode & S_ISUID;
	if (sf_drop_sgid(s, st, true))
		kill |= S_ISGID;
	if (kill && !unpriv && sf_setid_capable(s, SF_CAP_FSETID))
		return 0;
	return kill;
}

/* chown_common(): set-user-ID always, set-group-ID as
 * setattr_should_drop_sgid() says; nothing of a directory. */
static mode_t sf_chown_kills(struct sf_subject *s, const struct stat *st)
{
	if (S_ISDIR(st->st_mode))
		return 0;
	return (st->st_mode & S_ISUID) |
	       (sf_drop_sgid(s, st, false) ? S_ISGID : 0);
}

/* setattr_prepare(): clearing bits changes the mode, which only the
 * owner or a holder of CAP_FOWNER may do (unless forced, as at a
 * write). */
static int sf_may_change_mode(struct sf_subject *s, const struct stat *st)
{
	return s->uid == st->st_uid || sf_setid_capable(s, SF_CAP_FOWNER) ?
	       0 : -EPERM;
}

/*
 * A SETATTR with nothing to set: chown(2) with -1 and -1, whose ctime and
 * killing the backing filesystem does for root (with our rule for the
 * group on top), or the kill of a write.  A call that cannot be told is
 * a write only for those who could make the chown.  fallocate(2)'s kill
 * waits for the FALLOCATE (sf_setid_fallocate()).
 */
static int sf_setid_empty(struct sf_subject *s, struct sf_node *n,
			  const struct stat *st, mode_t *kill)
{
	int call = sf_caller_call(s->pid);

	if (call == SF_CALL_FALLOCATE)
		return 0;
	if (call == SF_CALL_CHOWN) {
		*kill = sf_chown_kills(s, st);
		if (*kill && sf_may_change_mode(s, st))
			return -EPERM;
		if (fchownat(n->fd, "", (uid_t)-1, (gid_t)-1,
			     AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW))
			return -errno;
		return 0;
	}
	*kill = sf_write_kills(s, st, false);
	if (call == SF_CALL_UNKNOWN && *kill && sf_may_change_mode(s, st))
		return -EPERM;
	return 0;
}

/**
 * sf_setid_setattr - before a SETATTR of @n (@fd: the open file's
 * descriptor, or -1) with @valid: the set-ID bits it is to clear, in
 * *@kill for sf_setid_clear() once the SETATTR is done.  Returns 0 or a
 * negative errno for the SETATTR to fail with.
 */
int sf_setid_setattr(struct sf_fs *fs, struct sf_subject *s,
		     struct sf_node *n, int fd, int valid, mode_t *kill)
{
	const bool chown = valid & (FUSE_SET_ATTR_UID | FUSE_SET_ATTR_GID);
	const bool empty = !(valid & ~FUSE_SET_ATTR_KILL_SUID);
	const bool trunc = (valid & FUSE_SET_ATTR_SIZE) &&
			   (valid & FUSE_SET_ATTR_KILL_SUID);
	struct stat st;

	*kill = 0;
	if (!fs->caps.killpriv || n->type == S_IFLNK || !(chown || empty || trunc))
		return 0;
	if (fd >= 0 ? fstat(fd, &st) :
	    fstatat(n->fd, "", &st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW))
		return -errno;
	if (empty && !chown)
		return sf_setid_empty(s, n, &st, kill);
	if (!(st.st_mode & (S_ISUID | S_ISGID)))
		return 0;
	if (!chown) {
		*kill = sf_write_kills(s, &st, true);
		return 0;
	}
	*kill = sf_chown_kills(s, &st);
	return *kill ? sf_may_change_mode(s, &st) : 0;
}

/* Clear @kill's bits of @n (@fd: an open descriptor of it, or -1). */
int sf_setid_clear(struct sf_node *n, int fd, mode_t kill)
{
	char proc[64];
	struct stat st;
	mode_t mode;

	if (!kill)
		return 0;
	if (fd >= 0 ? fstat(fd, &st) :
	    fstatat(n->fd, "", &st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW))
		return -errno;
	if (!(st.st_mode & kill))
		return 0;
	mode = st.st_mode & 07777 & ~kill;
	if (fd >= 0)
		return fchmod(fd, mode) ? -errno : 0;
	sf_proc_path(n, proc, sizeof(proc));
	return fchmodat(AT_FDCWD, proc, mode, 0) ? -errno : 0;
}

/**
 * sf_setid_open - after the backing open of an open(2) with @flags, on
 * descriptor @fd: the truncation of O_TRUNC clears what a truncate
 * would.  Returns 0 or a negative errno.
 */
int sf_setid_open(struct sf_fs *fs, struct sf_subject *s, int fd, int flags)
{
	struct stat st;
	mode_t kill;

	if (!fs->caps.killpriv || !(flags & O_TRUNC) || fd < 0)
		return 0;
	if (fstat(fd, &st))
		return -errno;
	if (!(st.st_mode & (S_ISUID | S_ISGID)))
		return 0;
	kill = sf_write_kills(s, &st, false);
	if (kill && fchmod(fd, st.st_mode & 07777 & ~kill))
		return -errno;
	return 0;
}

/**
 * sf_setid_fallocate - after the backing fallocate(2) on @fd for @req,
 * which failed with errno @err (0: it did not): what it clears.  The
 * FUSE driver asks for the kill before the FALLOCATE (file_modified() in
 * fuse_file_fallocate()), where the backing filesystem refuses a mode it
 * lacks (EOPNOTSUPP) first and keeps the bits: so the kill is made here,
 * unless the backing filesystem said EOPNOTSUPP.  Returns 0 or -errno.
 */
int sf_setid_fallocate(struct sf_fs *fs, fuse_req_t req, int fd, int err)
{
	struct sf_subject s;
	struct stat st;
	mode_t kill;

	if (!fs->caps.killpriv || err == EOPNOTSUPP)
		return 0;
	if (fstat(fd, &st))
		return -errno;
	if (!(st.st_mode & (S_ISUID | S_ISGID)))
		return 0;
	sf_subject_get(fs, req, &s);
	kill = sf_write_kills(&s, &st, false);
	if (kill && fchmod(fd, st.st_mode & 07777 & ~kill))
		return -errno;
	return 0;
}

/**
 * sf_setid_acl - after the backing setxattr of @n's access ACL by @s:
 * set-group-ID goes unless @s is in the file's group or has CAP_FSETID
 * (posix_acl_update_mode(); the backing filesystem kept it for the
 * daemon).  Returns 0 or -errno.
 */
int sf_setid_acl(struct sf_subject *s, struct sf_node *n)
{
	struct stat st;

	if (n->type == S_IFLNK)
		return 0;
	if (fstatat(n->fd, "", &st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW))
		return -errno;
	if (!(st.st_mode & S_ISGID) || sf_subject_in_group(s, st.st_gid) ||
	    sf_setid_capable(s, SF_CAP_FSETID))
		return 0;
	return sf_setid_clear(n, -1, S_ISGID);
}
