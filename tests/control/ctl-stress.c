// SPDX-License-Identifier: GPL-2.0-only
/*
 * ctl-stress - a policy change under load.
 *
 *   ctl-stress MNT CONTROLDIR UID COUNT
 *
 * A child running as UID opens MNT/A, MNT/B, MNT/C and MNT/D in 4 threads
 * while the parent replaces the rules COUNT times through CONTROLDIR's
 * replace-rules, alternating
 *	old: Subj A r, Subj C r        new: Subj B r, Subj C r
 * (the files are labelled A, B, C, D; the child's label is Subj).  Every
 * decision must fit old or new: C is always allowed and D always denied,
 * which a half-applied change (rules cleared, not yet reloaded; or a mix)
 * would break.  A and B must each be seen both allowed and denied, so the
 * switches really happened during the opens.  Prints TAP.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

struct counts {
	atomic_long allowed[4], denied[4], other;
	atomic_int stop;
};

static struct counts *cnt;
static const char *mnt;

static void *opener(void *arg)
{
	char path[4096];
	int i = (int)(long)arg, f, fd;

	while (!atomic_load(&cnt->stop)) {
		for (f = 0; f < 4; f++) {
			snprintf(path, sizeof(path), "%s/%c", mnt, 'A' + (f + i) % 4);
			fd = open(path, O_RDONLY);
			if (fd >= 0) {
				atomic_fetch_add(&cnt->allowed[(f + i) % 4], 1);
				close(fd);
			} else if (errno == EACCES) {
				atomic_fetch_add(&cnt->denied[(f + i) % 4], 1);
			} else {
				atomic_fetch_add(&cnt->other, 1);
			}
		}
	}
	return NULL;
}

static int replace(const char *dir, const char *text)
{
	char path[4096];
	int fd, rc = 0;

	snprintf(path, sizeof(path), "%s/replace-rules", dir);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, text, strlen(text)) < 0)
		rc = -errno;
	if (close(fd) != 0 && rc == 0)
		rc = -errno;
	return rc;
}

int main(int argc, char **argv)
{
	static const char *const pol[2] = {
		"Subj A r\nSubj C r\n", "Subj B r\nSubj C r\n"
	};
	pthread_t th[4];
	long i, count, fails = 0;
	int status, t = 0, bad;
	pid_t pid;

	if (argc != 5)
		return 2;
	mnt = argv[1];
	count = atol(argv[4]);
	cnt = mmap(NULL, sizeof(*cnt), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (cnt == MAP_FAILED || replace(argv[2], pol[0]))
		return 1;
	pid = fork();
	if (pid == 0) {
		uid_t uid = (uid_t)atol(argv[3]);

		if (setresgid(uid, uid, uid) || setresuid(uid, uid, uid))
			_exit(3);
		for (i = 0; i < 4; i++)
			pthread_create(&th[i], NULL, opener, (void *)i);
		for (i = 0; i < 4; i++)
			pthread_join(th[i], NULL);
		_exit(0);
	}
	usleep(100000);
	for (i = 0; i < count; i++) {
		if (replace(argv[2], pol[(i + 1) % 2]))
			fails++;
		if (i % 8 == 0)
			usleep(200);	/* let the openers see each policy */
	}
	atomic_store(&cnt->stop, 1);
	waitpid(pid, &status, 0);

	printf("1..6\n");
	printf("%s %d - %ld rule replacements accepted\n",
	       fails ? "not ok" : "ok", ++t, count - fails);
	printf("%s %d - opener child ran and exited cleanly\n",
	       WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "ok" : "not ok",
	       ++t);
	bad = atomic_load(&cnt->denied[2]) != 0 || atomic_load(&cnt->allowed[2]) == 0;
	printf("%s %d - C (in both policies) always allowed: %ld allowed, %ld denied\n",
	       bad ? "not ok" : "ok", ++t, atomic_load(&cnt->allowed[2]),
	       atomic_load(&cnt->denied[2]));
	bad = atomic_load(&cnt->allowed[3]) != 0;
	printf("%s %d - D (in neither) never allowed: %ld allowed, %ld denied\n",
	       bad ? "not ok" : "ok", ++t, atomic_load(&cnt->allowed[3]),
	       atomic_load(&cnt->denied[3]));
	bad = !atomic_load(&cnt->allowed[0]) || !atomic_load(&cnt->denied[0]) ||
	      !atomic_load(&cnt->allowed[1]) || !atomic_load(&cnt->denied[1]);
	printf("%s %d - A and B each seen allowed and denied (A %ld/%ld, B %ld/%ld)\n",
	       bad ? "not ok" : "ok", ++t, atomic_load(&cnt->allowed[0]),
	       atomic_load(&cnt->denied[0]), atomic_load(&cnt->allowed[1]),
	       atomic_load(&cnt->denied[1]));
	printf("%s %d - no open failed with another errno (%ld)\n",
	       atomic_load(&cnt->other) ? "not ok" : "ok", ++t,
	       atomic_load(&cnt->other));
	return 0;
}
