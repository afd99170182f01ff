// SPDX-License-Identifier: GPL-2.0-only
/*
 * check.c - the decision every hook shares: labels in, 0 or -EACCES out,
 * with counters, privilege (CAP_MAC_OVERRIDE narrowed by onlycap) and the
 * audit line, as mainline smk_tskacc() and smack_log() do it.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/ratelimit.h>
#include <linux/sched.h>
#include <linux/user_namespace.h>
#include "smackfuse.h"

/* Kernel Smack logs through audit; we have printk, so keep it bounded. */
static DEFINE_RATELIMIT_STATE(sf_audit_rs, 5 * HZ, 20);

/**
 * sf_privileged - does @cred hold @cap, and may @label use privilege?
 * @cred: the credentials
 * @cap: CAP_MAC_OVERRIDE or CAP_MAC_ADMIN
 * @label: the label of the task holding @cred (for onlycap)
 *
 * The capability is read from the effective set in the initial user
 * namespace, without asking the other LSMs (security_capable() may sleep
 * or audit, and this runs inside probe handlers).
 */
bool sf_privileged(const struct cred *cred, int cap, sf_lid label)
{
	bool ok;

	if (cred->user_ns != &init_user_ns ||
	    !cap_raised(cred->cap_effective, cap))
		return false;
	rcu_read_lock();
	ok = sf_onlycap_allows(sf_policy_snapshot(sf_policy), label);
	rcu_read_unlock();
	return ok;
}

static void sf_audit(sf_lid subject, sf_lid object, u32 request, int rc,
		     const char *fn, const struct sf_aobj *obj)
{
	const struct sf_labels *labels = sf_policy_labels(sf_policy);
	char desc[64] = "";
	char line[640];
	struct sf_audit a = {
		.fn = fn,
		.denied = rc != 0,
		.subject = sf_label_name(labels, subject),
		.object = sf_label_name(labels, object),
		.request = request,
		.pid = task_pid_nr(current),
		.comm = current->comm,
		.objdesc = desc,
	};

	if (obj && obj->task)
		snprintf(desc, sizeof(desc), "opid=%d ocomm=\"%s\"",
			 obj->task->pid, obj->task->comm);
	else if (obj && obj->has_ipc)
		snprintf(desc, sizeof(desc), "ipc_id=%d", obj->ipc_id);
	sf_audit_format(&a, line, sizeof(line));
	pr_notice("smackfuse: %s\n", line);
}

int sf_report(sf_lid subject, sf_lid object, u32 request, int rc,
	      const char *fn, const struct sf_aobj *obj)
{
	int log = READ_ONCE(sf_log_policy);

	atomic64_inc(&sf_count.checks);
	if (rc)
		atomic64_inc(&sf_count.denials);
	if (obj && obj->noaudit)
		return rc;
	if ((rc && (log & SF_LOG_DENIED)) || (!rc && (log & SF_LOG_ACCEPTED)))
		if (__ratelimit(&sf_audit_rs))
			sf_audit(subject, object, request, rc, fn, obj);
	return rc;
}

int sf_check(sf_lid subject, sf_lid object, u32 request,
	     const struct cred *priv, sf_lid privlabel, const char *fn,
	     const struct sf_aobj *obj)
{
	int rc;

	/*
	 * No shortcut for an empty @request: mainline smk_access() grants it
	 * only through one of its steps (same label, floor or star object,
	 * hat or web, a rule with any access), so msgget(key, 0) from an
	 * unrelated label is denied.  Hooks that mainline lets through
	 * without asking (signal 0, the IPC INFO commands) return before
	 * calling us.
	 */
	rcu_read_lock();
	rc = sf_access(sf_policy_snapshot(sf_policy), subject, object,
		       request, NULL);
	rcu_read_unlock();
	if (rc && priv && sf_privileged(priv, CAP_MAC_OVERRIDE, privlabel))
		rc = 0;
	return sf_report(subject, object, request, rc, fn, obj);
}

/* The SF_MAY_* bits of a MAY_* mask, as mainline smk_curacc() gets it
 * from smack_inode_permission(). */
u32 sf_inode_request(int mask)
{
	return (mask & MAY_READ ? SF_MAY_READ : 0) |
	       (mask & MAY_WRITE ? SF_MAY_WRITE : 0) |
	       (mask & MAY_EXEC ? SF_MAY_EXEC : 0) |
	       (mask & MAY_APPEND ? SF_MAY_APPEND : 0);
}
NOKPROBE_SYMBOL(sf_inode_request);

int sf_check_current(sf_lid object, u32 request, const char *fn,
		     const struct sf_aobj *obj)
{
	sf_lid self;

	if (current->flags & PF_KTHREAD)
		return 0;	/* as mainline: kernel threads are privileged */
	self = sf_task_label(current);
	return sf_check(self, object, request, current_cred(), self, fn, obj);
}
