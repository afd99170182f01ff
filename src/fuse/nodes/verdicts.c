// SPDX-License-Identifier: GPL-2.0-only
/*
 * verdicts.c - what our rules answer for a subject on a node, handed to
 * smackfuse.ko, so that the kernel may hold every node's attributes and
 * the module decide the checks on them (its verdicts.c and hooks_fuse.c).
 * Beside the node table: a node let go of takes its verdicts with it.
 *
 * Without this the kernel may hold only attributes every subject has
 * every access to: any other would let a cached mode answer a check the
 * daemon never saw.  With it (subject=kmod, a module that offers the
 * verdicts feature; kmod_abi.h has the lines' grammar), before each reply
 * that lets the kernel hold a node's attributes we write the caller's
 * verdict on the node: for every request R of r, w, x and a, whether
 * sf_access() gives it.  The module
 * allows a check its verdict allows and sends every other one here, as a
 * refresh from the caller (getattr.c decides it with privilege and the
 * audit line), so a verdict only ever saves a request.
 *
 * A verdict goes stale when the policy, the node's label or the logging
 * changes; sf_verdicts_flush(), called after the change took effect here,
 * drops them all and starts a new generation, and a verdict computed
 * under the old one (a request in flight) is refused by the module.  A
 * node we let go of has its verdicts dropped (its id may come back).
 * Grants are not handed over while grants are audited (logging 2 or 3):
 * the module makes no audit line of ours.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmod_abi.h"
#include "smackfuse.h"

/* Node types whose attributes the kernel may hold under verdicts: opening
 * a FIFO, a socket or a device sends no request, and smack_file_open's
 * read would go unchecked. */
bool sf_verdict_type(mode_t type)
{
	return type == S_IFDIR || type == S_IFREG || type == S_IFLNK;
}

/* false until sf_verdicts_setup() bound the mount (a zeroed sf_fs too) */
bool sf_verdicts_on(const struct sf_fs *fs)
{
	return fs->verdicts_bound;
}

static int sf_verdict_write(struct sf_fs *fs, const char *line, size_t len)
{
	ssize_t n = write(fs->verdict_fd, line, len);

	if (n == (ssize_t)len)
		return 0;
	atomic_fetch_add_explicit(&fs->stats.verdicts_failed, 1,
				  memory_order_relaxed);
	return n < 0 ? -errno : -EIO;
}

/**
 * sf_verdicts_setup - bind our mount to smackfuse.ko's verdicts file when
 * the module offers it (fs->kmod_verdicts, subject.c).  After the mount,
 * before the first request.  Without it the module sends the checks here
 * as before (fewer attributes cached); the reason is printed.
 */
