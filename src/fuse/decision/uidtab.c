// SPDX-License-Identifier: GPL-2.0-only
/*
 * uidtab.c - the uid -> label table: an RCU hash table, one writer at a
 * time, readers that never wait.
 *
 * Readers walk a bucket's chain under sf_rcu_read_lock() and copy what
 * they find.  The writer changes a chain only by publishing a pointer
 * (sf_rcu_assign): a new entry is linked in front, a replacement takes
 * the place of the entry it replaces, an unlinked entry keeps its own
 * link so that a reader standing on it still finds the rest of the
 * chain.  Unlinked entries and outgrown bucket arrays wait on a list of
 * their own until sf_uidtab_reclaim() has seen every reader leave.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>

#include "uidtab.h"

/* Buckets at first; the array doubles when entries outnumber buckets. */
#define SF_UIDTAB_MIN	64

struct sf_unode {
	struct sf_unode *next;		/* the chain; RCU-published */
	struct sf_unode *dead;		/* the reclaim list, once unlinked */
	struct sf_uent e;
	atomic_bool used;		/* read since the last sweep */
};

struct sf_ubuckets {
	size_t mask;			/* buckets - 1 (a power of two) */
	struct sf_ubuckets *dead;	/* the reclaim list, once replaced */
	struct sf_unode *b[];
};

struct sf_uidtab {
	struct sf_ubuckets *tab;	/* RCU-published */
	pthread_mutex_t lock;		/* the writer's */
	size_t n;			/* entries, under @lock */
	struct sf_unode *dead;		/* unlinked, under @lock */
	struct sf_ubuckets *dead_tabs;	/* replaced, under @lock */
};

/* Fibonacci hashing: uids are often consecutive. */
static size_t sf_uhash(uid_t uid)
{
	return (size_t)(((uint64_t)uid * SF_GOLDEN_RATIO_64) >> 32);
}

static struct sf_ubuckets *sf_ubuckets_new(size_t n)
{
	struct sf_ubuckets *b = calloc(1, sizeof(*b) + n * sizeof(b->b[0]));

	if (b)
		b->mask = n - 1;
	return b;
}

static struct sf_unode *sf_unode_new(const struct sf_uent *e, bool used)
{
	struct sf_unode *n = malloc(sizeof(*n));

	if (!n)
		return NULL;
	n->next = NULL;
	n->dead = NULL;
	n->e = *e;
	atomic_init(&n->used, used);
	return n;
}

struct sf_uidtab *sf_uidtab_new(void)
{
	struct sf_uidtab *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->tab = sf_ubuckets_new(SF_UIDTAB_MIN);
	if (!t->tab) {
		free(t);
		return NULL;
	}
	pthread_mutex_init(&t->lock, NULL);
	return t;
}

static void sf_ubuckets_free(struct sf_ubuckets *b)
{
	struct sf_unode *n, *next;
	size_t i;

	for (i = 0; i <= b->mask; i++) {
		for (n = b->b[i]; n; n = next) {
			next = n->next;
			free(n);
		}
	}
	free(b);
}

void sf_uidtab_free(struct sf_uidtab *t)
{
	if (!t)
		return;
	sf_uidtab_reclaim(t);
	sf_ubuckets_free(t->tab);
	pthread_mutex_destroy(&t->lock);
	free(t);
}

bool sf_uidtab_get(struct sf_uidtab *t, uid_t uid, struct sf_uent *out)
{
	struct sf_ubuckets *b;
	struct sf_unode *n;
	bool found = false;

	sf_rcu_read_lock();
	b = sf_rcu_dereference(t->tab);
	for (n = sf_rcu_dereference(b->b[sf_uhash(uid) & b->mask]); n;
	     n = sf_rcu_dereference(n->next)) {
		if (n->e.uid != uid)
			continue;
		*out = n->e;
		/* Written once per sweep, not per request: no line bouncing
		 * between the CPUs of a busy user. */
		if (!atomic_load_explicit(&n->used, memory_order_relaxed))
			atomic_store_explicit(&n->used, true,
					      memory_order_relaxed);
		found = true;
		break;
	}
	sf_rcu_read_unlock();
	return found;
}

