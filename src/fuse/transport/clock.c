// SPDX-License-Identifier: GPL-2.0-only
/*
 * clock.c - deadlines for the daemon's timed waits (clock.h): inode.c's
 * evictor and FORGET waits, loop.c's watch, the own ring's settle.
 */
#include <time.h>

#include "clock.h"

#define SF_NSEC_PER_MSEC	1000000L
#define SF_NSEC_PER_SEC		1000000000L

void sf_deadline_ms(struct timespec *ts, long ms)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
	ts->tv_nsec += ms * SF_NSEC_PER_MSEC;
	if (ts->tv_nsec >= SF_NSEC_PER_SEC) {
		ts->tv_sec++;
		ts->tv_nsec -= SF_NSEC_PER_SEC;
	}
}
