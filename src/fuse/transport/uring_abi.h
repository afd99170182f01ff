/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * uring_abi.h - the kernel's FUSE-over-io_uring ABI (protocol 7.42,
 * Linux 6.14, include/uapi/linux/fuse.h), for C libraries whose
 * <linux/fuse.h> predates it (Debian 12's is 7.38).  A newer header wins:
 * FUSE_OVER_IO_URING is defined there with the same structures.
 */
#ifndef SF_URING_ABI_H
#define SF_URING_ABI_H

#include <linux/fuse.h>
#include <stdint.h>

#ifndef FUSE_OVER_IO_URING
#define FUSE_OVER_IO_URING	(1ULL << 41)	/* INIT flags, in flags2 */

#define FUSE_URING_IN_OUT_HEADER_SZ	128
#define FUSE_URING_OP_IN_OUT_SZ		128

/* The end of every entry's header buffer, both ways. */
struct fuse_uring_ent_in_out {
	uint64_t flags;
	uint64_t commit_id;	/* the request's unique */
	uint32_t payload_sz;	/* bytes used in the payload buffer */
	uint32_t padding;
	uint64_t reserved;
};

/* iov[0] of a REGISTER: fuse_in_header, then fuse_out_header, in in_out;
 * the request's first (per-opcode) argument in op_in. */
struct fuse_uring_req_header {
	char in_out[FUSE_URING_IN_OUT_HEADER_SZ];
	char op_in[FUSE_URING_OP_IN_OUT_SZ];
	struct fuse_uring_ent_in_out ring_ent_in_out;
};

/* sqe->cmd_op of an IORING_OP_URING_CMD on /dev/fuse. */
enum fuse_uring_cmd {
	FUSE_IO_URING_CMD_INVALID = 0,
	FUSE_IO_URING_CMD_REGISTER = 1,
	FUSE_IO_URING_CMD_COMMIT_AND_FETCH = 2,
};

/* In the 80-byte command area of a 128-byte SQE. */
struct fuse_uring_cmd_req {
	uint64_t flags;
	uint64_t commit_id;	/* COMMIT_AND_FETCH: the reply's unique */
	uint16_t qid;		/* the queue: a CPU number */
	uint8_t padding[6];
};
#endif /* FUSE_OVER_IO_URING */

/* fs/fuse/fuse_i.h: the kernel's smallest payload buffer. */
#define SF_FUSE_MIN_READ_BUFFER	8192
/* fs/fuse/fuse_i.h: max_pages when INIT does not set it. */
#define SF_FUSE_DEFAULT_MAX_PAGES	32

#endif /* SF_URING_ABI_H */
