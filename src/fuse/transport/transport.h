/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * transport.h - the wire between the kernel and the request handlers:
 * how requests arrive (/dev/fuse or io_uring) and how a reply that opens
 * a file names its backing file (FUSE passthrough).  The one interface
 * between them: the handlers (ops.c, inode.c, uids.c, lock.c) and the
 * status file use what is below and never learn which transport carries
 * a request; main.c sets the wire up and takes it down.  The arrows go
 * from the handlers down to the transport, never back: besides libfuse's
 * dispatch into sf_ops, the transport calls only caps.c (INIT's flags)
 * and clock.c.
 *
 * Each feature is libfuse's where the library has it (passthrough since
 * 3.17, io_uring since 3.18 when built with liburing), else the daemon's
 * own for the libfuse that lacks it (Debian 12's 3.14): configure decides,
 * by what the library declares and links (SF_LIBFUSE_PASSTHROUGH,
 * SF_LIBFUSE_URING).
 *
 *   wire.c         the device's I/O hooks: every request read and every
 *                  reply written on /dev/fuse passes there
 *   loop.c         which worker reads /dev/fuse next
 *   passthrough.c  backing files and the replies that name them
 *   pt_compat.c    the same on the wire, for libfuse without passthrough
 *   uring.c        the choice of io_uring and its report
 *   uring_own.c    the daemon's own ring, for libfuse without one
 *   uring_libfuse.c  libfuse's ring, and what it needs of the daemon
 */
#ifndef SF_TRANSPORT_H
#define SF_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

#include "smackfuse.h"

/* ---- main.c ---- */

/* Options for fuse_session_new() that the transport needs ("" if none);
 * with fs->opt.uring_off, none that asks for the ring. */
const char *sf_transport_fuse_opts(const struct sf_fs *fs);
/* The operations to give fuse_session_new(): @ops, or @ops with what a
 * transport needs wrapped around some of them. */
const struct fuse_lowlevel_ops *
sf_transport_ops(const struct fuse_lowlevel_ops *ops, size_t *size);
/* Once the session is mounted, before its loop reads INIT. */
int sf_transport_setup(struct sf_fs *fs);
/* Around the multi-threaded loop: which worker reads /dev/fuse next. */
int sf_transport_loop_start(void);
void sf_transport_loop_stop(void);
/* After the session loop, once unmounted. */
void sf_transport_stop(void);

/* ---- ops.c ---- */

/* In the INIT callback: ask for what the kernel offers and may be used. */
void sf_transport_init(struct sf_fs *fs, struct fuse_conn_info *conn);

/* The backing id for an open of regular file @n: > 0, or 0 when reads and
 * writes go through the daemon, or -errno for the open to fail. */
int32_t sf_passthrough_open(struct sf_fs *fs, fuse_req_t req,
			    struct sf_node *n);
/* When the kernel forgets @n: it has no open file of @n left. */
void sf_passthrough_forget(struct sf_fs *fs, struct sf_node *n);

/*
 * The reply descriptor of a reply that opens a file: OPEN's, or
 * CREATE's when @entry is set.  Beyond libfuse's fields of @fi it says
 * which backing file, if any, the kernel reads and writes the open file
 * through.  The handler fills it and hands it to sf_reply_open(); it
 * travels by argument to where the reply's bytes are made (libfuse's
 * fi->backing_id on 3.17 and later, pt_compat.c before), never through
 * a thread-local.
 */
struct sf_open_reply {
	const struct fuse_entry_param *entry;	/* CREATE's new entry */
	struct fuse_file_info *fi;
	int32_t backing_id;			/* > 0: passed through */
};

/* Send @r; returns what fuse_reply_open() or fuse_reply_create() does
 * (-ENOENT: the caller was interrupted and the open is to be undone). */
int sf_reply_open(fuse_req_t req, const struct sf_open_reply *r);

/* ---- inode.c, uids.c: a handler about to wait ---- */

/* Let another worker read /dev/fuse while this thread waits for
 * something that may take long (FORGETs, the name service).  Only passes
 * loop.c's token on: it takes no lock and never blocks, so a caller may
 * hold its own (inode.c holds nodes.lock).  A no-op without the token. */
void sf_loop_yield(void);

/* ---- lock.c ---- */

/* Before a lock request answers "conflict": let the other transport
 * threads answer what the kernel has handed them (a RELEASE that drops
 * the lock).  A no-op on /dev/fuse, where requests are taken in order. */
void sf_transport_settle(void);

/* ---- status.c ---- */

/* The status file's transport lines, and its requests by type
 * (reqcount.c). */
int sf_transport_status(struct sf_fs *fs, char *buf, size_t size);
int sf_reqcount_status(struct sf_fs *fs, char *buf, size_t size);

#endif /* SF_TRANSPORT_H */
