// SPDX-License-Identifier: GPL-2.0-only
/*
 * deny.c - how a hook's handler makes its decision take effect: a denied
 * call returns its error at once (sf_deny()), a check that the module
 * leaves out returns 0 at once (sf_skip()), or the call is sent to a
 * function of the module that may sleep (sf_divert()).
 *
 * These sit below the hooks, apart from the registration (probe.c): every
 * hooks_*.c file and net4.c call them, and they call nothing of the
 * module, so the hooks never reach up into probe.c, which reads every
 * hook table.  probe.c's top comment says why overriding the instruction
 * pointer at the probed function's entry is sound and fails closed.
 */
#include <linux/atomic.h>
#include <linux/kprobes.h>
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <linux/ptrace.h>
#include <linux/rcupdate_wait.h>
#include <linux/wait_bit.h>
#include "smackfuse.h"

/*
 * Where a denied call "returns" from: a return of our own, written as
 * every function of this kernel returns (ASM_RET).  With the return-thunk
 * mitigations that is a jump to __x86_return_thunk, which objtool lists
 * and the kernel patches at module load to the return this CPU needs, as
 * for every other return of the module.  Jumping to __x86_return_thunk
 * itself is no return on 6.12 and 7.3: built with those mitigations, its
 * unpatched body warns ("Unpatched return thunk in use") before it
 * returns.  A task may be preempted after the trampoline has sent it here
 * and before the return runs, so unload waits for an RCU Tasks grace
 * period (sf_divert_wait()), as for the diverted calls.
 */
asmlinkage void sf_return_stub(void);
asm(".pushsection .text\n"
    ".type sf_return_stub, @function\n"
    "sf_return_stub:\n\t"
    ANNOTATE_NOENDBR "\n\t"
    ASM_RET "\n"
    ".size sf_return_stub, .-sf_return_stub\n"
    ".popsection\n");
#define SF_RETURN_ADDR	((unsigned long)sf_return_stub)

int sf_deny(struct pt_regs *regs, int rc)
{
	if (!rc)
		return 0;
	regs_set_return_value(regs, rc);
	instruction_pointer_set(regs, SF_RETURN_ADDR);
	return 1;	/* the instruction pointer was changed */
}
NOKPROBE_SYMBOL(sf_deny);

int sf_skip(struct pt_regs *regs)
{
	regs_set_return_value(regs, 0);
	instruction_pointer_set(regs, SF_RETURN_ADDR);
	return 1;	/* the instruction pointer was changed */
}
NOKPROBE_SYMBOL(sf_skip);

/*
 * Diverted calls (sf_divert()) run module text that may sleep, so unload
 * must wait for them: sf_diverted counts the calls sent on and not yet
 * done, and synchronize_rcu_tasks() then waits out the last instructions
 * after sf_divert_done() (a task preempted there has made no voluntary
 * context switch yet), as ftrace does for its trampolines.
 */
static atomic_t sf_diverted = ATOMIC_INIT(0);

int sf_divert(struct pt_regs *regs, unsigned long fn)
{
	atomic_inc(&sf_diverted);
	instruction_pointer_set(regs, fn);
	return 1;	/* the instruction pointer was changed */
}
NOKPROBE_SYMBOL(sf_divert);

void sf_divert_done(void)
{
	if (atomic_dec_and_test(&sf_diverted))
		wake_up_var(&sf_diverted);
}

void sf_divert_wait(void)
{
	wait_var_event(&sf_diverted, !atomic_read(&sf_diverted));
	synchronize_rcu_tasks();
}

