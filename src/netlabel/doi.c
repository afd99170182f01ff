// SPDX-License-Identifier: GPL-2.0-only
/*
 * doi.c - CIPSOv4 DOIs over NLBL_CIPSOv4: add, remove, list.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "nl_int.h"

static const char *type_name(enum sf_nl_doi_type t)
{
	switch (t) {
	case SF_NL_DOI_TRANS:
		return "standard";
	case SF_NL_DOI_PASS:
		return "pass-through";
	case SF_NL_DOI_LOCAL:
		return "local";
	}
	return "unknown";
}

static int put_pairs(struct nl_msg *msg, int list, int item, int loc,
		     int rem, const struct sf_nl_pair *p, unsigned int n)
{
	struct nlattr *l, *e;
	unsigned int i;

	l = nla_nest_start(msg, list);
	if (!l)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		e = nla_nest_start(msg, item);
		if (!e || nla_put_u32(msg, loc, p[i].local) ||
		    nla_put_u32(msg, rem, p[i].remote))
			return -ENOMEM;
		nla_nest_end(msg, e);
	}
	nla_nest_end(msg, l);
	return 0;
}

/* What the kernel would refuse with a bare EINVAL, said plainly first. */
static int doi_check(struct sf_nl *nl, const struct sf_nl_doi *d)
{
	unsigned int i;

	if (d->doi == 0)
		return sf_nl_fail(nl, -EINVAL, "DOI 0 is reserved");
	if (d->ntags == 0 || d->ntags > SF_NL_MAXTAGS)
		return sf_nl_fail(nl, -EINVAL, "DOI %u: give 1 to %d tags",
				  d->doi, SF_NL_MAXTAGS);
	for (i = 0; i < d->ntags; i++) {
		if (d->tags[i] == SF_NL_TAG_RBITMAP ||
		    (d->tags[i] == SF_NL_TAG_LOCAL &&
		     d->type == SF_NL_DOI_LOCAL) ||
		    ((d->tags[i] == 2 || d->tags[i] == 5) &&
		     d->type == SF_NL_DOI_PASS))
			continue;
		return sf_nl_fail(nl, -EINVAL, "DOI %u: tag %u is not "
				  "allowed for a %s DOI (1: restricted bitmap; "
				  "2, 5: pass-through only; 128: local only)",
				  d->doi, d->tags[i], type_name(d->type));
	}
	if (d->type == SF_NL_DOI_TRANS && d->nlvls == 0)
		return sf_nl_fail(nl, -EINVAL, "DOI %u: a standard DOI needs "
				  "a level table", d->doi);
	for (i = 0; i < d->nlvls; i++)
		if (d->lvls[i].local > SF_NL_MAXLVL ||
		    d->lvls[i].remote > SF_NL_MAXLVL)
			return sf_nl_fail(nl, -EINVAL, "DOI %u: level %u=%u "
					  "is above 255", d->doi,
					  d->lvls[i].local, d->lvls[i].remote);
	for (i = 0; i < d->ncats; i++)
		if (d->cats[i].local > SF_NL_MAXCAT ||
		    d->cats[i].remote > SF_NL_MAXCAT)
			return sf_nl_fail(nl, -EINVAL, "DOI %u: category "
					  "%u=%u is above %u", d->doi,
					  d->cats[i].local, d->cats[i].remote,
					  SF_NL_MAXCAT);
	return 0;
}

