// SPDX-License-Identifier: GPL-2.0-only
/*
 * ctl_io.c - what every smackfusectl command uses to speak and to read
 * and write files: its messages, a growing text, a control file read or
 * written whole (one write: a control file applies a write all or
 * nothing), a subcommand's options, and the words for a refused write.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctl.h"

void ctl_err(const char *fmt, ...)
{
	va_list ap;

	fputs("smackfusectl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int ctl_text_add(struct ctl_text *t, const char *s, size_t len)
{
	char *p;
	size_t want = t->len + len + 1;

	if (want > t->cap) {
		if (want < 2 * t->cap)
			want = 2 * t->cap;
		p = realloc(t->data, want);
		if (!p)
			return -ENOMEM;
		t->data = p;
		t->cap = want;
	}
	memcpy(t->data + t->len, s, len);
	t->len += len;
	t->data[t->len] = '\0';
	return 0;
}

void ctl_text_free(struct ctl_text *t)
{
	free(t->data);
	memset(t, 0, sizeof(*t));
}

static int ctl_text_fd(struct ctl_text *t, int fd)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (ctl_text_add(t, buf, (size_t)n))
			return -ENOMEM;
	}
	return 0;
}

int ctl_text_read(struct ctl_text *t, const char *path)
{
	int fd, rc;

	if (strcmp(path, "-") == 0)
		return ctl_text_fd(t, STDIN_FILENO);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	rc = ctl_text_fd(t, fd);
	close(fd);
	return rc;
}

int ctl_write_file(const char *dir, const char *name, const char *buf,
		   size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	size_t done = 0;
	int fd, rc = 0;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (done < len) {
		n = write(fd, buf + done, len - done);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			break;
		}
		done += (size_t)n;
	}
	/* Collecting files apply at close: its status is the verdict. */
	if (close(fd) != 0 && rc == 0)
		rc = -errno;
	return rc;
}

int ctl_read_file(const char *dir, const char *name, struct ctl_text *out)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	return ctl_text_read(out, path);
}

int ctl_getopt(int argc, char **argv, const struct option *lopts)
{
	char shorts[64];
	const struct option *l;
	size_t n = 0;

	shorts[n++] = '+';	/* stop at the command or the first operand */
	for (l = lopts; l->name && n + 3 < sizeof(shorts); l++) {
		if (l->flag || l->val <= 0 || l->val >= CTL_LONG_ONLY)
			continue;
		shorts[n++] = (char)l->val;
		if (l->has_arg == required_argument)
			shorts[n++] = ':';
	}
	shorts[n] = '\0';
	return getopt_long(argc, argv, shorts, lopts, NULL);
}

void ctl_say_write_error(const char *target, const char *dir,
			 const char *name, int rc)
{
	bool kmod = strcmp(target, "kmod") == 0;

	if (rc == -EPERM || rc == -EACCES)
		ctl_err("%s %s/%s: permission denied: changing the policy "
			"needs CAP_MAC_ADMIN, and a label listed in onlycap "
			"when onlycap is set", target, dir, name);
	else if (rc == -EINVAL)
		ctl_err("%s %s/%s: rejected by the %s (invalid input; %s "
			"says why); the policy is unchanged", target, dir,
			name, kmod ? "module" : "daemon",
			kmod ? "the kernel log" : "its log");
	else
		ctl_err("%s %s/%s: %s", target, dir, name, strerror(-rc));
}
