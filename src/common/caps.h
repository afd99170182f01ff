/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * caps.h - the capabilities the checks name, by the numbers of
 * <linux/capability.h>, for the code that cannot include that header:
 * the daemon and its control filesystem read a caller's capabilities as
 * the hex mask on the CapEff line of /proc/PID/status, whose bit N is
 * capability N (so CAP_MAC_OVERRIDE and CAP_MAC_ADMIN are bits 0 and 1
 * of its upper 32-bit word).  The numbers are kernel ABI and never
 * change; smackfuse.ko, which uses the kernel's own constants, asserts
 * them equal at build time (main.c).
 */
#ifndef SMACKFUSE_CAPS_H
#define SMACKFUSE_CAPS_H

#include "smack.h"	/* the environment's types (sf_env.h) */

#define SF_CAP_DAC_OVERRIDE	1	/* an open a file's mode refuses */
#define SF_CAP_DAC_READ_SEARCH	2	/* ... when it only reads */
#define SF_CAP_FOWNER		3	/* what only a file's owner may do */
#define SF_CAP_FSETID		4	/* keep set-user/group-ID bits */
#define SF_CAP_MAC_OVERRIDE	32	/* Smack: override a denial */
#define SF_CAP_MAC_ADMIN	33	/* Smack: change labels and policy */

/* Is capability @cap in @set, a CapEff mask? */
static inline bool sf_cap_in(u64 set, unsigned int cap)
{
	return (set >> cap) & 1;
}

#endif /* SMACKFUSE_CAPS_H */
