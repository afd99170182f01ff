// SPDX-License-Identifier: GPL-2.0-only
/*
 * rl-storm.c - a denial storm, and the latency other users see meanwhile.
 *
 * usage: rl-storm deny PATH N
 *            N opens of PATH for reading, each expected to fail with
 *            EACCES; prints "denied=.. other=.. seconds=.. rate=../s" and
 *            exits 1 if any open was not denied.
 *        rl-storm probe PATH N
 *            N rounds of stat + open + read + close of PATH (allowed);
 *            prints "probes=N errors=.. p50_us=.. p99_us=.. max_us=..".
 *            Exits 1 on any error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int deny(const char *path, unsigned long n)
{
	unsigned long denied = 0, other = 0;
	int other_errno = 0;
	double t0 = now_us(), secs;

	for (unsigned long i = 0; i < n; i++) {
		int fd = open(path, O_RDONLY);

		if (fd >= 0) {
			close(fd);
			other++;
		} else if (errno == EACCES) {
			denied++;
		} else {
			other++;
			other_errno = errno;
		}
	}
	secs = (now_us() - t0) / 1e6;
	printf("denied=%lu other=%lu seconds=%.2f rate=%.0f/s", denied, other,
	       secs, n / (secs > 0 ? secs : 1));
	if (other_errno)
		printf(" other_errno=%s", strerrorname_np(other_errno));
	printf("\n");
	return other ? 1 : 0;
}

static int probe(const char *path, unsigned long n)
{
	double *lat = calloc(n ? n : 1, sizeof(*lat));
	unsigned long errors = 0;
	char buf[512];
	struct stat st;

	if (!lat)
		return 2;
	for (unsigned long i = 0; i < n; i++) {
		double t0 = now_us();
		int fd;

		if (stat(path, &st) < 0)
			errors++;
		fd = open(path, O_RDONLY);
		if (fd < 0 || read(fd, buf, sizeof(buf)) < 0)
			errors++;
		if (fd >= 0)
			close(fd);
		lat[i] = now_us() - t0;
	}
	qsort(lat, n, sizeof(*lat), cmp_double);
	printf("probes=%lu errors=%lu p50_us=%.0f p99_us=%.0f max_us=%.0f\n",
	       n, errors, n ? lat[n / 2] : 0, n ? lat[(n * 99) / 100] : 0,
	       n ? lat[n - 1] : 0);
	free(lat);
	return errors ? 1 : 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc == 4 && !strcmp(argv[1], "deny"))
		return deny(argv[2], strtoul(argv[3], NULL, 0));
	if (argc == 4 && !strcmp(argv[1], "probe"))
		return probe(argv[2], strtoul(argv[3], NULL, 0));
	fprintf(stderr, "usage: rl-storm deny|probe PATH N\n");
	return 2;
}
