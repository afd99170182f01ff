/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * clock.h - deadlines for the daemon's timed waits.  Every condition
 * variable the daemon waits on with a timeout runs on CLOCK_MONOTONIC
 * (pthread_condattr_setclock(), or pthread_cond_clockwait()), so that a
 * step of the wall clock neither stretches nor skips a wait.  It calls
 * nothing of the daemon: the inode table and the transport both use it.
 */
#ifndef SF_CLOCK_H
#define SF_CLOCK_H

#include <time.h>

/* @ts: @ms (under 1000) milliseconds from now on CLOCK_MONOTONIC. */
void sf_deadline_ms(struct timespec *ts, long ms);

#endif /* SF_CLOCK_H */
