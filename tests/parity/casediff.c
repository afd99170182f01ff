// SPDX-License-Identifier: GPL-2.0-only
/*
 * casediff.c - compare two runs of a differential matrix (see casediff.h).
 *
 * Output, TAP, every point prefixed with the lane: a "not ok" per case
 * that did not run and per difference that neither list explains (or
 * that the entry matching it calls another kind than it is); a point per
 * operation (a case id up to its first '/'); the summary lines; per allow
 * entry of the lane a point (its kind, hits and first cases), "not ok"
 * when it explains no case; per bug entry of the lane a "not ok # TODO",
 * or a "not ok" asking to remove the entry once it no longer differs.
 * The first entry of the lane whose three globs match takes a case, the
 * allow list before the bug list.
 *
 * Lists: blank and # lines aside, one "lanes NAME..." line declaring the
 * lanes the list knows, then entries
 *   LANES CASE-GLOB KERNEL-GLOB OTHER-GLOB KIND reason...
 * LANES is "*" or a comma-separated list of lane globs, each matching a
 * declared lane; KIND is one of kind_names[] (allow lists: forced,
 * errno-only, over-denial, hole; bug lists: hole, over-denial, errno-only,
 * label).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casediff.h"

/* What a difference is (nature), or what an entry says it explains. */
enum kind { K_HOLE, K_OVERDENY, K_ERRNO, K_LABEL, K_FORCED, NKINDS };

static const char *const kind_names[NKINDS] = {
	[K_HOLE] = "hole", [K_OVERDENY] = "over-denial",
	[K_ERRNO] = "errno-only", [K_LABEL] = "label", [K_FORCED] = "forced",
};

/* The words an allowed hole must say: only a daemon without the module. */
#define HOLE_WORDS "hole without the module"

struct result {
	char *id, *res;
};

struct entry {
	char *file;
	int line;
	char *lanes, *cpat, *kpat, *opat, *why;
	enum kind kind;
	int hits;
	/* the first cases it explained: the kernel's and the other's result */
	const struct result *ex[CASEDIFF_EXAMPLES][2];
};

struct list {
	const char *path;
	bool bugs;
	char *declared;		/* the "lanes" line's names, blank-separated */
	struct entry *e;
	int n;
};

/* Cases and unexplained differences per operation. */
struct opstat {
	char name[48];
	int n, bad;
};

#define MAX_OPS 128

struct lane {
	const char *name;
	bool no_module;
};

struct tally {
	int nk, no;		/* cases in the kernel's run, the other's */
	int same, not_run, bad;
	int allowed[NKINDS];	/* by the entry's kind */
	int bugs[NKINDS];	/* by the difference's nature */
	int nbugs;
	int bad_kind[NKINDS];	/* unexplained, by nature */
};

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "%s: ", program_invocation_short_name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

/* Every "@case ID RES" anywhere in a line (a guest channel prefixes them). */
static struct result *load_results(const char *path, int *count)
{
	char line[1024], id[512], res[512];
	struct result *r = NULL;
	int n = 0, cap = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		die("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		const char *at = strstr(line, "@case ");

		if (!at || sscanf(at, "@case %511s %511s", id, res) != 2)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			r = realloc(r, cap * sizeof(*r));
			if (!r)
				die("out of memory");
		}
		r[n].id = strdup(id);
		r[n].res = strdup(res);
		n++;
	}
	fclose(f);
	*count = n;
	return r;
}

static int kind_of(const char *word)
{
	int k;

	for (k = 0; k < NKINDS; k++)
		if (!strcmp(word, kind_names[k]))
			return k;
	return -1;
}

/* Does the comma-separated glob list @lanes take lane @name? */
static bool lanes_take(const char *lanes, const char *name)
{
	char buf[256], *tok, *save;

	snprintf(buf, sizeof(buf), "%s", lanes);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		if (!fnmatch(tok, name, 0))
			return true;
	return false;
}

/* Each glob of @lanes matches a lane of @declared ("a b c"). */
static const char *undeclared(const char *lanes, const char *declared)
{
	static char bad[256];
	char buf[256], d[1024], *tok, *save, *dt, *dsave;
	bool hit;

	snprintf(buf, sizeof(buf), "%s", lanes);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		hit = false;
		snprintf(d, sizeof(d), "%s", declared);
		for (dt = strtok_r(d, " \t", &dsave); dt && !hit;
		     dt = strtok_r(NULL, " \t", &dsave))
			hit = !fnmatch(tok, dt, 0);
		if (!hit) {
			snprintf(bad, sizeof(bad), "%s", tok);
			return bad;
		}
	}
	return NULL;
}

static bool kind_fits_list(enum kind k, bool bugs)
{
	if (bugs)
		return k != K_FORCED;
	return k != K_LABEL;	/* a wrong label is never allowed */
}

