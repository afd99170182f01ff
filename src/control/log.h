/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * log.h - the control filesystem's messages: "control DIR: ..." to
 * syslog (LOG_AUTHPRIV), and to stderr too when the daemon runs in the
 * foreground.  Reads only c->dir and c->log_stderr.
 */
#ifndef SMACKFUSE_CTLFS_LOG_H
#define SMACKFUSE_CTLFS_LOG_H

#include "smack.h"

struct sf_control;

/* @prio is a syslog priority (LOG_WARNING ...). */
void ctl_log(struct sf_control *c, int prio, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "rejected write: FILE:LINE:COL: reason", from the core's parsers. */
void ctl_log_error(struct sf_control *c, const struct sf_error *err);

#endif /* SMACKFUSE_CTLFS_LOG_H */
