// SPDX-License-Identifier: GPL-2.0-only
/*
 * label.c - object labels: read from the backing xattrs, cached in the
 * node, chosen for new objects, and written before a new object is seen.
 *
 * As smack_d_instantiate() does: the root takes the mount's root label
 * (smackfsroot=/smackfstransmute=, else "_"); any other object takes its
 * SMACK64 if that is a valid label, else the mount default (smackfsdef=).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "smackfuse.h"

#define SF_TRANS_TRUE "TRUE"

int sf_labels_setup(struct sf_fs *fs)
{
	const char *p = fs->opt.xattr_prefix ? fs->opt.xattr_prefix :
					      "security.";

	if (asprintf(&fs->opt.x_smack, "%sSMACK64", p) < 0 ||
	    asprintf(&fs->opt.x_exec, "%sSMACK64EXEC", p) < 0 ||
	    asprintf(&fs->opt.x_mmap, "%sSMACK64MMAP", p) < 0 ||
	    asprintf(&fs->opt.x_transmute, "%sSMACK64TRANSMUTE", p) < 0)
		return -ENOMEM;
	return 0;
}

/* Objects whose label lets every subject read and search them: the kernel
 * may cache what it learns about them for every caller. */
bool sf_universal(sf_lid lid)
{
	return lid == SF_LID_FLOOR || lid == SF_LID_STAR || lid == SF_LID_WEB;
}

/* Objects on which every caller has every access whatever the rules: "*",
 * "@", and the one label of a users map that gives every caller one (an
 * object whose label could not be read is none of these). */
bool sf_all_access(struct sf_fs *fs, sf_lid lid)
{
	return lid == SF_LID_STAR || lid == SF_LID_WEB ||
	       (lid != SF_LID_INVALID && lid == fs->sole_subject);
}

static ssize_t sf_node_getxattr(struct sf_node *n, const char *name,
				char *buf, size_t size)
{
	char path[64];

	sf_proc_path(n, path, sizeof(path));
	return getxattr(path, name, buf, size);
}

/**
 * sf_node_label_attr - the label in @n's attribute @name (SMACK64, its
 * EXEC or MMAP kin), as smk_fetch() imports it at instantiation: the valid
 * prefix of up to SMK_LONGLABEL bytes ("Z\n" and "Z/x" are Z).  Returns
 * 0, -ENODATA when the attribute holds none (absent, longer than that
 * (ERANGE), or starting with no label), or another -errno when it cannot
 * be read at all or the label cannot be kept: which label the file
 * carries is then not known, and the caller denies.
 */
int sf_node_label_attr(struct sf_fs *fs, struct sf_node *n,
		       const char *name, sf_lid *lid)
{
	char buf[SF_LABEL_MAX + 1];
	ssize_t len;
	size_t i;

	len = sf_node_getxattr(n, name, buf, sizeof(buf));
	if (len < 0)
		return errno == ENODATA || errno == ENOTSUP ||
		       errno == ERANGE ? -ENODATA : -errno;
	i = sf_label_prefix(buf, (size_t)len);
	if (!i)
		return -ENODATA;
	return sf_label_intern(fs->labels, buf, i, lid, NULL) ? -ENOMEM : 0;
}

/* Reads @n's label and transmute flag into the node; returns the label. */
static sf_lid sf_node_label_read(struct sf_fs *fs, struct sf_node *n)
{
	char buf[sizeof(SF_TRANS_TRUE)];
	unsigned int flags = SF_NODE_LABEL_VALID;
	sf_lid lid = fs->opt.def;
	ssize_t len;
	int rc;

	if (n == &fs->root) {
		/* Set at mount (smack_d_instantiate), changed by setxattr. */
		flags |= atomic_load(&n->flags) & SF_NODE_TRANSMUTE;
		atomic_store(&n->flags, flags);
		return atomic_load(&n->label);
	}
	if (n->type == S_IFSOCK) {
		lid = SF_LID_STAR;	/* as mainline: sockets are "*" */
		goto out;
	}
	/* Without a label in the attribute, the mount default stays (as
	 * smack_d_instantiate()); one that cannot be read is denied
	 * (sf_access) and not kept: the next check reads it again. */
	rc = sf_node_label_attr(fs, n, fs->opt.x_smack, &lid);
	if (rc && rc != -ENODATA)
		return SF_LID_INVALID;
	if (n->type == S_IFDIR) {
		len = sf_node_getxattr(n, fs->opt.x_transmute, buf,
				       sizeof(buf));
		if (len == 4 && !memcmp(buf, SF_TRANS_TRUE, 4))
			flags |= SF_NODE_TRANSMUTE;
	}
out:
	atomic_store(&n->label, lid);
	atomic_store(&n->flags, flags);
	return lid;
}

