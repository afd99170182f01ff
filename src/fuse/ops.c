// SPDX-License-Identifier: GPL-2.0-only
/*
 * ops.c - the FUSE operations, in struct fuse_lowlevel_ops order.
 *
 * Each operation has the shape of a mainline Smack hook: find the caller,
 * find the object, sf_check() what the VFS and smack_lsm.c would check,
 * then one backing *at() call and one reply.  The kernel checks the mode
 * bits itself (default_permissions).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "smackfuse.h"
#include "create.h"
#include "file.h"
#include "mountinfo.h"
#include "transport.h"

static struct sf_fs *sf_fs_of(fuse_req_t req)
{
	return fuse_req_userdata(req);
}

static bool sf_hidden(const char *name)
{
	return !strncmp(name, SF_TMP_PREFIX, SF_TMP_PREFIX_LEN);
}

static double sf_attr_timeout(struct sf_fs *fs, struct sf_node *n);

/*
 * Entry timeouts.  A cached name lets the kernel find the node without a
 * LOOKUP, and so without the LOOKUP's search check on @dir; but no walk
 * reaches the name without a permission check of @dir (may_lookup()),
 * and that check asks the daemon whenever @dir's attributes are not
 * cached: fuse_permission() refreshes expired attributes with a GETATTR,
 * which getattr.c decides as the walk's search, per caller.  So a name
 * may be cached in a directory every caller may search (sf_universal)
 * and in one whose attributes the kernel never keeps (sf_attr_timeout()
 * 0: a label some caller may lack a right on), which leaves only
 * directories whose attributes are cached for being every caller's own
 * ("*", "@", the one label of a one-label map): every caller searches
 * those too.  Issue 29: a name revisited in a user's directory costs no
 * LOOKUP now; the GETATTR of its directory decides as before.
 */
static double sf_timeout(struct sf_fs *fs, struct sf_node *dir)
{
	sf_lid lid = sf_node_label(fs, dir);

	if (fs->cache_strict)
		return 0;
	if (sf_attr_timeout(fs, dir) > 0 && !sf_universal(lid) &&
	    lid != fs->sole_subject)
		return 0;	/* a walk some caller may not make */
	return SF_CACHE_TIMEOUT;
}

/*
 * Attribute timeouts: with cached attributes the kernel answers every
 * permission check (access(2), the walk's search, may_create) from the
 * mode bits alone, without asking.  Only objects on which every subject
 * has every access whatever the rules may be cached: "*" and "@", and,
 * when the users map gives every caller one label, that label's own
 * objects (a subject has every access to its own label).  Any other
 * object's would let access(W_OK) through where mainline may say EACCES
 * (a floor object and a labelled caller).
 */
static double sf_attr_timeout(struct sf_fs *fs, struct sf_node *n)
{
	sf_lid lid;

	if (fs->cache_strict || atomic_load(&n->mapped_write))
		return 0;
	lid = sf_node_label(fs, n);
	return lid == SF_LID_STAR || lid == SF_LID_WEB ||
	       lid == fs->sole_subject ? SF_CACHE_TIMEOUT : 0;
}

/*
 * A shared writable mapping of a passed-through file writes the backing
 * file behind the kernel's attribute cache (backing_file_mmap(): the
 * FUSE inode hears of no fault), so stat(2) would show the times of
 * before the write until the attributes timed out.  A node opened for
 * reading and writing with passthrough (such a mapping needs O_RDWR) is
 * therefore no longer cached, and what the kernel cached is dropped now.
 */
static void sf_open_mapped_write(struct sf_fs *fs, struct sf_node *n,
				 int flags, int32_t backing_id)
{
	bool cached;

	if (backing_id <= 0 || (flags & O_ACCMODE) != O_RDWR ||
	    atomic_load(&n->mapped_write))
		return;
	cached = sf_attr_timeout(fs, n) > 0;
	if (!atomic_exchange(&n->mapped_write, true) && cached)
		fuse_lowlevel_notify_inval_inode(fs->se, sf_node_ino(fs, n),
						 -1, 0);
}

static void sf_entry_timeouts(struct sf_fs *fs, struct sf_node *dir,
			      struct sf_node *n, struct fuse_entry_param *e,
			      const char *name)
{
	e->attr_timeout = sf_attr_timeout(fs, n);
	e->entry_timeout = sf_timeout(fs, dir);
	sf_node_remember_entry(fs, n, sf_node_ino(fs, dir), name,
			       e->entry_timeout > 0);
}

/* Directory permission the VFS asks for before creating or removing a
 * name: may_create()/may_delete() -> inode_permission(dir, MAY_WRITE |
 * MAY_EXEC). */
static int sf_check_dir_change(struct sf_fs *fs, struct sf_subject *s,
			       struct sf_node *dir, const char *name)
{
	return sf_check(fs, s, dir, SF_MAY_WRITE | SF_MAY_EXEC, SF_FN_PERM,
			name);
}

/* The check of an operation that needs nothing else of its caller:
 * replies with the error and returns non-zero when denied. */
static int sf_check_or_reply(fuse_req_t req, struct sf_node *n, u32 request,
			     const char *fn)
{
	struct sf_fs *fs = sf_fs_of(req);
	struct sf_subject s;
	int rc;

	sf_subject_get(fs, req, &s);
	rc = sf_check(fs, &s, n, request, fn, NULL);
	if (rc)
		fuse_reply_err(req, -rc);
	return rc;
}

