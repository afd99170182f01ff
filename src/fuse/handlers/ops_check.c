// SPDX-License-Identifier: GPL-2.0-only
/*
 * ops_check.c - the checks and lookups that several families of handlers
 * make alike, below all of them (ops.h).
 */
#define _GNU_SOURCE
#include "ops.h"

/* Directory permission the VFS asks for before creating or removing a
 * name: may_create()/may_delete() -> inode_permission(dir, MAY_WRITE |
 * MAY_EXEC). */
int sf_check_dir_change(struct sf_fs *fs, struct sf_subject *s,
			struct sf_node *dir, const char *name)
{
	return sf_check_node(fs, s, dir, SF_MAY_WRITE | SF_MAY_EXEC,
			     SF_FN_PERM, name);
}

/* The check of an operation that needs nothing else of its caller:
 * replies with the error and returns non-zero when denied. */
int sf_check_node_reply(fuse_req_t req, struct sf_node *n, u32 request,
			const char *fn)
{
	struct sf_fs *fs = sf_fs_of(req);
	struct sf_subject s;
	int rc;

	sf_subject_get(fs, req, &s);
	rc = sf_check_node(fs, &s, n, request, fn, NULL);
	if (rc)
		fuse_reply_err(req, -rc);
	return rc;
}

/* The node @name refers to in @dir, with a lookup reference, or NULL. */
struct sf_node *sf_peek(struct sf_fs *fs, struct sf_node *dir,
			const char *name, int *err)
{
	struct fuse_entry_param e;
	struct sf_node *n = NULL;

	*err = sf_node_lookup(fs, dir, name, &e, &n);
	return *err ? NULL : n;
}
