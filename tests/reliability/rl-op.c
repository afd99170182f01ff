// SPDX-License-Identifier: GPL-2.0-only
/*
 * rl-op.c - do one file-system operation, print its outcome.
 *
 * usage: rl-op OP ARGS...
 * Prints "OK" (plus the data for reads) or the errno's symbolic name
 * ("ENOSPC", "EACCES", ...) on stdout.  Exit 0 on success, 1 on failure,
 * 2 on usage errors.  The reliability tests run it as unprivileged users
 * to assert an errno from a real syscall on a real mount.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

static int result(int rc)
{
	if (rc < 0) {
		const char *name = strerrorname_np(errno);

		printf("%s\n", name ? name : "E?");
		return 1;
	}
	printf("OK\n");
	return 0;
}

static int open_flags(const char *s)
{
	if (!strcmp(s, "r"))
		return O_RDONLY;
	if (!strcmp(s, "w"))
		return O_WRONLY;
	if (!strcmp(s, "rw"))
		return O_RDWR;
	if (!strcmp(s, "a"))
		return O_WRONLY | O_APPEND;
	if (!strcmp(s, "trunc"))
		return O_WRONLY | O_TRUNC;
	if (!strcmp(s, "path"))
		return O_PATH;
	if (!strcmp(s, "rtrunc"))
		return O_RDONLY | O_TRUNC;
	fprintf(stderr, "rl-op: unknown open mode %s\n", s);
	exit(2);
}

/* write PATH BYTES: append BYTES in 64 KiB chunks; the first error wins. */
static int op_write(const char *path, long long bytes)
{
	static char chunk[65536];
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);

	if (fd < 0)
		return result(-1);
	memset(chunk, 'w', sizeof(chunk));
	while (bytes > 0) {
		size_t n = bytes < (long long)sizeof(chunk) ? (size_t)bytes : sizeof(chunk);
		ssize_t w = write(fd, chunk, n);

		if (w < 0)
			return result(-1);
		bytes -= w;
	}
	if (fsync(fd) < 0 || close(fd) < 0)
		return result(-1);
	return result(0);
}

/* read PATH: open read-only, read up to 4 KiB, print it after "OK". */
static int op_read(const char *path, int flags)
{
	char data[4096];
	ssize_t r;
	int fd = open(path, flags);

	if (fd < 0)
		return result(-1);
	r = read(fd, data, sizeof(data) - 1);
	if (r < 0)
		return result(-1);
	data[r] = 0;
	printf("OK %s\n", data);
	return 0;
}

/* procfd PATH MODE: O_PATH open, then reopen through /proc/self/fd. */
static int op_procfd(const char *path, const char *mode)
{
	char proc[64];
	int fd = open(path, O_PATH);

	if (fd < 0)
		return result(-1);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (!strcmp(mode, "r"))
		return op_read(proc, O_RDONLY);
	return result(open(proc, open_flags(mode)));
}

/* openat2 DIR NAME MODE: resolve NAME beneath DIR. */
static int op_openat2(const char *dir, const char *name, const char *mode)
{
	struct open_how how = {
		.flags = (unsigned long long)open_flags(mode),
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
	};
	int dfd = open(dir, O_PATH | O_DIRECTORY);

	if (dfd < 0)
		return result(-1);
	return result((int)syscall(SYS_openat2, dfd, name, &how, sizeof(how)));
}

/*
 * openmany DIR N: open DIR/f0 .. DIR/f(N-1) read-only and hold them all;
 * print "opened=K first_error=ERRNO" and close them.
 */
