// SPDX-License-Identifier: GPL-2.0-only
/*
 * personality.c - a read made under credentials other than the task's own.
 *
 *   personality UID:GID PATH
 *
 * Run as root.  Registers an io_uring personality of UID:GID without
 * capabilities (the task drops to them, registers, and takes root back),
 * then reads PATH through IORING_OP_OPENAT with that personality: the
 * kernel, and so the FUSE request, sees UID:GID without capabilities,
 * while the task's /proc/PID/status (its objective credentials, which a
 * daemon reads) still shows root with every capability.  Prints "OK" or
 * the errno's name of the open, or "SKIP why" when io_uring or the
 * personality cannot be had.
 *
 * Mainline Smack decides on the subjective credentials: no
 * CAP_MAC_OVERRIDE for such a read.  So must smackfuse: a caller's status
 * that does not show the request's fs uid is not the caller's (subject.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *errname(int err)
{
	return err ? strerrorname_np(err) : "OK";
}

/* The personality of @uid:@gid with no capabilities, or a negative errno. */
static int register_as(struct io_uring *ring, uid_t uid, gid_t gid)
{
	int id;

	/* The saved uid stays 0, so root can be taken back below. */
	if (setgroups(0, NULL) || setresgid(gid, gid, 0) ||
	    setresuid(uid, uid, 0))
		return -errno;
	id = io_uring_register_personality(ring);
	if (setresuid(0, 0, 0) || setresgid(0, 0, 0)) {
		perror("personality: back to root");
		exit(2);
	}
	return id;
}

static int open_as(struct io_uring *ring, int id, const char *path)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
	struct io_uring_cqe *cqe;
	int rc;

	io_uring_prep_openat(sqe, AT_FDCWD, path, O_RDONLY, 0);
	sqe->personality = (unsigned short)id;
	rc = io_uring_submit(ring);
	if (rc < 0)
		return rc;
	rc = io_uring_wait_cqe(ring, &cqe);
	if (rc < 0)
		return rc;
	rc = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	if (rc >= 0)
		close(rc);
	return rc < 0 ? rc : 0;
}

int main(int argc, char **argv)
{
	struct io_uring ring;
	unsigned int uid, gid;
	int id, rc;

	if (argc != 3 || sscanf(argv[1], "%u:%u", &uid, &gid) != 2) {
		fprintf(stderr, "usage: personality UID:GID PATH\n");
		return 2;
	}
	rc = io_uring_queue_init(4, &ring, 0);
	if (rc < 0) {
		printf("SKIP io_uring: %s\n", strerror(-rc));
		return 0;
	}
	id = register_as(&ring, uid, gid);
	if (id < 0) {
		printf("SKIP personality: %s\n", strerror(-id));
		return 0;
	}
	rc = open_as(&ring, id, argv[2]);
	printf("%s\n", errname(-rc));
	io_uring_queue_exit(&ring);
	return 0;
}
