// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_policy - the label intern table and the batch/apply contract:
 * reserved ids, label validity limits, growth to many labels, whole-batch
 * application (a bad op anywhere applies nothing), op order, CLEAR, and
 * rule iteration in load order.
 */
#include "helpers.h"

static void labels(void)
{
	struct sf_labels *l = sf_labels_new();
	char name[300];
	sf_lid id, first = 0;
	u32 i, bad = 0;
	struct sf_error err = { 0 };

	ok(sf_label_find(l, "*", 1) == SF_LID_STAR &&
	   sf_label_find(l, "_", 1) == SF_LID_FLOOR &&
	   sf_label_find(l, "^", 1) == SF_LID_HAT &&
	   sf_label_find(l, "?", 1) == SF_LID_HUH &&
	   sf_label_find(l, "@", 1) == SF_LID_WEB &&
	   sf_labels_count(l) == SF_LID_FIRST_USER,
	   "a new table holds the five reserved labels at their fixed ids");
	ok(sf_label_name(l, SF_LID_INVALID) == NULL &&
	   sf_label_name(l, 999999) == NULL &&
	   !strcmp(sf_label_name(l, SF_LID_HAT), "^"),
	   "names: reserved ones known, invalid and unknown ids NULL");
	memset(name, 'a', sizeof(name));
	ok(sf_label_intern(l, name, 255, &id, &err) == 0 &&
	   strlen(sf_label_name(l, id)) == 255,
	   "a 255-byte label is accepted");
	ok(sf_label_intern(l, name, 256, &id, &err) == -EINVAL &&
	   sf_label_intern(l, name, 0, &id, &err) == -EINVAL,
	   "256-byte and empty labels are refused");
	ok(sf_label_valid("~!#$%&()*+,.:;<=>?@[]^_`{|}", 27, NULL) == 0 &&
	   sf_label_valid("a b", 3, NULL) == -EINVAL &&
	   sf_label_valid("a\x7f", 2, NULL) == -EINVAL,
	   "all printable bytes but / \" \\ ' are label bytes; space and DEL are not");
	/* Grow through several table doublings; ids dense and stable. */
	for (i = 0; i < 20000; i++) {
		int n = snprintf(name, sizeof(name), "L%u", i);

		if (sf_label_intern(l, name, (size_t)n, &id, NULL))
			bad++;
		if (i == 0)
			first = id;
		else if (id != first + i)
			bad++;
	}
	for (i = 0; i < 20000; i += 7) {
		int n = snprintf(name, sizeof(name), "L%u", i);

		if (sf_label_find(l, name, (size_t)n) != first + i ||
		    strcmp(sf_label_name(l, first + i), name))
			bad++;
	}
	ok(bad == 0 && sf_labels_count(l) == first + 20000,
	   "20,000 labels: dense ids in order, found and named after growth");
	ok(sf_label_intern(l, "L7", 2, &id, NULL) == 0 && id == first + 7,
	   "interning a known label returns its id");
	sf_labels_free(l);
}

static void batches(void)
{
	struct sf_policy *p = sf_policy_new();
	struct sf_batch b;
	struct sf_op op = { .kind = SF_OP_SET };
	sf_lid a = lid(p, "A"), bb = lid(p, "B"), c = lid(p, "C");
	sf_lid s, o;
	u32 x;
	char *out;

	load2(p, "A B r\n");
	sf_batch_init(&b);
	op.subject = a;
	op.object = c;
	op.allow = SF_MAY_WRITE;
	sf_batch_add(&b, &op);
	op.object = 424242;	/* never interned */
	sf_batch_add(&b, &op);
	ok(sf_policy_apply(p, &b) == -EINVAL &&
	   decide(p, "A", "C", "w", NULL) == 0,
	   "a batch with an unknown id applies nothing");
	sf_batch_truncate(&b, 1);
	op.object = c;
	op.allow = 0x80;	/* not an access bit */
	sf_batch_add(&b, &op);
	ok(sf_policy_apply(p, &b) == -EINVAL &&
	   decide(p, "A", "C", "w", NULL) == 0,
	   "a batch with undefined access bits applies nothing");
	sf_batch_release(&b);

	/* Order within a batch: SET, CHANGE, CLEAR, SET again. */
	sf_batch_init(&b);
	op = (struct sf_op){ .kind = SF_OP_SET, .subject = a, .object = c,
			     .allow = SF_MAY_READ };
	sf_batch_add(&b, &op);
	op.kind = SF_OP_CHANGE;
	op.allow = SF_MAY_WRITE;
	op.deny = SF_MAY_READ;
	sf_batch_add(&b, &op);
	ok(sf_policy_apply(p, &b) == 0 && decide(p, "A", "C", "w", NULL) == 1 &&
	   decide(p, "A", "C", "r", NULL) == 0 &&
	   decide(p, "A", "B", "r", NULL) == 1,
	   "ops apply in order (SET r, then CHANGE +w -r)");
	sf_batch_release(&b);
	sf_batch_init(&b);
	op = (struct sf_op){ .kind = SF_OP_CLEAR };
	sf_batch_add(&b, &op);
	op = (struct sf_op){ .kind = SF_OP_SET, .subject = c, .object = bb,
			     .allow = SF_MAY_EXEC };
	sf_batch_add(&b, &op);
	ok(sf_policy_apply(p, &b) == 0 && decide(p, "A", "B", "r", NULL) == 0 &&
	   decide(p, "C", "B", "x", NULL) == 1,
	   "CLEAR drops every rule; later ops in the batch still apply");
	sf_batch_release(&b);
	sf_rcu_read_lock();
	ok(sf_snapshot_nrules(sf_policy_snapshot(p)) == 1 &&
	   sf_rule_at(sf_policy_snapshot(p), 0, &s, &o, &x) && s == c &&
	   o == bb && x == SF_MAY_EXEC &&
	   !sf_rule_at(sf_policy_snapshot(p), 1, &s, &o, &x),
	   "sf_rule_at iterates the rules and stops at the end");
	sf_rcu_read_unlock();

	load2(p, "Z1 Y r\nZ2 Y w\nZ1 Y x\nZ3 Y a\n");
	out = print_all(p, sf_print_load2);
	ok(!strcmp(out, "C B x\nZ1 Y x\nZ2 Y w\nZ3 Y a\n"),
	   "rules print in load order; a replaced rule keeps its place");
	free(out);
	sf_policy_free(p);
}

static void access_strings(void)
{
	char buf[SF_NUM_ACCESS + 1];
	struct sf_error err = { 0 };
	u32 bits;

	sf_access_format(SF_MAY_ALL, buf);
	ok(!strcmp(buf, "rwxatlb"), "all bits format as rwxatlb");
	sf_access_format(SF_MAY_LOCK | SF_MAY_READ, buf);
	ok(!strcmp(buf, "rl"), "bits format in rwxatlb order (rl)");
	sf_access_format(0, buf);
	ok(!strcmp(buf, "-"), "no bits format as -");
	ok(sf_access_parse("bltaxwr", 7, &bits, &err) == 0 &&
	   bits == SF_MAY_ALL, "letters parse in any order");
	ok(sf_access_parse("", 0, &bits, &err) == -EINVAL,
	   "an empty access string is refused");
	ok(sf_access_parse("rw x", 4, &bits, &err) == -EINVAL &&
	   err.column == 3, "a space inside an access string is refused at its column");
}

int main(void)
{
	labels();
	batches();
	access_strings();
	return tap_done();
}
