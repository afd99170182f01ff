// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_decision - sf_access() against decision tables: every reserved
 * label case in mainline smk_access() order, every access letter, rule
 * replace/change/revoke, and the four use cases of the 2007 posting.
 */
#include "caps.h"
#include "helpers.h"

struct row {
	const char *s, *o, *req;
	int allow;
	enum sf_reason reason;
};

static void table(struct sf_policy *p, const char *what, const struct row *r,
		  size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		enum sf_reason why;
		int got = decide(p, r[i].s, r[i].o, r[i].req, &why);

		ok(got == r[i].allow && why == r[i].reason,
		   "%s: %s %s %s -> %s (reason %d, got %d/%d)", what, r[i].s,
		   r[i].o, r[i].req, r[i].allow ? "allow" : "deny",
		   r[i].reason, got, why);
	}
}

#define TABLE(p, what, t) table(p, what, t, sizeof(t) / sizeof(t[0]))

static void reserved(void)
{
	struct sf_policy *p = sf_policy_new();
	/* Rules that must NOT override the hard-coded steps. */
	static const struct row t[] = {
		/* 1: star subject denied everything, even a rule, even "*". */
		{ "*", "A", "r", 0, SF_R_STAR_SUBJECT },
		{ "*", "*", "r", 0, SF_R_STAR_SUBJECT },
		{ "*", "@", "r", 0, SF_R_STAR_SUBJECT },
		{ "*", "_", "r", 0, SF_R_STAR_SUBJECT },
		{ "*", "*", "-", 0, SF_R_STAR_SUBJECT },
		/* 2: web subject or object: everything. */
		{ "@", "A", "rwxatlb", 1, SF_R_WEB },
		{ "A", "@", "rwxatlb", 1, SF_R_WEB },
		{ "@", "*", "w", 1, SF_R_WEB },
		{ "^", "@", "w", 1, SF_R_WEB },
		/* 3: star object: everything. */
		{ "A", "*", "rwxatlb", 1, SF_R_STAR_OBJECT },
		{ "_", "*", "w", 1, SF_R_STAR_OBJECT },
		{ "?", "*", "w", 1, SF_R_STAR_OBJECT },
		/* 4: same label. */
		{ "A", "A", "rwxatlb", 1, SF_R_SAME },
		{ "_", "_", "w", 1, SF_R_SAME },
		{ "^", "^", "w", 1, SF_R_SAME },
		{ "?", "?", "w", 1, SF_R_SAME },
		/* 5: floor object: read/exec or lock only. */
		{ "F", "_", "r", 1, SF_R_FLOOR_OBJECT },
		{ "F", "_", "x", 1, SF_R_FLOOR_OBJECT },
		{ "F", "_", "rx", 1, SF_R_FLOOR_OBJECT },
		{ "F", "_", "l", 1, SF_R_FLOOR_OBJECT },
		{ "F", "_", "-", 1, SF_R_FLOOR_OBJECT },
		{ "F", "_", "rl", 0, SF_R_NO_RULE },
		{ "F", "_", "w", 0, SF_R_NO_RULE },
		{ "F", "_", "a", 0, SF_R_NO_RULE },
		{ "F", "_", "t", 0, SF_R_NO_RULE },
		{ "F", "_", "b", 0, SF_R_NO_RULE },
		{ "?", "_", "r", 1, SF_R_FLOOR_OBJECT },
		/* 5: hat subject: read/exec or lock only. */
		{ "^", "A", "r", 1, SF_R_HAT_SUBJECT },
		{ "^", "A", "rx", 1, SF_R_HAT_SUBJECT },
		{ "^", "A", "l", 1, SF_R_HAT_SUBJECT },
		{ "^", "_", "r", 1, SF_R_FLOOR_OBJECT },
		{ "^", "?", "x", 1, SF_R_HAT_SUBJECT },
		{ "^", "B", "w", 0, SF_R_NO_RULE },
		{ "^", "B", "rl", 0, SF_R_NO_RULE },
		{ "^", "B", "a", 0, SF_R_NO_RULE },
		/* huh is an ordinary label beyond the steps above. */
		{ "?", "A", "r", 0, SF_R_NO_RULE },
		{ "A", "?", "r", 0, SF_R_NO_RULE },
		{ "_", "B", "r", 0, SF_R_NO_RULE },
		{ "_", "A", "r", 1, SF_R_RULE },
		{ "^", "A", "w", 1, SF_R_RULE },
		/* 6: explicit rules. */
		{ "A", "B", "r", 1, SF_R_RULE },
		{ "A", "B", "w", 0, SF_R_RULE_SHORT },
		{ "B", "A", "r", 0, SF_R_NO_RULE },
		{ "A", "B", "-", 1, SF_R_RULE },
		{ "C", "B", "-", 0, SF_R_NO_RULE },
	};

	load2(p, "* A rwxatlb\n* * rwxatlb\n_ A rwx\n^ A w\nA _ w\nA B r\n");
	TABLE(p, "reserved", t);
	ok(decide(p, "A", "_", "w", NULL) == 1, "a rule A _ w grants write on floor");
	sf_policy_free(p);
}

