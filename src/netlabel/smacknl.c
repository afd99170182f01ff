// SPDX-License-Identifier: GPL-2.0-only
/*
 * smacknl - configure the kernel's NetLabel for Smack (see smacknl(8)).
 *
 *   smacknl [-s] smack-setup [doi N] [ambient LABEL]
 *   smacknl [-s] doi add pass|local N [tags T,...]
 *   smacknl [-s] doi add standard N levels L=R,... [categories L=R,...]
 *                [tags T,...]
 *   smacknl [-s] doi del N | doi list [N]
 *   smacknl [-s] map add default|DOMAIN [address A[/N]] cipso N|unlabeled
 *   smacknl [-s] map del default|DOMAIN | map list
 *   smacknl [-s] unlbl accept on|off | unlbl list
 *   smacknl [-s] unlbl add default|IFACE address A[/N] label LABEL
 *   smacknl [-s] unlbl del default|IFACE address A[/N]
 *   smacknl [-s] host A[/N] cipso|unlabeled|label LABEL [doi N]
 *   smacknl [-s] list | version
 *   smacknl [-s] encode|probe [doi N] [direct N] [mapped N]
 *                [cipso2 RULE]... LABEL...
 *   smacknl decode [same options] HEX [LABEL...]
 *
 * -s/--script: listings one record per line (see show.c).  Exit status
 * 0 on success, 1 when the kernel refused (message on stderr), 2 on a
 * usage error.
 *
 * On a kernel that runs Smack (sf_smack_running), smackfs owns NetLabel:
 * smack-setup and host go through /sys/fs/smackfs, what has no smackfs
 * equivalent is refused, and the raw doi/map/unlbl changes need -f.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kmod_abi.h"
#include "netlabel.h"
#include "probe.h"
#include "show.h"

#define EX_USAGE 2

static const char *prog = "smacknl";

static int usage(const char *why, const char *arg)
{
	if (why)
		fprintf(stderr, "%s: %s%s%s\n", prog, why, arg ? ": " : "",
			arg ? arg : "");
	fprintf(stderr,
		"usage: %s [-s|--script] [-f|--force] COMMAND\n"
		"  smack-setup [doi N] [ambient LABEL]\n"
		"  doi add pass|local N [tags T,...]\n"
		"  doi add standard N levels L=R,... [categories L=R,...] "
		"[tags T,...]\n"
		"  doi del N\n"
		"  doi list [N]\n"
		"  map add default|DOMAIN [address A[/N]] cipso N|unlabeled\n"
		"  map del default|DOMAIN\n"
		"  map list\n"
		"  unlbl accept on|off\n"
		"  unlbl add default|IFACE address A[/N] label LABEL\n"
		"  unlbl del default|IFACE address A[/N]\n"
		"  unlbl list\n"
		"  host A[/N] cipso|unlabeled|label LABEL [doi N]\n"
		"  list\n"
		"  version\n"
		"  encode [doi N] [direct N] [mapped N] [cipso2 RULE]... "
		"LABEL...\n"
		"  probe [doi N] [direct N] [mapped N] [cipso2 RULE]... "
		"LABEL\n"
		"  decode [doi N] [direct N] [mapped N] [cipso2 RULE]... "
		"HEX [LABEL...]\n", prog);
	return EX_USAGE;
}

static int kernel_error(struct sf_nl *nl)
{
	fprintf(stderr, "%s: %s\n", prog, sf_nl_error(nl));
	return 1;
}

/* A decimal number in [min, max]; false if @s is anything else. */
static bool number(const char *s, unsigned long min, unsigned long max,
		   uint32_t *out)
{
	unsigned long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

/* "T,T,..." */
static bool parse_tags(const char *s, struct sf_nl_doi *d)
{
	char *copy = strdup(s), *tok, *save = NULL;
	uint32_t t;
	bool good = copy != NULL;

	d->ntags = 0;
	for (tok = good ? strtok_r(copy, ",", &save) : NULL; tok && good;
	     tok = strtok_r(NULL, ",", &save)) {
		good = d->ntags < SF_NL_MAXTAGS && number(tok, 1, 255, &t);
		if (good)
			d->tags[d->ntags++] = t;
	}
	free(copy);
	return good && d->ntags > 0;
}

/* "L=R,L=R,..." */
static bool parse_pairs(const char *s, unsigned long max,
			struct sf_nl_pair **out, unsigned int *n)
{
	char *copy = strdup(s), *tok, *save = NULL, *eq;
	struct sf_nl_pair *v = NULL, *grown;
	bool good = copy != NULL;
	unsigned int cnt = 0;

	for (tok = good ? strtok_r(copy, ",", &save) : NULL; tok && good;
	     tok = strtok_r(NULL, ",", &save)) {
		eq = strchr(tok, '=');
		grown = realloc(v, (cnt + 1) * sizeof(*v));
		good = eq && grown;
		if (!good)
			break;
		v = grown;
		*eq = '\0';
		good = number(tok, 0, max, &v[cnt].local) &&
		       number(eq + 1, 0, max, &v[cnt].remote);
		cnt++;
	}
	free(copy);
	if (!good || cnt == 0) {
		free(v);
		return false;
	}
	*out = v;
	*n = cnt;
	return true;
}

static int cmd_doi_add(struct sf_nl *nl, int argc, char **argv)
{
	struct sf_nl_doi d = { 0 };
	int i, rc;

	if (argc < 2)
		return usage("doi add: type and number expected", NULL);
	if (!strcmp(argv[0], "pass"))
		d.type = SF_NL_DOI_PASS;
	else if (!strcmp(argv[0], "standard") || !strcmp(argv[0], "trans"))
		d.type = SF_NL_DOI_TRANS;
	else if (!strcmp(argv[0], "local"))
		d.type = SF_NL_DOI_LOCAL;
	else
		return usage("doi add: type is pass, standard or local",
			     argv[0]);
	if (!number(argv[1], 1, UINT32_MAX, &d.doi))
		return usage("doi add: bad DOI number", argv[1]);
	d.tags[0] = d.type == SF_NL_DOI_LOCAL ? SF_NL_TAG_LOCAL :
		    SF_NL_TAG_RBITMAP;
	d.ntags = 1;
	rc = EX_USAGE;
	for (i = 2; i < argc; i += 2) {
		const char *key = argv[i], *val = argv[i + 1];

		if (!val) {
			usage("missing value after", key);
			goto out;
		}
		if (!strcmp(key, "tags") ? !parse_tags(val, &d) :
		    !strcmp(key, "levels") && d.type == SF_NL_DOI_TRANS ?
		    !parse_pairs(val, SF_NL_MAXLVL, &d.lvls, &d.nlvls) :
		    !strcmp(key, "categories") && d.type == SF_NL_DOI_TRANS ?
		    !parse_pairs(val, SF_NL_MAXCAT, &d.cats, &d.ncats) :
		    true) {
			usage("doi add: bad argument", key);
			goto out;
		}
	}
	if (d.type == SF_NL_DOI_TRANS && !d.nlvls) {
		usage("doi add standard: levels L=R,... required", NULL);
		goto out;
	}
	rc = sf_nl_doi_add(nl, &d) ? kernel_error(nl) : 0;
out:
	sf_nl_doi_release(&d);
	return rc;
}

static int cmd_doi(struct sf_nl *nl, int argc, char **argv, bool script)
{
	struct sf_nl_doi *v, one;
	uint32_t doi;
	size_t n;

	if (argc < 1)
		return usage("doi: add, del or list", NULL);
	if (!strcmp(argv[0], "add"))
		return cmd_doi_add(nl, argc - 1, argv + 1);
	if (!strcmp(argv[0], "del")) {
		if (argc != 2 || !number(argv[1], 1, UINT32_MAX, &doi))
			return usage("doi del: one DOI number", argv[1]);
		return sf_nl_doi_del(nl, doi) ? kernel_error(nl) : 0;
	}
	if (strcmp(argv[0], "list") || argc > 2)
		return usage("doi: unknown command", argv[0]);
	if (argc == 2) {
		if (!number(argv[1], 1, UINT32_MAX, &doi))
			return usage("doi list: bad DOI number", argv[1]);
		if (sf_nl_doi_get(nl, doi, &one))
			return kernel_error(nl);
		show_dois(stdout, &one, 1, script);
		sf_nl_doi_release(&one);
		return 0;
	}
	if (sf_nl_doi_list(nl, &v, &n))
		return kernel_error(nl);
	show_dois(stdout, v, n, script);
	sf_nl_doi_list_free(v, n);
	return 0;
}

/* "cipso N" or "unlabeled" at @argv; returns words used, 0 if bad. */
static int parse_target(char **argv, uint32_t *proto, uint32_t *doi)
{
	if (argv[0] && !strcmp(argv[0], "unlabeled")) {
		*proto = SF_NL_PROTO_UNLABELED;
		return 1;
	}
	if (argv[0] && !strcmp(argv[0], "cipso") &&
	    number(argv[1], 1, UINT32_MAX, doi)) {
		*proto = SF_NL_PROTO_CIPSOV4;
		return 2;
	}
	return 0;
}

static int cmd_map(struct sf_nl *nl, int argc, char **argv, bool script)
{
	struct sf_nl_map m = { 0 }, *v;
	struct sf_nl_sel sel;
	size_t n;
	int at = 2, used;

	if (argc >= 1 && !strcmp(argv[0], "list") && argc == 1) {
		if (sf_nl_map_list(nl, &v, &n))
			return kernel_error(nl);
		show_maps(stdout, v, n, script);
		sf_nl_map_list_free(v, n);
		return 0;
	}
	if (argc < 2)
		return usage("map: add, del or list", NULL);
	m.domain = strcmp(argv[1], "default") ? argv[1] : NULL;
	if (!strcmp(argv[0], "del")) {
		if (argc != 2)
			return usage("map del: default or one domain", NULL);
		return sf_nl_map_del(nl, m.domain) ? kernel_error(nl) : 0;
	}
	if (strcmp(argv[0], "add"))
		return usage("map: unknown command", argv[0]);
	if (at + 1 < argc && !strcmp(argv[at], "address")) {
		if (sf_nl_parse_addr(argv[at + 1], &sel))
			return usage("map add: bad address", argv[at + 1]);
		m.sels = &sel;
		m.nsels = 1;
		at += 2;
	}
	used = parse_target(argv + at, &m.proto, &m.doi);
	if (!used || at + used != argc)
		return usage("map add: expected \"cipso N\" or \"unlabeled\"",
			     at < argc ? argv[at] : NULL);
	if (m.nsels) {
		sel.proto = m.proto;
		sel.doi = m.doi;
	}
	m.family = m.proto == SF_NL_PROTO_CIPSOV4 ? AF_INET : AF_UNSPEC;
	return sf_nl_map_add(nl, &m) ? kernel_error(nl) : 0;
}

static int cmd_unlbl(struct sf_nl *nl, int argc, char **argv, bool script)
{
	struct sf_nl_static s = { 0 }, *v;
	bool on;
	size_t n;
	int rc;

	if (argc == 2 && !strcmp(argv[0], "accept")) {
		if (strcmp(argv[1], "on") && strcmp(argv[1], "off"))
			return usage("unlbl accept: on or off", argv[1]);
		return sf_nl_unlbl_accept(nl, !strcmp(argv[1], "on")) ?
		       kernel_error(nl) : 0;
	}
	if (argc == 1 && !strcmp(argv[0], "list")) {
		if (sf_nl_unlbl_get_accept(nl, &on) ||
		    sf_nl_static_list(nl, &v, &n))
			return kernel_error(nl);
		show_unlbl(stdout, on, v, n, script);
		sf_nl_static_list_free(v, n);
		return 0;
	}
	if (argc < 4 || (strcmp(argv[0], "add") && strcmp(argv[0], "del")) ||
	    strcmp(argv[2], "address"))
		return usage("unlbl: accept, add, del or list", NULL);
	s.iface = strcmp(argv[1], "default") ? argv[1] : NULL;
	if (sf_nl_parse_addr(argv[3], &s.sel))
		return usage("unlbl: bad address", argv[3]);
	if (!strcmp(argv[0], "add")) {
		if (argc != 6 || strcmp(argv[4], "label"))
			return usage("unlbl add: ... label LABEL", NULL);
		s.label = argv[5];
		rc = sf_nl_static_add(nl, &s);
	} else {
		if (argc != 4)
			return usage("unlbl del: too many arguments", NULL);
		rc = sf_nl_static_del(nl, &s);
	}
	return rc ? kernel_error(nl) : 0;
}

/* Make smackfs file @file read @want (a doi or an ambient label). */
static int smackfs_set(const char *file, const char *want, bool *changed)
{
	char cur[300], why[512];

	if (sf_smackfs_read(file, cur, sizeof(cur), why, sizeof(why)) < 0) {
		fprintf(stderr, "%s: %s\n", prog, why);
		return -1;
	}
	cur[strcspn(cur, "\n")] = '\0';	/* ambient reads "label\n" */
	if (!strcmp(cur, want))
		return 0;
	if (sf_smackfs_write(file, want, strlen(want), why, sizeof(why))) {
		fprintf(stderr, "%s: smackfs refused %s \"%s\": %s\n", prog,
			file, want, why);
		return -1;
	}
	*changed = true;
	return 0;
}

/*
 * smack-setup on a kernel that runs Smack: Smack set NetLabel up at boot;
 * the DOI and the ambient label are its smackfs "doi" and "ambient".
 */
static int smack_setup(uint32_t doi, const char *ambient, bool *changed)
{
	char num[16];

	*changed = false;
	snprintf(num, sizeof(num), "%u", doi);
	if (smackfs_set("doi", num, changed))
		return -1;
	return smackfs_set("ambient", ambient, changed);
}

/* smackfuse.ko's control files (kmod_abi.h), when the module is loaded. */
static int kmod_write(const char *file, const char *value)
{
	char path[64];
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), SF_KMOD_DIR "/%s", file);
	f = fopen(path, "w");
	if (!f)
		return -1;
	rc = fputs(value, f) < 0;
	rc |= fclose(f) != 0;
	return rc ? -1 : 0;
}

