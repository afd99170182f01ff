/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wire.h - inside the transport (transport.h): what its files tell each
 * other.  The request handlers never include it.
 */
#ifndef SF_WIRE_H
#define SF_WIRE_H

#include <linux/fuse.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "smackfuse.h"

struct sf_open_reply;	/* transport.h */

/* INIT's flags, both words (flags2 only counts with FUSE_INIT_EXT). */
static inline uint64_t sf_init_flags(uint32_t flags, uint32_t flags2)
{
	return flags | ((flags & FUSE_INIT_EXT) ? (uint64_t)flags2 << 32 : 0);
}

/* FUSE_DEV_IOC_MAGIC of <linux/fuse.h>: the type of /dev/fuse's ioctls. */
#define SF_FUSE_DEV_IOC_MAGIC	229

#ifndef FUSE_TMPFILE
#define FUSE_TMPFILE 51		/* protocol 7.37 */
#endif

/*
 * O_TMPFILE for a libfuse without the tmpfile op (3.14, Debian 12).  The
 * kernel's FUSE_TMPFILE (protocol 7.37, Linux 6.1) is laid out as
 * FUSE_CREATE is, fuse_create_in and then a name, and takes CREATE's
 * reply; the name is vfs_tmpfile()'s "/", which no CREATE can carry (a
 * name never holds a slash).  Handed to libfuse as a CREATE, it reaches
 * sf_create(), which serves the name "/" as sf_tmpfile().  Anything else
 * stays FUSE_TMPFILE: libfuse answers ENOSYS, the kernel EOPNOTSUPP.
 */
static inline void sf_wire_tmpfile_as_create(char *req, size_t len)
{
#ifndef HAVE_STRUCT_FUSE_LOWLEVEL_OPS_TMPFILE
	const size_t name = sizeof(struct fuse_in_header) +
			    sizeof(struct fuse_create_in);
	struct fuse_in_header h;

	if (len < name + 2)
		return;
	memcpy(&h, req, sizeof(h));
	if (h.opcode != FUSE_TMPFILE || memcmp(req + name, "/", 2))
		return;
	h.opcode = FUSE_CREATE;
	memcpy(req, &h, sizeof(h));
#else
	(void)req;
	(void)len;
#endif
}

/* loop.c: the token of the /dev/fuse readers (transport.h has the rest);
 * the requests both transports keep from holding up the others; and,
 * for the status file, how many requests the watch passed over. */
int sf_loop_start(void);
void sf_loop_stop(void);
void sf_loop_acquire(void);
void sf_loop_received(uint32_t opcode, size_t len);
bool sf_request_may_wait(uint32_t opcode);
unsigned long sf_loop_takeovers(void);

/* reqcount.c: a request of @opcode was read, by wire.c or the own ring. */
void sf_reqcount(uint32_t opcode);

/* passthrough.c: the INIT callback's part. */
void sf_passthrough_init(struct sf_fs *fs, struct fuse_conn_info *conn);

/* pt_compat.c: passthrough for a libfuse without it (3.14).  Not built
 * where libfuse has it (SF_LIBFUSE_PASSTHROUGH). */
void sf_ptc_sniff_init(struct sf_fs *fs, uint64_t offered);
void sf_ptc_init(struct sf_fs *fs);
void sf_ptc_init_reply(struct sf_fs *fs, char *out, size_t len);
int32_t sf_ptc_backing_open(struct sf_fs *fs, int fd);
int sf_ptc_reply(fuse_req_t req, const struct sf_open_reply *r);

/* uring.c: the choice of io_uring, whichever ring carries it. */
bool sf_uring_sniff_init(struct sf_fs *fs, uint64_t offered,
			 const char *missing);
void sf_uring_set(bool on, const char *why);
void sf_uring_on(const char *by);
unsigned int sf_uring_queues(void);
void sf_uring_say(const struct sf_fs *fs);
void sf_uring_describe(char *buf, size_t size);

/* uring_own.c or uring_libfuse.c: the ring itself.
 * sf_ring_init_reply() sees INIT's reply @o before it is written: the own
 * ring builds its queues and asks for the ring there (true: the queues
 * wait for sf_ring_init_sent()); libfuse's ring is libfuse's to ask for,
 * and the reply only tells whether it did. */
/* Why there is no ring code, with the hooks (@hooked) or without. */
const char *sf_ring_missing(bool hooked);
bool sf_ring_init_reply(struct sf_fs *fs, struct fuse_init_out *o);
void sf_ring_init_sent(struct sf_fs *fs, bool ok);
/* The same without the hooks: INIT's reply is not seen. */
void sf_ring_init_unseen(struct sf_fs *fs);
/* A reply to a request the own ring carried: into its entry. */
bool sf_ring_take(const struct iovec *iov, int count, ssize_t *res);
void sf_ring_settle(void);
void sf_ring_stop(void);
const char *sf_ring_fuse_opts(const struct sf_fs *fs);
const struct fuse_lowlevel_ops *
sf_ring_ops(const struct fuse_lowlevel_ops *ops, size_t *size);
/* Requests the ring carried, or -1 when they are not counted. */
long sf_ring_requests(void);

#endif /* SF_WIRE_H */
