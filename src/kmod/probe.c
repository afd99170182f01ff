// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe.c - fail-closed enforcement with entry kprobes.
 *
 * A module cannot register LSM hooks, so each check is a kprobe at the
 * entry of a security_*() function.  To deny, the pre_handler sets the
 * return value and points the saved instruction pointer at a return
 * (SF_RETURN_ADDR): the probed function never runs and its caller sees
 * the error.  This is what the kernel's own error injection does
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
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <linux/ptrace.h>
#include <linux/slab.h>
#include <asm/nospec-branch.h>
#include "smackfuse.h"

/*
 * Where a denied call "returns" from.  It must be kernel text, not ours: a
 * task may be preempted after the ftrace trampoline has sent it there and
 * before the return executes, and our text is freed at unload.  With
 * CONFIG_RETHUNK every kernel return is a jump to __x86_return_thunk, so
 * jumping there with the caller's return address on top of the stack is a
 * plain return.  Without it, a bare "ret" of our own (then the module must
 * not be unloaded while a denied task could be preempted on it; see
 * smackfuse-kmod(7)).
 */
#ifdef CONFIG_RETHUNK
#define SF_RETURN_ADDR	((unsigned long)__x86_return_thunk)
#else
asmlinkage void sf_return_stub(void);
asm(".pushsection .text\n"
    ".type sf_return_stub, @function\n"
    "sf_return_stub:\n"
    ANNOTATE_NOENDBR
    "ret\n"
    ".size sf_return_stub, .-sf_return_stub\n"
    ".popsection\n");
#define SF_RETURN_ADDR	((unsigned long)sf_return_stub)
#endif

int sf_deny(struct pt_regs *regs, int rc)
{
	if (!rc)
		return 0;
	regs_set_return_value(regs, rc);
	instruction_pointer_set(regs, SF_RETURN_ADDR);
	return 1;	/* the instruction pointer was changed */
}
NOKPROBE_SYMBOL(sf_deny);

static const struct sf_hook *const sf_tables[] = {
	sf_task_hooks, sf_ipc_hooks, sf_net_hooks, sf_net4_hooks,
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

static struct kprobe *sf_kps;
static bool *sf_cleanup;		/* per probe: sf_hook.cleanup */
static struct kprobe **sf_kpp;	/* for the batched unregister_kprobes() */
static unsigned int sf_nkps;

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
static int sf_probe_one(const char *symbol, kprobe_pre_handler_t pre,
			bool cleanup)
{
	struct kprobe *kp = &sf_kps[sf_nkps];
	int rc;

	kp->symbol_name = symbol;
	kp->pre_handler = pre;
	sf_cleanup[sf_nkps] = cleanup;
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
	return 0;
}

int sf_probes_register(void)
{
	const struct sf_hook *h;
	unsigned int i, n = sf_hooks_total();
	int rc;

	sf_kps = kcalloc(n, sizeof(*sf_kps), GFP_KERNEL);
	sf_kpp = kcalloc(n, sizeof(*sf_kpp), GFP_KERNEL);
	sf_cleanup = kcalloc(n, sizeof(*sf_cleanup), GFP_KERNEL);
	if (!sf_kps || !sf_kpp || !sf_cleanup) {
		rc = -ENOMEM;
		goto out_unregister;
	}
	sf_nkps = 0;
	for (i = 0; i < ARRAY_SIZE(sf_tables); i++) {
		for (h = sf_tables[i]; h->symbol; h++) {
			rc = sf_probe_one(h->symbol, h->pre, h->cleanup);
			if (rc)
				goto out_unregister;
		}
	}
	if (sf_extra_probe) {
		rc = sf_probe_one(sf_extra_probe, sf_allow, true);
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
	if (sf_nkps)
		unregister_kprobes(sf_kpp, sf_nkps);
	sf_nkps = 0;
	kfree(sf_kpp);
	kfree(sf_kps);
	kfree(sf_cleanup);
	sf_cleanup = NULL;
	sf_kpp = NULL;
	sf_kps = NULL;
}

unsigned long sf_probes_missed(bool cleanup)
{
	unsigned long n = 0;
	unsigned int i;

	for (i = 0; i < sf_nkps; i++)
		if (sf_cleanup[i] == cleanup)
			n += READ_ONCE(sf_kps[i].nmissed);
	return n;
}

size_t sf_probes_missed_detail(char *buf, size_t size)
{
	size_t len = 0;
	unsigned int i;

	for (i = 0; i < sf_nkps; i++) {
		unsigned long n = READ_ONCE(sf_kps[i].nmissed);

		if (n)
			len += scnprintf(buf + len, size - len,
					 "missed %s %lu\n",
					 sf_kps[i].symbol_name, n);
	}
	return len;
}

unsigned int sf_probes_count(void)
{
	return sf_nkps;
}