sf_lid sf_node_label(struct sf_fs *fs, struct sf_node *n)
{
	if (!(atomic_load(&n->flags) & SF_NODE_LABEL_VALID))
		return sf_node_label_read(fs, n);
	atomic_fetch_add_explicit(&fs->stats.cache_hits, 1,
				  memory_order_relaxed);
	return atomic_load(&n->label);
}

bool sf_node_transmute(struct sf_fs *fs, struct sf_node *n)
{
	if (!(atomic_load(&n->flags) & SF_NODE_LABEL_VALID))
		sf_node_label_read(fs, n);
	return atomic_load(&n->flags) & SF_NODE_TRANSMUTE;
}

void sf_node_label_invalidate(struct sf_node *n)
{
	atomic_fetch_and(&n->flags, ~SF_NODE_LABEL_VALID);
}

/**
 * sf_new_label - the label of an object @s creates in @dir.
 * smack_inode_init_security(): the creator's label, or the directory's
 * when the directory is transmuting and the creator's own rule for the
 * directory's label grants "t".  Then @transmute says a new directory
 * must become transmuting too.
 */
sf_lid sf_new_label(struct sf_fs *fs, struct sf_subject *s,
		    struct sf_node *dir, bool *transmute)
{
	sf_lid dlabel = sf_node_label(fs, dir);
	const struct sf_snapshot *snap;
	u32 may = 0;
	int rc;

	*transmute = false;
	if (!sf_node_transmute(fs, dir))
		return s->lid;
	sf_rcu_read_lock();
	snap = sf_policy_snapshot(fs->policy);
	rc = sf_rule_lookup(snap, s->lid, dlabel, &may);
	sf_rcu_read_unlock();
	if (rc || !(may & SF_MAY_TRANSMUTE))
		return s->lid;
	*transmute = true;
	return dlabel;
}

/**
 * sf_label_new_fd - label a backing object nobody can see yet.
 * @fd is an open (non-O_PATH) descriptor, or -1 with @procpath naming the
 * object through /proc/self/fd.  Returns 0 or a negative errno.
 */
int sf_label_new_fd(struct sf_fs *fs, int fd, const char *procpath,
		    sf_lid label, bool transmute)
{
	const char *name = sf_label_name(fs->labels, label);
	int rc;

	if (!name)
		return -EINVAL;
	if (fd >= 0)
		rc = fsetxattr(fd, fs->opt.x_smack, name, strlen(name), 0);
	else
		rc = setxattr(procpath, fs->opt.x_smack, name, strlen(name), 0);
	if (rc)
		return -errno;
	if (!transmute)
		return 0;
	if (fd >= 0)
		rc = fsetxattr(fd, fs->opt.x_transmute, SF_TRANS_TRUE, 4, 0);
	else
		rc = setxattr(procpath, fs->opt.x_transmute, SF_TRANS_TRUE,
			      4, 0);
	return rc ? -errno : 0;
}

/**
 * sf_xattr_backing - the backing name of the xattr the caller calls @name.
 * With -o xattr=PREFIX the visible "security.SMACK64*" names live under
 * PREFIX, and the PREFIX names themselves are not reachable through the
 * mount.  @is_smack is set for the Smack attributes.  Returns NULL for a
 * name the caller may not touch.
 */
const char *sf_xattr_backing(struct sf_fs *fs, const char *name, char *buf,
			     size_t size, bool *is_smack)
{
	static const char sec[] = "security.SMACK64";

	*is_smack = !strncmp(name, sec, sizeof(sec) - 1);
	if (!fs->opt.xattr_prefix)
		return name;
	if (!strncmp(name, fs->opt.xattr_prefix, strlen(fs->opt.xattr_prefix)))
		return NULL;
	if (!*is_smack)
		return name;
	if ((size_t)snprintf(buf, size, "%s%s", fs->opt.xattr_prefix,
			     name + strlen("security.")) >= size)
		return NULL;
	return buf;
}
