// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe.c - fail-closed enforcement with entry kprobes.
 *
 * A module cannot register LSM hooks, so each check is a kprobe at the
 * entry of a security_*() function.  To deny, the pre_handler sets the
 * return value and points the saved instruction pointer at a return
 * (sf_deny(), deny.c): the probed function never runs and its caller
 * sees the error.  This is what the kernel's own error injection does
 * (override_function_with_return), but that needs
 * CONFIG_FUNCTION_ERROR_INJECTION, which Debian's kernel lacks.
 *
 * The override is only sound at the very first instruction, with the
 * stack as the caller left it, and only when the probe is ftrace-based
 * (an optimised, jump-based kprobe ignores a changed instruction pointer).
 * sf_probes_register() checks both and refuses to load otherwise.
 *
 * Why this fails closed: the decision happens before the function body;
 * if the handler is skipped, kprobes counts it in nmissed, which the
 * status file reports as "misses".  A kprobe is skipped only when another
 * kprobe handler is already running on the same CPU; the checked hooks run
 * in process context and our handlers call none of them, so that cannot
 * happen for them (the stress test measures it).  See smackfuse-kmod(7).
 *
 * Every handler runs through sf_pre(), which always takes over the
 * instruction pointer (returns 1): either the denial's return, or the
 * instruction after the 5-byte ftrace call site.  Returning 0 would be
 * equivalent when the handler is entered from the ftrace trampoline, but
 * not when it is entered from an int3 at the call site.  ftrace patches
 * the call site with text_poke_bp(), which puts an int3 there for a
 * moment; normally poke_int3_handler() claims that trap.  An int3 that it
 * does not claim goes to kprobe_int3_handler(), which finds our probe at
 * that address and, when the handler returns 0, "single-steps" the
 * probe's instruction slot, which an ftrace-based kprobe does not have
 * (ainsn.insn is NULL): the task jumps to address 0 with interrupts off.
 * That is the oops seen under qemu (TCG), which can keep executing a
 * translation of the transient int3 after the patch completed (the bytes
 * in memory are the new call).  Resuming after the call site ourselves is
 * correct on both paths: on the ftrace path it is the address the
 * trampoline returns to anyway.
 */
#include <linux/ftrace.h>
#include <linux/hardirq.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/slab.h>
#include "smackfuse.h"

static const struct sf_hook *const sf_tables[] = {
	sf_task_hooks, sf_ipc_hooks, sf_net_hooks, sf_net4_hooks,
	sf_peersec_hooks, sf_file_hooks, sf_mqueue_hooks, sf_key_hooks,
	sf_fuse_hooks,
};

/*
 * For the tests: one more symbol to probe, with a handler that allows, so
 * that a probe which cannot be registered can be shown to stop the load.
 */
static char *sf_extra_probe;
module_param_named(extra_probe, sf_extra_probe, charp, 0);
MODULE_PARM_DESC(extra_probe,
		 "test only: also probe this symbol; the load fails if it cannot be");

static int sf_allow(struct kprobe *kp, struct pt_regs *regs)
{
	return 0;
}
NOKPROBE_SYMBOL(sf_allow);

/* One probe: the kprobe, and the hook's handler that sf_pre() calls. */
struct sf_probe {
	struct kprobe kp;
	kprobe_pre_handler_t check;	/* returns sf_deny(regs, rc) */
	bool cleanup;			/* sf_hook.cleanup */
};

static struct sf_probe *sf_kps;
static struct kprobe **sf_kpp;	/* for the batched unregister_kprobes() */
static unsigned int sf_nkps;
static atomic64_t sf_traps;	/* handlers entered from an int3 */

/*
 * sf_pre - the pre_handler of every probe (see the top of this file).
 *
 * Interrupts are off while the hook decides, so that no softirq (RCU
 * callbacks free tasks, IPC objects and sockets through probed functions)
 * can run on top of it: a nested probe hit would be a miss, and on the
 * int3 path a re-entered kprobe is single-stepped like above.  (kprobes
 * marks the probe running a few instructions before calling us.)
 */
static int sf_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct sf_probe *sp = container_of(kp, struct sf_probe, kp);
	unsigned long flags;
	int denied;

	if (in_nmi())	/* the int3 path runs as an NMI */
		atomic64_inc(&sf_traps);
	local_irq_save(flags);
	denied = sp->check(kp, regs);
	local_irq_restore(flags);
	if (!denied)
		instruction_pointer_set(regs, (unsigned long)kp->addr +
					      MCOUNT_INSN_SIZE);
	return 1;
}
NOKPROBE_SYMBOL(sf_pre);

