// SPDX-License-Identifier: GPL-2.0-only
/*
 * policy.c - rule snapshots, batches, and their RCU publication.
 *
 * A snapshot is an open-addressing hash table (linear probing, one u64
 * per rule, see core.h) keyed on (subject, object) ids, so a decision costs one hash and (almost always) one cache line,
 * where mainline walks the subject's rule list.  Snapshots are never
 * changed once published: sf_policy_apply() copies the current one, applies
 * a whole batch to the copy, publishes the copy with one pointer store and
 * frees the old snapshot after a grace period.  A reader therefore sees the
 * old policy or the new one, never a mix, and never waits.  The price is a
 * copy of the table per batch (about 2 ms per 100,000 rules), which is why
 * loaders hand a whole file over as one batch.
 *
 * Like mainline, a rule whose access drops to 0 (revoke-subject, or
 * change-rule clearing every bit) stays in the table; it denies like a
 * missing rule and is not printed.
 */
#include "core.h"

struct sf_policy {
	struct sf_labels *labels;
	struct sf_snapshot *snap;	/* RCU-published, immutable */
	struct sf_mutex lock;		/* serialises writers */
};

#define SF_MIN_SLOTS	16u

static void sf_snap_free(struct sf_snapshot *s)
{
	if (!s)
		return;
	sf_free(s->slots);
	sf_free(s->order);
	sf_free(s->onlycap);
	sf_free(s->subjects);
	sf_free(s);
}

/* Rebuild the subject bitmap of a private snapshot. */
static int sf_snap_index_subjects(struct sf_snapshot *s)
{
	sf_lid max = 0, subj;
	u32 i;

	for (i = 0; i < s->nrules; i++) {
		subj = sf_slot_subject(s->slots[s->order[i]]);
		if (subj > max)
			max = subj;
	}
	sf_free(s->subjects);
	s->nsubjwords = max / 64 + 1;
	s->subjects = sf_zalloc(sizeof(u64) * s->nsubjwords);
	if (!s->subjects) {
		s->nsubjwords = 0;
		return -ENOMEM;
	}
	for (i = 0; i < s->nrules; i++) {
		subj = sf_slot_subject(s->slots[s->order[i]]);
		s->subjects[subj / 64] |= 1ull << (subj % 64);
	}
	return 0;
}

/* Slots for @nrules at a load factor of at most 1/2. */
static u32 sf_slots_for(u32 nrules)
{
	u32 n = SF_MIN_SLOTS;

	while (n / 2 < nrules)
		n *= 2;
	return n;
}

static struct sf_snapshot *sf_snap_alloc(u32 nslots, u32 order_cap)
{
	struct sf_snapshot *s = sf_zalloc(sizeof(*s));

	if (!s)
		return NULL;
	s->mask = nslots - 1;
	s->order_cap = order_cap ? order_cap : 1;
	s->slots = sf_zalloc(sizeof(*s->slots) * (size_t)nslots);
	s->order = sf_malloc(sizeof(*s->order) * (size_t)s->order_cap);
	if (!s->slots || !s->order) {
		sf_snap_free(s);
		return NULL;
	}
	return s;
}

/* Insert a new rule (its key is known to be absent). */
static void sf_snap_insert(struct sf_snapshot *s, u64 key, u32 access)
{
	u32 i = sf_key_hash(key, s->mask);

	while (s->slots[i])
		i = (i + 1) & s->mask;
	s->slots[i] = key | access;
	s->order[s->nrules++] = i;
}

static u64 *sf_snap_find_mut(struct sf_snapshot *s, u64 key)
{
	return (u64 *)sf_snap_find(s, key);
}

static inline u32 sf_slot_access(u64 slot)
{
	return (u32)(slot & SF_SLOT_ACCESS);
}

static inline void sf_slot_set(u64 *slot, u32 access)
{
	*slot = (*slot & ~SF_SLOT_ACCESS) | access;
}

