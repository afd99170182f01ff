// SPDX-License-Identifier: GPL-2.0-only
/*
 * smackdiff.c - host half of the differential test against kernel Smack.
 *
 *   smackdiff gen DIR [SEED]     write random rounds into DIR
 *   smackdiff check DIR CHANNEL  compare the guest's answers (CHANNEL, as
 *                                saved by qemu-run.sh --channel) with the
 *                                access core; prints TAP points
 *
 * gen writes, per round i, DIR/policy.i (load2 lines) and DIR/queries.i
 * (access2 lines "subject object access").  The label set holds every
 * reserved label (* _ ^ ? @), labels made of reserved characters ("**",
 * "_x", "@@"), a 255-byte label and random ones.  Round 0 starts by
 * importing every label ("L L -": the kernel answers 0 for a label it
 * never saw, so every queried label must be known to both sides).  Each
 * later round first sets every rule of the previous round to "-", then
 * loads new random rules, so rounds are independent policies while both
 * sides keep the same state.  Access strings use random order, case and
 * '-' placeholders; requests include "-" (nothing).
 *
 * check feeds the same files through sf_parse_load2 / sf_policy_apply /
 * sf_parse_access2 / sf_access and compares every answer with what
 * smackq read from the kernel's access2, and the kernel's load2 read-back
 * with sf_print_load2.  Any mismatch fails and is printed with the seed.
 *
 * Sizes: SMACKDIFF_ROUNDS (5), SMACKDIFF_RULES (200 per round),
 * SMACKDIFF_TRIPLES (2500 per round), SMACKDIFF_LABELS (20 random).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "smack.h"

#define MAX_LABELS 64
#define MAX_MISMATCH_SHOWN 20

static unsigned long long rng_state;

/* xorshift64*: small, fast and the same on every machine for a seed. */
static unsigned long long rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static unsigned int below(unsigned int n)
{
	return (unsigned int)(rng() % n);
}

static long env_long(const char *name, long dflt)
{
	const char *s = getenv(name);

	return s && *s ? strtol(s, NULL, 10) : dflt;
}

/* ---- gen ---- */

static char *labels[MAX_LABELS];
static int nlabels;

static void add_label(const char *s)
{
	labels[nlabels++] = strdup(s);
}

/* Bytes a label may hold: 0x21..0x7e but / " \ ' (mainline smk_parse_smack). */
static char label_byte(void)
{
	char c;

	do {
		c = (char)(0x21 + below(0x7e - 0x21 + 1));
	} while (c == '/' || c == '"' || c == '\\' || c == '\'');
	return c;
}

static void make_labels(int nrandom)
{
	static const char *fixed[] = {
		"*", "_", "^", "?", "@",	/* reserved */
		"**", "_x", "^^", "?a", "@@",	/* reserved bytes, normal labels */
		"Unclass", "C", "S", "TS", "a-b", "~",
	};
	char buf[SF_LABEL_MAX + 1];
	size_t i;
	int j;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		add_label(fixed[i]);
	/* The longest legal label, and a near one. */
	for (j = 0; j < SF_LABEL_MAX; j++)
		buf[j] = 'L';
	buf[SF_LABEL_MAX] = '\0';
	add_label(buf);
	buf[SF_LABEL_MAX - 1] = '\0';
	buf[0] = 'M';
	add_label(buf);
	while (nrandom-- > 0 && nlabels < MAX_LABELS) {
		size_t len = 1 + (below(4) ? below(12) : below(SF_LABEL_MAX));
		int dup, k;

		for (i = 0; i < len; i++)
			buf[i] = label_byte();
		if (buf[0] == '-')
			buf[0] = 'x';
		buf[len] = '\0';
		for (dup = 0, k = 0; k < nlabels; k++)
			dup |= !strcmp(labels[k], buf);
		if (!dup)
			add_label(buf);
	}
}

/* A random access string for @bits: any order, any case, '-' sprinkled. */
static void access_string(unsigned int bits, char *out)
{
	static const char letters[] = "rwxatlb";
	char tmp[SF_NUM_ACCESS];
	int i, n = 0;

	for (i = 0; i < SF_NUM_ACCESS; i++)
		if (bits & (1u << i))
			tmp[n++] = letters[i];
	for (i = n - 1; i > 0; i--) {
		int j = (int)below((unsigned int)i + 1);
		char t = tmp[i];

		tmp[i] = tmp[j];
		tmp[j] = t;
	}
	for (i = 0; i < n; i++) {
		if (!below(6))
			*out++ = '-';
		*out++ = below(4) ? tmp[i] : (char)(tmp[i] - 'a' + 'A');
	}
	if (n == 0 || !below(8))
		*out++ = '-';
	*out = '\0';
}

