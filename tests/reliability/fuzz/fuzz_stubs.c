// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_stubs.c - what the fuzz targets replace in the daemon.
 *
 * The fuzz archive is compiled with -Dsyslog=sf_fuzz_syslog: a rejected
 * input is logged, and millions of them must not reach the system log.
 * The message is still formatted, so that a bad format or argument is
 * caught by the sanitizers.
 */
#include <stdarg.h>
#include <stdio.h>

void sf_fuzz_syslog(int prio, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void sf_fuzz_syslog(int prio, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	(void)prio;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
}
