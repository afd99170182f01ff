// SPDX-License-Identifier: GPL-2.0-only
/*
 * smackpeer - with which Smack label does a labelled task's loopback UDP
 * datagram arrive?  A guest helper for smackhost.test (static, runs as
 * root in the Smack reference kernel).
 *
 *   smackpeer [-o] SENDER RECEIVER
 *
 * A receiver task labelled RECEIVER and a sender task labelled SENDER,
 * both then uid nobody (no CAP_MAC_OVERRIDE: the kernel's Smack decides
 * the delivery), exchange one datagram over 127.0.0.1.  Prints the label
 * the packet carried as the receiver's kernel saw it (IP_PASSSEC,
 * SCM_SECURITY), or "none" when Smack did not deliver it; with -o, then
 * a blank and the packet's CIPSO option in hex (from IP_RECVOPTS: what
 * the kernel's Smack put on the wire), "-" if none.  Exit 0 when
 * the exchange ran, 1 on a setup error (with a message).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>

#define NOBODY 65534
#ifndef SCM_SECURITY
#define SCM_SECURITY 0x03	/* linux/socket.h; IP_PASSSEC's cmsg type */
#endif

/* Become a task labelled @label without privilege. */
static int become(const char *label)
{
	int fd = open("/proc/self/attr/current", O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, label, strlen(label));
	close(fd);
	if (n != (ssize_t)strlen(label))
		return -1;
	return setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY) ?
	       -1 : 0;
}

/* The CIPSO option (type 134) among @len option bytes at @p, as hex
 * into @hex (at least 81 bytes); unchanged if there is none. */
static void to_hex(const unsigned char *p, size_t len, char *hex)
{
	size_t at = 0, i, olen;

	while (at < len && p[at] != 0) {
		if (p[at] == 1) {		/* NOP */
			at++;
			continue;
		}
		if (at + 1 >= len || p[at + 1] < 2 || at + p[at + 1] > len)
			return;
		olen = p[at + 1];
		if (p[at] == 134) {
			for (i = 0; i < olen; i++)
				sprintf(hex + 2 * i, "%02x", p[at + i]);
			return;
		}
		at += olen;
	}
}

/* The label of the datagram on @rx, into @out, or "none" after 3 s;
 * its IP options into @hex ("-": none). */
static int receive(int rx, char *out, size_t size, char *hex)
{
	char cbuf[CMSG_SPACE(256) + CMSG_SPACE(40)], data[64];
	struct iovec iov = { data, sizeof(data) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = cbuf,
			     .msg_controllen = sizeof(cbuf) };
	struct pollfd pfd = { .fd = rx, .events = POLLIN };
	struct cmsghdr *cm;
	size_t len;

	snprintf(out, size, "none");
	strcpy(hex, "-");
	if (poll(&pfd, 1, 3000) != 1)
		return 0;
	if (recvmsg(rx, &mh, 0) < 0)
		return -1;
	snprintf(out, size, "(no SCM_SECURITY)");
	for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
		len = cm->cmsg_len - CMSG_LEN(0);
		if (cm->cmsg_level == SOL_IP && cm->cmsg_type == IP_RECVOPTS &&
		    len)
			to_hex(CMSG_DATA(cm), len, hex);
		if (cm->cmsg_level != SOL_IP || cm->cmsg_type != SCM_SECURITY)
			continue;
		if (len >= size)
			len = size - 1;
		memcpy(out, CMSG_DATA(cm), len);
		out[len] = '\0';
		out[strcspn(out, "\n")] = '\0';
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct sockaddr_in to = { .sin_family = AF_INET };
	socklen_t tolen = sizeof(to);
	int ready[2], rx, tx, one = 1, status;
	char label[300], hex[96];
	bool opts = false;
	pid_t pid;

	if (argc == 4 && strcmp(argv[1], "-o") == 0) {
		opts = true;
		argv++;
		argc--;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: smackpeer [-o] SENDER RECEIVER\n");
		return 1;
	}
	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (pipe(ready))
		return perror("smackpeer: pipe"), 1;
	pid = fork();
	if (pid < 0)
		return perror("smackpeer: fork"), 1;
	if (pid == 0) {		/* the sender, once the receiver is bound */
		close(ready[1]);
		if (read(ready[0], &to, sizeof(to)) != sizeof(to))
			_exit(1);
		if (become(argv[1]))
			_exit(2);
		tx = socket(AF_INET, SOCK_DGRAM, 0);
		if (tx < 0 || sendto(tx, "smackpeer", 9, 0,
				     (struct sockaddr *)&to, tolen) != 9)
			_exit(3);
		_exit(0);
	}
	close(ready[0]);
	if (become(argv[2])) {
		perror("smackpeer: cannot take the receiver's label");
		return 1;
	}
	rx = socket(AF_INET, SOCK_DGRAM, 0);
	if (rx < 0 || bind(rx, (struct sockaddr *)&to, tolen) ||
	    getsockname(rx, (struct sockaddr *)&to, &tolen) ||
	    setsockopt(rx, SOL_IP, IP_PASSSEC, &one, sizeof(one)) ||
	    setsockopt(rx, SOL_IP, IP_RECVOPTS, &one, sizeof(one))) {
		perror("smackpeer: receiver socket");
		return 1;
	}
	if (write(ready[1], &to, sizeof(to)) != sizeof(to))
		return perror("smackpeer: pipe write"), 1;
	if (receive(rx, label, sizeof(label), hex)) {
		perror("smackpeer: recvmsg");
		return 1;
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "smackpeer: the sender failed (%d)\n", status);
		return 1;
	}
	if (opts)
		printf("%s %s\n", label, hex);
	else
		printf("%s\n", label);
	return 0;
}
