/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cipso.h - Smack labels <-> CIPSO levels and categories.
 *
 * Freestanding like the rest of the core (smack.h, sf_env.h only), so the
 * daemon, the tools and the kernel module share one mapping.
 *
 * A label travels as a CIPSO sensitivity level plus a category set, the
 * way mainline Smack does it (smk_netlbl_mls, smack_populate_secattr,
 * smack_from_secattr):
 *   - an explicit cipso2 rule ("label level cat...") wins;
 *   - else a label shorter than SF_CIPSO_BYTES bytes is "direct": level
 *     @direct, and the label's bytes are the category bitmap (bit 0x80 of
 *     byte 0 is category 1);
 *   - else the label is "mapped": level @mapped, and the 4 bytes of its
 *     interned id (little endian) are the bitmap.
 * Decoding goes the other way, over the labels known here only (as
 * smack_from_secattr does); what matches none decodes to "*".
 *
 * Categories are numbered from 1; category N is also bit N of a CIPSO
 * restricted-bitmap tag on the wire (bit 0 = MSB of the first byte).
 */
#ifndef SMACKFUSE_CIPSO_H
#define SMACKFUSE_CIPSO_H

#include "smack.h"

#define SF_CIPSO_DOI_DEFAULT	3	/* SMACK_CIPSO_DOI_DEFAULT */
#define SF_CIPSO_DIRECT_DEFAULT	250	/* SMACK_CIPSO_DIRECT_DEFAULT */
#define SF_CIPSO_MAPPED_DEFAULT	251	/* SMACK_CIPSO_MAPPED_DEFAULT */
#define SF_CIPSO_MAXLEVEL	255	/* SMACK_CIPSO_MAXLEVEL */
#define SF_CIPSO_MAXCAT		184	/* SMACK_CIPSO_MAXCATNUM: 23 * 8 */
#define SF_CIPSO_BYTES		24	/* SMK_CIPSOLEN: bitmap bytes kept */
#define SF_CIPSO_DIGITLEN	4	/* SMK_DIGITLEN: one numeric field */
/* Fixed-width "cipso" records: 24-byte label, level, count, counts. */
#define SF_CIPSO_MIN		(SF_LABELLEN + 2 * SF_CIPSO_DIGITLEN)
#define SF_CIPSO_MAX		(SF_CIPSO_MIN + SF_CIPSO_MAXCAT * SF_CIPSO_DIGITLEN)

/* A level and a category set (categories 1..SF_CIPSO_BYTES * 8). */
struct sf_cipso_attr {
	u8 level;
	u8 cats[SF_CIPSO_BYTES];
};

/* One explicit cipso2 rule. */
struct sf_cipso_rule {
	sf_lid lid;
	struct sf_cipso_attr attr;
};

/*
 * The mapping in force: the smackfs "doi", "direct", "mapped" values and
 * the cipso2 rules.  Caller-owned; sf_cipso_map_set() grows @rules with
 * sf_malloc.  Not locked: callers serialise writers and publish copies.
 */
struct sf_cipso_map {
	u32 doi;
	u8 direct;
	u8 mapped;
	struct sf_cipso_rule *rules;
	u32 nrules, cap;
};

void sf_cipso_map_init(struct sf_cipso_map *map);
void sf_cipso_map_release(struct sf_cipso_map *map);
/* Add or replace the rule of @rule->lid.  Returns 0 or -ENOMEM. */
int sf_cipso_map_set(struct sf_cipso_map *map,
		     const struct sf_cipso_rule *rule);

/* Category helpers: @cat is 1..SF_CIPSO_BYTES * 8; others are ignored. */
void sf_cipso_cat_set(struct sf_cipso_attr *attr, unsigned int cat);
bool sf_cipso_cat_test(const struct sf_cipso_attr *attr, unsigned int cat);
/* Next category >= @from, or 0 when there is none. */
unsigned int sf_cipso_cat_next(const struct sf_cipso_attr *attr,
			       unsigned int from);

/*
 * sf_cipso_encode - the level and categories that carry label @lid.
 * @name/@len is the label's text (from sf_label_name).  Returns 0.
 */
int sf_cipso_encode(const struct sf_cipso_map *map, sf_lid lid,
		    const char *name, size_t len, struct sf_cipso_attr *attr);

/*
 * sf_cipso_decode - the label a received level and category set carries.
 * Writes the NUL-terminated label into @buf (SF_LABEL_MAX + 1 bytes) and
 * returns 0, or writes "*" and returns -ENOENT when no label known here
 * matches (an unknown level, a mapped id never interned here, a direct
 * bitmap that is not a label of @labels), as mainline Smack does.
 */
int sf_cipso_decode(const struct sf_cipso_map *map,
		    const struct sf_labels *labels,
		    const struct sf_cipso_attr *attr, char *buf);

/*
 * The text formats of smackfs "cipso2" and "cipso", one rule per call as
 * mainline takes one rule per write.  cipso2 is "label L N C1 C2 ..."
 * where L, N and each C fill a SF_CIPSO_DIGITLEN-byte field ("%-4d" as
 * libsmack writes them; a trailing newline is allowed).  cipso is the same
 * with the label in a fixed SF_LABELLEN-byte field and no newline.
 * All-or-nothing: @rule is written only on success; -EINVAL with @err,
 * or, as smackfs says it, -EOVERFLOW (with @err) when a cipso2 record
 * ends before the fields it announces.
 * The label is interned into @labels.
 */
int sf_parse_cipso2(struct sf_labels *labels, const char *buf, size_t len,
		    struct sf_cipso_rule *rule, struct sf_error *err);
int sf_parse_cipso(struct sf_labels *labels, const char *buf, size_t len,
		   struct sf_cipso_rule *rule, struct sf_error *err);

/*
 * Reading "cipso2"/"cipso": "label lvl/c1,c2\n" ("%s %3d" then "/%d" and
 * ",%d") for every interned label in id order, with the encoding in
 * force.  "cipso" skips labels of SF_LABELLEN bytes or more.  snprintf
 * style: returns the full length needed.
 */
size_t sf_print_cipso2(const struct sf_labels *labels,
		       const struct sf_cipso_map *map, char *buf, size_t size);
size_t sf_print_cipso(const struct sf_labels *labels,
		      const struct sf_cipso_map *map, char *buf, size_t size);

/*
 * The IPv4 CIPSO option (RFC draft / FIPS 188) with one restricted
 * bitmap tag (type 1), as the kernel's cipso_v4_gentag_rbm writes it:
 * type 134, length, DOI, then tag 1, tag length, 0, level, bitmap trimmed
 * after its last non-zero byte.  Returns the option length (<= 40) or
 * -ENOSPC if @size is too small.
 */
#define SF_CIPSO_OPT_MAX	40
int sf_cipso_option_build(u32 doi, const struct sf_cipso_attr *attr,
			  u8 *buf, size_t size);
/*
 * Find a CIPSO option in raw IPv4 options (@opts/@len, as IP_RECVOPTS or
 * IP_OPTIONS give them) and read its restricted bitmap tag.  Returns 0,
 * -ENOENT if there is no CIPSO option or no tag 1, -EINVAL if malformed,
 * -ERANGE if it carries a category Smack never sends (0, above 192).
 */
int sf_cipso_option_parse(const u8 *opts, size_t len, u32 *doi,
			  struct sf_cipso_attr *attr);

#endif /* SMACKFUSE_CIPSO_H */
