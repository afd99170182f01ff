// SPDX-License-Identifier: GPL-2.0-only
/*
 * decide - access decision benchmark for the smackfuse core.
 *
 * Prints decisions per second with 10, 1,000 and 100,000 rules over
 * 10,000 labels, side by side with a baseline that walks the subject's
 * rule list the way mainline smk_access_entry() does; the load time of
 * 100,000 rules (load2 text: parse, intern, apply); and bytes per rule.
 * Every figure is the median of RUNS runs, timed in thread CPU time.
 * One thread.
 *
 * Usage: decide [runs]      (default 5)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "smack.h"

#define NLABELS		10000u
#define NQUERIES	(1u << 20)
#define MAXRUNS		15

static int runs = 5;

/*
 * CPU time of this thread: the machine may be shared, and "per second on
 * one core" should not count the time another process had the core.
 */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* xorshift64*: deterministic and cheap. */
static u64 rng_state = 88172645463325252ull;

static u64 rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ull;
}

/* ---- the baseline: mainline's per-subject rule lists ---- */

struct base_known;
struct base_rule {
	struct base_rule *next;		/* list_head in mainline */
	struct base_rule *prev;
	struct base_known *subject;
	struct base_known *object;
	int access;
};

struct base_known {
	const char *smk_known;		/* compared by pointer */
	struct base_rule *rules;	/* newest first, as list_add_rcu */
};

static struct base_known *base_labels;

static void base_add(u32 s, u32 o, int access)
{
	struct base_rule *r;

	for (r = base_labels[s].rules; r; r = r->next)
		if (r->object == &base_labels[o]) {
			r->access = access;
			return;
		}
	r = calloc(1, sizeof(*r));
	r->subject = &base_labels[s];
	r->object = &base_labels[o];
	r->access = access;
	r->next = base_labels[s].rules;
	base_labels[s].rules = r;
}

/* smk_access_entry(): the object label is compared first. */
static int base_entry(const char *subject_label, const char *object_label,
		      struct base_rule *list)
{
	struct base_rule *r;

	for (r = list; r; r = r->next)
		if (r->object->smk_known == object_label &&
		    r->subject->smk_known == subject_label) {
			int may = r->access;

			if (may & SF_MAY_WRITE)
				may |= SF_MAY_LOCK;
			return may;
		}
	return -ENOENT;
}

static void base_free(void)
{
	struct base_rule *r, *n;
	u32 i;

	for (i = 0; i < NLABELS + SF_LID_FIRST_USER; i++)
		for (r = base_labels[i].rules; r; r = n) {
			n = r->next;
			free(r);
		}
}

/* ---- the setup ---- */

struct query {
	u32 s, o, req;
};

static struct sf_policy *pol;
static sf_lid lids[NLABELS];
static struct query *qs;

static void setup_labels(void)
{
	struct sf_labels *l = sf_policy_labels(pol);
	char name[32];
	u32 i;

	base_labels = calloc(NLABELS + SF_LID_FIRST_USER, sizeof(*base_labels));
	for (i = SF_LID_STAR; i < SF_LID_FIRST_USER; i++)
		base_labels[i].smk_known = sf_label_name(l, i);
	for (i = 0; i < NLABELS; i++) {
		int n = snprintf(name, sizeof(name), "Label%05u", i);

		sf_label_intern(l, name, n, &lids[i], NULL);
		base_labels[lids[i]].smk_known = sf_label_name(l, lids[i]);
	}
}

/* @nrules random rules; queries: half on existing rules, half random. */
static void setup_rules(u32 nrules)
{
	struct sf_batch b;
	struct sf_op op = { .kind = SF_OP_SET };
	u32 *rs = malloc(sizeof(u32) * 2 * nrules), i;

	sf_batch_init(&b);
	for (i = 0; i < nrules; i++) {
		op.subject = lids[rnd() % NLABELS];
		op.object = lids[rnd() % NLABELS];
		op.allow = (u32)(rnd() % SF_MAY_ALL) + 1;
		rs[2 * i] = op.subject;
		rs[2 * i + 1] = op.object;
		sf_batch_add(&b, &op);
		base_add(op.subject, op.object, (int)op.allow);
	}
	sf_policy_apply(pol, &b);
	sf_batch_release(&b);
	for (i = 0; i < NQUERIES; i++) {
		u32 k = (u32)(rnd() % nrules);

		if (i & 1) {
			qs[i].s = rs[2 * k];
			qs[i].o = rs[2 * k + 1];
		} else {
			qs[i].s = lids[rnd() % NLABELS];
			qs[i].o = lids[rnd() % NLABELS];
		}
		qs[i].req = 1u << (rnd() % SF_NUM_ACCESS);
	}
	free(rs);
}

/* Decisions/s of sf_access under one read section per 1024 queries. */
static double run_core(u32 *allowed)
{
	double t0 = now(), t;
	u32 i, j, yes = 0;

	for (i = 0; i < NQUERIES; i += 1024) {
		const struct sf_snapshot *s;

		sf_rcu_read_lock();
		s = sf_policy_snapshot(pol);
		for (j = i; j < i + 1024; j++)
			yes += !sf_access(s, qs[j].s, qs[j].o, qs[j].req, NULL);
		sf_rcu_read_unlock();
	}
	t = now() - t0;
	*allowed = yes;
	return NQUERIES / t;
}

