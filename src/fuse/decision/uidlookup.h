/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * uidlookup.h - one uid's label from the users map and the name service,
 * as pam_smackfuse computes it at login: the account's user line, else
 * the first @group line of a group the account is in (the group
 * database, initgroups), else the "*" line ("%u": the account's name),
 * else the floor.  Called by the resolver threads of uids.c only.
 */
#ifndef SMACKFUSE_UIDLOOKUP_H
#define SMACKFUSE_UIDLOOKUP_H

#include <stdint.h>
#include <sys/types.h>

#include "smack.h"
#include "users.h"

uint64_t sf_now_ns(void);	/* CLOCK_MONOTONIC */

/* The map, with its user and group names looked up again when they are
 * older than a second or than a reload. */
struct sf_umap;

struct sf_umap *sf_umap_new(const struct sf_users *users,
			    struct sf_labels *labels);
void sf_umap_free(struct sf_umap *m);

/*
 * sf_umap_label - @uid's label now, in *@lid.  *@born is when the oldest
 * fact it rests on was looked up (never before @floor).  Returns 0, or a
 * negative errno when a lookup failed: no label can be given.
 */
int sf_umap_label(struct sf_umap *m, uid_t uid, uint64_t floor, sf_lid *lid,
		  uint64_t *born);

#endif /* SMACKFUSE_UIDLOOKUP_H */