/* A private copy of @old with room for @extra more rules. */
static struct sf_snapshot *sf_snap_clone(const struct sf_snapshot *old,
					 u32 extra)
{
	u32 want = old->nrules + extra;
	u32 nslots = sf_slots_for(want);
	struct sf_snapshot *s;

	s = sf_snap_alloc(nslots, want);
	if (!s)
		return NULL;
	if (nslots == old->mask + 1) {
		memcpy(s->slots, old->slots, sizeof(*s->slots) * nslots);
		memcpy(s->order, old->order, sizeof(*s->order) * old->nrules);
		s->nrules = old->nrules;
	} else {
		u32 i;

		for (i = 0; i < old->nrules; i++) {
			u64 o = old->slots[old->order[i]];

			sf_snap_insert(s, o & ~SF_SLOT_ACCESS, sf_slot_access(o));
		}
	}
	if (old->nonlycap) {
		s->onlycap = sf_malloc(sizeof(sf_lid) * old->nonlycap);
		if (!s->onlycap) {
			sf_snap_free(s);
			return NULL;
		}
		memcpy(s->onlycap, old->onlycap, sizeof(sf_lid) * old->nonlycap);
		s->nonlycap = old->nonlycap;
	}
	return s;
}

struct sf_policy *sf_policy_new(void)
{
	struct sf_policy *p = sf_zalloc(sizeof(*p));

	if (!p)
		return NULL;
	sf_mutex_init(&p->lock);
	p->labels = sf_labels_new();
	p->snap = sf_snap_alloc(SF_MIN_SLOTS, 1);
	if (!p->labels || !p->snap) {
		sf_policy_free(p);
		return NULL;
	}
	return p;
}

/* No reader may be running (callers stop their threads first). */
void sf_policy_free(struct sf_policy *policy)
{
	if (!policy)
		return;
	sf_snap_free(policy->snap);
	sf_labels_free(policy->labels);
	sf_mutex_destroy(&policy->lock);
	sf_free(policy);
}

struct sf_labels *sf_policy_labels(struct sf_policy *policy)
{
	return policy->labels;
}

const struct sf_snapshot *sf_policy_snapshot(const struct sf_policy *policy)
{
	return sf_rcu_dereference(policy->snap);
}

int sf_policy_access(const struct sf_policy *policy, sf_lid subject,
		     sf_lid object, u32 request, struct sf_decision *d)
{
	int rc;

	sf_rcu_read_lock();
	rc = sf_access(sf_policy_snapshot(policy), subject, object, request, d);
	sf_rcu_read_unlock();
	return rc;
}

/* ---- batches ---- */

void sf_batch_init(struct sf_batch *b)
{
	b->ops = NULL;
	b->nops = 0;
	b->cap = 0;
}

void sf_batch_release(struct sf_batch *b)
{
	u32 i;

	for (i = 0; i < b->nops; i++)
		sf_free(b->ops[i].labels);
	sf_free(b->ops);
	sf_batch_init(b);
}

/* Drop the ops past @nops (to undo a failed parse). */
void sf_batch_truncate(struct sf_batch *b, u32 nops)
{
	while (b->nops > nops) {
		b->nops--;
		sf_free(b->ops[b->nops].labels);
		b->ops[b->nops].labels = NULL;
	}
}

/**
 * sf_batch_add - append a copy of @op (and of its onlycap labels).
 * Returns 0 or -ENOMEM (the batch is then unchanged).
 */