/*
 * Tell smackfuse.ko the DOI and the ambient label too: its doi file, once
 * written, makes labelled sockets send CIPSO options, which the kernel's
 * NetLabel now accepts (a kernel without the DOI drops them).
 */
static int kmod_setup(uint32_t doi, const char *ambient)
{
	char num[16];

	if (access(SF_KMOD_DIR, F_OK))
		return 0;	/* no module: nothing to tell */
	snprintf(num, sizeof(num), "%u", doi);
	if (kmod_write(SF_KMOD_AMBIENT, ambient) ||
	    kmod_write(SF_KMOD_DOI, num)) {
		fprintf(stderr, "%s: smackfuse.ko refused the DOI or the ambient label (%s/%s, %s): %s\n",
			prog, SF_KMOD_DIR, SF_KMOD_DOI, SF_KMOD_AMBIENT,
			strerror(errno));
		return -1;
	}
	return 0;
}

static int cmd_setup(struct sf_nl *nl, int argc, char **argv, bool script)
{
	uint32_t doi = 3;
	const char *ambient = "_";
	bool changed;
	int i;

	for (i = 0; i < argc; i += 2) {
		if (i + 1 >= argc)
			return usage("smack-setup: missing value after",
				     argv[i]);
		if (!strcmp(argv[i], "doi")) {
			if (!number(argv[i + 1], 1, UINT32_MAX, &doi))
				return usage("smack-setup: bad DOI",
					     argv[i + 1]);
		} else if (!strcmp(argv[i], "ambient")) {
			ambient = argv[i + 1];
		} else {
			return usage("smack-setup: unknown argument", argv[i]);
		}
	}
	if (!nl) {
		if (smack_setup(doi, ambient, &changed))
			return 1;
	} else if (sf_nl_smack_setup(nl, doi, ambient, &changed)) {
		return kernel_error(nl);
	} else if (kmod_setup(doi, ambient)) {
		return 1;
	}
	if (!script && !nl)
		printf("%s: smackfs doi %u, ambient \"%s\" (this kernel runs "
		       "Smack, which configures NetLabel itself)\n",
		       changed ? "changed" : "unchanged", doi, ambient);
	else if (!script)
		printf("%s: DOI %u pass-through, default IPv4 mapping to it, "
		       "ambient \"%s\" unlabeled\n",
		       changed ? "configured" : "already configured", doi,
		       ambient);
	else
		printf("%s\n", changed ? "changed" : "unchanged");
	return 0;
}

