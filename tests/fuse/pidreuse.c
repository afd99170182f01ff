// SPDX-License-Identifier: GPL-2.0-only
/*
 * pidreuse.c - two processes, one after the other, with the same pid.
 *
 *   pidreuse UID:GID PATH FIRST SECOND
 *
 * A first child makes call FIRST on PATH and exits; once it is reaped, a
 * second child is made with the same pid (clone3() with set_tid, which
 * needs CAP_SYS_ADMIN) and makes call SECOND.  Both run as UID:GID.
 * Calls: "stat", "access-w" (access(2) W_OK), "access-r".  Prints
 *
 *   FIRST_RESULT SECOND_RESULT
 *
 * each "OK" or an errno name, or "SKIP why" when the pid could not be
 * had again.  The daemon reads a caller's /proc/TID files (procfd.c
 * keeps them open): a second caller with the first one's pid must be
 * answered as itself, never from what the first one was doing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *errname(int e)
{
	switch (e) {
	case 0: return "OK";
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	default: return strerror(e);
	}
}

/* In a child: become @uid:@gid, make @call on @path, exit with its errno
 * (0 for success). */
static void call_and_exit(uid_t uid, gid_t gid, const char *path,
			  const char *call)
{
	struct stat st;
	int rc;

	if (setgroups(0, NULL) || setresgid(gid, gid, gid) ||
	    setresuid(uid, uid, uid))
		_exit(200);
	if (!strcmp(call, "stat"))
		rc = stat(path, &st);
	else if (!strcmp(call, "access-w"))
		rc = access(path, W_OK);
	else if (!strcmp(call, "access-r"))
		rc = access(path, R_OK);
	else
		_exit(201);
	_exit(rc ? errno : 0);
}

static int reap(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	struct clone_args args;
	unsigned int uid, gid;
	pid_t first, again;
	int r1, r2;

	if (argc != 5 || sscanf(argv[1], "%u:%u", &uid, &gid) != 2) {
		fputs("usage: pidreuse UID:GID PATH FIRST SECOND\n", stderr);
		return 2;
	}
	first = fork();
	if (first < 0)
		return 1;
	if (!first)
		call_and_exit(uid, gid, argv[2], argv[3]);
	r1 = reap(first);
	memset(&args, 0, sizeof(args));
	args.exit_signal = SIGCHLD;
	args.set_tid = (uint64_t)(uintptr_t)&first;
	args.set_tid_size = 1;
	again = (pid_t)syscall(SYS_clone3, &args, sizeof(args));
	if (again < 0) {
		printf("SKIP clone3 with the pid %d again: %s\n", (int)first,
		       strerror(errno));
		return 0;
	}
	if (!again)
		call_and_exit(uid, gid, argv[2], argv[4]);
	r2 = reap(again);
	if (again != first || r1 < 0 || r2 < 0 || r1 >= 200 || r2 >= 200) {
		printf("SKIP pid %d then %d, results %d %d\n", (int)first,
		       (int)again, r1, r2);
		return 0;
	}
	printf("%s %s\n", errname(r1), errname(r2));
	return 0;
}
