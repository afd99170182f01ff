// SPDX-License-Identifier: GPL-2.0-only
/*
 * userstat.c - many users stat(2) one file at once, timed.
 *
 *   userstat [-f] PATH NUSERS FIRSTUID TOTAL [NPROCS]
 *
 * Forks NPROCS (default NUSERS) children; they wait at a barrier, then
 * stat PATH TOTAL times between them.  Child i runs as uid and gid
 * FIRSTUID + i % NUSERS, with no supplementary groups.  With -f the
 * children stay root and take each stat's uid from the pool of NUSERS by
 * setfsuid(2) (the uid FUSE sees): stat k of child i is made as FIRSTUID
 * + (i + k * NPROCS) % NUSERS.  So the number of users can be changed
 * alone, with the processes and the stats the same.  Prints
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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct job {
	const char *path;
	uid_t first;
	long nusers, nprocs;
	bool fsuid;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Child @i's share of @n stats after the barrier; the exit status is the
 * number of failures, capped. */
static void child(const struct job *j, long i, long n, int barrier)
{
	uid_t uid = j->first + (uid_t)(i % j->nusers);
	struct stat st;
	long k, bad = 0;
	char c;

	if (setgroups(0, NULL) ||
	    (!j->fsuid && (setresgid(uid, uid, uid) ||
			   setresuid(uid, uid, uid)))) {
		perror("userstat: setuid");
		_exit(100);
	}
	if (read(barrier, &c, 1) < 0)
		_exit(101);
	for (k = 0; k < n; k++) {
		if (j->fsuid) {
			uid = j->first +
			      (uid_t)((i + k * j->nprocs) % j->nusers);
			setfsgid(uid);
			setfsuid(uid);
		}
		if (stat(j->path, &st) != 0 && !bad++)
			fprintf(stderr, "userstat: uid %u: stat: %s\n",
				(unsigned)uid, strerror(errno));
	}
	_exit(bad > 99 ? 99 : (int)bad);
}

int main(int argc, char **argv)
{
	struct job j = { 0 };
	long total, i, failed = 0;
	int pipefd[2], status, a = 1;
	double t0, t1, t2;

	if (argc > 1 && !strcmp(argv[1], "-f")) {
		j.fsuid = true;
		a++;
	}
	if (argc - a != 4 && argc - a != 5) {
		fprintf(stderr, "usage: userstat [-f] PATH NUSERS FIRSTUID "
			"TOTAL [NPROCS]\n");
		return 2;
	}
	j.path = argv[a];
	j.nusers = atol(argv[a + 1]);
	j.first = (uid_t)atol(argv[a + 2]);
	total = atol(argv[a + 3]);
	j.nprocs = argc - a == 5 ? atol(argv[a + 4]) : j.nusers;
	if (j.nusers < 1 || j.nprocs < 1 || total < j.nprocs || pipe(pipefd))
		return 2;
	t0 = now();
	for (i = 0; i < j.nprocs; i++) {
		long share = total / j.nprocs + (i < total % j.nprocs);
		pid_t pid = fork();

		if (pid < 0) {
			perror("userstat: fork");
			return 1;
		}
		if (pid == 0) {
			close(pipefd[1]);
			child(&j, i, share, pipefd[0]);
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
