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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "caps.h"
#include "control_int.h"

static int ctl_task_caps(pid_t pid, unsigned long long *capeff,
			 unsigned long *fsuid)
{
	char path[64], line[256];
	unsigned long r, e, s;
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -EPERM;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "CapEff: %llx", capeff) == 1)
			found |= 1;
		else if (sscanf(line, "Uid: %lu %lu %lu %lu", &r, &e, &s,
				fsuid) == 4)
			found |= 2;
	}
	fclose(f);
	return found == 3 ? 0 : -EPERM;
}

int ctl_privileged(struct sf_control *c, const struct ctl_caller *who)
{
	unsigned long long capeff = 0;
	unsigned long fsuid = 0;
	sf_lid subject = SF_LID_FLOOR;
	bool ok;

	if (who->pid <= 0 || ctl_task_caps(who->pid, &capeff, &fsuid))
		return -EPERM;
	if (!sf_cap_in(capeff, SF_CAP_MAC_ADMIN) || fsuid != who->uid)
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
	unsigned long long capeff = 0;
	unsigned long fsuid = 0;
	mode_t want = 0, bits;

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
	if (who->pid <= 0 || ctl_task_caps(who->pid, &capeff, &fsuid) ||
	    fsuid != who->uid)
		return -EACCES;
	if (sf_cap_in(capeff, SF_CAP_DAC_OVERRIDE))
		return 0;
	if (want == 4 && sf_cap_in(capeff, SF_CAP_DAC_READ_SEARCH))
		return 0;
	return -EACCES;
}
