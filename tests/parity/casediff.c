// SPDX-License-Identifier: GPL-2.0-only
/*
 * casediff.c - compare two runs of a differential matrix (see casediff.h).
 *
 * Output, TAP: a "not ok" per difference that neither list explains; a
 * point per operation (a case id up to its first '/'); the program's
 * summary line; a point per allow entry (its hits and first cases); per
 * bug entry a "not ok # TODO", or an "ok" asking to remove the entry once
 * it no longer differs.  The first entry whose three globs match takes a
 * case, the allow list before the bug list.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casediff.h"

struct result {
	char *id, *res;
};

struct entry {
	char *file;
	int line;
	char *cpat, *kpat, *opat, *why;
	int hits;
	/* the first cases it explained: the kernel's and the other's result */
	const struct result *ex[CASEDIFF_EXAMPLES][2];
};

struct list {
	struct entry *e;
	int n;
};

/* Cases and unexplained differences per operation. */
struct opstat {
	char name[48];
	int n, bad;
};

#define MAX_OPS 128

struct casediff_tally {
	int nk, no;			/* cases in the kernel's run, the other's */
	int same, allowed, bugs, bad;	/* how the compared cases came out */
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

/* An allow or bug list: "CASE KERNEL OTHER reason", blank and # lines aside. */
static struct list load_entries(const struct casediff_spec *spec,
				const char *path)
{
	char line[1024], c[256], k[256], o[256];
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	struct list l = { NULL, 0 };
	int ln = 0, off;
	FILE *f = fopen(path, "r");

	if (!f)
		die("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		struct entry *e;

		ln++;
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || line[strspn(line, " \t")] == '\0')
			continue;
		if (sscanf(line, "%255s %255s %255s %n", c, k, o, &off) != 3 ||
		    !line[off])
			die("%s:%d: expected CASE KERNEL %s REASON", path, ln,
			    spec->other_column);
		l.e = realloc(l.e, (l.n + 1) * sizeof(*l.e));
		if (!l.e)
			die("out of memory");
		e = memset(&l.e[l.n++], 0, sizeof(*e));
		e->file = strdup(base);
		e->line = ln;
		e->cpat = strdup(c);
		e->kpat = strdup(k);
		e->opat = strdup(o);
		e->why = strdup(line + off);
	}
	fclose(f);
	return l;
}

/* The first entry that explains kernel @k against other @o, and count it. */
static struct entry *explain(const struct list *l, const struct result *k,
			     const struct result *o)
{
	struct entry *e;
	int i;

	for (i = 0; i < l->n; i++) {
		e = &l->e[i];
		if (fnmatch(e->cpat, k->id, 0) || fnmatch(e->kpat, k->res, 0) ||
		    fnmatch(e->opat, o->res, 0))
			continue;
		if (e->hits < CASEDIFF_EXAMPLES) {
			e->ex[e->hits][0] = k;
			e->ex[e->hits][1] = o;
		}
		e->hits++;
		return e;
	}
	return NULL;
}

static const char *as_compared(const struct casediff_spec *spec,
			       const struct result *r)
{
	return spec->normalize ? spec->normalize(r->id, r->res) : r->res;
}

/* One case: count it, and say so when nothing explains a difference. */
static int compare_one(const struct casediff_spec *spec,
		       const struct result *k, const struct result *o,
		       const struct list *allow, const struct list *bugs,
		       struct casediff_tally *t)
{
	if (!strcmp(as_compared(spec, k), as_compared(spec, o)))
		t->same++;
	else if (explain(allow, k, o))
		t->allowed++;
	else if (explain(bugs, k, o))
		t->bugs++;
	else {
		printf("not ok - %s: kernel %s, %s %s\n", k->id, k->res,
		       spec->other, o->res);
		t->bad++;
		return 1;
	}
	return 0;
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
static void op_point(struct opstat *o)
{
	printf("%sok - %s: %d cases, %d unexplained differences\n",
	       o->bad ? "not " : "", o->name, o->n, o->bad);
	o->n = o->bad = 0;
}

static bool same_op(const char *a, const char *b)
{
	return op_len(a) == op_len(b) && !strncmp(a, b, op_len(a));
}

/* Compare the cases in order; the runs must name the same ones. */
static int compare_cases(const struct casediff_spec *spec,
			 const struct result *K, const struct result *O,
			 const struct list *allow, const struct list *bugs,
			 struct casediff_tally *t)
{
	struct opstat ops[MAX_OPS], *o;
	int n = t->nk < t->no ? t->nk : t->no, i, nops = 0, failed = 0;

	for (i = 0; i < n; i++) {
		if (strcmp(K[i].id, O[i].id)) {
			printf("not ok - case %d is %s in the kernel run, %s %s\n",
			       i, K[i].id, O[i].id, spec->other_at);
			failed = 1;
			break;
		}
		o = op_stat(ops, &nops, K[i].id);
		o->n++;
		if (compare_one(spec, &K[i], &O[i], allow, bugs, t)) {
			o->bad++;
			failed = 1;
		}
		if (spec->op_runs && (i + 1 == n || !same_op(K[i].id,
							     K[i + 1].id)))
			op_point(o);
	}
	for (i = 0; i < nops; i++)
		if (ops[i].n)
			op_point(&ops[i]);
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

/* A point per entry: allowed ones pass, open bugs are "not ok # TODO". */
static void print_entries(const struct casediff_spec *spec,
			  const struct list *l, bool bugs)
{
	char globs[600];
	const struct entry *e;
	int i;

	for (i = 0; i < l->n; i++) {
		e = &l->e[i];
		snprintf(globs, sizeof(globs), spec->globs, e->kpat, e->opat);
		if (bugs && !e->hits)
			printf("ok - bug %s:%d %s no longer differs: remove the entry (%s)\n",
			       e->file, e->line, e->cpat, e->why);
		else if (bugs)
			printf("not ok - bug %s:%d %s (%s): %d cases # TODO bug: %s\n",
			       e->file, e->line, e->cpat, globs, e->hits,
			       e->why);
		else
			printf("ok - allowed %s:%d %s (%s): %d cases; %s\n",
			       e->file, e->line, e->cpat, globs, e->hits,
			       e->why);
		print_examples(spec, e);
	}
}

int casediff_compare(const struct casediff_spec *spec, const char *kpath,
		     const char *opath, const char *apath, const char *bpath)
{
	struct casediff_tally t = { 0 };
	struct result *K, *O;
	struct list allow, bugs;
	int failed = 0;

	K = load_results(kpath, &t.nk);
	O = load_results(opath, &t.no);
	allow = load_entries(spec, apath);
	bugs = load_entries(spec, bpath);
	if (t.nk != t.no || t.nk == 0) {
		fputs("not ok - both runs ran the same cases ", stdout);
		printf(spec->counts, t.nk, t.no);
		putchar('\n');
		failed = 1;
	}
	failed |= compare_cases(spec, K, O, &allow, &bugs, &t);
	printf(spec->summary, t.same, t.nk > t.no ? t.nk : t.no, t.nk, t.no,
	       t.allowed, t.bugs, t.bad);
	print_entries(spec, &allow, false);
	print_entries(spec, &bugs, true);
	return failed;
}
