// SPDX-License-Identifier: GPL-2.0-only
/*
 * unlbl.c - unlabeled traffic over NLBL_UNLBL: whether it is accepted,
 * and the static labels given to it per interface and address.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "nl_int.h"

int sf_nl_unlbl_accept(struct sf_nl *nl, bool on)
{
	uint8_t flag = on ? 1 : 0;

	return sf_nl_ask(nl, sf_nl_msg_attr(nl, NLF_UNLBL, UNLBL_C_ACCEPT,
					    UNLBL_A_ACPTFLG, &flag,
					    sizeof(flag)),
			 UNLBL_A_MAX, NULL, NULL, "setting unlabeled accept");
}

static int accept_parse(void *arg, struct nlattr **tb)
{
	if (tb[UNLBL_A_ACPTFLG])
		*(bool *)arg = nla_get_u8(tb[UNLBL_A_ACPTFLG]) != 0;
	return 0;
}

int sf_nl_unlbl_get_accept(struct sf_nl *nl, bool *on)
{
	*on = false;
	return sf_nl_ask(nl, sf_nl_msg(nl, NLF_UNLBL, UNLBL_C_LIST, 0),
			 UNLBL_A_MAX, accept_parse, on,
			 "reading unlabeled accept");
}

static int put_static(struct nl_msg *msg, const struct sf_nl_static *s,
		      bool label)
{
	const struct sf_nl_sel *a = &s->sel;
	int len = a->family == AF_INET ? 4 : 16;

	if (s->iface && nla_put_string(msg, UNLBL_A_IFACE, s->iface))
		return -ENOMEM;
	if (label && nla_put(msg, UNLBL_A_SECCTX, strlen(s->label) + 1,
			     s->label))
		return -ENOMEM;
	if (nla_put(msg, a->family == AF_INET ? UNLBL_A_IPV4ADDR :
		    UNLBL_A_IPV6ADDR, len, a->addr) ||
	    nla_put(msg, a->family == AF_INET ? UNLBL_A_IPV4MASK :
		    UNLBL_A_IPV6MASK, len, a->mask))
		return -ENOMEM;
	return 0;
}

static int static_cmd(struct sf_nl *nl, const struct sf_nl_static *s,
		      bool add)
{
	int cmd = s->iface ? (add ? UNLBL_C_STATICADD : UNLBL_C_STATICREMOVE) :
		  (add ? UNLBL_C_STATICADDDEF : UNLBL_C_STATICREMOVEDEF);
	struct nl_msg *msg = sf_nl_msg(nl, NLF_UNLBL, cmd, 0);
	char where[80];
	int rc;

	if (!msg)
		return -ENOMEM;
	if (put_static(msg, s, add))
		return sf_nl_nomem(nl, msg);
	rc = sf_nl_call(nl, msg, UNLBL_A_MAX, NULL, NULL);
	if (!rc)
		return 0;
	sf_nl_format_addr(&s->sel, where, sizeof(where));
	if (rc == -EEXIST)
		return sf_nl_fail(nl, rc, "a static label for %s on %s "
				  "already exists", where,
				  s->iface ? s->iface : "any interface");
	if (rc == -ENOENT && add && s->iface)
		return sf_nl_fail(nl, rc, "no such interface: %s (or the "
				  "running LSM does not know the label \"%s\")",
				  s->iface, s->label);
	if (rc == -ENOENT && !add)
		return sf_nl_fail(nl, rc, "no static label for %s on %s",
				  where, s->iface ? s->iface : "any interface");
	/* the LSM's secctx_to_secid: EINVAL, or ENOENT (AppArmor) */
	if ((rc == -EINVAL || rc == -ENOENT || rc == -EOPNOTSUPP) && add)
		return sf_nl_fail(nl, rc, "the kernel refused the static "
				  "label \"%s\" for %s: the running LSM must "
				  "know the label", s->label, where);
	return sf_nl_generic(nl, rc, add ? "adding a static label" :
			     "removing a static label");
}

int sf_nl_static_add(struct sf_nl *nl, const struct sf_nl_static *s)
{
	return static_cmd(nl, s, true);
}

int sf_nl_static_del(struct sf_nl *nl, const struct sf_nl_static *s)
{
	return static_cmd(nl, s, false);
}

struct static_vec {
	struct sf_nl_static *v;
	size_t n;
};

static int static_parse(void *arg, struct nlattr **tb)
{
	struct static_vec *vec = arg;
	struct sf_nl_static *grown, *s;
	struct nlattr *addr, *mask;

	grown = realloc(vec->v, (vec->n + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	vec->v = grown;
	s = &vec->v[vec->n++];
	memset(s, 0, sizeof(*s));
	if (tb[UNLBL_A_IFACE]) {
		s->iface = strdup(nla_get_string(tb[UNLBL_A_IFACE]));
		if (!s->iface)
			return -ENOMEM;
	}
	if (tb[UNLBL_A_SECCTX]) {
		s->label = strndup(nla_data(tb[UNLBL_A_SECCTX]),
				   nla_len(tb[UNLBL_A_SECCTX]));
		if (!s->label)
			return -ENOMEM;
	}
	addr = tb[UNLBL_A_IPV4ADDR] ? tb[UNLBL_A_IPV4ADDR] :
	       tb[UNLBL_A_IPV6ADDR];
	mask = tb[UNLBL_A_IPV4ADDR] ? tb[UNLBL_A_IPV4MASK] :
	       tb[UNLBL_A_IPV6MASK];
	if (addr && mask && nla_len(addr) <= 16 &&
	    nla_len(mask) == nla_len(addr)) {
		s->sel.family = nla_len(addr) == 4 ? AF_INET : AF_INET6;
		memcpy(s->sel.addr, nla_data(addr), nla_len(addr));
		memcpy(s->sel.mask, nla_data(mask), nla_len(mask));
	}
	return 0;
}

int sf_nl_static_list(struct sf_nl *nl, struct sf_nl_static **out,
		      size_t *n)
{
	static const int cmd[] = { UNLBL_C_STATICLIST, UNLBL_C_STATICLISTDEF };
	struct static_vec vec = { NULL, 0 };
	struct nl_msg *msg;
	unsigned int i;
	int rc = 0;

	for (i = 0; i < 2 && !rc; i++) {
		msg = sf_nl_msg(nl, NLF_UNLBL, cmd[i], NLM_F_DUMP);
		if (!msg) {
			rc = -ENOMEM;
			break;
		}
		rc = sf_nl_call(nl, msg, UNLBL_A_MAX, static_parse, &vec);
	}
	if (rc) {
		sf_nl_static_list_free(vec.v, vec.n);
		*out = NULL;
		*n = 0;
		return sf_nl_generic(nl, rc, "listing static labels");
	}
	*out = vec.v;
	*n = vec.n;
	return 0;
}

void sf_nl_static_list_free(struct sf_nl_static *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].iface);
		free(v[i].label);
	}
	free(v);
}
