/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_common.h - the body of every libFuzzer target of the core's
 * parsers.  Each fuzz_<parser>.c defines FUZZ_PARSE (a batch parser) or
 * FUZZ_QUERY (a query parser) and includes this file.
 *
 * Invariants checked on every input (abort() on violation):
 * - a failed parse leaves the batch and the label table unchanged and
 *   says why (non-empty reason; line/column within the input);
 * - a successful parse applies cleanly, and what load2 (and load, onlycap)
 *   print parses back to the same printout;
 * - a query yields valid or SF_LID_INVALID ids and a decision.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "smack.h"

typedef int (*fuzz_parse_fn)(struct sf_labels *, const char *, size_t,
			     struct sf_batch *, struct sf_error *);
typedef size_t (*fuzz_print_fn)(const struct sf_labels *,
				const struct sf_snapshot *, char *, size_t);

static char *fuzz_print(struct sf_policy *p, fuzz_print_fn fn, size_t *len)
{
	char *buf;

	sf_rcu_read_lock();
	*len = fn(sf_policy_labels(p), sf_policy_snapshot(p), NULL, 0);
	buf = malloc(*len + 1);
	if (!buf)
		abort();
	if (fn(sf_policy_labels(p), sf_policy_snapshot(p), buf, *len + 1) !=
	    *len)
		abort();
	sf_rcu_read_unlock();
	return buf;
}

/* print(p) -> parse -> print must reproduce print(p) (twice for onlycap,
 * whose printout is in reverse order of writing). */
static void fuzz_round_trip(struct sf_policy *p, fuzz_parse_fn parse,
			    fuzz_print_fn print, int times)
{
	struct sf_policy *q = NULL, *src = p;
	struct sf_error err = { 0 };
	struct sf_batch b;
	size_t n0, n;
	char *first = fuzz_print(p, print, &n0), *text = NULL;
	int i;

	for (i = 0; i < times; i++) {
		free(text);
		text = fuzz_print(src, print, &n);
		q = sf_policy_new();
		sf_batch_init(&b);
		if (parse(sf_policy_labels(q), text, n, &b, &err) ||
		    sf_policy_apply(q, &b)) {
			fprintf(stderr, "round trip parse failed: %s\n",
				err.reason);
			abort();
		}
		sf_batch_release(&b);
		if (src != p)
			sf_policy_free(src);
		src = q;
	}
	free(text);
	text = fuzz_print(src, print, &n);
	if (n != n0 || memcmp(text, first, n)) {
		fprintf(stderr, "round trip differs:\n%s\n---\n%s\n", first,
			text);
		abort();
	}
	sf_policy_free(src);
	free(text);
	free(first);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct sf_policy *p = sf_policy_new();
	struct sf_labels *l = sf_policy_labels(p);
	u32 nlabels = sf_labels_count(l);
	struct sf_error err = { 0 };
	char msg[512];
	int rc;

	if (!p)
		abort();
#ifdef FUZZ_PARSE
	{
		struct sf_batch b;

		sf_batch_init(&b);
		rc = FUZZ_PARSE(l, (const char *)data, size, &b, &err);
		if (rc) {
			if (rc != -EINVAL || b.nops ||
			    sf_labels_count(l) != nlabels || !err.reason[0] ||
			    err.line > size + 1 || err.column > size + 1)
				abort();
			sf_error_format(&err, msg, sizeof(msg));
		} else {
			if (sf_policy_apply(p, &b))
				abort();
			fuzz_round_trip(p, sf_parse_load2, sf_print_load2, 1);
			fuzz_round_trip(p, sf_parse_load, sf_print_load, 1);
			fuzz_round_trip(p, sf_parse_onlycap, sf_print_onlycap, 2);
		}
		sf_batch_release(&b);
	}
#endif
#ifdef FUZZ_QUERY
	{
		struct sf_query q;
		struct sf_decision d;

		rc = FUZZ_QUERY(l, (const char *)data, size, &q, &err);
		if (sf_labels_count(l) != nlabels)
			abort();	/* queries never intern */
		if (rc) {
			if (rc != -EINVAL || !err.reason[0])
				abort();
			sf_error_format(&err, msg, sizeof(msg));
		} else {
			if ((q.subject >= nlabels || q.object >= nlabels) ||
			    (q.request & ~SF_MAY_ALL))
				abort();
			rc = sf_policy_access(p, q.subject, q.object,
					      q.request, &d);
			if (rc != d.rc || (rc && rc != -EACCES))
				abort();
		}
	}
#endif
	sf_policy_free(p);
	return 0;
}
