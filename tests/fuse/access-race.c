// SPDX-License-Identifier: GPL-2.0-only
/*
 * access-race.c - ask access(2) many times, from several processes at
 * once, and count the answers that said yes.
 *
 *   access-race UID:GID PATH MODE PROCS COUNT
 *
 * MODE is one or more of "rwx" (or "f"), or "stat" for stat(2).  Each of PROCS children drops
 * to UID:GID (no capabilities left; already there: stays) and calls access(PATH, MODE) COUNT
 * times.  Prints "granted N denied N other N"; exit 0 when every call
 * was made.  A daemon that decides while the caller is still on its way
 * to sleep would let some through (getattr.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

struct tally {
	long granted, denied, other;
};

#define MODE_STAT (-2)

static int parse_mode(const char *s)
{
	int mode = 0;

	if (!strcmp(s, "stat"))
		return MODE_STAT;
	for (; *s; s++) {
		if (*s == 'r')
			mode |= R_OK;
		else if (*s == 'w')
			mode |= W_OK;
		else if (*s == 'x')
			mode |= X_OK;
		else if (*s != 'f')
			return -1;
	}
	return mode;
}

static void worker(uid_t uid, gid_t gid, const char *path, int mode,
		   long count, struct tally *t)
{
	struct stat st;
	long i;
	int rc;

	if (geteuid() != uid &&
	    (setgroups(0, NULL) || setgid(gid) || setuid(uid)))
		_exit(2);
	for (i = 0; i < count; i++) {
		rc = mode == MODE_STAT ? stat(path, &st) : access(path, mode);
		if (!rc)
			__atomic_add_fetch(&t->granted, 1, __ATOMIC_RELAXED);
		else if (errno == EACCES)
			__atomic_add_fetch(&t->denied, 1, __ATOMIC_RELAXED);
		else
			__atomic_add_fetch(&t->other, 1, __ATOMIC_RELAXED);
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	unsigned int uid, gid;
	struct tally *t;
	int mode, procs, i, status, bad = 0;
	long count;

	if (argc != 6 || sscanf(argv[1], "%u:%u", &uid, &gid) != 2 ||
	    (mode = parse_mode(argv[3])) == -1 ||
	    (procs = atoi(argv[4])) <= 0 || (count = atol(argv[5])) <= 0) {
		fprintf(stderr, "usage: access-race UID:GID PATH MODE PROCS "
			"COUNT\n");
		return 2;
	}
	t = mmap(NULL, sizeof(*t), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (t == MAP_FAILED)
		return 1;
	for (i = 0; i < procs; i++)
		if (fork() == 0)
			worker(uid, gid, argv[2], mode, count, t);
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			bad = 1;
	printf("granted %ld denied %ld other %ld\n", t->granted, t->denied,
	       t->other);
	return bad;
}
