// SPDX-License-Identifier: GPL-2.0-only
/*
 * ops_dirs.c - open directories: opendir, readdir and readdirplus,
 * releasedir, fsyncdir.  Entries a creation has not yet labelled
 * (SF_TMP_PREFIX) are never listed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "ops.h"

struct sf_dir {
	DIR *dp;
	off_t offset;
	struct dirent *entry;
};

void sf_opendir(fuse_req_t req, fuse_ino_t ino,
		struct fuse_file_info *fi)
{
	struct sf_node *n = sf_node(req, ino);
	struct sf_dir *d;
	int rc, fd;

	if (sf_check_node_reply(req, n, SF_MAY_READ, "smack_file_open"))
		return;
	d = calloc(1, sizeof(*d));
	if (!d) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	fd = openat(n->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || !(d->dp = fdopendir(fd))) {
		rc = errno;
		if (fd >= 0)
			close(fd);
		free(d);
		fuse_reply_err(req, rc);
		return;
	}
	fi->fh = (uintptr_t)d;
	fi->cache_readdir = 0;
	if (fuse_reply_open(req, fi) == -ENOENT) {
		closedir(d->dp);
		free(d);
	}
}

static struct sf_dir *sf_dir(struct fuse_file_info *fi)
{
	return (struct sf_dir *)(uintptr_t)fi->fh;
}

/*
 * A hidden name another daemon left behind (killed between creating an
 * object and renaming it into place) is removed when readdir meets it.
 * Only old ones: another daemon over the same tree may be using it now.
 */
#define SF_HIDDEN_REAP_SECS	60
static void sf_reap_hidden(struct sf_node *dir, const char *name)
{
	struct stat st;
	long pid = strtol(name + SF_TMP_PREFIX_LEN, NULL, 10);

	if (pid == getpid() ||
	    fstatat(dir->fd, name, &st, AT_SYMLINK_NOFOLLOW) ||
	    time(NULL) - st.st_mtime < SF_HIDDEN_REAP_SECS)
		return;
	unlinkat(dir->fd, name, S_ISDIR(st.st_mode) ? AT_REMOVEDIR : 0);
}

static void sf_do_readdir(fuse_req_t req, fuse_ino_t ino, size_t size,
			  off_t offset, struct fuse_file_info *fi, bool plus)
{
	struct sf_fs *fs = sf_fs_of(req);
	struct sf_node *dir = sf_node(req, ino);
	struct sf_dir *d = sf_dir(fi);
	char *buf = calloc(1, size), *p;
	size_t rem = size;
	int err = 0;

	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	if (offset != d->offset) {
		seekdir(d->dp, offset);
		d->entry = NULL;
		d->offset = offset;
	}
	p = buf;
	for (;;) {
		struct fuse_entry_param e;
		struct sf_node *n = NULL;
		const char *name;
		size_t len;

		if (!d->entry) {
			errno = 0;
			d->entry = readdir(d->dp);
			if (!d->entry) {
				err = errno;
				break;
			}
		}
		name = d->entry->d_name;
		if (sf_hidden(name)) {
			sf_reap_hidden(dir, name);
			d->offset = d->entry->d_off;
			d->entry = NULL;
			continue;
		}
		if (plus && strcmp(name, ".") && strcmp(name, "..")) {
			err = -sf_node_lookup(fs, dir, name, &e, &n);
			if (err == ENOENT) {	/* gone meanwhile */
				err = 0;
				d->offset = d->entry->d_off;
				d->entry = NULL;
				continue;
			}
			if (err)
				break;
			sf_entry_timeouts(fs, NULL, dir, n, &e, name);
			len = fuse_add_direntry_plus(req, p, rem, name, &e,
						     d->entry->d_off);
		} else if (plus) {
			memset(&e, 0, sizeof(e));
			e.attr.st_ino = d->entry->d_ino;
			e.attr.st_mode = (mode_t)DTTOIF(d->entry->d_type);
			len = fuse_add_direntry_plus(req, p, rem, name, &e,
						     d->entry->d_off);
		} else {
			struct stat st = {
				.st_ino = d->entry->d_ino,
				.st_mode = (mode_t)DTTOIF(d->entry->d_type),
			};

			len = fuse_add_direntry(req, p, rem, name, &st,
						d->entry->d_off);
		}
		if (len > rem) {
			if (n)
				sf_node_forget(fs, n, 1);
			break;
		}
		p += len;
		rem -= len;
		d->offset = d->entry->d_off;
		d->entry = NULL;
	}
	if (err && rem == size)
		fuse_reply_err(req, err);
	else
		fuse_reply_buf(req, buf, size - rem);
	free(buf);
}

void sf_readdir(fuse_req_t req, fuse_ino_t ino, size_t size,
		off_t offset, struct fuse_file_info *fi)
{
	sf_do_readdir(req, ino, size, offset, fi, false);
}

void sf_releasedir(fuse_req_t req, fuse_ino_t ino,
		   struct fuse_file_info *fi)
{
	struct sf_dir *d = sf_dir(fi);

	(void)ino;
	closedir(d->dp);
	free(d);
	fuse_reply_err(req, 0);
}

void sf_fsyncdir(fuse_req_t req, fuse_ino_t ino, int datasync,
		 struct fuse_file_info *fi)
{
	int fd = dirfd(sf_dir(fi)->dp), rc;

	(void)ino;
	rc = datasync ? fdatasync(fd) : fsync(fd);
	fuse_reply_err(req, rc ? errno : 0);
}

void sf_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size,
		    off_t offset, struct fuse_file_info *fi)
{
	sf_do_readdir(req, ino, size, offset, fi, true);
}
