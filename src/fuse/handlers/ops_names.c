// SPDX-License-Identifier: GPL-2.0-only
/*
 * ops_names.c - operations on names: lookup and forget, readlink, the
 * creation of files, directories, nodes and symlinks, unlink, rmdir,
 * rename and link (smack_inode_create, _link, _unlink, _rmdir, _rename).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ops.h"
#include "create.h"
#include "file.h"
#include "transport.h"

void sf_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct sf_fs *fs = sf_fs_of(req);
	struct sf_node *dir, *n;
	struct fuse_entry_param e;
	struct sf_subject s, *who = NULL;
	int rc;

	/* Only the kernel's handle decoding asks for "." (perhaps of a node
	 * id we do not know) and ".."; inode.c and handle.c.  Its entry is
	 * timed as a name in the node itself. */
	if (name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]))) {
		rc = sf_node_lookup_handle(fs, parent, name, &e, &n);
		dir = rc ? NULL : n;
	} else {
		dir = sf_node(req, parent);
		sf_subject_get(fs, req, &s);
		who = &s;
		rc = sf_check_node(fs, &s, dir, SF_MAY_EXEC, SF_FN_PERM, name);
		if (!rc)
			rc = sf_node_lookup(fs, dir, name, &e, &n);
	}
	if (rc) {
		fuse_reply_err(req, -rc);
		return;
	}
	sf_entry_timeouts(fs, who, dir, n, &e, name);
	fuse_reply_entry(req, &e);
}

void sf_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup)
{
	sf_node_forget(sf_fs_of(req), sf_node(req, ino), nlookup);
	fuse_reply_none(req);
}

/* No Smack check, as mainline has no readlink hook: a subject follows a
 * symlink of any label to a target it may use. */
void sf_readlink(fuse_req_t req, fuse_ino_t ino)
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
	sf_entry_timeouts(fs, &s, dir, n, &e, name);
	fuse_reply_entry(req, &e);
	return;
out_err:
	fuse_reply_err(req, -rc);
}

void sf_mknod(fuse_req_t req, fuse_ino_t parent, const char *name,
	      mode_t mode, dev_t rdev)
{
	sf_make(req, parent, name, mode, rdev, NULL);
}

void sf_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name,
	      mode_t mode)
{
	sf_make(req, parent, name, S_IFDIR | mode, 0, NULL);
}

/*
 * sf_check_entry - may @s do @request to what @name in @dir is now?  The
 * hooks of a name change ask it of the object the change removes or
 * replaces.  Returns the check's 0 or -EACCES, or the lookup's error
 * (-ENOENT: there is no such entry).
 */
static int sf_check_entry(struct sf_fs *fs, struct sf_subject *s,
			  struct sf_node *dir, const char *name, u32 request,
			  const char *fn)
{
	struct sf_node *n;
	int rc;

	n = sf_peek(fs, dir, name, &rc);
	if (!n)
		return rc;
	rc = sf_check_node(fs, s, n, request, fn, NULL);
	sf_node_forget(fs, n, 1);
	return rc;
}

/* unlink and rmdir: smack_inode_unlink/rmdir want write on the victim
 * and on the directory, after the VFS's may_delete(). */
static void sf_remove(fuse_req_t req, fuse_ino_t parent, const char *name,
		      int flags, const char *fn)
{
	struct sf_fs *fs = sf_fs_of(req);
	struct sf_node *dir = sf_node(req, parent);
	struct sf_subject s;
	int rc;

	sf_subject_get(fs, req, &s);
	rc = sf_check_dir_change(fs, &s, dir, name);
	if (!rc)
		rc = sf_check_entry(fs, &s, dir, name, SF_MAY_WRITE, fn);
	if (!rc && unlinkat(dir->fd, name, flags))
		rc = -errno;
	fuse_reply_err(req, -rc);
}

void sf_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	sf_remove(req, parent, name, 0, "smack_inode_unlink");
}

void sf_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	sf_remove(req, parent, name, AT_REMOVEDIR, "smack_inode_rmdir");
}

void sf_symlink(fuse_req_t req, const char *link, fuse_ino_t parent,
		const char *name)
{
	sf_make(req, parent, name, S_IFLNK | 0777, 0, link);
}

/* smack_inode_rename: read-write on the source and on any target, after
 * may_delete()/may_create() on both directories. */
void sf_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
	       fuse_ino_t newparent, const char *newname,
	       unsigned int flags)
{
	struct sf_fs *fs = sf_fs_of(req);
	struct sf_node *odir = sf_node(req, parent);
	struct sf_node *ndir = sf_node(req, newparent);
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
	if (!rc)
		rc = sf_check_entry(fs, &s, odir, name, SF_MAY_READWRITE,
				    "smack_inode_rename");
	if (!rc) {
		rc = sf_check_entry(fs, &s, ndir, newname, SF_MAY_READWRITE,
				    "smack_inode_rename");
		if (rc == -ENOENT)	/* no target: nothing is replaced */
			rc = 0;
	}
	if (!rc && renameat2(odir->fd, name, ndir->fd, newname, flags))
		rc = -errno;
	fuse_reply_err(req, -rc);
}

