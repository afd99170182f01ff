// SPDX-License-Identifier: GPL-2.0-only
/*
 * file.c - the daemon's side of an open file.
 *
 * Each open of a non-directory gets a struct sf_file behind fi->fh,
 * holding the daemon's own descriptor of the backing file.  Opens that
 * the kernel passes through read-only get none at first: the kernel
 * opens the backing file itself (passthrough.c) and reads it without
 * the daemon, so a descriptor of the daemon's would serve only the rare
 * fsync, flock or lseek, yet cost an open() and a close() on every
 * open(2) (8 us of a warm open, read and close of 4 KiB: 0.89x).
 * Those opens get theirs on first use, from the node's O_PATH
 * descriptor: the same inode, never a name looked up again.  Opens
 * that may write always open at once, so that the backing filesystem's
 * refusals (immutable, ETXTBSY, read-only) come back from open(2).
 *
 * It also decides the open itself (sf_file_check_open), as the three
 * mainline hooks an open goes through: smack_inode_permission with the
 * open's mode, smack_file_open's read, and for an exec open the
 * SMACK64MMAP rule of smack_mmap_file, which binfmt_elf meets when it
 * maps the program.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "file.h"

static struct sf_file *sf_file_of(const struct fuse_file_info *fi)
{
	return (struct sf_file *)(uintptr_t)fi->fh;
}

/* The flags the daemon opens the backing file with for an open(2) with
 * @flags: creating, and following the name, were done already. */
int sf_file_open_flags(int flags)
{
	return (flags | O_CLOEXEC) & ~(O_CREAT | O_EXCL | O_NOFOLLOW |
				       O_NOCTTY | SF_FMODE_EXEC);
}

/**
 * sf_file_new - hang the daemon's descriptor @fd (or -1, to be opened
 * on first use with @flags) on @fi.  Returns 0 or -ENOMEM; on error @fd
 * is still the caller's.
 */
int sf_file_new(struct fuse_file_info *fi, int fd, int flags)
{
	struct sf_file *f = malloc(sizeof(*f));

	if (!f)
		return -ENOMEM;
	atomic_init(&f->fd, fd);
	f->flags = sf_file_open_flags(flags) & ~O_TRUNC;
	fi->fh = (uintptr_t)f;
	return 0;
}

/**
 * sf_file_fd - the daemon's descriptor of the open file @fi of @n,
 * opened now if it has none yet.  Returns it, or a negative errno.
 * Requests on one open file may run at once: the first to open wins.
 */
int sf_file_fd(const struct sf_node *n, const struct fuse_file_info *fi)
{
	struct sf_file *f = sf_file_of(fi);
	int fd = atomic_load(&f->fd), none = -1;
	char proc[64];

	if (fd >= 0)
		return fd;
	sf_proc_path(n, proc, sizeof(proc));
	fd = open(proc, f->flags);
	if (fd < 0)
		return -errno;
	if (atomic_compare_exchange_strong(&f->fd, &none, fd))
		return fd;
	close(fd);
	return none;
}

/* The daemon's descriptor of @fi, or -1 if it has none yet. */
int sf_file_fd_if_open(const struct fuse_file_info *fi)
{
	return atomic_load(&sf_file_of(fi)->fd);
}

/*
 * The label in @n's attribute @name (SMACK64MMAP or SMACK64EXEC), as
 * smack_d_instantiate() reads it (sf_node_label_attr()), and not "*" or
 * "@".  Returns 0, -ENODATA when there is none (mainline ignores a value
 * that is no such label: smk_fetch() leaves the field NULL), or another
 * negative errno when it cannot be read.
 */
static int sf_file_task_label(struct sf_fs *fs, struct sf_node *n,
			      const char *name, sf_lid *lid)
{
	int rc = sf_node_label_attr(fs, n, name, lid);

	if (!rc && (*lid == SF_LID_STAR || *lid == SF_LID_WEB))
		return -ENODATA;
	return rc;
}

