// SPDX-License-Identifier: GPL-2.0-only
/*
 * smack.c - Smack's NetLabel configuration as whole, undoable steps:
 * the standard setup, and the smackfs "doi" and "ambient" writes.
 *
 * Each step that changes the kernel pushes its inverse on a journal; if a
 * later step fails, the journal runs backwards, so the kernel is left as
 * it was found, and the first error's message is what the caller sees.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "nl_int.h"

enum undo_kind { UNDO_DOI_DEL, UNDO_DOI_ADD, UNDO_MAP_DEL, UNDO_MAP_ADD };

struct undo {
	enum undo_kind kind;
	uint32_t doi;
	struct sf_nl_doi def;		/* UNDO_DOI_ADD: to put back */
	char *domain;			/* UNDO_MAP_DEL: NULL is default */
	struct sf_nl_map *maps;		/* UNDO_MAP_ADD: to re-add */
	size_t nmaps;
};

struct journal {
	struct undo step[8];
	unsigned int n;
};

static struct undo *push(struct journal *j, enum undo_kind kind)
{
	struct undo *u = &j->step[j->n++];

	memset(u, 0, sizeof(*u));
	u->kind = kind;
	return u;
}

static void undo_free(struct undo *u)
{
	free(u->domain);
	if (u->kind == UNDO_MAP_ADD)
		sf_nl_map_list_free(u->maps, u->nmaps);
	if (u->kind == UNDO_DOI_ADD)
		sf_nl_doi_release(&u->def);
}

/* Forget the journal (success) or play it backwards (failure). */
static void journal_end(struct sf_nl *nl, struct journal *j, bool rollback)
{
	char keep[sizeof(nl->msg)];
	struct undo *u;
	size_t i;

	memcpy(keep, nl->msg, sizeof(keep));
	while (j->n) {
		u = &j->step[--j->n];
		if (rollback) {
			switch (u->kind) {
			case UNDO_DOI_DEL:
				sf_nl_doi_del(nl, u->doi);
				break;
			case UNDO_DOI_ADD:
				sf_nl_doi_add(nl, &u->def);
				break;
			case UNDO_MAP_DEL:
				sf_nl_map_del(nl, u->domain);
				break;
			case UNDO_MAP_ADD:
				for (i = 0; i < u->nmaps; i++)
					sf_nl_map_add(nl, &u->maps[i]);
				break;
			}
		}
		undo_free(u);
	}
	memcpy(nl->msg, keep, sizeof(keep));
}

static void smack_doi(struct sf_nl_doi *d, uint32_t doi)
{
	memset(d, 0, sizeof(*d));
	d->doi = doi;
	d->type = SF_NL_DOI_PASS;
	d->tags[0] = SF_NL_TAG_RBITMAP;
	d->ntags = 1;
}

