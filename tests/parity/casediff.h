/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * casediff.h - compare two runs of a differential matrix, case by case,
 * and print TAP (fs-matrix compare, task-matrix compare).
 *
 * The first run is always the Smack reference kernel's; the second is
 * smackfuse's ("other": the host mount, or smackfuse.ko).  What differs
 * between the programs is said in a struct casediff_spec: the words for
 * the second run, how results are made comparable, and the summary line.
 */
#ifndef CASEDIFF_H
#define CASEDIFF_H

#include <stdbool.h>

/* The most cases an allow or bug entry shows under its point. */
#define CASEDIFF_EXAMPLES 5

struct casediff_spec {
	/*
	 * The second run in words: in a case ("kernel OK, <other> EACCES"),
	 * where a case stands in it ("case N is X in the kernel run, Y
	 * <other_at>"), its glob in the lists' syntax error ("CASE KERNEL
	 * <other_column> REASON").
	 */
	const char *other, *other_at, *other_column;
	/*
	 * printf formats: the two runs' case counts when they differ (two
	 * %d), an entry's kernel and other globs (two %s).
	 */
	const char *counts, *globs;
	int examples;		/* cases shown per entry, up to CASEDIFF_EXAMPLES */
	/*
	 * The cases come grouped by operation: give an operation's point as
	 * soon as its run of cases ends, after its "not ok" lines.  Otherwise
	 * every operation's point comes after all the cases.
	 */
	bool op_runs;
	/* a result as compared (not as matched or shown); NULL: as it is */
	const char *(*normalize)(const char *id, const char *res);
	/*
	 * printf format of the "# N/M match ..." line, given (all %d) the
	 * cases that match, the larger run's count, the kernel's and the
	 * other run's counts, then the allowed, known-bug and unexplained
	 * differences.
	 */
	const char *summary;
};

/*
 * Compare the "@case ID RESULT" lines of @kpath and @opath; differences
 * are explained by the allow list @apath, then the bug list @bpath
 * (lines "CASE-GLOB KERNEL-GLOB OTHER-GLOB reason...", fnmatch(3)).
 * Returns 1 when a difference is unexplained or the runs hold different
 * cases, else 0; exits 2 when a file cannot be read or an entry parsed.
 */
int casediff_compare(const struct casediff_spec *spec, const char *kpath,
		     const char *opath, const char *apath, const char *bpath);

#endif /* CASEDIFF_H */
