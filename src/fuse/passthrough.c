// SPDX-License-Identifier: GPL-2.0-only
/*
 * passthrough.c - reads and writes of an open file go from the kernel
 * straight to the backing file (FUSE passthrough, Linux 6.9 and later).
 *
 * Smack decides at open (smack_file_open, sf_open); mainline checks
 * nothing more on read(2) and write(2) of an open file, so the daemon has
 * nothing to add to them.  Passed through, they run at the backing
 * file's speed instead of one round trip through the daemon per MiB
 * (bench/fs-results.txt).
 *
 * libfuse 3.14 predates the feature: it neither asks for it at INIT nor
 * has a field for the backing id in OPEN's reply.  So the device's I/O
 * goes through loop.c's hooks, and three replies are amended on their way
 * out:
 *  - INIT: FUSE_PASSTHROUGH in flags2 and a max_stack_depth of 1, when
 *    the kernel offered it;
 *  - OPEN and CREATE: FOPEN_PASSTHROUGH and the id that
 *    FUSE_DEV_IOC_BACKING_OPEN gave the backing fd.
 * libfuse writes a reply from the thread that calls fuse_reply_*(), so a
 * thread-local says which reply to amend, and how.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/fuse.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <syslog.h>
#include <unistd.h>

#include "smackfuse.h"

/* Protocol 7.40 (Linux 6.9); Debian 12's <linux/fuse.h> is 7.38. */
#define SF_INIT_PASSTHROUGH	(1u << (37 - 32))	/* in flags2 */
#define SF_FOPEN_PASSTHROUGH	(1u << 7)
#define SF_INIT_OUT_STACK_DEPTH	(offsetof(struct fuse_init_out, flags2) + 4)
#define SF_INIT_OUT_MIN		(SF_INIT_OUT_STACK_DEPTH + 4)

struct sf_backing_map {
	int32_t fd;
	uint32_t flags;
	uint64_t padding;
};

#define SF_DEV_IOC_BACKING_OPEN		_IOW(229, 1, struct sf_backing_map)
#define SF_DEV_IOC_BACKING_CLOSE	_IOW(229, 2, uint32_t)

/* The reply this thread is about to write, if it is to be amended. */
enum sf_pt_reply { SF_PT_NONE, SF_PT_INIT, SF_PT_OPEN, SF_PT_CREATE };
static __thread enum sf_pt_reply sf_pt_next;
static __thread int32_t sf_pt_backing_id;

/* Registering the nodes' backing_id. */
static pthread_mutex_t sf_pt_lock = PTHREAD_MUTEX_INITIALIZER;

/**
 * sf_passthrough_sniff_init - the kernel's INIT request, as loop.c read
 * it from the device: did it offer passthrough?  Not inlined into the
 * read hook: libfuse cancels its workers blocked in read() at exit, and
 * a frame with arrays on it that the cancellation unwinds would leave
 * ASan's stack poison behind (tests/sanitize).
 */
__attribute__((noinline)) void
sf_passthrough_sniff_init(struct sf_fs *fs, const char *buf, size_t len)
{
	struct fuse_init_in in;

	if (len < sizeof(struct fuse_in_header) + sizeof(in))
		return;
	memcpy(&in, buf + sizeof(struct fuse_in_header), sizeof(in));
	fs->pt_offered = (in.flags & FUSE_INIT_EXT) &&
			 (in.flags2 & SF_INIT_PASSTHROUGH);
}

static void sf_pt_amend_init(struct sf_fs *fs, char *out, size_t len)
{
	struct fuse_init_out o;
	uint32_t depth = 1;	/* the backing tree is not itself stacked */

	if (len < SF_INIT_OUT_MIN)
		return;
	memcpy(&o, out, sizeof(o) < len ? sizeof(o) : len);
	o.flags |= fs->init_add;	/* caps.c's, libfuse cannot ask */
	if (!fs->pt_wanted) {
		memcpy(out, &o, sizeof(o) < len ? sizeof(o) : len);
		return;
	}
	o.flags |= FUSE_INIT_EXT;
	o.flags2 |= SF_INIT_PASSTHROUGH;
	memcpy(out, &o, sizeof(o) < len ? sizeof(o) : len);
	memcpy(out + SF_INIT_OUT_STACK_DEPTH, &depth, sizeof(depth));
	atomic_store(&fs->passthrough, true);
}

static void sf_pt_amend_open(char *out, int32_t backing_id)
{
	struct fuse_open_out o;

	memcpy(&o, out, sizeof(o));
	o.open_flags |= SF_FOPEN_PASSTHROUGH;
	o.padding = (uint32_t)backing_id;	/* backing_id since 7.40 */
	memcpy(out, &o, sizeof(o));
}

/* An OPEN's or CREATE's reply @payload (without its header), when it has
 * exactly the expected size: the open part names the backing file. */
static void sf_pt_amend_reply(enum sf_pt_reply kind, char *payload,
			      size_t len)
{
	if (kind == SF_PT_OPEN && len == sizeof(struct fuse_open_out))
		sf_pt_amend_open(payload, sf_pt_backing_id);
	else if (kind == SF_PT_CREATE &&
		 len == sizeof(struct fuse_entry_out) +
			sizeof(struct fuse_open_out))
		sf_pt_amend_open(payload + sizeof(struct fuse_entry_out),
				 sf_pt_backing_id);
}

/**
 * sf_passthrough_writev - loop.c's hook for every reply.  Amend a copy,
 * never libfuse's buffer: only the reply's payload (iov[1]) changes, and
 * only when it has exactly the shape expected.
 */
