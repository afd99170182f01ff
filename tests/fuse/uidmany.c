// SPDX-License-Identifier: GPL-2.0-only
/*
 * uidmany.c - N users at once, each in its own process, through a mount.
 *
 *   uidmany DIR FIRSTUID N
 *
 * Round 1: user i (uid and gid FIRSTUID + i, no supplementary groups)
 * creates DIR/f<uid> (O_EXCL, 0644) and stats it.  Round 2, once every
 * round-1 process has ended: user i opens its own file for reading and
 * the file of user i + 1 (the last: of user 0).  Prints
 *
 *   created=C own=O denied=D
 *
 * with C and O the users whose create+stat and own read succeeded, D
 * those whose read of the neighbour's file failed with EACCES; each other
 * outcome is one line "uid U: WHAT: ERRNO" on stderr.  Exit status 0
 * when every count is N.  Run as root.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void become(uid_t uid)
{
	if (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
	    setresuid(uid, uid, uid)) {
		perror("uidmany: setuid");
		_exit(100);
	}
}

static void say(uid_t uid, const char *what, int e)
{
	const char *name = strerrorname_np(e);

	fprintf(stderr, "uid %u: %s: %s\n", (unsigned int)uid, what,
		name ? name : "OK");
}

/* Round 1; the exit status is 0 for success. */
static int round1(const char *dir, uid_t uid)
{
	char path[4096];
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "%s/f%u", dir, (unsigned int)uid);
	fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644);
	if (fd < 0) {
		say(uid, "create", errno);
		return 1;
	}
	close(fd);
	if (stat(path, &st)) {
		say(uid, "stat own", errno);
		return 1;
	}
	return 0;
}

/* Round 2: bit 0 own read failed, bit 1 the neighbour's was not EACCES. */
static int round2(const char *dir, uid_t uid, uid_t next)
{
	char path[4096];
	int fd, rc = 0;

	snprintf(path, sizeof(path), "%s/f%u", dir, (unsigned int)uid);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		say(uid, "read own", errno);
		rc |= 1;
	} else {
		close(fd);
	}
	snprintf(path, sizeof(path), "%s/f%u", dir, (unsigned int)next);
	fd = open(path, O_RDONLY);
	if (fd >= 0 || errno != EACCES) {
		say(uid, "read neighbour's", fd >= 0 ? 0 : errno);
		rc |= 2;
	}
	if (fd >= 0)
		close(fd);
	return rc;
}

/* Fork one process per user for @round; @bad[i] gets its exit status. */
static void run(int round, const char *dir, uid_t first, long n, int *bad)
{
	long i, done = 0;
	int status;
	pid_t pid;

	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid < 0) {
			perror("uidmany: fork");
			exit(1);
		}
		if (pid == 0) {
			uid_t uid = first + (uid_t)i;

			become(uid);
			_exit(round == 1 ? round1(dir, uid) :
			      round2(dir, uid, first + (uid_t)((i + 1) % n)));
		}
	}
	while (done < n && (pid = wait(&status)) > 0) {
		/* The children's pids are not kept: count by exit code. */
		bad[done++] = WIFEXITED(status) ? WEXITSTATUS(status) : 100;
	}
}

int main(int argc, char **argv)
{
	long n, i, created = 0, own = 0, denied = 0;
	int *bad;
	uid_t first;

	if (argc != 4) {
		fprintf(stderr, "usage: uidmany DIR FIRSTUID N\n");
		return 2;
	}
	first = (uid_t)atol(argv[2]);
	n = atol(argv[3]);
	bad = calloc((size_t)(n > 0 ? n : 1), sizeof(*bad));
	if (n < 2 || !bad)
		return 2;
	run(1, argv[1], first, n, bad);
	for (i = 0; i < n; i++)
		created += !bad[i];
	run(2, argv[1], first, n, bad);
	for (i = 0; i < n; i++) {
		own += bad[i] < 100 && !(bad[i] & 1);
		denied += bad[i] < 100 && !(bad[i] & 2);
	}
	printf("created=%ld own=%ld denied=%ld\n", created, own, denied);
	free(bad);
	return created == n && own == n && denied == n ? 0 : 1;
}
