// SPDX-License-Identifier: GPL-2.0-only
/*
 * show.c - smacknl listings.
 *
 * For people: headed sections, one indented line per item.
 * For scripts (-s): one record per line, words separated by one blank,
 * no headers, stable order (DOIs by number; domains as the kernel lists
 * them, then the default IPv4, then IPv6):
 *   doi N pass|standard|local tags T[,T] [levels L=R,..] [categories L=R,..]
 *   map DOMAIN|default all|ipv4|ipv6 cipso N|unlabeled
 *   map DOMAIN|default ipv4|ipv6 address A/N cipso N|unlabeled
 *   accept on|off
 *   static IFACE|default A/N LABEL
 */
#include <string.h>
#include "show.h"

static const char *doi_type(enum sf_nl_doi_type t, bool script)
{
	if (t == SF_NL_DOI_PASS)
		return script ? "pass" : "pass-through";
	if (t == SF_NL_DOI_TRANS)
		return "standard";
	return t == SF_NL_DOI_LOCAL ? "local" : "unknown";
}

static void pairs(FILE *f, const char *what, const struct sf_nl_pair *p,
		  unsigned int n, const char *sep)
{
	unsigned int i;

	if (!n)
		return;
	fprintf(f, "%s%s", sep, what);
	for (i = 0; i < n; i++)
		fprintf(f, "%s%u=%u", i ? "," : " ", p[i].local, p[i].remote);
}

void show_dois(FILE *f, const struct sf_nl_doi *v, size_t n, bool script)
{
	unsigned int t;
	size_t i;

	if (!script)
		fprintf(f, "CIPSOv4 DOIs (%zu)\n", n);
	for (i = 0; i < n; i++) {
		fprintf(f, script ? "doi %u %s tags" : "  DOI %u: %s, tags",
			v[i].doi, doi_type(v[i].type, script));
		for (t = 0; t < v[i].ntags; t++)
			fprintf(f, "%s%u", t ? "," : " ", v[i].tags[t]);
		pairs(f, "levels", v[i].lvls, v[i].nlvls, script ? " " : ", ");
		pairs(f, "categories", v[i].cats, v[i].ncats,
		      script ? " " : ", ");
		fputc('\n', f);
	}
}

static const char *family(int fam, bool script)
{
	if (fam == AF_INET)
		return script ? "ipv4" : "IPv4";
	if (fam == AF_INET6)
		return script ? "ipv6" : "IPv6";
	return script ? "all" : "IPv4/IPv6";
}

static void target(FILE *f, uint32_t proto, uint32_t doi, bool script)
{
	if (proto == SF_NL_PROTO_CIPSOV4)
		fprintf(f, script ? "cipso %u" : "CIPSOv4, DOI %u", doi);
	else if (proto == SF_NL_PROTO_UNLABELED)
		fputs("unlabeled", f);
	else if (proto == SF_NL_PROTO_CALIPSO)
		fprintf(f, script ? "calipso %u" : "CALIPSO, DOI %u", doi);
	else
		fprintf(f, "protocol-%u", proto);
}

void show_maps(FILE *f, const struct sf_nl_map *v, size_t n, bool script)
{
	char addr[64];
	unsigned int s;
	size_t i;

	if (!script)
		fprintf(f, "Domain mappings (%zu)\n", n);
	for (i = 0; i < n; i++) {
		const char *dom = v[i].domain ? v[i].domain : "default";

		if (!v[i].nsels) {
			if (script)
				fprintf(f, "map %s %s ", dom,
					family(v[i].family, true));
			else
				fprintf(f, "  %s%s%s (%s): ",
					v[i].domain ? "\"" : "", dom,
					v[i].domain ? "\"" : "",
					family(v[i].family, false));
			target(f, v[i].proto, v[i].doi, script);
			fputc('\n', f);
			continue;
		}
		if (!script)
			fprintf(f, "  %s%s%s, by address:\n",
				v[i].domain ? "\"" : "", dom,
				v[i].domain ? "\"" : "");
		for (s = 0; s < v[i].nsels; s++) {
			const struct sf_nl_sel *sel = &v[i].sels[s];

			sf_nl_format_addr(sel, addr, sizeof(addr));
			if (script)
				fprintf(f, "map %s %s address %s ", dom,
					family(sel->family, true), addr);
			else
				fprintf(f, "    %s: ", addr);
			target(f, sel->proto, sel->doi, script);
			fputc('\n', f);
		}
	}
}

void show_unlbl(FILE *f, bool accept, const struct sf_nl_static *v,
		size_t n, bool script)
{
	char addr[64];
	size_t i;

	if (script)
		fprintf(f, "accept %s\n", accept ? "on" : "off");
	else
		fprintf(f, "Unlabeled traffic: %s\nStatic labels (%zu)\n",
			accept ? "accepted" : "dropped", n);
	for (i = 0; i < n; i++) {
		sf_nl_format_addr(&v[i].sel, addr, sizeof(addr));
		fprintf(f, script ? "static %s %s %s\n" :
			"  %s, %s: \"%s\"\n",
			v[i].iface ? v[i].iface : script ? "default" :
			"any interface", addr, v[i].label ? v[i].label : "");
	}
}
