// SPDX-License-Identifier: GPL-2.0-only
/*
 * hooks_file.c - an open file received from another task (SCM_RIGHTS over
 * a UNIX socket, pidfd_getfd, seccomp's addfd): mainline's
 * smack_file_receive(); and the mapping of a file that carries
 * security.SMACK64MMAP: mainline's smack_mmap_file().
 *
 * The receiver needs the access the file's mode implies (FMODE_READ r,
 * FMODE_WRITE w; neither: a request of nothing, still a check) to the
 * file's label, its security.SMACK64 attribute (none: floor "_").  A
 * passed socket instead needs w from the receiver to the socket and back,
 * without privilege, as in mainline.
 *
 * Reading an attribute may sleep, which a probe handler may not, so the
 * handler diverts the call (sf_divert(), deny.c) to
 * sf_file_receive_divert(), which runs in the receiver's process context
 * in place of security_file_receive() and then runs that function's own
 * body, for the other LSMs.
 *
 * Also SIGIO and SIGURG sent to a file's owner: mainline's
 * smack_file_set_fowner() and smack_file_send_sigiotask(), and the w
 * that smack_file_fcntl() asks for F_SETOWN and F_SETSIG (below).
 */
#include <linux/cred.h>
#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <linux/mm_types.h>
#include <linux/rcupdate.h>
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
 * The file's label, as smack_d_instantiate() imports it with smk_fetch():
 * the valid prefix of at most SMK_LONGLABEL bytes of the attribute.  No
 * attribute, one longer than that or one that starts with no label ("",
 * "-X") give the superblock's default, which is floor on a filesystem
 * mounted with privilege and without smackfsdef= (the module's stand-in
 * for every filesystem: it keeps no mount's options).  One that cannot be
 * read at all is SF_LID_INVALID, as is a label the policy has never seen:
 * no rule can name it, and sf_access() denies it.
 */
static sf_lid sf_file_label(struct file *file)
{
	char buf[SF_LABEL_MAX + 1];
	ssize_t n, i;

	n = __vfs_getxattr(file_dentry(file), file_inode(file),
			   XATTR_NAME_SMACK, buf, sizeof(buf));
	if (n == -ENODATA || n == -EOPNOTSUPP || n == -ERANGE || !n)
		return SF_LID_FLOOR;
	if (n < 0)
		return SF_LID_INVALID;
	i = sf_label_prefix(buf, n);
	if (!i)
		return SF_LID_FLOOR;
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

/*
 * SMACK64MMAP: a file carrying it may be mapped only by a task whose rules
 * that label's rules cover (smack_mmap_file()).  Checked at every mmap of
 * such a file, whatever the protection: mmap(2),
 * remap_file_pages(2), and the mappings the ELF loader makes at exec.
 * The rule is the core's (sf_mmap_rule(), src/common/mmap.c), the one the
 * daemon applies to an exec open; what is the module's own is reading
 * the labels, the audit line (mainline writes none for this hook) and an
 * unreadable SMACK64MMAP, taken as a label without rules (the daemon
 * refuses the exec open instead).
 */

/* security_mmap_file() past its probed call site (set by probe.c). */
static unsigned long sf_mmap_file_body;

/*
 * sf_file_mmap_label - @file's SMACK64MMAP label, as smack_d_instantiate()
 * keeps it: the valid prefix of the value (smk_fetch()), and never "*" or
 * "@".  A value that is no label (empty, too long, a leading '-') is no
 * attribute, as in mainline.  Returns 0 with *@lid set (SF_LID_INVALID for
 * a label the policy has never seen: it has no rules, as the entry
 * mainline would import for it), -ENODATA when there is none, or another
 * negative errno when the attribute cannot be read (on a smackfuse mount
 * the daemon answers this read).  May sleep.
 */
static int sf_file_mmap_label(struct file *file, sf_lid *lid)
{
	char buf[SF_LABEL_MAX + 1];	/* SMK_LONGLABEL */
	ssize_t n, i;

	n = __vfs_getxattr(file_dentry(file), file_inode(file),
			   XATTR_NAME_SMACKMMAP, buf, sizeof(buf));
	if (!n || n == -ENODATA || n == -EOPNOTSUPP || n == -ERANGE)
		return -ENODATA;
	if (n < 0)
		return n;
	i = sf_label_prefix(buf, n);
	if (!i)
		return -ENODATA;
	*lid = sf_label_find(sf_policy_labels(sf_policy), buf, i);
	if (*lid == SF_LID_STAR || *lid == SF_LID_WEB)
		return -ENODATA;
	return 0;
}

/*
 * sf_mmap_subject - the label whose rules count for current's mapping.
 * At exec the ELF loader maps the program (and its interpreter) after the
 * point of no return; mainline has already given the task the label of
 * the program's SMACK64EXEC then (smack_bprm_creds_for_exec), while this
 * module sets it only on the way back to user space (sf_exec_label() in
 * hooks_task.c).  So during an exec that label is read here the same way
 * from the program being executed (mm->exe_file, set by begin_new_exec()).
 * May sleep.
 */
static sf_lid sf_mmap_subject(void)
{
	sf_lid self = sf_task_label(current);
	struct sf_error err = { 0 };
	char buf[SF_LABEL_MAX + 1];
	struct mm_struct *mm = current->mm;
	struct file *exe;
	sf_lid lid;
	size_t len;
	ssize_t n;

	if (!current->in_execve || !mm)
		return self;
	exe = sf_exe_file_get(mm);	/* release-X.Y.h */
	if (!exe)
		return self;
	n = __vfs_getxattr(file_dentry(exe), file_inode(exe),
			   XATTR_NAME_SMACKEXEC, buf, sizeof(buf));
	fput(exe);
	len = n > 0 ? sf_label_prefix(buf, n) : 0;
	if (len && !sf_label_intern(sf_policy_labels(sf_policy), buf, len,
				    &lid, &err) &&
	    lid != SF_LID_STAR && lid != SF_LID_WEB)
		return lid;
	return self;
}

static int sf_mmap_file_check(struct file *file)
{
	sf_lid mmap, subject;
	u32 may = 0;
	int rc;

	if (!file || IS_PRIVATE(file_inode(file)))
		return 0;
	rc = sf_file_mmap_label(file, &mmap);
	if (rc == -ENODATA)
		return 0;
	if (rc)	/* unreadable: as a label without rules */
		mmap = SF_LID_INVALID;
	subject = sf_mmap_subject();
	rcu_read_lock();
	rc = sf_mmap_rule(sf_policy_snapshot(sf_policy), subject, mmap, &may);
	rcu_read_unlock();
	return sf_report(subject, mmap, may, rc, "smack_mmap_file", NULL);
}

/* Runs instead of security_mmap_file(file, prot, flags). */
static int sf_mmap_file_divert(struct file *file, unsigned long prot,
			       unsigned long flags)
{
	int (*body)(struct file *, unsigned long, unsigned long) =
		(void *)sf_mmap_file_body;
	int rc = sf_mmap_file_check(file);

	if (!rc)
		rc = body(file, prot, flags);
	sf_divert_done();
	return rc;
}

/* security_mmap_file(file, prot, flags) */
static int sf_mmap_file(struct kprobe *kp, struct pt_regs *regs)
{
	return sf_divert(regs, (unsigned long)sf_mmap_file_divert);
}
NOKPROBE_SYMBOL(sf_mmap_file);

/*
 * fcntl(F_SETOWN) and fcntl(F_SETSIG) need w on the file's label
 * (smack_file_fcntl(); its lock commands reach a smackfuse daemon as lock
 * requests and are decided there, F_GETLK asks nothing).  Neither reaches
 * a FUSE daemon, so the module makes the check, reading the label as
 * smack_file_receive's check does (may sleep: diverted).  On a smackfuse
 * mount that read is a FUSE_GETXATTR from the caller, which the daemon
 * answers without a read check during fcntl(2), as mainline reads the
 * label at lookup.  Files of the pseudo filesystems are not checked:
 * sockets are "*" in mainline, and pipes and anonymous inodes carry the
 * label of their creator or of their filesystem, which the module does
 * not keep (the module's floor would refuse a labelled task its own
 * pipe).
 */

/* security_file_fcntl() past its probed call site (set by probe.c). */
static unsigned long sf_file_fcntl_body;

/* F_SETOWN or F_SETSIG on @file (the handler diverts no other command). */
static int sf_file_fcntl_check(struct file *file)
{
	struct inode *inode = file_inode(file);

	if (IS_PRIVATE(inode) || (current->flags & PF_KTHREAD))
		return 0;
	switch (inode->i_sb->s_magic) {
	case SOCKFS_MAGIC:
	case PIPEFS_MAGIC:
	case ANON_INODE_FS_MAGIC:
		return 0;
	}
	return sf_check_current(sf_file_label(file), SF_MAY_WRITE,
				"smack_file_fcntl", NULL);
}

/* Runs instead of security_file_fcntl(file, cmd, arg). */
static int sf_file_fcntl_divert(struct file *file, unsigned int cmd,
				unsigned long arg)
{
	int (*body)(struct file *, unsigned int, unsigned long) =
		(void *)sf_file_fcntl_body;
	int rc = sf_file_fcntl_check(file);

	if (!rc)
		rc = body(file, cmd, arg);
	sf_divert_done();
	return rc;
}

/* security_file_fcntl(file, cmd, arg): only F_SETOWN and F_SETSIG are
 * diverted, every other command runs on untouched. */
static int sf_file_fcntl(struct kprobe *kp, struct pt_regs *regs)
{
	unsigned int cmd = (unsigned int)ARG(1);

	if (cmd != F_SETOWN && cmd != F_SETSIG)
		return 0;
	return sf_divert(regs, (unsigned long)sf_file_fcntl_divert);
}
NOKPROBE_SYMBOL(sf_file_fcntl);

/*
 * SIGIO and SIGURG to a file's owner (F_SETOWN, F_SETOWN_EX, FIOSETOWN,
 * SIOCSPGRP, a tty's fasync: every owner goes through __f_setown(), which
 * calls security_file_set_fowner() first).  Mainline keeps the label of
 * the task that set the owner in the file (smack_file_set_fowner()), and
 * smack_file_send_sigiotask() lets a signal go to a receiving task only
 * when that label may write (MAY_DELIVER) the receiver's label, or the
 * receiver has CAP_MAC_OVERRIDE (narrowed by onlycap, on the receiver's
 * label).  A refused signal is simply not sent (send_sigio_to_task() and
 * send_sigurg_to_task() skip that task); nothing fails.
 *
 * The owner's label is kept in sf_fowners, keyed by the struct file: set at
 * every security_file_set_fowner() (floor removes the entry), read at
 * security_file_send_sigiotask(), which runs under fown->lock and RCU,
 * possibly from an interrupt (kill_fasync() from a driver): the lookup is
 * lockless and allocates nothing.  A file has no entry, hence the floor
 * label, when its owner was set before the module loaded, as every object
 * that existed then (mainline's file blob would hold the label of
 * whoever opened or last owned it; floor is the module's rule for all such
 * objects).  A file whose owner was never set sends no SIGIO at all, so an
 * entry matters only from its first __f_setown(), which sets it.
 *
 * security_file_set_fowner() cannot fail (__f_setown() is void and runs
 * under RCU or a tty spinlock), so a failed GFP_ATOMIC allocation cannot
 * refuse the F_SETOWN: the file's entry is dropped (floor, never the
 * label of an earlier owner) and counted in nomem.
 *
 * The entry goes at security_file_free(), which runs once per struct file,
 * at the last fput (__fput(), in process context: task work or the
 * delayed_fput worker), after the file's fasync entries and owner are
 * gone, so no SIGIO can come for it later.  That probe costs every close
 * of every file one ftrace-based kprobe (the trampoline, kprobe_ftrace(),
 * sf_pre() with its interrupts off and on) and, only while some file has
 * an entry (sf_fowners.count, one atomic read), one lockless hash lookup;
 * the lock is taken only for a file that has an entry.  That is the cost
 * of any probe of this module (security_mmap_file already runs at every
 * mmap): by estimate some tens of nanoseconds on hardware, against the
 * microsecond or more of an open(2) and close(2).  Not measured: under
 * qemu TCG on a loaded host, 5 x 200000 open+close of /dev/null took
 * 47-77 us each without the module and 30-77 us with it, noise far
 * above the probe's share.  Without the probe, an entry would stay
 * until another file at the same address got an owner: never a wrong
 * label (see above), but a table that only grows.  A skipped free
 * (cleanup_misses) leaves such a stale entry, which the next
 * security_file_set_fowner() at that address replaces and unload frees.
 */

/* security_file_set_fowner(file): may not sleep (RCU, tty lock). */
static int sf_file_set_fowner(struct kprobe *kp, struct pt_regs *regs)
{
	struct file *file = (struct file *)ARG(0);

	if (sf_ltab_set(&sf_fowners, file, sf_task_label(current),
			GFP_ATOMIC)) {
		sf_ltab_del(&sf_fowners, file);
		atomic64_inc(&sf_count.nomem);
	}
	return 0;
}
NOKPROBE_SYMBOL(sf_file_set_fowner);

/*
 * security_file_send_sigiotask(tsk, fown, sig): the owner's label needs w
 * on the receiving task @tsk; @tsk's CAP_MAC_OVERRIDE overrides.  Any
 * context, under fown->lock: no sleeping, no allocation.
 */
static int sf_file_send_sigiotask(struct kprobe *kp, struct pt_regs *regs)
{
	struct task_struct *tsk = (struct task_struct *)ARG(0);
	struct fown_struct *fown = (struct fown_struct *)ARG(1);
	struct file *file = sf_fown_file(fown);	/* release-X.Y.h */
	struct sf_aobj obj = { .task = tsk };
	sf_lid owner = sf_ltab_get(&sf_fowners, file);
	sf_lid target = sf_task_label(tsk);
	int rc;

	rcu_read_lock();
	rc = sf_check(owner, target, SF_MAY_WRITE, __task_cred(tsk), target,
		      "smack_file_send_sigiotask", &obj);
	rcu_read_unlock();
	return sf_deny(regs, rc);
}
NOKPROBE_SYMBOL(sf_file_send_sigiotask);

/* security_file_free(file): every last fput; see the cost above. */
static int sf_file_free(struct kprobe *kp, struct pt_regs *regs)
{
	struct file *file = (struct file *)ARG(0);

	if (atomic_read(&sf_fowners.count) &&
	    sf_ltab_get(&sf_fowners, file) != SF_LID_FLOOR)
		sf_ltab_del(&sf_fowners, file);
	return 0;
}
NOKPROBE_SYMBOL(sf_file_free);

const struct sf_hook sf_file_hooks[] = {
	{ SF_PROBE(security_file_receive), sf_file_receive, false,
	  &sf_file_receive_body },
	{ SF_PROBE(security_mmap_file), sf_mmap_file, false, &sf_mmap_file_body },
	{ SF_PROBE(security_file_fcntl), sf_file_fcntl, false, &sf_file_fcntl_body },
	{ SF_PROBE(security_file_set_fowner), sf_file_set_fowner, false, NULL },
	{ SF_PROBE(security_file_send_sigiotask), sf_file_send_sigiotask, false,
	  NULL },
	{ SF_PROBE(security_file_free), sf_file_free, true, NULL },
	{ NULL, NULL, false, NULL }
};
