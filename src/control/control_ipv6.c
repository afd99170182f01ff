// SPDX-License-Identifier: GPL-2.0-only
/*
 * control_ipv6.c - "ipv6host": labels of IPv6 hosts and networks.
 *
 * smackfs's format (smk_write_net6addr): eight hexadecimal groups, no
 * "::" shorthand, an optional "/prefix" of 0 to 128, one label, or
 * "-DELETE" to take the entry's label away.  Shown longest prefix first as
 * "%pI6/%d label" (eight groups of four digits).  smackfuse keeps the
 * table and shows it; it labels no packets (see smackfuse(8)).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "control_int.h"

#define CTL_NET6_DELETE "-DELETE"

struct ctl_net6 {
	u16 addr[8];		/* host order, masked */
	unsigned int prefix;
	sf_lid label;		/* SF_LID_INVALID after -DELETE: not shown */
};

void ctl_net6_release(struct sf_control *c)
{
	free(c->net6);
	c->net6 = NULL;
	c->nnet6 = 0;
}

int ctl_show_ipv6host(struct sf_control *c, struct ctl_buf *out)
{
	const struct ctl_net6 *e;
	size_t i;
	int rc = 0;

	for (i = 0; i < c->nnet6 && rc == 0; i++) {
		e = &c->net6[i];
		if (e->label == SF_LID_INVALID)
			continue;
		rc = ctl_buf_printf(out, "%04x:%04x:%04x:%04x:%04x:%04x:%04x:"
				    "%04x/%u %s\n", e->addr[0], e->addr[1],
				    e->addr[2], e->addr[3], e->addr[4],
				    e->addr[5], e->addr[6], e->addr[7],
				    e->prefix,
				    sf_label_name(c->labels, e->label));
	}
	return rc;
}

/* One to four hex digits, then @end.  Returns the byte after @end. */
static const char *ctl_hex_group(const char *p, char end, u16 *v)
{
	unsigned int n = 0, k;

	for (k = 0; k < 4 && strchr("0123456789abcdefABCDEF", *p) && *p;
	     k++, p++)
		n = n * 16 + (unsigned int)(*p <= '9' ? *p - '0' :
					    (*p | 0x20) - 'a' + 10);
	if (k == 0 || *p != end)
		return NULL;
	*v = (u16)n;
	return p + 1;
}

/* "g:g:g:g:g:g:g:g[/prefix] label[\n]" into @e and the label's bytes. */
static int ctl_net6_parse(const char *buf, size_t len, struct ctl_net6 *e,
			  const char **label, size_t *llen)
{
	char tmp[128];
	const char *p = tmp;
	unsigned int i, bits;
	long long prefix = 128;
	const char *sp;
	char *slash;

	if (len >= sizeof(tmp) + SF_LABEL_MAX)
		return -EINVAL;
	sp = memchr(buf, ' ', len);
	if (!sp || (size_t)(sp - buf) >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, buf, (size_t)(sp - buf));
	tmp[sp - buf] = '\0';
	slash = strchr(tmp, '/');
	if (slash) {
		*slash = '\0';
		if (ctl_parse_num(slash + 1, strlen(slash + 1), 0, 128,
				  &prefix))
			return -EINVAL;
	}
	for (i = 0; i < 8 && p; i++)
		p = ctl_hex_group(p, i < 7 ? ':' : '\0', &e->addr[i]);
	if (!p)
		return -EINVAL;
	e->prefix = (unsigned int)prefix;
	for (i = 0; i < 8; i++) {
		bits = e->prefix > 16 * i ? e->prefix - 16 * i : 0;
		if (bits < 16)
			e->addr[i] &= (u16)(0xffff0000u >> bits);
	}
	*label = sp + 1;
	*llen = len - (size_t)(sp + 1 - buf);
	if (*llen && (*label)[*llen - 1] == '\n')
		(*llen)--;
	return 0;
}

static int ctl_net6_insert(struct sf_control *c, const struct ctl_net6 *e)
{
	struct ctl_net6 *t;
	size_t i;

	for (i = 0; i < c->nnet6; i++) {
		if (c->net6[i].prefix == e->prefix &&
		    !memcmp(c->net6[i].addr, e->addr, sizeof(e->addr))) {
			c->net6[i].label = e->label;
			return 0;
		}
	}
	t = realloc(c->net6, (c->nnet6 + 1) * sizeof(*t));
	if (!t)
		return -ENOMEM;
	c->net6 = t;
	for (i = c->nnet6; i > 0 && t[i - 1].prefix < e->prefix; i--)
		t[i] = t[i - 1];
	t[i] = *e;
	c->nnet6++;
	return 0;
}

ssize_t ctl_store_ipv6host(struct sf_control *c, const struct ctl_input *in)
{
	struct sf_error err = { .file = "ipv6host", .line = 1 };
	struct ctl_net6 e = { .label = SF_LID_INVALID };
	const char *label;
	size_t llen;
	int rc;

	rc = ctl_net6_parse(in->buf, in->len, &e, &label, &llen);
	if (rc < 0) {
		ctl_log(c, LOG_WARNING, "rejected write: ipv6host: want "
			"\"g:g:g:g:g:g:g:g[/prefix] label\"");
		return rc;
	}
	if (llen == strlen(CTL_NET6_DELETE) &&
	    !memcmp(label, CTL_NET6_DELETE, llen)) {
		e.label = SF_LID_INVALID;
	} else if (sf_label_valid(label, llen, &err) ||
		   sf_label_intern(c->labels, label, llen, &e.label, &err)) {
		ctl_log_error(c, &err);
		return -EINVAL;
	}
	rc = ctl_net6_insert(c, &e);
	return rc < 0 ? rc : (ssize_t)in->len;
}