int sf_batch_add(struct sf_batch *b, const struct sf_op *op)
{
	struct sf_op *slot;

	if (b->nops == b->cap) {
		u32 ncap = b->cap ? b->cap * 2 : 16;
		struct sf_op *n;

		if (ncap < b->cap)
			return -ENOMEM;
		n = sf_malloc(sizeof(*n) * (size_t)ncap);
		if (!n)
			return -ENOMEM;
		if (b->nops)
			memcpy(n, b->ops, sizeof(*n) * b->nops);
		sf_free(b->ops);
		b->ops = n;
		b->cap = ncap;
	}
	slot = &b->ops[b->nops];
	*slot = *op;
	slot->labels = NULL;
	if (op->kind == SF_OP_ONLYCAP && op->nlabels) {
		slot->labels = sf_malloc(sizeof(sf_lid) * op->nlabels);
		if (!slot->labels)
			return -ENOMEM;
		memcpy(slot->labels, op->labels, sizeof(sf_lid) * op->nlabels);
	}
	if (op->kind != SF_OP_ONLYCAP)
		slot->nlabels = 0;
	b->nops++;
	return 0;
}

/* ---- apply ---- */

static bool sf_lid_ok(sf_lid lid, u32 nlabels)
{
	return lid != SF_LID_INVALID && lid < nlabels;
}

/* Check every op before touching anything; count possible new rules. */
static int sf_batch_check(const struct sf_batch *b, u32 nlabels, u32 *extra)
{
	u32 i, j, n = 0;

	for (i = 0; i < b->nops; i++) {
		const struct sf_op *op = &b->ops[i];

		switch (op->kind) {
		case SF_OP_SET:
		case SF_OP_CHANGE:
			if (!sf_lid_ok(op->subject, nlabels) ||
			    !sf_lid_ok(op->object, nlabels) ||
			    (op->allow | op->deny) & ~SF_MAY_ALL)
				return -EINVAL;
			n++;
			break;
		case SF_OP_REVOKE_SUBJECT:
			if (!sf_lid_ok(op->subject, nlabels))
				return -EINVAL;
			break;
		case SF_OP_CLEAR:
			break;
		case SF_OP_ONLYCAP:
			if (op->nlabels && !op->labels)
				return -EINVAL;
			for (j = 0; j < op->nlabels; j++)
				if (!sf_lid_ok(op->labels[j], nlabels))
					return -EINVAL;
			break;
		default:
			return -EINVAL;
		}
	}
	if (n > 0x3fffffffu)
		return -ENOMEM;
	*extra = n;
	return 0;
}

static int sf_snap_apply_op(struct sf_snapshot *s, const struct sf_op *op)
{
	u64 *slot, key;
	u32 i;

	switch (op->kind) {
	case SF_OP_SET:
	case SF_OP_CHANGE:
		/* load/load2 replace; change-rule adds then clears. */
		key = sf_rule_key(op->subject, op->object);
		slot = sf_snap_find_mut(s, key);
		if (op->kind == SF_OP_SET) {
			if (slot)
				sf_slot_set(slot, op->allow);
			else
				sf_snap_insert(s, key, op->allow);
		} else if (slot) {
			sf_slot_set(slot, (sf_slot_access(*slot) | op->allow) &
					  ~op->deny);
		} else {
			sf_snap_insert(s, key, op->allow & ~op->deny);
		}
		break;
	case SF_OP_REVOKE_SUBJECT:
		for (i = 0; i < s->nrules; i++) {
			slot = &s->slots[s->order[i]];
			if (sf_slot_subject(*slot) == op->subject)
				sf_slot_set(slot, 0);
		}
		break;
	case SF_OP_CLEAR:
		memset(s->slots, 0, sizeof(*s->slots) * ((size_t)s->mask + 1));
		s->nrules = 0;
		break;
	case SF_OP_ONLYCAP:
		sf_free(s->onlycap);
		s->onlycap = NULL;
		s->nonlycap = 0;
		if (op->nlabels) {
			s->onlycap = sf_malloc(sizeof(sf_lid) * op->nlabels);
			if (!s->onlycap)
				return -ENOMEM;
			memcpy(s->onlycap, op->labels,
			       sizeof(sf_lid) * op->nlabels);
			s->nonlycap = op->nlabels;
		}
		break;
	}
	return 0;
}