/* "host" arguments: A[/N] cipso|unlabeled|label LABEL [doi N] */
struct host_args {
	struct sf_nl_sel sel;
	const char *kind;	/* "cipso", "unlabeled" or "label" */
	const char *label;	/* with "label" */
	uint32_t doi;
	bool doi_given;
};

static bool parse_host(int argc, char **argv, struct host_args *h)
{
	int at = 2;

	memset(h, 0, sizeof(*h));
	h->doi = 3;
	if (argc < 2 || sf_nl_parse_addr(argv[0], &h->sel) ||
	    h->sel.family != AF_INET)
		return false;
	h->kind = argv[1];
	if (!strcmp(h->kind, "label")) {
		if (argc < 3 || !argv[2][0] || argv[2][0] == '-')
			return false;
		h->label = argv[2];
		at = 3;
	} else if (strcmp(h->kind, "cipso") && strcmp(h->kind, "unlabeled")) {
		return false;
	}
	if (argc == at)
		return true;
	h->doi_given = true;
	return argc == at + 2 && !strcmp(argv[at], "doi") &&
	       number(argv[at + 1], 1, UINT32_MAX, &h->doi);
}

/*
 * host on a kernel that runs Smack: the smackfs "netlabel" write itself,
 * so that Smack's own host list changes and NetLabel only as Smack does
 * it.  A host without a label has no smackfs form: refused.
 */
