// SPDX-License-Identifier: GPL-2.0-only
/*
 * create.c - new objects that are never visible without their label.
 *
 * Regular files are made with O_TMPFILE, labelled and chowned (unless
 * born with the caller's owner) while they have no name, then linked in
 * with linkat().  Directories, symlinks and special files are made under
 * a hidden temporary name (lookup and readdir never show SF_TMP_PREFIX
 * names), labelled, then moved to their name with
 * renameat2(RENAME_NOREPLACE).  A crash leaves at most a hidden
 * temporary name behind, never a visible unlabelled object.
 *
 * The mode comes unmasked (FUSE_DONT_MASK, caps.c) with the caller's
 * umask, which becomes the creating thread's own (sf_create_umask()): the
 * backing filesystem then applies it, or a default ACL of the directory
 * instead, as it does for a local caller.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "smackfuse.h"
#include "create.h"
#include "file.h"

/* This thread's umask, once it has one of its own (unshare(CLONE_FS));
 * -1 before. */
static __thread int sf_thread_umask = -1;

/**
 * sf_create_umask - the umask the backing filesystem applies to what this
 * thread creates next: @mask, the caller's.  Returns 0 or -errno.  Only
 * create.c creates in the daemon's workers, so the umask is left set.
 */
int sf_create_umask(mode_t mask)
{
	mask &= 0777;
	if (sf_thread_umask < 0) {
		if (unshare(CLONE_FS))
			return -errno;
		sf_thread_umask = (int)umask(mask);
	}
	if ((mode_t)sf_thread_umask != mask)
		umask(mask);
	sf_thread_umask = (int)mask;
	return 0;
}

static void sf_tmp_name(char *buf, size_t size)
{
	static atomic_ulong seq;
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(buf, size, SF_TMP_PREFIX "%d.%lu.%lx", getpid(),
		 atomic_fetch_add(&seq, 1), (unsigned long)ts.tv_nsec);
}

/*
 * Whether a new object in @dir is born owned as @s's would be, so that no
 * chown is needed: the caller's ids are the daemon's own fsuid and fsgid,
 * and the backing filesystem gives a new inode exactly those (or the
 * set-group-ID directory's group), as inode_init_owner() does on ext4,
 * xfs and tmpfs.  A network filesystem may map them (root_squash), so
 * anywhere else the owner is set explicitly.
 *
 * Creating with any caller's ids (setfsuid/setfsgid around the create)
 * was measured and not adopted: the four calls cost 5.8 us here, against
 * 2.2 for the fchownat and 1.1 for the directory's fstat they would save
 * (bench/fs-results.txt, section 6).
 */
static bool sf_born_owned(const struct sf_fs *fs, const struct sf_subject *s,
			  const struct sf_node *dir)
{
	return fs->close_quiet && dir->dev == fs->root.dev &&
	       s->uid == fs->uid && s->gid == fs->gid;
}

/* Owner of the new object @fd in @dir: the caller, with the directory's
 * group when the directory is set-group-ID (as inode_init_owner() does).
 * *@chowned says whether chown ran, clearing set-ID bits. */
static int sf_set_owner(struct sf_fs *fs, int fd, const struct sf_subject *s,
			const struct sf_node *dir, bool *chowned)
{
	struct stat dirst;
	gid_t gid;

	*chowned = false;
	if (sf_born_owned(fs, s, dir))
		return 0;
	if (fstatat(dir->fd, "", &dirst, AT_EMPTY_PATH))
		return -errno;
	gid = (dirst.st_mode & S_ISGID) ? (gid_t)-1 : s->gid;
	if (fchownat(fd, "", s->uid, gid, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW))
		return -errno;
	*chowned = true;
	return 0;
}

/*
 * Give the unnamed file @fd the name @name in @dir.  linkat() with
 * AT_EMPTY_PATH spares /proc's walk (3.9 us against 5.8 on ext4) but
 * needs CAP_DAC_READ_SEARCH, without which it says ENOENT: then through
 * /proc/self/fd.  Either way the name appears at once, labelled.
 */
static int sf_link_tmpfile(int fd, const struct sf_node *dir,
			   const char *name)
{
	char proc[64];

	if (!linkat(fd, "", dir->fd, name, AT_EMPTY_PATH))
		return 0;
	if (errno != ENOENT)
		return -errno;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (linkat(AT_FDCWD, proc, dir->fd, name, AT_SYMLINK_FOLLOW))
		return -errno;
	return 0;
}

/*
 * An O_PATH descriptor of what @fd is open on, for the node: an O_RDWR
 * one would make exec(2) of the file fail (ETXTBSY) for as long as the
 * kernel keeps the node.  open_tree(2) would spare /proc's walk (2.5 us
 * against 3.9 with the close) but valgrind 3.19 does not know it, and
 * the daemon runs under valgrind in check-daemon-valgrind.
 */
