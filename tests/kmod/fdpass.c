// SPDX-License-Identifier: GPL-2.0-only
/*
 * fdpass.c - one file descriptor over a UNIX stream socket (fdpass.h).
 *
 * The descriptor rides on one byte of data: a stream socket delivers no
 * control message without data to go with it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "fdpass.h"

/* Room for one SCM_RIGHTS message, aligned as a cmsghdr. */
union fdpass_control {
	struct cmsghdr h;
	char buf[CMSG_SPACE(sizeof(int))];
};

int fdpass_send(int s, int fd)
{
	char c = 'x';
	struct iovec iov = { &c, 1 };
	union fdpass_control u;
	struct msghdr m = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct cmsghdr *cm;
	ssize_t n;

	memset(&u, 0, sizeof(u));
	cm = CMSG_FIRSTHDR(&m);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(fd));
	n = sendmsg(s, &m, 0);
	if (n < 0)
		return -errno;
	return n == 1 ? 0 : -EIO;
}

int fdpass_recv(int s)
{
	char c;
	struct iovec iov = { &c, 1 };
	union fdpass_control u;
	struct msghdr m = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct cmsghdr *cm;
	ssize_t n;
	int fd;

	n = recvmsg(s, &m, 0);
	if (n < 0)
		return -errno;
	if (n == 0)
		return -EPIPE;
	cm = CMSG_FIRSTHDR(&m);
	if ((m.msg_flags & MSG_CTRUNC) || !cm || cm->cmsg_type != SCM_RIGHTS)
		return -EACCES;
	memcpy(&fd, CMSG_DATA(cm), sizeof(fd));
	return fd;
}