/* Mostly small sets: one letter, r+w, or anything. */
static unsigned int random_bits(void)
{
	switch (below(6)) {
	case 0:
		return 0;
	case 1:
	case 2:
		return 1u << below(SF_NUM_ACCESS);
	case 3:
		return SF_MAY_READ | (below(2) ? SF_MAY_WRITE : SF_MAY_EXEC);
	default:
		return (unsigned int)below(SF_MAY_ALL + 1);
	}
}

struct pair {
	int s, o;
};

static FILE *open_round(const char *dir, const char *what, int round)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.%d", dir, what, round);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(2);
	}
	return f;
}

static int gen(const char *dir, unsigned long long seed)
{
	int rounds = (int)env_long("SMACKDIFF_ROUNDS", 5);
	int nrules = (int)env_long("SMACKDIFF_RULES", 200);
	long ntriples = env_long("SMACKDIFF_TRIPLES", 2500);
	struct pair *prev = NULL, *cur;
	int nprev = 0, round, i;
	char acc[3 * SF_NUM_ACCESS + 2];

	rng_state = seed ? seed : 1;
	make_labels((int)env_long("SMACKDIFF_LABELS", 20));
	mkdir(dir, 0755);
	cur = calloc((size_t)nrules, sizeof(*cur));
	prev = calloc((size_t)nrules, sizeof(*prev));
	if (!cur || !prev)
		return 2;
	for (round = 0; round < rounds; round++) {
		FILE *p = open_round(dir, "policy", round);
		FILE *q = open_round(dir, "queries", round);

		if (round == 0)
			for (i = 0; i < nlabels; i++)
				fprintf(p, "%s %s -\n", labels[i], labels[i]);
		for (i = 0; i < nprev; i++)
			fprintf(p, "%s %s -\n", labels[prev[i].s],
				labels[prev[i].o]);
		for (i = 0; i < nrules; i++) {
			cur[i].s = (int)below((unsigned int)nlabels);
			cur[i].o = (int)below((unsigned int)nlabels);
			access_string(random_bits(), acc);
			fprintf(p, "%s %s %s\n", labels[cur[i].s],
				labels[cur[i].o], acc);
		}
		for (i = 0; i < ntriples; i++) {
			int s, o;

			/* Half the queries hit a pair that has a rule. */
			if (below(2)) {
				struct pair *r = &cur[below((unsigned int)nrules)];

				s = r->s;
				o = r->o;
			} else {
				s = (int)below((unsigned int)nlabels);
				o = (int)below((unsigned int)nlabels);
			}
			access_string(random_bits(), acc);
			fprintf(q, "%s %s %s\n", labels[s], labels[o], acc);
		}
		fclose(p);
		fclose(q);
		memcpy(prev, cur, (size_t)nrules * sizeof(*cur));
		nprev = nrules;
	}
	printf("%d rounds, %d labels, %d rules and %ld triples per round\n",
	       rounds, nlabels, nrules, ntriples);
	free(cur);
	free(prev);
	return 0;
}

/* ---- check ---- */

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		return NULL;
	do {
		if (n + 65536 > cap) {
			cap = (n + 65536) * 2;
			buf = realloc(buf, cap + 1);
			if (!buf)
				exit(2);
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* Guest data of round @round with tag @tag ('A' or 'L'), one per line. */
struct lines {
	char **v;
	size_t n, cap;
};

static void lines_add(struct lines *l, const char *s, size_t len)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 256;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
		if (!l->v)
			exit(2);
	}
	l->v[l->n] = malloc(len + 1);
	if (!l->v[l->n])
		exit(2);
	memcpy(l->v[l->n], s, len);
	l->v[l->n++][len] = '\0';
}

static void lines_free(struct lines *l)
{
	while (l->n)
		free(l->v[--l->n]);
	free(l->v);
	l->v = NULL;
	l->cap = 0;
}

/* Lines "SFQ:<script>: @<tag> <round> <data>" of the saved channel. */
static void channel_data(const char *chan, size_t clen, char tag, int round,
			 struct lines *out)
{
	char prefix[64];
	const char *p = chan, *end = chan + clen;
	size_t plen;

	plen = (size_t)snprintf(prefix, sizeof(prefix), ": @%c %d ", tag,
				round);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *d;

