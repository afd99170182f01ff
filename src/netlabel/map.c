// SPDX-License-Identifier: GPL-2.0-only
/*
 * map.c - NetLabel domain mappings over NLBL_MGMT: which protocol (and
 * DOI) labels the traffic of an LSM domain, per address if asked.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include "nl_int.h"

/* "domain X" or "the default", for messages */
static const char *dom_name(const char *domain, char *buf, size_t size)
{
	if (!domain)
		return "the default";
	snprintf(buf, size, "domain \"%s\"", domain);
	return buf;
}

static int put_target(struct nl_msg *msg, uint32_t proto, uint32_t doi)
{
	if (nla_put_u32(msg, MGMT_A_PROTOCOL, proto))
		return -ENOMEM;
	if (proto == SF_NL_PROTO_CIPSOV4 &&
	    nla_put_u32(msg, MGMT_A_CV4DOI, doi))
		return -ENOMEM;
	return 0;
}

static int put_sel(struct nl_msg *msg, const struct sf_nl_sel *s)
{
	if (s->family == AF_INET)
		return (nla_put(msg, MGMT_A_IPV4ADDR, 4, s->addr) ||
			nla_put(msg, MGMT_A_IPV4MASK, 4, s->mask)) ?
		       -ENOMEM : 0;
	return (nla_put(msg, MGMT_A_IPV6ADDR, 16, s->addr) ||
		nla_put(msg, MGMT_A_IPV6MASK, 16, s->mask)) ? -ENOMEM : 0;
}

/* Does @domain (NULL: default) have a mapping?  For a clear message. */
static bool map_exists(struct sf_nl *nl, const char *domain)
{
	char keep[sizeof(nl->msg)];
	struct sf_nl_map *v;
	size_t n, i;
	bool found = false;

	memcpy(keep, nl->msg, sizeof(keep));
	if (sf_nl_map_list(nl, &v, &n) == 0) {
		for (i = 0; i < n; i++)
			if ((!domain && !v[i].domain) || (domain &&
			    v[i].domain && !strcmp(domain, v[i].domain)))
				found = true;
		sf_nl_map_list_free(v, n);
	}
	memcpy(nl->msg, keep, sizeof(keep));
	return found;
}

/* Does DOI @doi exist?  For a clear message instead of EINVAL. */
static bool doi_exists(struct sf_nl *nl, uint32_t doi)
{
	struct sf_nl_doi d;
	char keep[sizeof(nl->msg)];
	bool found;

	memcpy(keep, nl->msg, sizeof(keep));
	found = sf_nl_doi_get(nl, doi, &d) == 0;
	sf_nl_doi_release(&d);
	memcpy(nl->msg, keep, sizeof(keep));
	return found;
}

/* One ADD/ADDDEF: the whole-domain target, or one selector. */
static int add_one(struct sf_nl *nl, const struct sf_nl_map *m,
		   const struct sf_nl_sel *s)
{
	int cmd = m->domain ? MGMT_C_ADD : MGMT_C_ADDDEF;
	uint32_t proto = s ? s->proto : m->proto;
	uint32_t doi = s ? s->doi : m->doi;
	struct nl_msg *msg = sf_nl_msg(nl, NLF_MGMT, cmd, 0);
	char where[80] = "", name[300];
	int rc;

	if (!msg)
		return -ENOMEM;
	if ((m->domain && nla_put_string(msg, MGMT_A_DOMAIN, m->domain)) ||
	    put_target(msg, proto, doi) || (s && put_sel(msg, s)) ||
	    (!s && proto == SF_NL_PROTO_UNLABELED &&
	     nla_put_u16(msg, MGMT_A_FAMILY, m->family)))
		return sf_nl_nomem(nl, msg);
	rc = sf_nl_call(nl, msg, MGMT_A_MAX, NULL, NULL);
	if (!rc)
		return 0;
	if (s) {
		strcpy(where, " for address ");
		sf_nl_format_addr(s, where + strlen(where),
				  sizeof(where) - strlen(where));
	}
	if (rc == -EINVAL && proto == SF_NL_PROTO_CIPSOV4 &&
	    !doi_exists(nl, doi))
		return sf_nl_fail(nl, rc, "unknown DOI %u: add it first "
				  "(smacknl doi add)", doi);
	if (rc == -EEXIST || (rc == -EINVAL && !s &&
			      map_exists(nl, m->domain)))
		return sf_nl_fail(nl, -EEXIST, "%s already has a mapping%s: "
				  "delete it first (smacknl map del %s)",
				  dom_name(m->domain, name, sizeof(name)),
				  where, m->domain ? m->domain : "default");
	if (rc == -EINVAL)
		return sf_nl_fail(nl, rc, "the kernel refused the mapping "
				  "of %s%s", dom_name(m->domain, name,
				  sizeof(name)), where);
	return sf_nl_generic(nl, rc, "adding a mapping");
}

