// SPDX-License-Identifier: GPL-2.0-only
/*
 * hooks_task.c - task labels across fork and exit, and the task checks:
 * signals, ptrace, and the scheduling and process-group calls.
 *
 * Also the checks of /proc/PID, whose inodes carry the task's label in
 * mainline.
 *
 * Every hook has the same shape: find the subject and object labels, ask
 * sf_check(), and hand the result to sf_deny().  Arguments are read from
 * the registers at the probed function's entry (regs_get_kernel_argument).
 * Access modes are those of mainline security/smack/smack_lsm.c.
 */
#include <linux/binfmts.h>
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/pid.h>
#include <linux/magic.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/task_work.h>
#include <linux/wait_bit.h>
#include <linux/xattr.h>
#include "smackfuse.h"

#define ARG(n)	regs_get_kernel_argument(regs, (n))

/*
 * security_task_alloc(task, clone_flags): runs in the parent, so the child
 * inherits current's label.  If the label cannot be recorded the fork
 * fails with ENOMEM rather than producing a child with the wrong label.
 */
static int sf_task_alloc(struct kprobe *kp, struct pt_regs *regs)
{
	return sf_deny(regs, sf_ltab_set_creator(&sf_tasks, (void *)ARG(0)));
}
NOKPROBE_SYMBOL(sf_task_alloc);

/*
 * do_exit(code): the task forgets its label as it exits, in its own
 * process context, where no other probe handler can be running on this
 * CPU.  security_task_free() (below) also forgets it, for tasks that never
 * ran (a failed fork); it runs from an RCU callback, in softirq, and can
 * therefore be skipped when the softirq interrupted a kprobe handler (our
 * hooks run with interrupts off, see probe.c, but kprobes' own code around
 * them does not).  A skipped free leaves a stale entry that the next task
 * at that address overwrites at fork.
 */
static int sf_task_exit(struct kprobe *kp, struct pt_regs *regs)
{
	sf_ltab_del(&sf_tasks, current);
	return 0;
}
NOKPROBE_SYMBOL(sf_task_exit);

static int sf_task_free(struct kprobe *kp, struct pt_regs *regs)
{
	sf_ltab_del(&sf_tasks, (struct task_struct *)ARG(0));
	return 0;
}
NOKPROBE_SYMBOL(sf_task_free);

/*
 * SMACK64EXEC: the label that a program's file carries in the extended
 * attribute security.SMACK64EXEC becomes the label of the task that
 * executes it, as in mainline.  Reading an attribute may sleep, which a
 * probe handler may not, so the handler (at security_bprm_committed_creds,
 * past the point of no return) queues sf_exec_label() to run on the
 * task's way back to user space, before the new program's first
 * instruction.  sf_exec_wait() (at unload, after the probes are gone)
 * waits until every queued one has run.  The program file is the one the
 * binary loader ran: for a #! script, its interpreter.
 */
struct sf_exec_work {
	struct callback_head cb;
	struct file *file;
};

static atomic_t sf_exec_pending = ATOMIC_INIT(0);

/*
 * Could the program's SMACK64EXEC not be read (@n: __vfs_getxattr's
 * answer)?  No attribute, or one too long for a label, is no exec label,
 * as mainline's smk_fetch() takes it.  Any other error (a FUSE daemon
 * that refuses or died, I/O) leaves the label the program should run
 * under unknown.
 */
static bool sf_exec_label_unknown(ssize_t n)
{
	return n < 0 && n != -ENODATA && n != -EOPNOTSUPP && n != -ERANGE;
}