static void letters(void)
{
	static const char *const l = "rwxatlb";
	struct sf_policy *p = sf_policy_new();
	char rule[64], req[2] = { 0 };
	int i, j;

	/* One subject per letter, holding that letter alone on object O. */
	for (i = 0; l[i]; i++) {
		snprintf(rule, sizeof(rule), "S%c O %c\n", l[i], l[i]);
		load2(p, rule);
	}
	for (i = 0; l[i]; i++) {
		char subj[3] = { 'S', l[i], 0 };

		for (j = 0; l[j]; j++) {
			int want = i == j || (l[i] == 'w' && l[j] == 'l');

			req[0] = l[j];
			ok(decide(p, subj, "O", req, NULL) == want,
			   "letter: rule %c %s request %c", l[i],
			   want ? "grants" : "does not grant", l[j]);
		}
	}
	/* Upper case parses to the same bits, '-' is a placeholder. */
	ok(acc("RWXATLB") == SF_MAY_ALL && acc("r-x") == SF_MAY_ANYREAD &&
	   acc("-") == 0, "access letters are case-insensitive, '-' adds nothing");
	sf_policy_free(p);
}

static void replace_change_revoke(void)
{
	struct sf_policy *p = sf_policy_new();
	struct sf_error err = { 0 };
	const char *chg;
	u32 a = 0;
	int rc;

	load2(p, "A B rwx\nA C r\nB C w\n");
	load2(p, "A B r\n");
	ok(decide(p, "A", "B", "r", NULL) == 1 &&
	   decide(p, "A", "B", "w", NULL) == 0 &&
	   decide(p, "A", "B", "x", NULL) == 0,
	   "load2 replaces the access of an existing pair (rwx -> r)");
	chg = "A B wa r\nA D t -\n";
	rc = apply_text(p, sf_parse_change_rule, chg, strlen(chg), &err);
	ok(rc == 0, "change-rule parses and applies");
	ok(decide(p, "A", "B", "r", NULL) == 0 &&
	   decide(p, "A", "B", "wa", NULL) == 1,
	   "change-rule adds allow bits and clears deny bits (r + wa - r = wa)");
	ok(decide(p, "A", "D", "t", NULL) == 1,
	   "change-rule creates a missing rule");
	chg = "A B rwxatlb rwxatlb\n";
	apply_text(p, sf_parse_change_rule, chg, strlen(chg), &err);
	sf_rcu_read_lock();
	rc = sf_rule_lookup(sf_policy_snapshot(p), lid(p, "A"), lid(p, "B"), &a);
	sf_rcu_read_unlock();
	ok(rc == 0 && a == 0 && decide(p, "A", "B", "-", NULL) == 0,
	   "a rule cleared to nothing stays, with access 0, and denies");
	rc = apply_text(p, sf_parse_revoke_subject, "A\n", 2, &err);
	ok(rc == 0 && decide(p, "A", "C", "r", NULL) == 0 &&
	   decide(p, "A", "D", "t", NULL) == 0,
	   "revoke-subject A removes every access of A");
	ok(decide(p, "B", "C", "w", NULL) == 1,
	   "revoke-subject A leaves other subjects' rules");
	load2(p, "A C r\n");
	ok(decide(p, "A", "C", "r", NULL) == 1,
	   "a revoked rule can be loaded again");
	sf_policy_free(p);
}

static void levels(void)
{
	struct sf_policy *p = sf_policy_new();
	static const struct row t[] = {
		{ "TS", "S", "rx", 1, SF_R_RULE },
		{ "TS", "C", "rx", 1, SF_R_RULE },
		{ "TS", "Unclass", "rx", 1, SF_R_RULE },
		{ "S", "C", "r", 1, SF_R_RULE },
		{ "S", "Unclass", "x", 1, SF_R_RULE },
		{ "C", "Unclass", "r", 1, SF_R_RULE },
		{ "Unclass", "C", "r", 0, SF_R_NO_RULE },
		{ "C", "S", "r", 0, SF_R_NO_RULE },
		{ "S", "TS", "r", 0, SF_R_NO_RULE },
		{ "TS", "S", "w", 0, SF_R_RULE_SHORT },
		{ "S", "C", "w", 0, SF_R_RULE_SHORT },
		{ "TS", "Unclass", "a", 0, SF_R_RULE_SHORT },
		{ "TS", "TS", "w", 1, SF_R_SAME },
		{ "Unclass", "Unclass", "rwxa", 1, SF_R_SAME },
	};

	load2(p, "C Unclass rx\nS C rx\nS Unclass rx\nTS S rx\nTS C rx\n"
		 "TS Unclass rx\n");
	TABLE(p, "levels", t);
	sf_policy_free(p);

	/* Non-transitivity: TS->S and S->C do not give TS->C. */
	p = sf_policy_new();
	load2(p, "TS S rx\nS C rx\n");
	ok(decide(p, "TS", "S", "r", NULL) == 1 &&
	   decide(p, "S", "C", "r", NULL) == 1 &&
	   decide(p, "TS", "C", "r", NULL) == 0,
	   "levels: TS->S and S->C do not imply TS->C (no transitivity)");
	sf_policy_free(p);
}