int sf_nl_map_add(struct sf_nl *nl, const struct sf_nl_map *m)
{
	unsigned int i;
	int rc;

	if (m->nsels == 0)
		return add_one(nl, m, NULL);
	/* the kernel merges selectors one ADD at a time; undo on failure */
	for (i = 0; i < m->nsels; i++) {
		rc = add_one(nl, m, &m->sels[i]);
		if (rc)
			goto out_undo;
	}
	return 0;

out_undo:
	if (i > 0) {
		char keep[sizeof(nl->msg)];

		memcpy(keep, nl->msg, sizeof(keep));
		sf_nl_map_del(nl, m->domain);
		memcpy(nl->msg, keep, sizeof(keep));
	}
	return rc;
}

int sf_nl_map_del(struct sf_nl *nl, const char *domain)
{
	int cmd = domain ? MGMT_C_REMOVE : MGMT_C_REMOVEDEF;
	int len = domain ? (int)strlen(domain) + 1 : 0;	/* as a string */
	struct nl_msg *msg = sf_nl_msg_attr(nl, NLF_MGMT, cmd, MGMT_A_DOMAIN,
					    domain, len);
	int rc;

	if (!msg)
		return -ENOMEM;
	rc = sf_nl_call(nl, msg, MGMT_A_MAX, NULL, NULL);
	if (rc == -ENOENT)
		return sf_nl_fail(nl, rc, "there is no mapping of %s%s",
				  domain ? "domain " : "",
				  domain ? domain : "the default");
	if (rc)
		return sf_nl_generic(nl, rc, "removing a mapping");
	return 0;
}

/* ---- listing ---- */

struct map_vec {
	struct sf_nl_map *v;
	size_t n;
	int family;	/* LISTDEF: which default was asked for */
};

/* @a, an address (@addr) or mask of @family, @len bytes, into @s. */
static int sel_bytes(struct sf_nl_sel *s, const struct nlattr *a,
		     int family, int len, bool addr)
{
	if (nla_len(a) != len)
		return -EPROTO;
	s->family = family;
	memcpy(addr ? s->addr : s->mask, nla_data(a), len);
	return 0;
}

static int parse_sel(struct nlattr *sel, struct sf_nl_sel *s)
{
	struct nlattr *a;
	int rem, rc;

	memset(s, 0, sizeof(*s));
	nla_for_each_nested(a, sel, rem) {
		rc = 0;
		switch (nla_type(a)) {
		case MGMT_A_IPV4ADDR:
		case MGMT_A_IPV4MASK:
			rc = sel_bytes(s, a, AF_INET, 4,
				       nla_type(a) == MGMT_A_IPV4ADDR);
			break;
		case MGMT_A_IPV6ADDR:
		case MGMT_A_IPV6MASK:
			rc = sel_bytes(s, a, AF_INET6, 16,
				       nla_type(a) == MGMT_A_IPV6ADDR);
			break;
		case MGMT_A_PROTOCOL:
			s->proto = nla_get_u32(a);
			break;
		case MGMT_A_CV4DOI:
		case MGMT_A_CLPDOI:
			s->doi = nla_get_u32(a);
			break;
		}
		if (rc)
			return rc;
	}
	return 0;
}

