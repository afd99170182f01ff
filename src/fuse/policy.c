// SPDX-License-Identifier: GPL-2.0-only
/*
 * policy.c - the start-up policy: rule files and directories of them.
 *
 * Every file is parsed into one batch, applied only when all of them are
 * valid: a bad line anywhere stops the mount with file:line:reason.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "smackfuse.h"

#ifndef SF_SYSCONFDIR		/* Makefile.am defines it; cppcheck does not */
#define SF_SYSCONFDIR "/etc"
#endif
#define SF_DEFAULT_RULES SF_SYSCONFDIR "/smackfuse/accesses.d"

static int sf_read_file(const char *path, char **out, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 4096, n = 0;
	char *buf;

	if (fd < 0)
		return -errno;
	buf = malloc(cap);
	while (buf) {
		if (n == cap) {
			char *nb = realloc(buf, cap * 2);

			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		ssize_t r = read(fd, buf + n, cap - n);

		if (r < 0) {
			int e = errno;

			free(buf);
			close(fd);
			return -e;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (!buf)
		return -ENOMEM;
	*out = buf;
	*len = n;
	return 0;
}

static int sf_load_one(struct sf_fs *fs, const char *path, struct sf_batch *b)
{
	struct sf_error err;
	char *buf = NULL;
	size_t len = 0;
	int rc;

	rc = sf_read_file(path, &buf, &len);
	if (rc) {
		fprintf(stderr, "smackfuse: %s: %s\n", path, strerror(-rc));
		return rc;
	}
	memset(&err, 0, sizeof(err));
	err.file = path;
	rc = sf_parse_rule_file(fs->labels, buf, len, b, &err);
	free(buf);
	if (rc) {
		char msg[512];

		sf_error_format(&err, msg, sizeof(msg));
		fprintf(stderr, "%s\n", msg);
	}
	return rc;
}

static int sf_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of @dir not starting with '.', in name order. */
static int sf_load_dir(struct sf_fs *fs, const char *dir, struct sf_batch *b)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, i;
	int rc = 0;

	if (!d) {
		fprintf(stderr, "smackfuse: %s: %s\n", dir, strerror(errno));
		return -errno;
	}
	while ((de = readdir(d))) {
		char **nn;

		if (de->d_name[0] == '.')
			continue;
		nn = realloc(names, (n + 1) * sizeof(*names));
		if (!nn) {
			rc = -ENOMEM;
			break;
		}
		names = nn;
		if (asprintf(&names[n], "%s/%s", dir, de->d_name) < 0) {
			rc = -ENOMEM;
			break;
		}
		n++;
	}
	closedir(d);
	if (!rc)
		qsort(names, n, sizeof(*names), sf_name_cmp);
	for (i = 0; !rc && i < n; i++) {
		struct stat st;

		if (stat(names[i], &st) || !S_ISREG(st.st_mode))
			continue;
		rc = sf_load_one(fs, names[i], b);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

/**
 * sf_policy_load - load the rule files and directories @paths (or the
 * default directory if it exists and none were given), all or nothing.
 */
int sf_policy_load(struct sf_fs *fs, char **paths, size_t npaths)
{
	static char *defaults[] = { SF_DEFAULT_RULES };
	struct sf_batch b;
	size_t i;
	int rc = 0;

	if (!npaths) {
		if (access(SF_DEFAULT_RULES, F_OK))
			return 0;
		paths = defaults;
		npaths = 1;
	}
	sf_batch_init(&b);
	for (i = 0; !rc && i < npaths; i++) {
		struct stat st;

		if (stat(paths[i], &st)) {
			rc = -errno;
			fprintf(stderr, "smackfuse: %s: %s\n", paths[i],
				strerror(errno));
		} else if (S_ISDIR(st.st_mode)) {
			rc = sf_load_dir(fs, paths[i], &b);
		} else {
			rc = sf_load_one(fs, paths[i], &b);
		}
	}
	if (!rc && b.nops)
		rc = sf_policy_apply(fs->policy, &b);
	if (rc == -ENOMEM)
		fprintf(stderr, "smackfuse: out of memory loading rules\n");
	sf_batch_release(&b);
	return rc;
}