static unsigned int sf_hooks_total(void)
{
	unsigned int i, n = sf_extra_probe ? 1 : 0;
	const struct sf_hook *h;

	for (i = 0; i < ARRAY_SIZE(sf_tables); i++)
		for (h = sf_tables[i]; h->symbol; h++)
			n++;
	return n;
}

/**
 * sf_probes_register - put a kprobe on every hook, or on none
 *
 * Returns 0, or a negative errno after logging which probe failed and why.
 */
static int sf_probe_one(const char *symbol, kprobe_pre_handler_t check,
			bool cleanup, unsigned long *body)
{
	struct sf_probe *sp = &sf_kps[sf_nkps];
	struct kprobe *kp = &sp->kp;
	int rc;

	kp->symbol_name = symbol;
	kp->pre_handler = sf_pre;
	/*
	 * Registered disarmed, armed once checked: a diverting handler
	 * needs @body before it can first run (a call may come at once).
	 */
	kp->flags = KPROBE_FLAG_DISABLED;
	sp->check = check;
	sp->cleanup = cleanup;
	rc = register_kprobe(kp);
	if (rc) {
		pr_err("smackfuse: cannot probe %s: error %d\n", symbol, rc);
		return rc;
	}
	sf_kpp[sf_nkps++] = kp;
	if (kp->offset || !kprobe_ftrace(kp)) {
		pr_err("smackfuse: cannot probe %s: not an ftrace probe at the function entry, a denial could not be enforced\n",
		       symbol);
		return -EOPNOTSUPP;
	}
	if (body)	/* the call site is the 5-byte call to the trampoline */
		*body = (unsigned long)kp->addr + MCOUNT_INSN_SIZE;
	rc = enable_kprobe(kp);
	if (rc)
		pr_err("smackfuse: cannot arm the probe on %s: error %d\n",
		       symbol, rc);
	return rc;
}

int sf_probes_register(void)
{
	const struct sf_hook *h;
	unsigned int i, n = sf_hooks_total();
	int rc;

	sf_kps = kcalloc(n, sizeof(*sf_kps), GFP_KERNEL);
	sf_kpp = kcalloc(n, sizeof(*sf_kpp), GFP_KERNEL);
	if (!sf_kps || !sf_kpp) {
		rc = -ENOMEM;
		goto out_unregister;
	}
	sf_nkps = 0;
	atomic64_set(&sf_traps, 0);
	for (i = 0; i < ARRAY_SIZE(sf_tables); i++) {
		for (h = sf_tables[i]; h->symbol; h++) {
			rc = sf_probe_one(h->symbol, h->pre, h->cleanup,
					  h->body);
			if (rc)
				goto out_unregister;
		}
	}
	if (sf_extra_probe) {
		rc = sf_probe_one(sf_extra_probe, sf_allow, true, NULL);
		if (rc)
			goto out_unregister;
	}
	return 0;

out_unregister:
	sf_probes_unregister();
	return rc;
}

void sf_probes_unregister(void)
{
	if (sf_nkps) {
		unregister_kprobes(sf_kpp, sf_nkps);
		sf_divert_wait();
	}
	sf_nkps = 0;
	kfree(sf_kpp);
	kfree(sf_kps);
	sf_kpp = NULL;
	sf_kps = NULL;
}

unsigned long sf_probes_missed(bool cleanup)
{
	unsigned long n = 0;
	unsigned int i;

	for (i = 0; i < sf_nkps; i++)
		if (sf_kps[i].cleanup == cleanup)
			n += READ_ONCE(sf_kps[i].kp.nmissed);
	return n;
}

size_t sf_probes_missed_detail(char *buf, size_t size)
{
	size_t len = 0;
	unsigned int i;

	for (i = 0; i < sf_nkps; i++) {
		unsigned long n = READ_ONCE(sf_kps[i].kp.nmissed);

		if (n)
			len += scnprintf(buf + len, size - len,
					 "missed %s %lu\n",
					 sf_kps[i].kp.symbol_name, n);
	}
	return len;
}

unsigned int sf_probes_count(void)
{
	return sf_nkps;
}

unsigned long sf_probes_traps(void)
{
	return atomic64_read(&sf_traps);
}