/* The node @name refers to in @dir, with a lookup reference, or NULL. */
static struct sf_node *sf_peek(struct sf_fs *fs, struct sf_node *dir,
			       const char *name, int *err)
{
	struct fuse_entry_param e;
	struct sf_node *n = NULL;

	*err = sf_node_lookup(fs, dir, name, &e, &n);
	return *err ? NULL : n;
}

/*
 * The kernel reads ahead at most 128 KiB on a FUSE mount; sequential reads
 * need more to keep up with the backing disk.  Raised from a thread: the
 * mount's device number is only known once INIT has been answered.
 */
static void *sf_readahead_thread(void *arg)
{
	struct sf_fs *fs = arg;
	char path[96], cur[32];
	dev_t dev;
	FILE *f;

	sf_atime_mounted(fs);
	/* Not stat(): that is a request to ourselves (see mountinfo.c). */
	dev = sf_mount_dev(fs->mountpoint);
	if (!dev)
		return NULL;
	snprintf(path, sizeof(path), "/sys/class/bdi/%u:%u/read_ahead_kb",
		 major(dev), minor(dev));
	f = fopen(path, "r+e");
	if (!f)
		return NULL;
	if (fgets(cur, sizeof(cur), f) && atoi(cur) < 1024) {
		rewind(f);
		fputs("1024\n", f);
	}
	fclose(f);
	return NULL;
}

static void sf_init(void *userdata, struct fuse_conn_info *conn)
{
	struct sf_fs *fs = userdata;
	pthread_t t;

	/* Writes arrive through a pipe (splice); replies are not spliced
	 * (see sf_read). */
	if (conn->capable & FUSE_CAP_SPLICE_READ)
		conn->want |= FUSE_CAP_SPLICE_READ;
	if (conn->capable & FUSE_CAP_FLOCK_LOCKS)
		conn->want |= FUSE_CAP_FLOCK_LOCKS;
	if (conn->capable & FUSE_CAP_POSIX_LOCKS)
		conn->want |= FUSE_CAP_POSIX_LOCKS;
	if (conn->capable & FUSE_CAP_ATOMIC_O_TRUNC)
		conn->want |= FUSE_CAP_ATOMIC_O_TRUNC;
	/* Passthrough needs it off too: writes are decided at open. */
	conn->want &= ~FUSE_CAP_WRITEBACK_CACHE;
	sf_caps_init(fs, conn);
	sf_transport_init(fs, conn);
	conn->max_write = 1024 * 1024;
	if (fs->cache_strict)
		conn->want &= ~FUSE_CAP_READDIRPLUS_AUTO;
	if (!pthread_create(&t, NULL, sf_readahead_thread, fs))
		pthread_detach(t);
}

static void sf_destroy(void *userdata)
{
	(void)userdata;
}

static void sf_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct sf_fs *fs = sf_fs_of(req);
	struct sf_node *dir, *n;
	struct fuse_entry_param e;
	struct sf_subject s;
	int rc;

	/* Only the kernel's handle decoding asks for "." (perhaps of a node
	 * id we do not know) and ".."; inode.c and handle.c. */
	if (name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]))) {
		rc = sf_node_lookup_handle(fs, parent, name, &e, &n);
		if (rc) {
			fuse_reply_err(req, -rc);
			return;
		}
		sf_entry_timeouts(fs, n, n, &e, name);
		fuse_reply_entry(req, &e);
		return;
	}
	dir = sf_node(req, parent);
	sf_subject_get(fs, req, &s);
	rc = sf_check(fs, &s, dir, SF_MAY_EXEC, SF_FN_PERM, name);
	if (!rc)
		rc = sf_node_lookup(fs, dir, name, &e, &n);
	if (rc) {
		fuse_reply_err(req, -rc);
		return;
	}
	sf_entry_timeouts(fs, dir, n, &e, name);
	fuse_reply_entry(req, &e);
}

static void sf_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup)
{
	sf_node_forget(sf_fs_of(req), sf_node(req, ino), nlookup);
	fuse_reply_none(req);
}

static void sf_getattr(fuse_req_t req, fuse_ino_t ino,
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

static void sf_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr,
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
	rc = sf_check(fs, &s, n, SF_MAY_WRITE, "smack_inode_setattr", NULL);
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

/* No Smack check, as mainline has no readlink hook: a subject follows a
 * symlink of any label to a target it may use. */
static void sf_readlink(fuse_req_t req, fuse_ino_t ino)
{
	struct sf_node *n = sf_node(req, ino);
	char buf[PATH_MAX + 1];
	ssize_t len;

	len = readlinkat(n->fd, "", buf, sizeof(buf));
	if (len < 0) {
		fuse_reply_err(req, errno);
		return;
	}
	if (len == sizeof(buf)) {
		fuse_reply_err(req, ENAMETOOLONG);
		return;
	}
	buf[len] = '\0';
	fuse_reply_readlink(req, buf);
}

/* mknod, mkdir and symlink: check, label, create hidden, rename in. */
static void sf_make(fuse_req_t req, fuse_ino_t parent, const char *name,
		    mode_t mode, dev_t rdev, const char *link)
{
	struct sf_fs *fs = sf_fs_of(req);
	struct sf_node *dir = sf_node(req, parent), *n;
	struct fuse_entry_param e;
	struct sf_subject s;
	bool transmute;
	sf_lid label;
	int rc, fd;

	sf_subject_get(fs, req, &s);
	rc = sf_check_dir_change(fs, &s, dir, name);
	if (rc)
		goto out_err;
	if (sf_hidden(name)) {
		rc = -EPERM;
		goto out_err;
	}
	label = sf_new_label(fs, &s, dir, &transmute);
	rc = sf_create_umask(fuse_req_ctx(req)->umask);
	if (!rc)
		rc = sf_make_node(fs, &s, dir, name, mode, rdev, link, label,
				  transmute, &fd);
	if (!rc)
		rc = sf_node_from_fd(fs, fd, &e, &n);
	if (rc)
		goto out_err;
	atomic_store(&n->label, label);
	atomic_store(&n->flags, SF_NODE_LABEL_VALID |
		     (transmute && S_ISDIR(mode) ? SF_NODE_TRANSMUTE : 0));
	sf_entry_timeouts(fs, dir, n, &e, name);
	fuse_reply_entry(req, &e);
	return;
out_err:
	fuse_reply_err(req, -rc);
}

static void sf_mknod(fuse_req_t req, fuse_ino_t parent, const char *name,
		     mode_t mode, dev_t rdev)
{
	sf_make(req, parent, name, mode, rdev, NULL);
}

static void sf_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name,
		     mode_t mode)
{
	sf_make(req, parent, name, S_IFDIR | mode, 0, NULL);
}

