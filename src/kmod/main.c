// SPDX-License-Identifier: GPL-2.0-only
/*
 * main.c - smackfuse.ko: Smack task, System V IPC and UNIX socket checks
 * for kernels that do not run Smack, with the policy and decision code of
 * smackfuse's shared access core.  See smackfuse-kmod(7).
 *
 * Load order: the policy (empty: everything is floor "_"), the label
 * tables, the probes (all or none), then the securityfs files, so no label
 * or rule can exist before every check is armed.  Unload in reverse: once
 * unregister_kprobes() returns no handler is running, and the tables can
 * be emptied.
 *
 * It sits at the top of the module: it calls every part's start and end,
 * and nothing calls it.  The state it creates and frees is state.c's.
 */
#include <linux/capability.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include "caps.h"
#include "smackfuse.h"

/*
 * What the probes rely on (smackfuse-kmod(7), SUPPORTED KERNELS): kprobes,
 * x86_64's pt_regs argument registers and returns, securityfs for the
 * control files, and the argument lists of the probed functions as the
 * supported releases have them (release.h refuses any other release).
 * Elsewhere a probe could read the wrong argument and decide on it, so
 * the module is not built at all.
 */
#if !IS_ENABLED(CONFIG_X86_64) || !IS_ENABLED(CONFIG_KPROBES) || \
	!IS_ENABLED(CONFIG_KPROBES_ON_FTRACE) || \
	!IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_REGS) || \
	!IS_ENABLED(CONFIG_KALLSYMS) || !IS_ENABLED(CONFIG_SECURITYFS)
#error "smackfuse.ko needs x86_64 with CONFIG_KPROBES, CONFIG_KPROBES_ON_FTRACE, CONFIG_DYNAMIC_FTRACE_WITH_REGS, CONFIG_KALLSYMS and CONFIG_SECURITYFS"
#endif

static struct sf_ltab *const sf_ltabs[] = {
	&sf_tasks, &sf_ipcs, &sf_socks, &sf_peers, &sf_secctxs, &sf_fowners,
	&sf_keys,
};

/* After every probe is gone: nothing reads or writes the tables. */
static void sf_ltabs_destroy(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sf_ltabs); i++)
		sf_ltab_destroy(sf_ltabs[i]);
}

static int __init sf_init(void)
{
	int rc;

	/* The numbers the daemon reads from CapEff are the kernel's. */
	BUILD_BUG_ON(SF_CAP_DAC_OVERRIDE != CAP_DAC_OVERRIDE);
	BUILD_BUG_ON(SF_CAP_DAC_READ_SEARCH != CAP_DAC_READ_SEARCH);
	BUILD_BUG_ON(SF_CAP_FOWNER != CAP_FOWNER);
	BUILD_BUG_ON(SF_CAP_FSETID != CAP_FSETID);
	BUILD_BUG_ON(SF_CAP_MAC_OVERRIDE != CAP_MAC_OVERRIDE);
	BUILD_BUG_ON(SF_CAP_MAC_ADMIN != CAP_MAC_ADMIN);
	rc = sf_release_check();
	if (rc)
		return rc;
	sf_policy = sf_policy_new();
	if (!sf_policy)
		return -ENOMEM;
	sf_ltab_init(&sf_tasks, "tasks");
	sf_ltab_init(&sf_ipcs, "ipc");
	sf_ltab_init(&sf_socks, "unix sockets");
	sf_ltab_init(&sf_peers, "socket peers");
	sf_ltab_init(&sf_secctxs, "datagram label texts");
	sf_ltab_init(&sf_fowners, "file owners");
	sf_ltab_init(&sf_keys, "keys");
	rc = sf_probes_register();
	if (rc)
		goto out_policy;
	rc = sf_rcv_register();
	if (rc)
		goto out_probes;
	rc = sf_fs_init();
	if (rc)
		goto out_rcv;
	pr_info("smackfuse: loaded, %u probes armed\n", sf_probes_count());
	return 0;

out_rcv:
	sf_rcv_unregister();
out_probes:
	sf_probes_unregister();
	sf_verdicts_exit();
	sf_exec_wait();
	sf_net4_exit();
	sf_cipso4_exit();
	sf_ltabs_destroy();
out_policy:
	sf_policy_free(sf_policy);
	return rc;
}

static void __exit sf_exit(void)
{
	unsigned long missed;

	sf_fs_exit();
	missed = sf_probes_missed(false);
	sf_rcv_unregister();
	sf_probes_unregister();
	sf_exec_wait();
	pr_info("smackfuse: unloaded: %d task, %d ipc, %d socket, %d file owner, %d key labels freed; %lld checks, %lld denials, %lu misses\n",
		atomic_read(&sf_tasks.count), atomic_read(&sf_ipcs.count),
		atomic_read(&sf_socks.count), atomic_read(&sf_fowners.count),
		atomic_read(&sf_keys.count),
		(long long)atomic64_read(&sf_count.checks),
		(long long)atomic64_read(&sf_count.denials), missed);
	sf_ltabs_destroy();
	sf_net4_exit();
	sf_cipso4_exit();
	rcu_barrier();	/* the kfree_rcu()s above complete before we go */
	sf_policy_free(sf_policy);
}

module_init(sf_init);
module_exit(sf_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("smackfuse: Smack task, IPC, socket and key checks");
