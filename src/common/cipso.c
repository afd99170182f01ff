// SPDX-License-Identifier: GPL-2.0-only
/*
 * cipso.c - Smack labels <-> CIPSO levels and categories, the smackfs
 * "cipso2"/"cipso" text formats, and the IPv4 CIPSO option.
 *
 * Freestanding: only smack.h / sf_env.h.  See cipso.h for the model.
 */
#include "cipso.h"
#include "core.h"

#define CIPSO_OPT_TYPE		134	/* IPOPT_CIPSO */
#define CIPSO_HDR_LEN		6	/* type, length, 4-byte DOI */
#define CIPSO_TAG_RBITMAP	1
#define CIPSO_TAG_RBM_BLEN	4	/* type, length, alignment, level */
#define CIPSO_RBM_MAXBYTES	30	/* bitmap bytes: categories 0..239 */

void sf_cipso_map_init(struct sf_cipso_map *map)
{
	memset(map, 0, sizeof(*map));
	map->doi = SF_CIPSO_DOI_DEFAULT;
	map->direct = SF_CIPSO_DIRECT_DEFAULT;
	map->mapped = SF_CIPSO_MAPPED_DEFAULT;
}

void sf_cipso_map_release(struct sf_cipso_map *map)
{
	sf_free(map->rules);
	map->rules = NULL;
	map->nrules = 0;
	map->cap = 0;
}

static struct sf_cipso_rule *rule_of(const struct sf_cipso_map *map,
				     sf_lid lid)
{
	u32 i;

	for (i = 0; i < map->nrules; i++)
		if (map->rules[i].lid == lid)
			return &map->rules[i];
	return NULL;
}

