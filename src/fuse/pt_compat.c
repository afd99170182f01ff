// SPDX-License-Identifier: GPL-2.0-only
/*
 * pt_compat.c - FUSE passthrough for a libfuse that predates it (3.14,
 * Debian 12's), on the wire; built only there (!SF_LIBFUSE_PASSTHROUGH).
 *
 * Such a libfuse neither asks for passthrough at INIT nor has a field
 * for the backing id in OPEN's reply.  So wire.c's hooks let this file
 * see INIT's request (did the kernel offer it?) and amend three replies:
 *  - INIT: FUSE_PASSTHROUGH in flags2 and a max_stack_depth of 1;
 *  - OPEN and CREATE: FOPEN_PASSTHROUGH and the id that
 *    FUSE_DEV_IOC_BACKING_OPEN gave the backing file.
 * libfuse gives a reply no way to carry more, and writes it from the
 * thread that calls fuse_reply_*(), inside that call: so the reply's
 * descriptor (struct sf_open_reply) rides in a thread-local for exactly
 * the length of that call (sf_ptc_reply()), and the writev hook amends a
 * copy of the reply it names, never libfuse's buffer.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>

#include "smackfuse.h"
#include "transport.h"
#include "wire.h"

/* Protocol 7.40 (Linux 6.9); Debian 12's <linux/fuse.h> is 7.38. */
#define SF_INIT_PASSTHROUGH	(1ULL << 37)
#define SF_FOPEN_PASSTHROUGH	(1u << 7)
#define SF_INIT_OUT_STACK_DEPTH	(offsetof(struct fuse_init_out, flags2) + 4)
#define SF_INIT_OUT_MIN		(SF_INIT_OUT_STACK_DEPTH + 4)

/* struct fuse_open_out of 7.40, whose padding became the backing id. */
struct sf_open_out {
	uint64_t fh;
	uint32_t open_flags;
	int32_t backing_id;
};

struct sf_backing_map {
	int32_t fd;
	uint32_t flags;
	uint64_t padding;
};

#define SF_DEV_IOC_BACKING_OPEN		_IOW(229, 1, struct sf_backing_map)

/* The reply this thread is writing, inside sf_ptc_reply() only. */
static __thread const struct sf_open_reply *sf_ptc_writing;

/* INIT's request: did the kernel offer passthrough? */
void sf_ptc_sniff_init(struct sf_fs *fs, uint64_t offered)
{
	fs->pt_offered = (offered & SF_INIT_PASSTHROUGH) != 0;
}

/* In the INIT callback: is it to be asked for? */
void sf_ptc_init(struct sf_fs *fs)
{
	fs->pt_wanted = !fs->passthrough_off && fs->pt_offered;
}

/* INIT's reply (@len bytes of struct fuse_init_out): ask for it. */
void sf_ptc_init_reply(struct sf_fs *fs, char *out, size_t len)
{
	struct fuse_init_out o;
	uint32_t depth = 1;	/* the backing tree is not itself stacked */

	if (!fs->pt_wanted || len < SF_INIT_OUT_MIN || len < sizeof(o))
		return;
	memcpy(&o, out, sizeof(o));
	o.flags |= FUSE_INIT_EXT;
	o.flags2 |= (uint32_t)(SF_INIT_PASSTHROUGH >> 32);
	memcpy(out, &o, sizeof(o));
	memcpy(out + SF_INIT_OUT_STACK_DEPTH, &depth, sizeof(depth));
	atomic_store(&fs->passthrough, true);
}

/* Register @fd as a backing file: the id, or -errno. */
int32_t sf_ptc_backing_open(struct sf_fs *fs, int fd)
{
	struct sf_backing_map map = { .fd = fd };
	int id;

	id = ioctl(fuse_session_fd(fs->se), SF_DEV_IOC_BACKING_OPEN, &map);
	return id > 0 ? id : -errno;
}

/* Send @reply (a struct sf_open_reply) with libfuse's fuse_reply_*(),
 * which writes it through sf_ptc_amend() on this thread. */
int sf_ptc_reply(fuse_req_t req, const void *reply)
{
	const struct sf_open_reply *r = reply;
	int rc;

	sf_ptc_writing = r->backing_id > 0 ? r : NULL;
	if (r->entry)
		rc = fuse_reply_create(req, r->entry, r->fi);
	else
		rc = fuse_reply_open(req, r->fi);
	sf_ptc_writing = NULL;
	return rc;
}

static void sf_ptc_amend_open(char *out, int32_t backing_id)
{
	struct sf_open_out o;

	memcpy(&o, out, sizeof(o));
	o.open_flags |= SF_FOPEN_PASSTHROUGH;
	o.backing_id = backing_id;
	memcpy(out, &o, sizeof(o));
}

/**
 * sf_ptc_amend - a reply on its way out: if it is the one sf_ptc_reply()
 * is writing, and has exactly the expected shape (header, then OPEN's or
 * CREATE's payload), return @amended, which has a copy of the payload in
 * @copy with the backing file named; else @iov as it is.
 */
const struct iovec *sf_ptc_amend(const struct iovec *iov, int count,
				 struct iovec *amended, char *copy,
				 size_t size)
{
	const struct sf_open_reply *r = sf_ptc_writing;
	size_t len = count == 2 ? iov[1].iov_len : 0, at;

	if (!r)
		return iov;
	sf_ptc_writing = NULL;	/* one reply per call */
	at = r->entry ? sizeof(struct fuse_entry_out) : 0;
	if (count != 2 || len > size || len != at + sizeof(struct sf_open_out))
		return iov;
	memcpy(copy, iov[1].iov_base, len);
	sf_ptc_amend_open(copy + at, r->backing_id);
	amended[0] = iov[0];
	amended[1].iov_base = copy;
	amended[1].iov_len = len;
	return amended;
}
