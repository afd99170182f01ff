/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * netlabel.h - libsfnetlabel: the kernel's NetLabel configuration over
 * generic netlink (NLBL_MGMT, NLBL_CIPSOv4, NLBL_UNLBL, version 3).
 *
 * Used by smacknl(8) and by the control filesystem, so that writing its
 * "doi", "ambient" and "netlabel" files takes effect in the kernel.
 *
 * Every call returns 0 or a negative errno; on failure sf_nl_error()
 * holds a sentence for a person ("DOI 3 already exists", "permission
 * denied: needs CAP_NET_ADMIN"), never a bare errno.  Calls that take
 * several kernel steps undo the earlier steps when a later one fails.
 * A handle is not thread safe: one per thread, or a lock around it.
 */
#ifndef SMACKFUSE_NETLABEL_H
#define SMACKFUSE_NETLABEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

struct sf_nl;

int sf_nl_open(struct sf_nl **out, char *errbuf, size_t errlen);
void sf_nl_close(struct sf_nl *nl);
const char *sf_nl_error(const struct sf_nl *nl);
/* NetLabel protocol version of the kernel (3 on every kernel since 2.6.28). */
int sf_nl_version(struct sf_nl *nl, uint32_t *version);

/* ---- CIPSOv4 DOIs ---- */

enum sf_nl_doi_type {
	SF_NL_DOI_TRANS = 1,	/* "standard": level/category tables */
	SF_NL_DOI_PASS = 2,	/* pass-through: what Smack uses */
	SF_NL_DOI_LOCAL = 3,
};
#define SF_NL_TAG_RBITMAP 1	/* restricted bitmap (Smack's tag) */
#define SF_NL_TAG_LOCAL	128	/* local (same host only) */
#define SF_NL_MAXTAGS	5
#define SF_NL_MAXLVL	255	/* CIPSO levels on the wire */
#define SF_NL_MAXCAT	65534	/* CIPSO categories on the wire */

struct sf_nl_pair {
	uint32_t local, remote;
};

struct sf_nl_doi {
	uint32_t doi;
	enum sf_nl_doi_type type;
	uint8_t tags[SF_NL_MAXTAGS];
	unsigned int ntags;
	struct sf_nl_pair *lvls;	/* SF_NL_DOI_TRANS only */
	unsigned int nlvls;
	struct sf_nl_pair *cats;
	unsigned int ncats;
};

int sf_nl_doi_add(struct sf_nl *nl, const struct sf_nl_doi *doi);
int sf_nl_doi_del(struct sf_nl *nl, uint32_t doi);
/* -ENOENT (and a message) if there is no such DOI. */
int sf_nl_doi_get(struct sf_nl *nl, uint32_t doi, struct sf_nl_doi *out);
/* All DOIs, sorted by number, with their tags and tables. */
int sf_nl_doi_list(struct sf_nl *nl, struct sf_nl_doi **out, size_t *n);
void sf_nl_doi_release(struct sf_nl_doi *doi);
void sf_nl_doi_list_free(struct sf_nl_doi *v, size_t n);
bool sf_nl_doi_equal(const struct sf_nl_doi *a, const struct sf_nl_doi *b);

/* ---- domain mappings ---- */

/* One address selector: traffic to @addr/@mask uses @proto (@doi). */
struct sf_nl_sel {
	int family;			/* AF_INET or AF_INET6 */
	uint8_t addr[16], mask[16];	/* network byte order */
	uint32_t proto;			/* SF_NL_PROTO_* */
	uint32_t doi;			/* SF_NL_PROTO_CIPSOV4 */
};

#define SF_NL_PROTO_CIPSOV4	3
#define SF_NL_PROTO_UNLABELED	5
#define SF_NL_PROTO_CALIPSO	7

/*
 * A mapping of an LSM domain (for Smack: a label) or of the default.
 * Without selectors @proto/@doi apply to all traffic of @family
 * (AF_UNSPEC: both).  With selectors they are the per-address rules.
 */
struct sf_nl_map {
	char *domain;			/* NULL: the default mapping */
	int family;			/* AF_UNSPEC, AF_INET, AF_INET6 */
	uint32_t proto;
	uint32_t doi;
	struct sf_nl_sel *sels;
	unsigned int nsels;
};

/* Adds @m; a default mapping that exists is an error (-EEXIST). */
int sf_nl_map_add(struct sf_nl *nl, const struct sf_nl_map *m);
/* Removes the mapping of @domain (NULL: the default, both families). */
int sf_nl_map_del(struct sf_nl *nl, const char *domain);
/* Domain mappings, then the default (IPv4, then IPv6 if distinct). */
int sf_nl_map_list(struct sf_nl *nl, struct sf_nl_map **out, size_t *n);
void sf_nl_map_list_free(struct sf_nl_map *v, size_t n);
/* Parses "A.B.C.D[/N]" or an IPv6 "X::Y[/N]" into @s (not proto/doi). */
int sf_nl_parse_addr(const char *text, struct sf_nl_sel *s);
/* "A.B.C.D/N" form of @s->addr/@s->mask into @buf (64 bytes). */
void sf_nl_format_addr(const struct sf_nl_sel *s, char *buf, size_t size);

/* ---- unlabeled traffic ---- */

int sf_nl_unlbl_accept(struct sf_nl *nl, bool on);
int sf_nl_unlbl_get_accept(struct sf_nl *nl, bool *on);

/* A static label for unlabeled traffic from @addr on @iface. */
struct sf_nl_static {
	char *iface;			/* NULL: the default (any interface) */
	struct sf_nl_sel sel;		/* family, addr, mask */
	char *label;			/* an LSM security context */
};

int sf_nl_static_add(struct sf_nl *nl, const struct sf_nl_static *s);
int sf_nl_static_del(struct sf_nl *nl, const struct sf_nl_static *s);
int sf_nl_static_list(struct sf_nl *nl, struct sf_nl_static **out,
		      size_t *n);
void sf_nl_static_list_free(struct sf_nl_static *v, size_t n);

/* ---- Smack's configuration ---- */

/*
 * sf_nl_smack_setup - what Smack configures at boot, in one step:
 * a pass-through DOI @doi with the restricted bitmap tag, the default
 * IPv4 mapping to it (IPv6 stays unlabeled), and the domain of the ambient
 * label @ambient mapped to unlabeled.  Idempotent; an existing default
 * mapping is replaced.  All or nothing: a failure rolls back.
 * Sets *@changed (may be NULL) when something had to be done.
 */
int sf_nl_smack_setup(struct sf_nl *nl, uint32_t doi, const char *ambient,
		      bool *changed);
/* The smackfs "doi" write: move the setup from DOI @old to @doi. */
int sf_nl_smack_set_doi(struct sf_nl *nl, uint32_t old, uint32_t doi);
/* The smackfs "ambient" write: unlabeled domain @old becomes @ambient. */
int sf_nl_smack_set_ambient(struct sf_nl *nl, const char *old,
			    const char *ambient);

/*
 * The smackfs "netlabel" write: traffic to the IPv4 network @host
 * (family, addr, mask) is unlabeled (a single-label host) or, with
 * @cipso, labelled with DOI @doi; the rest of the default mapping is
 * kept, turned into address selectors.  All or nothing.
 */
int sf_nl_smack_set_host(struct sf_nl *nl, uint32_t doi,
			 const struct sf_nl_sel *host, bool cipso);

/*
 * The whole of what the smackfs files "doi", "ambient" and "netlabel" ask
 * of NetLabel, as one state: the pass-through DOI @doi with the default
 * IPv4 mapping to it (IPv6 unlabeled), the domain @ambient unlabeled, and
 * each host network either unlabeled (a single-label host) or CIPSO
 * (@cipso, the smackfs "-CIPSO" label), as selectors of the default.
 */
struct sf_nl_host {
	struct sf_nl_sel sel;		/* AF_INET addr/mask */
	bool cipso;
};

struct sf_nl_smack {
	uint32_t doi;
	const char *ambient;		/* NULL: leave domains alone */
	const struct sf_nl_host *hosts;
	size_t nhosts;
};

/*
 * sf_nl_smack_sync - make the kernel hold @want, coming from @old (what
 * the caller set before, NULL if nothing): @old's ambient domain loses its
 * mapping and @old's DOI is removed when they differ from @want's.
 * Idempotent.  All or nothing: on failure every change is rolled back and
 * sf_nl_error() says what the kernel refused.
 */
int sf_nl_smack_sync(struct sf_nl *nl, const struct sf_nl_smack *old,
		     const struct sf_nl_smack *want);

/*
 * What of Smack's configuration the kernel holds, read without changing
 * anything: @doi is the pass-through DOI (tag 1 only) that the default
 * IPv4 mapping uses, alone or in its selectors (0: none such, or more
 * than one: Smack has one DOI, so that is not its configuration); @fresh
 * when NetLabel is as the kernel boots (no DOI, only an unlabeled
 * default); @nsels address selectors of the IPv4 default; @ambient the
 * first of @nambient domains mapped to unlabeled (NULL: none).
 */
struct sf_nl_smack_state {
	uint32_t doi;
	bool fresh;
	unsigned int nsels;
	char *ambient;
	unsigned int nambient;
};

int sf_nl_smack_state(struct sf_nl *nl, struct sf_nl_smack_state *st);
void sf_nl_smack_state_release(struct sf_nl_smack_state *st);

/* ---- a kernel that runs Smack itself (smackfs.c) ---- */

/*
 * sf_smack_running - is Smack an active LSM of the running kernel?  Then
 * Smack owns NetLabel (it cannot use address selectors, and keeps its
 * host list itself): change it through smackfs, never directly.  True
 * when in doubt.  SMACKNL_SMACKFS=DIR (tests) means yes, smackfs at DIR.
 */
bool sf_smack_running(void);
/* Is LSM @name active?  1 yes, 0 no, -1 cannot tell (no securityfs). */
int sf_lsm_active(const char *name);
/* One write(2) of @text to smackfs file @file; 0 or -errno, @why says. */
int sf_smackfs_write(const char *file, const char *text, size_t len,
		     char *why, size_t wlen);
/* A read of smackfs file @file into @buf, NUL terminated: length or
 * -errno (@why says). */
ssize_t sf_smackfs_read(const char *file, char *buf, size_t size, char *why,
			size_t wlen);

#endif /* SMACKFUSE_NETLABEL_H */
