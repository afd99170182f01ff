// SPDX-License-Identifier: GPL-2.0-only
/*
 * label.c - label validation and the label intern table.
 *
 * Labels are interned to small dense ids, so that a decision compares
 * integers.  The table is append-only, like mainline's smack_known_list:
 * a label, once known, stays known with the same id until the table is
 * freed.  Lookups are lock-free: the arrays are published with RCU, a
 * full table is replaced by a bigger copy and the old one is retired (kept
 * until sf_labels_free, which costs at most as much again as the live
 * table and spares writers a grace period).  Interning takes the mutex.
 */
#include "core.h"

struct sf_label {
	u32 id;
	u32 len;
	u32 hash;
	char name[];		/* NUL-terminated */
};

struct sf_label_tab {
	u32 cap;			/* entries of byid */
	u32 mask;			/* slots - 1 (slots = 2 * cap) */
	struct sf_label **byid;		/* [cap], NULL past the count */
	struct sf_label **slots;	/* open addressing by hash */
	struct sf_label_tab *retired;	/* older tables, freed at the end */
};

struct sf_labels {
	struct sf_label_tab *tab;	/* RCU-published */
	u32 count;			/* ids handed out, incl. invalid 0 */
	struct sf_mutex lock;		/* serialises interning */
};

static const char *const sf_reserved[SF_LID_FIRST_USER] = {
	[SF_LID_STAR] = "*",
	[SF_LID_FLOOR] = "_",
	[SF_LID_HAT] = "^",
	[SF_LID_HUH] = "?",
	[SF_LID_WEB] = "@",
};

/* FNV-1a: simple, and good enough for short printable strings.  Its
 * 32-bit offset basis and prime, as the FNV reference gives them. */
#define SF_FNV32_OFFSET	2166136261u
#define SF_FNV32_PRIME	16777619u

u32 sf_label_hash(const char *s, size_t len)
{
	u32 h = SF_FNV32_OFFSET;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= SF_FNV32_PRIME;
	}
	return h;
}

/*
 * The mainline rules (smk_parse_smack): 1..SMK_LONGLABEL-1 bytes, each
 * printable and not one of / " \ ', and no leading '-' (reserved for
 * options such as "-CIPSO").  Mainline silently cuts a label at the first
 * bad byte; we refuse the whole label instead.
 */
int sf_label_valid(const char *s, size_t len, struct sf_error *err)
{
	size_t i;

	if (len == 0) {
		sf_err(err, 0, 0, "empty label");
		return -EINVAL;
	}
	if (len > SF_LABEL_MAX) {
		sf_err(err, 0, SF_LABEL_MAX + 1,
		       "label is %z bytes long, the limit is %u", len,
		       SF_LABEL_MAX);
		return -EINVAL;
	}
	if (s[0] == '-') {
		sf_err(err, 0, 1, "a label may not start with '-'");
		return -EINVAL;
	}
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (sf_label_byte_ok(c))
			continue;
		if (c == '/' || c == '"' || c == '\\' || c == '\'')
			sf_err(err, 0, (unsigned int)i + 1,
			       "character %c is not allowed in a label", c);
		else
			sf_err(err, 0, (unsigned int)i + 1,
			       "byte %c is not allowed in a label (printable ASCII only)",
			       c);
		return -EINVAL;
	}
	return 0;
}

/*
 * The one reading of a label from an extended attribute (SMACK64,
 * SMACK64EXEC, SMACK64MMAP), for the daemon and the module alike:
 * mainline's smk_fetch() imports the value through smk_parse_smack(),
 * which cuts it at the first byte a label may not hold (a trailing
 * newline, a '/') and refuses what is left when it is empty, starts with
 * '-' or is too long.
 */
size_t sf_label_prefix(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len && sf_label_byte_ok((unsigned char)s[i]); i++)
		;
	if (i == 0 || i > SF_LABEL_MAX || s[0] == '-')
		return 0;
	return i;
}

int sf_label_import(struct sf_labels *labels, const char *s, size_t len,
		    sf_lid *out, struct sf_error *err)
{
	size_t n = sf_label_prefix(s, len), i;

	if (n)
		return sf_label_intern(labels, s, n, out, err);
	/* no label: sf_label_valid() of what there is says why (empty, a
	 * leading '-', too long, or a first byte no label holds) */
	for (i = 0; i < len && sf_label_byte_ok((unsigned char)s[i]); i++)
		;
	sf_label_valid(s, i ? i : len ? 1 : 0, err);
	return -EINVAL;
}

static struct sf_label_tab *sf_tab_new(u32 cap)
{
	struct sf_label_tab *t = sf_zalloc(sizeof(*t));

	if (!t)
		return NULL;
	t->cap = cap;
	t->mask = cap * 2 - 1;
	t->byid = sf_zalloc(sizeof(*t->byid) * cap);
	t->slots = sf_zalloc(sizeof(*t->slots) * cap * 2);
	if (!t->byid || !t->slots) {
		sf_free(t->byid);
		sf_free(t->slots);
		sf_free(t);
		return NULL;
	}
	return t;
}

static void sf_tab_put_slot(struct sf_label_tab *t, struct sf_label *l)
{
	u32 i = l->hash & t->mask;

	while (t->slots[i])
		i = (i + 1) & t->mask;
	sf_rcu_assign(t->slots[i], l);
}

