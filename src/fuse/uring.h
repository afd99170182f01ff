/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * uring.h - FUSE over io_uring (Linux 6.14+), next to /dev/fuse (uring.c).
 */
#ifndef SF_URING_H
#define SF_URING_H

#include <stddef.h>
#include <sys/types.h>
#include <sys/uio.h>

struct sf_fs;

/* -o uring=auto|off: 0, or -EINVAL for any other value. */
int sf_uring_option(const char *val);

/* loop.c: the INIT request as read from /dev/fuse. */
void sf_uring_sniff_init(struct sf_fs *fs, const char *buf, size_t len);

/* loop.c's writev hook: replies to ring requests go back to the ring,
 * the INIT reply asks for it; everything else goes to /dev/fuse. */
ssize_t sf_uring_writev(int fd, struct iovec *iov, int count,
			void *userdata);

/* After the session loop, once unmounted: stop the queues' threads. */
void sf_uring_stop(void);

/* Before a lock request answers "conflict": let every other queue thread
 * answer what the kernel has handed it (a RELEASE that drops the lock). */
void sf_uring_settle(void);

/* "io_uring (N queues)" or "/dev/fuse (io_uring: why not)". */
void sf_uring_describe(char *buf, size_t size);

/* For the status file: requests that came through the ring. */
unsigned long sf_uring_requests(void);

#endif /* SF_URING_H */
