// SPDX-License-Identifier: GPL-2.0-only
/*
 * handle.c - file handles of the mount that outlive the daemon: NFS
 * re-export, name_to_handle_at(2) and open_by_handle_at(2).
 *
 * The kernel's FUSE handle is a node id (64 bits) and the inode's
 * generation (32 bits) (fs/fuse/inode.c, fuse_encode_fh()).  To decode
 * one whose inode it no longer holds (after a FORGET, a drop of the
 * caches, a remount) it sends LOOKUP of "." in that node id
 * (fuse_get_dentry(), with FUSE_EXPORT_SUPPORT) and compares the
 * generation of the answer with the handle's; to reconnect a directory
 * it sends LOOKUP of ".." (fuse_get_parent()).  A path walk sends
 * neither.  So a node id must name its backing object by itself: it is
 * the backing filesystem's own handle of the object (name_to_handle_at)
 * where that fits in 64 bits (ext2/3/4, XFS with 32-bit inode numbers:
 * inode and generation; tmpfs with 32-bit inode numbers: 12 bytes, the
 * last 4 zero), and the generation is a hash of it, never 0.  Any other
 * object (another filesystem below the tree, a handle that does not
 * fit, an id already taken) gets a volatile id and generation 0
 * (inode.c): its handles work while the kernel holds the inode.
 *
 * An id the daemon does not know is resolved by sf_handle_open(), which
 * must never reach another object or one outside the tree:
 *  - open_by_handle_at() on the backing tree's filesystem, then the
 *    object's own handle must give the id again (ext4 takes generation 0
 *    as "any": a forged id would otherwise reach a recycled inode);
 *  - an object with no name (st_nlink 0) or a new one still under its
 *    hidden name (SF_TMP_PREFIX, not labelled yet): ESTALE;
 *  - the object must be found again beneath the tree's root by the path
 *    the kernel gives its descriptor (openat2 RESOLVE_BENEATH, same
 *    device and inode).  When the tree is a whole filesystem (the root
 *    of a mount of that filesystem's root) every object of it is in the
 *    tree, and an object without such a path (a disconnected dentry)
 *    is taken as it is; otherwise it is ESTALE, the safe answer.
 * Nothing is decided here.  The request that follows (OPEN, GETATTR,
 * ...) is checked on the node's label exactly as for a path: mainline
 * decodes a handle without a Smack hook too (exportfs_decode_fh()), and
 * checks the open in smack_inode_permission() and smack_file_open().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <syslog.h>
#include <unistd.h>

#include "smackfuse.h"

#ifndef STATX_ATTR_MOUNT_ROOT
#define STATX_ATTR_MOUNT_ROOT 0x00002000
#endif

/* Bytes of a backing handle kept in a node id; 4 more may follow if 0. */
#define SF_FH_ID	8
#define SF_FH_MAX	12

union sf_fh {
	struct file_handle fh;
	char buf[sizeof(struct file_handle) + MAX_HANDLE_SZ];
};

static int sf_fh_of(int fd, union sf_fh *h, int *mnt_id)
{
	h->fh.handle_bytes = MAX_HANDLE_SZ;
	return name_to_handle_at(fd, "", &h->fh, mnt_id, AT_EMPTY_PATH);
}

/* Does @h fit in a node id? */
static bool sf_fh_fits(const union sf_fh *h)
{
	unsigned int i;

	if (!h->fh.handle_bytes || h->fh.handle_bytes > SF_FH_MAX)
		return false;
	for (i = SF_FH_ID; i < h->fh.handle_bytes; i++)
		if (h->fh.f_handle[i])
			return false;
	return true;
}

/* Is @fd the root of a mount whose root is its filesystem's? */
static bool sf_fh_whole(int fd, int mnt_id)
{
	struct statx stx;
	char *line = NULL, root[8];
	size_t cap = 0;
	bool whole = false;
	FILE *f;
	int id;

	if (statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx) ||
	    !(stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) ||
	    !(stx.stx_attributes & STATX_ATTR_MOUNT_ROOT))
		return false;
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return false;
	/* "ID PARENT MAJ:MIN ROOT ...": ROOT "/" is the filesystem's. */
	while (getline(&line, &cap, f) > 0) {
		if (sscanf(line, "%d %*d %*s %7s", &id, root) == 2 &&
		    id == mnt_id) {
			whole = !strcmp(root, "/");
			break;
		}
	}
	free(line);
	fclose(f);
	return whole;
}

/*
 * sf_handle_setup - may node ids be backing handles?  Only if the tree's
 * root has a handle that fits and the daemon can open it again
 * (open_by_handle_at needs CAP_DAC_READ_SEARCH).  Otherwise every id is
 * volatile, and says so in the log.
 */
void sf_handle_setup(struct sf_fs *fs)
{
	union sf_fh h;
	int mnt_id, fd;

	fs->fh.len = 0;
	fs->fh.mfd = open(fs->source, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fs->fh.mfd < 0 || sf_fh_of(fs->fh.mfd, &h, &mnt_id) ||
	    !sf_fh_fits(&h))
		goto volatile_ids;
	fd = open_by_handle_at(fs->fh.mfd, &h.fh, O_PATH | O_CLOEXEC);
	if (fd < 0)
		goto volatile_ids;
	close(fd);
	fs->fh.type = h.fh.handle_type;
	fs->fh.len = h.fh.handle_bytes;
	fs->fh.whole = sf_fh_whole(fs->fh.mfd, mnt_id);
	return;
volatile_ids:
	syslog(LOG_NOTICE, "%s: file handles of the mount do not outlive "
	       "the daemon: the backing tree's handles %s", fs->source,
	       fs->fh.mfd < 0 ? "cannot be read" : "do not fit a node id");
}