static int smack_host(const struct host_args *h)
{
	char line[256 + 80], addr[64], why[512], cur[32];
	uint32_t doi;

	if (!strcmp(h->kind, "unlabeled")) {
		fprintf(stderr, "%s: this kernel runs Smack, whose host list "
			"gives each single-label host a label: use \"host "
			"A/N label LABEL\" (smackfs netlabel \"A/N LABEL\"); "
			"nothing was changed\n", prog);
		return 1;
	}
	if (h->doi_given) {
		if (sf_smackfs_read("doi", cur, sizeof(cur), why,
				    sizeof(why)) < 0) {
			fprintf(stderr, "%s: %s\n", prog, why);
			return 1;
		}
		if (!number(strtok(cur, "\n"), 0, UINT32_MAX, &doi) ||
		    doi != h->doi) {
			fprintf(stderr, "%s: this kernel runs Smack, whose "
				"DOI is %s, not %u: write smackfs doi first; "
				"nothing was changed\n", prog, cur, h->doi);
			return 1;
		}
	}
	sf_nl_format_addr(&h->sel, addr, sizeof(addr));
	snprintf(line, sizeof(line), "%s %s", addr,
		 h->label ? h->label : "-CIPSO");
	if (sf_smackfs_write("netlabel", line, strlen(line), why,
			     sizeof(why))) {
		fprintf(stderr, "%s: smackfs refused \"%s\": %s\n", prog,
			line, why);
		return 1;
	}
	return 0;
}

