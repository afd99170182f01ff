// SPDX-License-Identifier: GPL-2.0-only
/*
 * smackfs.c - a kernel that runs Smack itself, and its smackfs.
 *
 * Where Smack is an active LSM it owns NetLabel: smackfs keeps its own
 * host list and the kernel labels each socket from it, with one
 * pass-through DOI and the default IPv4 mapping to it.  Smack cannot use
 * NetLabel address selectors: once the default mapping has them, every
 * labelled socket's traffic leaves with no label and arrives as the
 * ambient label.  So on such a kernel our callers change NetLabel only
 * through smackfs, which does it the way Smack can use, or not at all.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "netlabel.h"

#define SMACKFS_DIR	"/sys/fs/smackfs"
#define LSM_FILE	"/sys/kernel/security/lsm"

/* The smackfs directory: SMACKNL_SMACKFS (tests) or the kernel's. */
static const char *smackfs_dir(void)
{
	const char *dir = getenv("SMACKNL_SMACKFS");

	return dir && *dir ? dir : SMACKFS_DIR;
}

/* Is @name one of the comma-separated words of @list? */
static bool has_word(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while ((p = strstr(p, name)) != NULL) {
		if ((p == list || p[-1] == ',') &&
		    (p[n] == ',' || p[n] == '\n' || p[n] == '\0'))
			return true;
		p += n;
	}
	return false;
}

/*
 * sf_lsm_active - is LSM @name active?  1 yes, 0 no, -1 cannot tell
 * (securityfs not mounted, or the list unreadable).
 */
int sf_lsm_active(const char *name)
{
	char list[512];
	ssize_t n;
	int fd;

	fd = open(LSM_FILE, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, list, sizeof(list) - 1);
	close(fd);
	if (n <= 0 || (size_t)n >= sizeof(list) - 1)
		return -1;
	list[n] = '\0';
	return has_word(list, name);
}

/*
 * sf_smack_running - does the running kernel enforce Smack itself?
 *
 * The list of active LSMs answers when securityfs is mounted.  Without
 * it, /sys/fs/smackfs answers: the kernel creates that directory only
 * when Smack is enabled.  Any doubt counts as "running": the cost of a
 * wrong "yes" is a refused change, of a wrong "no" a broken host.
 */
bool sf_smack_running(void)
{
	const char *env = getenv("SMACKNL_SMACKFS");
	struct stat st;
	int active;

	if (env && *env)
		return true;
	active = sf_lsm_active("smack");
	if (active >= 0)
		return active;
	return stat(SMACKFS_DIR, &st) == 0 || errno != ENOENT;
}

static void why_set(char *why, size_t wlen, const char *file, int err)
{
	if (!why || !wlen)
		return;
	snprintf(why, wlen, "%s/%s: %s%s", smackfs_dir(), file, strerror(err),
		 err == ENOENT ? " (is smackfs mounted? mount -t smackfs "
		 "smackfs /sys/fs/smackfs)" : err == EPERM ?
		 " (needs CAP_MAC_ADMIN, and a label in smackfs onlycap "
		 "if it is set)" : "");
}

/* Open smackfs file @file with @flags: the fd, or -errno said in @why. */
static int smackfs_open(const char *file, int flags, char *why, size_t wlen)
{
	char path[512];
	int fd, err;

	snprintf(path, sizeof(path), "%s/%s", smackfs_dir(), file);
	fd = open(path, flags | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		why_set(why, wlen, file, err);
		return -err;
	}
	return fd;
}

/*
 * sf_smackfs_write - write @len bytes of @text to smackfs file @file in
 * one write(2), as smackfs takes one record per write.  Returns 0 or a
 * negative errno with a sentence in @why.
 */
int sf_smackfs_write(const char *file, const char *text, size_t len,
		     char *why, size_t wlen)
{
	ssize_t n;
	int fd, err;

	fd = smackfs_open(file, O_WRONLY, why, wlen);
	if (fd < 0)
		return fd;
	n = write(fd, text, len);
	err = n < 0 ? errno : (size_t)n == len ? 0 : EIO;
	close(fd);
	if (err) {
		why_set(why, wlen, file, err);
		return -err;
	}
	return 0;
}

/*
 * sf_smackfs_read - what a read of smackfs file @file shows, NUL
 * terminated in @buf.  Returns its length or a negative errno (-ENOSPC
 * when @size is too small) with a sentence in @why.
 */
ssize_t sf_smackfs_read(const char *file, char *buf, size_t size, char *why,
			size_t wlen)
{
	size_t got = 0;
	ssize_t n;
	int fd, err = 0;

	fd = smackfs_open(file, O_RDONLY, why, wlen);
	if (fd < 0)
		return fd;
	while (got + 1 < size) {
		n = read(fd, buf + got, size - 1 - got);
		if (n < 0) {
			err = errno;
			break;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (!err && got + 1 >= size)
		err = ENOSPC;
	close(fd);
	if (err) {
		why_set(why, wlen, file, err);
		return -err;
	}
	buf[got] = '\0';
	return (ssize_t)got;
}