/* Copy every entry into a bucket array twice the size and publish it;
 * the old array and its entries go to the reclaim list.  Under the lock.
 * On ENOMEM the table stays as it was, only fuller. */
static void sf_uidtab_grow(struct sf_uidtab *t)
{
	struct sf_ubuckets *old = t->tab, *nb;
	struct sf_unode *n, *c;
	size_t i, h;

	nb = sf_ubuckets_new((old->mask + 1) * 2);
	if (!nb)
		return;
	for (i = 0; i <= old->mask; i++) {
		for (n = old->b[i]; n; n = n->next) {
			c = sf_unode_new(&n->e, atomic_load(&n->used));
			if (!c) {
				sf_ubuckets_free(nb);
				return;
			}
			h = sf_uhash(c->e.uid) & nb->mask;
			c->next = nb->b[h];
			nb->b[h] = c;
		}
	}
	sf_rcu_assign(t->tab, nb);
	old->dead = t->dead_tabs;
	t->dead_tabs = old;
}

int sf_uidtab_put(struct sf_uidtab *t, const struct sf_uent *e)
{
	struct sf_unode *nn = sf_unode_new(e, false), **pp, *old;
	struct sf_ubuckets *b;
	size_t h;

	if (!nn)
		return -ENOMEM;
	pthread_mutex_lock(&t->lock);
	b = t->tab;
	h = sf_uhash(e->uid) & b->mask;
	for (pp = &b->b[h]; *pp && (*pp)->e.uid != e->uid; pp = &(*pp)->next)
		;
	old = *pp;
	if (old) {
		nn->next = old->next;
		sf_rcu_assign(*pp, nn);
		old->dead = t->dead;
		t->dead = old;
	} else {
		nn->next = b->b[h];
		sf_rcu_assign(b->b[h], nn);
		if (++t->n > b->mask + 1)
			sf_uidtab_grow(t);
	}
	pthread_mutex_unlock(&t->lock);
	return 0;
}

void sf_uidtab_sweep(struct sf_uidtab *t,
		     bool (*fn)(void *arg, const struct sf_uent *e, bool used),
		     void *arg)
{
	struct sf_ubuckets *b;
	struct sf_unode **pp, *n;
	size_t i;

	pthread_mutex_lock(&t->lock);
	b = t->tab;
	for (i = 0; i <= b->mask; i++) {
		pp = &b->b[i];
		while ((n = *pp)) {
			if (fn(arg, &n->e, atomic_exchange(&n->used, false))) {
				sf_rcu_assign(*pp, n->next);
				n->dead = t->dead;
				t->dead = n;
				t->n--;
			} else {
				pp = &n->next;
			}
		}
	}
	pthread_mutex_unlock(&t->lock);
}

size_t sf_uidtab_count(struct sf_uidtab *t)
{
	size_t n;

	pthread_mutex_lock(&t->lock);
	n = t->n;
	pthread_mutex_unlock(&t->lock);
	return n;
}

void sf_uidtab_reclaim(struct sf_uidtab *t)
{
	struct sf_unode *dead, *n;
	struct sf_ubuckets *tabs, *b;

	pthread_mutex_lock(&t->lock);
	dead = t->dead;
	tabs = t->dead_tabs;
	t->dead = NULL;
	t->dead_tabs = NULL;
	pthread_mutex_unlock(&t->lock);
	if (!dead && !tabs)
		return;
	sf_synchronize_rcu();
	while ((n = dead)) {
		dead = n->dead;
		free(n);
	}
	while ((b = tabs)) {
		tabs = b->dead;
		sf_ubuckets_free(b);
	}
}
