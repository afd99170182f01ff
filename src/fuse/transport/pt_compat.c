// SPDX-License-Identifier: GPL-2.0-only
/*
 * pt_compat.c - FUSE passthrough for a libfuse that predates it (3.14,
 * Debian 12's), on the wire; built only there (!SF_LIBFUSE_PASSTHROUGH).
 *
 * Such a libfuse neither asks for passthrough at INIT nor has a field
 * for the backing id in OPEN's reply.  So wire.c's hooks let this file
 * see INIT's request (did the kernel offer it?) and amend INIT's reply
 * (FUSE_PASSTHROUGH in flags2 and a max_stack_depth of 1), found by its
 * unique id.  OPEN's and CREATE's replies that name a backing file are
 * made here, from the handler's descriptor (struct sf_open_reply):
 * libfuse 3.14's own encoding of them (fill_entry(), fill_open()) plus
 * FOPEN_PASSTHROUGH and the id that FUSE_DEV_IOC_BACKING_OPEN gave, sent
 * as they are with fuse_reply_buf() (the same send_reply_ok() path as
 * fuse_reply_open()).  Nothing is amended on the way out; the descriptor
 * goes by argument, never through a thread-local.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
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

#define SF_DEV_IOC_BACKING_OPEN \
	_IOW(SF_FUSE_DEV_IOC_MAGIC, 1, struct sf_backing_map)

/* INIT's request: did the kernel offer passthrough? */
void sf_ptc_sniff_init(struct sf_fs *fs, uint64_t offered)
{
	fs->pt.offered = (offered & SF_INIT_PASSTHROUGH) != 0;
}

/* In the INIT callback: is it to be asked for? */
void sf_ptc_init(struct sf_fs *fs)
{
	fs->pt.wanted = !fs->opt.passthrough_off && fs->pt.offered;
}

/* INIT's reply (@len bytes of struct fuse_init_out): ask for it. */
void sf_ptc_init_reply(struct sf_fs *fs, char *out, size_t len)
{
	struct fuse_init_out o;
	uint32_t depth = 1;	/* the backing tree is not itself stacked */

	if (!fs->pt.wanted || len < SF_INIT_OUT_MIN || len < sizeof(o))
		return;
	memcpy(&o, out, sizeof(o));
	o.flags |= FUSE_INIT_EXT;
	o.flags2 |= (uint32_t)(SF_INIT_PASSTHROUGH >> 32);
	memcpy(out, &o, sizeof(o));
	memcpy(out + SF_INIT_OUT_STACK_DEPTH, &depth, sizeof(depth));
	atomic_store(&fs->pt.active, true);
}

/* Register @fd as a backing file: the id, or -errno. */
int32_t sf_ptc_backing_open(struct sf_fs *fs, int fd)
{
	struct sf_backing_map map = { .fd = fd };
	int id;

	id = ioctl(fuse_session_fd(fs->se), SF_DEV_IOC_BACKING_OPEN, &map);
	return id > 0 ? id : -errno;
}

/* A timeout as the wire has it, rounded as libfuse 3.14 does
 * (calc_timeout_sec(), calc_timeout_nsec()): whole seconds, clamped at
 * 0 and ULONG_MAX, and the fraction in nanoseconds below one second. */
static void sf_ptc_timeout(double t, uint64_t *sec, uint32_t *nsec)
{
	double frac;

	if (!(t > 0.0)) {
		*sec = 0;
		*nsec = 0;
		return;
	}
	*sec = t >= (double)ULONG_MAX ? ULONG_MAX : (uint64_t)t;
	frac = t - (double)*sec;
	if (frac <= 0.0)
		*nsec = 0;
	else if (frac >= 0.999999999)
		*nsec = 999999999;
	else
		*nsec = (uint32_t)(frac * 1.0e9);
}

/* CREATE's entry, as libfuse's fuse_reply_create() writes it (a kernel
 * with passthrough is far past protocol 7.9's short entry). */
static void sf_ptc_entry_out(struct fuse_entry_out *o,
			     const struct fuse_entry_param *e)
{
	const struct stat *st = &e->attr;

	memset(o, 0, sizeof(*o));
	o->nodeid = e->ino;
	o->generation = e->generation;
	sf_ptc_timeout(e->entry_timeout, &o->entry_valid,
		       &o->entry_valid_nsec);
	sf_ptc_timeout(e->attr_timeout, &o->attr_valid, &o->attr_valid_nsec);
	o->attr.ino = st->st_ino;
	o->attr.size = (uint64_t)st->st_size;
	o->attr.blocks = (uint64_t)st->st_blocks;
	o->attr.atime = (uint64_t)st->st_atim.tv_sec;
	o->attr.mtime = (uint64_t)st->st_mtim.tv_sec;
	o->attr.ctime = (uint64_t)st->st_ctim.tv_sec;
	o->attr.atimensec = (uint32_t)st->st_atim.tv_nsec;
	o->attr.mtimensec = (uint32_t)st->st_mtim.tv_nsec;
	o->attr.ctimensec = (uint32_t)st->st_ctim.tv_nsec;
	o->attr.mode = st->st_mode;
	o->attr.nlink = (uint32_t)st->st_nlink;
	o->attr.uid = st->st_uid;
	o->attr.gid = st->st_gid;
	o->attr.rdev = (uint32_t)st->st_rdev;
	o->attr.blksize = (uint32_t)st->st_blksize;
}

/* OPEN's part, as libfuse's fill_open() writes it (the flags of struct
 * fuse_file_info that 3.14 knows; the daemon sets no other), with the
 * backing file named. */
static void sf_ptc_open_out(struct sf_open_out *o,
			    const struct fuse_file_info *fi,
			    int32_t backing_id)
{
	memset(o, 0, sizeof(*o));
	o->fh = fi->fh;
	o->open_flags = SF_FOPEN_PASSTHROUGH;
	if (fi->direct_io)
		o->open_flags |= FOPEN_DIRECT_IO;
	if (fi->keep_cache)
		o->open_flags |= FOPEN_KEEP_CACHE;
	if (fi->cache_readdir)
		o->open_flags |= FOPEN_CACHE_DIR;
	if (fi->nonseekable)
		o->open_flags |= FOPEN_NONSEEKABLE;
	if (fi->noflush)
		o->open_flags |= FOPEN_NOFLUSH;
	o->backing_id = backing_id;
}

/**
 * sf_ptc_reply - send @r: with libfuse's fuse_reply_open() or
 * fuse_reply_create() when it names no backing file, else the reply
 * made here, whole, with fuse_reply_buf().  Returns what libfuse does.
 */
int sf_ptc_reply(fuse_req_t req, const struct sf_open_reply *r)
{
	char out[sizeof(struct fuse_entry_out) + sizeof(struct sf_open_out)];
	struct fuse_entry_out e;
	struct sf_open_out o;
	size_t at = 0;

	if (r->backing_id <= 0) {
		if (r->entry)
			return fuse_reply_create(req, r->entry, r->fi);
		return fuse_reply_open(req, r->fi);
	}
	if (r->entry) {
		sf_ptc_entry_out(&e, r->entry);
		memcpy(out, &e, sizeof(e));
		at = sizeof(e);
	}
	sf_ptc_open_out(&o, r->fi, r->backing_id);
	memcpy(out + at, &o, sizeof(o));
	return fuse_reply_buf(req, out, at + sizeof(o));
}