/* The node id of the backing object @fd (@st), or 0 if it has none. */
fuse_ino_t sf_handle_id(struct sf_fs *fs, int fd, const struct stat *st)
{
	union sf_fh h;
	uint64_t id = 0;
	int mnt_id;

	if (!fs->fh.len || st->st_dev != fs->root.dev ||
	    sf_fh_of(fd, &h, &mnt_id) || h.fh.handle_type != fs->fh.type ||
	    h.fh.handle_bytes != fs->fh.len || !sf_fh_fits(&h))
		return 0;
	memcpy(&id, h.fh.f_handle,
	       h.fh.handle_bytes < SF_FH_ID ? h.fh.handle_bytes : SF_FH_ID);
	return id > FUSE_ROOT_ID ? (fuse_ino_t)id : 0;
}

/* The generation of a node whose id is a backing handle: never 0. */
uint32_t sf_handle_gen(fuse_ino_t id)
{
	return (uint32_t)(((uint64_t)id * SF_GOLDEN_RATIO_64) >> 32) | 1;
}

/*
 * The object @fd (@st), found again beneath the tree's root by the path
 * the kernel shows for it: that descriptor (on the root's own mount, so
 * that its mount flags apply), or -1.
 */
static int sf_fh_beneath(struct sf_fs *fs, int fd, const struct stat *st)
{
	struct open_how how = {
		.flags = O_PATH | O_NOFOLLOW | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
	};
	char proc[64], path[PATH_MAX];
	size_t sl = strlen(fs->source);
	const char *rel, *base;
	struct stat st2;
	ssize_t len;
	int fd2;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	len = readlink(proc, path, sizeof(path) - 1);
	if (len <= 0 || len >= (ssize_t)sizeof(path) - 1)
		return -1;
	path[len] = '\0';
	base = strrchr(path, '/');
	if (base && !strncmp(base + 1, SF_TMP_PREFIX, SF_TMP_PREFIX_LEN))
		return -1;
	if (strncmp(path, fs->source, sl))
		return -1;
	rel = path + sl;
	if (sl > 1 && *rel == '/')
		rel++;
	else if (sl > 1 && *rel)
		return -1;	/* "/src2" is not below "/src" */
	if (sl == 1)
		rel = path + 1;
	if (!*rel)
		rel = ".";
	fd2 = (int)syscall(SYS_openat2, fs->root.fd, rel, &how, sizeof(how));
	if (fd2 < 0)
		return -1;
	if (fstat(fd2, &st2) || st2.st_dev != st->st_dev ||
	    st2.st_ino != st->st_ino) {
		close(fd2);
		return -1;
	}
	return fd2;
}

/* A name of @fd (for the whole-filesystem case) that is a hidden new
 * object's? */
static bool sf_fh_hidden(int fd)
{
	char proc[64], path[PATH_MAX];
	const char *base;
	ssize_t len;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	len = readlink(proc, path, sizeof(path) - 1);
	if (len <= 0)
		return true;
	path[len] = '\0';
	base = strrchr(path, '/');
	return base && !strncmp(base + 1, SF_TMP_PREFIX, SF_TMP_PREFIX_LEN);
}

/**
 * sf_handle_open - the backing object node id @id names, for a LOOKUP of
 * "." the daemon has no node for.  Returns an O_PATH descriptor, or
 * -ESTALE when @id names nothing in the tree (see the top of the file),
 * or another negative errno (no descriptor left).
 */
int sf_handle_open(struct sf_fs *fs, fuse_ino_t id)
{
	uint64_t want = id;
	union sf_fh h;
	struct stat st;
	int fd, fd2, err;

	if (!fs->fh.len || id <= FUSE_ROOT_ID ||
	    (fs->fh.len < SF_FH_ID && want >> (8 * fs->fh.len)))
		return -ESTALE;
	memset(&h, 0, sizeof(h));
	h.fh.handle_type = fs->fh.type;
	h.fh.handle_bytes = fs->fh.len;
	memcpy(h.fh.f_handle, &want,
	       fs->fh.len < SF_FH_ID ? fs->fh.len : SF_FH_ID);
	fd = open_by_handle_at(fs->fh.mfd, &h.fh, O_PATH | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		return err == EMFILE || err == ENFILE || err == ENOMEM ?
		       -err : -ESTALE;
	}
	if (fstat(fd, &st) || !st.st_nlink || st.st_dev != fs->root.dev ||
	    sf_handle_id(fs, fd, &st) != id)
		goto stale;
	fd2 = sf_fh_beneath(fs, fd, &st);
	if (fd2 >= 0) {
		close(fd);
		return fd2;
	}
	if (fs->fh.whole && !sf_fh_hidden(fd))
		return fd;
stale:
	close(fd);
	return -ESTALE;
}

/* The status line (a status part). */
int sf_handle_status(struct sf_fs *fs, char *buf, size_t size)
{
	if (!fs->fh.len)
		return snprintf(buf, size, "file handles: volatile\n");
	return snprintf(buf, size, "file handles: backing (type %d, %u "
			"bytes, %s)\n", fs->fh.type, fs->fh.len,
			fs->fh.whole ? "whole filesystem" : "subtree");
}
