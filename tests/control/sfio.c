// SPDX-License-Identifier: GPL-2.0-only
/*
 * sfio - exact-byte I/O on control files, for the tests.
 *
 *   sfio write FILE        stdin -> ONE write(2); prints "OK" or the errno
 *                          name (EINVAL, EPERM, ...); exit 0 / 1
 *   sfio read FILE         the file's bytes to stdout
 *   sfio txn FILE QUERY    open O_RDWR, write QUERY, print the reply
 *   sfio collect FILE      stdin -> write(s), then close(2); prints "OK" or
 *                          the errno close (or a write) returned
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *errname(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case EBUSY: return "EBUSY";
	case ENOENT: return "ENOENT";
	case EFBIG: return "EFBIG";
	case ENOMEM: return "ENOMEM";
	default: return strerrorname_np(e) ? strerrorname_np(e) : "E?";
	}
}

static char *slurp(int fd, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap);
	ssize_t r;

	while (buf && (r = read(fd, buf + n, cap - n)) > 0) {
		n += (size_t)r;
		if (n == cap) {
			char *grown = realloc(buf, cap *= 2);

			if (!grown) {
				free(buf);
				return NULL;
			}
			buf = grown;
		}
	}
	*len = n;
	return buf;
}

static int fail(int e)
{
	printf("%s\n", errname(e));
	return 1;
}

int main(int argc, char **argv)
{
	size_t len, done = 0;
	char *data, buf[64];
	ssize_t n;
	int fd;

	if (argc < 3)
		return 2;
	if (strcmp(argv[1], "read") == 0) {
		fd = open(argv[2], O_RDONLY);
		if (fd < 0)
			return fail(errno);
		data = slurp(fd, &len);
		if (!data)
			return fail(ENOMEM);
		fwrite(data, 1, len, stdout);
		return 0;
	}
	if (strcmp(argv[1], "txn") == 0 && argc == 4) {
		fd = open(argv[2], O_RDWR);
		if (fd < 0 || write(fd, argv[3], strlen(argv[3])) < 0)
			return fail(errno);
		n = pread(fd, buf, sizeof(buf), 0);
		if (n < 0)
			return fail(errno);
		fwrite(buf, 1, (size_t)n, stdout);
		return 0;
	}
	data = slurp(0, &len);
	if (!data)
		return fail(ENOMEM);
	fd = open(argv[2], O_WRONLY);
	if (fd < 0)
		return fail(errno);
	if (strcmp(argv[1], "write") == 0) {
		n = write(fd, data, len);
		if (n < 0)
			return fail(errno);
		if ((size_t)n != len) {
			printf("SHORT %zd\n", n);
			return 1;
		}
	} else {
		while (done < len) {
			n = write(fd, data + done, len - done);
			if (n < 0)
				return fail(errno);
			done += (size_t)n;
		}
	}
	if (close(fd) != 0)
		return fail(errno);
	puts("OK");
	return 0;
}
