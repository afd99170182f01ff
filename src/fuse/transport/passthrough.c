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
 * Where libfuse has passthrough (3.17 and later: SF_LIBFUSE_PASSTHROUGH)
 * it is asked for at INIT with FUSE_CAP_PASSTHROUGH, a backing file is
 * registered with fuse_passthrough_open() and named in OPEN's and
 * CREATE's replies by fuse_file_info's backing_id.  Before that,
 * pt_compat.c asks for it in INIT's reply and makes those replies
 * itself.  The handlers see neither: they get a backing id here and hand
 * it, in the reply's descriptor (struct sf_open_reply), to
 * sf_reply_open().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/fuse.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <syslog.h>

#include "smackfuse.h"
#include "transport.h"
#include "wire.h"

/* FUSE_DEV_IOC_BACKING_CLOSE of protocol 7.40; Debian 12's
 * <linux/fuse.h> is 7.38. */
#define SF_DEV_IOC_BACKING_CLOSE	_IOW(SF_FUSE_DEV_IOC_MAGIC, 2, \
					     uint32_t)

/* Registering the nodes' backing_id. */
static pthread_mutex_t sf_pt_lock = PTHREAD_MUTEX_INITIALIZER;

/* The daemon's own messages: to stderr with -f, else to syslog. */
static void sf_pt_say(struct sf_fs *fs, int prio, const char *what)
{
	if (fs->opt.foreground)
		fprintf(stderr, "smackfuse: %s: reads and writes of open "
			"files go through the daemon\n", what);
	else
		syslog(prio, "%s: reads and writes of open files go through "
		       "the daemon", what);
}

/* In the INIT callback: ask for passthrough if the kernel offered it. */
void sf_passthrough_init(struct sf_fs *fs, struct fuse_conn_info *conn)
{
#ifdef SF_LIBFUSE_PASSTHROUGH
	fs->pt.offered = (conn->capable & FUSE_CAP_PASSTHROUGH) != 0;
	fs->pt.wanted = !fs->opt.passthrough_off && fs->pt.offered;
	if (fs->pt.wanted) {
		conn->want |= FUSE_CAP_PASSTHROUGH;
		/* The backing tree is not itself stacked: the kernel's
		 * max_stack_depth is 1, as pt_compat.c asks. */
		conn->max_backing_stack_depth = FUSE_BACKING_STACKED_UNDER;
		atomic_store(&fs->pt.active, true);
	}
#else
	(void)conn;
	sf_ptc_init(fs);
#endif
	if (!fs->opt.passthrough_off && !fs->pt.offered)
		sf_pt_say(fs, LOG_NOTICE, "the kernel offers no FUSE "
			  "passthrough");
}

/* The kernel refused a backing file for a reason that holds for every
 * file: say so once, and stop asking. */
static void sf_pt_refused(struct sf_fs *fs)
{
	if (atomic_exchange(&fs->pt.active, false))
		sf_pt_say(fs, LOG_WARNING, "the kernel refused passthrough "
			  "(EPERM: CAP_SYS_ADMIN?)");
}

/*
 * Register @n's O_PATH descriptor as its backing file, for @req (an open
 * or create).  The kernel takes it (fget_raw) and opens the file itself,
 * with each open's own flags, for every passed-through open.  Returns the
 * id or -errno.  libfuse's fuse_passthrough_open() says 0 on failure; the
 * ioctl's errno is still there (it logs with strerror(errno) and
 * returns).
 */
static int32_t sf_pt_register(struct sf_fs *fs, fuse_req_t req,
			      struct sf_node *n)
{
	int id;

#ifdef SF_LIBFUSE_PASSTHROUGH
	(void)fs;
	errno = 0;
	id = fuse_passthrough_open(req, n->fd);
	if (id <= 0)
		return errno ? -errno : -EIO;
#else
	(void)req;
	id = sf_ptc_backing_open(fs, n->fd);
	if (id <= 0)
		return id;
#endif
	n->backing_id = id;
	atomic_fetch_add(&fs->pt.backing_open, 1);
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
int32_t sf_passthrough_open(struct sf_fs *fs, fuse_req_t req,
			    struct sf_node *n)
{
	int32_t id;

	pthread_mutex_lock(&sf_pt_lock);
	id = n->backing_id;
	if (!id && atomic_load(&fs->pt.active))
		id = sf_pt_register(fs, req, n);
	pthread_mutex_unlock(&sf_pt_lock);
	if (id != -EPERM)
		return id;
	/* Not negotiated after all, or no CAP_SYS_ADMIN: for every file. */
	sf_pt_refused(fs);
	return 0;
}

/*
 * When the kernel forgets @n: it has no open file of @n left.  The ioctl
 * itself, not libfuse's fuse_passthrough_close(): a node is dropped by the
 * inode table, which has no request at hand.
 */
void sf_passthrough_forget(struct sf_fs *fs, struct sf_node *n)
{
	uint32_t id = (uint32_t)n->backing_id;

	if (id &&
	    !ioctl(fuse_session_fd(fs->se), SF_DEV_IOC_BACKING_CLOSE, &id))
		atomic_fetch_sub(&fs->pt.backing_open, 1);
}

/* The reply that opens a file, as @r describes it (transport.h). */
int sf_reply_open(fuse_req_t req, const struct sf_open_reply *r)
{
#ifdef SF_LIBFUSE_PASSTHROUGH
	/* libfuse sets FOPEN_PASSTHROUGH and the id for backing_id > 0. */
	r->fi->backing_id = r->backing_id > 0 ? r->backing_id : 0;
	if (r->entry)
		return fuse_reply_create(req, r->entry, r->fi);
	return fuse_reply_open(req, r->fi);
#else
	return sf_ptc_reply(req, r);
#endif
}