/* smack_inode_link: write on the object being linked. */
void sf_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t newparent,
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
		rc = sf_check_node(fs, &s, n, SF_MAY_WRITE,
				   "smack_inode_link", NULL);
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
	sf_entry_timeouts(fs, &s, dir, n, &e, newname);
	fuse_reply_entry(req, &e);
	return;
out_err:
	fuse_reply_err(req, -rc);
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
	fi->keep_cache = sf_keep_cache(fs, backing_id, fd, fi->flags);
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

/* The node of a file just made (@pfd its O_PATH descriptor, @fd the
 * caller's open one), labelled @label.  Closes @fd on failure. */
static int sf_new_file_node(struct sf_fs *fs, int pfd, int fd, sf_lid label,
			    struct fuse_entry_param *e, struct sf_node **n)
{
	int rc = sf_node_from_fd(fs, pfd, e, n);

	if (rc) {
		close(fd);
		return rc;
	}
	atomic_store(&(*n)->label, label);
	atomic_store(&(*n)->flags, SF_NODE_LABEL_VALID);
	return 0;
}

/* CREATE without O_EXCL of a name made meanwhile: open it as open(2)
 * would.  On success *@n has a lookup reference and *@fd serves the
 * caller's open. */
static int sf_create_existing(struct sf_fs *fs, struct sf_subject *s,
			      struct sf_node *dir, const char *name,
			      int flags, struct fuse_entry_param *e,
			      struct sf_node **n, int *fd)
{
	char proc[64];
	int rc;

	*n = sf_peek(fs, dir, name, &rc);
	if (!*n)
		return rc;
	rc = sf_file_check_open(fs, s, *n, flags);
	if (!rc) {
		sf_proc_path(*n, proc, sizeof(proc));
		*fd = open(proc, sf_file_open_flags(flags));
		rc = *fd < 0 ? -errno : sf_setid_open(fs, s, *fd, flags);
		if (rc && *fd >= 0)
			close(*fd);
	}
	if (!rc) {
		memset(e, 0, sizeof(*e));
		e->ino = sf_node_ino(fs, *n);
		e->generation = (*n)->gen;
		if (fstat(*fd, &e->attr)) {
			rc = -errno;
			close(*fd);
		}
	}
	if (rc)
		sf_node_forget(fs, *n, 1);
	return rc;
}

void sf_create(fuse_req_t req, fuse_ino_t parent, const char *name,
	       mode_t mode, struct fuse_file_info *fi)
{
	struct sf_fs *fs = sf_fs_of(req);
	struct sf_node *dir = sf_node(req, parent), *n;
	struct fuse_entry_param e;
	struct sf_subject s;
	sf_lid label;
	int rc, pfd, fd;

	/* FUSE_TMPFILE, as a libfuse without the op is given it (wire.c):
	 * no CREATE can carry a name holding a slash. */
	if (!strcmp(name, "/")) {
		sf_tmpfile(req, parent, mode, fi);
		return;
	}
	sf_subject_get(fs, req, &s);
	rc = sf_new_file_check(req, &s, dir, name, &label);
	if (!rc)
		rc = sf_make_file(fs, &s, dir, name, mode, fi->flags, label,
				  &pfd, &fd);
	if (rc == -EEXIST && !(fi->flags & O_EXCL))
		rc = sf_create_existing(fs, &s, dir, name, fi->flags, &e, &n,
					&fd);
	else if (!rc)
		rc = sf_new_file_node(fs, pfd, fd, label, &e, &n);
	if (rc) {
		fuse_reply_err(req, -rc);
		return;
	}
	sf_entry_timeouts(fs, &s, dir, n, &e, name);
	sf_reply_created(req, n, &e, fd, fi);
}

/*
 * open(O_TMPFILE) (FUSE_TMPFILE, Linux 6.1 and later: libfuse's tmpfile
 * op from 3.15, sf_create() before that): vfs_tmpfile() asks what a
 * create asks (sf_new_file_check), and may_open() nothing more of a new
 * file.  The file has no name until linkat() (sf_link).
 */
void sf_tmpfile(fuse_req_t req, fuse_ino_t parent, mode_t mode,
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
	if (!rc)
		rc = sf_new_file_node(fs, pfd, fd, label, &e, &n);
	if (rc) {
		fuse_reply_err(req, -rc);
		return;
	}
	e.attr_timeout = sf_attr_timeout(fs, n);
	e.entry_timeout = 0;	/* no name to keep */
	sf_reply_created(req, n, &e, fd, fi);
}

void sf_forget_multi(fuse_req_t req, size_t count,
		     struct fuse_forget_data *forgets)
{
	struct sf_fs *fs = sf_fs_of(req);
	size_t i;

	for (i = 0; i < count; i++)
		sf_node_forget(fs, sf_node(req, forgets[i].ino),
			       forgets[i].nlookup);
	fuse_reply_none(req);
}