int sf_cipso_map_set(struct sf_cipso_map *map,
		     const struct sf_cipso_rule *rule)
{
	struct sf_cipso_rule *r = rule_of(map, rule->lid);
	struct sf_cipso_rule *grown;
	u32 cap;

	if (r) {
		*r = *rule;
		return 0;
	}
	if (map->nrules == map->cap) {
		cap = map->cap ? map->cap * 2 : 8;
		grown = sf_malloc(cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		if (map->nrules)
			memcpy(grown, map->rules,
			       map->nrules * sizeof(*grown));
		sf_free(map->rules);
		map->rules = grown;
		map->cap = cap;
	}
	map->rules[map->nrules++] = *rule;
	return 0;
}

void sf_cipso_cat_set(struct sf_cipso_attr *attr, unsigned int cat)
{
	if (cat == 0 || cat > SF_CIPSO_BYTES * 8)
		return;
	attr->cats[(cat - 1) / 8] |= 0x80 >> ((cat - 1) % 8);
}

bool sf_cipso_cat_test(const struct sf_cipso_attr *attr, unsigned int cat)
{
	if (cat == 0 || cat > SF_CIPSO_BYTES * 8)
		return false;
	return attr->cats[(cat - 1) / 8] & (0x80 >> ((cat - 1) % 8));
}

unsigned int sf_cipso_cat_next(const struct sf_cipso_attr *attr,
			       unsigned int from)
{
	unsigned int cat;

	for (cat = from ? from : 1; cat <= SF_CIPSO_BYTES * 8; cat++)
		if (sf_cipso_cat_test(attr, cat))
			return cat;
	return 0;
}

static bool attr_equal(const struct sf_cipso_attr *a,
		       const struct sf_cipso_attr *b)
{
	return a->level == b->level &&
	       memcmp(a->cats, b->cats, sizeof(a->cats)) == 0;
}

/**
 * sf_cipso_encode - the CIPSO level and categories of a label
 * @map: the mapping in force
 * @lid: the label's interned id (used by the mapped form)
 * @name: the label's text, @len bytes
 * @attr: filled with the level and categories
 *
 * The order of mainline smack_populate_secattr(), with cipso2 rules first
 * (a cipso2 write replaces the label's netlabel attributes).  Returns 0.
 */
int sf_cipso_encode(const struct sf_cipso_map *map, sf_lid lid,
		    const char *name, size_t len, struct sf_cipso_attr *attr)
{
	const struct sf_cipso_rule *r = rule_of(map, lid);

	if (r) {
		*attr = r->attr;
		return 0;
	}
	memset(attr, 0, sizeof(*attr));
	if (len < SF_CIPSO_BYTES) {
		attr->level = map->direct;
		memcpy(attr->cats, name, len);
		return 0;
	}
	attr->level = map->mapped;
	attr->cats[0] = lid & 0xff;
	attr->cats[1] = (lid >> 8) & 0xff;
	attr->cats[2] = (lid >> 16) & 0xff;
	attr->cats[3] = (lid >> 24) & 0xff;
	return 0;
}

/*
 * The direct form: bytes up to the first NUL, zeros after, a label known
 * here.  Mainline smack_from_secattr() only looks received attributes up
 * in its list of known labels; it never makes a label from the bytes, so
 * a peer cannot create labels on this host by sending them.
 */
static bool decode_direct(const struct sf_cipso_attr *attr,
			  const struct sf_labels *labels, char *buf)
{
	size_t len = 0, i;

	while (len < SF_CIPSO_BYTES && attr->cats[len])
		len++;
	if (len == 0 || len >= SF_CIPSO_BYTES)
		return false;
	for (i = len; i < SF_CIPSO_BYTES; i++)
		if (attr->cats[i])
			return false;
	if (sf_label_find(labels, (const char *)attr->cats, len) ==
	    SF_LID_INVALID)
		return false;
	memcpy(buf, attr->cats, len);
	buf[len] = '\0';
	return true;
}

static bool decode_mapped(const struct sf_cipso_attr *attr,
			  const struct sf_labels *labels, char *buf)
{
	const char *name;
	sf_lid lid;
	size_t i, len;

	for (i = 4; i < SF_CIPSO_BYTES; i++)
		if (attr->cats[i])
			return false;
	lid = (u32)attr->cats[0] | (u32)attr->cats[1] << 8 |
	      (u32)attr->cats[2] << 16 | (u32)attr->cats[3] << 24;
	name = sf_label_name(labels, lid);
	if (!name)
		return false;
	len = strlen(name);
	if (len < SF_CIPSO_BYTES)	/* such a label travels direct */
		return false;
	memcpy(buf, name, len + 1);
	return true;
}

/**
 * sf_cipso_decode - the label carried by a level and category set
 * @map: the mapping in force
 * @labels: the intern table (names of cipso2 and mapped labels)
 * @attr: what was received
 * @buf: SF_LABEL_MAX + 1 bytes for the label
 *
 * cipso2 rules first, then the direct and the mapped forms, each only if
 * no cipso2 rule has taken that label over.  Returns 0, or -ENOENT with
 * "*" in @buf: a level and categories no known label carries arrive as
 * the star label, as in mainline smack_from_secattr() (which gives "@"
 * instead to a receiving socket labelled "*"; that is the caller's).
 */
int sf_cipso_decode(const struct sf_cipso_map *map,
		    const struct sf_labels *labels,
		    const struct sf_cipso_attr *attr, char *buf)
{
	const char *name;
	u32 i;

	for (i = 0; i < map->nrules; i++) {
		if (!attr_equal(&map->rules[i].attr, attr))
			continue;
		name = sf_label_name(labels, map->rules[i].lid);
		if (!name)
			break;
		memcpy(buf, name, strlen(name) + 1);
		return 0;
	}
	if (attr->level == map->direct && decode_direct(attr, labels, buf) &&
	    !rule_of(map, sf_label_find(labels, buf, strlen(buf))))
		return 0;
	if (attr->level == map->mapped && decode_mapped(attr, labels, buf) &&
	    !rule_of(map, sf_label_find(labels, buf, strlen(buf))))
		return 0;
	buf[0] = '*';
	buf[1] = '\0';
	return -ENOENT;
}

/* ---- text formats ---- */

/* Rules are one line: every error is on line 1. */
#define fail(err, column, ...) \
	(sf_err(err, 1, column, __VA_ARGS__), -EINVAL)

static bool is_label_end(char c)
{
	return !sf_label_byte_ok(c);
}

/*
 * One SF_CIPSO_DIGITLEN-wide field at @p (@n bytes, n <= 4): blanks, one
 * decimal number, blanks.  Returns the value or -1.
 */
static int field(const char *p, size_t n)
{
	size_t i = 0;
	int v = 0, digits = 0;

	while (i < n && p[i] == ' ')
		i++;
	while (i < n && p[i] >= '0' && p[i] <= '9') {
		v = v * 10 + (p[i++] - '0');
		digits++;
	}
	while (i < n && p[i] == ' ')
		i++;
	return (digits && i == n) ? v : -1;
}

/*
 * The numeric part shared by cipso2 and cipso: "L N C1..CN" in 4-byte
 * fields starting at @buf + @at; @exact: every field full width.
 */
static int parse_numbers(const char *buf, size_t len, size_t raw, size_t at,
			 bool exact, struct sf_cipso_attr *attr,
			 struct sf_error *err)
{
	static const char *const what[] = { "level", "category count" };
	size_t n, start = at;
	int v, count = -1, i, rc;

	memset(attr, 0, sizeof(*attr));
	for (i = 0; count < 0 || i < 2 + count; i++) {
		if (at >= len) {
			/*
			 * smk_set_cipso() steps 4 bytes a field and says
			 * EOVERFLOW once a step passes the end of what was
			 * written (@raw bytes), EINVAL when it finds no
			 * number there (trailing blanks): the same here.
			 */
			rc = fail(err, at + 1, "%s missing",
				  i < 2 ? what[i] : "category");
			return start + (size_t)i * SF_CIPSO_DIGITLEN > raw ?
			       -EOVERFLOW : rc;
		}
		n = len - at < SF_CIPSO_DIGITLEN ? len - at : SF_CIPSO_DIGITLEN;
		if (exact && n < SF_CIPSO_DIGITLEN)
			return fail(err, at + 1,
				    "short field: fixed format fields are 4 bytes");
		v = field(buf + at, n);
		if (v < 0)
			return fail(err, at + 1,
				    "%s is not one number in a 4-byte field",
				    i < 2 ? what[i] : "category");
		if (i == 0 && v > SF_CIPSO_MAXLEVEL)
			return fail(err, at + 1, "level above 255");
		if (i > 0 && v > SF_CIPSO_MAXCAT)
			return fail(err, at + 1, "%s above 184",
				    i == 1 ? "category count" : "category");
		if (i == 0)
			attr->level = v;
		else if (i == 1)
			count = v;
		else
			sf_cipso_cat_set(attr, v);	/* 0: ignored (mainline) */
		at += n;
	}
	if (at < len)
		return fail(err, at + 1,
			    "trailing data after the last category");
	return 0;
}

/* Trailing blanks and one newline are not part of a rule. */
static size_t trim_end(const char *buf, size_t len)
{
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' ' ||
		       buf[len - 1] == '\t' || buf[len - 1] == '\r'))
		len--;
	return len;
}

