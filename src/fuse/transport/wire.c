// SPDX-License-Identifier: GPL-2.0-only
/*
 * wire.c - the device's I/O: every request libfuse reads from /dev/fuse
 * and every reply it writes there passes these hooks
 * (fuse_session_custom_io()), and the rest of the transport's interface
 * (transport.h) starts here.
 *
 * Reading: loop.c's token says which worker reads next.  INIT's request
 * says what the kernel offers: the ring (uring.c) and, for a libfuse
 * without passthrough, passthrough (pt_compat.c).
 *
 * Writing: INIT's reply asks for what was chosen (where libfuse does not:
 * the daemon's own ring, and passthrough with libfuse 3.14).  No other
 * reply is changed here: one that names a backing file was made whole
 * before libfuse sent it (sf_reply_open(), passthrough.c).  A reply to a
 * request the daemon's own ring carried goes into its ring entry
 * (uring_own.c); everything else to /dev/fuse.
 * libfuse's own ring answers its requests itself, past these hooks.
 *
 * libfuse 3.18.3 and later leave fuse_session_custom_io() out unless
 * built with it (Debian's is not): then libfuse reads and writes the
 * device itself, and nothing here is used but what libfuse has of its
 * own (passthrough, its ring).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "smackfuse.h"
#include "transport.h"
#include "uring_abi.h"
#include "wire.h"

static struct {
	bool hooked;			/* libfuse's I/O goes through here */
	bool init_pending;		/* INIT's reply is still to come */
	uint64_t init_unique;
	bool ring_wanted;		/* and asks for the ring */
	atomic_ulong requests;		/* read from /dev/fuse */
} sf_wire;

#ifdef SF_LIBFUSE_CUSTOM_IO

/* INIT's request: what does the kernel offer? */
static void sf_wire_init_request(struct sf_fs *fs,
				 const struct fuse_in_header *h,
				 const char *buf, size_t len)
{
	struct fuse_init_in in;
	uint64_t offered;

	if (len < sizeof(*h) + sizeof(in))
		return;
	memcpy(&in, buf + sizeof(*h), sizeof(in));
	offered = sf_init_flags(in.flags, in.flags2);
	sf_caps_offered(fs, offered);
#ifndef SF_LIBFUSE_PASSTHROUGH
	sf_ptc_sniff_init(fs, offered);
#endif
	sf_wire.ring_wanted = sf_uring_sniff_init(fs, offered,
						  sf_ring_missing(true));
	sf_wire.init_unique = h->unique;
	sf_wire.init_pending = true;
}

/* Not inlined into sf_wire_read(), and nothing with a local in memory
 * (such as sf_wire_tmpfile_as_create()'s header) is either: libfuse
 * cancels its workers blocked in read() at exit, and a frame with such
 * locals on it that the cancellation unwinds leaves ASan's stack poison
 * behind, which the thread's last calls then meet (tests/sanitize). */
static __attribute__((noinline)) void
sf_wire_received(struct sf_fs *fs, char *buf, size_t len)
{
	struct fuse_in_header h;

	if (len < sizeof(h))
		return;
	memcpy(&h, buf, sizeof(h));
	atomic_fetch_add_explicit(&sf_wire.requests, 1, memory_order_relaxed);
	sf_reqcount(h.opcode);
	if (h.opcode == FUSE_INIT)
		sf_wire_init_request(fs, &h, buf, len);
	sf_loop_received(h.opcode, len);
	sf_wire_tmpfile_as_create(buf, len);
}

static ssize_t sf_wire_read(int fd, void *buf, size_t len, void *userdata)
{
	ssize_t res;

	sf_loop_acquire();
	res = read(fd, buf, len);
	if (res > 0)
		sf_wire_received(userdata, buf, (size_t)res);
	return res;
}

/* INIT's reply: ask for what was chosen, then let the ring start. */
static ssize_t sf_wire_init_reply(struct sf_fs *fs, int fd,
				  const struct iovec *iov, int count)
{
	struct fuse_out_header oh;
	struct fuse_init_out o;
	struct iovec amended[2];
	bool ring = false;
	ssize_t res;

	sf_wire.init_pending = false;
	memcpy(&oh, iov[0].iov_base, sizeof(oh));
	if (oh.error || count != 2 || iov[1].iov_len != sizeof(o)) {
		if (sf_wire.ring_wanted) {
			sf_uring_set(false, "INIT's reply has an unexpected "
				     "shape");
			sf_uring_say(fs);
		}
		return writev(fd, iov, count);
	}
	memcpy(&o, iov[1].iov_base, sizeof(o));
	sf_caps_init_reply(fs, &o);
#ifndef SF_LIBFUSE_PASSTHROUGH
	sf_ptc_init_reply(fs, (char *)&o, sizeof(o));
#endif
	if (sf_wire.ring_wanted)
		ring = sf_ring_init_reply(fs, &o);
	amended[0] = iov[0];
	amended[1].iov_base = &o;
	amended[1].iov_len = sizeof(o);
	res = writev(fd, amended, 2);
	if (ring)
		sf_ring_init_sent(fs, res >= 0);
	return res;
}