static void add_entry(struct list *l, int ln, char *f[5], const char *why)
{
	const char *base = strrchr(l->path, '/');
	struct entry *e;
	int k = kind_of(f[4]);

	if (k < 0 || !kind_fits_list(k, l->bugs))
		die("%s:%d: kind \"%s\": a %s list takes %s", l->path, ln,
		    f[4], l->bugs ? "bug" : "allow",
		    l->bugs ? "hole, over-denial, errno-only or label"
			    : "forced, errno-only, over-denial or hole");
	if (k == K_HOLE && !l->bugs && !strstr(why, HOLE_WORDS))
		die("%s:%d: an allowed hole says \"" HOLE_WORDS "\"", l->path,
		    ln);
	if (!l->declared)
		die("%s:%d: an entry before the \"lanes\" line", l->path, ln);
	if (undeclared(f[0], l->declared))
		die("%s:%d: lane \"%s\" is not on the lanes line", l->path, ln,
		    undeclared(f[0], l->declared));
	l->e = realloc(l->e, (l->n + 1) * sizeof(*l->e));
	if (!l->e)
		die("out of memory");
	e = memset(&l->e[l->n++], 0, sizeof(*e));
	e->file = strdup(base ? base + 1 : l->path);
	e->line = ln;
	e->lanes = strdup(f[0]);
	e->cpat = strdup(f[1]);
	e->kpat = strdup(f[2]);
	e->opat = strdup(f[3]);
	e->kind = k;
	e->why = strdup(why);
}

static struct list load_entries(const struct casediff_spec *spec,
				const char *path, bool bugs)
{
	char line[1024], w[5][256], *f[5];
	struct list l = { path, bugs, NULL, NULL, 0 };
	int ln = 0, off, i;
	FILE *file = fopen(path, "r");

	if (!file)
		die("%s: %s", path, strerror(errno));
	for (i = 0; i < 5; i++)
		f[i] = w[i];
	while (fgets(line, sizeof(line), file)) {
		ln++;
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || line[strspn(line, " \t")] == '\0')
			continue;
		if (!strncmp(line, "lanes ", 6)) {
			if (l.declared)
				die("%s:%d: a second lanes line", path, ln);
			l.declared = strdup(line + 6);
			continue;
		}
		if (sscanf(line, "%255s %255s %255s %255s %255s %n", w[0], w[1],
			   w[2], w[3], w[4], &off) != 5 || !line[off])
			die("%s:%d: expected LANES CASE KERNEL %s KIND REASON",
			    path, ln, spec->other_column);
		add_entry(&l, ln, f, line + off);
	}
	fclose(file);
	if (!l.declared)
		die("%s: no \"lanes\" line", path);
	return l;
}

static bool succeeded(const char *res)
{
	return !strcmp(res, "OK") || !strncmp(res, "OK:", 3);
}

/* What a difference between kernel @k and other @o is. */
static enum kind nature(const char *k, const char *o)
{
	if (succeeded(k))
		return succeeded(o) ? K_LABEL : K_OVERDENY;
	return succeeded(o) ? K_HOLE : K_ERRNO;
}

/* May @e explain a difference of nature @n in @lane? */
static bool kind_fits(const struct entry *e, enum kind n)
{
	if (e->kind == K_FORCED)
		return n != K_HOLE;	/* a hole is never forced */
	return e->kind == n;
}

/* The first entry of @lane whose globs take the case, or NULL. */
static struct entry *find(const struct list *l, const char *lane,
			  const struct result *k, const struct result *o)
{
	struct entry *e;
	int i;

	for (i = 0; i < l->n; i++) {
		e = &l->e[i];
		if (lanes_take(e->lanes, lane) && !fnmatch(e->cpat, k->id, 0) &&
		    !fnmatch(e->kpat, k->res, 0) && !fnmatch(e->opat, o->res, 0))
			return e;
	}
	return NULL;
}

static void count_hit(struct entry *e, const struct result *k,
		      const struct result *o)
{
	if (e->hits < CASEDIFF_EXAMPLES) {
		e->ex[e->hits][0] = k;
		e->ex[e->hits][1] = o;
	}
	e->hits++;
}

/* An allow entry's hole is refused in a lane that has the module. */
static bool usable(const struct entry *e, const struct lane *lane)
{
	return e->kind != K_HOLE || lane->no_module;
}

static bool did_not_run(const struct casediff_spec *spec, const char *res)
{
	const char *const *p;

	for (p = spec->not_run; p && *p; p++)
		if (!strcmp(res, *p))
			return true;
	return false;
}