/* unlink and rmdir: smack_inode_unlink/rmdir want write on the victim
 * and on the directory, after the VFS's may_delete(). */
static void sf_remove(fuse_req_t req, fuse_ino_t parent, const char *name,
		      int flags, const char *fn)
{
	struct sf_fs *fs = sf_fs_of(req);
	struct sf_node *dir = sf_node(req, parent), *victim;
	struct sf_subject s;
	int rc;

	sf_subject_get(fs, req, &s);
	rc = sf_check_dir_change(fs, &s, dir, name);
	if (rc)
		goto out;
	victim = sf_peek(fs, dir, name, &rc);
	if (!victim)
		goto out;
	rc = sf_check(fs, &s, victim, SF_MAY_WRITE, fn, NULL);
	sf_node_forget(fs, victim, 1);
	if (!rc && unlinkat(dir->fd, name, flags))
		rc = -errno;
out:
	fuse_reply_err(req, -rc);
}

static void sf_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	sf_remove(req, parent, name, 0, "smack_inode_unlink");
}

static void sf_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	sf_remove(req, parent, name, AT_REMOVEDIR, "smack_inode_rmdir");
}

static void sf_symlink(fuse_req_t req, const char *link, fuse_ino_t parent,
		       const char *name)
{
	sf_make(req, parent, name, S_IFLNK | 0777, 0, link);
}

/* smack_inode_rename: read-write on the source and on any target, after
 * may_delete()/may_create() on both directories. */
static void sf_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
		      fuse_ino_t newparent, const char *newname,
		      unsigned int flags)
{
	struct sf_fs *fs = sf_fs_of(req);
	struct sf_node *odir = sf_node(req, parent);
	struct sf_node *ndir = sf_node(req, newparent), *src, *dst;
	struct sf_subject s;
	int rc;

	if (flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE)) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	if (sf_hidden(name) || sf_hidden(newname)) {
		fuse_reply_err(req, sf_hidden(name) ? ENOENT : EPERM);
		return;
	}
	sf_subject_get(fs, req, &s);
	rc = sf_check_dir_change(fs, &s, odir, name);
	if (!rc)
		rc = sf_check_dir_change(fs, &s, ndir, newname);
	if (rc)
		goto out;
	src = sf_peek(fs, odir, name, &rc);
	if (!src)
		goto out;
	rc = sf_check(fs, &s, src, SF_MAY_READWRITE, "smack_inode_rename",
		      NULL);
	sf_node_forget(fs, src, 1);
	if (rc)
		goto out;
	dst = sf_peek(fs, ndir, newname, &rc);
	if (dst) {
		rc = sf_check(fs, &s, dst, SF_MAY_READWRITE,
			      "smack_inode_rename", NULL);
		sf_node_forget(fs, dst, 1);
		if (rc)
			goto out;
	} else if (rc != -ENOENT) {
		goto out;
	}
	rc = renameat2(odir->fd, name, ndir->fd, newname, flags) ? -errno : 0;
out:
	fuse_reply_err(req, -rc);
}

/* smack_inode_link: write on the object being linked. */
static void sf_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t newparent,
		    const char *newname)
{
	struct sf_fs *fs = sf_fs_of(req);
	struct sf_node *n = sf_node(req, ino), *dir = sf_node(req, newparent);
	struct fuse_entry_param e;
	struct sf_subject s;
	char proc[64];
	int rc;

	sf_subject_get(fs, req, &s);
	rc = sf_check_dir_change(fs, &s, dir, newname);
	if (!rc)
		rc = sf_check(fs, &s, n, SF_MAY_WRITE, "smack_inode_link", NULL);
	if (!rc && sf_hidden(newname))
		rc = -EPERM;
	if (rc)
		goto out_err;
	sf_proc_path(n, proc, sizeof(proc));
	if (linkat(AT_FDCWD, proc, dir->fd, newname, AT_SYMLINK_FOLLOW)) {
		rc = -errno;
		goto out_err;
	}
	memset(&e, 0, sizeof(e));
	if (fstatat(n->fd, "", &e.attr, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW)) {
		rc = -errno;
		goto out_err;
	}
	sf_node_ref(fs, n);
	e.ino = ino;
	e.generation = n->gen;
	sf_entry_timeouts(fs, dir, n, &e, newname);
	fuse_reply_entry(req, &e);
	return;
out_err:
	fuse_reply_err(req, -rc);
}