static ssize_t sf_wire_writev(int fd, struct iovec *iov, int count,
			      void *userdata)
{
	struct fuse_out_header oh;
	ssize_t res;

	if (sf_wire.init_pending && count >= 1 &&
	    iov[0].iov_len >= sizeof(oh)) {
		memcpy(&oh, iov[0].iov_base, sizeof(oh));
		if (oh.unique == sf_wire.init_unique)
			return sf_wire_init_reply(userdata, fd, iov, count);
	}
	if (sf_ring_take(iov, count, &res))
		return res;
	return writev(fd, iov, count);
}

#endif /* SF_LIBFUSE_CUSTOM_IO */

/* ---- transport.h ---- */

/**
 * sf_transport_setup - route the device's I/O through this file, where
 * libfuse lets it (before 3.18.3, or built with -Denable-custom-io).
 * Elsewhere libfuse reads and writes /dev/fuse itself, and what needs
 * the hooks is off: the token (loop.c), the daemon's own ring, and
 * passthrough where libfuse has none.
 */
int sf_transport_setup(struct sf_fs *fs)
{
#ifdef SF_LIBFUSE_CUSTOM_IO
	static const struct fuse_custom_io io = {
		.read = sf_wire_read,
		.writev = sf_wire_writev,
	};
	int rc = fuse_session_custom_io(fs->se, &io, fuse_session_fd(fs->se));

	if (rc != -ENOTSUP) {
		sf_wire.hooked = rc == 0;
		return rc;
	}
#else
	(void)fs;
#endif
	sf_wire.hooked = false;
	return 0;
}

/* Before the multi-threaded loop: the token, where the hooks pass it. */
int sf_transport_loop_start(void)
{
	return sf_wire.hooked ? sf_loop_start() : 0;
}

void sf_transport_loop_stop(void)
{
	sf_loop_stop();
}

/**
 * sf_transport_init - the INIT callback's part of the transport: ask for
 * passthrough (passthrough.c).  Without the hooks, INIT's request is not
 * seen: what the kernel offers of the ring is libfuse's word (3.18 and
 * later), and the ring's choice is made here.
 */
void sf_transport_init(struct sf_fs *fs, struct fuse_conn_info *conn)
{
	uint64_t offered = 0;

	sf_passthrough_init(fs, conn);
	if (sf_wire.hooked)
		return;
#if HAVE_DECL_FUSE_CAP_OVER_IO_URING
	if (conn->capable & FUSE_CAP_OVER_IO_URING)
		offered |= FUSE_OVER_IO_URING;
#endif
	if (sf_uring_sniff_init(fs, offered, sf_ring_missing(false)))
		sf_ring_init_unseen(fs);
}

const char *sf_transport_fuse_opts(const struct sf_fs *fs)
{
	return sf_ring_fuse_opts(fs);
}

const struct fuse_lowlevel_ops *
sf_transport_ops(const struct fuse_lowlevel_ops *ops, size_t *size)
{
	return sf_ring_ops(ops, size);
}

void sf_transport_settle(void)
{
	sf_ring_settle();
}

void sf_transport_stop(void)
{
	sf_ring_stop();
}

int sf_transport_status(struct sf_fs *fs, char *buf, size_t size)
{
	char transport[200], ring[32], dev[32];
	long n = sf_ring_requests();

	sf_uring_describe(transport, sizeof(transport));
	if (n >= 0)
		snprintf(ring, sizeof(ring), "%ld", n);
	else
		snprintf(ring, sizeof(ring), "not counted");
	if (sf_wire.hooked)
		snprintf(dev, sizeof(dev), "%lu",
			 atomic_load(&sf_wire.requests));
	else
		snprintf(dev, sizeof(dev), "not counted");
	return snprintf(buf, size,
			"passthrough: %s\nbacking files: %lu\n"
			"blocked requests passed over: %lu\n"
			"transport: %s\nio_uring requests: %s\n"
			"/dev/fuse requests: %s\n/dev/fuse hooks: %s\n",
			atomic_load(&fs->pt.active) ? "yes" : "no",
			atomic_load(&fs->pt.backing_open), sf_loop_takeovers(),
			transport, ring, dev,
			sf_wire.hooked ? "yes" : "no (libfuse has no custom "
			"I/O: its own loop reads the device)");
}