static int intern_rule(struct sf_labels *labels, const char *buf,
		       size_t llen, struct sf_cipso_rule *rule,
		       const struct sf_cipso_attr *attr, struct sf_error *err)
{
	sf_lid lid;
	int rc;

	rc = sf_label_intern(labels, buf, llen, &lid, err);
	if (rc)
		return rc;
	rule->lid = lid;
	rule->attr = *attr;
	return 0;
}

int sf_parse_cipso2(struct sf_labels *labels, const char *buf, size_t len,
		    struct sf_cipso_rule *rule, struct sf_error *err)
{
	struct sf_cipso_attr attr;
	size_t llen = 0, raw = len;
	int rc;

	len = trim_end(buf, len);
	while (llen < len && !is_label_end(buf[llen]))
		llen++;
	if (llen == 0)
		return fail(err, 1, "a label is expected first");
	if (llen > SF_LABEL_MAX)
		return fail(err, 1, "label longer than 255 bytes");
	if (buf[0] == '-')
		return fail(err, 1, "a label may not start with '-'");
	if (llen == len)
		return fail(err, llen + 1, "level missing after the label");
	if (buf[llen] != ' ' && buf[llen] != '\t')
		return fail(err, llen + 1,
			    "the label must be followed by one blank");
	rc = parse_numbers(buf, len, raw, llen + 1, false, &attr, err);
	if (rc)
		return rc;
	return intern_rule(labels, buf, llen, rule, &attr, err);
}

