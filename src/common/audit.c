// SPDX-License-Identifier: GPL-2.0-only
/*
 * audit.c - audit lines in the kernel's format.
 *
 * smack_log_callback() writes
 *   lsm=SMACK fn=%s action=denied|granted subject=<s> object=<s>
 *   requested=%s            (or " labels_differ" for an empty request)
 * and dump_common_audit_data() appends " pid=%d comm=<s>" and the object
 * (" path=... dev=... ino=..."), where <s> is audit_log_untrustedstring():
 * "quoted" unless the string holds '"', a byte below 0x21 or above 0x7e,
 * in which case it is printed as upper-case hex without quotes.
 */
#include "core.h"

static void sf_out_untrusted(struct sf_out *o, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p;
	bool control = false;

	for (p = (const unsigned char *)s; *p; p++)
		if (*p == '"' || *p < 0x21 || *p > 0x7e)
			control = true;
	if (!control) {
		sf_out_char(o, '"');
		sf_out_str(o, s);
		sf_out_char(o, '"');
		return;
	}
	for (p = (const unsigned char *)s; *p; p++) {
		sf_out_char(o, hex[*p >> 4]);
		sf_out_char(o, hex[*p & 15]);
	}
}

/**
 * sf_audit_format - one audit line for @a into @buf (snprintf style).
 * Returns the length of the full line, without the NUL.
 */
size_t sf_audit_format(const struct sf_audit *a, char *buf, size_t size)
{
	struct sf_out o;

	sf_out_init(&o, buf, size);
	sf_out_str(&o, "lsm=SMACK fn=");
	sf_out_str(&o, a->fn ? a->fn : "");
	sf_out_str(&o, a->denied ? " action=denied" : " action=granted");
	sf_out_str(&o, " subject=");
	sf_out_untrusted(&o, a->subject ? a->subject : "");
	sf_out_str(&o, " object=");
	sf_out_untrusted(&o, a->object ? a->object : "");
	if (a->request & SF_MAY_ALL) {
		char acc[SF_NUM_ACCESS + 1];

		sf_access_format(a->request & SF_MAY_ALL, acc);
		sf_out_str(&o, " requested=");
		sf_out_str(&o, acc);
	} else {
		sf_out_str(&o, " labels_differ");
	}
	sf_out_str(&o, " pid=");
	sf_out_s64(&o, a->pid);
	sf_out_str(&o, " comm=");
	sf_out_untrusted(&o, a->comm ? a->comm : "");
	if (a->objdesc && a->objdesc[0]) {
		sf_out_char(&o, ' ');
		sf_out_str(&o, a->objdesc);
	}
	return o.len;
}