/*
 * host A/N label LABEL without Smack: what smackfs does, as far as
 * NetLabel can hold it: traffic to A/N leaves unlabeled, and unlabeled
 * traffic from A/N arrives with LABEL (a static label, which the running
 * LSM must know).  The static label goes first: if the kernel cannot
 * take it, nothing has changed.
 */
static int label_host(struct sf_nl *nl, const struct host_args *h)
{
	struct sf_nl_static st = { .sel = h->sel, .label = (char *)h->label };
	struct sf_nl_static *v, *old = NULL;
	size_t n, i;
	int rc = 1;

	if (sf_nl_static_list(nl, &v, &n))
		return kernel_error(nl);
	for (i = 0; i < n; i++)	/* the label it replaces, if any */
		if (!v[i].iface && v[i].sel.family == AF_INET &&
		    !memcmp(v[i].sel.addr, st.sel.addr, 4) &&
		    !memcmp(v[i].sel.mask, st.sel.mask, 4))
			old = &v[i];
	if (old && sf_nl_static_del(nl, old)) {
		kernel_error(nl);
		goto out;
	}
	if (sf_nl_static_add(nl, &st)) {
		kernel_error(nl);
		goto out_restore;
	}
	if (sf_nl_smack_set_host(nl, h->doi, &h->sel, false)) {
		kernel_error(nl);
		sf_nl_static_del(nl, &st);
		goto out_restore;
	}
	rc = 0;
	goto out;
out_restore:
	if (old)
		sf_nl_static_add(nl, old);
out:
	sf_nl_static_list_free(v, n);
	return rc;
}

/* host A[/N] cipso|unlabeled|label LABEL [doi N]: smackfs "netlabel" */
static int cmd_host(struct sf_nl *nl, int argc, char **argv)
{
	struct host_args h;

	if (!parse_host(argc, argv, &h))
		return usage("host: A.B.C.D[/N] cipso|unlabeled|label LABEL "
			     "[doi N]", NULL);
	if (!nl)
		return smack_host(&h);
	if (h.label)
		return label_host(nl, &h);
	return sf_nl_smack_set_host(nl, h.doi, &h.sel,
				    !strcmp(h.kind, "cipso")) ?
	       kernel_error(nl) : 0;
}