		if (!nl)
			nl = end;
		d = p + 4;
		while (d < nl && *d != ':')
			d++;
		if (!memcmp(p, "SFQ:", 4) && (size_t)(nl - d) >= plen &&
		    !memcmp(d, prefix, plen))
			lines_add(out, d + plen, (size_t)(nl - d) - plen);
		p = nl + 1;
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static const char *reason_name(enum sf_reason r)
{
	static const char *const names[] = {
		"star-subject", "web", "star-object", "same-label",
		"floor-object", "hat-subject", "rule", "no-rule",
		"rule-short",
	};

	return (unsigned int)r < sizeof(names) / sizeof(names[0]) ?
		names[r] : "?";
}

static unsigned long total_compared, total_mismatch;

/* Returns the number of mismatches in round @round. */
static long check_answers(struct sf_policy *pol, const char *qbuf,
			  size_t qlen, const char *answers, size_t nans,
			  int round, unsigned long long seed)
{
	struct sf_labels *lab = sf_policy_labels(pol);
	const char *p = qbuf, *end = qbuf + qlen;
	long k = 0, bad = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		struct sf_decision d;
		struct sf_query q;
		struct sf_error err = { .file = "queries" };
		char want;
		int rc;

		if (!nl)
			nl = end;
		rc = sf_parse_access2(lab, p, (size_t)(nl - p), &q, &err);
		if (rc) {
			char msg[256];

			sf_error_format(&err, msg, sizeof(msg));
			printf("# round %d query %ld: core rejects \"%.*s\": %s\n",
			       round, k, (int)(nl - p), p, msg);
			bad++;
			goto next;
		}
		sf_rcu_read_lock();
		rc = sf_access(sf_policy_snapshot(pol), q.subject, q.object,
			       q.request, &d);
		sf_rcu_read_unlock();
		want = rc == 0 ? '1' : '0';
		if ((size_t)k >= nans || answers[k] != want) {
			if (bad < MAX_MISMATCH_SHOWN) {
				char rb[SF_NUM_ACCESS + 1];

				sf_access_format(d.rule_access, rb);
				printf("# MISMATCH seed=%llu round %d query %ld: "
				       "\"%.*s\" kernel=%c core=%c (%s, rule %s)\n",
				       seed, round, k, (int)(nl - p), p,
				       (size_t)k < nans ? answers[k] : '-',
				       want, reason_name(d.reason), rb);
			}
			bad++;
		}
		total_compared++;
next:
		k++;
		p = nl + 1;
	}
	if ((size_t)k != nans) {
		printf("# round %d: %ld queries but %zu kernel answers\n",
		       round, k, nans);
		bad++;
	}
	printf("%s - round %d: %ld access2 answers of kernel Smack equal sf_access\n",
	       bad ? "not ok" : "ok", round, k);
	total_mismatch += (unsigned long)bad;
	return bad;
}

/* The kernel's load2 read-back against sf_print_load2, as sorted lines. */
static void check_load2(struct sf_policy *pol, struct lines *kern, int round)
{
	struct lines core = { 0 };
	size_t need, i, shown = 0;
	char *buf, *p, *nl;
	int same_order, same_set;

	sf_rcu_read_lock();
	need = sf_print_load2(sf_policy_labels(pol), sf_policy_snapshot(pol),
			      NULL, 0);
	buf = malloc(need + 1);
	if (!buf)
		exit(2);
	sf_print_load2(sf_policy_labels(pol), sf_policy_snapshot(pol), buf,
		       need + 1);
	sf_rcu_read_unlock();
	buf[need] = '\0';
	for (p = buf; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl) {
			printf("# round %d: sf_print_load2 output does not end in a newline\n",
			       round);
			lines_add(&core, p, strlen(p));
			break;
		}
		lines_add(&core, p, (size_t)(nl - p));
	}
	same_order = core.n == kern->n;
	for (i = 0; same_order && i < core.n; i++)
		same_order = !strcmp(core.v[i], kern->v[i]);
	qsort(core.v, core.n, sizeof(*core.v), cmp_str);
	qsort(kern->v, kern->n, sizeof(*kern->v), cmp_str);
	same_set = core.n == kern->n;
	for (i = 0; i < core.n && i < kern->n; i++) {
		if (strcmp(core.v[i], kern->v[i])) {
			same_set = 0;
			if (shown++ < 5)
				printf("# round %d load2 differs: kernel \"%.60s\" core \"%.60s\"\n",
				       round, kern->v[i], core.v[i]);
		}
	}
	if (core.n != kern->n)
		printf("# round %d: kernel load2 has %zu lines, sf_print_load2 %zu\n",
		       round, kern->n, core.n);
	printf("%s - round %d: load2 read back from the kernel has the same %zu rule lines as sf_print_load2\n",
	       same_set ? "ok" : "not ok", round, kern->n);
	printf("# round %d: line order %s the kernel's\n", round,
	       same_order ? "also equals" : "differs from");
	lines_free(&core);
	free(buf);
}