int sf_nl_doi_add(struct sf_nl *nl, const struct sf_nl_doi *d)
{
	struct nl_msg *msg;
	struct nlattr *tags;
	unsigned int i;
	int rc;

	rc = doi_check(nl, d);
	if (rc)
		return rc;
	msg = sf_nl_msg(nl, NLF_CIPSOV4, CIPSOV4_C_ADD, 0);
	if (!msg)
		return -ENOMEM;
	rc = -ENOMEM;
	if (nla_put_u32(msg, CIPSOV4_A_DOI, d->doi) ||
	    nla_put_u32(msg, CIPSOV4_A_MTYPE, d->type))
		goto out_free;
	tags = nla_nest_start(msg, CIPSOV4_A_TAGLST);
	if (!tags)
		goto out_free;
	for (i = 0; i < d->ntags; i++)
		if (nla_put_u8(msg, CIPSOV4_A_TAG, d->tags[i]))
			goto out_free;
	nla_nest_end(msg, tags);
	if (d->type == SF_NL_DOI_TRANS) {
		if (put_pairs(msg, CIPSOV4_A_MLSLVLLST, CIPSOV4_A_MLSLVL,
			      CIPSOV4_A_MLSLVLLOC, CIPSOV4_A_MLSLVLREM,
			      d->lvls, d->nlvls))
			goto out_free;
		if (d->ncats && put_pairs(msg, CIPSOV4_A_MLSCATLST,
					  CIPSOV4_A_MLSCAT,
					  CIPSOV4_A_MLSCATLOC,
					  CIPSOV4_A_MLSCATREM, d->cats,
					  d->ncats))
			goto out_free;
	}
	rc = sf_nl_call(nl, msg, CIPSOV4_A_MAX, NULL, NULL);
	if (rc == -EEXIST)
		return sf_nl_fail(nl, rc, "DOI %u already exists", d->doi);
	if (rc == -EINVAL)
		return sf_nl_fail(nl, rc, "the kernel refused DOI %u (%s): "
				  "check its tags and tables", d->doi,
				  type_name(d->type));
	if (rc)
		return sf_nl_generic(nl, rc, "adding a DOI");
	return 0;

out_free:
	return sf_nl_nomem(nl, msg);
}

int sf_nl_doi_del(struct sf_nl *nl, uint32_t doi)
{
	struct nl_msg *msg = sf_nl_msg_attr(nl, NLF_CIPSOV4, CIPSOV4_C_REMOVE,
					    CIPSOV4_A_DOI, &doi, sizeof(doi));
	int rc;

	if (!msg)
		return -ENOMEM;
	rc = sf_nl_call(nl, msg, CIPSOV4_A_MAX, NULL, NULL);
	if (rc == -ENOENT)
		return sf_nl_fail(nl, rc, "DOI %u does not exist", doi);
	if (rc == -EBUSY)
		return sf_nl_fail(nl, rc, "DOI %u is still used by an address "
				  "selector of a domain mapping: remove that "
				  "mapping first", doi);
	if (rc)
		return sf_nl_generic(nl, rc, "removing a DOI");
	return 0;
}

static int get_pairs(struct nlattr *list, int item, int loc, int rem,
		     struct sf_nl_pair **out, unsigned int *n)
{
	struct nlattr *e, *a;
	struct sf_nl_pair *v = NULL, *grown;
	int r1, r2;
	unsigned int cnt = 0;

	nla_for_each_nested(e, list, r1) {
		if (nla_type(e) != item)
			continue;
		grown = realloc(v, (cnt + 1) * sizeof(*v));
		if (!grown) {
			free(v);
			return -ENOMEM;
		}
		v = grown;
		memset(&v[cnt], 0, sizeof(v[cnt]));
		nla_for_each_nested(a, e, r2) {
			if (nla_type(a) == loc)
				v[cnt].local = nla_get_u32(a);
			else if (nla_type(a) == rem)
				v[cnt].remote = nla_get_u32(a);
		}
		cnt++;
	}
	*out = v;
	*n = cnt;
	return 0;
}

static int list_parse(void *arg, struct nlattr **tb)
{
	struct sf_nl_doi *d = arg;
	struct nlattr *t;
	int rem, rc;

	if (tb[CIPSOV4_A_MTYPE])
		d->type = nla_get_u32(tb[CIPSOV4_A_MTYPE]);
	if (tb[CIPSOV4_A_TAGLST])
		nla_for_each_nested(t, tb[CIPSOV4_A_TAGLST], rem)
			if (nla_type(t) == CIPSOV4_A_TAG &&
			    d->ntags < SF_NL_MAXTAGS)
				d->tags[d->ntags++] = nla_get_u8(t);
	if (tb[CIPSOV4_A_MLSLVLLST]) {
		rc = get_pairs(tb[CIPSOV4_A_MLSLVLLST], CIPSOV4_A_MLSLVL,
			       CIPSOV4_A_MLSLVLLOC, CIPSOV4_A_MLSLVLREM,
			       &d->lvls, &d->nlvls);
		if (rc)
			return rc;
	}
	if (tb[CIPSOV4_A_MLSCATLST]) {
		rc = get_pairs(tb[CIPSOV4_A_MLSCATLST], CIPSOV4_A_MLSCAT,
			       CIPSOV4_A_MLSCATLOC, CIPSOV4_A_MLSCATREM,
			       &d->cats, &d->ncats);
		if (rc)
			return rc;
	}
	return 0;
}

