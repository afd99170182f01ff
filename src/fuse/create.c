// SPDX-License-Identifier: GPL-2.0-only
/*
 * create.c - new objects that are never visible without their label.
 *
 * Regular files are made with O_TMPFILE, labelled and chowned while they
 * have no name, then linked in with linkat().  Directories, symlinks and
 * special files are made under a hidden temporary name (lookup and
 * readdir never show SF_TMP_PREFIX names), labelled, then moved to their
 * name with renameat2(RENAME_NOREPLACE).  A crash leaves at most a hidden
 * temporary name behind, never a visible unlabelled object.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "smackfuse.h"
#include "create.h"
#include "file.h"

static void sf_tmp_name(char *buf, size_t size)
{
	static atomic_ulong seq;
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(buf, size, SF_TMP_PREFIX "%d.%lu.%lx", getpid(),
		 atomic_fetch_add(&seq, 1), (unsigned long)ts.tv_nsec);
}

/* Owner of a new object: the caller, with the directory's group when the
 * directory is set-group-ID (as inode_init_owner() does). */
static int sf_set_owner(int fd, const struct sf_subject *s,
			const struct stat *dirst)
{
	gid_t gid = (dirst->st_mode & S_ISGID) ? (gid_t)-1 : s->gid;

	if (fchownat(fd, "", s->uid, gid, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW))
		return -errno;
	return 0;
}

/**
 * sf_make_node - create a directory, symlink or special file @name in
 * @dir, labelled @label (and transmuting if @transmute), owned by @s.
 * On success *@out is an O_PATH descriptor of the new object.
 */
int sf_make_node(struct sf_fs *fs, struct sf_subject *s, struct sf_node *dir,
		 const char *name, mode_t mode, dev_t rdev, const char *link,
		 sf_lid label, bool transmute, int *out)
{
	char tmp[128], proc[64];
	struct stat dirst;
	int fd, rc;

	if (fstatat(dir->fd, "", &dirst, AT_EMPTY_PATH))
		return -errno;
	sf_tmp_name(tmp, sizeof(tmp));
	if (S_ISDIR(mode))
		rc = mkdirat(dir->fd, tmp, mode & 07777);
	else if (S_ISLNK(mode))
		rc = symlinkat(link, dir->fd, tmp);
	else
		rc = mknodat(dir->fd, tmp, mode, rdev);
	if (rc)
		return -errno;
	fd = openat(dir->fd, tmp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		goto out_unlink;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	rc = sf_label_new_fd(fs, -1, proc, label, transmute && S_ISDIR(mode));
	if (!rc)
		rc = sf_set_owner(fd, s, &dirst);
	/* chown cleared set-ID bits a non-directory was asked to have. */
	if (!rc && !S_ISDIR(mode) && !S_ISLNK(mode) && (mode & 06000) &&
	    fchmodat(AT_FDCWD, proc, mode & 07777, 0))
		rc = -errno;
	if (!rc && renameat2(dir->fd, tmp, dir->fd, name, RENAME_NOREPLACE))
		rc = -errno;
	if (rc) {
		close(fd);
		goto out_unlink;
	}
	*out = fd;
	return 0;
out_unlink:
	unlinkat(dir->fd, tmp, S_ISDIR(mode) ? AT_REMOVEDIR : 0);
	return rc;
}

/**
 * sf_make_file - create the regular file @name in @dir, labelled @label,
 * owned by @s, opened with @flags.  On success *@out_path is an O_PATH
 * descriptor of the file and *@out_fd an open one.  Returns -EEXIST if
 * the name exists (nothing is created then).
 */
int sf_make_file(struct sf_fs *fs, struct sf_subject *s, struct sf_node *dir,
		 const char *name, mode_t mode, int flags, sf_lid label,
		 int *out_path, int *out_fd)
{
	char proc[64];
	struct stat dirst;
	int fd, pfd, ofd, rc, setfl;

	if (fstatat(dir->fd, "", &dirst, AT_EMPTY_PATH))
		return -errno;
	fd = openat(dir->fd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, mode & 07777);
	if (fd < 0) {
		if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
			return -errno;
		/* No O_TMPFILE here: a hidden name, then rename. */
		rc = sf_make_node(fs, s, dir, name, S_IFREG | (mode & 07777),
				  0, NULL, label, false, &pfd);
		if (rc)
			return rc;
		goto reopen;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	rc = sf_label_new_fd(fs, fd, NULL, label, false);
	if (!rc)
		rc = sf_set_owner(fd, s, &dirst);
	if (!rc && (mode & 06000) && fchmod(fd, mode & 07777))
		rc = -errno;
	if (!rc && linkat(AT_FDCWD, proc, dir->fd, name, AT_SYMLINK_FOLLOW))
		rc = -errno;
	if (!rc) {
		pfd = open(proc, O_PATH | O_CLOEXEC);
		if (pfd < 0)
			rc = -errno;
	}
	if (rc) {
		close(fd);
		return rc;
	}
	/* The O_RDWR descriptor serves the caller, unless it asked for
	 * flags that F_SETFL cannot give it. */
	setfl = flags & (O_APPEND | O_DIRECT | O_NOATIME | O_NONBLOCK);
	if (!(flags & (O_SYNC | O_DSYNC | O_PATH)) &&
	    (!setfl || !fcntl(fd, F_SETFL, setfl))) {
		*out_path = pfd;
		*out_fd = fd;
		return 0;
	}
	close(fd);
reopen:
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", pfd);
	ofd = open(proc, sf_file_open_flags(flags) & ~O_TRUNC);
	if (ofd < 0) {
		rc = -errno;
		close(pfd);
		return rc;
	}
	*out_path = pfd;
	*out_fd = ofd;
	return 0;
}
