// SPDX-License-Identifier: GPL-2.0-only
/*
 * acl.c - POSIX ACLs of the backing tree, evaluated by the kernel.
 *
 * With FUSE_POSIX_ACL (caps.c) the kernel's permission check evaluates
 * an object's access ACL as for a local filesystem (generic_permission()
 * -> check_acl()), which it reads with a GETXATTR of
 * system.posix_acl_access; setfacl(1) arrives as SETXATTR or
 * REMOVEXATTR of system.posix_acl_*.  The daemon answers them as
 * mainline Smack does:
 *  - a caller's getxattr(2) of an ACL asks read (smack_inode_get_acl;
 *    smack_inode_getxattr before 6.2), setxattr(2) and removexattr(2)
 *    write (ops.c);
 *  - the kernel's own read for a permission check asks nothing (mainline
 *    reads past every hook); getattr.c tells the two apart by the
 *    caller's kernel stack, or without stacks by its system call.  What
 *    cannot be told is a getxattr(2): read is checked.
 *
 * The kernel caches what it read (inode->i_acl) and answers a later
 * getxattr(2) of the ACL from that cache, past the daemon.  So an ACL
 * that some subject may not read is never left cached: before the reply
 * the daemon makes the kernel drop the inode's cached ACLs
 * (FUSE_NOTIFY_INVAL_INODE -> forget_all_cached_acls()), which also
 * removes the "being read" sentinel the reading task put in i_acl, so
 * the kernel does not cache the answer either (__get_acl() caches only
 * while its sentinel is in place; 6.1 to 7.x).  Only the ACLs of objects
 * every subject may read stay cached, as their attributes do (ops.c's
 * sf_attr_timeout()), until the attributes are next refreshed; and,
 * under smackfuse.ko's verdicts, every ACL whose attributes are held:
 * the module decides getxattr(2) of a cached ACL, or sends it here as a
 * refresh (getattr.c's ACL site).
 *
 * Setting an access ACL: the backing filesystem updates the mode, but
 * keeps set-group-ID for the daemon, which has CAP_FSETID; setid.c
 * clears it as the kernel would for the caller (what fuse_set_acl()'s
 * FUSE_SETXATTR_ACL_KILL_SGID says, which libfuse does not pass on).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "ops.h"

#define SF_ACL_ACCESS	"system.posix_acl_access"
#define SF_ACL_DEFAULT	"system.posix_acl_default"
#define SF_FN_GET_ACL	"smack_inode_get_acl"

bool sf_acl_name(const char *name)
{
	return !strcmp(name, SF_ACL_ACCESS) || !strcmp(name, SF_ACL_DEFAULT);
}

bool sf_acl_access_name(const char *name)
{
	return !strcmp(name, SF_ACL_ACCESS);
}

/**
 * sf_acl_check_get - may subject @s have an ACL of @n?
 * @kernel: set when the request is the kernel's own read
 * Returns 0 or -EACCES (audited as smack_inode_get_acl).
 */
int sf_acl_check_get(struct sf_fs *fs, struct sf_subject *s,
		     struct sf_node *n, bool *kernel)
{
	sf_lid object;

	*kernel = false;
	if (fs->opt.checks_off)
		return 0;
	object = sf_node_label(fs, n);
	/* The cheap case first: a subject that may read has it either way,
	 * and its caller's system call is not read (unless the backing
	 * filesystem has no ACLs: sf_acl_get_error()). */
	if (sf_check_label_quiet(fs, s, object, SF_MAY_READ) &&
	    sf_kernel_reads_acl(fs, s->pid)) {
		*kernel = true;
		atomic_fetch_add_explicit(&fs->stats.checks, 1,
					  memory_order_relaxed);
		return 0;
	}
	return sf_check_label(fs, s, object, SF_MAY_READ, SF_FN_GET_ACL, n,
			      NULL);
}

/* May the kernel keep @n's ACLs?  Where it keeps the attributes
 * (ops_cache.c): every subject may read them, or, under smackfuse.ko's
 * verdicts, the module decides a getxattr(2) of an ACL as it decides
 * stat(2) (hooks_fuse.c).  A refresh of the attributes drops the ACLs
 * anyway. */
static bool sf_acl_cacheable(struct sf_fs *fs, struct sf_node *n)
{
	return sf_attr_timeout(fs, n) > 0;
}

/**
 * sf_acl_before_reply - called before the reply to a GETXATTR of an ACL
 * of @n: unless every subject may read it, and unless @always, the
 * kernel caches nothing of it (see the top of this file).
 */
void sf_acl_before_reply(struct sf_fs *fs, struct sf_node *n, bool always)
{
	if (fs->se && (always || !sf_acl_cacheable(fs, n)))
		fuse_lowlevel_notify_inval_inode(fs->se, sf_node_ino(fs, n),
						 -1, 0);
}

/**
 * sf_acl_get_error - the error to answer a GETXATTR of an ACL by subject
 * @s with, when the backing getxattr failed with @err; @kernel as
 * sf_acl_check_get() found it (false when it did not need to look).  To
 * the kernel's own read, a backing filesystem without ACLs has none
 * (ENODATA), and the mode bits decide, as natively; the kernel would
 * refuse the access with EOPNOTSUPP.  A caller's getxattr(2) gets @err.
 */
int sf_acl_get_error(struct sf_fs *fs, struct sf_subject *s, int err,
		     bool kernel)
{
	if (err != EOPNOTSUPP)
		return err;
	return kernel || sf_kernel_reads_acl(fs, s->pid) ? ENODATA : err;
}

/* @n's label changed: whoever could read its cached ACLs before may not
 * now.  From the request's thread: the notification takes no lock that
 * the waiting caller holds (no page range). */
void sf_acl_label_changed(struct sf_fs *fs, struct sf_node *n)
{
	if (fs->se)
		fuse_lowlevel_notify_inval_inode(fs->se, sf_node_ino(fs, n),
						 -1, 0);
}
