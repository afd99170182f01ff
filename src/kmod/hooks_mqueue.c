// SPDX-License-Identifier: GPL-2.0-only
/*
 * hooks_mqueue.c - POSIX message queues (mq_open, mq_unlink).
 *
 * A queue is an inode of the mqueue filesystem, which has no extended
 * attributes, so mainline gives every queue, and the filesystem's root,
 * the superblock's default label: floor "_" (smack_d_instantiate).  Its
 * checks are the inode checks of any file:
 *
 *  - mq_open of an existing queue: the open's access (prepare_open ->
 *    inode_permission: O_RDONLY r, O_WRONLY w, O_RDWR rw), then r
 *    (smack_file_open);
 *  - mq_open with O_CREAT of a new queue: w and x on the root
 *    (vfs_mkobj -> may_create);
 *  - mq_unlink: w and x on the root (may_delete), then w on the root and
 *    on the queue (smack_inode_unlink).
 *
 * Every label is floor, so all of it comes down to: a task whose label is
 * not floor needs "LABEL _ w" to create, write or remove a queue, and
 * nothing to read one.  CAP_MAC_OVERRIDE overrides, as in mainline.  The
 * open is checked at security_file_open (hooks_task.c hands mqueue files
 * here), creation at security_inode_create (called right after
 * may_create), removal at security_inode_unlink (right after may_delete).
 */
#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/sched.h>
#include "smackfuse.h"

#define ARG(n)	regs_get_kernel_argument(regs, (n))

/* Asked at every open in the system: one compare, as for sockfs. */
bool sf_mqueue_inode(const struct inode *inode)
{
	return inode && inode->i_sb->s_magic == SF_MQUEUE_MAGIC;
}
NOKPROBE_SYMBOL(sf_mqueue_inode);

/*
 * A queue opened with @request (the open's r and w; prepare_open() asks
 * no append), then smack_file_open's r.  A queue that this very mq_open
 * created asks no access (prepare_open() checks only an existing one):
 * with O_CREAT and O_EXCL that is sure.  With O_CREAT alone it cannot be
 * told here, and the access is asked: then creating and opening for
 * reading and writing needs r as well as the w and x that creating asks
 * (smackfuse-kmod(7), LIMITS).
 */
int sf_mqueue_open_check(struct file *file, u32 request)
{
	int rc = 0;

	if ((file->f_flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		request = 0;
	if (request)
		rc = sf_check_current(SF_LID_FLOOR, request,
				      "smack_inode_permission", NULL);
	if (!rc)
		rc = sf_check_current(SF_LID_FLOOR, SF_MAY_READ,
				      "smack_file_open", NULL);
	return rc;
}
NOKPROBE_SYMBOL(sf_mqueue_open_check);

/* w and x on the queues' directory, floor (may_create, may_delete). */
static int sf_mqueue_dir_check(struct pt_regs *regs, const char *fn)
{
	struct inode *dir = (struct inode *)ARG(0);

	if (!sf_mqueue_inode(dir) || (current->flags & PF_KTHREAD))
		return 0;
	return sf_deny(regs, sf_check_current(SF_LID_FLOOR,
					      SF_MAY_WRITE | SF_MAY_EXEC,
					      fn, NULL));
}
NOKPROBE_SYMBOL(sf_mqueue_dir_check);

/* security_inode_create(dir, dentry, mode) */
static int sf_mqueue_create(struct kprobe *kp, struct pt_regs *regs)
{
	return sf_mqueue_dir_check(regs, "smack_inode_permission");
}
NOKPROBE_SYMBOL(sf_mqueue_create);

/* security_inode_unlink(dir, dentry): the directory's w and x stand for
 * smack_inode_unlink's w on both, which are floor too. */
static int sf_mqueue_unlink(struct kprobe *kp, struct pt_regs *regs)
{
	return sf_mqueue_dir_check(regs, "smack_inode_unlink");
}
NOKPROBE_SYMBOL(sf_mqueue_unlink);

const struct sf_hook sf_mqueue_hooks[] = {
	{ SF_PROBE(security_inode_create), sf_mqueue_create, false, NULL },
	{ SF_PROBE(security_inode_unlink), sf_mqueue_unlink, false, NULL },
	{ NULL, NULL, false, NULL }
};