/**
 * sf_policy_apply - apply @b as one atomic change.
 * @policy: the policy
 * @b: the batch (not consumed; the caller releases it)
 *
 * The ops are applied in order to a private copy of the current snapshot,
 * which is then published; readers see all of @b or none of it.  Every
 * label id must already be interned in the policy's table.  Sleeps (waits
 * for a grace period): never call it inside sf_rcu_read_lock().
 *
 * Returns 0, -EINVAL for a malformed op (nothing applied), or -ENOMEM.
 */
int sf_policy_apply(struct sf_policy *policy, const struct sf_batch *b)
{
	struct sf_snapshot *old, *s;
	u32 i, extra;
	int rc;

	rc = sf_batch_check(b, sf_labels_count(policy->labels), &extra);
	if (rc)
		return rc;
	if (!b->nops)
		return 0;
	sf_mutex_lock(&policy->lock);
	old = policy->snap;
	s = sf_snap_clone(old, extra);
	if (!s) {
		rc = -ENOMEM;
		goto out_unlock;
	}
	for (i = 0; i < b->nops; i++) {
		rc = sf_snap_apply_op(s, &b->ops[i]);
		if (rc)
			break;
	}
	if (!rc)
		rc = sf_snap_index_subjects(s);
	if (rc) {
		sf_snap_free(s);
		goto out_unlock;
	}
	sf_rcu_assign(policy->snap, s);
	sf_mutex_unlock(&policy->lock);
	sf_synchronize_rcu();
	sf_snap_free(old);
	return 0;

out_unlock:
	sf_mutex_unlock(&policy->lock);
	return rc;
}

/* ---- reading a snapshot ---- */

u32 sf_snapshot_nrules(const struct sf_snapshot *snap)
{
	return snap->nrules;
}

int sf_rule_lookup(const struct sf_snapshot *snap, sf_lid subject,
		   sf_lid object, u32 *access)
{
	const u64 *slot;

	if (subject == SF_LID_INVALID || object == SF_LID_INVALID ||
	    subject >= SF_LID_LIMIT || object >= SF_LID_LIMIT)
		return -ENOENT;
	slot = sf_snap_find(snap, sf_rule_key(subject, object));
	if (!slot)
		return -ENOENT;
	*access = sf_slot_access(*slot);
	return 0;
}

bool sf_rule_at(const struct sf_snapshot *snap, u32 index, sf_lid *subject,
		sf_lid *object, u32 *access)
{
	u64 slot;

	if (index >= snap->nrules)
		return false;
	slot = snap->slots[snap->order[index]];
	*subject = sf_slot_subject(slot);
	*object = (sf_lid)(slot >> SF_SLOT_OBJECT_SHIFT) & (SF_LID_LIMIT - 1);
	*access = sf_slot_access(slot);
	return true;
}

u32 sf_onlycap_count(const struct sf_snapshot *snap)
{
	return snap->nonlycap;
}

sf_lid sf_onlycap_at(const struct sf_snapshot *snap, u32 index)
{
	return index < snap->nonlycap ? snap->onlycap[index] : SF_LID_INVALID;
}

bool sf_onlycap_allows(const struct sf_snapshot *snap, sf_lid subject)
{
	u32 i;

	if (!snap->nonlycap)
		return true;
	for (i = 0; i < snap->nonlycap; i++)
		if (snap->onlycap[i] == subject)
			return true;
	return false;
}

/* Bytes the snapshot holds, for the benchmark's bytes-per-rule figure. */
size_t sf_snapshot_bytes(const struct sf_snapshot *snap)
{
	return sizeof(*snap) + sizeof(*snap->slots) * ((size_t)snap->mask + 1) +
	       sizeof(*snap->order) * (size_t)snap->order_cap +
	       sizeof(sf_lid) * (size_t)snap->nonlycap +
	       sizeof(u64) * (size_t)snap->nsubjwords;
}