static void sf_exec_label(struct callback_head *cb)
{
	struct sf_exec_work *w = container_of(cb, struct sf_exec_work, cb);
	struct sf_error err = { 0 };
	char buf[SF_LABEL_MAX + 1];
	sf_lid lid;
	size_t len;
	ssize_t n;

	n = __vfs_getxattr(file_dentry(w->file), file_inode(w->file),
			   XATTR_NAME_SMACKEXEC, buf, sizeof(buf));
	fput(w->file);
	kfree(w);
	if (sf_exec_label_unknown(n)) {
		/* never run the program under the wrong label */
		atomic64_inc(&sf_count.denials);
		force_sig(SIGKILL);
	} else if (n > 0 && (len = sf_label_prefix(buf, n)) &&
		   !sf_label_intern(sf_policy_labels(sf_policy), buf, len,
				    &lid, &err) &&
		   lid != SF_LID_STAR && lid != SF_LID_WEB &&
		   sf_ltab_set(&sf_tasks, current, lid, GFP_KERNEL)) {
		atomic64_inc(&sf_count.nomem);
		force_sig(SIGKILL);
	}
	if (atomic_dec_and_test(&sf_exec_pending))
		wake_up_var(&sf_exec_pending);
}

void sf_exec_wait(void)
{
	wait_var_event(&sf_exec_pending, !atomic_read(&sf_exec_pending));
}

static int sf_bprm_committed(struct kprobe *kp, struct pt_regs *regs)
{
	struct linux_binprm *bprm = (struct linux_binprm *)ARG(0);
	struct sf_exec_work *w = kmalloc(sizeof(*w), GFP_ATOMIC);

	if (!w) {
		/* the file's label cannot be applied: fail closed */
		atomic64_inc(&sf_count.nomem);
		force_sig(SIGKILL);
		return 0;
	}
	w->file = get_file(bprm->file);
	init_task_work(&w->cb, sf_exec_label);
	atomic_inc(&sf_exec_pending);
	if (task_work_add(current, &w->cb, TWA_RESUME)) {
		/* the task is exiting: it will run nothing */
		fput(w->file);
		kfree(w);
		if (atomic_dec_and_test(&sf_exec_pending))
			wake_up_var(&sf_exec_pending);
	}
	return 0;
}
NOKPROBE_SYMBOL(sf_bprm_committed);

static int sf_on_task(struct pt_regs *regs, u32 request, const char *fn)
{
	struct task_struct *p = (struct task_struct *)ARG(0);
	struct sf_aobj obj = { .task = p };

	return sf_deny(regs, sf_check_current(sf_task_label(p), request, fn,
					      &obj));
}
NOKPROBE_SYMBOL(sf_on_task);

/*
 * A signal sent with a cred: USB async I/O (kill_pid_usb_asyncio) signals
 * the task that submitted the URB, with the cred it had then.  Mainline
 * takes the sender's label from that cred, without privilege.  Labels are
 * per task here, so the sender's label is known only while @cred is still
 * the target's own: then sender and target are one task and one label.
 * Any other cred has a label we cannot know, and is denied.
 */
static int sf_cred_kill(struct task_struct *p, const struct cred *cred)
{
	struct sf_aobj obj = { .task = p };
	sf_lid target = sf_task_label(p), sender = SF_LID_INVALID;

	rcu_read_lock();
	if (rcu_dereference(p->real_cred) == cred)
		sender = target;
	rcu_read_unlock();
	return sf_check(sender, target, SF_MAY_WRITE, NULL, SF_LID_INVALID,
			"smack_task_kill", &obj);
}
NOKPROBE_SYMBOL(sf_cred_kill);

/*
 * security_task_kill(p, info, sig, cred): sending needs write.  Signal 0
 * only tests existence (mainline returns before looking).
 */
static int sf_task_kill(struct kprobe *kp, struct pt_regs *regs)
{
	const struct cred *cred = (const struct cred *)ARG(3);

	if (!(int)ARG(2))
		return 0;
	if (cred)
		return sf_deny(regs, sf_cred_kill((struct task_struct *)ARG(0),
						  cred));
	return sf_on_task(regs, SF_MAY_WRITE, "smack_task_kill");
}
NOKPROBE_SYMBOL(sf_task_kill);

/*
 * As mainline smk_ptrace_mode(): attach is read-write, read is read, and
 * a mode with neither asks for nothing, which is still a check.
 */
static u32 sf_ptrace_mode(unsigned int mode)
{
	if (mode & PTRACE_MODE_ATTACH)
		return SF_MAY_READWRITE;
	if (mode & PTRACE_MODE_READ)
		return SF_MAY_READ;
	return 0;
}

