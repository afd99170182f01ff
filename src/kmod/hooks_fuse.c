// SPDX-License-Identifier: GPL-2.0-only
/*
 * hooks_fuse.c - permission checks on a smackfuse mount that the FUSE
 * driver answers from attributes it holds: the daemon decides them.
 *
 * A smackfuse daemon mounts with default_permissions, so the FUSE driver
 * makes permission checks from the mode it holds, and refreshes it with a
 * GETATTR, which the daemon decides as the caller's check (its site and
 * call tell which), only when the attributes have expired.  Mainline's
 * smack_inode_permission asks the Smack access of every check.  A daemon
 * therefore lets the kernel hold only the attributes of objects on which
 * every check passes for every subject it may be asked by, and each walk
 * through any other directory costs a GETATTR.
 *
 * With the module loaded, two checks on a smackfuse mount (a FUSE
 * superblock of subtype "smackfuse") are sent to the daemon whatever the
 * driver holds: at security_inode_permission(), after the mode bits
 * passed, the call is diverted to a forced refresh of the attributes from
 * the caller's own context.  The daemon gets a GETATTR from the caller,
 * sees sf_perm_refresh's frame in the caller's kernel stack and the call
 * in its /proc/TID/syscall, and decides as mainline does; its refusal is
 * the call's.  The two:
 *  - access(2) and faccessat(2), always: the mode they ask may be one
 *    the subject lacks on an object whose attributes are held.  A daemon
 *    that knows this (the module's "features" file says perm_refresh)
 *    lets the kernel hold the attributes of floor directories
 *    (smackfuse(8), "Kernel caches").
 *  - write to a directory whose attributes the driver held (it sent no
 *    GETATTR): removing, linking or making a node in it, renaming, where
 *    the kernel makes refusals of its own after this check (EISDIR,
 *    ENOTDIR, the sticky bit's EPERM, CAP_MKNOD's EPERM) that mainline's
 *    EACCES comes before.
 * Neither for a floor task: every object a daemon lets the kernel hold
 * gives floor every access.  A refresh that cannot be made denies.
 *
 * Anyone may mount a FUSE filesystem of that subtype; on such a mount the
 * refresh asks that filesystem's own daemon, which answers the call's
 * checks there already.
 */
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
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

/*
 * Did the FUSE driver's permission check use the attributes it holds,
 * without a GETATTR?  fuse_permission()'s own test (release.h has the
 * head of struct fuse_inode).  The attributes may expire between its
 * test and this one; the check is then not sent, and the kernel's own
 * refusal, if any, is the answer (a refusal either way).
 */
static bool sf_fuse_attrs_held(const struct inode *inode)
{
	const struct sf_fuse_inode_head *fi =
		container_of(inode, struct sf_fuse_inode_head, inode);

	return !(READ_ONCE(fi->inval_mask) &
		 (STATX_MODE | STATX_UID | STATX_GID)) &&
	       !time_before64(READ_ONCE(fi->i_time), get_jiffies_64());
}
NOKPROBE_SYMBOL(sf_fuse_attrs_held);

/* Is this permission check one the daemon must see (above)? */
bool sf_fuse_perm_sent(const struct inode *inode, int mask)
{
	if (!(mask & (MAY_ACCESS | MAY_WRITE)) ||
	    (current->flags & PF_KTHREAD) || !sf_smackfuse_inode(inode))
		return false;
	if (!(mask & MAY_ACCESS) &&
	    (!S_ISDIR(inode->i_mode) || !sf_fuse_attrs_held(inode)))
		return false;
	return sf_task_label(current) != SF_LID_FLOOR;
}
NOKPROBE_SYMBOL(sf_fuse_perm_sent);

/*
 * Ask the daemon for @inode's attributes now, from the caller: the
 * daemon names this frame (sf_perm_refresh) as the site of a permission
 * check.  Not inlined, and not a tail call, so that the frame is there.
 */
static noinline int sf_perm_refresh(struct inode *inode)
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
int sf_fuse_perm_divert(struct inode *inode, int mask)
{
	int (*body)(struct inode *, int) = (void *)sf_inode_permission_body;
	int rc = sf_perm_refresh(inode);

	if (!rc)
		rc = body(inode, mask);
	sf_divert_done();
	return rc;
}