int sf_parse_cipso(struct sf_labels *labels, const char *buf, size_t len,
		   struct sf_cipso_rule *rule, struct sf_error *err)
{
	struct sf_cipso_attr attr;
	size_t llen = 0, i;
	int rc;

	if (len && buf[len - 1] == '\n')
		len--;
	if (len < SF_CIPSO_MIN || len > SF_CIPSO_MAX ||
	    (len - SF_CIPSO_MIN) % SF_CIPSO_DIGITLEN)
		return fail(err, 1,
			    "fixed records are 24 + 4 + 4 + 4 * count bytes");
	while (llen < SF_LABELLEN && !is_label_end(buf[llen]))
		llen++;
	if (llen == 0 || buf[0] == '-')
		return fail(err, 1,
			    "a label is expected in the first 24 bytes");
	if (llen == SF_LABELLEN)
		return fail(err, 1,
			    "the fixed format holds labels of up to 23 bytes");
	for (i = llen; i < SF_LABELLEN; i++)
		if (buf[i] != ' ' && buf[i] != '\0')
			return fail(err, i + 1,
				    "the label field is padded with blanks");
	/* a fixed record's length is checked whole: always EINVAL */
	rc = parse_numbers(buf, len, (size_t)-1, SF_LABELLEN, true, &attr,
			   err);
	if (rc)
		return rc;
	return intern_rule(labels, buf, llen, rule, &attr, err);
}

/* "%3d" as mainline's seq_printf: at least three columns. */
static void out_level(struct sf_out *o, unsigned int level)
{
	if (level < 100)
		sf_out_char(o, ' ');
	if (level < 10)
		sf_out_char(o, ' ');
	sf_out_u64(o, level);
}

static size_t print_rules(const struct sf_labels *labels,
			  const struct sf_cipso_map *map, char *buf,
			  size_t size, size_t maxlen)
{
	struct sf_cipso_attr attr;
	struct sf_out o;
	const char *name;
	unsigned int cat;
	size_t nlen;
	u32 lid, count = sf_labels_count(labels);
	char sep;

	sf_out_init(&o, buf, size);
	for (lid = 1; lid <= count; lid++) {
		name = sf_label_name(labels, lid);
		if (!name)
			continue;
		nlen = strlen(name);
		if (nlen > maxlen)
			continue;
		sf_cipso_encode(map, lid, name, nlen, &attr);
		sf_out_mem(&o, name, nlen);
		sf_out_char(&o, ' ');
		out_level(&o, attr.level);
		sep = '/';
		for (cat = sf_cipso_cat_next(&attr, 1); cat;
		     cat = sf_cipso_cat_next(&attr, cat + 1)) {
			sf_out_char(&o, sep);
			sf_out_u64(&o, cat);
			sep = ',';
		}
		sf_out_char(&o, '\n');
	}
	return o.len;
}