static void categories(void)
{
	struct sf_policy *p = sf_policy_new();
	static const struct row t[] = {
		{ "Blue", "Green", "r", 0, SF_R_NO_RULE },
		{ "Green", "Blue", "r", 0, SF_R_NO_RULE },
		{ "Blue", "Red", "x", 0, SF_R_NO_RULE },
		{ "Blue", "Blue", "rwxa", 1, SF_R_SAME },
		{ "Red", "_", "rx", 1, SF_R_FLOOR_OBJECT },
		{ "Red", "_", "w", 0, SF_R_NO_RULE },
	};

	TABLE(p, "categories (no rules: compartments)", t);
	sf_policy_free(p);
}

static void mutual_read(void)
{
	struct sf_policy *p = sf_policy_new();
	static const struct row t[] = {
		{ "ESPN", "ABC", "r", 1, SF_R_RULE },
		{ "ABC", "ESPN", "r", 1, SF_R_RULE },
		{ "ESPN", "ABC", "w", 0, SF_R_RULE_SHORT },
		{ "ABC", "ESPN", "w", 0, SF_R_RULE_SHORT },
		{ "ABC", "ESPN", "a", 0, SF_R_RULE_SHORT },
		{ "ESPN", "FOX", "r", 0, SF_R_NO_RULE },
		{ "ABC", "FOX", "r", 0, SF_R_NO_RULE },
		{ "FOX", "ABC", "r", 0, SF_R_NO_RULE },
	};

	load2(p, "ESPN ABC r\nABC ESPN r\n");
	TABLE(p, "mutual read", t);
	sf_policy_free(p);
}

static void guard_box(void)
{
	struct sf_policy *p = sf_policy_new();
	static const struct row t[] = {
		{ "SatData", "Guard", "w", 1, SF_R_RULE },
		{ "Guard", "Publish", "w", 1, SF_R_RULE },
		{ "Guard", "Publish", "l", 1, SF_R_RULE },	/* w implies l */
		{ "Guard", "Publish", "rw", 0, SF_R_RULE_SHORT },
		{ "Guard", "Publish", "r", 0, SF_R_RULE_SHORT },
		{ "SatData", "Publish", "w", 0, SF_R_NO_RULE },
		{ "Guard", "SatData", "w", 0, SF_R_NO_RULE },
		{ "Publish", "Guard", "r", 0, SF_R_NO_RULE },
		{ "SatData", "Guard", "r", 0, SF_R_RULE_SHORT },
	};

	load2(p, "SatData Guard w\nGuard Publish w\n");
	TABLE(p, "guard box", t);
	sf_policy_free(p);
}

static void no_write_by_default(void)
{
	struct sf_policy *p = sf_policy_new();
	const char *const names[] = { "Unclass", "C", "S", "TS", "_", "^", "?" };
	int i, j, bad = 0;

	load2(p, "C Unclass rx\nS C rx\nS Unclass rx\nTS S rx\nTS C rx\n"
		 "TS Unclass rx\n");
	for (i = 0; i < 7; i++)
		for (j = 0; j < 7; j++)
			if (i != j && decide(p, names[i], names[j], "w", NULL))
				bad++;
	ok(bad == 0, "no write by default across levels and reserved labels");
	sf_policy_free(p);
}

static void unknown_ids(void)
{
	struct sf_policy *p = sf_policy_new();
	struct sf_decision d;

	ok(sf_policy_access(p, SF_LID_INVALID, SF_LID_INVALID, 0, &d) ==
		   -EACCES && d.reason == SF_R_UNKNOWN_LABEL,
	   "an unknown (invalid) label id is denied, even against itself");
	sf_policy_free(p);
}

