// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltab.c - labels of kernel objects, keyed by the object's address.
 *
 * A loadable module cannot add a field to task_struct, kern_ipc_perm or
 * sock (the LSM blobs are sized at boot), so labels live in a hash table
 * keyed by address.  Only non-floor labels are stored: an object that has
 * no entry has the floor label "_", which is exactly what every object had
 * when the module loaded.  Entries are set when the object is created
 * (security_*_alloc) and removed when it is freed (security_*_free).  A
 * free that is missed leaves a stale entry, which the next object at that
 * address replaces when it is created, so a stale entry never gives a new
 * object a wrong label.
 *
 * Readers (the hooks, any context) walk a chain under RCU; writers take
 * the spinlock with interrupts off, since frees run in RCU callbacks.
 */
#include <linux/hash.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include "smackfuse.h"

struct sf_lentry {
	struct hlist_node node;
	const void *key;
	sf_lid lid;
	struct rcu_head rcu;
};

static struct hlist_head *sf_ltab_head(struct sf_ltab *t, const void *key)
{
	return &t->heads[hash_ptr((void *)key, SF_LTAB_BITS)];
}

void sf_ltab_init(struct sf_ltab *t, const char *name)
{
	unsigned int i;

	t->name = name;
	spin_lock_init(&t->lock);
	atomic_set(&t->count, 0);
	for (i = 0; i < ARRAY_SIZE(t->heads); i++)
		INIT_HLIST_HEAD(&t->heads[i]);
}

/* Caller holds t->lock or rcu_read_lock(). */
static struct sf_lentry *sf_ltab_find(struct sf_ltab *t, const void *key)
{
	struct sf_lentry *e;

	hlist_for_each_entry_rcu(e, sf_ltab_head(t, key), node,
				 lockdep_is_held(&t->lock))
		if (e->key == key)
			return e;
	return NULL;
}

sf_lid sf_ltab_get(struct sf_ltab *t, const void *key)
{
	struct sf_lentry *e;
	sf_lid lid = SF_LID_FLOOR;

	rcu_read_lock();
	e = sf_ltab_find(t, key);
	if (e)
		lid = READ_ONCE(e->lid);
	rcu_read_unlock();
	return lid;
}

static void sf_ltab_unlink(struct sf_ltab *t, struct sf_lentry *e)
{
	hlist_del_rcu(&e->node);
	atomic_dec(&t->count);
	kfree_rcu(e, rcu);
}

/**
 * sf_ltab_set - give @key the label @lid
 * @t: the table
 * @key: the object's address
 * @lid: its label; SF_LID_FLOOR removes the entry
 * @gfp: GFP_ATOMIC from a probe handler, GFP_KERNEL from a file write
 *
 * Returns 0, or -ENOMEM when a new entry could not be allocated (the
 * caller then refuses the operation: an object must never end up with a
 * label other than the one it should have).
 */
int sf_ltab_set(struct sf_ltab *t, const void *key, sf_lid lid, gfp_t gfp)
{
	struct sf_lentry *e, *n = NULL;
	unsigned long flags;

	if (lid != SF_LID_FLOOR) {
		n = kmalloc(sizeof(*n), gfp);
		if (!n)
			return -ENOMEM;
		n->key = key;
		n->lid = lid;
	}
	spin_lock_irqsave(&t->lock, flags);
	e = sf_ltab_find(t, key);
	if (e && n) {
		WRITE_ONCE(e->lid, lid);
	} else if (e) {
		sf_ltab_unlink(t, e);
	} else if (n) {
		hlist_add_head_rcu(&n->node, sf_ltab_head(t, key));
		atomic_inc(&t->count);
		n = NULL;
	}
	spin_unlock_irqrestore(&t->lock, flags);
	kfree(n);
	return 0;
}

/**
 * sf_ltab_set_creator - give @key, an object current is creating, the
 * label of current (the creator's label, mainline's *_alloc hooks)
 *
 * From a probe handler.  A failed allocation is counted (nomem); the
 * -ENOMEM is for the caller to refuse the creation with sf_deny().
 */
int sf_ltab_set_creator(struct sf_ltab *t, const void *key)
{
	int rc = sf_ltab_set(t, key, sf_task_label(current), GFP_ATOMIC);

	if (rc)
		atomic64_inc(&sf_count.nomem);
	return rc;
}
NOKPROBE_SYMBOL(sf_ltab_set_creator);

void sf_ltab_del(struct sf_ltab *t, const void *key)
{
	struct sf_lentry *e;
	unsigned long flags;

	spin_lock_irqsave(&t->lock, flags);
	e = sf_ltab_find(t, key);
	if (e)
		sf_ltab_unlink(t, e);
	spin_unlock_irqrestore(&t->lock, flags);
}

void sf_ltab_destroy(struct sf_ltab *t)
{
	struct sf_lentry *e;
	struct hlist_node *tmp;
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&t->lock, flags);
	for (i = 0; i < ARRAY_SIZE(t->heads); i++)
		hlist_for_each_entry_safe(e, tmp, &t->heads[i], node)
			sf_ltab_unlink(t, e);
	spin_unlock_irqrestore(&t->lock, flags);
}