/* A read-only open that the kernel passes through gets the daemon's
 * descriptor on first use (file.c). */
static bool sf_open_lazily(const struct sf_node *n, int flags,
			   int32_t backing_id)
{
	return backing_id > 0 && n->type == S_IFREG &&
	       (flags & O_ACCMODE) == O_RDONLY && !(flags & O_TRUNC);
}

static void sf_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
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
	/* A passed-through file has no page cache of its own to keep. */
	fi->keep_cache = !backing_id && !fs->cache_strict;
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
static void sf_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
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
static void sf_write_buf(fuse_req_t req, fuse_ino_t ino,
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

static void sf_flush(fuse_req_t req, fuse_ino_t ino,
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

static void sf_release(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	struct sf_node *n = sf_node(req, ino);

	if (fi->flock_release || fi->lock_owner)
		sf_lock_release_owner(n, fi->lock_owner);
	sf_lock_release_file(n, fi->fh);
	sf_file_release(fi);
	fuse_reply_err(req, 0);
}

static void sf_fsync(fuse_req_t req, fuse_ino_t ino, int datasync,
		     struct fuse_file_info *fi)
{
	int fd = sf_file_fd(sf_node(req, ino), fi);

	if (fd < 0)
		fuse_reply_err(req, -fd);
	else
		fuse_reply_err(req, (datasync ? fdatasync(fd) : fsync(fd)) ?
			       errno : 0);
}

struct sf_dir {
	DIR *dp;
	off_t offset;
	struct dirent *entry;
};

static void sf_opendir(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	struct sf_node *n = sf_node(req, ino);
	struct sf_dir *d;
	int rc, fd;

	if (sf_check_or_reply(req, n, SF_MAY_READ, "smack_file_open"))
		return;
	d = calloc(1, sizeof(*d));
	if (!d) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	fd = openat(n->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || !(d->dp = fdopendir(fd))) {
		rc = errno;
		if (fd >= 0)
			close(fd);
		free(d);
		fuse_reply_err(req, rc);
		return;
	}
	fi->fh = (uintptr_t)d;
	fi->cache_readdir = 0;
	if (fuse_reply_open(req, fi) == -ENOENT) {
		closedir(d->dp);
		free(d);
	}
}

static struct sf_dir *sf_dir(struct fuse_file_info *fi)
{
	return (struct sf_dir *)(uintptr_t)fi->fh;
}

/*
 * A hidden name another daemon left behind (killed between creating an
 * object and renaming it into place) is removed when readdir meets it.
 * Only old ones: another daemon over the same tree may be using it now.
 */
static void sf_reap_hidden(struct sf_node *dir, const char *name)
{
	struct stat st;
	long pid = strtol(name + SF_TMP_PREFIX_LEN, NULL, 10);

	if (pid == getpid() ||
	    fstatat(dir->fd, name, &st, AT_SYMLINK_NOFOLLOW) ||
	    time(NULL) - st.st_mtime < 60)
		return;
	unlinkat(dir->fd, name, S_ISDIR(st.st_mode) ? AT_REMOVEDIR : 0);
}

static void sf_do_readdir(fuse_req_t req, fuse_ino_t ino, size_t size,
			  off_t offset, struct fuse_file_info *fi, bool plus)
{
	struct sf_fs *fs = sf_fs_of(req);
	struct sf_node *dir = sf_node(req, ino);
	struct sf_dir *d = sf_dir(fi);
	char *buf = calloc(1, size), *p;
	size_t rem = size;
	int err = 0;

	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	if (offset != d->offset) {
		seekdir(d->dp, offset);
		d->entry = NULL;
		d->offset = offset;
	}
	p = buf;
	for (;;) {
		struct fuse_entry_param e;
		struct sf_node *n = NULL;
		const char *name;
		size_t len;

		if (!d->entry) {
			errno = 0;
			d->entry = readdir(d->dp);
			if (!d->entry) {
				err = errno;
				break;
			}
		}
		name = d->entry->d_name;
		if (sf_hidden(name)) {
			sf_reap_hidden(dir, name);
			d->offset = d->entry->d_off;
			d->entry = NULL;
			continue;
		}
		if (plus && strcmp(name, ".") && strcmp(name, "..")) {
			err = -sf_node_lookup(fs, dir, name, &e, &n);
			if (err == ENOENT) {	/* gone meanwhile */
				err = 0;
				d->offset = d->entry->d_off;
				d->entry = NULL;
				continue;
			}
			if (err)
				break;
			sf_entry_timeouts(fs, dir, n, &e, name);
			len = fuse_add_direntry_plus(req, p, rem, name, &e,
						     d->entry->d_off);
		} else if (plus) {
			memset(&e, 0, sizeof(e));
			e.attr.st_ino = d->entry->d_ino;
			e.attr.st_mode = (mode_t)d->entry->d_type << 12;
			len = fuse_add_direntry_plus(req, p, rem, name, &e,
						     d->entry->d_off);
		} else {
			struct stat st = {
				.st_ino = d->entry->d_ino,
				.st_mode = (mode_t)d->entry->d_type << 12,
			};

			len = fuse_add_direntry(req, p, rem, name, &st,
						d->entry->d_off);
		}
		if (len > rem) {
			if (n)
				sf_node_forget(fs, n, 1);
			break;
		}
		p += len;
		rem -= len;
		d->offset = d->entry->d_off;
		d->entry = NULL;
	}
	if (err && rem == size)
		fuse_reply_err(req, err);
	else
		fuse_reply_buf(req, buf, size - rem);
	free(buf);
}

static void sf_readdir(fuse_req_t req, fuse_ino_t ino, size_t size,
		       off_t offset, struct fuse_file_info *fi)
{
	sf_do_readdir(req, ino, size, offset, fi, false);
}

static void sf_releasedir(fuse_req_t req, fuse_ino_t ino,
			  struct fuse_file_info *fi)
{
	struct sf_dir *d = sf_dir(fi);

	(void)ino;
	closedir(d->dp);
	free(d);
	fuse_reply_err(req, 0);
}

static void sf_fsyncdir(fuse_req_t req, fuse_ino_t ino, int datasync,
			struct fuse_file_info *fi)
{
	int fd = dirfd(sf_dir(fi)->dp), rc;

	(void)ino;
	rc = datasync ? fdatasync(fd) : fsync(fd);
	fuse_reply_err(req, rc ? errno : 0);
}

/* smack_sb_statfs: read on the mount's floor label. */
static void sf_statfs(fuse_req_t req, fuse_ino_t ino)
{
	struct sf_fs *fs = sf_fs_of(req);
	struct sf_subject s;
	struct statvfs st;
	int rc;

	sf_subject_get(fs, req, &s);
	rc = sf_check_label(fs, &s, fs->floor, SF_MAY_READ, "smack_sb_statfs",
			    &fs->root, NULL);
	if (rc)
		fuse_reply_err(req, -rc);
	else if (fstatvfs(sf_node(req, ino)->fd, &st))
		fuse_reply_err(req, errno);
	else
		fuse_reply_statfs(req, &st);
}

/* A Smack attribute value as smk_import_entry() reads it: up to the
 * first NUL or white space. */
static size_t sf_label_len(const char *value, size_t size)
{
	size_t i;

	for (i = 0; i < size; i++)
		if (!value[i] || value[i] == ' ' || value[i] == '\n' ||
		    value[i] == '\t')
			break;
	return i;
}

/* smack_inode_setxattr(): checks on the name and the value. */
static int sf_setxattr_smack(struct sf_fs *fs, struct sf_subject *s,
			     struct sf_node *n, const char *name,
			     const char *value, size_t size, sf_lid *lid)
{
	const char *attr = name + strlen("security.");
	size_t len;

	if (!sf_privileged(fs, s, SF_CAP_MAC_ADMIN))
		return -EPERM;
	if (!strcmp(attr, "SMACK64TRANSMUTE")) {
		if (n->type != S_IFDIR || size != 4 || memcmp(value, "TRUE", 4))
			return -EINVAL;
		return 0;
	}
	if (strcmp(attr, "SMACK64") && strcmp(attr, "SMACK64EXEC") &&
	    strcmp(attr, "SMACK64MMAP") && strcmp(attr, "SMACK64IPIN") &&
	    strcmp(attr, "SMACK64IPOUT"))
		return 0;
	len = sf_label_len(value, size);
	if (!len || sf_label_intern(fs->labels, value, len, lid, NULL))
		return -EINVAL;
	if ((!strcmp(attr, "SMACK64EXEC") || !strcmp(attr, "SMACK64MMAP")) &&
	    (*lid == SF_LID_STAR || *lid == SF_LID_WEB))
		return -EINVAL;
	return 0;
}

static void *sf_invalidate_thread(void *arg)
{
	sf_invalidate_all(arg);
	return NULL;
}

/* A label changed: the kernel's cached entries below it may now be
 * wrong.  Not from this thread: the kernel holds the directory locked. */
static void sf_invalidate_later(struct sf_fs *fs)
{
	pthread_t t;

	if (!pthread_create(&t, NULL, sf_invalidate_thread, fs))
		pthread_detach(t);
}

static void sf_setxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
			const char *value, size_t size, int flags)
{
	struct sf_fs *fs = sf_fs_of(req);
	struct sf_node *n = sf_node(req, ino);
	sf_lid lid = SF_LID_INVALID;
	char bname[XATTR_NAME_MAX + 1], proc[64];
	const char *backing;
	struct sf_subject s;
	bool is_smack;
	int rc;

	backing = sf_xattr_backing(fs, name, bname, sizeof(bname), &is_smack);
	if (!backing) {
		fuse_reply_err(req, EPERM);
		return;
	}
	sf_subject_get(fs, req, &s);
	rc = is_smack ? sf_setxattr_smack(fs, &s, n, name, value, size, &lid)
		      : 0;
	if (!rc)
		rc = sf_check(fs, &s, n, SF_MAY_WRITE, sf_acl_name(name) ?
			      "smack_inode_set_acl" : "smack_inode_setxattr",
			      NULL);
	if (rc)
		goto out;
	sf_proc_path(n, proc, sizeof(proc));
	if (lid != SF_LID_INVALID) {
		/* Store the label itself, as smack_inode_post_setxattr
		 * keeps it. */
		const char *l = sf_label_name(fs->labels, lid);

		rc = setxattr(proc, backing, l, strlen(l), flags);
	} else {
		rc = setxattr(proc, backing, value, size, flags);
	}
	if (rc) {
		rc = -errno;
		goto out;
	}
	if (sf_acl_access_name(name))
		rc = sf_setid_acl(&s, n);
	if (is_smack && !strcmp(name, "security.SMACK64")) {
		atomic_store(&n->label, lid);
		if (n != &fs->root)
			sf_node_label_invalidate(n);
		sf_acl_label_changed(fs, n);
		/* The kernel refreshes this inode's attributes itself; a
		 * directory's children may be cached under its old label. */
		if (n->type == S_IFDIR)
			sf_invalidate_later(fs);
	} else if (is_smack && !strcmp(name, "security.SMACK64TRANSMUTE")) {
		atomic_fetch_or(&n->flags, SF_NODE_TRANSMUTE);
		sf_node_label_invalidate(n);
	}
out:
	fuse_reply_err(req, -rc);
}

static int sf_reply_value(fuse_req_t req, const char *value, size_t len,
			  size_t size)
{
	if (!size)
		return fuse_reply_xattr(req, len);
	if (len > size)
		return fuse_reply_err(req, ERANGE);
	return fuse_reply_buf(req, value, len);
}

static void sf_getxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
			size_t size)
{
	struct sf_fs *fs = sf_fs_of(req);
	struct sf_node *n = sf_node(req, ino);
	char bname[XATTR_NAME_MAX + 1], proc[64], *value = NULL;
	const bool acl = sf_acl_name(name);
	bool is_smack, kernel = false;
	const char *backing;
	struct sf_subject s;
	ssize_t len;
	int err;

	backing = sf_xattr_backing(fs, name, bname, sizeof(bname), &is_smack);
	if (!backing) {
		fuse_reply_err(req, ENODATA);
		return;
	}
	/* The kernel's own reads (killpriv, exec, smackfuse.ko's checks,
	 * an ACL for a permission check): the answer goes to the kernel,
	 * which mainline asks no hook for. */
	if (acl) {
		sf_subject_get(fs, req, &s);
		err = sf_acl_check_get(fs, &s, n, &kernel);
		if (err) {
			fuse_reply_err(req, -err);
			return;
		}
	} else if (!sf_kernel_reads_xattr(name, fuse_req_ctx(req)->pid) &&
		   sf_check_or_reply(req, n, SF_MAY_READ,
				     "smack_inode_getxattr")) {
		return;
	}
	if (!strcmp(name, "security.SMACK64")) {
		/* smack_inode_getsecurity: the label in force. */
		const char *l = sf_label_name(fs->labels, sf_node_label(fs, n));

		sf_reply_value(req, l, strlen(l), size);
		return;
	}
	sf_proc_path(n, proc, sizeof(proc));
	if (size) {
		value = malloc(size);
		if (!value) {
			fuse_reply_err(req, ENOMEM);
			return;
		}
	}
	len = getxattr(proc, backing, value, size);
	err = len < 0 ? errno : 0;
	if (acl) {
		int kerr = sf_acl_get_error(fs, &s, err, kernel);

		/* an answer for the kernel alone is never left cached */
		sf_acl_before_reply(fs, n, kerr != err);
		err = kerr;
	}
	if (err)
		fuse_reply_err(req, err);
	else if (size)
		fuse_reply_buf(req, value, (size_t)len);
	else
		fuse_reply_xattr(req, (size_t)len);
	free(value);
}

