// SPDX-License-Identifier: GPL-2.0-only
/*
 * hooks_ipc.c - System V message queues, semaphores and shared memory.
 *
 * Each object takes its creator's label when it is allocated; objects made
 * before the module loaded are floor "_".  The modes are mainline Smack's:
 * ipc_permission maps the ugo permission bits asked for to r/w/x, stat is
 * read, set/rmid/lock is read-write, semop and msgrcv are read-write, and
 * associate/msgsnd/shmat map their flag bits like ipc_permission.  A
 * request of 0 (msgget(key, 0)) is still a check: mainline denies it to a
 * label with no rule to the object's.
 */
#include <linux/ipc.h>
#include <linux/msg.h>
#include <linux/sem.h>
#include <linux/shm.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/stat.h>
#include <uapi/linux/msg.h>
#include <uapi/linux/sem.h>
#include <uapi/linux/shm.h>
#include "smackfuse.h"

#define ARG(n)	regs_get_kernel_argument(regs, (n))

/* As mainline smack_flags_to_may(). */
static u32 sf_flags_to_may(long flags)
{
	u32 may = 0;

	if (flags & S_IRUGO)
		may |= SF_MAY_READ;
	if (flags & S_IWUGO)
		may |= SF_MAY_WRITE;
	if (flags & S_IXUGO)
		may |= SF_MAY_EXEC;
	return may;
}

static int sf_ipc_check(struct pt_regs *regs, u32 request, const char *fn)
{
	struct kern_ipc_perm *isp = (struct kern_ipc_perm *)ARG(0);
	struct sf_aobj obj = { .ipc_id = isp->id, .has_ipc = true };

	return sf_deny(regs, sf_check_current(sf_ltab_get(&sf_ipcs, isp),
					      request, fn, &obj));
}
NOKPROBE_SYMBOL(sf_ipc_check);

/* security_{msg_queue,shm,sem}_alloc(perm): label := creator's label. */
static int sf_ipc_alloc(struct kprobe *kp, struct pt_regs *regs)
{
	return sf_deny(regs, sf_ltab_set_creator(&sf_ipcs, (void *)ARG(0)));
}
NOKPROBE_SYMBOL(sf_ipc_alloc);

/*
 * ipc_rmid(ids, ipcp): the object leaves its namespace (IPC_RMID, or the
 * namespace goes away), in process context; its label goes too.  The
 * security_*_free() probes catch objects that never got an id; they run
 * from RCU callbacks and may be skipped (a stale entry, overwritten when
 * an object is next created at that address).
 */
static int sf_ipc_rmid(struct kprobe *kp, struct pt_regs *regs)
{
	sf_ltab_del(&sf_ipcs, (void *)ARG(1));
	return 0;
}
NOKPROBE_SYMBOL(sf_ipc_rmid);

static int sf_ipc_free(struct kprobe *kp, struct pt_regs *regs)
{
	sf_ltab_del(&sf_ipcs, (void *)ARG(0));
	return 0;
}
NOKPROBE_SYMBOL(sf_ipc_free);

/* security_ipc_permission(ipcp, flag) */
static int sf_ipc_permission(struct kprobe *kp, struct pt_regs *regs)
{
	return sf_ipc_check(regs, sf_flags_to_may((short)ARG(1)),
			    "smack_ipc_permission");
}
NOKPROBE_SYMBOL(sf_ipc_permission);

/* security_*_associate(perm, flg), msgsnd(perm, msg, flg), shmat(perm,
 * addr, flg): the flag's permission bits, as mainline. */
static int sf_msg_queue_associate(struct kprobe *kp, struct pt_regs *regs)
{
	return sf_ipc_check(regs, sf_flags_to_may((int)ARG(1)),
			    "smack_msg_queue_associate");
}
NOKPROBE_SYMBOL(sf_msg_queue_associate);

static int sf_msg_queue_msgsnd(struct kprobe *kp, struct pt_regs *regs)
{
	return sf_ipc_check(regs, sf_flags_to_may((int)ARG(2)),
			    "smack_msg_queue_msgsnd");
}
NOKPROBE_SYMBOL(sf_msg_queue_msgsnd);

static int sf_shm_associate(struct kprobe *kp, struct pt_regs *regs)
{
	return sf_ipc_check(regs, sf_flags_to_may((int)ARG(1)),
			    "smack_shm_associate");
}
NOKPROBE_SYMBOL(sf_shm_associate);

static int sf_shm_shmat(struct kprobe *kp, struct pt_regs *regs)
{
	return sf_ipc_check(regs, sf_flags_to_may((int)ARG(2)),
			    "smack_shm_shmat");
}
NOKPROBE_SYMBOL(sf_shm_shmat);

static int sf_sem_associate(struct kprobe *kp, struct pt_regs *regs)
{
	return sf_ipc_check(regs, sf_flags_to_may((int)ARG(1)),
			    "smack_sem_associate");
}
NOKPROBE_SYMBOL(sf_sem_associate);

/* security_sem_semop(perm, sops, nsops, alter): read-write. */
static int sf_sem_semop(struct kprobe *kp, struct pt_regs *regs)
{
	return sf_ipc_check(regs, SF_MAY_READWRITE, "smack_sem_semop");
}
NOKPROBE_SYMBOL(sf_sem_semop);

/*
 * security_msg_queue_msgrcv(perm, msg, target, type, mode): the receiving
 * task (not always current: a sender hands messages to waiting receivers)
 * needs read-write; current's privilege may override, as in mainline.
 */