/*
 * The label the program @n is mapped under when @s executes it.  Task
 * labels from the kernel (the module, host Smack) change at the exec to
 * the program's SMACK64EXEC before binfmt_elf maps it (mainline:
 * smack_bprm_creds_for_exec, then commit_creds in begin_new_exec); the
 * users map has no such change.  Returns 0 or a negative errno.
 */
static int sf_file_exec_subject(struct sf_fs *fs, struct sf_subject *s,
				struct sf_node *n, sf_lid *lid)
{
	int rc;

	*lid = s->lid;
	if (fs->opt.subject != SF_SUBJ_KMOD && fs->opt.subject != SF_SUBJ_SMACK)
		return 0;
	rc = sf_file_task_label(fs, n, fs->opt.x_exec, lid);
	if (rc == -ENODATA) {
		*lid = s->lid;
		return 0;
	}
	return rc;
}

/* Does @n start with "#!"?  binfmt_script reads such a program and maps
 * only its interpreter, so smack_mmap_file never sees it. */
static bool sf_file_is_script(struct sf_node *n)
{
	char proc[64], head[2];
	ssize_t len;
	int fd;

	sf_proc_path(n, proc, sizeof(proc));
	fd = open(proc, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return false;
	len = pread(fd, head, sizeof(head), 0);
	close(fd);
	return len == 2 && head[0] == '#' && head[1] == '!';
}

/*
 * The mmap check of an exec open of @n by @s.  Mainline denies it when
 * binfmt_elf maps the program, past the point of no return (the task
 * dies of SIGSEGV); the daemon can only refuse the open, so execve(2)
 * fails with EACCES instead and nothing of the program runs.  A label
 * that cannot be read denies.  A script is not mapped (binfmt_script).
 * The rule is the core's (sf_mmap_rule(), shared with smackfuse.ko); as
 * mainline's smack_mmap_file() the daemon writes no audit line for it
 * (the module writes one of its own), so the access it names is unused.
 */
static int sf_file_check_mmap(struct sf_fs *fs, struct sf_subject *s,
			      struct sf_node *n)
{
	sf_lid m, subject;
	u32 may;
	int rc;

	rc = sf_file_task_label(fs, n, fs->opt.x_mmap, &m);
	if (rc == -ENODATA)
		return 0;
	if (!rc)
		rc = sf_file_exec_subject(fs, s, n, &subject);
	if (!rc) {
		sf_rcu_read_lock();
		rc = sf_mmap_rule(sf_policy_snapshot(fs->policy), subject, m,
				  &may);
		sf_rcu_read_unlock();
	}
	if (rc && n->type == S_IFREG && sf_file_is_script(n))
		rc = 0;
	if (rc) {
		atomic_fetch_add_explicit(&fs->stats.denials, 1,
					  memory_order_relaxed);
		return -EACCES;
	}
	return 0;
}

/**
 * sf_file_check_open - may @s open @n with @flags?
 * Each mainline hook an open passes is decided on its own, so that an
 * implicit access (read by the hat, read of a floor object) answers the
 * part it covers: inode_permission() with the open's mode, then
 * smack_file_open()'s read, then for an exec open smack_mmap_file().
 * Returns 0 or -EACCES; sf_check_node() writes the audit lines.
 */
int sf_file_check_open(struct sf_fs *fs, struct sf_subject *s,
		       struct sf_node *n, int flags)
{
	int rc;

	if (fs->opt.checks_off)
		return 0;
	rc = sf_check_node(fs, s, n, sf_open_perm_request(flags), SF_FN_PERM,
			   NULL);
	if (!rc)
		rc = sf_check_node(fs, s, n, SF_MAY_READ, "smack_file_open",
				   NULL);
	if (!rc && (flags & SF_FMODE_EXEC))
		rc = sf_file_check_mmap(fs, s, n);
	return rc;
}

/* RELEASE: no request on @fi can follow. */
void sf_file_release(struct fuse_file_info *fi)
{
	struct sf_file *f = sf_file_of(fi);
	int fd = atomic_load(&f->fd);

	if (fd >= 0)
		close(fd);
	free(f);
	fi->fh = 0;
}
