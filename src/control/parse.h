/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * parse.h - numbers and empty writes as smackfs reads them, for the
 * control files that take a number (logging, ptrace, doi, ...).
 */
#ifndef SMACKFUSE_CTLFS_PARSE_H
#define SMACKFUSE_CTLFS_PARSE_H

#include <stdbool.h>
#include <stddef.h>

struct sf_control;

/* A number as smackfs's kstrto*_from_user() reads one: -EINVAL when
 * malformed, -ERANGE outside [@min, @max]. */
int ctl_parse_num(const char *buf, size_t len, long long min,
		  long long max, long long *val);
/*
 * The number a control file takes, as smackfs reads it: the kstrto* type
 * of its kstrto*_from_user() call, [@min, @max], over the first @window
 * bytes (0: as many as ctl_parse_num() looks at), then the values the
 * file accepts, [@lo, @hi].
 */
struct ctl_bounds {
	size_t window;
	long long min, max;	/* outside: -ERANGE */
	long long lo, hi;	/* outside: -EINVAL */
	const char *want;	/* "want ..." in the log; NULL: "a number
				 * from @lo to @hi" */
};
/* ctl_parse_num() within @b; a rejected write to @file is logged (log.h). */
int ctl_parse_bounded(struct sf_control *c, const char *file,
		      const struct ctl_bounds *b, const char *buf, size_t len,
		      long long *val);
/* Anything but white space in @buf? */
bool ctl_has_text(const char *buf, size_t len);

#endif /* SMACKFUSE_CTLFS_PARSE_H */