/*
 * sf_ptrace_rule_check - may @tracer trace, in @mode, a task labelled
 * @tracee?  As mainline smk_ptrace_rule_check(): with the ptrace file at
 * exact or draconian, an attach needs the same label (exact: or the
 * tracer's CAP_SYS_PTRACE, narrowed by onlycap; draconian: nothing else),
 * audited as a request of nothing; otherwise the rules decide, and
 * current's CAP_MAC_OVERRIDE overrides a denial (mainline smk_tskacc()).
 */
static int sf_ptrace_rule_check(struct task_struct *tracer, sf_lid tracee,
				unsigned int mode, const char *fn,
				const struct sf_aobj *obj)
{
	sf_lid label = sf_task_label(tracer), self = sf_task_label(current);
	int rule = READ_ONCE(sf_ptrace_rule);
	bool priv;
	int rc;

	if (current->flags & PF_KTHREAD)
		return 0;	/* as sf_check_current() */
	if (!(mode & PTRACE_MODE_ATTACH) || rule == SF_PTRACE_DEFAULT)
		return sf_check(label, tracee, sf_ptrace_mode(mode),
				current_cred(), self, fn, obj);
	if (label == tracee) {
		rc = 0;
	} else if (rule == SF_PTRACE_DRACONIAN) {
		rc = -EACCES;
	} else {
		rcu_read_lock();
		priv = sf_privileged(__task_cred(tracer), CAP_SYS_PTRACE,
				     label);
		rcu_read_unlock();
		rc = priv ? 0 : -EACCES;
	}
	return sf_report(label, tracee, 0, rc, fn, obj);
}
NOKPROBE_SYMBOL(sf_ptrace_rule_check);

/* security_ptrace_access_check(child, mode): current traces child. */
static int sf_ptrace_access_check(struct kprobe *kp, struct pt_regs *regs)
{
	struct task_struct *child = (struct task_struct *)ARG(0);
	unsigned int mode = (unsigned int)ARG(1);
	struct sf_aobj obj = {
		.task = child,
		.noaudit = mode & PTRACE_MODE_NOAUDIT,
	};

	return sf_deny(regs, sf_ptrace_rule_check(current,
						  sf_task_label(child), mode,
						  "smack_ptrace_access_check",
						  &obj));
}
NOKPROBE_SYMBOL(sf_ptrace_access_check);

/* security_ptrace_traceme(parent): the parent becomes the tracer. */
static int sf_ptrace_traceme(struct kprobe *kp, struct pt_regs *regs)
{
	struct task_struct *parent = (struct task_struct *)ARG(0);
	struct sf_aobj obj = { .task = parent };

	return sf_deny(regs, sf_ptrace_rule_check(parent,
						  sf_task_label(current),
						  PTRACE_MODE_ATTACH,
						  "smack_ptrace_traceme",
						  &obj));
}
NOKPROBE_SYMBOL(sf_ptrace_traceme);