int sf_nl_doi_get(struct sf_nl *nl, uint32_t doi, struct sf_nl_doi *out)
{
	struct nl_msg *msg = sf_nl_msg_attr(nl, NLF_CIPSOV4, CIPSOV4_C_LIST,
					    CIPSOV4_A_DOI, &doi, sizeof(doi));
	int rc;

	memset(out, 0, sizeof(*out));
	out->doi = doi;
	if (!msg)
		return -ENOMEM;
	rc = sf_nl_call(nl, msg, CIPSOV4_A_MAX, list_parse, out);
	if (rc) {
		sf_nl_doi_release(out);
		out->doi = doi;
	}
	/* the kernel answers EINVAL for a DOI it does not know */
	if (rc == -EINVAL || rc == -ENOENT)
		return sf_nl_fail(nl, -ENOENT, "unknown DOI %u", doi);
	if (rc)
		return sf_nl_generic(nl, rc, "listing a DOI");
	return 0;
}

void sf_nl_doi_release(struct sf_nl_doi *d)
{
	free(d->lvls);
	free(d->cats);
	memset(d, 0, sizeof(*d));
}

void sf_nl_doi_list_free(struct sf_nl_doi *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		sf_nl_doi_release(&v[i]);
	free(v);
}

struct doi_vec {
	uint32_t *doi;
	size_t n;
};

static int listall_parse(void *arg, struct nlattr **tb)
{
	struct doi_vec *v = arg;
	uint32_t *grown;

	if (!tb[CIPSOV4_A_DOI])
		return 0;
	grown = realloc(v->doi, (v->n + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	v->doi = grown;
	v->doi[v->n++] = nla_get_u32(tb[CIPSOV4_A_DOI]);
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

int sf_nl_doi_list(struct sf_nl *nl, struct sf_nl_doi **out, size_t *n)
{
	struct doi_vec v = { NULL, 0 };
	struct sf_nl_doi *d;
	size_t i;
	int rc;

	*out = NULL;
	*n = 0;
	rc = sf_nl_ask(nl, sf_nl_msg(nl, NLF_CIPSOV4, CIPSOV4_C_LISTALL,
				     NLM_F_DUMP),
		       CIPSOV4_A_MAX, listall_parse, &v, "listing DOIs");
	if (rc) {
		free(v.doi);
		return rc;
	}
	qsort(v.doi, v.n, sizeof(*v.doi), cmp_u32);
	d = calloc(v.n ? v.n : 1, sizeof(*d));
	if (!d) {
		free(v.doi);
		return sf_nl_fail(nl, -ENOMEM, "out of memory");
	}
	for (i = 0; i < v.n; i++) {
		rc = sf_nl_doi_get(nl, v.doi[i], &d[i]);
		if (rc) {
			sf_nl_doi_list_free(d, i);
			free(v.doi);
			return rc;
		}
	}
	free(v.doi);
	*out = d;
	*n = v.n;
	return 0;
}

static int cmp_pair(const void *a, const void *b)
{
	const struct sf_nl_pair *x = a, *y = b;

	return x->local != y->local ? (x->local < y->local ? -1 : 1) :
	       (x->remote < y->remote ? -1 : x->remote > y->remote);
}

static bool pairs_equal(const struct sf_nl_pair *a, unsigned int na,
			const struct sf_nl_pair *b, unsigned int nb)
{
	struct sf_nl_pair *x, *y;
	bool eq;

	if (na != nb)
		return false;
	if (na == 0)
		return true;
	x = malloc(na * sizeof(*x));
	y = malloc(na * sizeof(*y));
	eq = x && y;
	if (eq) {
		memcpy(x, a, na * sizeof(*x));
		memcpy(y, b, na * sizeof(*y));
		qsort(x, na, sizeof(*x), cmp_pair);
		qsort(y, na, sizeof(*y), cmp_pair);
		eq = memcmp(x, y, na * sizeof(*x)) == 0;
	}
	free(x);
	free(y);
	return eq;
}

bool sf_nl_doi_equal(const struct sf_nl_doi *a, const struct sf_nl_doi *b)
{
	return a->doi == b->doi && a->type == b->type &&
	       a->ntags == b->ntags &&
	       memcmp(a->tags, b->tags, a->ntags) == 0 &&
	       pairs_equal(a->lvls, a->nlvls, b->lvls, b->nlvls) &&
	       pairs_equal(a->cats, a->ncats, b->cats, b->ncats);
}
