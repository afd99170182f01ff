// SPDX-License-Identifier: GPL-2.0-only
/*
 * rcvpeer - does a packet reach its socket?  A guest helper for rcv.test
 * (static, run under smackrun for a label).  ADDR is IPv4, or IPv6 when
 * it has a colon.
 *
 *   rcvpeer udp-recv ADDR PORT SECS     bind, wait SECS for one datagram:
 *                                       prints "got" or "none"
 *   rcvpeer udp-opts ADDR PORT SECS     the same, and prints the IPv4
 *                                       options it came with (IP_RECVOPTS;
 *                                       a CIPSO option without the padding)
 *                                       in hex after "got", "-" for none
 *   rcvpeer udp-sec ADDR PORT SECS      udp-opts, and the datagram's label
 *                                       (IP_PASSSEC: SCM_SECURITY) after
 *                                       the options: " sec=LABEL", or
 *                                       " sec=-" without one
 *   rcvpeer udp-send ADDR PORT [HEX]    one datagram; HEX: IPv4 options
 *                                       (IP_OPTIONS, e.g. a CIPSO option;
 *                                       needs CAP_NET_RAW)
 *   rcvpeer tcp-accept ADDR PORT SECS   listen, wait SECS for a connection
 *                                       and its first byte: "got" or "none"
 *   rcvpeer tcp-send ADDR PORT SECS [HEX]  connect within SECS, send a byte
 *   rcvpeer udp-send-when ADDR PORT FILE  make the socket, wait (60 s at
 *                                       most) until FILE exists, then send
 *                                       one datagram
 *   rcvpeer udp-count ADDR PORT SECS    bind, count datagrams until none
 *                                       came for SECS: prints the count
 *   rcvpeer udp-flood ADDR PORT N       N datagrams: prints how many left
 *   rcvpeer tcp-peer ADDR PORT SECS     tcp-accept, and "got" says the
 *                                       accepted socket's SO_PEERSEC:
 *                                       "got peer=LABEL" ("peer=" for an
 *                                       empty one, "peer=!ERRNO" for none)
 *                                       and the IPv4 options it sends
 *                                       (IP_OPTIONS: its CIPSO option) in
 *                                       hex, "opts=-" for none
 *   rcvpeer tcp-send-peer ADDR PORT SECS  tcp-send, and "OK peer=..." the
 *                                       connected socket's SO_PEERSEC
 *   rcvpeer unix-peers ADDR PORT        SO_PEERSEC of both ends of a UNIX
 *                                       stream connected here (abstract
 *                                       address; ADDR and PORT name it)
 *                                       and of a socketpair's, and the
 *                                       SCM_SECURITY of a datagram sent
 *                                       over a datagram socketpair
 *
 * Receivers stop at SIGTERM too, after a last look (see readable()).
 * Senders print "OK" or the errno's name (ETIMEDOUT when the handshake did
 * not finish in SECS).  Exit 0 when the step ran, 1 on a usage or setup
 * error (with a message).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>

#ifndef SCM_SECURITY
#define SCM_SECURITY	0x03	/* linux/socket.h; glibc has no name for it */
#endif

static int fail(const char *what)
{
	fprintf(stderr, "rcvpeer: %s: %s\n", what, strerror(errno));
	return 1;
}

/* SO_PEERSEC of @fd as " peer=LABEL", " peer=" or " peer=!ERRNO". */
static void print_peer(int fd)
{
	char label[256];
	socklen_t len = sizeof(label) - 1;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERSEC, label, &len)) {
		printf(" peer=!%s", errno == ENOPROTOOPT ? "ENOPROTOOPT" :
		       strerror(errno));
		return;
	}
	label[len < sizeof(label) ? len : sizeof(label) - 1] = '\0';
	printf(" peer=%s", label);
}

/* The IPv4 options @fd sends, as " opts=HEX" (the CIPSO option's own
 * bytes, without the padding) or " opts=-". */
static void print_sent_opts(int fd)
{
	unsigned char o[40];
	socklen_t i, n = sizeof(o);

	if (getsockopt(fd, IPPROTO_IP, IP_OPTIONS, o, &n))
		n = 0;
	if (n > 1 && o[0] == 134 && o[1] <= n)
		n = o[1];
	printf(" opts=");
	for (i = 0; i < n; i++)
		printf("%02x", o[i]);
	if (!n)
		printf("-");
}

