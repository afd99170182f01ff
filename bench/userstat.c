// SPDX-License-Identifier: GPL-2.0-only
/*
 * userstat.c - many users stat(2) one file at once, timed.
 *
 *   userstat PATH NUSERS FIRSTUID TOTAL [NPROCS]
 *
 * Forks NPROCS (default NUSERS) children, child i running as uid and gid
 * FIRSTUID + i % NUSERS with no supplementary groups; they wait at a
 * barrier, then stat PATH TOTAL times between them.  (NPROCS tells what
 * the number of users costs from what the number of processes does.)
 * Prints two lines:
 *
 *   all SECONDS      from before the first fork until the last child ends
 *   stats SECONDS    from the barrier until the last child ends
 *
 * and exits 1 if any stat(2) failed (the count goes to stderr).  Run as
 * root; bench/users.sh creates the users.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One user's share: wait for the barrier, stat @n times; the exit
 * status is the number of failures, capped. */
static void child(const char *path, uid_t uid, long n, int barrier)
{
	struct stat st;
	long i, bad = 0;
	char c;

	if (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
	    setresuid(uid, uid, uid)) {
		perror("userstat: setuid");
		_exit(100);
	}
	if (read(barrier, &c, 1) < 0)
		_exit(101);
	for (i = 0; i < n; i++)
		bad += stat(path, &st) != 0;
	_exit(bad > 99 ? 99 : (int)bad);
}

int main(int argc, char **argv)
{
	long nusers, nprocs, total, i, failed = 0;
	int pipefd[2], status;
	double t0, t1, t2;
	uid_t first;

	if (argc != 5 && argc != 6) {
		fprintf(stderr, "usage: userstat PATH NUSERS FIRSTUID TOTAL "
			"[NPROCS]\n");
		return 2;
	}
	nusers = atol(argv[2]);
	first = (uid_t)atol(argv[3]);
	total = atol(argv[4]);
	nprocs = argc == 6 ? atol(argv[5]) : nusers;
	if (nusers < 1 || nprocs < 1 || total < nprocs || pipe(pipefd))
		return 2;
	t0 = now();
	for (i = 0; i < nprocs; i++) {
		long share = total / nprocs + (i < total % nprocs);
		pid_t pid = fork();

		if (pid < 0) {
			perror("userstat: fork");
			return 1;
		}
		if (pid == 0) {
			close(pipefd[1]);
			child(argv[1], first + (uid_t)(i % nusers), share,
			      pipefd[0]);
		}
	}
	close(pipefd[0]);
	t1 = now();
	close(pipefd[1]);		/* the barrier: every read sees EOF */
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			failed += WIFEXITED(status) ? WEXITSTATUS(status) : 1;
	t2 = now();
	printf("all %.3f\nstats %.3f\n", t2 - t0, t2 - t1);
	if (failed)
		fprintf(stderr, "userstat: %ld stat(2) calls failed\n", failed);
	return failed ? 1 : 0;
}
