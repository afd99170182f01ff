// SPDX-License-Identifier: GPL-2.0-only
/*
 * smallfile.c - a small file read whole in one read(2): the /proc and
 * /sys files the daemon asks (a task's attr, stack or stat, a flag).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "smallfile.h"

int sf_read_small(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t len;

	if (fd < 0)
		return -errno;
	len = read(fd, buf, size - 1);
	close(fd);
	if (len < 0)
		return -errno;
	buf[len] = '\0';
	return (int)len;
}
