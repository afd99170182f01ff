// SPDX-License-Identifier: GPL-2.0-only
/*
 * net4addr.c - the smackfs "netlabel" line (net4addr.h).
 *
 * Mainline's smk_write_net4addr() reads the line with two sscanf()
 * formats, "%hhd.%hhd.%hhd.%hhd/%u %s" and, failing that,
 * "%hhd.%hhd.%hhd.%hhd %s", after refusing a write shorter than
 * SMK_NETLBLADDRMIN or longer than PAGE_SIZE - 1 bytes; a prefix above
 * 32, a label smk_import_entry() refuses and any option but -CIPSO are
 * EINVAL.  The kernel's sscanf() skips white space before each number
 * and before the label, and a literal ('.', '/') must match exactly: so
 * " 10. 0.0.0/ 8 @" is read, "10 .0.0.0 @" is not.  This parser takes the
 * same lines, but for those net4addr.h lists, where it is strict.
 */
#include "net4addr.h"
#include "core.h"

/* Rules are one line: every error is on line 1. */
#define fail(err, column, ...) \
	(sf_err(err, 1, (unsigned int)(column), __VA_ARGS__), -EINVAL)

static const char sf_net4addr_want[] = "want \"A.B.C.D[/N] LABEL\"";

/* White space as the kernel's isspace() has it in ASCII. */
static bool sf_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static size_t sf_skip_space(const char *buf, size_t len, size_t at)
{
	while (at < len && sf_space(buf[at]))
		at++;
	return at;
}

/*
 * A decimal number at @buf + *@at, after white space, as sscanf's %u
 * reads one; at most @max.  Returns 0 (*@at past it) or -EINVAL.
 */
static int sf_number(const char *buf, size_t len, size_t *at,
		     unsigned int max, const char *what, struct sf_error *err)
{
	size_t i = sf_skip_space(buf, len, *at), start = i;
	unsigned int v = 0;

	while (i < len && buf[i] >= '0' && buf[i] <= '9') {
		if (v <= max)	/* stop counting once it is too large */
			v = v * 10 + (unsigned int)(buf[i] - '0');
		i++;
	}
	if (i == start)
		return fail(err, start + 1, "%s: %s expected", sf_net4addr_want,
			    what);
	if (v > max)
		return fail(err, start + 1, "%s above %u", what, max);
	*at = i;
	return (int)v;
}

/* The label, or -CIPSO, in @s (@n bytes, from column @col). */
static int sf_host_label(struct sf_labels *labels, const char *s, size_t n,
			 size_t col, sf_lid *lid, struct sf_error *err)
{
	static const char del[] = "-DELETE";
	int rc;

	*lid = SF_LID_INVALID;
	if (n == sizeof(SF_NET4ADDR_CIPSO) - 1 &&
	    !memcmp(s, SF_NET4ADDR_CIPSO, n))
		return 0;
	if (n == sizeof(del) - 1 && !memcmp(s, del, n))
		return fail(err, col,
			    "-DELETE is for ipv6host; an IPv4 host entry is "
			    "never removed, as in Smack: write the host with "
			    "-CIPSO to give it the default treatment (CIPSO)");
	if (s[0] == '-')
		return fail(err, col,
			    "the only option for an IPv4 host is -CIPSO");
	rc = sf_label_valid(s, n, err);
	if (rc && err) {
		err->line = 1;	/* sf_label_valid's column is the label's */
		err->column = err->column ?
			      (unsigned int)col + err->column - 1 :
			      (unsigned int)col;
	}
	if (rc)
		return rc;
	return labels ? sf_label_intern(labels, s, n, lid, err) : 0;
}

int sf_parse_net4addr(struct sf_labels *labels, const char *buf, size_t len,
		      struct sf_net4addr *host, struct sf_error *err)
{
	struct sf_net4addr h = { .prefix = 32 };
	size_t at = 0, label;
	int i, v;

	if (len < SF_NET4ADDR_MIN || len > SF_NET4ADDR_MAX)
		return fail(err, 1, "a netlabel line is %u to %u bytes, not %z",
			    SF_NET4ADDR_MIN, SF_NET4ADDR_MAX, len);
	for (i = 0; i < 4; i++) {
		if (i) {
			if (at == len || buf[at] != '.')
				return fail(err, at + 1, "%s: '.' expected",
					    sf_net4addr_want);
			at++;
		}
		v = sf_number(buf, len, &at, 255, "address octet", err);
		if (v < 0)
			return v;
		h.addr = h.addr << 8 | (u32)v;
	}
	if (at < len && buf[at] == '/') {
		at++;
		v = sf_number(buf, len, &at, 32, "prefix length", err);
		if (v < 0)
			return v;
		h.prefix = (unsigned int)v;
	}
	label = sf_skip_space(buf, len, at);
	at = label;
	while (at < len && !sf_space(buf[at]))
		at++;
	if (at == label)
		return fail(err, label + 1, "%s: a label or -CIPSO expected",
			    sf_net4addr_want);
	if (sf_skip_space(buf, len, at) < len)
		return fail(err, sf_skip_space(buf, len, at) + 1,
			    "only white space may follow the label");
	h.mask = h.prefix ? 0xffffffffu << (32 - h.prefix) : 0;
	h.addr &= h.mask;
	v = sf_host_label(labels, buf + label, at - label, label + 1,
			  &h.label, err);
	if (v)
		return v;
	*host = h;
	return 0;
}
