/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * casediff.h - compare two runs of a differential matrix, case by case,
 * and print TAP (fs-matrix compare, task-matrix compare).
 *
 * The first run is always the Smack reference kernel's; the second is
 * smackfuse's ("other": a smackfuse mount, or smackfuse.ko) in one lane
 * (a kernel, with or without the module: "host", "debian", ...).  What
 * differs between the programs is said in a struct casediff_spec.
 *
 * A difference is a hole (the kernel refuses, smackfuse lets it through),
 * an over-denial (the other way round), errno-only (both refuse, with
 * different errors) or a label difference (both succeed, the new object
 * is labelled differently).  A list entry explains differences in the
 * lanes it names, and says which kind it explains; tests/README gives the
 * lists' format and the rules.
 */
#ifndef CASEDIFF_H
#define CASEDIFF_H

#include <stdbool.h>

/* The most cases an allow or bug entry shows under its point. */
#define CASEDIFF_EXAMPLES 5

struct casediff_spec {
	const char *name;	/* the harness, in the counts line */
	/*
	 * The second run in words: in a case ("kernel OK, <other> EACCES"),
	 * where a case stands in it ("case N is X in the kernel run, Y
	 * <other_at>"), its glob in the lists' syntax error ("CASE KERNEL
	 * <other_column> KIND REASON").
	 */
	const char *other, *other_at, *other_column;
	int examples;		/* cases shown per entry, up to CASEDIFF_EXAMPLES */
	/*
	 * The cases come grouped by operation: give an operation's point as
	 * soon as its run of cases ends, after its "not ok" lines.  Otherwise
	 * every operation's point comes after all the cases.
	 */
	bool op_runs;
	/* results that say the case did not run (NULL-terminated) */
	const char *const *not_run;
};

/*
 * The "compare" command: @argv is
 *   compare --lane LANE [--no-module] KERNEL OTHER ALLOW BUGS
 * Compares the "@case ID RESULT" lines of KERNEL and OTHER; differences
 * are explained by the allow list, then the bug list.  --no-module says
 * the lane's smackfuse runs without smackfuse.ko: only there may the
 * allow list name holes ("hole without the module").  Returns 1 when a
 * difference is unexplained, a case did not run, an entry is stale or
 * wrong, or the runs hold different cases, else 0; 2 on bad usage, a file
 * that cannot be read or an entry that cannot be parsed.
 */
int casediff_main(const struct casediff_spec *spec, int argc, char **argv);

#endif /* CASEDIFF_H */
