// SPDX-License-Identifier: GPL-2.0-only
/*
 * hooks_fuse.c - checks on a smackfuse mount that the FUSE driver answers
 * from attributes it holds, or refuses ahead of, in the kernel: the
 * daemon decides them.
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
 * With the module loaded, three checks on a smackfuse mount (a FUSE
 * superblock of subtype "smackfuse") are sent to the daemon whatever the
 * driver holds: the call is diverted to a forced refresh of the
 * attributes from the caller's own context.  The daemon gets a GETATTR
 * from the caller, sees the refresh's frame in the caller's kernel stack
 * and the call in its /proc/TID/syscall, and decides as mainline does;
 * its refusal is the call's.  The three:
 *  - access(2) and faccessat(2), always, at security_inode_permission()
 *    (mainline's smack_inode_permission), after the mode bits passed
 *    (sf_perm_refresh): the mode they ask may be one the subject lacks
 *    on an object whose attributes are held.  A daemon that knows this
 *    (the module's "features" file says perm_refresh) lets the kernel
 *    hold the attributes of floor directories (smackfuse(8), "Kernel
 *    caches").
 *  - write to a directory whose attributes the driver held (it sent no
 *    GETATTR), at security_inode_permission() (smack_inode_permission,
 *    sf_perm_refresh): removing, linking or making a node in it,
 *    renaming, where the kernel makes refusals of its own after this
 *    check (EISDIR, ENOTDIR, the sticky bit's EPERM, CAP_MKNOD's EPERM)
 *    that mainline's EACCES comes before.
 *  - a change of attributes, at security_inode_setattr() (mainline's
 *    smack_inode_setattr, w; sf_setattr_refresh): chmod(2), chown(2),
 *    utimensat(2), truncate(2) and the rest of notify_change()'s callers,
 *    through a descriptor too, but not the kernel's own ATTR_FORCE
 *    changes (killpriv), which mainline does not check either.  The FUSE
 *    driver makes its owner check (setattr_prepare(), EPERM) before it
 *    sends any SETATTR, where mainline's w check comes before the
 *    filesystem's.  A daemon that knows this (setattr_refresh) asks w
 *    of such a refresh.  For a floor task too: floor may lack w on a
 *    labelled object, whatever the driver holds.
 * The first two not for a floor task: every object a daemon lets the
 * kernel hold gives floor every access.  None for a kernel thread.  A
 * refresh that cannot be made denies.
 *
 * A daemon that hands the module its verdicts (verdicts.c: what its rules
 * answer for a subject on a node) lets the kernel hold the attributes of
 * every directory, file and symbolic link.  On its mount the module then
 * decides every permission check (security_inode_permission, the walk's
 * search included, in an RCU walk too), stat's read
 * (security_inode_getattr) and a change's write (security_inode_setattr)
 * of every task from the verdict for the task's label on the inode's
 * node: allowed, the check passes here; anything else (no verdict, a
 * request the rules refuse) goes to the daemon as above, whatever the
 * driver holds, and the daemon decides with privilege and the audit line
 * (and hands a verdict back for the next time).
 * The daemon lets the kernel keep such a node's POSIX ACLs too (for the
 * permission checks), so getxattr(2) of an ACL, which the kernel then
 * answers from its cache, is decided here the same way (read).
 *
 * One check the kernel makes on every filesystem is left out on a
 * smackfuse mount, as mainline Smack leaves it out: the capability
 * module's CAP_SYS_ADMIN for setting or removing one of Smack's own
 * attributes (sf_fuse_xattr_skipcap, mainline's smack_inode_xattr_skipcap).
 * The daemon makes Smack's check of those, CAP_MAC_ADMIN and w.
 *
 * Anyone may mount a FUSE filesystem of that subtype; on such a mount the
 * refresh asks that filesystem's own daemon, which answers the call's
 * checks there already (and sets or removes the attributes as it will).
 */
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/kprobes.h>
#include <linux/magic.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/stat.h>
#include <linux/string.h>
#include <linux/xattr.h>
#include "smackfuse.h"

/* security_inode_permission(), security_inode_getattr() and
 * security_inode_setattr() past their probed call sites (probe.c). */