void sf_verdicts_setup(struct sf_fs *fs)
{
	char line[64];
	int fd, rc = 0;

	/* fs->verdict_fd is -1 from sf_subject_setup(). */
	if (!fs->kmod_verdicts || fs->opt.checks_off || fs->opt.cache_strict)
		return;
	fd = open(SF_KMOD_PATH(SF_KMOD_VERDICTS), O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		rc = -errno;
	if (!rc) {
		/* Our /dev/fuse: the module binds the mount it serves,
		 * if we speak its ABI version. */
		snprintf(line, sizeof(line), SF_VERDICT_MOUNT_FMT,
			 fuse_session_fd(fs->se), SF_ABI_VERSION);
		fs->verdict_fd = fd;
		rc = sf_verdict_write(fs, line, strlen(line));
	}
	if (rc) {
		fprintf(stderr, "smackfuse: smackfuse.ko verdicts: %s: the "
			"kernel holds floor directories' attributes only\n",
			strerror(-rc));
		if (fd >= 0)
			close(fd);
		fs->verdict_fd = -1;
		return;
	}
	fs->verdicts_bound = true;
}

/* Bit R of the result: sf_access() gives @subject request R on @object. */
static unsigned int sf_verdict_map(sf_lid subject, sf_lid object,
				   const struct sf_snapshot *snap)
{
	unsigned int map = 0;
	u32 r;

	for (r = 1; r <= (SF_MAY_READ | SF_MAY_WRITE | SF_MAY_EXEC |
			  SF_MAY_APPEND); r++)
		if (!sf_access(snap, subject, object, r, NULL))
			map |= 1u << r;
	return map;
}

/*
 * The line that hands @s's verdict on @n over, into @line (@size bytes);
 * 0 when there is none to hand over.  Unless @again, none when this
 * node's last verdict was @s's of this generation; a GETATTR asks again
 * (the module may have dropped it: it keeps a bounded number).
 */
static int sf_verdict_line(struct sf_fs *fs, const struct sf_subject *s,
			   struct sf_node *n, bool again, char *line,
			   size_t size)
{
	/* The generation first: what is read after it is at least as new. */
	uint64_t gen = atomic_load(&fs->verdict_gen);
	const char *name;
	sf_lid object;
	unsigned int map;
	int len;

	if (!s || s->lid == SF_LID_INVALID || !sf_verdict_type(n->type) ||
	    (atomic_load(&fs->logging) & SF_LOG_ACCEPTED))
		return 0;
	if (!again && atomic_load(&n->verdict_lid) == s->lid &&
	    atomic_load(&n->verdict_gen) == gen)
		return 0;		/* handed over already */
	object = sf_node_label(fs, n);
	name = sf_label_name(fs->labels, s->lid);
	if (object == SF_LID_INVALID || !name)
		return 0;
	sf_rcu_read_lock();
	map = sf_verdict_map(s->lid, object, sf_policy_snapshot(fs->policy));
	sf_rcu_read_unlock();
	len = snprintf(line, size, SF_VERDICT_SET_FMT, (unsigned long long)gen,
		       (unsigned long long)sf_node_ino(fs, n), name, map);
	if (len <= 0 || (size_t)len >= size)
		return 0;
	/* Recorded before the write: a failed write leaves the module
	 * without it, which only sends its checks here. */
	atomic_store(&n->verdict_gen, gen);
	atomic_store(&n->verdict_lid, s->lid);
	return len;
}

/**
 * sf_verdicts_post - hand @s's verdicts on @dir (may be NULL) and @n to
 * the module, in one write, before a reply that lets the kernel hold
 * their attributes.  @s may be NULL (no caller known: nothing is handed
 * over).  @again: see sf_verdict_line().
 */
void sf_verdicts_post(struct sf_fs *fs, const struct sf_subject *s,
		      struct sf_node *dir, struct sf_node *n, bool again)
{
	char buf[2 * (SF_LABEL_MAX + 64)];
	size_t len = 0;

	if (!sf_verdicts_on(fs))
		return;
	if (dir && dir != n)
		len = (size_t)sf_verdict_line(fs, s, dir, again, buf,
					      sizeof(buf));
	len += (size_t)sf_verdict_line(fs, s, n, again, buf + len,
				       sizeof(buf) - len);
	if (len)
		sf_verdict_write(fs, buf, len);
}

/* @n is let go of: its id may name another incarnation of it later. */
void sf_verdict_forget(struct sf_fs *fs, const struct sf_node *n)
{
	char line[64];
	int len;

	if (!sf_verdicts_on(fs))
		return;
	len = snprintf(line, sizeof(line), SF_VERDICT_FORGET_FMT,
		       (unsigned long long)sf_node_ino(fs, n));
	sf_verdict_write(fs, line, (size_t)len);
}

/**
 * sf_verdicts_flush - every verdict handed over may be stale: the
 * policy, a label or the logging changed (call after the change took
 * effect here, before it is answered as done).  If the module cannot be
 * told, the stale verdicts would allow what we now refuse: the daemon
 * stops, and its mount with it (every access then fails).
 */
void sf_verdicts_flush(struct sf_fs *fs)
{
	uint64_t gen;
	char line[64];
	int len, try;

	if (!sf_verdicts_on(fs))
		return;
	gen = atomic_fetch_add(&fs->verdict_gen, 1) + 1;
	len = snprintf(line, sizeof(line), SF_VERDICT_GEN_FMT,
		       (unsigned long long)gen);
	for (try = 0; try < 100; try++) {
		if (!sf_verdict_write(fs, line, (size_t)len))
			return;
		usleep(10000);
	}
	fprintf(stderr, "smackfuse: smackfuse.ko could not be told to drop "
		"its verdicts after a policy or label change: stopping\n");
	abort();
}
