// SPDX-License-Identifier: GPL-2.0-only
/*
 * pathwalk.c - what a path walk costs: stat(2) of each PATH, N times in a
 * row, in 5 batches; prints the median batch's nanoseconds per call.
 *
 *   pathwalk N PATH...
 *
 * Static: bench/kmod-path.sh runs it in qemu guests, with and without
 * smackfuse.ko, whose probe on security_inode_permission runs for every
 * component of every path (src/kmod/hooks_task.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#define BATCHES 5

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	double t[BATCHES], t0;
	struct stat st;
	long n, i;
	int p, b;

	if (argc < 3 || (n = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: pathwalk N PATH...\n");
		return 2;
	}
	for (p = 2; p < argc; p++) {
		if (stat(argv[p], &st)) {
			perror(argv[p]);
			return 1;
		}
		for (b = 0; b < BATCHES; b++) {
			t0 = now_ns();
			for (i = 0; i < n; i++)
				stat(argv[p], &st);
			t[b] = (now_ns() - t0) / n;
		}
		qsort(t, BATCHES, sizeof(t[0]), cmp);
		printf("%s %.0f\n", argv[p], t[BATCHES / 2]);
	}
	return 0;
}
