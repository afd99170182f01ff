// SPDX-License-Identifier: GPL-2.0-only
/*
 * hooks_fuse.c - access(2) on a smackfuse mount: the daemon decides it.
 *
 * A smackfuse daemon mounts with default_permissions, so the FUSE driver
 * answers access(2) from the attributes it has cached: the mode bits.
 * Mainline's smack_inode_permission asks the Smack access of the mode
 * too, and a daemon learns of the call only through the GETATTR that
 * refreshes expired attributes.  So a daemon has to let the attributes
 * of every object some caller may lack an access to expire at once, and
 * each walk through such a directory costs a GETATTR.
 *
 * With the module loaded that is no longer so.  Every access(2) and
 * faccessat(2) on an inode of a smackfuse mount (a FUSE superblock of
 * subtype "smackfuse") is diverted, at security_inode_permission() (after
 * the mode bits passed), to a forced refresh of the inode's attributes
 * from the caller's own context: the daemon gets a GETATTR from the
 * caller, sees this function's frame in the caller's kernel stack and
 * the call in its /proc/TID/syscall, and decides the mode as mainline
 * does; its refusal is the call's.  A daemon that knows this (the
 * module's "features" file names it) lets the kernel keep the attributes
 * of floor directories (smackfuse(8), "What the kernel caches").
 *
 * Anyone may mount a FUSE filesystem of that subtype; on such a mount the
 * refresh asks that filesystem's own daemon, which answers access(2)
 * there already.  A refresh that cannot be made denies.
 */
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <linux/sched.h>
#include <linux/stat.h>
#include <linux/string.h>
#include "smackfuse.h"

/* security_inode_permission() past its probed call site (probe.c). */
unsigned long sf_inode_permission_body;

static bool sf_smackfuse_inode(const struct inode *inode)
{
	const struct super_block *sb = inode->i_sb;

	return sb->s_magic == FUSE_SUPER_MAGIC && sb->s_subtype &&
	       !strcmp(sb->s_subtype, "smackfuse");
}
NOKPROBE_SYMBOL(sf_smackfuse_inode);

/* Is this permission check an access(2) the daemon must see? */
bool sf_fuse_access(const struct inode *inode, int mask)
{
	return (mask & MAY_ACCESS) && !(current->flags & PF_KTHREAD) &&
	       sf_smackfuse_inode(inode);
}
NOKPROBE_SYMBOL(sf_fuse_access);

/*
 * Ask the daemon for @inode's attributes now, from the caller: the
 * daemon names this frame (sf_access_refresh) as the site of an access
 * check.  Not inlined, and not a tail call, so that the frame is there.
 */
static noinline int sf_access_refresh(struct inode *inode)
{
	struct dentry *dentry = d_find_alias(inode);
	struct path path = { .mnt = NULL, .dentry = dentry };
	struct kstat stat;
	int rc;

	if (!dentry)
		return -EACCES;	/* no name to ask for: cannot decide */
	rc = inode->i_op->getattr(SF_NOP_IDMAP, &path, &stat,
				  STATX_BASIC_STATS, AT_STATX_FORCE_SYNC);
	dput(dentry);
	return rc;
}

/* Runs instead of security_inode_permission(inode, mask). */
int sf_fuse_access_divert(struct inode *inode, int mask)
{
	int (*body)(struct inode *, int) = (void *)sf_inode_permission_body;
	int rc = sf_access_refresh(inode);

	if (!rc)
		rc = body(inode, mask);
	sf_divert_done();
	return rc;
}
