/* SPDX-License-Identifier: GPL-2.0-only */
/* tap.h - minimal TAP output for the core's unit tests. */
#ifndef SMACKFUSE_TAP_H
#define SMACKFUSE_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int tap_count, tap_failed;

__attribute__((format(printf, 2, 3)))
static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		tap_failed++;
	fflush(stdout);
	return cond;
}

#define ok(cond, ...) tap_ok(!!(cond), __VA_ARGS__)

/* A point that could not be made here: a SKIP with its reason. */
static inline void tap_skip(const char *why)
{
	printf("ok %d # SKIP %s\n", ++tap_count, why);
	fflush(stdout);
}

__attribute__((format(printf, 1, 2)))
static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

#endif