/* Decisions/s of sf_policy_access: a read section per decision. */
static double run_core_locked(u32 *allowed)
{
	double t0 = now(), t;
	u32 i, yes = 0;

	for (i = 0; i < NQUERIES; i++)
		yes += !sf_policy_access(pol, qs[i].s, qs[i].o, qs[i].req, NULL);
	t = now() - t0;
	*allowed = yes;
	return NQUERIES / t;
}

/* The baseline decision: mainline smk_access() with its list walk. */
static __attribute__((noinline)) int base_access(struct base_known *subject,
						 struct base_known *object,
						 u32 request)
{
	int may;

	if (subject == &base_labels[SF_LID_STAR])
		return -EACCES;
	if (object == &base_labels[SF_LID_WEB] ||
	    subject == &base_labels[SF_LID_WEB])
		return 0;
	if (object == &base_labels[SF_LID_STAR])
		return 0;
	if (subject->smk_known == object->smk_known)
		return 0;
	if ((request & SF_MAY_ANYREAD) == request ||
	    (request & SF_MAY_LOCK) == request) {
		if (object == &base_labels[SF_LID_FLOOR])
			return 0;
		if (subject == &base_labels[SF_LID_HAT])
			return 0;
	}
	may = base_entry(subject->smk_known, object->smk_known,
			 subject->rules);
	if (may <= 0 || (request & (u32)may) != request)
		return -EACCES;
	return 0;
}

static double run_base(u32 *allowed)
{
	double t0 = now(), t;
	u32 i, yes = 0;

	for (i = 0; i < NQUERIES; i++)
		yes += !base_access(&base_labels[qs[i].s],
				    &base_labels[qs[i].o], qs[i].req);
	t = now() - t0;
	*allowed = yes;
	return NQUERIES / t;
}

static void bench_rules(u32 nrules)
{
	double core[MAXRUNS] = { 0 }, locked[MAXRUNS] = { 0 };
	double base[MAXRUNS] = { 0 };
	u32 a1 = 0, a2 = 0, a3 = 0;
	int r;

	pol = sf_policy_new();
	setup_labels();
	setup_rules(nrules);
	for (r = 0; r < runs; r++) {
		core[r] = run_core(&a1);
		locked[r] = run_core_locked(&a2);
		base[r] = run_base(&a3);
	}
	if (a1 != a3 || a2 != a3)
		printf("MISMATCH: core allowed %u/%u, baseline %u\n", a1, a2, a3);
	printf("%8u rules, %u labels: core %7.2f M/s (%.2f M/s with a read lock per call), mainline list walk %7.2f M/s, ratio %.1fx\n",
	       nrules, NLABELS, median(core, runs) / 1e6,
	       median(locked, runs) / 1e6, median(base, runs) / 1e6,
	       median(core, runs) / median(base, runs));
	if (nrules == 100000) {
		sf_rcu_read_lock();
		printf("%8s bytes per rule: core %.1f (snapshot %zu bytes for %u rules), mainline struct smack_rule %zu + slab\n",
		       "", (double)sf_snapshot_bytes(sf_policy_snapshot(pol)) /
				   sf_snapshot_nrules(sf_policy_snapshot(pol)),
		       sf_snapshot_bytes(sf_policy_snapshot(pol)),
		       sf_snapshot_nrules(sf_policy_snapshot(pol)),
		       sizeof(struct base_rule));
		sf_rcu_read_unlock();
	}
	base_free();
	free(base_labels);
	sf_policy_free(pol);
}

static void bench_load(u32 nrules)
{
	double t[MAXRUNS] = { 0 }, w[MAXRUNS] = { 0 };
	size_t cap = (size_t)nrules * 40, len = 0;
	char *text = malloc(cap);
	u32 i;
	int r;

	for (i = 0; i < nrules; i++)
		len += snprintf(text + len, cap - len, "Label%05u Label%05u %s\n",
				(u32)(rnd() % NLABELS), (u32)(rnd() % NLABELS),
				i & 1 ? "rwx" : "r-x-l");
	for (r = 0; r < runs; r++) {
		struct sf_policy *p = sf_policy_new();
		struct sf_error err = { 0 };
		struct sf_batch b;
		double t0 = now(), w0 = wall();
		int rc;

		sf_batch_init(&b);
		rc = sf_parse_load2(sf_policy_labels(p), text, len, &b, &err);
		if (!rc)
			rc = sf_policy_apply(p, &b);
		t[r] = now() - t0;
		w[r] = wall() - w0;
		if (rc)
			printf("load failed: %d %s\n", rc, err.reason);
		sf_batch_release(&b);
		sf_policy_free(p);
	}
	printf("load %u rules (%zu bytes of load2 text: parse, intern, apply): %.3f s CPU, %.3f s wall (target < 0.5 s)\n",
	       nrules, len, median(t, runs), median(w, runs));
	free(text);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		runs = atoi(argv[1]);
	if (runs < 1 || runs > MAXRUNS)
		runs = 5;
	qs = malloc(sizeof(*qs) * NQUERIES);
	printf("smackfuse core decision benchmark: median of %d runs, %u queries each, one thread, CPU time\n",
	       runs, NQUERIES);
	printf("(queries: half on existing rules, half random pairs; one random access letter)\n");
	bench_rules(10);
	bench_rules(1000);
	bench_rules(100000);
	printf("target: >= 20 M/s at 100,000 rules\n");
	bench_load(100000);
	free(qs);
	return 0;
}
