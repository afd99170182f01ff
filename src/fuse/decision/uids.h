/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * uids.h - the users map's label of a uid, for request threads.
 *
 * A uid's label ("* %u": its user name; a user line; an @group line the
 * account is a member of) needs the name service, which may be slow or
 * hang (sssd, LDAP).  Request threads never call it: resolver threads
 * look a uid up once and put the answer in a table (uidtab.h), which
 * requests read without a lock.  The answers follow the accounts:
 *
 *  - an answer lives at most @ttl_ms from the start of its lookup; an
 *    answer a request used is looked up again from three quarters of
 *    that, in the background, so a busy user never waits;
 *  - sf_uids_reload() looks every known uid up again, and from its return
 *    (at most @timeout_ms later) no request uses an answer older than it;
 *  - a request whose uid has no answer waits for one at most @timeout_ms;
 *    if the lookup fails or does not come, the request is denied, and
 *    the uid's next requests are denied at once while the lookup is
 *    outstanding (a failed one is tried again after a second).  Each
 *    failure is logged once, until a lookup of that uid works again.
 */
#ifndef SMACKFUSE_UIDS_H
#define SMACKFUSE_UIDS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "smack.h"
#include "users.h"

/* Defaults of -o users_ttl= and -o users_timeout= (milliseconds). */
#define SF_UIDS_TTL_MS		60000u
#define SF_UIDS_TIMEOUT_MS	2000u

struct sf_uids_config {
	const struct sf_users *users;	/* the map; outlives the table */
	struct sf_labels *labels;
	unsigned int ttl_ms;
	unsigned int timeout_ms;
	bool foreground;		/* messages to stderr, else syslog */
};

struct sf_uids;

/* The table; its threads start with the first lookup (after a fork). */
int sf_uids_new(struct sf_uids **out, const struct sf_uids_config *cfg);

/*
 * sf_uids_label - the label of @uid in *@lid.  Returns true, or false
 * when no answer could be had (lookup failed or timed out): deny.
 * Lock-free when the uid is known; otherwise waits at most timeout_ms.
 */
bool sf_uids_label(struct sf_uids *u, uid_t uid, sf_lid *lid);

/* Look every known uid up again (see above); returns when done, or at
 * most timeout_ms later. */
void sf_uids_reload(struct sf_uids *u);

/* End the threads and free @u, once no request can come. */
void sf_uids_stop(struct sf_uids *u);

/* "users known: N" and the lookup counters, snprintf style. */
size_t sf_uids_status(struct sf_uids *u, char *buf, size_t size);

/*
 * sf_uids_option - the SECONDS of -o users_ttl= (@ttl) or -o
 * users_timeout= into *@ms.  Returns 0, or -EINVAL with the reason in
 * @why.
 */
int sf_uids_option(bool ttl, const char *val, unsigned int *ms,
		   const char **why);

#endif /* SMACKFUSE_UIDS_H */