unsigned long sf_inode_permission_body;
unsigned long sf_inode_getattr_body;
unsigned long sf_inode_setattr_body;
static unsigned long sf_acl_hook_body;	/* SF_ACL_HOOK's (release-*.h) */

static bool sf_smackfuse_inode(const struct inode *inode)
{
	const struct super_block *sb = inode->i_sb;

	return sb->s_magic == FUSE_SUPER_MAGIC && sb->s_subtype &&
	       !strcmp(sb->s_subtype, SF_FUSE_SUBTYPE);
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

static u64 sf_fuse_nodeid(const struct inode *inode)
{
	return READ_ONCE(container_of(inode, struct sf_fuse_inode_head,
				      inode)->nodeid);
}
NOKPROBE_SYMBOL(sf_fuse_nodeid);

/* The daemon's verdict (verdicts.c) on @request of current on @inode. */
static enum sf_verdict_answer sf_fuse_verdict(const struct inode *inode,
					      u32 request)
{
	return sf_verdict_of(inode->i_sb, sf_fuse_nodeid(inode),
			     sf_task_label(current), request);
}
NOKPROBE_SYMBOL(sf_fuse_verdict);

/* Is this permission check one the daemon must see (above)? */
bool sf_fuse_perm_sent(const struct inode *inode, int mask)
{
	if (!sf_smackfuse_inode(inode))
		return false;
	switch (sf_fuse_verdict(inode, sf_inode_request(mask))) {
	case SF_VERDICT_ALLOWS:
		return false;
	case SF_VERDICT_ASK:
		return true;
	case SF_VERDICT_UNBOUND:
		break;
	}
	if (!(mask & (MAY_ACCESS | MAY_WRITE)) ||
	    (current->flags & PF_KTHREAD))
		return false;
	if (!(mask & MAY_ACCESS) &&
	    (!S_ISDIR(inode->i_mode) || !sf_fuse_attrs_held(inode)))
		return false;
	return sf_task_label(current) != SF_LID_FLOOR;
}
NOKPROBE_SYMBOL(sf_fuse_perm_sent);

/*
 * Is stat's read (security_inode_getattr) on @inode the daemon's to
 * decide now?  Only on a mount that hands verdicts (elsewhere the daemon
 * holds no attributes a subject may lack read on), and then whether the
 * attributes are held or not: expired ones would be refreshed by the
 * driver, but another task's refresh may land between this test and the
 * driver's, so the module does not look.
 */
bool sf_fuse_getattr_sent(const struct inode *inode)
{
	return sf_smackfuse_inode(inode) &&
	       sf_fuse_verdict(inode, SF_MAY_READ) == SF_VERDICT_ASK;
}
NOKPROBE_SYMBOL(sf_fuse_getattr_sent);

/*
 * Is a change of @inode's attributes (security_inode_setattr, past
 * ATTR_FORCE) the daemon's to decide now?  As sf_fuse_perm_sent() for
 * the write it asks, but whether or not the attributes are held, and
 * for a floor task too: the FUSE driver's owner check comes before any
 * request either way.
 */
bool sf_fuse_setattr_sent(const struct inode *inode)
{
	if (!sf_smackfuse_inode(inode))
		return false;
	switch (sf_fuse_verdict(inode, SF_MAY_WRITE)) {
	case SF_VERDICT_ALLOWS:
		return false;
	case SF_VERDICT_ASK:
		return true;
	case SF_VERDICT_UNBOUND:
		break;
	}
	return !(current->flags & PF_KTHREAD);
}
NOKPROBE_SYMBOL(sf_fuse_setattr_sent);

/*
 * The refreshes below ask the daemon for an inode's attributes now, from
 * the caller; the daemon names the check by the refresh's frame.  Each is
 * noinline, and its call is followed by a barrier (and takes a local's
 * address), so that it is no tail call and the frame is there.
 */
static __always_inline int sf_fuse_force_getattr(const struct path *path)
{
	struct inode *inode = d_backing_inode(path->dentry);
	struct kstat stat;
	int rc;

	rc = inode->i_op->getattr(SF_NOP_IDMAP, path, &stat,
				  STATX_BASIC_STATS, AT_STATX_FORCE_SYNC);
	barrier();
	return rc;
}

/* A permission check (the walk's search under link_path_walk). */
static noinline int sf_perm_refresh(struct inode *inode)
{
	struct dentry *dentry = d_find_alias(inode);
	struct path path = { .mnt = NULL, .dentry = dentry };
	int rc;

	if (!dentry)
		return -EACCES;	/* no name to ask for: cannot decide */
	rc = sf_fuse_force_getattr(&path);
	dput(dentry);
	return rc;
}

/* stat's read, under the call's own stat frames. */
static noinline int sf_stat_refresh(const struct path *path)
{
	return sf_fuse_force_getattr(path);
}

/* A change of attributes, before the FUSE driver's owner check. */
static noinline int sf_setattr_refresh(struct dentry *dentry)
{
	struct path path = { .mnt = NULL, .dentry = dentry };

	return sf_fuse_force_getattr(&path);
}

/* Runs instead of security_inode_getattr(path). */
int sf_fuse_getattr_divert(const struct path *path)
{
	int (*body)(const struct path *) = (void *)sf_inode_getattr_body;
	int rc = sf_stat_refresh(path);

	if (!rc)
		rc = body(path);
	sf_divert_done();
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

/* Runs instead of security_inode_setattr(idmap, dentry, attr). */
int sf_fuse_setattr_divert(SF_SETATTR_PARAMS)
{
	int (*body)(SF_SETATTR_PARAMS) = (void *)sf_inode_setattr_body;
	int rc = sf_setattr_refresh(dentry);

	if (!rc)
		rc = body(SF_SETATTR_ARGS);
	sf_divert_done();
	return rc;
}

/* ---- getxattr(2) of a POSIX ACL ---- */

static bool sf_acl_xattr(const char *name)
{
	return !strcmp(name, XATTR_NAME_POSIX_ACL_ACCESS) ||
	       !strcmp(name, XATTR_NAME_POSIX_ACL_DEFAULT);
}
NOKPROBE_SYMBOL(sf_acl_xattr);

/* As sf_fuse_getattr_sent(), for getxattr(2) of an ACL on @dentry. */
static bool sf_fuse_acl_sent(struct dentry *dentry, const char *name)
{
	struct inode *inode = d_backing_inode(dentry);

	return inode && sf_smackfuse_inode(inode) && sf_acl_xattr(name) &&
	       sf_fuse_verdict(inode, SF_MAY_READ) == SF_VERDICT_ASK;
}
NOKPROBE_SYMBOL(sf_fuse_acl_sent);

/* The refresh the daemon decides as smack_inode_get_acl's read. */
static noinline int sf_acl_refresh(struct dentry *dentry)
{
	struct path path = { .mnt = NULL, .dentry = dentry };

	return sf_fuse_force_getattr(&path);
}

/* Runs instead of SF_ACL_HOOK (release-*.h). */
static int sf_fuse_acl_divert(SF_ACL_HOOK_PARAMS)
{
	int (*body)(SF_ACL_HOOK_PARAMS) = (void *)sf_acl_hook_body;
	int rc = sf_acl_refresh(dentry);

	if (!rc)
		rc = body(SF_ACL_HOOK_ARGS);
	sf_divert_done();
	return rc;
}

static int sf_fuse_acl(struct kprobe *kp, struct pt_regs *regs)
{
	struct dentry *dentry = (struct dentry *)
		regs_get_kernel_argument(regs, SF_ACL_HOOK_DENTRY);
	const char *name = (const char *)
		regs_get_kernel_argument(regs, SF_ACL_HOOK_NAME);

	if (sf_fuse_acl_sent(dentry, name))
		return sf_divert(regs, (unsigned long)sf_fuse_acl_divert);
	return 0;
}
NOKPROBE_SYMBOL(sf_fuse_acl);

/* ---- setxattr(2) and removexattr(2) of a Smack attribute ---- */

/* The attributes Smack owns, as smack_inode_xattr_skipcap lists them:
 * the two of a socket too, which smack_inode_setxattr and
 * smack_inode_removexattr check on any inode (CAP_MAC_ADMIN), as the
 * daemon does. */
static bool sf_smack_xattr(const char *name)
{
	if (strncmp(name, XATTR_NAME_SMACK, sizeof(XATTR_NAME_SMACK) - 1))
		return false;
	return !strcmp(name, XATTR_NAME_SMACK) ||
	       !strcmp(name, XATTR_NAME_SMACKIPIN) ||
	       !strcmp(name, XATTR_NAME_SMACKIPOUT) ||
	       !strcmp(name, XATTR_NAME_SMACKEXEC) ||
	       !strcmp(name, XATTR_NAME_SMACKMMAP) ||
	       !strcmp(name, XATTR_NAME_SMACKTRANSMUTE);
}
NOKPROBE_SYMBOL(sf_smack_xattr);

/**
 * sf_fuse_xattr_skipcap - skip the capability module's check of @name on
 * @dentry?
 * @dentry: the object of setxattr(2), fsetxattr(2), removexattr(2), ...
 * @name: the attribute's name
 *
 * Mainline's smack_inode_xattr_skipcap: Smack "owns" its attributes, so
 * security_inode_setxattr and security_inode_removexattr (6.10 on) do not
 * call the capability module's cap_inode_setxattr and
 * cap_inode_removexattr for them, which ask CAP_SYS_ADMIN of any
 * security.* name; smack_inode_setxattr and smack_inode_removexattr ask
 * CAP_MAC_ADMIN (and w) instead.  A kernel without Smack calls them, and
 * a caller with CAP_MAC_ADMIN alone gets EPERM before the FUSE driver
 * sends the request.  On a smackfuse mount the module leaves them out for
 * those names, and the daemon makes Smack's check.  Every other name
 * (security.capability, security.selinux, security.evm, ...) and every
 * other filesystem keeps the capability module's check.  Linux 6.1 calls
 * the capability module only when no LSM answers, and Debian's BPF LSM
 * always answers (0): there the probes see no call.
 *
 * Returns true to leave the check out.
 */
static bool sf_fuse_xattr_skipcap(struct dentry *dentry, const char *name)
{
	struct inode *inode = d_backing_inode(dentry);

	return inode && sf_smackfuse_inode(inode) && sf_smack_xattr(name);
}
NOKPROBE_SYMBOL(sf_fuse_xattr_skipcap);

/* cap_inode_setxattr(dentry, name, value, size, flags) */
static int sf_fuse_cap_setxattr(struct kprobe *kp, struct pt_regs *regs)
{
	struct dentry *dentry = (struct dentry *)
		regs_get_kernel_argument(regs, 0);
	const char *name = (const char *)regs_get_kernel_argument(regs, 1);

	if (sf_fuse_xattr_skipcap(dentry, name))
		return sf_skip(regs);
	return 0;
}
NOKPROBE_SYMBOL(sf_fuse_cap_setxattr);

/* cap_inode_removexattr(idmap, dentry, name) (a user namespace on 6.1) */
static int sf_fuse_cap_removexattr(struct kprobe *kp, struct pt_regs *regs)
{
	struct dentry *dentry = (struct dentry *)
		regs_get_kernel_argument(regs, 1);
	const char *name = (const char *)regs_get_kernel_argument(regs, 2);

	if (sf_fuse_xattr_skipcap(dentry, name))
		return sf_skip(regs);
	return 0;
}
NOKPROBE_SYMBOL(sf_fuse_cap_removexattr);

/* security_sb_delete(sb): a mount's verdicts end with its superblock. */
static int sf_fuse_sb_delete(struct kprobe *kp, struct pt_regs *regs)
{
	const struct super_block *sb = (const struct super_block *)
		regs_get_kernel_argument(regs, 0);

	if (sb->s_magic == FUSE_SUPER_MAGIC)
		sf_verdicts_sb_gone(sb);
	return 0;
}
NOKPROBE_SYMBOL(sf_fuse_sb_delete);

/* SF_PROBE() of a name a release header gives as a macro */
#define SF_PROBE_OF(fn)	SF_PROBE(fn)

const struct sf_hook sf_fuse_hooks[] = {
	{ SF_PROBE_OF(SF_ACL_HOOK), sf_fuse_acl, false, &sf_acl_hook_body },
	{ SF_PROBE(cap_inode_setxattr), sf_fuse_cap_setxattr, false },
	{ SF_PROBE(cap_inode_removexattr), sf_fuse_cap_removexattr, false },
	{ SF_PROBE(security_sb_delete), sf_fuse_sb_delete, false },
	{ NULL, NULL, false }
};
