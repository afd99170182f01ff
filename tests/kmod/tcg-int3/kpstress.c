// SPDX-License-Identifier: GPL-2.0-only
/*
 * kpstress.c - the reproducer of the cycle.test oops (see README).
 *
 * Arms and disarms an ftrace-based kprobe on @sym @iters times.  The
 * pre_handler counts the calls that come from the ftrace trampoline and
 * the ones that come from an int3 at the call site (in_nmi()), and logs
 * the first few of the latter with the bytes in memory at that moment.
 * mode=0 returns 0 on the int3 path, as smackfuse.ko's handlers did
 * (kprobes then single-steps the missing instruction slot: RIP 0);
 * mode=1 resumes after the 5-byte call site, as sf_pre() does now.
 * The load always "fails" with EAGAIN: there is nothing to keep loaded.
 */
#include <linux/delay.h>
#include <linux/ftrace.h>
#include <linux/hardirq.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/uaccess.h>

static char *sym = "security_task_alloc";
module_param(sym, charp, 0);
static int iters = 300;
module_param(iters, int, 0);
static int mode;
module_param(mode, int, 0);

static atomic_t kps_ftrace, kps_int3;

static int kps_pre(struct kprobe *p, struct pt_regs *regs)
{
	u8 b[MCOUNT_INSN_SIZE] = { 0 };
	int n;

	if (!in_nmi()) {
		atomic_inc(&kps_ftrace);
		return 0;
	}
	n = atomic_inc_return(&kps_int3);
	if (copy_from_kernel_nofault(b, p->addr, sizeof(b)))
		memset(b, 0, sizeof(b));
	if (n <= 10)
		pr_emerg("kpstress: int3 path #%d at %pS cpu %d, memory now %5ph\n",
			 n, p->addr, raw_smp_processor_id(), b);
	if (!mode)
		return 0;
	instruction_pointer_set(regs, (unsigned long)p->addr +
				      MCOUNT_INSN_SIZE);
	return 1;
}
NOKPROBE_SYMBOL(kps_pre);

static struct kprobe kps_kp;

static int __init kps_init(void)
{
	int i, rc;

	for (i = 0; i < iters; i++) {
		memset(&kps_kp, 0, sizeof(kps_kp));
		kps_kp.symbol_name = sym;
		kps_kp.pre_handler = kps_pre;
		rc = register_kprobe(&kps_kp);
		if (rc) {
			pr_err("kpstress: cycle %d: register_kprobe: %d\n", i, rc);
			return rc;
		}
		usleep_range(100, 200);
		unregister_kprobe(&kps_kp);
	}
	pr_emerg("kpstress: done %d cycles on %s, ftrace hits %d, int3 hits %d\n",
		 iters, sym, atomic_read(&kps_ftrace), atomic_read(&kps_int3));
	return -EAGAIN;
}
module_init(kps_init);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("arm/disarm an ftrace kprobe, log int3 entries");