static int outcome(int err)
{
	puts(err == 0 ? "OK" : err == EACCES ? "EACCES" :
	     err == EPERM ? "EPERM" : err == ETIMEDOUT ? "ETIMEDOUT" :
	     err == ECONNREFUSED ? "ECONNREFUSED" :
	     err == EHOSTUNREACH ? "EHOSTUNREACH" : strerror(err));
	return 0;
}

/* An IPv4 or an IPv6 address (one with a colon) and a port. */
union addr {
	struct sockaddr sa;
	struct sockaddr_in in;
	struct sockaddr_in6 in6;
};

static socklen_t addr_len(const union addr *a)
{
	return a->sa.sa_family == AF_INET6 ? sizeof(a->in6) : sizeof(a->in);
}

static int address(const char *a, const char *port, union addr *sin)
{
	unsigned short p = htons((unsigned short)atoi(port));

	memset(sin, 0, sizeof(*sin));
	if (strchr(a, ':')) {
		sin->in6.sin6_family = AF_INET6;
		sin->in6.sin6_port = p;
		if (inet_pton(AF_INET6, a, &sin->in6.sin6_addr) == 1)
			return 0;
	} else {
		sin->in.sin_family = AF_INET;
		sin->in.sin_port = p;
		if (inet_pton(AF_INET, a, &sin->in.sin_addr) == 1)
			return 0;
	}
	fprintf(stderr, "rcvpeer: %s: not an address\n", a);
	return -1;
}

/* IP_OPTIONS from hex text; 0, or -1 with a message. */
static int ip_options(int fd, const char *hex)
{
	unsigned char opt[40];
	size_t n = 0;
	unsigned int b;

	if (!hex)
		return 0;
	while (hex[0] && hex[1] && n < sizeof(opt) &&
	       sscanf(hex, "%2x", &b) == 1) {
		opt[n++] = (unsigned char)b;
		hex += 2;
	}
	if (*hex) {
		fprintf(stderr, "rcvpeer: bad option hex at \"%s\"\n", hex);
		return -1;
	}
	if (setsockopt(fd, IPPROTO_IP, IP_OPTIONS, opt, n))
		return fail("IP_OPTIONS");
	return 0;
}

/*
 * The test ends a receiver with SIGTERM once its sender is done: a wait
 * that long needs no guess of how slow the guest is.  The receiver then
 * takes one last look, and reports what had arrived.
 */
static volatile sig_atomic_t stopped;

static void on_term(int sig)
{
	(void)sig;
	stopped = 1;
}

/* Is @fd readable within @secs, or at once after SIGTERM? */
static int readable(int fd, int secs)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int rc = stopped ? 0 : poll(&p, 1, secs * 1000);

	if (rc < 0 && errno == EINTR)
		rc = 0;
	if (rc == 0 && stopped)
		rc = poll(&p, 1, 0);
	return rc == 1;
}

/* Wait @secs for @fd to be readable and read a byte: 1 got, 0 none. */
static int got_within(int fd, int secs)
{
	char c[64];

	if (!readable(fd, secs))
		return 0;
	return recv(fd, c, sizeof(c), MSG_DONTWAIT) > 0;
}

/* " sec=LABEL" from an SCM_SECURITY message, " sec=-" without one. */
static void print_sec(struct msghdr *msg)
{
	struct cmsghdr *c;

	for (c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR(msg, c)) {
		if (c->cmsg_type != SCM_SECURITY ||
		    (c->cmsg_level != IPPROTO_IP && c->cmsg_level != SOL_SOCKET))
			continue;
		printf(" sec=%.*s", (int)(c->cmsg_len - CMSG_LEN(0)),
		       (char *)CMSG_DATA(c));
		return;
	}
	printf(" sec=-");
}

/* One datagram within @secs, its IP options in hex (and, @sec, its
 * label). */