/* With -o xattr=PREFIX: show PREFIX"SMACK64..." as "security.SMACK64...",
 * hide the host's own security.SMACK64* and anything else under PREFIX. */
static size_t sf_list_rewrite(struct sf_fs *fs, const char *in, size_t len,
			      char *out)
{
	size_t plen = strlen(fs->xattr_prefix), o = 0;
	const char *p;

	for (p = in; p < in + len; p += strlen(p) + 1) {
		if (!strncmp(p, fs->xattr_prefix, plen)) {
			if (strncmp(p + plen, "SMACK64", 7))
				continue;
			o += (size_t)sprintf(out + o, "security.%s", p + plen)
				+ 1;
		} else if (!strncmp(p, "security.SMACK64", 16)) {
			continue;
		} else {
			memcpy(out + o, p, strlen(p) + 1);
			o += strlen(p) + 1;
		}
	}
	return o;
}

static void sf_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size)
{
	struct sf_fs *fs = sf_fs_of(req);
	struct sf_node *n = sf_node(req, ino);
	char proc[64], *raw = NULL, *out = NULL;
	ssize_t len;
	size_t olen;
	int rc;

	/* No Smack check, as mainline has no listxattr hook. */
	sf_proc_path(n, proc, sizeof(proc));
	len = listxattr(proc, NULL, 0);
	if (len < 0) {
		fuse_reply_err(req, errno);
		return;
	}
	raw = malloc((size_t)len + 1);
	out = malloc((size_t)len * 2 + 64);
	if (!raw || !out) {
		rc = ENOMEM;
		goto out;
	}
	len = listxattr(proc, raw, (size_t)len);
	if (len < 0) {
		rc = errno;
		goto out;
	}
	if (fs->xattr_prefix) {
		olen = sf_list_rewrite(fs, raw, (size_t)len, out);
	} else {
		memcpy(out, raw, (size_t)len);
		olen = (size_t)len;
	}
	sf_reply_value(req, out, olen, size);
	free(raw);
	free(out);
	return;
out:
	free(raw);
	free(out);
	fuse_reply_err(req, rc);
}

