// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_concurrency - readers never see a torn policy.
 *
 * A writer alternates the policy between two versions (every one of NPAIR
 * rules "rx", or every one "wa"), each applied as one batch that also
 * grows the table with fresh labels and rules (forcing rehashes and label
 * table growth) while reader threads decide.  Each reader checks that all
 * NPAIR decisions taken inside one RCU read section agree on one version,
 * that every single sf_policy_access() matches one of the two, and that
 * label names read back correctly while the label table grows.
 */
#include <pthread.h>
#include <stdatomic.h>
#include "helpers.h"

#define NPAIR	64
#define NREAD	3
#define NBATCH	300

static struct sf_policy *pol;
static sf_lid subj[NPAIR], obj[NPAIR];
static atomic_int stop;

struct reader {
	pthread_t t;
	long reads, torn, bad, names_bad;
};

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	struct sf_labels *l = sf_policy_labels(pol);

	while (!atomic_load(&stop)) {
		const struct sf_snapshot *s;
		struct sf_decision d;
		int i, rx = 0, wa = 0;
		u32 n, k;

		sf_rcu_read_lock();
		s = sf_policy_snapshot(pol);
		for (i = 0; i < NPAIR; i++) {
			if (!sf_access(s, subj[i], obj[i], SF_MAY_READ |
				       SF_MAY_EXEC, NULL))
				rx++;
			if (!sf_access(s, subj[i], obj[i], SF_MAY_WRITE |
				       SF_MAY_APPEND, NULL))
				wa++;
		}
		sf_rcu_read_unlock();
		if (!((rx == NPAIR && wa == 0) || (wa == NPAIR && rx == 0)))
			r->torn++;
		/* One decision: the rule seen is one version's, whole. */
		i = (int)(r->reads % NPAIR);
		rx = !sf_policy_access(pol, subj[i], obj[i], SF_MAY_READ, &d);
		if (rx ? d.rule_access != (SF_MAY_READ | SF_MAY_EXEC) :
			 d.rule_access != (SF_MAY_WRITE | SF_MAY_APPEND |
					   SF_MAY_LOCK))
			r->bad++;
		/* Names of labels interned so far must read back. */
		n = sf_labels_count(l);
		for (k = SF_LID_FIRST_USER; k < n; k += 97) {
			const char *name = sf_label_name(l, k);

			if (!name || sf_label_find(l, name, strlen(name)) != k)
				r->names_bad++;
		}
		r->reads++;
	}
	return NULL;
}

static int version(int v, int round)
{
	struct sf_batch b;
	struct sf_op op = { .kind = SF_OP_SET };
	char name[32];
	int i, rc;

	sf_batch_init(&b);
	for (i = 0; i < NPAIR; i++) {
		op.subject = subj[i];
		op.object = obj[i];
		op.allow = v ? SF_MAY_READ | SF_MAY_EXEC
			     : SF_MAY_WRITE | SF_MAY_APPEND;
		sf_batch_add(&b, &op);
	}
	/* Grow: 40 new labels and rules per round. */
	for (i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "grow%d_%d", round, i);
		sf_label_intern(sf_policy_labels(pol), name, strlen(name),
				&op.subject, NULL);
		op.object = subj[i % NPAIR];
		op.allow = SF_MAY_READ;
		sf_batch_add(&b, &op);
	}
	rc = sf_policy_apply(pol, &b);
	sf_batch_release(&b);
	return rc;
}

int main(void)
{
	struct reader r[NREAD] = { 0 };
	long reads = 0, torn = 0, bad = 0, nbad = 0;
	char name[32];
	int i, fails = 0;

	pol = sf_policy_new();
	for (i = 0; i < NPAIR; i++) {
		snprintf(name, sizeof(name), "S%d", i);
		subj[i] = lid(pol, name);
		snprintf(name, sizeof(name), "O%d", i);
		obj[i] = lid(pol, name);
	}
	version(0, 0);
	for (i = 0; i < NREAD; i++)
		pthread_create(&r[i].t, NULL, reader_main, &r[i]);
	for (i = 1; i <= NBATCH; i++)
		if (version(i & 1, i))
			fails++;
	atomic_store(&stop, 1);
	for (i = 0; i < NREAD; i++) {
		pthread_join(r[i].t, NULL);
		reads += r[i].reads;
		torn += r[i].torn;
		bad += r[i].bad;
		nbad += r[i].names_bad;
	}
	ok(fails == 0, "%d batches applied while %d readers decide", NBATCH,
	   NREAD);
	ok(reads > NREAD, "readers made progress (%ld read sections)", reads);
	ok(torn == 0, "no read section saw a mix of two policies (%ld torn)",
	   torn);
	ok(bad == 0, "every decision matched the old or the new policy (%ld bad)",
	   bad);
	ok(nbad == 0, "label names read back while the table grew (%ld bad)",
	   nbad);
	sf_rcu_read_lock();
	ok(sf_snapshot_nrules(sf_policy_snapshot(pol)) == NPAIR + 40 * (NBATCH + 1),
	   "the final policy holds every rule (%u)",
	   sf_snapshot_nrules(sf_policy_snapshot(pol)));
	sf_rcu_read_unlock();
	sf_policy_free(pol);
	return tap_done();
}
