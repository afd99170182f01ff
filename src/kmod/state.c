// SPDX-License-Identifier: GPL-2.0-only
/*
 * state.c - what the module holds while it is loaded: the policy, the
 * label tables of tasks and objects, the counters, and the settings of
 * the control files (logging, ptrace, ambient).
 *
 * It sits at the bottom of the module: every hook, the decision
 * (check.c), the tables' own code (ltab.c), the control files (fs.c) and
 * the load (main.c) read or set these, and this file calls nothing, so
 * none of them has to reach up or sideways for the module's state.
 * main.c creates and frees what needs it (the policy, the tables).
 */
#include "smackfuse.h"

struct sf_policy *sf_policy;
struct sf_counters sf_count;
int sf_log_policy = SF_LOG_DENIED;
int sf_ptrace_rule = SF_PTRACE_DEFAULT;

struct sf_ltab sf_tasks, sf_ipcs, sf_socks, sf_peers, sf_secctxs, sf_fowners,
	sf_keys;

static u32 sf_ambient = SF_LID_FLOOR;

void sf_ambient_set(sf_lid lid)
{
	WRITE_ONCE(sf_ambient, lid);
}

sf_lid sf_ambient_get(void)
{
	return READ_ONCE(sf_ambient);
}