static int sf_path_fd(int fd)
{
	char proc[64];
	int pfd;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	pfd = open(proc, O_PATH | O_CLOEXEC);
	return pfd < 0 ? -errno : pfd;
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
	bool chowned = false;
	struct stat st;
	int fd, rc;

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
	/* chown clears set-ID bits a non-directory was made with: then
	 * they are set again, with the rest of the mode it was made with
	 * (the umask's or a default ACL's, not the one asked for). */
	if (!rc && !S_ISDIR(mode) && !S_ISLNK(mode) && (mode & 06000) &&
	    fstatat(fd, "", &st, AT_EMPTY_PATH))
		rc = -errno;
	if (!rc)
		rc = sf_set_owner(fs, fd, s, dir, &chowned);
	if (!rc && chowned && !S_ISDIR(mode) && !S_ISLNK(mode) &&
	    (mode & 06000) && fchmodat(AT_FDCWD, proc, st.st_mode & 07777, 0))
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

/* sf_make_file() where the backing filesystem has no O_TMPFILE: a hidden
 * name, labelled and owned, then renamed; then opened as the caller
 * asked.  (A failure of that open leaves the labelled file: taking the
 * name back could remove another file put there meanwhile.) */
static int sf_make_file_named(struct sf_fs *fs, struct sf_subject *s,
			      struct sf_node *dir, const char *name,
			      mode_t mode, int flags, sf_lid label,
			      int *out_path, int *out_fd)
{
	char proc[64];
	int pfd, ofd, rc;

	rc = sf_make_node(fs, s, dir, name, S_IFREG | (mode & 07777), 0, NULL,
			  label, false, &pfd);
	if (rc)
		return rc;
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

/*
 * The descriptor that serves the caller's open of the new file @fd: @fd
 * itself (O_RDWR) unless the caller asked for flags that F_SETFL cannot
 * give it, else a reopen with them through /proc/self/fd (a file without
 * a name reopens there too).  Returns it, or -errno (@fd stays open).
 */
static int sf_caller_fd(int fd, int flags)
{
	int setfl = flags & (O_APPEND | O_DIRECT | O_NOATIME | O_NONBLOCK);
	char proc[64];
	int ofd;

	if (!(flags & (O_SYNC | O_DSYNC | O_PATH)) &&
	    (!setfl || !fcntl(fd, F_SETFL, setfl)))
		return fd;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	ofd = open(proc, sf_file_open_flags(flags) & ~O_TRUNC);
	if (ofd < 0)
		return -errno;
	close(fd);
	return ofd;
}

/**
 * sf_make_unnamed - a regular file in @dir that has no name (O_TMPFILE),
 * labelled @label, owned by @s, opened with @flags: what open(O_TMPFILE)
 * gives a caller, and the first half of sf_make_file().  On success
 * *@out_path is an O_PATH descriptor of the file and *@out_fd an open
 * one.  Returns -EOPNOTSUPP where the backing filesystem has no
 * O_TMPFILE.
 */
int sf_make_unnamed(struct sf_fs *fs, struct sf_subject *s,
		    struct sf_node *dir, mode_t mode, int flags, sf_lid label,
		    int *out_path, int *out_fd)
{
	bool chowned;
	struct stat st;
	int fd, pfd = -1, ofd, rc;

	fd = openat(dir->fd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, mode & 07777);
	if (fd < 0)
		return errno == EISDIR || errno == EINVAL ? -EOPNOTSUPP : -errno;
	rc = sf_label_new_fd(fs, fd, NULL, label, false);
	if (!rc && (mode & 06000) && fstat(fd, &st))	/* as in sf_make_node */
		rc = -errno;
	if (!rc)
		rc = sf_set_owner(fs, fd, s, dir, &chowned);
	if (!rc && chowned && (mode & 06000) && fchmod(fd, st.st_mode & 07777))
		rc = -errno;
	if (!rc) {
		pfd = sf_path_fd(fd);
		rc = pfd < 0 ? pfd : 0;
	}
	if (!rc) {
		ofd = sf_caller_fd(fd, flags);
		if (ofd < 0)
			rc = ofd;
		else
			fd = ofd;
	}
	if (rc) {
		if (pfd >= 0)
			close(pfd);
		close(fd);
		return rc;
	}
	*out_path = pfd;
	*out_fd = fd;
	return 0;
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
	int rc;

	rc = sf_make_unnamed(fs, s, dir, mode, flags, label, out_path, out_fd);
	if (rc == -EOPNOTSUPP)
		return sf_make_file_named(fs, s, dir, name, mode, flags,
					  label, out_path, out_fd);
	if (rc)
		return rc;
	/* Labelled and open before the name: a failure up to the link
	 * leaves nothing behind, as the file has no name yet. */
	rc = sf_link_tmpfile(*out_path, dir, name);
	if (rc) {
		close(*out_path);
		close(*out_fd);
	}
	return rc;
}