static void sf_removexattr(fuse_req_t req, fuse_ino_t ino, const char *name)
{
	struct sf_fs *fs = sf_fs_of(req);
	struct sf_node *n = sf_node(req, ino);
	char bname[XATTR_NAME_MAX + 1], proc[64];
	const char *backing;
	struct sf_subject s;
	bool is_smack;
	int rc = 0;

	backing = sf_xattr_backing(fs, name, bname, sizeof(bname), &is_smack);
	if (!backing) {
		fuse_reply_err(req, EPERM);
		return;
	}
	sf_subject_get(fs, req, &s);
	if (is_smack && !sf_privileged(fs, &s, SF_CAP_MAC_ADMIN))
		rc = -EPERM;
	if (!rc)
		rc = sf_check(fs, &s, n, SF_MAY_WRITE, sf_acl_name(name) ?
			      "smack_inode_remove_acl" :
			      "smack_inode_removexattr", NULL);
	if (rc)
		goto out;
	sf_proc_path(n, proc, sizeof(proc));
	if (removexattr(proc, backing)) {
		rc = -errno;
		goto out;
	}
	if (is_smack) {
		if (n == &fs->root && !strcmp(name, "security.SMACK64"))
			atomic_store(&n->label, fs->def);
		if (n == &fs->root &&
		    !strcmp(name, "security.SMACK64TRANSMUTE"))
			atomic_fetch_and(&n->flags, ~SF_NODE_TRANSMUTE);
		sf_node_label_invalidate(n);
		sf_acl_label_changed(fs, n);
		if (n->type == S_IFDIR)
			sf_invalidate_later(fs);
	}
out:
	fuse_reply_err(req, -rc);
}

