/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * net4addr.h - the smackfs "netlabel" line: an IPv4 host or network and
 * what its traffic is labelled with, "A.B.C.D[/N] LABEL" (mainline's
 * smk_write_net4addr(), one line per write).
 *
 * Freestanding like the rest of the core, so a mount's control file
 * (src/control/control_net.c) and smackfuse.ko's netlabel file
 * (src/kmod/net4.c) read the line with this one parser and give the same
 * answer to the same line.
 */
#ifndef SMACKFUSE_NET4ADDR_H
#define SMACKFUSE_NET4ADDR_H

#include "smack.h"

/* A write's bounds, as smackfs checks its count: "1.2.3.4 A" is the
 * shortest (SMK_NETLBLADDRMIN), PAGE_SIZE - 1 (4 KiB pages) the longest. */
#define SF_NET4ADDR_MIN		9
#define SF_NET4ADDR_MAX		4095
/* The one option an IPv4 host takes instead of a label (SMACK_CIPSO_OPTION). */
#define SF_NET4ADDR_CIPSO	"-CIPSO"

/* One host entry; @addr & @mask == @addr. */
struct sf_net4addr {
	u32 addr;		/* host byte order, host bits clear */
	u32 mask;		/* host byte order, @prefix leading ones */
	unsigned int prefix;	/* 0..32 */
	sf_lid label;		/* SF_LID_INVALID: "-CIPSO" */
};

/**
 * sf_parse_net4addr - one smackfs "netlabel" line
 * @labels: where the label is interned; NULL to check the line only
 * @buf: the line, @len bytes (its newline, if any, included)
 * @host: written on success only
 * @err: the column and reason of a refused line (line 1)
 *
 * "A.B.C.D[/N] LABEL", LABEL a label or -CIPSO, as mainline reads it:
 * white space may stand before each number and between the address and
 * the label, the prefix is 0 to 32 (32 when left out), the host bits are
 * cleared.  Where mainline is lax this is strict: an octet is 0 to 255
 * in decimal digits (mainline's %hhd takes 300 as 44 and -1 as 255), the
 * prefix is at most 32 as written (its %u wraps at 2^32), nothing but
 * white space may follow the label (mainline ignores the rest), and the
 * label is a label as a whole (mainline keeps the bytes before the first
 * one it refuses).  -DELETE is refused, as in mainline: only ipv6host has
 * it.  Returns 0 or -EINVAL (-ENOMEM when interning fails).
 */
int sf_parse_net4addr(struct sf_labels *labels, const char *buf, size_t len,
		      struct sf_net4addr *host, struct sf_error *err);

#endif /* SMACKFUSE_NET4ADDR_H */