#define SF_ON_TASK(name, request)					\
static int sf_##name(struct kprobe *kp, struct pt_regs *regs)		\
{									\
	return sf_on_task(regs, request, "smack_" #name);		\
}									\
NOKPROBE_SYMBOL(sf_##name)

SF_ON_TASK(task_setpgid, SF_MAY_WRITE);
SF_ON_TASK(task_getpgid, SF_MAY_READ);
SF_ON_TASK(task_getsid, SF_MAY_READ);
SF_ON_TASK(task_setnice, SF_MAY_WRITE);
SF_ON_TASK(task_setioprio, SF_MAY_WRITE);
SF_ON_TASK(task_getioprio, SF_MAY_READ);
SF_ON_TASK(task_setscheduler, SF_MAY_WRITE);
SF_ON_TASK(task_getscheduler, SF_MAY_READ);
SF_ON_TASK(task_movememory, SF_MAY_WRITE);

/*
 * /proc/PID.  Mainline gives every inode below /proc/PID the label of the
 * task (smack_task_to_inode) and checks it like any inode's:
 * smack_inode_permission asks the access of the mask (walking in x,
 * listing or opening to read r, opening to write w, O_APPEND a, access(2)
 * what it names), then smack_file_open r at an open, smack_inode_getattr
 * r and smack_inode_setattr w.  The module makes the same checks at the
 * same security_*() functions, on the procfs inodes of a task other than
 * the caller (a task's own are not checked, nor are kernel threads).
 *
 * The task is the one procfs finds: the struct pid that the inode keeps
 * in the procfs inode around it (struct sf_proc_inode, release.h).
 */

/* The struct pid of a procfs inode, NULL outside /proc/PID. */
static struct pid *sf_proc_pid(const struct inode *inode)
{
	if (inode->i_sb->s_magic != PROC_SUPER_MAGIC)
		return NULL;
	return READ_ONCE(container_of(inode, struct sf_proc_inode,
				      vfs_inode)->pid);
}
NOKPROBE_SYMBOL(sf_proc_pid);

/* The task a procfs inode below /proc/PID belongs to (RCU held, a
 * reference on @inode), or NULL. */
static struct task_struct *sf_proc_task(struct inode *inode)
{
	struct pid *pid = sf_proc_pid(inode);

	return pid ? pid_task(pid, PIDTYPE_PID) : NULL;
}
NOKPROBE_SYMBOL(sf_proc_task);

/*
 * current needs @request on the label of the task @inode belongs to, if
 * it is another task's procfs inode; privilege overrides as for the other
 * task checks.  None for a task that has gone (procfs answers ESRCH).
 */
static int sf_proc_check(struct inode *inode, u32 request, const char *fn)
{
	struct sf_aobj obj = { .task = NULL };
	struct task_struct *p;
	int rc = 0;

	if (current->flags & PF_KTHREAD)
		return 0;
	rcu_read_lock();
	p = sf_proc_task(inode);
	if (p && p != current) {
		obj.task = p;
		rc = sf_check_current(sf_task_label(p), request, fn, &obj);
	}
	rcu_read_unlock();
	return rc;
}
NOKPROBE_SYMBOL(sf_proc_check);

/*
 * security_inode_permission(inode, mask): runs for every component of
 * every path walked in the system, every open and every access(2), so it
 * returns at once unless @inode is a procfs inode of another task (or
 * a check the daemon of a smackfuse mount must see: hooks_fuse.c): for
 * any other filesystem one compare of the superblock's magic, for /proc
 * one more of the inode's struct pid (no other memory is read), and no
 * check for an existence test (no access asked, as mainline).  In an RCU
 * path walk (MAY_NOT_BLOCK) the inode is not pinned: it may be evicted
 * and its struct pid freed under us, so the walk is sent back to take
 * references first (-ECHILD, which mainline's smack_inode_permission
 * answers for every inode) and the check is made then.
 */
static int sf_inode_permission(struct kprobe *kp, struct pt_regs *regs)
{
	struct inode *inode = (struct inode *)ARG(0);
	int mask = (int)ARG(1);
	struct pid *pid;
	u32 request;

	if (sf_fuse_perm_sent(inode, mask)) {		/* hooks_fuse.c */
		if (mask & MAY_NOT_BLOCK)
			return sf_deny(regs, -ECHILD);
		return sf_divert(regs, (unsigned long)sf_fuse_perm_divert);
	}
	pid = sf_proc_pid(inode);
	if (!pid || pid == task_pid(current))
		return 0;
	request = sf_inode_request(mask);
	if (!request || (current->flags & PF_KTHREAD))
		return 0;
	if (mask & MAY_NOT_BLOCK)
		return sf_deny(regs, -ECHILD);
	return sf_deny(regs, sf_proc_check(inode, request,
					   "smack_inode_permission"));
}
NOKPROBE_SYMBOL(sf_inode_permission);

/*
 * security_file_open(file): a file below /proc/PID opened (one probe
 * serves hooks_mqueue.c too: a POSIX message queue is handed there).
 * The open's own access was asked at security_inode_permission (may_open);
 * smack_file_open asks r on its own, so that the hat's implicit read, or
 * a floor task's, covers it.  O_PATH opens come to neither (nor, in
 * mainline, to either check).
 */
static int sf_proc_file_open(struct kprobe *kp, struct pt_regs *regs)
{
	struct file *file = (struct file *)ARG(0);
	u32 request = 0;

	if (current->flags & PF_KTHREAD)
		return 0;
	if (sf_mqueue_inode(file_inode(file))) {	/* hooks_mqueue.c */
		if (file->f_mode & FMODE_READ)
			request |= SF_MAY_READ;
		if (file->f_mode & FMODE_WRITE)
			request |= SF_MAY_WRITE;
		return sf_deny(regs, sf_mqueue_open_check(file, request));
	}
	return sf_deny(regs, sf_proc_check(file_inode(file), SF_MAY_READ,
					   "smack_file_open"));
}
NOKPROBE_SYMBOL(sf_proc_file_open);

/*
 * security_inode_getattr(path) and security_inode_setattr(idmap, dentry,
 * attr) on an inode below /proc/PID or of /proc/PID itself (and stat's
 * read, or a change's write, on a smackfuse mount that the daemon must
 * decide: hooks_fuse.c):
 * mainline's smack_inode_getattr asks r of the inode's label, the task's
 * (stat(2), statx(2), fstat(2) of an open file), and smack_inode_setattr
 * w (utimes(2); ATTR_FORCE, the kernel dropping a setuid bit, is not
 * checked).  Walking in (security_inode_permission above) needs only x,
 * and stat of /proc/PID walks nowhere, so neither covers these.
 */
static int sf_proc_getattr(struct kprobe *kp, struct pt_regs *regs)
{
	const struct path *path = (const struct path *)ARG(0);

	if (sf_fuse_getattr_sent(d_backing_inode(path->dentry)))
		return sf_divert(regs, (unsigned long)sf_fuse_getattr_divert);
	return sf_deny(regs, sf_proc_check(d_backing_inode(path->dentry),
					   SF_MAY_READ, "smack_inode_getattr"));
}
NOKPROBE_SYMBOL(sf_proc_getattr);

static int sf_proc_setattr(struct kprobe *kp, struct pt_regs *regs)
{
	struct dentry *dentry = (struct dentry *)ARG(1);
	struct iattr *attr = (struct iattr *)ARG(2);

	if (attr->ia_valid & ATTR_FORCE)
		return 0;
	if (sf_fuse_setattr_sent(d_backing_inode(dentry)))
		return sf_divert(regs, (unsigned long)sf_fuse_setattr_divert);
	return sf_deny(regs, sf_proc_check(d_backing_inode(dentry),
					   SF_MAY_WRITE, "smack_inode_setattr"));
}
NOKPROBE_SYMBOL(sf_proc_setattr);

#define SF_HOOK(name)	{ SF_PROBE(security_##name), sf_##name, false }

const struct sf_hook sf_task_hooks[] = {
	SF_HOOK(task_alloc),
	{ SF_PROBE(do_exit), sf_task_exit, false },
	{ SF_PROBE(security_task_free), sf_task_free, true },
	{ SF_PROBE(security_bprm_committed_creds), sf_bprm_committed, false },
	SF_HOOK(task_kill),
	SF_HOOK(ptrace_access_check),
	SF_HOOK(ptrace_traceme),
	SF_HOOK(task_setpgid),
	SF_HOOK(task_getpgid),
	SF_HOOK(task_getsid),
	SF_HOOK(task_setnice),
	SF_HOOK(task_setioprio),
	SF_HOOK(task_getioprio),
	SF_HOOK(task_setscheduler),
	SF_HOOK(task_getscheduler),
	SF_HOOK(task_movememory),
	{ SF_PROBE(security_inode_permission), sf_inode_permission, false,
	  &sf_inode_permission_body },
	{ SF_PROBE(security_file_open), sf_proc_file_open, false },
	{ SF_PROBE(security_inode_getattr), sf_proc_getattr, false,
	  &sf_inode_getattr_body },
	{ SF_PROBE(security_inode_setattr), sf_proc_setattr, false,
	  &sf_inode_setattr_body },
	{ NULL, NULL, false }
};