/*
 * The kernel answers access2 with 0 when a label was never imported, even
 * where a reserved-label rule would allow (floor object, read).  Noted,
 * not judged: sf_parse_access2 interns labels, so a caller that wants the
 * kernel's answer must look labels up with sf_label_find first.  Runs last:
 * it interns the label into the core's table.
 */
static void unimported_note(struct sf_policy *pol, const char *chan)
{
	const char *u = strstr(chan, ": @U ");
	struct sf_error err = { .file = "note" };
	struct sf_query q;
	int rc;

	rc = sf_parse_access2(sf_policy_labels(pol), "NeverImported _ r", 17,
			      &q, &err);
	if (!rc) {
		sf_rcu_read_lock();
		rc = sf_access(sf_policy_snapshot(pol), q.subject, q.object,
			       q.request, NULL);
		sf_rcu_read_unlock();
	}
	printf("# access2 \"NeverImported _ r\" (label never loaded): kernel %c, sf_parse_access2+sf_access %c\n",
	       u ? u[5] : '-', rc == 0 ? '1' : '0');
}

static int check(const char *dir, const char *chanpath)
{
	struct sf_policy *pol = sf_policy_new();
	char path[4096], *chan;
	size_t clen;
	unsigned long long seed = 0;
	int round, failed = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/seed", dir);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%llu", &seed) != 1)
			seed = 0;
		fclose(f);
	}
	chan = slurp(chanpath, &clen);
	if (!pol || !chan) {
		printf("not ok - guest channel %s readable\n", chanpath);
		return 1;
	}
	for (round = 0;; round++) {
		struct sf_error err = { .file = path };
		struct lines ans = { 0 }, l2 = { 0 };
		struct sf_batch b;
		char *answers, *pbuf, *qbuf;
		size_t i, nans = 0, plen, qlen;
		int rc;

		snprintf(path, sizeof(path), "%s/policy.%d", dir, round);
		pbuf = slurp(path, &plen);
		if (!pbuf)
			break;
		sf_batch_init(&b);
		rc = sf_parse_load2(sf_policy_labels(pol), pbuf, plen, &b,
				    &err);
		if (!rc)
			rc = sf_policy_apply(pol, &b);
		sf_batch_release(&b);
		if (rc) {
			char msg[256];

			sf_error_format(&err, msg, sizeof(msg));
			printf("not ok - round %d: the core loads the policy the kernel loaded (%s)\n",
			       round, msg);
			failed = 1;
			free(pbuf);
			break;
		}
		channel_data(chan, clen, 'A', round, &ans);
		for (i = 0; i < ans.n; i++)
			nans += strlen(ans.v[i]);
		answers = malloc(nans + 1);
		if (!answers)
			exit(2);
		answers[0] = '\0';
		for (i = 0; i < ans.n; i++)
			strcat(answers, ans.v[i]);
		snprintf(path, sizeof(path), "%s/queries.%d", dir, round);
		qbuf = slurp(path, &qlen);
		if (!qbuf) {
			printf("not ok - round %d: %s readable\n", round, path);
			failed = 1;
		} else if (check_answers(pol, qbuf, qlen, answers, nans, round,
					 seed)) {
			failed = 1;
		}
		channel_data(chan, clen, 'L', round, &l2);
		check_load2(pol, &l2, round);
		free(answers);
		free(qbuf);
		free(pbuf);
		lines_free(&ans);
		lines_free(&l2);
	}
	unimported_note(pol, chan);
	printf("# compared %lu (subject, object, request) triples with kernel Smack, %lu mismatches, seed %llu\n",
	       total_compared, total_mismatch, seed);
	printf("%s - at least 10000 triples compared (%lu)\n",
	       total_compared >= 10000 ? "ok" : "not ok", total_compared);
	if (total_compared < 10000 || round == 0)
		failed = 1;
	sf_policy_free(pol);
	free(chan);
	return failed;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "gen")) {
		unsigned long long seed;
		char path[4096];
		FILE *f;

		seed = argc > 3 ? strtoull(argv[3], NULL, 10) :
			(unsigned long long)time(NULL);
		mkdir(argv[2], 0755);
		snprintf(path, sizeof(path), "%s/seed", argv[2]);
		f = fopen(path, "w");
		if (!f) {
			perror(path);
			return 2;
		}
		fprintf(f, "%llu\n", seed);
		fclose(f);
		printf("seed %llu: ", seed);
		return gen(argv[2], seed);
	}
	if (argc == 4 && !strcmp(argv[1], "check"))
		return check(argv[2], argv[3]);
	fprintf(stderr, "usage: smackdiff gen DIR [SEED] | check DIR CHANNEL\n");
	return 2;
}