size_t sf_print_cipso2(const struct sf_labels *labels,
		       const struct sf_cipso_map *map, char *buf, size_t size)
{
	return print_rules(labels, map, buf, size, SF_LABEL_MAX);
}

size_t sf_print_cipso(const struct sf_labels *labels,
		      const struct sf_cipso_map *map, char *buf, size_t size)
{
	return print_rules(labels, map, buf, size, SF_LABELLEN - 1);
}

/* ---- the IPv4 option ---- */

int sf_cipso_option_build(u32 doi, const struct sf_cipso_attr *attr,
			  u8 *buf, size_t size)
{
	u8 bitmap[CIPSO_RBM_MAXBYTES];
	unsigned int cat;
	size_t blen = 0, olen;

	memset(bitmap, 0, sizeof(bitmap));
	for (cat = sf_cipso_cat_next(attr, 1); cat;
	     cat = sf_cipso_cat_next(attr, cat + 1)) {
		bitmap[cat / 8] |= 0x80 >> (cat % 8);
		blen = cat / 8 + 1;
	}
	olen = CIPSO_HDR_LEN + CIPSO_TAG_RBM_BLEN + blen;
	if (size < olen)
		return -ENOSPC;
	buf[0] = CIPSO_OPT_TYPE;
	buf[1] = olen;
	buf[2] = doi >> 24;
	buf[3] = doi >> 16;
	buf[4] = doi >> 8;
	buf[5] = doi;
	buf[6] = CIPSO_TAG_RBITMAP;
	buf[7] = CIPSO_TAG_RBM_BLEN + blen;
	buf[8] = 0;
	buf[9] = attr->level;
	memcpy(buf + 10, bitmap, blen);
	return olen;
}

static int read_rbm_tag(const u8 *opt, size_t olen,
			struct sf_cipso_attr *attr)
{
	size_t at = CIPSO_HDR_LEN, tlen, i;
	unsigned int cat, bit;

	while (at + 2 <= olen) {
		tlen = opt[at + 1];
		if (tlen < 2 || at + tlen > olen)
			return -EINVAL;
		if (opt[at] != CIPSO_TAG_RBITMAP) {
			at += tlen;
			continue;
		}
		if (tlen < CIPSO_TAG_RBM_BLEN)
			return -EINVAL;
		memset(attr, 0, sizeof(*attr));
		attr->level = opt[at + 3];
		for (i = CIPSO_TAG_RBM_BLEN; i < tlen; i++) {
			for (bit = 0; bit < 8; bit++) {
				if (!(opt[at + i] & (0x80 >> bit)))
					continue;
				cat = (i - CIPSO_TAG_RBM_BLEN) * 8 + bit;
				if (cat == 0 || cat > SF_CIPSO_BYTES * 8)
					return -ERANGE;
				sf_cipso_cat_set(attr, cat);
			}
		}
		return 0;
	}
	return -ENOENT;
}

int sf_cipso_option_parse(const u8 *opts, size_t len, u32 *doi,
			  struct sf_cipso_attr *attr)
{
	size_t at = 0, olen;

	while (at < len) {
		if (opts[at] == 0)		/* IPOPT_END */
			break;
		if (opts[at] == 1) {		/* IPOPT_NOOP */
			at++;
			continue;
		}
		if (at + 2 > len)
			return -EINVAL;
		olen = opts[at + 1];
		if (olen < 2 || at + olen > len)
			return -EINVAL;
		if (opts[at] == CIPSO_OPT_TYPE) {
			if (olen < CIPSO_HDR_LEN + CIPSO_TAG_RBM_BLEN)
				return -EINVAL;
			*doi = (u32)opts[at + 2] << 24 |
			       (u32)opts[at + 3] << 16 |
			       (u32)opts[at + 4] << 8 | opts[at + 5];
			return read_rbm_tag(opts + at, olen, attr);
		}
		at += olen;
	}
	return -ENOENT;
}
