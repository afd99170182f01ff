// SPDX-License-Identifier: GPL-2.0-only
/*
 * hooks_file.c - an open file received from another task (SCM_RIGHTS over
 * a UNIX socket, pidfd_getfd, seccomp's addfd): mainline's
 * smack_file_receive().
 *
 * The receiver needs the access the file's mode implies (FMODE_READ r,
 * FMODE_WRITE w; neither: a request of nothing, still a check) to the
 * file's label, its security.SMACK64 attribute (none: floor "_").  A
 * passed socket instead needs w from the receiver to the socket and back,
 * without privilege, as in mainline.
 *
 * Reading an attribute may sleep, which a probe handler may not, so the
 * handler diverts the call (sf_divert(), probe.c) to
 * sf_file_receive_divert(), which runs in the receiver's process context
 * in place of security_file_receive() and then runs that function's own
 * body, for the other LSMs.
 */
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <linux/net.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/xattr.h>
#include <net/sock.h>
#include "smackfuse.h"

#define ARG(n)	regs_get_kernel_argument(regs, (n))

/* security_file_receive() past its probed call site (set by probe.c). */
static unsigned long sf_file_receive_body;

/*
 * The file's label, as mainline's smk_fetch() at instantiation: the
 * attribute up to its first byte that cannot be in a label; no attribute
 * is floor, and a label the policy has never seen is SF_LID_INVALID (no
 * rule can name it, and sf_access() denies it).
 */
static sf_lid sf_file_label(struct file *file)
{
	char buf[SF_LABEL_MAX + 1];
	ssize_t n, i;

	n = __vfs_getxattr(file_dentry(file), file_inode(file),
			   XATTR_NAME_SMACK, buf, sizeof(buf) - 1);
	if (n == -ENODATA || n == -EOPNOTSUPP)
		return SF_LID_FLOOR;
	if (n <= 0)
		return SF_LID_INVALID;
	for (i = 0; i < n; i++)
		if (buf[i] <= ' ' || buf[i] > '~')
			break;
	return sf_label_find(sf_policy_labels(sf_policy), buf, i);
}

static int sf_sock_receive(struct socket *sock)
{
	sf_lid self = sf_task_label(current);
	sf_lid sk = sf_ltab_get(&sf_socks, sock->sk);
	int rc;

	rc = sf_check(self, sk, SF_MAY_WRITE, NULL, SF_LID_INVALID,
		      "smack_file_receive", NULL);
	if (!rc)
		rc = sf_check(sk, self, SF_MAY_WRITE, NULL, SF_LID_INVALID,
			      "smack_file_receive", NULL);
	return rc;
}

static int sf_file_receive_check(struct file *file)
{
	struct inode *inode = file_inode(file);
	u32 may = 0;

	if (IS_PRIVATE(inode) || (current->flags & PF_KTHREAD))
		return 0;
	if (S_ISSOCK(inode->i_mode) && inode->i_sb->s_magic == SOCKFS_MAGIC)
		return sf_sock_receive(SOCKET_I(inode));
	if (file->f_mode & FMODE_READ)
		may |= SF_MAY_READ;
	if (file->f_mode & FMODE_WRITE)
		may |= SF_MAY_WRITE;
	return sf_check_current(sf_file_label(file), may,
				"smack_file_receive", NULL);
}

/* Runs instead of security_file_receive(file), in its caller's context. */
static int sf_file_receive_divert(struct file *file)
{
	int (*body)(struct file *) = (void *)sf_file_receive_body;
	int rc = sf_file_receive_check(file);

	if (!rc)
		rc = body(file);
	sf_divert_done();
	return rc;
}

/* security_file_receive(file) */
static int sf_file_receive(struct kprobe *kp, struct pt_regs *regs)
{
	return sf_divert(regs, (unsigned long)sf_file_receive_divert);
}
NOKPROBE_SYMBOL(sf_file_receive);

const struct sf_hook sf_file_hooks[] = {
	{ "security_file_receive", sf_file_receive, false,
	  &sf_file_receive_body },
	{ NULL, NULL, false, NULL }
};