static void onlycap(void)
{
	struct sf_policy *p = sf_policy_new();
	struct sf_error err = { 0 };
	int rc;

	sf_rcu_read_lock();
	ok(sf_onlycap_allows(sf_policy_snapshot(p), lid(p, "A")),
	   "empty onlycap lets any label use privilege");
	sf_rcu_read_unlock();
	rc = apply_text(p, sf_parse_onlycap, "Admin Root\n", 11, &err);
	sf_rcu_read_lock();
	ok(rc == 0 && sf_onlycap_allows(sf_policy_snapshot(p), lid(p, "Root")) &&
	   sf_onlycap_allows(sf_policy_snapshot(p), lid(p, "Admin")) &&
	   !sf_onlycap_allows(sf_policy_snapshot(p), lid(p, "A")),
	   "onlycap narrows privilege to its labels");
	sf_rcu_read_unlock();
	rc = apply_text(p, sf_parse_onlycap, "-usecapabilities", 16, &err);
	sf_rcu_read_lock();
	ok(rc == 0 && sf_onlycap_allows(sf_policy_snapshot(p), lid(p, "A")),
	   "onlycap \"-usecapabilities\" clears it");
	sf_rcu_read_unlock();
	sf_policy_free(p);
}

/* CapEff masks as /proc/PID/status prints them: bit N is capability N. */
static void capabilities(void)
{
	u64 admin = 0x0000000200000000ull, root = 0x000001ffffffffffull;

	ok(sf_cap_in(admin, SF_CAP_MAC_ADMIN) &&
	   !sf_cap_in(admin, SF_CAP_MAC_OVERRIDE),
	   "CapEff 0000000200000000 is CAP_MAC_ADMIN alone");
	ok(sf_cap_in(root, SF_CAP_MAC_OVERRIDE) &&
	   sf_cap_in(root, SF_CAP_DAC_OVERRIDE) && !sf_cap_in(0, SF_CAP_FSETID),
	   "a full set holds CAP_MAC_OVERRIDE and CAP_DAC_OVERRIDE, none holds nothing");
	ok(sf_cap_in(1ull << 1, SF_CAP_DAC_OVERRIDE) &&
	   sf_cap_in(1ull << 2, SF_CAP_DAC_READ_SEARCH) &&
	   sf_cap_in(1ull << 3, SF_CAP_FOWNER) && sf_cap_in(1ull << 4, SF_CAP_FSETID),
	   "CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER, CAP_FSETID are bits 1-4");
}

/* smack_mmap_file()'s rule (mmap.c), as the daemon and the module ask it. */
static int mmap_rule(struct sf_policy *p, const char *s, const char *m,
		     u32 *may)
{
	int rc;

	sf_rcu_read_lock();
	rc = sf_mmap_rule(sf_policy_snapshot(p), lid(p, s), lid(p, m), may);
	sf_rcu_read_unlock();
	return rc;
}

static void mmap_label(void)
{
	struct sf_policy *p = sf_policy_new();
	u32 may = 0;

	ok(mmap_rule(p, "S", "M", &may) == 0,
	   "mmap: a subject without rules maps anything");
	load2(p, "S O r\nS M rwx\nS _ w\n");
	ok(mmap_rule(p, "S", "M", &may) == -EACCES && may == acc("r"),
	   "mmap: S O r, S _ w and no rule of M: denied, naming S O r");
	load2(p, "M O rx\nM _ w\n");
	ok(mmap_rule(p, "S", "M", &may) == 0,
	   "mmap: M covers every rule of S (its rule to M itself aside)");
	load2(p, "S O rl\n");
	ok(mmap_rule(p, "S", "M", &may) == -EACCES && may == acc("rl"),
	   "mmap: S O rl is more than M O rx");
	load2(p, "M O rw\n");
	ok(mmap_rule(p, "S", "M", &may) == 0,
	   "mmap: M O rw covers S O rl (write implies lock)");
	load2(p, "S O -\n");
	ok(mmap_rule(p, "S", "M", &may) == 0,
	   "mmap: a rule that grants nothing asks nothing of M");
	load2(p, "M _ -\n");
	ok(mmap_rule(p, "S", "M", &may) == -EACCES && may == acc("w"),
	   "mmap: M _ - does not cover S _ w");
	sf_rcu_read_lock();
	ok(sf_mmap_rule(sf_policy_snapshot(p), SF_LID_INVALID, lid(p, "M"),
			&may) == -EACCES && may == 0,
	   "mmap: a subject with no known label is denied");
	ok(sf_mmap_rule(sf_policy_snapshot(p), lid(p, "S"), SF_LID_INVALID,
			&may) == -EACCES,
	   "mmap: a label the policy never saw has no rules: S is denied");
	sf_rcu_read_unlock();
	sf_policy_free(p);
}

int main(void)
{
	reserved();
	letters();
	replace_change_revoke();
	levels();
	categories();
	mutual_read();
	guard_box();
	no_write_by_default();
	unknown_ids();
	onlycap();
	capabilities();
	mmap_label();
	return tap_done();
}
