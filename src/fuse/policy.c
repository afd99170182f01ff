// SPDX-License-Identifier: GPL-2.0-only
/*
 * policy.c - the start-up policy: rule files and directories of them.
 *
 * Every file is parsed into one batch, applied only when all of them are
 * valid: a bad line anywhere stops the mount with file:line:reason.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "smackfuse.h"
#include "policy_dir.h"

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

static void sf_policy_report(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "smackfuse: %s\n", msg);
}

/* Every file of @dir (policy_dir.h says which), in name order. */
static int sf_load_dir(struct sf_fs *fs, const char *dir, struct sf_batch *b)
{
	struct sf_file_list l;
	size_t i;
	int rc;

	rc = sf_policy_dir_list(dir, &l, sf_policy_report, NULL);
	for (i = 0; !rc && i < l.n; i++)
		rc = sf_load_one(fs, l.paths[i], b);
	sf_file_list_free(&l);
	return rc;
}

/**
 * sf_policy_load - load the rule files and directories @paths, or, if none
 * were given, the directory accesses.d of the policy directory @etc when
 * there is one; all or nothing.
 */
int sf_policy_load(struct sf_fs *fs, const char *etc, char **paths,
		   size_t npaths)
{
	char def[PATH_MAX], *defaults[] = { def };
	struct sf_batch b;
	size_t i;
	int rc = 0;

	if (!npaths) {
		rc = sf_policy_subdir(etc, "accesses.d", def, sizeof(def),
				      sf_policy_report, NULL);
		if (rc <= 0)
			return rc;
		rc = 0;
		paths = defaults;
		npaths = 1;
	}
	sf_batch_init(&b);
	for (i = 0; !rc && i < npaths; i++) {
		struct stat st;

		if (stat(paths[i], &st)) {
			rc = -errno;
			fprintf(stderr, "smackfuse: %s: %s\n", paths[i],
				strerror(-rc));
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
