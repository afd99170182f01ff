// SPDX-License-Identifier: GPL-2.0-only
/*
 * release.c - hold the kernel to what release.h and release-X.Y.h say.
 *
 * At build time: every probed function declared in the kernel's headers
 * has the argument list the tables give (a release that changed one does
 * not build).  At load: the one structure read by its layout, procfs'
 * inode, holds the struct pid where we read it (the load fails
 * otherwise, rather than decide on another task's label).
 */
#include <linux/build_bug.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <linux/namei.h>
#include <linux/path.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include "smackfuse.h"

#define SF_PROTO_CHECK(fn, ret, args)					\
	static_assert(__same_type(fn, sf_probed_##fn),			\
		      #fn "() takes other arguments in this release than release.h says");
SF_PROTOS_COMMON(SF_PROTO_CHECK)
SF_PROTOS_RELEASE(SF_PROTO_CHECK)
#undef SF_PROTO_CHECK

/*
 * /proc/self is the calling task's /proc/PID, whose inode keeps the
 * struct pid of its thread group leader: the one sf_proc_task() must read
 * there.  The task loading the module has /proc mounted (systemd mounts
 * it first of all); one that has not cannot load it.
 */
int sf_release_check(void)
{
	struct sf_proc_inode *ei;
	struct inode *inode;
	struct path path;
	bool ok;
	int rc;

	rc = kern_path("/proc/self", LOOKUP_FOLLOW, &path);
	if (rc) {
		pr_err("smackfuse: cannot check procfs' inode layout: /proc/self: error %d (is /proc mounted?)\n",
		       rc);
		return rc;
	}
	inode = d_backing_inode(path.dentry);
	ok = inode->i_sb->s_magic == PROC_SUPER_MAGIC;
	if (ok) {
		ei = container_of(inode, struct sf_proc_inode, vfs_inode);
		ok = READ_ONCE(ei->pid) == task_tgid(current);
	}
	path_put(&path);
	if (!ok) {
		pr_err("smackfuse: /proc/self is no procfs inode of this task as release.h lays it out; not loading\n");
		return -EINVAL;
	}
	return 0;
}