/* One case: count it, and say so when nothing explains a difference. */
static int compare_one(const struct casediff_spec *spec,
		       const struct lane *lane, const struct result *k,
		       const struct result *o, const struct list *allow,
		       const struct list *bugs, struct tally *t)
{
	const struct list *l = allow;
	struct entry *e;
	enum kind n;

	if (did_not_run(spec, k->res) || did_not_run(spec, o->res)) {
		printf("not ok - %s: %s did not run: kernel %s, %s %s\n",
		       lane->name, k->id, k->res, spec->other, o->res);
		t->not_run++;
		return 1;
	}
	if (!strcmp(k->res, o->res)) {
		t->same++;
		return 0;
	}
	n = nature(k->res, o->res);
	e = find(allow, lane->name, k, o);
	if (!e) {
		l = bugs;
		e = find(bugs, lane->name, k, o);
	}
	if (e && kind_fits(e, n) && (l == bugs || usable(e, lane))) {
		count_hit(e, k, o);
		if (l == bugs) {
			t->bugs[n]++;
			t->nbugs++;
		} else {
			t->allowed[e->kind]++;
		}
		return 0;
	}
	printf("not ok - %s: %s: kernel %s, %s %s (%s)", lane->name, k->id,
	       k->res, spec->other, o->res, kind_names[n]);
	if (e)
		printf(", which %s:%d calls %s%s", e->file, e->line,
		       kind_names[e->kind],
		       kind_fits(e, n) ? " in a lane with the module" : "");
	putchar('\n');
	t->bad_kind[n]++;
	t->bad++;
	return 1;
}

static int op_len(const char *id)
{
	return (int)strcspn(id, "/");
}

static struct opstat *op_stat(struct opstat *ops, int *nops, const char *id)
{
	int i, len = op_len(id);

	for (i = 0; i < *nops; i++)
		if (!strncmp(ops[i].name, id, len) && !ops[i].name[len])
			return &ops[i];
	if (*nops == MAX_OPS)
		die("more than %d operations", MAX_OPS);
	snprintf(ops[*nops].name, sizeof(ops[0].name), "%.*s", len, id);
	ops[*nops].n = ops[*nops].bad = 0;
	return &ops[(*nops)++];
}

/* An operation's point; it starts again from 0 should the operation recur. */
static void op_point(const struct lane *lane, struct opstat *o)
{
	printf("%sok - %s: %s: %d cases, %d unexplained differences\n",
	       o->bad ? "not " : "", lane->name, o->name, o->n, o->bad);
	o->n = o->bad = 0;
}

static bool same_op(const char *a, const char *b)
{
	return op_len(a) == op_len(b) && !strncmp(a, b, op_len(a));
}

/* Compare the cases in order; the runs must name the same ones. */
static int compare_cases(const struct casediff_spec *spec,
			 const struct lane *lane, const struct result *K,
			 const struct result *O, const struct list *allow,
			 const struct list *bugs, struct tally *t)
{
	struct opstat ops[MAX_OPS], *o;
	int n = t->nk < t->no ? t->nk : t->no, i, nops = 0, failed = 0;

	for (i = 0; i < n; i++) {
		if (strcmp(K[i].id, O[i].id)) {
			printf("not ok - %s: case %d is %s in the kernel run, %s %s\n",
			       lane->name, i, K[i].id, O[i].id,
			       spec->other_at);
			failed = 1;
			break;
		}
		o = op_stat(ops, &nops, K[i].id);
		o->n++;
		if (compare_one(spec, lane, &K[i], &O[i], allow, bugs, t)) {
			o->bad++;
			failed = 1;
		}
		if (spec->op_runs && (i + 1 == n || !same_op(K[i].id,
							     K[i + 1].id)))
			op_point(lane, o);
	}
	for (i = 0; i < nops; i++)
		if (ops[i].n)
			op_point(lane, &ops[i]);
	return failed;
}

static void print_examples(const struct casediff_spec *spec,
			   const struct entry *e)
{
	int j;

	for (j = 0; j < e->hits && j < spec->examples; j++)
		printf("#   %s: kernel %s, %s %s\n", e->ex[j][0]->id,
		       e->ex[j][0]->res, spec->other, e->ex[j][1]->res);
}

/*
 * A point per entry of the lane: allowed ones pass, open bugs are
 * "not ok # TODO"; one that explained nothing fails, as does an allowed
 * hole in a lane with the module.
 */
