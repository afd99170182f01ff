// SPDX-License-Identifier: GPL-2.0-only
/*
 * fsbench.c - one filesystem workload on one directory, timed.
 *
 *   fsbench DIR meta N NDIRS     create, stat, unlink N files in NDIRS dirs
 *   fsbench DIR small-setup N    make N files of 4 KiB (in 100 dirs)
 *   fsbench DIR small-read N     open, read 4 KiB, close each of them
 *   fsbench DIR seq-write MIB    write MIB MiB sequentially, then fsync
 *   fsbench DIR seq-read MIB     read the file back sequentially
 *   fsbench DIR create N         create N files in 100 dirs (meta's phases
 *   fsbench DIR stat N           one at a time: stat(2) the N files of
 *   fsbench DIR unlink N         create or small-setup, unlink them)
 *   fsbench DIR small-write N SIZE  N writes of SIZE bytes into an
 *                                existing file, in place from offset 0
 *                                (dd conv=notrunc), then N with O_APPEND
 *
 * Prints "PHASE SECONDS" lines (meta prints create, stat and unlink).
 * bench/fs.sh runs it on native, smackfuse and bindfs and takes medians.
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

#define SMALL 4096
#define BLOCK (1 << 20)

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void die(const char *what, const char *path)
{
	fprintf(stderr, "fsbench: %s %s: %s\n", what, path, strerror(errno));
	exit(1);
}

static void name(char *buf, size_t size, const char *dir, long i, long ndirs)
{
	snprintf(buf, size, "%s/d%03ld/f%06ld", dir, i % ndirs, i);
}

static void mkdirs(const char *dir, long ndirs)
{
	char path[4096];
	long d;

	for (d = 0; d < ndirs; d++) {
		snprintf(path, sizeof(path), "%s/d%03ld", dir, d);
		if (mkdir(path, 0755) && errno != EEXIST)
			die("mkdir", path);
	}
}

/* Create, stat or unlink (@what: 'c', 's', 'u') the @n files of
 * @ndirs directories; returns the seconds it took. */
static double files(const char *dir, long n, long ndirs, int what)
{
	char path[4096];
	struct stat st;
	double t = now();
	long i;
	int fd;

	for (i = 0; i < n; i++) {
		name(path, sizeof(path), dir, i, ndirs);
		switch (what) {
		case 'c':
			fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
			if (fd < 0)
				die("create", path);
			close(fd);
			break;
		case 's':
			if (stat(path, &st))
				die("stat", path);
			break;
		default:
			if (unlink(path))
				die("unlink", path);
		}
	}
	return now() - t;
}

/* Each phase's line goes out as soon as it ends (a caller counting the
 * requests of each phase reads it during the pause that follows). */
static void meta(const char *dir, long n, long ndirs)
{
	mkdirs(dir, ndirs);
	printf("create %.4f\n", files(dir, n, ndirs, 'c'));
	fflush(stdout);
	/* Let the 1 s entry and attribute timeouts run out, so that the
	 * stat and unlink phases do not depend on how long create took. */
	sleep(2);
	printf("stat %.4f\n", files(dir, n, ndirs, 's'));
	fflush(stdout);
	sleep(2);
	printf("unlink %.4f\n", files(dir, n, ndirs, 'u'));
}

static void small(const char *dir, long n, int setup)
{
	static char buf[SMALL];
	char path[4096];
	double t;
	long i;

	if (setup) {
		mkdirs(dir, 100);
		memset(buf, 'x', sizeof(buf));
	}
	t = now();
	for (i = 0; i < n; i++) {
		int fd;

		name(path, sizeof(path), dir, i, 100);
		fd = setup ? open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644) :
			open(path, O_RDONLY);
		if (fd < 0)
			die("open", path);
		if ((setup ? write(fd, buf, SMALL) : read(fd, buf, SMALL)) !=
		    SMALL)
			die("io", path);
		close(fd);
	}
	printf("%s %.4f\n", setup ? "small-setup" : "small-read", now() - t);
}

static void seq(const char *dir, long mib, int writing)
{
	char path[4096];
	char *buf = malloc(BLOCK);
	double t;
	long i;
	int fd;

	if (!buf)
		exit(1);
	memset(buf, 'y', BLOCK);
	snprintf(path, sizeof(path), "%s/seq", dir);
	fd = writing ? open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644) :
		open(path, O_RDONLY);
	if (fd < 0)
		die("open", path);
	t = now();
	for (i = 0; i < mib; i++)
		if ((writing ? write(fd, buf, BLOCK) : read(fd, buf, BLOCK)) !=
		    BLOCK)
			die("io", path);
	if (writing && fsync(fd))
		die("fsync", path);
	printf("%s %.4f\n", writing ? "seq-write" : "seq-read", now() - t);
	close(fd);
	free(buf);
}

/* One pass of small writes: @n writes of @size bytes on @fd. */
static double small_writes(int fd, const char *buf, long n, long size,
			   const char *path)
{
	double t = now();
	long i;

	for (i = 0; i < n; i++)
		if (write(fd, buf, (size_t)size) != size)
			die("write", path);
	return now() - t;
}

/* Logs, mailboxes and databases write in small pieces: each write(2)
 * that costs a request shows here (issue 30). */
static void small_write(const char *dir, long n, long size)
{
	char path[4096], buf[65536];
	double t;
	int fd;

	if (size <= 0 || size > (long)sizeof(buf))
		exit(2);
	memset(buf, 'w', sizeof(buf));
	snprintf(path, sizeof(path), "%s/small-write", dir);
	fd = open(path, O_WRONLY | O_CREAT, 0644);
	if (fd < 0 || write(fd, buf, 1) != 1 || close(fd))
		die("create", path);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		die("open", path);
	t = small_writes(fd, buf, n, size, path);
	printf("small-write-%ld %.4f\n", size, t);
	close(fd);
	fd = open(path, O_WRONLY | O_APPEND);
	if (fd < 0)
		die("open", path);
	t = small_writes(fd, buf, n, size, path);
	printf("small-append-%ld %.4f\n", size, t);
	close(fd);
	if (unlink(path))
		die("unlink", path);
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fputs("usage: fsbench DIR meta N NDIRS | small-setup N | "
		      "small-read N | seq-write MIB | seq-read MIB | "
		      "create N | stat N | unlink N | small-write N SIZE\n",
		      stderr);
		return 2;
	}
	if (!strcmp(argv[2], "meta") && argc > 4)
		meta(argv[1], atol(argv[3]), atol(argv[4]));
	else if (!strcmp(argv[2], "small-setup"))
		small(argv[1], atol(argv[3]), 1);
	else if (!strcmp(argv[2], "small-read"))
		small(argv[1], atol(argv[3]), 0);
	else if (!strcmp(argv[2], "seq-write"))
		seq(argv[1], atol(argv[3]), 1);
	else if (!strcmp(argv[2], "seq-read"))
		seq(argv[1], atol(argv[3]), 0);
	else if (!strcmp(argv[2], "create")) {
		mkdirs(argv[1], 100);
		printf("create %.4f\n", files(argv[1], atol(argv[3]), 100,
					       'c'));
	} else if (!strcmp(argv[2], "stat"))
		printf("stat %.4f\n", files(argv[1], atol(argv[3]), 100, 's'));
	else if (!strcmp(argv[2], "unlink"))
		printf("unlink %.4f\n", files(argv[1], atol(argv[3]), 100,
					       'u'));
	else if (!strcmp(argv[2], "small-write") && argc > 4)
		small_write(argv[1], atol(argv[3]), atol(argv[4]));
	else
		return 2;
	return 0;
}