/* Not sent with default_permissions; answered as inode_permission would. */
static void sf_op_access(fuse_req_t req, fuse_ino_t ino, int mask)
{
	struct sf_fs *fs = sf_fs_of(req);
	struct sf_subject s;
	u32 may = sf_access_request(mask);

	sf_subject_get(fs, req, &s);
	fuse_reply_err(req, may ? -sf_check(fs, &s, sf_node(req, ino), may,
					    SF_FN_PERM, NULL) : 0);
}

/*
 * CREATE's (and TMPFILE's) reply: node @n is new or just looked up, with
 * its entry in @e, and @fd serves the caller's open.  Takes @fd and, on
 * failure, the node's lookup reference.
 */
static void sf_reply_created(fuse_req_t req, struct sf_node *n,
			     struct fuse_entry_param *e, int fd,
			     struct fuse_file_info *fi)
{
	struct sf_fs *fs = sf_fs_of(req);
	struct sf_open_reply reply = { 0 };
	int32_t backing_id;
	int rc;

	backing_id = sf_passthrough_open(fs, req, n);
	rc = backing_id < 0 ? backing_id : sf_file_new(fi, fd, fi->flags);
	if (rc) {
		close(fd);
		sf_node_forget(fs, n, 1);
		fuse_reply_err(req, -rc);
		return;
	}
	fi->keep_cache = !backing_id && !fs->cache_strict;
	sf_open_mapped_write(fs, n, fi->flags, backing_id);
	if (atomic_load(&n->mapped_write))
		e->attr_timeout = 0;
	reply.entry = e;
	reply.fi = fi;
	reply.backing_id = backing_id;
	if (sf_reply_open(req, &reply) == -ENOENT) {
		sf_file_release(fi);
		sf_node_forget(fs, n, 1);
	}
}

/*
 * What a new regular file @name in @dir (NULL: an unnamed one) asks of
 * its creator @s, as create(2) and open(O_TMPFILE) ask it: w and x on
 * the directory, then smack_file_open()'s read of the label it gets
 * (*@label; it differs from the caller's own only when transmuted).  The
 * caller's umask then becomes the creating thread's.
 */
static int sf_new_file_check(fuse_req_t req, struct sf_subject *s,
			     struct sf_node *dir, const char *name,
			     sf_lid *label)
{
	struct sf_fs *fs = sf_fs_of(req);
	bool transmute;
	int rc;

	rc = sf_check_dir_change(fs, s, dir, name);
	if (!rc && name && sf_hidden(name))
		rc = -EPERM;
	if (rc)
		return rc;
	*label = sf_new_label(fs, s, dir, &transmute);
	rc = sf_check_label(fs, s, *label, SF_MAY_READ, "smack_file_open",
			    dir, name);
	return rc ? rc : sf_create_umask(fuse_req_ctx(req)->umask);
}

