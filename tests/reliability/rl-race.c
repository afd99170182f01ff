// SPDX-License-Identifier: GPL-2.0-only
/*
 * rl-race.c - name-swap races against lookups and opens.
 *
 * usage: rl-race swapopen DIR A B N WORD [SUB]
 *            two threads in one process: one exchanges DIR/A and DIR/B
 *            (renameat2 RENAME_EXCHANGE, else rename through a third
 *            name), the other opens DIR/A (or DIR/A/SUB) N times,
 *            reading and writing.
 *        rl-race swap DIR A B SECONDS
 *            exchange DIR/A and DIR/B in a loop (run by root on the
 *            backing tree, against opens through the mount).
 *        rl-race open PATH N WORD
 *            N opens of PATH (read, then write-append, alternating).
 *
 * An open that returns data containing WORD is a leak: the opener saw a
 * file it may not read.  A write open that succeeds appends "PWNED" and
 * the test then checks that the protected file never received it.
 * Prints "opens=N ok=.. denied=.. enoent=.. other=.. leaked=.." and exits
 * 1 if anything leaked.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct tally {
	unsigned long ok, denied, enoent, other, leaked, wopen;
	int other_errno;
};

static atomic_bool stop;

static void swap_loop(const char *dir, const char *a, const char *b,
		      double seconds)
{
	int dfd = open(dir, O_PATH | O_DIRECTORY);
	struct timespec t0, t;
	unsigned long n = 0;
	char tmp[256];

	if (dfd < 0) {
		perror(dir);
		exit(2);
	}
	snprintf(tmp, sizeof(tmp), "%s.rl-swap", a);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!atomic_load(&stop)) {
		if (renameat2(dfd, a, dfd, b, RENAME_EXCHANGE) < 0) {
			/* No exchange: move A aside, B to A, the old A to B. */
			renameat(dfd, a, dfd, tmp);
			renameat(dfd, b, dfd, a);
			renameat(dfd, tmp, dfd, b);
		}
		if ((++n & 255) == 0 && seconds > 0) {
			clock_gettime(CLOCK_MONOTONIC, &t);
			if (t.tv_sec - t0.tv_sec +
			    (t.tv_nsec - t0.tv_nsec) / 1e9 > seconds)
				break;
		}
	}
	fprintf(stderr, "rl-race: %lu swaps\n", n);
	close(dfd);
}

static void open_loop(const char *path, unsigned long n, const char *word,
		      struct tally *t)
{
	char buf[4096];

	for (unsigned long i = 0; i < n; i++) {
		int wr = i & 1;
		int fd = open(path, wr ? O_WRONLY | O_APPEND : O_RDONLY);

		if (fd < 0) {
			if (errno == EACCES || errno == EPERM)
				t->denied++;
			else if (errno == ENOENT || errno == ELOOP)
				t->enoent++;
			else {
				t->other++;
				t->other_errno = errno;
			}
			continue;
		}
		t->ok++;
		if (wr) {
			t->wopen++;
			if (write(fd, "PWNED\n", 6) < 0)
				t->other_errno = errno;
		} else {
			ssize_t r = read(fd, buf, sizeof(buf) - 1);

			if (r > 0) {
				buf[r] = 0;
				if (strstr(buf, word))
					t->leaked++;
			}
		}
		close(fd);
	}
}

static int report(unsigned long n, const struct tally *t)
{
	printf("opens=%lu ok=%lu denied=%lu enoent=%lu other=%lu leaked=%lu",
	       n, t->ok, t->denied, t->enoent, t->other, t->leaked);
	if (t->other)
		printf(" other_errno=%s", strerrorname_np(t->other_errno));
	printf("\n");
	return t->leaked ? 1 : 0;
}

struct swap_args {
	const char *dir, *a, *b;
};

static void *swap_thread(void *p)
{
	struct swap_args *s = p;

	swap_loop(s->dir, s->a, s->b, 0);
	return NULL;
}

int main(int argc, char **argv)
{
	struct tally t = { 0 };

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc == 6 && !strcmp(argv[1], "swap")) {
		swap_loop(argv[2], argv[3], argv[4], atof(argv[5]));
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "open")) {
		unsigned long n = strtoul(argv[3], NULL, 0);

		open_loop(argv[2], n, argv[4], &t);
		return report(n, &t);
	}
	if ((argc == 7 || argc == 8) && !strcmp(argv[1], "swapopen")) {
		struct swap_args s = { argv[2], argv[3], argv[4] };
		unsigned long n = strtoul(argv[5], NULL, 0);
		char path[4096];
		pthread_t th;

		snprintf(path, sizeof(path), "%s/%s%s%s", argv[2], argv[3],
			 argc == 8 ? "/" : "", argc == 8 ? argv[7] : "");
		if (pthread_create(&th, NULL, swap_thread, &s))
			return 2;
		open_loop(path, n, argv[6], &t);
		atomic_store(&stop, true);
		pthread_join(th, NULL);
		return report(n, &t);
	}
	fprintf(stderr, "usage: rl-race swapopen DIR A B N WORD [SUB] | swap DIR A B SECONDS | open PATH N WORD\n");
	return 2;
}