static int got_opts_within(int fd, int secs, int sec)
{
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(40) + CMSG_SPACE(256)];
	} control;
	char data[64];
	struct iovec iov = { .iov_base = data, .iov_len = sizeof(data) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = control.buf, .msg_controllen = sizeof(control.buf),
	};
	struct cmsghdr *c;
	size_t i, n;
	int opts = 0;

	if (!readable(fd, secs) || recvmsg(fd, &msg, MSG_DONTWAIT) < 0)
		return 0;
	printf("got ");
	for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
		if (c->cmsg_level != IPPROTO_IP || c->cmsg_type != IP_RECVOPTS)
			continue;
		n = c->cmsg_len - CMSG_LEN(0);
		/* a CIPSO option first: its own bytes, not the padding */
		if (n > 1 && CMSG_DATA(c)[0] == 134 && CMSG_DATA(c)[1] <= n)
			n = CMSG_DATA(c)[1];
		for (i = 0; i < n; i++)
			printf("%02x", CMSG_DATA(c)[i]);
		opts = n > 0;
	}
	printf("%s", opts ? "" : "-");
	if (sec)
		print_sec(&msg);
	puts("");
	return 1;
}

static int bound(int type, const union addr *sin)
{
	int fd = socket(sin->sa.sa_family, type, 0), one = 1;

	if (fd < 0)
		return fail("socket");
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, &sin->sa, addr_len(sin)))
		return -fail("bind");
	if (type == SOCK_STREAM && listen(fd, 4))
		return -fail("listen");
	return fd;
}

static int receive(int type, const union addr *sin, int secs,
		   int opts, int peer)
{
	int fd = bound(type, sin), c, got, one = 1;

	if (fd < 0)
		return 1;
	if (opts && setsockopt(fd, IPPROTO_IP, IP_RECVOPTS, &one, sizeof(one)))
		return fail("IP_RECVOPTS");
	if (opts > 1 && setsockopt(fd, IPPROTO_IP, IP_PASSSEC, &one, sizeof(one)))
		return fail("IP_PASSSEC");
	printf("ready\n");
	fflush(stdout);
	if (opts) {
		if (!got_opts_within(fd, secs, opts > 1))
			puts("none");
		return 0;
	} else if (type == SOCK_DGRAM) {
		got = got_within(fd, secs);
	} else {
		got = 0;
		if (readable(fd, secs)) {
			c = accept(fd, NULL, NULL);
			got = c >= 0 && got_within(c, secs);
			if (got && peer) {
				printf("got");
				print_peer(c);
				print_sent_opts(c);
				puts("");
				return 0;
			}
		}
	}
	puts(got ? "got" : "none");
	return 0;
}

/* A datagram over a UNIX socketpair: its SCM_SECURITY (" dgram ..."). */
static int unix_dgram_sec(void)
{
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(256)];
	} control;
	char data[8];
	struct iovec iov = { .iov_base = data, .iov_len = sizeof(data) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = control.buf, .msg_controllen = sizeof(control.buf),
	};
	int pair[2], one = 1;

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, pair) ||
	    setsockopt(pair[1], SOL_SOCKET, SO_PASSSEC, &one, sizeof(one)))
		return fail("datagram socketpair");
	if (send(pair[0], "x", 1, 0) != 1 || recvmsg(pair[1], &msg, 0) != 1)
		return fail("datagram over the socketpair");
	printf(" dgram");
	print_sec(&msg);
	puts("");
	return 0;
}

/*
 * A UNIX stream connected to a listener here, and a socketpair: what
 * SO_PEERSEC says at each end ("connect accept pair"); then a datagram's
 * SCM_SECURITY.
 */
static int unix_peers(const char *addr, const char *port)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int l, c, a, pair[2];
	socklen_t len;

	len = offsetof(struct sockaddr_un, sun_path) + 1 +
	      snprintf(sun.sun_path + 1, sizeof(sun.sun_path) - 1,
		       "rcvpeer-%s-%s", addr, port);
	l = socket(AF_UNIX, SOCK_STREAM, 0);
	c = socket(AF_UNIX, SOCK_STREAM, 0);
	if (l < 0 || c < 0 || bind(l, (struct sockaddr *)&sun, len) ||
	    listen(l, 1))
		return fail("unix listener");
	if (connect(c, (struct sockaddr *)&sun, len))
		return outcome(errno);
	a = accept(l, NULL, NULL);
	if (a < 0)
		return fail("accept");
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair))
		return fail("socketpair");
	printf("connect");
	print_peer(c);
	printf(" accept");
	print_peer(a);
	printf(" pair");
	print_peer(pair[0]);
	return unix_dgram_sec();
}

static int count(const union addr *sin, int secs)
{
	int fd = bound(SOCK_DGRAM, sin), rcv = 1 << 22;
	long n = 0;

	if (fd < 0)
		return 1;
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcv, sizeof(rcv));
	printf("ready\n");
	fflush(stdout);
	while (got_within(fd, secs))
		n++;
	printf("%ld\n", n);
	return 0;
}