/* Called with the mutex held: make room for one more label. */
static int sf_labels_reserve(struct sf_labels *labels)
{
	struct sf_label_tab *old = labels->tab, *t;
	u32 i;

	if (labels->count >= SF_LID_LIMIT)
		return -ENOMEM;		/* ids must fit a rule slot */
	if (labels->count < old->cap)
		return 0;
	t = sf_tab_new(old->cap * 2);
	if (!t)
		return -ENOMEM;
	for (i = 0; i < labels->count; i++) {
		t->byid[i] = old->byid[i];
		if (t->byid[i])
			sf_tab_put_slot(t, t->byid[i]);
	}
	t->retired = old;
	sf_rcu_assign(labels->tab, t);
	return 0;
}

/* Called with the mutex held (or before publication). */
static int sf_labels_append(struct sf_labels *labels, const char *s,
			    size_t len, u32 hash, sf_lid *out)
{
	struct sf_label *l;
	struct sf_label_tab *t;
	int rc;

	rc = sf_labels_reserve(labels);
	if (rc)
		return rc;
	l = sf_malloc(sizeof(*l) + len + 1);
	if (!l)
		return -ENOMEM;
	l->id = labels->count;
	l->len = (u32)len;
	l->hash = hash;
	memcpy(l->name, s, len);
	l->name[len] = '\0';
	t = labels->tab;
	sf_rcu_assign(t->byid[l->id], l);
	sf_tab_put_slot(t, l);
	sf_store_release(&labels->count, l->id + 1);
	*out = l->id;
	return 0;
}

/**
 * sf_labels_new - an intern table holding the five reserved labels
 * with their fixed ids (SF_LID_STAR .. SF_LID_WEB).
 */
struct sf_labels *sf_labels_new(void)
{
	struct sf_labels *labels = sf_zalloc(sizeof(*labels));
	sf_lid lid;
	int i;

	if (!labels)
		return NULL;
	sf_mutex_init(&labels->lock);
	labels->tab = sf_tab_new(64);
	if (!labels->tab)
		goto out_free;
	labels->count = SF_LID_STAR;	/* id 0 stays invalid */
	for (i = SF_LID_STAR; i < SF_LID_FIRST_USER; i++) {
		const char *n = sf_reserved[i];

		if (sf_labels_append(labels, n, 1, sf_label_hash(n, 1), &lid))
			goto out_free;
	}
	return labels;

out_free:
	sf_labels_free(labels);
	return NULL;
}

void sf_labels_free(struct sf_labels *labels)
{
	struct sf_label_tab *t, *next;

	if (!labels)
		return;
	t = labels->tab;
	if (t) {
		u32 i;

		for (i = 0; i < labels->count; i++)
			sf_free(t->byid[i]);
	}
	for (; t; t = next) {
		next = t->retired;
		sf_free(t->byid);
		sf_free(t->slots);
		sf_free(t);
	}
	sf_mutex_destroy(&labels->lock);
	sf_free(labels);
}

u32 sf_labels_count(const struct sf_labels *labels)
{
	return sf_load_acquire(&labels->count);
}

static sf_lid sf_find_hashed(const struct sf_labels *labels, const char *s,
			     size_t len, u32 hash)
{
	const struct sf_label_tab *t;
	const struct sf_label *l;
	sf_lid lid = SF_LID_INVALID;
	u32 i;

	sf_rcu_read_lock();
	t = sf_rcu_dereference(labels->tab);
	for (i = hash & t->mask;; i = (i + 1) & t->mask) {
		l = sf_rcu_dereference(t->slots[i]);
		if (!l)
			break;
		if (l->hash == hash && l->len == len &&
		    !memcmp(l->name, s, len)) {
			lid = l->id;
			break;
		}
	}
	sf_rcu_read_unlock();
	return lid;
}

sf_lid sf_label_find(const struct sf_labels *labels, const char *s, size_t len)
{
	if (len == 0 || len > SF_LABEL_MAX)
		return SF_LID_INVALID;
	return sf_find_hashed(labels, s, len, sf_label_hash(s, len));
}

/**
 * sf_label_intern - the id of label @s, creating it if it is new.
 * @labels: the intern table
 * @s: label bytes (@len of them, not NUL-terminated)
 * @out: receives the id
 * @err: receives the reason for an invalid label (may be NULL)
 *
 * Returns 0, -EINVAL for an invalid label or -ENOMEM.
 */
int sf_label_intern(struct sf_labels *labels, const char *s, size_t len,
		    sf_lid *out, struct sf_error *err)
{
	u32 hash;
	sf_lid lid;
	int rc;

	rc = sf_label_valid(s, len, err);
	if (rc)
		return rc;
	hash = sf_label_hash(s, len);
	lid = sf_find_hashed(labels, s, len, hash);
	if (lid) {
		*out = lid;
		return 0;
	}
	sf_mutex_lock(&labels->lock);
	lid = sf_find_hashed(labels, s, len, hash);
	if (lid) {
		*out = lid;
		rc = 0;
	} else {
		rc = sf_labels_append(labels, s, len, hash, out);
		if (rc)
			sf_err(err, 0, 0, "out of memory interning a label");
	}
	sf_mutex_unlock(&labels->lock);
	return rc;
}

const char *sf_label_name(const struct sf_labels *labels, sf_lid lid)
{
	const struct sf_label_tab *t;
	const struct sf_label *l = NULL;

	sf_rcu_read_lock();
	t = sf_rcu_dereference(labels->tab);
	if (lid != SF_LID_INVALID && lid < t->cap)
		l = sf_rcu_dereference(t->byid[lid]);
	sf_rcu_read_unlock();
	return l ? l->name : NULL;
}