static void sf_create(fuse_req_t req, fuse_ino_t parent, const char *name,
		      mode_t mode, struct fuse_file_info *fi)
{
	struct sf_fs *fs = sf_fs_of(req);
	struct sf_node *dir = sf_node(req, parent), *n;
	struct fuse_entry_param e;
	struct sf_subject s;
	sf_lid label;
	int rc, pfd, fd;

	sf_subject_get(fs, req, &s);
	rc = sf_new_file_check(req, &s, dir, name, &label);
	if (!rc)
		rc = sf_make_file(fs, &s, dir, name, mode, fi->flags, label,
				  &pfd, &fd);
	if (rc == -EEXIST && !(fi->flags & O_EXCL)) {
		/* Created meanwhile: open it as open(2) would. */
		n = sf_peek(fs, dir, name, &rc);
		if (!n)
			goto out_err;
		rc = sf_file_check_open(fs, &s, n, fi->flags);
		if (!rc) {
			char proc[64];

			sf_proc_path(n, proc, sizeof(proc));
			fd = open(proc, sf_file_open_flags(fi->flags));
			rc = fd < 0 ? -errno : sf_setid_open(fs, &s, fd,
							     fi->flags);
			if (rc && fd >= 0)
				close(fd);
		}
		if (rc) {
			sf_node_forget(fs, n, 1);
			goto out_err;
		}
		memset(&e, 0, sizeof(e));
		e.ino = sf_node_ino(fs, n);
		e.generation = n->gen;
		if (fstat(fd, &e.attr)) {
			rc = -errno;
			close(fd);
			sf_node_forget(fs, n, 1);
			goto out_err;
		}
		goto reply;
	}
	if (rc)
		goto out_err;
	rc = sf_node_from_fd(fs, pfd, &e, &n);
	if (rc) {
		close(fd);
		goto out_err;
	}
	atomic_store(&n->label, label);
	atomic_store(&n->flags, SF_NODE_LABEL_VALID);
reply:
	sf_entry_timeouts(fs, dir, n, &e, name);
	sf_reply_created(req, n, &e, fd, fi);
	return;
out_err:
	fuse_reply_err(req, -rc);
}

#ifdef HAVE_STRUCT_FUSE_LOWLEVEL_OPS_TMPFILE
/*
 * open(O_TMPFILE) (Linux 6.3+, libfuse 3.15+): vfs_tmpfile() asks what
 * a create asks (sf_new_file_check), and may_open() nothing more of a new
 * file.  The file has no name until linkat() (sf_link).
 */
static void sf_tmpfile(fuse_req_t req, fuse_ino_t parent, mode_t mode,
		       struct fuse_file_info *fi)
{
	struct sf_fs *fs = sf_fs_of(req);
	struct sf_node *dir = sf_node(req, parent), *n;
	struct fuse_entry_param e;
	struct sf_subject s;
	sf_lid label;
	int rc, pfd, fd;

	sf_subject_get(fs, req, &s);
	rc = sf_new_file_check(req, &s, dir, NULL, &label);
	if (!rc)
		rc = sf_make_unnamed(fs, &s, dir, mode, fi->flags, label,
				     &pfd, &fd);
	if (rc)
		goto out_err;
	rc = sf_node_from_fd(fs, pfd, &e, &n);
	if (rc) {
		close(fd);
		goto out_err;
	}
	atomic_store(&n->label, label);
	atomic_store(&n->flags, SF_NODE_LABEL_VALID);
	e.attr_timeout = sf_attr_timeout(fs, n);
	e.entry_timeout = 0;	/* no name to keep */
	sf_reply_created(req, n, &e, fd, fi);
	return;
out_err:
	fuse_reply_err(req, -rc);
}
#endif

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
	return sf_check(fs, &s, sf_node(req, ino), SF_MAY_LOCK,
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
static void sf_getlk(fuse_req_t req, fuse_ino_t ino,
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

static void sf_setlk(fuse_req_t req, fuse_ino_t ino,
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

static void sf_forget_multi(fuse_req_t req, size_t count,
			    struct fuse_forget_data *forgets)
{
	struct sf_fs *fs = sf_fs_of(req);
	size_t i;

	for (i = 0; i < count; i++)
		sf_node_forget(fs, sf_node(req, forgets[i].ino),
			       forgets[i].nlookup);
	fuse_reply_none(req);
}

/* smack_file_lock: lock for flock(2). */
static void sf_flock(fuse_req_t req, fuse_ino_t ino,
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

static void sf_fallocate(fuse_req_t req, fuse_ino_t ino, int mode,
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

static void sf_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size,
			   off_t offset, struct fuse_file_info *fi)
{
	sf_do_readdir(req, ino, size, offset, fi, true);
}

static void sf_copy_file_range(fuse_req_t req, fuse_ino_t ino_in,
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

static void sf_lseek(fuse_req_t req, fuse_ino_t ino, off_t off, int whence,
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

const struct fuse_lowlevel_ops sf_ops = {
	.init = sf_init,
	.destroy = sf_destroy,
	.lookup = sf_lookup,
	.forget = sf_forget,
	.getattr = sf_getattr,
	.setattr = sf_setattr,
	.readlink = sf_readlink,
	.mknod = sf_mknod,
	.mkdir = sf_mkdir,
	.unlink = sf_unlink,
	.rmdir = sf_rmdir,
	.symlink = sf_symlink,
	.rename = sf_rename,
	.link = sf_link,
	.open = sf_open,
	.read = sf_read,
	.flush = sf_flush,
	.release = sf_release,
	.fsync = sf_fsync,
	.opendir = sf_opendir,
	.readdir = sf_readdir,
	.releasedir = sf_releasedir,
	.fsyncdir = sf_fsyncdir,
	.statfs = sf_statfs,
	.setxattr = sf_setxattr,
	.getxattr = sf_getxattr,
	.listxattr = sf_listxattr,
	.removexattr = sf_removexattr,
	.access = sf_op_access,
	.create = sf_create,
#ifdef HAVE_STRUCT_FUSE_LOWLEVEL_OPS_TMPFILE
	.tmpfile = sf_tmpfile,
#endif
	.getlk = sf_getlk,
	.setlk = sf_setlk,
	.write_buf = sf_write_buf,
	.forget_multi = sf_forget_multi,
	.flock = sf_flock,
	.fallocate = sf_fallocate,
	.readdirplus = sf_readdirplus,
	.copy_file_range = sf_copy_file_range,
	.lseek = sf_lseek,
};
