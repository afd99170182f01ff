/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * uidtab.h - the table of uid -> label answers of the users map.
 *
 * A hash table published like the core's policy: readers (request
 * threads) take no lock and never wait; one writer at a time (a mutex
 * among the resolver threads) links new entries in, replaces or unlinks
 * old ones, and doubles the bucket array as the table fills.  An entry is
 * never changed once readers can see it (but for its "used" mark): a
 * new answer is a new entry, and what was unlinked is freed by
 * sf_uidtab_reclaim() after every reader that could hold it has left.
 */
#ifndef SMACKFUSE_UIDTAB_H
#define SMACKFUSE_UIDTAB_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "smack.h"

/* Entry flags. */
#define SF_UE_FAILED	0x1u	/* the lookup failed: deny until retried */
#define SF_UE_LOGGED	0x2u	/* this failure spell was logged */

/* What the resolver learnt about one uid. */
struct sf_uent {
	uid_t uid;
	sf_lid lid;		/* the label; meaningless when FAILED */
	uint64_t born;		/* CLOCK_MONOTONIC ns: when the lookup began */
	unsigned int flags;
};

struct sf_uidtab;

struct sf_uidtab *sf_uidtab_new(void);
/* Only when no reader or writer is left. */
void sf_uidtab_free(struct sf_uidtab *t);

/*
 * sf_uidtab_get - copy @uid's entry into @out and mark it used.
 * Returns false when there is none.  Lock-free; never blocks.
 */
bool sf_uidtab_get(struct sf_uidtab *t, uid_t uid, struct sf_uent *out);

/* Insert or replace the entry of @e->uid.  Returns 0 or -ENOMEM. */
int sf_uidtab_put(struct sf_uidtab *t, const struct sf_uent *e);

/*
 * sf_uidtab_sweep - visit every entry: @fn gets a copy, whether a reader
 * used it since the last sweep (the mark is cleared), and returns true
 * to unlink it.  Runs under the writer lock: @fn must not block.
 */
void sf_uidtab_sweep(struct sf_uidtab *t,
		     bool (*fn)(void *arg, const struct sf_uent *e, bool used),
		     void *arg);

/* Entries in the table. */
size_t sf_uidtab_count(struct sf_uidtab *t);

/* Free what was unlinked or replaced; waits for readers, so never call
 * it from inside a read-side section. */
void sf_uidtab_reclaim(struct sf_uidtab *t);

#endif /* SMACKFUSE_UIDTAB_H */