static int print_entries(const struct casediff_spec *spec,
			 const struct lane *lane, const struct list *l)
{
	const char *what = l->bugs ? "bug" : "allowed";
	const struct entry *e;
	int i, failed = 0;

	for (i = 0; i < l->n; i++) {
		e = &l->e[i];
		if (!lanes_take(e->lanes, lane->name))
			continue;
		if (!l->bugs && !usable(e, lane)) {
			printf("not ok - %s: %s:%d allows a hole in a lane with smackfuse.ko; only a lane without the module may (%s)\n",
			       lane->name, e->file, e->line, e->cpat);
			failed = 1;
		} else if (!e->hits) {
			printf("not ok - %s: %s %s:%d %s (kernel %s, %s %s) matches no case: remove the entry, or narrow its lanes (%s)\n",
			       lane->name, what, e->file, e->line, e->cpat,
			       e->kpat, spec->other, e->opat, e->lanes);
			failed = 1;
		} else if (l->bugs) {
			printf("not ok - %s: bug %s:%d [%s] %s (kernel %s, %s %s): %d cases # TODO bug: %s\n",
			       lane->name, e->file, e->line,
			       kind_names[e->kind], e->cpat, e->kpat,
			       spec->other, e->opat, e->hits, e->why);
		} else {
			printf("ok - %s: allowed %s:%d [%s] %s (kernel %s, %s %s): %d cases; %s\n",
			       lane->name, e->file, e->line,
			       kind_names[e->kind], e->cpat, e->kpat,
			       spec->other, e->opat, e->hits, e->why);
		}
		print_examples(spec, e);
	}
	return failed;
}

/* The human summary, then one line for tools (tests/parity/figures.sh). */
static void print_summary(const struct casediff_spec *spec,
			  const struct lane *lane, const struct tally *t)
{
	int n = t->nk > t->no ? t->nk : t->no;

	printf("# %s: %d/%d cases match (kernel ran %d, %s %d)\n", lane->name,
	       t->same, n, t->nk, spec->other, t->no);
	printf("# %s: allowed: %d forced by FUSE, %d errno-only, %d over-denial, %d hole without the module; known bugs: %d (%d hole, %d over-denial, %d errno-only, %d label); unexplained: %d (%d hole, %d over-denial, %d errno-only, %d label); not run: %d\n",
	       lane->name, t->allowed[K_FORCED], t->allowed[K_ERRNO],
	       t->allowed[K_OVERDENY], t->allowed[K_HOLE], t->nbugs,
	       t->bugs[K_HOLE], t->bugs[K_OVERDENY], t->bugs[K_ERRNO],
	       t->bugs[K_LABEL], t->bad, t->bad_kind[K_HOLE],
	       t->bad_kind[K_OVERDENY], t->bad_kind[K_ERRNO],
	       t->bad_kind[K_LABEL], t->not_run);
	/* weaker-policy (ctl-diff.awk): a control write smackfuse refused;
	 * no fs or task case writes policy, so casediff has no such kind */
	printf("# parity-counts harness=%s lane=%s%s cases=%d match=%d forced=%d errno-only=%d over-denial=%d weaker-policy=0 hole=%d known-bug=%d unexplained=%d not-run=%d\n",
	       spec->name, lane->name, lane->no_module ? " module=no" : "",
	       n, t->same, t->allowed[K_FORCED], t->allowed[K_ERRNO],
	       t->allowed[K_OVERDENY], t->allowed[K_HOLE], t->nbugs, t->bad,
	       t->not_run);
}

static bool declares(const struct list *l, const char *lane)
{
	char d[1024], *tok, *save;

	snprintf(d, sizeof(d), "%s", l->declared);
	for (tok = strtok_r(d, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save))
		if (!strcmp(tok, lane))
			return true;
	return false;
}

static void usage(void)
{
	fprintf(stderr, "usage: %s compare --lane LANE [--no-module] KERNEL OTHER ALLOW BUGS\n",
		program_invocation_short_name);
	exit(2);
}

int casediff_main(const struct casediff_spec *spec, int argc, char **argv)
{
	struct lane lane = { NULL, false };
	struct tally t = { 0 };
	struct result *K, *O;
	struct list allow, bugs;
	int i = 1, failed = 0;

	for (; i < argc && !strncmp(argv[i], "--", 2); i++) {
		if (!strcmp(argv[i], "--lane") && i + 1 < argc)
			lane.name = argv[++i];
		else if (!strcmp(argv[i], "--no-module"))
			lane.no_module = true;
		else
			usage();
	}
	if (!lane.name || !*lane.name || argc - i != 4)
		usage();
	K = load_results(argv[i], &t.nk);
	O = load_results(argv[i + 1], &t.no);
	allow = load_entries(spec, argv[i + 2], false);
	bugs = load_entries(spec, argv[i + 3], true);
	if (!declares(&allow, lane.name) || !declares(&bugs, lane.name))
		die("lane %s is not on the lanes line of %s and %s", lane.name,
		    argv[i + 2], argv[i + 3]);
	if (t.nk != t.no || t.nk == 0) {
		printf("not ok - %s: both runs ran the same cases (kernel %d, %s %d)\n",
		       lane.name, t.nk, spec->other, t.no);
		failed = 1;
	}
	failed |= compare_cases(spec, &lane, K, O, &allow, &bugs, &t);
	print_summary(spec, &lane, &t);
	failed |= print_entries(spec, &lane, &allow);
	failed |= print_entries(spec, &lane, &bugs);
	return failed;
}
