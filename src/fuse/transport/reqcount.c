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

static const char *const sf_opnames[SF_OPCODES] = {
	[FUSE_LOOKUP] = "LOOKUP", [FUSE_FORGET] = "FORGET",
	[FUSE_GETATTR] = "GETATTR", [FUSE_SETATTR] = "SETATTR",
	[FUSE_READLINK] = "READLINK", [FUSE_SYMLINK] = "SYMLINK",
	[FUSE_MKNOD] = "MKNOD", [FUSE_MKDIR] = "MKDIR",
	[FUSE_UNLINK] = "UNLINK", [FUSE_RMDIR] = "RMDIR",
	[FUSE_RENAME] = "RENAME", [FUSE_LINK] = "LINK",
	[FUSE_OPEN] = "OPEN", [FUSE_READ] = "READ", [FUSE_WRITE] = "WRITE",
	[FUSE_STATFS] = "STATFS", [FUSE_RELEASE] = "RELEASE",
	[FUSE_FSYNC] = "FSYNC", [FUSE_SETXATTR] = "SETXATTR",
	[FUSE_GETXATTR] = "GETXATTR", [FUSE_LISTXATTR] = "LISTXATTR",
	[FUSE_REMOVEXATTR] = "REMOVEXATTR", [FUSE_FLUSH] = "FLUSH",
	[FUSE_INIT] = "INIT", [FUSE_OPENDIR] = "OPENDIR",
	[FUSE_READDIR] = "READDIR", [FUSE_RELEASEDIR] = "RELEASEDIR",
	[FUSE_FSYNCDIR] = "FSYNCDIR", [FUSE_GETLK] = "GETLK",
	[FUSE_SETLK] = "SETLK", [FUSE_SETLKW] = "SETLKW",
	[FUSE_ACCESS] = "ACCESS", [FUSE_CREATE] = "CREATE",
	[FUSE_INTERRUPT] = "INTERRUPT", [FUSE_BMAP] = "BMAP",
	[FUSE_DESTROY] = "DESTROY", [FUSE_IOCTL] = "IOCTL",
	[FUSE_POLL] = "POLL", [FUSE_NOTIFY_REPLY] = "NOTIFY_REPLY",
	[FUSE_BATCH_FORGET] = "BATCH_FORGET",
	[FUSE_FALLOCATE] = "FALLOCATE", [FUSE_READDIRPLUS] = "READDIRPLUS",
	[FUSE_RENAME2] = "RENAME2", [FUSE_LSEEK] = "LSEEK",
	[FUSE_COPY_FILE_RANGE] = "COPY_FILE_RANGE",
	[FUSE_SETUPMAPPING] = "SETUPMAPPING",
	[FUSE_REMOVEMAPPING] = "REMOVEMAPPING", [FUSE_SYNCFS] = "SYNCFS",
	[FUSE_TMPFILE] = "TMPFILE",
};

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
