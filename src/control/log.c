// SPDX-License-Identifier: GPL-2.0-only
/*
 * log.c - what the control filesystem says (log.h): to syslog's authpriv
 * facility, and to stderr as well when the daemon runs in the foreground.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <syslog.h>

#include "control_int.h"

void ctl_log(struct sf_control *c, int prio, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	syslog(LOG_AUTHPRIV | prio, "control %s: %s", c->dir, msg);
	if (c->log_stderr)
		fprintf(stderr, "smackfuse: control %s: %s\n", c->dir, msg);
}

void ctl_log_error(struct sf_control *c, const struct sf_error *err)
{
	char msg[256];

	sf_error_format(err, msg, sizeof(msg));
	ctl_log(c, LOG_WARNING, "rejected write: %s", msg);
}
