// SPDX-License-Identifier: GPL-2.0-only
/*
 * control_priv.c - may the writing task change the policy?
 *
 * As smack_privileged(CAP_MAC_ADMIN): the task must hold CAP_MAC_ADMIN in
 * its effective set, and when onlycap is set its label must be listed.
 * The task is the one blocked in write(2) on our file, so its
 * /proc/PID/status is read while it waits; its fs uid must match the
 * request's, so a recycled pid cannot lend its privilege.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>

#include "caps.h"
#include "control_int.h"
#include "procstatus.h"

/*
 * The writer's CapEff and fs uid (procstatus.c); -EPERM when either cannot
 * be read.  The file is opened by number while the writer waits in
 * write(2) or open(2); the fs uid must then be the request's, so that a
 * pid reused by another task cannot lend this one its privilege (the
 * control files are few and rarely written, so each read opens the file
 * anew: no descriptor is kept, as the daemon's procfd.c keeps them).
 */
static int ctl_task_caps(const struct ctl_caller *who, u64 *capeff)
{
	struct sf_task_status st;

	if (who->pid <= 0 || sf_task_status_read(who->pid, &st))
		return -EPERM;
	if (!(st.have & SF_TASK_HAVE_CAPEFF) || !(st.have & SF_TASK_HAVE_UID) ||
	    st.fsuid != who->uid)
		return -EPERM;
	*capeff = st.capeff;
	return 0;
}

int ctl_privileged(struct sf_control *c, const struct ctl_caller *who)
{
	sf_lid subject = SF_LID_FLOOR;
	u64 capeff = 0;
	bool ok;

	if (ctl_task_caps(who, &capeff) ||
	    !sf_cap_in(capeff, SF_CAP_MAC_ADMIN))
		return -EPERM;
	if (c->hooks.subject)
		subject = c->hooks.subject(c->hooks.arg, who->pid, who->uid,
					   who->gid);
	sf_rcu_read_lock();
	ok = sf_onlycap_allows(sf_policy_snapshot(c->policy), subject);
	sf_rcu_read_unlock();
	return ok ? 0 : -EPERM;
}

/*
 * The control files belong to root:root, as smackfs's do, and their modes
 * are smackfs's: a write open of a policy file by anyone but root (or a
 * holder of CAP_DAC_OVERRIDE) fails at open(2) with EACCES.  The task's
 * capabilities are read as for ctl_privileged(); when they cannot be
 * read, the task has none.
 */
int ctl_may_open(const struct ctl_caller *who, mode_t mode, int acc)
{
	mode_t want = 0, bits;
	u64 capeff = 0;

	if (acc != O_WRONLY)
		want |= 4;
	if (acc != O_RDONLY)
		want |= 2;
	if (who->uid == 0)
		bits = (mode >> 6) & 7;
	else if (who->gid == 0)
		bits = (mode >> 3) & 7;
	else
		bits = mode & 7;
	if ((bits & want) == want)
		return 0;
	if (ctl_task_caps(who, &capeff))
		return -EACCES;
	if (sf_cap_in(capeff, SF_CAP_DAC_OVERRIDE))
		return 0;
	if (want == 4 && sf_cap_in(capeff, SF_CAP_DAC_READ_SEARCH))
		return 0;
	return -EACCES;
}