ssize_t sf_passthrough_writev(int fd, struct iovec *iov, int count,
			      void *userdata)
{
	char copy[sizeof(struct fuse_entry_out) + sizeof(struct fuse_open_out)];
	enum sf_pt_reply kind = sf_pt_next;
	size_t len = count == 2 ? iov[1].iov_len : 0;
	struct iovec amended[2];

	sf_pt_next = SF_PT_NONE;
	if (kind == SF_PT_NONE || count != 2 || len > sizeof(copy))
		return writev(fd, iov, count);
	memcpy(copy, iov[1].iov_base, len);
	if (kind == SF_PT_INIT)
		sf_pt_amend_init(userdata, copy, len);
	else
		sf_pt_amend_reply(kind, copy, len);
	amended[0] = iov[0];
	amended[1].iov_base = copy;
	amended[1].iov_len = len;
	return writev(fd, amended, 2);
}

/**
 * sf_passthrough_amend - uring.c's replies, which go into a ring entry
 * instead of through sf_passthrough_writev(): amend @payload (the reply
 * without its header) in place, as that amends a copy.  Called on the
 * thread that made the reply, which set sf_pt_next.
 */
void sf_passthrough_amend(char *payload, size_t len)
{
	enum sf_pt_reply kind = sf_pt_next;

	sf_pt_next = SF_PT_NONE;
	sf_pt_amend_reply(kind, payload, len);
}

/* The daemon's own messages: to stderr with -f, else to syslog. */
static void sf_pt_say(struct sf_fs *fs, int prio, const char *what)
{
	if (fs->foreground)
		fprintf(stderr, "smackfuse: %s: reads and writes of open "
			"files go through the daemon\n", what);
	else
		syslog(prio, "%s: reads and writes of open files go through "
		       "the daemon", what);
}

/* In the INIT callback: ask for passthrough if the kernel offered it,
 * and amend the reply for caps.c's flags too. */
void sf_passthrough_init(struct sf_fs *fs)
{
	if (fs->init_add)
		sf_pt_next = SF_PT_INIT;
	if (fs->passthrough_off)
		return;
	fs->pt_wanted = fs->pt_offered;
	if (fs->pt_offered)
		sf_pt_next = SF_PT_INIT;
	else
		sf_pt_say(fs, LOG_NOTICE, "the kernel offers no FUSE "
			  "passthrough");
}

/* The kernel refused a backing file for a reason that holds for every
 * file: say so once, and stop asking. */
static void sf_pt_refused(struct sf_fs *fs)
{
	if (atomic_exchange(&fs->passthrough, false))
		sf_pt_say(fs, LOG_WARNING, "the kernel refused passthrough "
			  "(EPERM: CAP_SYS_ADMIN?)");
}

/* Register @n's O_PATH descriptor as its backing file.  The kernel
 * takes it (fget_raw) and opens the file itself, with each open's own
 * flags, for every passed-through open. */
static int32_t sf_pt_register(struct sf_fs *fs, struct sf_node *n)
{
	struct sf_backing_map map = { .fd = n->fd };
	int id;

	id = ioctl(fuse_session_fd(fs->se), SF_DEV_IOC_BACKING_OPEN, &map);
	if (id <= 0)
		return -errno;
	n->backing_id = id;
	atomic_fetch_add(&fs->backing_open, 1);
	return id;
}

/**
 * sf_passthrough_open - the backing id for an open of @n, a regular
 * file.  Returns the id; 0 when passthrough is off, so that reads and
 * writes come through the daemon; or -errno, for the open to fail: the
 * kernel refuses to mix an inode's passed-through opens with cached ones
 * (EIO), so one open cannot quietly fall back on its own.
 *
 * The id is registered at the node's first open and kept until the
 * kernel forgets the node (sf_passthrough_forget()): two ioctls less per
 * open and close, and every open of the node is passed through or none.
 */
int32_t sf_passthrough_open(struct sf_fs *fs, struct sf_node *n)
{
	int32_t id;

	pthread_mutex_lock(&sf_pt_lock);
	id = n->backing_id;
	if (!id && atomic_load(&fs->passthrough))
		id = sf_pt_register(fs, n);
	pthread_mutex_unlock(&sf_pt_lock);
	if (id != -EPERM)
		return id;
	/* Not negotiated after all, or no CAP_SYS_ADMIN: for every file. */
	sf_pt_refused(fs);
	return 0;
}

/* When the kernel forgets @n: it has no open file of @n left. */
void sf_passthrough_forget(struct sf_fs *fs, struct sf_node *n)
{
	uint32_t id = (uint32_t)n->backing_id;

	if (id &&
	    !ioctl(fuse_session_fd(fs->se), SF_DEV_IOC_BACKING_CLOSE, &id))
		atomic_fetch_sub(&fs->backing_open, 1);
}

int sf_passthrough_reply_open(fuse_req_t req, struct fuse_file_info *fi,
			      int32_t backing_id)
{
	int rc;

	sf_pt_next = backing_id ? SF_PT_OPEN : SF_PT_NONE;
	sf_pt_backing_id = backing_id;
	rc = fuse_reply_open(req, fi);
	sf_pt_next = SF_PT_NONE;
	return rc;
}

int sf_passthrough_reply_create(fuse_req_t req,
				const struct fuse_entry_param *e,
				const struct fuse_file_info *fi,
				int32_t backing_id)
{
	int rc;

	sf_pt_next = backing_id ? SF_PT_CREATE : SF_PT_NONE;
	sf_pt_backing_id = backing_id;
	rc = fuse_reply_create(req, e, fi);
	sf_pt_next = SF_PT_NONE;
	return rc;
}
