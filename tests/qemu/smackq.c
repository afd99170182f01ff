// SPDX-License-Identifier: GPL-2.0-only
/*
 * smackq.c - guest half of the differential test (smack-diff.test).
 *
 * Runs in a qemu guest on the Smack reference kernel, linked -static.
 * For each round i = 0, 1, ... while DIR/policy.i exists:
 *   - writes every line of DIR/policy.i to smackfs load2, one write per
 *     rule, and stops at the first rejected line;
 *   - answers every "subject object access" line of DIR/queries.i through
 *     access2, a transaction file: open, write the request, read back
 *     "1" or "0", close (one transaction per open);
 *   - reads load2 back.
 * Output on stdout, for the host (smackdiff check) to compare with the
 * access core:
 *   "@A <i> <digits>"   answers, 100 per line, in query order
 *   "@L <i> <line>"     each line read back from load2
 *   "@U <answer>"       access2 of "NeverImported _ r" (a label the
 *                       kernel never saw), for the host's notes
 * plus TAP points for what the guest itself can judge (rules accepted,
 * every query answered).  Exit 1 if any of those failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define SMACKFS "/sys/fs/smackfs"
#define ANSWERS_PER_LINE 100

static int npoint;
static int failed;

static void point(int ok, const char *fmt, const char *what, int round)
{
	printf("%sok %d - round %d: ", ok ? "" : "not ", ++npoint, round);
	printf(fmt, what);
	putchar('\n');
	if (!ok)
		failed = 1;
}

static int mount_smackfs(void)
{
	struct stat st;

	if (stat(SMACKFS "/load2", &st) == 0)
		return 0;
	mkdir(SMACKFS, 0755);
	if (mount("smackfs", SMACKFS, "smackfs", 0, NULL) != 0) {
		printf("not ok %d - smackfs mounts (%s)\n", ++npoint,
		       strerror(errno));
		return -1;
	}
	return 0;
}

/* Strip the trailing newline; returns the length left. */
static size_t chomp(char *line)
{
	size_t n = strlen(line);

	if (n && line[n - 1] == '\n')
		line[--n] = '\0';
	return n;
}

/* Returns the number of rules written, or -1 after a rejected line. */
static long load_policy(const char *path, int round)
{
	char line[1024];
	long n = 0;
	FILE *f;
	int fd;

	f = fopen(path, "r");
	if (!f)
		return -1;
	fd = open(SMACKFS "/load2", O_WRONLY);
	if (fd < 0) {
		point(0, "open load2: %s", strerror(errno), round);
		fclose(f);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);

		if (write(fd, line, len) != (ssize_t)len) {
			chomp(line);
			printf("# load2 rejected \"%s\": %s\n", line,
			       strerror(errno));
			n = -1;
			break;
		}
		n++;
	}
	close(fd);
	fclose(f);
	return n;
}

/* One access2 transaction: returns '1', '0', or 'E' on an error. */
static char ask(const char *query, size_t len)
{
	char ans[8];
	ssize_t got;
	int fd;

	fd = open(SMACKFS "/access2", O_RDWR);
	if (fd < 0)
		return 'E';
	if (write(fd, query, len) != (ssize_t)len) {
		close(fd);
		return 'E';
	}
	got = read(fd, ans, sizeof(ans));
	close(fd);
	if (got < 1 || (ans[0] != '0' && ans[0] != '1'))
		return 'E';
	return ans[0];
}

static long answer_queries(const char *path, int round)
{
	char line[1024], out[ANSWERS_PER_LINE + 1];
	long n = 0, errors = 0;
	size_t k = 0;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		size_t len = chomp(line);
		char a = ask(line, len);

		if (a == 'E' && errors++ < 5)
			printf("# access2 failed on \"%s\": %s\n", line,
			       strerror(errno));
		out[k++] = a;
		n++;
		if (k == ANSWERS_PER_LINE) {
			out[k] = '\0';
			printf("@A %d %s\n", round, out);
			k = 0;
		}
	}
	if (k) {
		out[k] = '\0';
		printf("@A %d %s\n", round, out);
	}
	fclose(f);
	return errors ? -errors : n;
}

static void dump_load2(int round)
{
	char line[1024];
	FILE *f = fopen(SMACKFS "/load2", "r");

	if (!f) {
		point(0, "read load2: %s", strerror(errno), round);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		chomp(line);
		printf("@L %d %s\n", round, line);
	}
	fclose(f);
}

int main(int argc, char **argv)
{
	char path[4096], what[64];
	int round;

	if (argc != 2) {
		fprintf(stderr, "usage: smackq DIR\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (mount_smackfs())
		return 1;
	for (round = 0;; round++) {
		struct stat st;
		long n;

		snprintf(path, sizeof(path), "%s/policy.%d", argv[1], round);
		if (stat(path, &st) != 0)
			break;
		n = load_policy(path, round);
		snprintf(what, sizeof(what), "%ld", n);
		point(n >= 0, "load2 accepted every rule (%s)", what, round);
		snprintf(path, sizeof(path), "%s/queries.%d", argv[1], round);
		n = answer_queries(path, round);
		snprintf(what, sizeof(what), "%ld", n);
		point(n >= 0, "access2 answered every query (%s)", what,
		      round);
		dump_load2(round);
	}
	if (round == 0)
		printf("not ok %d - no %s/policy.0\n", ++npoint, argv[1]);
	/* A label the kernel never imported, toward the floor. */
	printf("@U %c\n", ask("NeverImported _ r", 17));
	printf("1..%d\n", npoint);
	return failed || round == 0;
}
