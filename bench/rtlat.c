// SPDX-License-Identifier: GPL-2.0-only
/*
 * rtlat.c - the round trip of one FUSE request, timed one by one.
 *
 *   rtlat FILE N [CPU]
 *
 * Makes N lgetxattr(2) calls for an extended attribute FILE does not have
 * ("user.rtlat.none"): the kernel caches no answer to it, so every call is
 * one GETXATTR request to the daemon and back.  With CPU, the caller is
 * bound to that CPU first.  Prints the median, 99th and 99.9th percentile
 * and the longest call, in microseconds, and the mean:
 *   p50 20.1 p99 45.3 p999 3500.0 max 5000.0 mean 24.0
 * bench/uring-load.sh runs it with and without CPU hogs.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/xattr.h>

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static long migrations(void)
{
	FILE *f = fopen("/proc/self/sched", "r");
	char line[256];
	long n = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "se.nr_migrations : %ld", &n) == 1)
			break;
	if (f)
		fclose(f);
	return n;
}

static void bind_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("rtlat: sched_setaffinity");
		exit(1);
	}
}

int main(int argc, char **argv)
{
	double *lat, sum = 0;
	char value[64];
	long i, n, moved;

	if (argc < 3 || (n = atol(argv[2])) < 1) {
		fprintf(stderr, "usage: rtlat FILE N [CPU]\n");
		return 2;
	}
	if (argc > 3)
		bind_to(atoi(argv[3]));
	lat = malloc(n * sizeof(*lat));
	if (!lat)
		return 1;
	moved = migrations();
	for (i = 0; i < n; i++) {
		double t = now_us();

		lgetxattr(argv[1], "user.rtlat.none", value, sizeof(value));
		lat[i] = now_us() - t;
		sum += lat[i];
	}
	if (moved >= 0)
		moved = migrations() - moved;
	qsort(lat, n, sizeof(*lat), by_value);
	printf("p50 %.1f p99 %.1f p999 %.1f max %.1f mean %.1f moved %ld\n",
	       lat[n / 2], lat[n * 99 / 100], lat[n * 999 / 1000], lat[n - 1],
	       sum / n, moved);
	free(lat);
	return 0;
}