static int sf_msg_queue_msgrcv(struct kprobe *kp, struct pt_regs *regs)
{
	struct kern_ipc_perm *isp = (struct kern_ipc_perm *)ARG(0);
	struct task_struct *target = (struct task_struct *)ARG(2);
	struct sf_aobj obj = { .ipc_id = isp->id, .has_ipc = true };

	if (current->flags & PF_KTHREAD)
		return 0;
	return sf_deny(regs, sf_check(sf_task_label(target),
				      sf_ltab_get(&sf_ipcs, isp),
				      SF_MAY_READWRITE, current_cred(),
				      sf_task_label(current),
				      "smack_msg_queue_msgrcv", &obj));
}
NOKPROBE_SYMBOL(sf_msg_queue_msgrcv);

/*
 * The ctl calls: stat reads, set/rmid/lock write.  The INFO commands are
 * about no one object (the kernel passes a NULL perm) and mainline allows
 * them before looking; any other command mainline refuses with EINVAL.
 * The command numbers overlap between the three kinds, hence one
 * function each, returning the access wanted, 0 for INFO, or -EINVAL.
 */
static int sf_msgctl_may(int cmd)
{
	switch (cmd) {
	case IPC_STAT:
	case MSG_STAT:
	case MSG_STAT_ANY:
		return SF_MAY_READ;
	case IPC_SET:
	case IPC_RMID:
		return SF_MAY_READWRITE;
	case IPC_INFO:
	case MSG_INFO:
		return 0;
	}
	return -EINVAL;
}

static int sf_shmctl_may(int cmd)
{
	switch (cmd) {
	case IPC_STAT:
	case SHM_STAT:
	case SHM_STAT_ANY:
		return SF_MAY_READ;
	case IPC_SET:
	case SHM_LOCK:
	case SHM_UNLOCK:
	case IPC_RMID:
		return SF_MAY_READWRITE;
	case IPC_INFO:
	case SHM_INFO:
		return 0;
	}
	return -EINVAL;
}

static int sf_semctl_may(int cmd)
{
	switch (cmd) {
	case GETPID:
	case GETNCNT:
	case GETZCNT:
	case GETVAL:
	case GETALL:
	case IPC_STAT:
	case SEM_STAT:
	case SEM_STAT_ANY:
		return SF_MAY_READ;
	case SETVAL:
	case SETALL:
	case IPC_RMID:
	case IPC_SET:
		return SF_MAY_READWRITE;
	case IPC_INFO:
	case SEM_INFO:
		return 0;
	}
	return -EINVAL;
}

/* @may from sf_*ctl_may(); the perm is only read when there is one. */
static int sf_ipc_ctl(struct pt_regs *regs, int may, const char *fn)
{
	if (may < 0)
		return sf_deny(regs, may);
	if (!may)
		return 0;
	return sf_ipc_check(regs, may, fn);
}
NOKPROBE_SYMBOL(sf_ipc_ctl);

static int sf_msg_queue_msgctl(struct kprobe *kp, struct pt_regs *regs)
{
	return sf_ipc_ctl(regs, sf_msgctl_may((int)ARG(1)),
			  "smack_msg_queue_msgctl");
}
NOKPROBE_SYMBOL(sf_msg_queue_msgctl);

static int sf_shm_shmctl(struct kprobe *kp, struct pt_regs *regs)
{
	return sf_ipc_ctl(regs, sf_shmctl_may((int)ARG(1)),
			  "smack_shm_shmctl");
}
NOKPROBE_SYMBOL(sf_shm_shmctl);

static int sf_sem_semctl(struct kprobe *kp, struct pt_regs *regs)
{
	return sf_ipc_ctl(regs, sf_semctl_may((int)ARG(1)),
			  "smack_sem_semctl");
}
NOKPROBE_SYMBOL(sf_sem_semctl);

#define SF_HOOK(sym, fn)	{ SF_PROBE(security_##sym), fn, false }
#define SF_FREE(sym, fn)	{ SF_PROBE(security_##sym), fn, true }

const struct sf_hook sf_ipc_hooks[] = {
	SF_HOOK(msg_queue_alloc, sf_ipc_alloc),
	SF_HOOK(shm_alloc, sf_ipc_alloc),
	SF_HOOK(sem_alloc, sf_ipc_alloc),
	{ SF_PROBE(ipc_rmid), sf_ipc_rmid, false },
	SF_FREE(msg_queue_free, sf_ipc_free),
	SF_FREE(shm_free, sf_ipc_free),
	SF_FREE(sem_free, sf_ipc_free),
	SF_HOOK(ipc_permission, sf_ipc_permission),
	SF_HOOK(msg_queue_associate, sf_msg_queue_associate),
	SF_HOOK(msg_queue_msgctl, sf_msg_queue_msgctl),
	SF_HOOK(msg_queue_msgsnd, sf_msg_queue_msgsnd),
	SF_HOOK(msg_queue_msgrcv, sf_msg_queue_msgrcv),
	SF_HOOK(shm_associate, sf_shm_associate),
	SF_HOOK(shm_shmctl, sf_shm_shmctl),
	SF_HOOK(shm_shmat, sf_shm_shmat),
	SF_HOOK(sem_associate, sf_sem_associate),
	SF_HOOK(sem_semctl, sf_sem_semctl),
	SF_HOOK(sem_semop, sf_sem_semop),
	{ NULL, NULL, false }
};
