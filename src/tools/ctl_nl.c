// SPDX-License-Identifier: GPL-2.0-only
/*
 * ctl_nl.c - smackfusectl's NetLabel target: CIPSO mappings (cipso.d) are
 * only of use when the kernel's NetLabel carries Smack labels, i.e. the
 * default IPv4 mapping goes to a pass-through CIPSO DOI with the
 * restricted bitmap tag.  If it already does (smacknl smack-setup, a
 * mount's doi file, a boot script), it is left alone; else Smack's
 * standard configuration is set up through libsfnetlabel, all or nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cipso.h"
#include "netlabel.h"
#include "ctl.h"

/* The DOI the default IPv4 traffic is labelled with, or 0. */
static uint32_t ctl_nl_default_doi(const struct sf_nl_map *m, size_t n)
{
	unsigned int s;
	size_t i;

	for (i = 0; i < n; i++) {
		if (m[i].domain || m[i].family == AF_INET6)
			continue;
		if (!m[i].nsels && m[i].proto == SF_NL_PROTO_CIPSOV4)
			return m[i].doi;
		for (s = 0; s < m[i].nsels; s++)
			if (m[i].sels[s].family == AF_INET &&
			    m[i].sels[s].proto == SF_NL_PROTO_CIPSOV4)
				return m[i].sels[s].doi;
	}
	return 0;
}

static bool ctl_nl_is_smack_doi(const struct sf_nl_doi *d)
{
	unsigned int i;

	if (d->type != SF_NL_DOI_PASS)
		return false;
	for (i = 0; i < d->ntags; i++)
		if (d->tags[i] == SF_NL_TAG_RBITMAP)
			return true;
	return false;
}

int ctl_netlabel_apply(const struct ctl_opts *o)
{
	struct sf_nl_map *maps = NULL;
	struct sf_nl_doi d;
	struct sf_nl *nl;
	size_t nmaps = 0;
	bool changed = false;
	char why[256];
	uint32_t doi;
	int rc;

	(void)o;
	rc = sf_nl_open(&nl, why, sizeof(why));
	if (rc) {
		ctl_err("netlabel: %s; CIPSO labels cannot travel", why);
		return 1;
	}
	rc = sf_nl_map_list(nl, &maps, &nmaps);
	if (rc)
		goto fail;
	doi = ctl_nl_default_doi(maps, nmaps);
	sf_nl_map_list_free(maps, nmaps);
	if (doi && sf_nl_doi_get(nl, doi, &d) == 0) {
		bool smack = ctl_nl_is_smack_doi(&d);

		sf_nl_doi_release(&d);
		if (smack) {
			printf("netlabel: default IPv4 traffic already "
			       "carries CIPSO DOI %u (pass-through): "
			       "unchanged\n", doi);
			sf_nl_close(nl);
			return 0;
		}
	}
	rc = sf_nl_smack_setup(nl, SF_CIPSO_DOI_DEFAULT, "_", &changed);
	if (rc)
		goto fail;
	printf("netlabel: DOI %d pass-through, default IPv4 mapping to it, "
	       "\"_\" unlabeled: %s\n", SF_CIPSO_DOI_DEFAULT,
	       changed ? "configured" : "unchanged");
	sf_nl_close(nl);
	return 0;
fail:
	ctl_err("netlabel: %s; the NetLabel configuration is unchanged",
		sf_nl_error(nl));
	sf_nl_close(nl);
	return 1;
}
