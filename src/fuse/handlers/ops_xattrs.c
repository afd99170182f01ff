// SPDX-License-Identifier: GPL-2.0-only
/*
 * ops_xattrs.c - extended attributes: the Smack labels (SMACK64 and its
 * kin) and every other name (smack_inode_setxattr, _getxattr,
 * _listxattr, _removexattr).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/xattr.h>

#include "ops.h"

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
	/* smk_import_entry(): the value's valid prefix ("Z\n" is Z) */
	len = sf_label_prefix(value, size);
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

void sf_setxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
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
		rc = sf_check_node(fs, &s, n, SF_MAY_WRITE, sf_acl_name(name) ?
				   "smack_inode_set_acl" :
				   "smack_inode_setxattr", NULL);
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
		sf_verdicts_flush(fs);
		sf_acl_label_changed(fs, n);
		/* The kernel refreshes this inode's attributes itself; a
		 * directory's children may be cached under its old label. */
		if (n->type == S_IFDIR)
			sf_invalidate_later(fs);
	} else if (is_smack && !strcmp(name, "security.SMACK64TRANSMUTE")) {
		atomic_fetch_or(&n->flags, SF_NODE_TRANSMUTE);
		sf_node_label_invalidate(n);
		sf_verdicts_flush(fs);
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

void sf_getxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
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
		   sf_check_node_reply(req, n, SF_MAY_READ,
				       "smack_inode_getxattr")) {
		return;
	}
	if (!strcmp(name, "security.SMACK64")) {
		/* smack_inode_getsecurity: the label in force. */
		const char *l = sf_label_name(fs->labels, sf_node_label(fs, n));

		if (l)
			sf_reply_value(req, l, strlen(l), size);
		else	/* the backing attribute could not be read */
			fuse_reply_err(req, EIO);
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
	size_t plen = strlen(fs->opt.xattr_prefix), o = 0;
	const char *p;

	for (p = in; p < in + len; p += strlen(p) + 1) {
		if (!strncmp(p, fs->opt.xattr_prefix, plen)) {
			if (strncmp(p + plen, "SMACK64", strlen("SMACK64")))
				continue;
			o += (size_t)sprintf(out + o, "security.%s", p + plen)
				+ 1;
		} else if (!strncmp(p, "security.SMACK64",
				    strlen("security.SMACK64"))) {
			continue;
		} else {
			memcpy(out + o, p, strlen(p) + 1);
			o += strlen(p) + 1;
		}
	}
	return o;
}

void sf_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size)
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
	if (fs->opt.xattr_prefix) {
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

void sf_removexattr(fuse_req_t req, fuse_ino_t ino, const char *name)
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
		rc = sf_check_node(fs, &s, n, SF_MAY_WRITE, sf_acl_name(name) ?
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
			atomic_store(&n->label, fs->opt.def);
		if (n == &fs->root &&
		    !strcmp(name, "security.SMACK64TRANSMUTE"))
			atomic_fetch_and(&n->flags, ~SF_NODE_TRANSMUTE);
		sf_node_label_invalidate(n);
		sf_verdicts_flush(fs);
		sf_acl_label_changed(fs, n);
		if (n->type == S_IFDIR)
			sf_invalidate_later(fs);
	}
out:
	fuse_reply_err(req, -rc);
}