static int openmany(const char *dir, long n)
{
	int *fds = calloc(n > 0 ? n : 1, sizeof(int));
	const char *first = "none";
	char path[4096];
	long opened = 0;

	if (!fds)
		return 2;
	for (long i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/f%ld", dir, i);
		fds[i] = open(path, O_RDONLY);
		if (fds[i] >= 0)
			opened++;
		else if (!strcmp(first, "none"))
			first = strerrorname_np(errno);
	}
	printf("opened=%ld first_error=%s\n", opened, first);
	for (long i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
	return 0;
}

/* mktree DIR N: N empty files, 1000 per subdirectory (fast setup). */
static int mktree(const char *dir, long n)
{
	char path[4096];

	for (long i = 0; i < n; i++) {
		int fd;

		if (i % 1000 == 0) {
			snprintf(path, sizeof(path), "%s/d%ld", dir, i / 1000);
			if (mkdir(path, 0755) < 0 && errno != EEXIST)
				return result(-1);
		}
		snprintf(path, sizeof(path), "%s/d%ld/f%ld", dir, i / 1000, i);
		fd = open(path, O_CREAT | O_WRONLY, 0644);
		if (fd < 0)
			return result(-1);
		close(fd);
	}
	return result(0);
}

int main(int argc, char **argv)
{
	const char *op = argc > 1 ? argv[1] : "";
	const char *a = argc > 2 ? argv[2] : NULL;
	const char *b = argc > 3 ? argv[3] : NULL;
	const char *c = argc > 4 ? argv[4] : NULL;
	char value[4096];
	struct stat st;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (!a)
		goto usage;
	if (!strcmp(op, "create"))
		return result(open(a, O_CREAT | O_EXCL | O_WRONLY, 0644));
	if (!strcmp(op, "mkdir"))
		return result(mkdir(a, 0755));
	if (!strcmp(op, "mkfifo"))
		return result(mknod(a, S_IFIFO | 0644, 0));
	if (!strcmp(op, "stat"))
		return result(lstat(a, &st));
	if (!strcmp(op, "unlink"))
		return result(unlink(a));
	if (!strcmp(op, "rmdir"))
		return result(rmdir(a));
	if (!strcmp(op, "read"))
		return op_read(a, O_RDONLY);
	if (!strcmp(op, "exec")) {
		execl(a, a, (char *)NULL);
		return result(-1);
	}
	if (!b)
		goto usage;
	if (!strcmp(op, "symlink"))
		return result(symlink(a, b));
	if (!strcmp(op, "link"))
		return result(link(a, b));
	if (!strcmp(op, "rename"))
		return result(rename(a, b));
	if (!strcmp(op, "open"))
		return result(open(a, open_flags(b)));
	if (!strcmp(op, "write"))
		return op_write(a, atoll(b));
	if (!strcmp(op, "truncate"))
		return result(truncate(a, atoll(b)));
	if (!strcmp(op, "procfd"))
		return op_procfd(a, b);
	if (!strcmp(op, "openmany"))
		return openmany(a, strtol(b, NULL, 0));
	if (!strcmp(op, "mktree"))
		return mktree(a, strtol(b, NULL, 0));
	if (!strcmp(op, "getxattr")) {
		ssize_t n = lgetxattr(a, b, value, sizeof(value) - 1);

		if (n < 0)
			return result(-1);
		value[n] = 0;
		printf("OK %s\n", value);
		return 0;
	}
	if (!strcmp(op, "removexattr"))
		return result(lremovexattr(a, b));
	if (!c)
		goto usage;
	if (!strcmp(op, "setxattr"))
		return result(lsetxattr(a, b, c, strlen(c), 0));
	if (!strcmp(op, "openat2"))
		return op_openat2(a, b, c);
usage:
	fprintf(stderr,
		"usage: rl-op create|mkdir|mkfifo|stat|unlink|rmdir|read|exec PATH\n"
		"       rl-op symlink|link|rename A B | open PATH r|w|rw|a|trunc|rtrunc|path\n"
		"       rl-op write PATH BYTES | truncate PATH LEN | procfd PATH MODE\n"
		"       rl-op getxattr|removexattr PATH NAME | setxattr PATH NAME VALUE\n"
		"       rl-op openat2 DIR NAME MODE | mktree|openmany DIR N\n");
	return 2;
}
