/* SPDX-License-Identifier: GPL-2.0-only */
/* helpers.h - shared by the core's unit tests. */
#ifndef SMACKFUSE_TEST_HELPERS_H
#define SMACKFUSE_TEST_HELPERS_H

#include <string.h>
#include "smack.h"
#include "tap.h"

typedef int (*parse_fn)(struct sf_labels *, const char *, size_t,
			struct sf_batch *, struct sf_error *);

/* Parse @text with @fn and apply it; returns the parser/apply result. */
static inline int apply_text(struct sf_policy *p, parse_fn fn,
			     const char *text, size_t len, struct sf_error *err)
{
	struct sf_batch b;
	int rc;

	sf_batch_init(&b);
	rc = fn(sf_policy_labels(p), text, len, &b, err);
	if (!rc)
		rc = sf_policy_apply(p, &b);
	sf_batch_release(&b);
	return rc;
}

static inline int load2(struct sf_policy *p, const char *text)
{
	struct sf_error err = { 0 };
	int rc = apply_text(p, sf_parse_load2, text, strlen(text), &err);

	if (rc) {
		char msg[256];

		sf_error_format(&err, msg, sizeof(msg));
		tap_diag("load2 failed: %s", msg);
	}
	return rc;
}

static inline sf_lid lid(struct sf_policy *p, const char *name)
{
	sf_lid l = SF_LID_INVALID;

	sf_label_intern(sf_policy_labels(p), name, strlen(name), &l, NULL);
	return l;
}

static inline u32 acc(const char *s)
{
	u32 bits = 0;

	sf_access_parse(s, strlen(s), &bits, NULL);
	return bits;
}

/* 1 if allowed, 0 if denied; the reason goes to @reason when non-NULL. */
static inline int decide(struct sf_policy *p, const char *s, const char *o,
			 const char *request, enum sf_reason *reason)
{
	struct sf_decision d;
	int rc = sf_policy_access(p, lid(p, s), lid(p, o), acc(request), &d);

	if (reason)
		*reason = d.reason;
	if (rc != d.rc)
		return -1;
	return rc == 0;
}

/* Print a snapshot to a malloc'ed string with @fn. */
static inline char *print_all(struct sf_policy *p,
			      size_t (*fn)(const struct sf_labels *,
					   const struct sf_snapshot *, char *,
					   size_t))
{
	size_t n;
	char *buf;

	sf_rcu_read_lock();
	n = fn(sf_policy_labels(p), sf_policy_snapshot(p), NULL, 0);
	buf = malloc(n + 1);
	fn(sf_policy_labels(p), sf_policy_snapshot(p), buf, n + 1);
	sf_rcu_read_unlock();
	return buf;
}

#endif
