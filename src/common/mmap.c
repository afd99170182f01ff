// SPDX-License-Identifier: GPL-2.0-only
/*
 * mmap.c - smack_mmap_file()'s rule, for the daemon (an exec open of a
 * program carrying SMACK64MMAP, src/fuse/handlers/file.c) and for smackfuse.ko
 * (every mapping of such a file, src/kmod/hooks_file.c).
 *
 * The SMACK64MMAP label M stands for what may be mapped: a task may map
 * the file only if M's rules cover its own.  For every rule (subject, O,
 * may) with O other than M and may not empty, the rule (M, O) must exist
 * and grant all of may, its write implying lock (smk_access_entry()).
 * Nothing else counts: not the file's own label, not the implicit
 * accesses (floor, hat, star), not privilege.  Mainline also narrows both
 * sides by the task's own rules (load-self), which smackfuse does not
 * take (src/control/control_self.c).
 */
#include "core.h"

int sf_mmap_rule(const struct sf_snapshot *snap, sf_lid subject, sf_lid mmap,
		 u32 *may)
{
	sf_lid rs, ro;
	u32 smay, mmay, i;

	*may = 0;
	/* Mainline's task always has a label; a subject we could not name
	 * is refused, as every decision that cannot be made is. */
	if (subject == SF_LID_INVALID)
		return -EACCES;
	for (i = 0; sf_rule_at(snap, i, &rs, &ro, &smay); i++) {
		if (rs != subject || ro == mmap || !smay)
			continue;
		if (sf_rule_lookup(snap, mmap, ro, &mmay))
			mmay = 0;	/* no rule: M has less than any */
		else if (mmay & SF_MAY_WRITE)
			mmay |= SF_MAY_LOCK;
		if ((smay | mmay) != mmay) {
			*may = smay;
			return -EACCES;
		}
	}
	return 0;
}
