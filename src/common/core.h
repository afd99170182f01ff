/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * core.h - internals shared by the access core's .c files (not installed,
 * not for users of smack.h).
 */
#ifndef SMACKFUSE_CORE_H
#define SMACKFUSE_CORE_H

#include "smack.h"

/*
 * A bounded output buffer with snprintf semantics: writes what fits,
 * always NUL-terminates when size > 0, and counts the full length.
 */
struct sf_out {
	char *buf;
	size_t size;
	size_t len;
};

static inline void sf_out_init(struct sf_out *o, char *buf, size_t size)
{
	o->buf = buf;
	o->size = size;
	o->len = 0;
	if (size)
		buf[0] = '\0';
}

void sf_out_mem(struct sf_out *o, const char *s, size_t n);
void sf_out_str(struct sf_out *o, const char *s);
void sf_out_char(struct sf_out *o, char c);
void sf_out_u64(struct sf_out *o, u64 v);
void sf_out_s64(struct sf_out *o, s64 v);

/*
 * sf_out_fmt - a tiny printf for error reasons and audit lines.
 * Conversions: %s (string), %u (unsigned int), %d (int), %z (size_t),
 * %c (a byte: printable bytes as themselves, others as \xNN), %%.
 */
void sf_out_fmt(struct sf_out *o, const char *fmt, ...);
void sf_out_vfmt(struct sf_out *o, const char *fmt, __builtin_va_list ap);

/* Fill @err (may be NULL) with position and a formatted reason. */
void sf_err(struct sf_error *err, unsigned int line, unsigned int column,
	    const char *fmt, ...);

/* Label validation without the reason text, for hot paths. */
static inline bool sf_label_byte_ok(unsigned char c)
{
	return c > ' ' && c <= '~' && c != '/' && c != '"' && c != '\\' &&
	       c != '\'';
}

u32 sf_label_hash(const char *s, size_t len);

/*
 * Snapshot internals, shared by policy.c, access.c and print.c.
 *
 * A rule is one u64 slot: subject id in bits 36..63, object id in bits
 * 8..35, access in bits 0..7, so a probe touches one 8-byte word and a
 * cache line holds eight slots.  Ids are therefore below 2^28 (the label
 * table refuses more).  0 is an empty slot: subject ids are never 0.
 */
#define SF_LID_LIMIT	(1u << 28)
#define SF_SLOT_ACCESS	0xffull
#define SF_SLOT_OBJECT_SHIFT	8
#define SF_SLOT_SUBJECT_SHIFT	36

struct sf_snapshot {
	u32 nrules;		/* rules held, including access 0 */
	u32 mask;		/* nslots - 1, nslots a power of two */
	u64 *slots;
	u32 *order;		/* slot index of each rule, in load order */
	u32 order_cap;
	u32 nonlycap;
	sf_lid *onlycap;	/* in the order written */
	/*
	 * Bit per subject id: has at least one rule.  Most labels are
	 * subjects of no rule, and this answers them without a probe.
	 */
	u32 nsubjwords;
	u64 *subjects;
};

static inline bool sf_snap_has_subject(const struct sf_snapshot *s,
				       sf_lid subject)
{
	u32 w = subject / 64;

	return w < s->nsubjwords && (s->subjects[w] >> (subject % 64)) & 1;
}

static inline u64 sf_rule_key(sf_lid subject, sf_lid object)
{
	return ((u64)subject << SF_SLOT_SUBJECT_SHIFT) |
	       ((u64)object << SF_SLOT_OBJECT_SHIFT);
}

static inline sf_lid sf_slot_subject(u64 slot)
{
	return (sf_lid)(slot >> SF_SLOT_SUBJECT_SHIFT);
}

static inline u32 sf_key_hash(u64 key, u32 mask)
{
	u64 h = (key >> SF_SLOT_OBJECT_SHIFT) * SF_GOLDEN_RATIO_64;

	return (u32)(h >> 32) & mask;
}

/* The slot holding @key (access bits clear), or NULL.  O(1) expected. */
static inline const u64 *sf_snap_find(const struct sf_snapshot *s, u64 key)
{
	u32 i = sf_key_hash(key, s->mask);

	for (;;) {
		const u64 *slot = &s->slots[i];

		if ((*slot & ~SF_SLOT_ACCESS) == key)
			return slot;
		if (!*slot)
			return NULL;
		i = (i + 1) & s->mask;
	}
}

#endif /* SMACKFUSE_CORE_H */