static bool same_domain(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/*
 * The current mappings of @domain (NULL: the default), moved into a
 * fresh array (*@out, *@n); the rest is freed.
 */
static int mappings_of(struct sf_nl *nl, const char *domain,
		       struct sf_nl_map **out, size_t *n)
{
	struct sf_nl_map *all, *mine;
	size_t nall, i, k = 0;
	int rc;

	rc = sf_nl_map_list(nl, &all, &nall);
	if (rc)
		return rc;
	mine = calloc(nall ? nall : 1, sizeof(*mine));
	if (!mine) {
		sf_nl_map_list_free(all, nall);
		return sf_nl_fail(nl, -ENOMEM, "out of memory");
	}
	for (i = 0; i < nall; i++) {
		if (!same_domain(all[i].domain, domain))
			continue;
		mine[k++] = all[i];
		memset(&all[i], 0, sizeof(all[i]));
	}
	sf_nl_map_list_free(all, nall);
	*out = mine;
	*n = k;
	return 0;
}

/* Step: DOI @doi exists as Smack's pass-through DOI. */
static int ensure_doi(struct sf_nl *nl, struct journal *j, uint32_t doi,
		      bool *changed)
{
	struct sf_nl_doi want, have;
	int rc;

	smack_doi(&want, doi);
	rc = sf_nl_doi_get(nl, doi, &have);
	if (rc == 0) {
		bool same = sf_nl_doi_equal(&want, &have);

		sf_nl_doi_release(&have);
		if (same)
			return 0;
		return sf_nl_fail(nl, -EEXIST, "DOI %u already exists with "
				  "another definition: remove it first "
				  "(smacknl doi del %u)", doi, doi);
	}
	if (rc != -ENOENT)
		return rc;
	rc = sf_nl_doi_add(nl, &want);
	if (rc)
		return rc;
	push(j, UNDO_DOI_DEL)->doi = doi;
	*changed = true;
	return 0;
}

/* Is the default exactly: IPv4 to CIPSOv4 @doi, IPv6 unlabeled? */
static bool default_is(const struct sf_nl_map *m, size_t n, uint32_t doi)
{
	bool v4 = false, v6 = false;
	size_t i;

	for (i = 0; i < n; i++) {
		if (m[i].nsels)
			return false;
		if (m[i].family == AF_INET && m[i].proto ==
		    SF_NL_PROTO_CIPSOV4 && m[i].doi == doi)
			v4 = true;
		else if (m[i].family == AF_INET6 &&
			 m[i].proto == SF_NL_PROTO_UNLABELED)
			v6 = true;
		else
			return false;
	}
	return v4 && v6;
}

/*
 * Step: the mappings of @domain (NULL: the default), @maps (@n of them,
 * taken over), are deleted; undoing adds them back.
 */
static int del_mappings(struct sf_nl *nl, struct journal *j,
			const char *domain, struct sf_nl_map *maps, size_t n)
{
	struct undo *u;
	int rc;

	if (n) {
		rc = sf_nl_map_del(nl, domain);
		if (rc) {
			sf_nl_map_list_free(maps, n);
			return rc;
		}
	}
	u = push(j, UNDO_MAP_ADD);
	u->maps = maps;
	u->nmaps = n;
	return 0;
}

/*
 * Step: the default mapping becomes @want (@nwant entries); @old (taken
 * over) is what it was, put back if a later step fails.
 */
static int replace_default(struct sf_nl *nl, struct journal *j,
			   struct sf_nl_map *old, size_t nold,
			   const struct sf_nl_map *want, size_t nwant)
{
	size_t i;
	int rc;

	rc = del_mappings(nl, j, NULL, old, nold);
	if (rc)
		return rc;
	push(j, UNDO_MAP_DEL);	/* whatever we add below */
	for (i = 0; i < nwant; i++) {
		rc = sf_nl_map_add(nl, &want[i]);
		if (rc)
			return rc;
	}
	return 0;
}

/* Step: replace the default mapping with IPv4 -> @doi, IPv6 unlabeled. */
static int ensure_default(struct sf_nl *nl, struct journal *j, uint32_t doi,
			  bool *changed)
{
	struct sf_nl_map want[2] = {
		{ .family = AF_INET, .proto = SF_NL_PROTO_CIPSOV4, .doi = doi },
		{ .family = AF_INET6, .proto = SF_NL_PROTO_UNLABELED },
	};
	struct sf_nl_map *old;
	size_t nold;
	int rc;

	rc = mappings_of(nl, NULL, &old, &nold);
	if (rc)
		return rc;
	if (default_is(old, nold, doi)) {
		sf_nl_map_list_free(old, nold);
		return 0;
	}
	*changed = true;
	return replace_default(nl, j, old, nold, want, 2);
}

/* Step: domain @ambient is unlabeled (IPv4, as Smack adds it). */
static int ensure_ambient(struct sf_nl *nl, struct journal *j,
			  const char *ambient, bool *changed)
{
	struct sf_nl_map want = { .domain = (char *)ambient,
				  .family = AF_INET,
				  .proto = SF_NL_PROTO_UNLABELED };
	struct sf_nl_map *old;
	size_t nold;
	char *undo_dom;
	int rc;

	rc = mappings_of(nl, ambient, &old, &nold);
	if (rc)
		return rc;
	if (nold == 1 && !old[0].nsels &&
	    old[0].proto == SF_NL_PROTO_UNLABELED) {
		sf_nl_map_list_free(old, nold);
		return 0;
	}
	/* before any change: an undo without its name would drop the default */
	undo_dom = strdup(ambient);
	if (!undo_dom) {
		sf_nl_map_list_free(old, nold);
		return sf_nl_fail(nl, -ENOMEM, "out of memory");
	}
	*changed = true;
	rc = del_mappings(nl, j, ambient, old, nold);
	if (!rc)
		rc = sf_nl_map_add(nl, &want);
	if (rc) {
		free(undo_dom);
		return rc;
	}
	push(j, UNDO_MAP_DEL)->domain = undo_dom;
	return 0;
}

int sf_nl_smack_setup(struct sf_nl *nl, uint32_t doi, const char *ambient,
		      bool *changed)
{
	struct journal j = { .n = 0 };
	bool dummy = false;
	int rc;

	if (!changed)
		changed = &dummy;
	*changed = false;
	if (doi == 0)
		return sf_nl_fail(nl, -EINVAL, "DOI 0 is reserved");
	rc = ensure_doi(nl, &j, doi, changed);
	if (!rc)
		rc = ensure_default(nl, &j, doi, changed);
	if (!rc && ambient)
		rc = ensure_ambient(nl, &j, ambient, changed);
	journal_end(nl, &j, rc != 0);
	if (rc)
		*changed = false;
	return rc;
}

int sf_nl_smack_set_doi(struct sf_nl *nl, uint32_t old, uint32_t doi)
{
	struct journal j = { .n = 0 };
	struct sf_nl_doi prev;
	bool changed = false;
	struct undo *u;
	int rc;

	if (doi == old)
		return 0;
	rc = ensure_doi(nl, &j, doi, &changed);
	if (!rc)
		rc = ensure_default(nl, &j, doi, &changed);
	if (!rc && old && sf_nl_doi_get(nl, old, &prev) == 0) {
		rc = sf_nl_doi_del(nl, old);
		if (rc) {
			sf_nl_doi_release(&prev);
		} else {
			u = push(&j, UNDO_DOI_ADD);
			u->def = prev;
		}
	}
	journal_end(nl, &j, rc != 0);
	return rc;
}

int sf_nl_smack_set_ambient(struct sf_nl *nl, const char *old,
			    const char *ambient)
{
	struct journal j = { .n = 0 };
	bool changed = false;
	struct sf_nl_map *prev = NULL;
	struct undo *u;
	size_t nprev = 0;
	int rc = 0;

	if (old && strcmp(old, ambient) != 0) {
		rc = mappings_of(nl, old, &prev, &nprev);
		if (!rc && nprev) {
			rc = sf_nl_map_del(nl, old);
			if (!rc) {
				u = push(&j, UNDO_MAP_ADD);
				u->maps = prev;
				u->nmaps = nprev;
				prev = NULL;
			}
		}
		if (prev)
			sf_nl_map_list_free(prev, nprev);
	}
	if (!rc)
		rc = ensure_ambient(nl, &j, ambient, &changed);
	journal_end(nl, &j, rc != 0);
	return rc;
}

static bool same_net(const struct sf_nl_sel *a, const struct sf_nl_sel *b)
{
	return a->family == b->family && !memcmp(a->addr, b->addr, 16) &&
	       !memcmp(a->mask, b->mask, 16);
}

/*
 * The IPv4 default as selectors: those it has, or 0.0.0.0/0 with the
 * protocol it applies to everything.  Appends @host (replacing the same
 * network).  Returns the new selector array (*@n) or NULL.
 */
static struct sf_nl_sel *v4_selectors(const struct sf_nl_map *old,
				      size_t nold, uint32_t doi,
				      const struct sf_nl_sel *host,
				      unsigned int *n)
{
	struct sf_nl_sel *v, all = {
		.family = AF_INET, .proto = SF_NL_PROTO_CIPSOV4, .doi = doi };
	unsigned int k = 0, s;
	size_t i, total = 2;

	for (i = 0; i < nold; i++)
		total += old[i].nsels;
	v = calloc(total, sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < nold; i++) {
		if (old[i].nsels) {
			for (s = 0; s < old[i].nsels; s++)
				if (old[i].sels[s].family == AF_INET &&
				    !same_net(&old[i].sels[s], host))
					v[k++] = old[i].sels[s];
		} else if (old[i].family != AF_INET6) {
			all.proto = old[i].proto;
			all.doi = old[i].doi;
		}
	}
	if (k == 0 && !same_net(&all, host))
		v[k++] = all;
	v[k++] = *host;
	*n = k;
	return v;
}

int sf_nl_smack_set_host(struct sf_nl *nl, uint32_t doi,
			 const struct sf_nl_sel *host, bool cipso)
{
	struct sf_nl_map want[2] = {
		{ .family = AF_INET },
		{ .family = AF_INET6, .proto = SF_NL_PROTO_UNLABELED },
	};
	struct journal j = { .n = 0 };
	struct sf_nl_sel h = *host;
	struct sf_nl_map *old;
	size_t nold, i;
	int rc;

	if (h.family != AF_INET)
		return sf_nl_fail(nl, -EINVAL, "CIPSO hosts are IPv4 "
				  "addresses");
	h.proto = cipso ? SF_NL_PROTO_CIPSOV4 : SF_NL_PROTO_UNLABELED;
	h.doi = cipso ? doi : 0;
	rc = mappings_of(nl, NULL, &old, &nold);
	if (rc)
		return rc;
	want[0].sels = v4_selectors(old, nold, doi, &h, &want[0].nsels);
	if (!want[0].sels) {
		sf_nl_map_list_free(old, nold);
		return sf_nl_fail(nl, -ENOMEM, "out of memory");
	}
	for (i = 0; i < nold; i++)	/* keep an IPv6 default as it is */
		if (old[i].family == AF_INET6 && !old[i].nsels) {
			want[1].proto = old[i].proto;
			want[1].doi = old[i].doi;
		}
	rc = replace_default(nl, &j, old, nold, want, 2);
	journal_end(nl, &j, rc != 0);
	free(want[0].sels);
	return rc;
}

/* Do the selectors @have (@nhave) hold exactly @want (@nwant), any order? */
static bool same_sels(const struct sf_nl_sel *have, unsigned int nhave,
		      const struct sf_nl_sel *want, unsigned int nwant)
{
	unsigned int i, k;

	if (nhave != nwant)
		return false;
	for (i = 0; i < nwant; i++) {
		for (k = 0; k < nhave; k++)
			if (same_net(&have[k], &want[i]) &&
			    have[k].proto == want[i].proto &&
			    (want[i].proto != SF_NL_PROTO_CIPSOV4 ||
			     have[k].doi == want[i].doi))
				break;
		if (k == nhave)
			return false;
	}
	return true;
}

/*
 * The IPv4 default of @s as selectors: each host, then 0.0.0.0/0 over
 * CIPSO @s->doi unless a host already covers it.  NULL on ENOMEM.
 */
static struct sf_nl_sel *host_selectors(const struct sf_nl_smack *s,
					unsigned int *n)
{
	struct sf_nl_sel *v = calloc(s->nhosts + 1, sizeof(*v));
	bool all = false;
	size_t i;

	if (!v)
		return NULL;
	for (i = 0; i < s->nhosts; i++) {
		v[i] = s->hosts[i].sel;
		v[i].family = AF_INET;
		v[i].proto = s->hosts[i].cipso ? SF_NL_PROTO_CIPSOV4 :
						 SF_NL_PROTO_UNLABELED;
		v[i].doi = s->hosts[i].cipso ? s->doi : 0;
		if (!memcmp(v[i].mask, "\0\0\0\0", 4))
			all = true;
	}
	*n = (unsigned int)s->nhosts;
	if (!all) {
		v[*n].family = AF_INET;
		v[*n].proto = SF_NL_PROTO_CIPSOV4;
		v[*n].doi = s->doi;
		(*n)++;
	}
	return v;
}

/* Step: the default mapping is what @s asks for (hosts as selectors). */
static int ensure_hosts(struct sf_nl *nl, struct journal *j,
			const struct sf_nl_smack *s)
{
	struct sf_nl_map want[2] = {
		{ .family = AF_INET, .proto = SF_NL_PROTO_CIPSOV4,
		  .doi = s->doi },
		{ .family = AF_INET6, .proto = SF_NL_PROTO_UNLABELED },
	};
	struct sf_nl_map *old;
	bool same = false;
	size_t nold;
	int rc;

	if (s->nhosts == 0) {
		bool dummy;

		return ensure_default(nl, j, s->doi, &dummy);
	}
	want[0].sels = host_selectors(s, &want[0].nsels);
	if (!want[0].sels)
		return sf_nl_fail(nl, -ENOMEM, "out of memory");
	rc = mappings_of(nl, NULL, &old, &nold);
	if (rc) {
		free(want[0].sels);
		return rc;
	}
	if (nold == 2) {
		size_t i;

		same = true;
		for (i = 0; i < 2; i++) {
			if (old[i].family == AF_INET)
				same &= same_sels(old[i].sels, old[i].nsels,
						  want[0].sels, want[0].nsels);
			else
				same &= old[i].family == AF_INET6 &&
					!old[i].nsels && old[i].proto ==
					SF_NL_PROTO_UNLABELED;
		}
	}
	if (same)
		sf_nl_map_list_free(old, nold);
	else
		rc = replace_default(nl, j, old, nold, want, 2);
	free(want[0].sels);
	return rc;
}

/* Step: the domain @old no longer has a mapping. */
static int drop_domain(struct sf_nl *nl, struct journal *j, const char *old)
{
	struct sf_nl_map *prev;
	size_t nprev;
	int rc;

	rc = mappings_of(nl, old, &prev, &nprev);
	if (rc)
		return rc;
	if (nprev == 0) {
		sf_nl_map_list_free(prev, nprev);
		return 0;
	}
	return del_mappings(nl, j, old, prev, nprev);
}

int sf_nl_smack_sync(struct sf_nl *nl, const struct sf_nl_smack *old,
		     const struct sf_nl_smack *want)
{
	struct journal j = { .n = 0 };
	struct sf_nl_doi prev;
	bool changed = false;
	size_t i;
	int rc;

	if (want->doi == 0)
		return sf_nl_fail(nl, -EINVAL, "DOI 0 is reserved");
	for (i = 0; i < want->nhosts; i++)
		if (want->hosts[i].sel.family != AF_INET)
			return sf_nl_fail(nl, -EINVAL, "CIPSO hosts are IPv4 "
					  "addresses");
	rc = ensure_doi(nl, &j, want->doi, &changed);
	if (!rc)
		rc = ensure_hosts(nl, &j, want);
	if (!rc && old && old->ambient && want->ambient &&
	    strcmp(old->ambient, want->ambient) != 0)
		rc = drop_domain(nl, &j, old->ambient);
	if (!rc && want->ambient)
		rc = ensure_ambient(nl, &j, want->ambient, &changed);
	if (!rc && old && old->doi && old->doi != want->doi &&
	    sf_nl_doi_get(nl, old->doi, &prev) == 0) {
		rc = sf_nl_doi_del(nl, old->doi);
		if (rc) {
			sf_nl_doi_release(&prev);
		} else {
			push(&j, UNDO_DOI_ADD)->def = prev;
		}
	}
	journal_end(nl, &j, rc != 0);
	return rc;
}

/* The CIPSO DOI the IPv4 default of @m uses, alone or in its selectors:
 * 0 if none, or if its selectors use more than one. */
static uint32_t default_doi(const struct sf_nl_map *m, size_t n)
{
	uint32_t doi = 0;
	unsigned int s;
	size_t i;

	for (i = 0; i < n; i++) {
		if (m[i].domain || m[i].family == AF_INET6)
			continue;
		if (!m[i].nsels && m[i].proto == SF_NL_PROTO_CIPSOV4)
			return m[i].doi;
		for (s = 0; s < m[i].nsels; s++) {
			if (m[i].sels[s].proto != SF_NL_PROTO_CIPSOV4)
				continue;
			if (doi && doi != m[i].sels[s].doi)
				return 0;
			doi = m[i].sels[s].doi;
		}
	}
	return doi;
}

/* Is NetLabel as the kernel boots: no DOI, only an unlabeled default? */
static bool is_fresh(const struct sf_nl_map *m, size_t n, size_t ndoi)
{
	size_t i;

	if (ndoi)
		return false;
	for (i = 0; i < n; i++)
		if (m[i].domain || m[i].nsels ||
		    m[i].proto != SF_NL_PROTO_UNLABELED)
			return false;
	return true;
}

int sf_nl_smack_state(struct sf_nl *nl, struct sf_nl_smack_state *st)
{
	struct sf_nl_doi *dois, want;
	struct sf_nl_map *maps;
	size_t ndoi, nmap, i;
	int rc;

	memset(st, 0, sizeof(*st));
	rc = sf_nl_doi_list(nl, &dois, &ndoi);
	if (rc)
		return rc;
	rc = sf_nl_map_list(nl, &maps, &nmap);
	if (rc) {
		sf_nl_doi_list_free(dois, ndoi);
		return rc;
	}
	st->fresh = is_fresh(maps, nmap, ndoi);
	st->doi = default_doi(maps, nmap);
	for (i = 0; st->doi && i < ndoi; i++) {
		if (dois[i].doi != st->doi)
			continue;
		smack_doi(&want, st->doi);
		if (!sf_nl_doi_equal(&want, &dois[i]))
			st->doi = 0;	/* not a DOI Smack would use */
		break;
	}
	for (i = 0; i < nmap; i++) {
		if (!maps[i].domain && maps[i].family != AF_INET6)
			st->nsels += maps[i].nsels;
		if (maps[i].domain && !maps[i].nsels &&
		    maps[i].proto == SF_NL_PROTO_UNLABELED &&
		    maps[i].family != AF_INET6) {
			st->nambient++;
			if (!st->ambient)
				st->ambient = strdup(maps[i].domain);
		}
	}
	sf_nl_doi_list_free(dois, ndoi);
	sf_nl_map_list_free(maps, nmap);
	return 0;
}

void sf_nl_smack_state_release(struct sf_nl_smack_state *st)
{
	free(st->ambient);
	st->ambient = NULL;
}
