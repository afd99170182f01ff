// SPDX-License-Identifier: GPL-2.0-only
/*
 * reqcount.c - requests by type, for the status file: how many LOOKUPs,
 * GETATTRs, ... the kernel has sent, so that a benchmark can say what
 * one operation costs in requests (bench/requests.sh).  Counted where
 * the daemon reads a request itself (wire.c's hooks on /dev/fuse, its
 * own ring); where libfuse reads them (libfuse 3.18.3 and later without
 * custom I/O, libfuse's ring) nothing is counted and the status says so.
 */
#include <linux/fuse.h>
#include <stdatomic.h>
#include <stdio.h>

#include "smackfuse.h"
#include "wire.h"

#define SF_OPCODES	52	/* FUSE_TMPFILE is 51 */

static atomic_ulong sf_reqs[SF_OPCODES + 1];	/* the last: any other */
static atomic_bool sf_reqs_seen;

/* Each opcode's name is its <linux/fuse.h> name without FUSE_. */
#define SF_OP(op) [FUSE_##op] = #op
static const char *const sf_opnames[SF_OPCODES] = {
	SF_OP(LOOKUP), SF_OP(FORGET), SF_OP(GETATTR), SF_OP(SETATTR),
	SF_OP(READLINK), SF_OP(SYMLINK), SF_OP(MKNOD), SF_OP(MKDIR),
	SF_OP(UNLINK), SF_OP(RMDIR), SF_OP(RENAME), SF_OP(LINK), SF_OP(OPEN),
	SF_OP(READ), SF_OP(WRITE), SF_OP(STATFS), SF_OP(RELEASE), SF_OP(FSYNC),
	SF_OP(SETXATTR), SF_OP(GETXATTR), SF_OP(LISTXATTR), SF_OP(REMOVEXATTR),
	SF_OP(FLUSH), SF_OP(INIT), SF_OP(OPENDIR), SF_OP(READDIR),
	SF_OP(RELEASEDIR), SF_OP(FSYNCDIR), SF_OP(GETLK), SF_OP(SETLK),
	SF_OP(SETLKW), SF_OP(ACCESS), SF_OP(CREATE), SF_OP(INTERRUPT),
	SF_OP(BMAP), SF_OP(DESTROY), SF_OP(IOCTL), SF_OP(POLL),
	SF_OP(NOTIFY_REPLY), SF_OP(BATCH_FORGET), SF_OP(FALLOCATE),
	SF_OP(READDIRPLUS), SF_OP(RENAME2), SF_OP(LSEEK),
	SF_OP(COPY_FILE_RANGE), SF_OP(SETUPMAPPING), SF_OP(REMOVEMAPPING),
	SF_OP(SYNCFS), SF_OP(TMPFILE),
};
#undef SF_OP

/* A request of @opcode was read (by wire.c or the daemon's own ring). */
void sf_reqcount(uint32_t opcode)
{
	uint32_t i = opcode < SF_OPCODES && sf_opnames[opcode] ? opcode :
		     SF_OPCODES;

	atomic_fetch_add_explicit(&sf_reqs[i], 1, memory_order_relaxed);
	if (!atomic_load_explicit(&sf_reqs_seen, memory_order_relaxed))
		atomic_store(&sf_reqs_seen, true);
}

/* The status line: "requests: GETATTR 12 LOOKUP 3 ..." in opcode order,
 * types never seen left out. */
int sf_reqcount_status(struct sf_fs *fs, char *buf, size_t size)
{
	size_t n = 0;
	unsigned long v;
	uint32_t i;
	int r;

	(void)fs;
	if (!atomic_load(&sf_reqs_seen))
		return snprintf(buf, size, "requests: not counted (libfuse "
				"reads them)\n");
	r = snprintf(buf, size, "requests:");
	for (i = 0; r >= 0 && i <= SF_OPCODES; i++) {
		n += (size_t)r;
		v = atomic_load_explicit(&sf_reqs[i], memory_order_relaxed);
		r = !v ? 0 : snprintf(n < size ? buf + n : NULL,
				      n < size ? size - n : 0, " %s %lu",
				      i < SF_OPCODES ? sf_opnames[i] : "OTHER",
				      v);
	}
	if (r < 0)
		return r;
	n += (size_t)r;
	r = snprintf(n < size ? buf + n : NULL, n < size ? size - n : 0,
		     "\n");
	return r < 0 ? r : (int)(n + (size_t)r);
}