static int cmd_list(struct sf_nl *nl, bool script)
{
	struct sf_nl_doi *d;
	struct sf_nl_map *m;
	struct sf_nl_static *s;
	size_t nd, nm, ns;
	bool on;

	if (sf_nl_doi_list(nl, &d, &nd))
		return kernel_error(nl);
	if (sf_nl_map_list(nl, &m, &nm)) {
		sf_nl_doi_list_free(d, nd);
		return kernel_error(nl);
	}
	if (sf_nl_unlbl_get_accept(nl, &on) || sf_nl_static_list(nl, &s, &ns)) {
		sf_nl_doi_list_free(d, nd);
		sf_nl_map_list_free(m, nm);
		return kernel_error(nl);
	}
	show_dois(stdout, d, nd, script);
	show_maps(stdout, m, nm, script);
	show_unlbl(stdout, on, s, ns, script);
	sf_nl_doi_list_free(d, nd);
	sf_nl_map_list_free(m, nm);
	sf_nl_static_list_free(s, ns);
	return 0;
}

/* Does "CMD ARGV..." change NetLabel (rather than list it)? */
static bool changes(int argc, char **argv, const char *cmd)
{
	if (!strcmp(cmd, "list") || !strcmp(cmd, "version"))
		return false;
	return !(argc >= 1 && !strcmp(argv[0], "list"));
}

static int smack_refuse(const char *cmd)
{
	fprintf(stderr, "%s: %s: this kernel runs Smack, which keeps NetLabel "
		"in step with smackfs and cannot use changes made under it "
		"(its labelled traffic would leave unlabeled); use smackfs "
		"doi, ambient and netlabel (or smacknl smack-setup, host), or "
		"-f to change NetLabel anyway; nothing was changed\n", prog,
		cmd);
	return 1;
}

int main(int argc, char **argv)
{
	char err[256];
	struct sf_nl *nl;
	bool script = false, force = false;
	uint32_t version;
	const char *cmd;
	int rc;

	while (argc > 1 && argv[1][0] == '-') {
		if (!strcmp(argv[1], "-s") || !strcmp(argv[1], "--script"))
			script = true;
		else if (!strcmp(argv[1], "-f") || !strcmp(argv[1], "--force"))
			force = true;
		else if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
			return usage(NULL, NULL) == EX_USAGE ? 0 : 1;
		else
			return usage("unknown option", argv[1]);
		argc--;
		argv++;
	}
	if (argc < 2)
		return usage("a command is expected", NULL);
	cmd = argv[1];
	/* no netlink needed: the mapping, and the kernel's IP layer */
	if (!strcmp(cmd, "encode"))
		return cmd_encode(argc - 2, argv + 2, script);
	if (!strcmp(cmd, "probe"))
		return cmd_probe(argc - 2, argv + 2, script);
	if (!strcmp(cmd, "decode"))
		return cmd_decode(argc - 2, argv + 2, script);
	if (strcmp(cmd, "smack-setup") && strcmp(cmd, "doi") &&
	    strcmp(cmd, "map") && strcmp(cmd, "unlbl") && strcmp(cmd, "host") &&
	    strcmp(cmd, "list") && strcmp(cmd, "version"))
		return usage("unknown command", cmd);
	if (sf_smack_running()) {
		/* smackfs owns NetLabel here: its files, or nothing */
		if (!strcmp(cmd, "smack-setup"))
			return cmd_setup(NULL, argc - 2, argv + 2, script);
		if (!strcmp(cmd, "host"))
			return cmd_host(NULL, argc - 2, argv + 2);
		if (!force && changes(argc - 2, argv + 2, cmd))
			return smack_refuse(cmd);
	}
	if (sf_nl_open(&nl, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return 1;
	}
	argc -= 2;
	argv += 2;
	if (!strcmp(cmd, "smack-setup"))
		rc = cmd_setup(nl, argc, argv, script);
	else if (!strcmp(cmd, "doi"))
		rc = cmd_doi(nl, argc, argv, script);
	else if (!strcmp(cmd, "map"))
		rc = cmd_map(nl, argc, argv, script);
	else if (!strcmp(cmd, "unlbl"))
		rc = cmd_unlbl(nl, argc, argv, script);
	else if (!strcmp(cmd, "host"))
		rc = cmd_host(nl, argc, argv);
	else if (!strcmp(cmd, "list"))
		rc = argc ? usage("list takes no argument", NULL) :
		     cmd_list(nl, script);
	else if (sf_nl_version(nl, &version))
		rc = kernel_error(nl);
	else
		rc = printf("%u\n", version) < 0;
	sf_nl_close(nl);
	return rc;
}