static int flood(const union addr *sin, long n)
{
	int fd = socket(sin->sa.sa_family, SOCK_DGRAM, 0);
	long i, sent = 0;

	if (fd < 0)
		return fail("socket");
	for (i = 0; i < n; i++)
		sent += sendto(fd, "x", 1, 0, &sin->sa, addr_len(sin)) == 1;
	printf("%ld\n", sent);
	return 0;
}

static int send_one(int type, const union addr *sin, int secs,
		    const char *hex, const char *when, int peer)
{
	int i;

	int fd = socket(sin->sa.sa_family, type, 0), err = 0;
	struct pollfd p;
	socklen_t len = sizeof(err);

	if (fd < 0)
		return fail("socket");
	if (ip_options(fd, hex))
		return 1;
	for (i = 0; when && access(when, F_OK) && i < 1200; i++)
		usleep(50 * 1000);	/* udp-send-when */
	if (type == SOCK_DGRAM) {
		if (sendto(fd, "x", 1, 0, &sin->sa, addr_len(sin)) < 0)
			err = errno;
		return outcome(err);
	}
	fcntl(fd, F_SETFL, O_NONBLOCK);
	if (connect(fd, &sin->sa, addr_len(sin)) &&
	    errno != EINPROGRESS)
		return outcome(errno);
	p.fd = fd;
	p.events = POLLOUT;
	if (poll(&p, 1, secs * 1000) != 1)
		return outcome(ETIMEDOUT);
	getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
	if (!err && send(fd, "x", 1, 0) < 0)
		err = errno;
	if (!err)
		usleep(200 * 1000);	/* the byte leaves before the close */
	if (!err && peer) {
		printf("OK");
		print_peer(fd);
		puts("");
		return 0;
	}
	return outcome(err);
}

int main(int argc, char **argv)
{
	union addr sin;
	const char *op = argc > 1 ? argv[1] : "";
	int udp = !strncmp(op, "udp", 3);
	int type = udp ? SOCK_DGRAM : SOCK_STREAM;
	struct sigaction sa = { .sa_handler = on_term };	/* no SA_RESTART */

	sigaction(SIGTERM, &sa, NULL);

	if (!strcmp(op, "unix-peers") && argc == 4)
		return unix_peers(argv[2], argv[3]);
	if (argc < 4 || address(argv[2], argv[3], &sin)) {
		fprintf(stderr, "usage: rcvpeer OP ADDR PORT ... (see rcvpeer.c)\n");
		return 1;
	}
	if (!strcmp(op, "udp-recv") && argc == 5)
		return receive(type, &sin, atoi(argv[4]), 0, 0);
	if (!strcmp(op, "udp-opts") && argc == 5)
		return receive(type, &sin, atoi(argv[4]), 1, 0);
	if (!strcmp(op, "udp-sec") && argc == 5)
		return receive(type, &sin, atoi(argv[4]), 2, 0);
	if (!strcmp(op, "tcp-accept") && argc == 5)
		return receive(type, &sin, atoi(argv[4]), 0, 0);
	if (!strcmp(op, "tcp-peer") && argc == 5)
		return receive(type, &sin, atoi(argv[4]), 0, 1);
	if (!strcmp(op, "udp-count") && argc == 5)
		return count(&sin, atoi(argv[4]));
	if (!strcmp(op, "udp-flood") && argc == 5)
		return flood(&sin, atol(argv[4]));
	if (!strcmp(op, "udp-send-when") && argc == 5)
		return send_one(type, &sin, 0, NULL, argv[4], 0);
	if (!strcmp(op, "udp-send") && argc <= 5)
		return send_one(type, &sin, 0, argc == 5 ? argv[4] : NULL,
				NULL, 0);
	if (!strcmp(op, "tcp-send") && (argc == 5 || argc == 6))
		return send_one(type, &sin, atoi(argv[4]),
				argc == 6 ? argv[5] : NULL, NULL, 0);
	if (!strcmp(op, "tcp-send-peer") && argc == 5)
		return send_one(type, &sin, atoi(argv[4]), NULL, NULL, 1);
	fprintf(stderr, "rcvpeer: unknown operation %s\n", op);
	return 1;
}
