// SPDX-License-Identifier: GPL-2.0-only
/*
 * policy_dir.c - the files of a policy directory (see policy_dir.h).
 *
 * Shared by the daemon's start-up policy (policy.c) and smackfusectl, so
 * that a directory loads the same rules whichever reads it.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "policy_dir.h"

typedef void (*sf_report_fn)(void *arg, const char *msg);

static int sf_dir_error(sf_report_fn report, void *arg, const char *path,
			const char *name, const char *why)
{
	char msg[1024];

	snprintf(msg, sizeof(msg), "%s%s%s: %s", path, name ? "/" : "",
		 name ? name : "", why);
	report(arg, msg);
	return -EINVAL;
}

static bool sf_has_suffix(const char *name, const char *suffix)
{
	size_t n = strlen(name), s = strlen(suffix);

	return n > s && strcmp(name + n - s, suffix) == 0;
}

bool sf_policy_skip_name(const char *name)
{
	static const char *const leftovers[] = {
		"~", ".bak", ".dpkg-old", ".dpkg-dist", ".dpkg-new",
	};
	size_t i;

	if (name[0] == '.')
		return true;
	for (i = 0; i < sizeof(leftovers) / sizeof(leftovers[0]); i++)
		if (sf_has_suffix(name, leftovers[i]))
			return true;
	return false;
}

void sf_file_list_free(struct sf_file_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->paths[i]);
	free(l->paths);
	l->paths = NULL;
	l->n = 0;
}

static int sf_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Entry @name of @d must be a regular file (after symlinks). */
static int sf_dir_entry_ok(DIR *d, const char *dir, const char *name,
			   sf_report_fn report, void *arg)
{
	struct stat st;
	char why[256];

	if (fstatat(dirfd(d), name, &st, 0)) {
		int e = errno;

		if (e == ENOENT &&
		    !fstatat(dirfd(d), name, &st, AT_SYMLINK_NOFOLLOW))
			return sf_dir_error(report, arg, dir, name,
					    "a symlink to nothing");
		snprintf(why, sizeof(why), "cannot be looked at: %s",
			 strerror(e));
		sf_dir_error(report, arg, dir, name, why);
		return -e;
	}
	if (S_ISDIR(st.st_mode))
		return sf_dir_error(report, arg, dir, name, "is a directory "
				    "(a policy directory holds files only; "
				    "a name starting with '.' is skipped)");
	if (!S_ISREG(st.st_mode))
		return sf_dir_error(report, arg, dir, name,
				    "not a regular file");
	return 0;
}

static int sf_list_add(struct sf_file_list *l, const char *dir,
		       const char *name)
{
	char **grown = realloc(l->paths, (l->n + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	l->paths = grown;
	if (asprintf(&l->paths[l->n], "%s/%s", dir, name) < 0)
		return -ENOMEM;
	l->n++;
	return 0;
}

int sf_policy_dir_list(const char *dir, struct sf_file_list *l,
		       sf_report_fn report, void *arg)
{
	struct dirent *de;
	char why[256];
	int rc = 0;
	DIR *d;

	l->paths = NULL;
	l->n = 0;
	d = opendir(dir);
	if (!d) {
		rc = -errno;
		snprintf(why, sizeof(why), "%s", strerror(-rc));
		sf_dir_error(report, arg, dir, NULL, why);
		return rc;
	}
	for (;;) {
		errno = 0;
		de = readdir(d);
		if (!de) {
			rc = -errno;	/* 0 at the end */
			if (rc) {
				snprintf(why, sizeof(why), "reading: %s",
					 strerror(-rc));
				sf_dir_error(report, arg, dir, NULL, why);
			}
			break;
		}
		if (sf_policy_skip_name(de->d_name))
			continue;
		rc = sf_dir_entry_ok(d, dir, de->d_name, report, arg);
		if (!rc)
			rc = sf_list_add(l, dir, de->d_name);
		if (rc == -ENOMEM)
			sf_dir_error(report, arg, dir, NULL, "out of memory");
		if (rc)
			break;
	}
	closedir(d);
	if (rc) {
		sf_file_list_free(l);
		return rc;
	}
	if (l->n)	/* qsort's array must not be NULL, even for 0 */
		qsort(l->paths, l->n, sizeof(*l->paths), sf_name_cmp);
	return 0;
}

int sf_policy_subdir(const char *etc, const char *sub, char *buf,
		     size_t size, sf_report_fn report, void *arg)
{
	struct stat st;
	char why[256];
	int e;

	if ((size_t)snprintf(buf, size, "%s/%s", etc, sub) >= size) {
		sf_dir_error(report, arg, etc, sub, "path too long");
		return -ENAMETOOLONG;
	}
	if (!stat(buf, &st)) {
		if (S_ISDIR(st.st_mode))
			return 1;
		sf_dir_error(report, arg, buf, NULL, "not a directory (the "
			     "policy layout wants a directory of files "
			     "here)");
		return -ENOTDIR;
	}
	e = errno;
	if (e == ENOENT && lstat(buf, &st) && errno == ENOENT)
		return 0;
	if (e == ENOENT)
		return sf_dir_error(report, arg, buf, NULL,
				    "a symlink to nothing");
	snprintf(why, sizeof(why), "cannot be looked at: %s", strerror(e));
	sf_dir_error(report, arg, buf, NULL, why);
	return -e;
}