static int map_parse(void *arg, struct nlattr **tb)
{
	struct map_vec *vec = arg;
	struct sf_nl_map *grown, *m;
	struct sf_nl_sel *sels;
	struct nlattr *a;
	int rem, rc;

	grown = realloc(vec->v, (vec->n + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	vec->v = grown;
	m = &vec->v[vec->n++];
	memset(m, 0, sizeof(*m));
	if (tb[MGMT_A_DOMAIN]) {
		m->domain = strdup(nla_get_string(tb[MGMT_A_DOMAIN]));
		if (!m->domain)
			return -ENOMEM;
	}
	m->family = tb[MGMT_A_FAMILY] ? nla_get_u16(tb[MGMT_A_FAMILY]) :
		    vec->family;
	if (tb[MGMT_A_PROTOCOL])
		m->proto = nla_get_u32(tb[MGMT_A_PROTOCOL]);
	if (tb[MGMT_A_CV4DOI])
		m->doi = nla_get_u32(tb[MGMT_A_CV4DOI]);
	if (tb[MGMT_A_CLPDOI])
		m->doi = nla_get_u32(tb[MGMT_A_CLPDOI]);
	if (!tb[MGMT_A_SELECTORLIST])
		return 0;
	m->proto = NLTYPE_ADDRSELECT;
	nla_for_each_nested(a, tb[MGMT_A_SELECTORLIST], rem) {
		if (nla_type(a) != MGMT_A_ADDRSELECTOR)
			continue;
		sels = realloc(m->sels, (m->nsels + 1) * sizeof(*sels));
		if (!sels)
			return -ENOMEM;
		m->sels = sels;
		rc = parse_sel(a, &m->sels[m->nsels++]);
		if (rc)
			return rc;
	}
	return 0;
}

static int listdef(struct sf_nl *nl, struct map_vec *vec, int family)
{
	uint16_t fam = family;
	struct nl_msg *msg = sf_nl_msg_attr(nl, NLF_MGMT, MGMT_C_LISTDEF,
					    MGMT_A_FAMILY, &fam, sizeof(fam));
	int rc;

	if (!msg)
		return -ENOMEM;	/* the caller says what failed */
	vec->family = family;
	rc = sf_nl_call(nl, msg, MGMT_A_MAX, map_parse, vec);
	return rc == -ENOENT ? 0 : rc;	/* no default for @family */
}

static bool same_target(const struct sf_nl_map *a, const struct sf_nl_map *b)
{
	return a->proto == b->proto && a->doi == b->doi && !a->nsels &&
	       !b->nsels;
}

int sf_nl_map_list(struct sf_nl *nl, struct sf_nl_map **out, size_t *n)
{
	struct map_vec vec = { NULL, 0, AF_UNSPEC };
	struct nl_msg *msg;
	size_t ndom;
	int rc;

	*out = NULL;
	*n = 0;
	msg = sf_nl_msg(nl, NLF_MGMT, MGMT_C_LISTALL, NLM_F_DUMP);
	if (!msg)
		return -ENOMEM;
	rc = sf_nl_call(nl, msg, MGMT_A_MAX, map_parse, &vec);
	ndom = vec.n;
	if (!rc)
		rc = listdef(nl, &vec, AF_INET);
	if (!rc)
		rc = listdef(nl, &vec, AF_INET6);
	if (rc) {
		sf_nl_map_list_free(vec.v, vec.n);
		return sf_nl_generic(nl, rc, "listing mappings");
	}
	/* an AF_UNSPEC default is kept as two entries: show it once */
	if (vec.n == ndom + 2 && same_target(&vec.v[ndom], &vec.v[ndom + 1]) &&
	    vec.v[ndom].proto == SF_NL_PROTO_UNLABELED) {
		vec.v[ndom].family = AF_UNSPEC;
		vec.n--;
	}
	*out = vec.v;
	*n = vec.n;
	return 0;
}

void sf_nl_map_list_free(struct sf_nl_map *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].domain);
		free(v[i].sels);
	}
	free(v);
}

/* ---- addresses ---- */

static void prefix_mask(uint8_t *mask, unsigned int bits, unsigned int len)
{
	unsigned int i;

	memset(mask, 0, 16);
	for (i = 0; i < len; i++) {
		if (bits >= 8)
			mask[i] = 0xff;
		else if (bits)
			mask[i] = 0xff << (8 - bits);
		bits = bits >= 8 ? bits - 8 : 0;
	}
}

int sf_nl_parse_addr(const char *text, struct sf_nl_sel *s)
{
	char host[INET6_ADDRSTRLEN];
	const char *slash = strchr(text, '/');
	size_t hl = slash ? (size_t)(slash - text) : strlen(text);
	unsigned long bits;
	unsigned int i, max;
	char *end;

	memset(s, 0, sizeof(*s));
	if (hl == 0 || hl >= sizeof(host))
		return -EINVAL;
	memcpy(host, text, hl);
	host[hl] = '\0';
	if (inet_pton(AF_INET, host, s->addr) == 1)
		s->family = AF_INET;
	else if (inet_pton(AF_INET6, host, s->addr) == 1)
		s->family = AF_INET6;
	else
		return -EINVAL;
	max = s->family == AF_INET ? 32 : 128;
	bits = max;
	if (slash) {
		bits = strtoul(slash + 1, &end, 10);
		if (!slash[1] || *end || bits > max)
			return -EINVAL;
	}
	prefix_mask(s->mask, bits, max / 8);
	for (i = 0; i < max / 8; i++)
		s->addr[i] &= s->mask[i];
	return 0;
}

void sf_nl_format_addr(const struct sf_nl_sel *s, char *buf, size_t size)
{
	char host[INET6_ADDRSTRLEN] = "?";
	unsigned int i, bits = 0, len = s->family == AF_INET ? 4 : 16;

	inet_ntop(s->family, s->addr, host, sizeof(host));
	for (i = 0; i < len; i++)
		bits += __builtin_popcount(s->mask[i]);
	snprintf(buf, size, "%s/%u", host, bits);
}
