// SPDX-License-Identifier: GPL-2.0-only
/*
 * hooks_net.c - socket labels, the UNIX domain socket checks (the IPv4
 * host checks are in net4.c), and the peer label SO_PEERSEC reads.
 *
 * A socket takes the label of the task that creates it (mainline sets
 * both smk_in and smk_out to it).  A stream connect needs write from the
 * connecting socket to the listener and back (mainline checks both ways);
 * a datagram send (or connect) needs write to the receiver.  Privilege
 * (CAP_MAC_OVERRIDE) skips the check, as in mainline.
 *
 * SO_PEERSEC on a UNIX, IPv4 or IPv6 socket gives the peer's label as
 * mainline's smack_socket_getpeersec_stream() does: each end of a UNIX
 * stream (connect or socketpair) the other's, an accepted TCP connection
 * its SYN's (rcv.c), any other socket "".  The kernel's own LSM answers
 * first; the module answers only where none has an answer (ENOPROTOOPT:
 * AppArmor has none for these sockets on 6.1 and 6.12, and for IPv4 and
 * IPv6 on 7.x), so that a program that reads another LSM's peer context
 * (dbus reads AppArmor's) still gets it.
 */
#include <linux/errno.h>
#include <linux/net.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/socket.h>
#include <linux/sockptr.h>
#include <linux/uaccess.h>
#include <net/sock.h>
#include "smackfuse.h"

#define ARG(n)	regs_get_kernel_argument(regs, (n))

/* IPv6 sockets too: a dual-stack one receives IPv4 (see net4.c). */
static bool sf_sk_labelled(int family)
{
	return family == AF_UNIX || family == AF_INET || family == AF_INET6;
}

/*
 * security_sk_alloc(sk, family, priority): UNIX, IPv4 and IPv6 sockets
 * made by a task (not the ones TCP clones in softirq, which stay floor).
 */
static int sf_sk_alloc(struct kprobe *kp, struct pt_regs *regs)
{
	if (!sf_sk_labelled((int)ARG(1)))
		return 0;
	/* a missed sk_free may have left a freed socket's peer here */
	sf_ltab_del(&sf_peers, (void *)ARG(0));
	if (!in_task())
		return 0;
	return sf_deny(regs, sf_ltab_set_creator(&sf_socks, (void *)ARG(0)));
}
NOKPROBE_SYMBOL(sf_sk_alloc);

/* security_sk_free(sk) */
static int sf_sk_free(struct kprobe *kp, struct pt_regs *regs)
{
	struct sock *sk = (struct sock *)ARG(0);

	if (sf_sk_labelled(sk->sk_family)) {
		sf_ltab_del(&sf_socks, sk);
		sf_ltab_del(&sf_peers, sk);
	}
	return 0;
}

/*
 * A peer's label is kept with a mark, so that a peer labelled floor (the
 * tables' "no entry") is told from no peer at all.
 */
int sf_peer_set(const struct sock *sk, sf_lid lid, gfp_t gfp)
{
	return sf_ltab_set(&sf_peers, sk, SF_PEER_SECID(lid), gfp);
}
NOKPROBE_SYMBOL(sf_peer_set);

sf_lid sf_peer_get(const struct sock *sk)
{
	return SF_PEER_SECID_LID(sf_ltab_get(&sf_peers, sk));
}
NOKPROBE_SYMBOL(sf_sk_free);

static bool sf_net_privileged(void)
{
	return (current->flags & PF_KTHREAD) ||
	       sf_privileged(current_cred(), CAP_MAC_OVERRIDE,
			     sf_task_label(current));
}

static int sf_sock_write(const struct sock *from, const struct sock *to,
			 const char *fn)
{
	return sf_check(sf_ltab_get(&sf_socks, from),
			sf_ltab_get(&sf_socks, to), SF_MAY_WRITE, NULL,
			SF_LID_INVALID, fn, NULL);
}

/*
 * A connected UNIX stream: the connecting socket's peer is the listener,
 * the new socket's the connecting one.  No memory: no connection (the
 * peer would read as none).
 */
static int sf_unix_peers(struct sock *sk, struct sock *other,
			 struct sock *newsk)
{
	int rc = sf_peer_set(newsk, sf_ltab_get(&sf_socks, sk), GFP_ATOMIC);

	return rc ? rc : sf_peer_set(sk, sf_ltab_get(&sf_socks, other),
				     GFP_ATOMIC);
}

/* security_unix_stream_connect(sock, other, newsk) */
static int sf_unix_stream_connect(struct kprobe *kp, struct pt_regs *regs)
{
	struct sock *sk = (struct sock *)ARG(0);
	struct sock *other = (struct sock *)ARG(1);
	int rc;

	if (sf_net_privileged())
		return sf_deny(regs, sf_unix_peers(sk, other,
						   (struct sock *)ARG(2)));
	rc = sf_sock_write(sk, other, "smack_unix_stream_connect");
	if (!rc)
		rc = sf_sock_write(other, sk, "smack_unix_stream_connect");
	if (!rc)
		rc = sf_unix_peers(sk, other, (struct sock *)ARG(2));
	return sf_deny(regs, rc);
}
NOKPROBE_SYMBOL(sf_unix_stream_connect);

/* security_unix_may_send(sock, other): struct socket, not struct sock. */
static int sf_unix_may_send(struct kprobe *kp, struct pt_regs *regs)
{
	struct socket *sock = (struct socket *)ARG(0);
	struct socket *other = (struct socket *)ARG(1);

	if (sf_net_privileged())
		return 0;
	return sf_deny(regs, sf_sock_write(sock->sk, other->sk,
					   "smack_unix_may_send"));
}
NOKPROBE_SYMBOL(sf_unix_may_send);

/* security_socket_socketpair(socka, sockb): each end's peer is the other. */
static int sf_socket_socketpair(struct kprobe *kp, struct pt_regs *regs)
{
	struct sock *a = ((struct socket *)ARG(0))->sk;
	struct sock *b = ((struct socket *)ARG(1))->sk;
	int rc;

	if (!sf_sk_labelled(a->sk_family))
		return 0;
	rc = sf_peer_set(a, sf_ltab_get(&sf_socks, b), GFP_ATOMIC);
	if (!rc)
		rc = sf_peer_set(b, sf_ltab_get(&sf_socks, a), GFP_ATOMIC);
	return sf_deny(regs, rc);
}
NOKPROBE_SYMBOL(sf_socket_socketpair);

/* SO_PEERSEC's answer for @sk: its peer's label and a NUL, or "". */
static int sf_peersec_copy(const struct sock *sk, SF_PEERSEC_OUT_PARAMS)
{
	char line[SF_LABEL_LINE] = "";
	sf_lid peer = sf_peer_get(sk);
	int slen = 1;
	int rc = 0;

	if (peer != SF_LID_INVALID) {
		slen = (int)sf_label_line(peer, line);
		if (!slen)	/* a peer label no longer in the policy */
			return -ENOPROTOOPT;
		line[slen - 1] = '\0';
	}
	if ((unsigned int)slen > len)
		rc = -ERANGE;
	else if (sf_peersec_out(optval, line, slen))
		rc = -EFAULT;
	if (sf_peersec_out(optlen, &slen, sizeof(slen)))
		rc = -EFAULT;
	return rc;
}

unsigned long sf_getpeersec_stream_body;

/*
 * Runs instead of security_socket_getpeersec_stream(), in its caller's
 * context (copying out may fault): the kernel's LSMs first.
 */
static int sf_getpeersec_stream_divert(SF_PEERSEC_PARAMS)
{
	int (*body)(SF_PEERSEC_PARAMS) = (void *)sf_getpeersec_stream_body;
	int rc = body(SF_PEERSEC_ARGS);

	if (rc == -ENOPROTOOPT && sf_sk_labelled(sock->sk->sk_family))
		rc = sf_peersec_copy(sock->sk, optval, optlen, len);
	sf_divert_done();
	return rc;
}

/* security_socket_getpeersec_stream(sock, optval, optlen, len) */
static int sf_socket_getpeersec_stream(struct kprobe *kp, struct pt_regs *regs)
{
	return sf_divert(regs, (unsigned long)sf_getpeersec_stream_divert);
}
NOKPROBE_SYMBOL(sf_socket_getpeersec_stream);

#define SF_HOOK(name)	{ SF_PROBE(security_##name), sf_##name, false }

const struct sf_hook sf_net_hooks[] = {
	SF_HOOK(sk_alloc),
	{ SF_PROBE(security_sk_free), sf_sk_free, true },
	SF_HOOK(unix_stream_connect),
	SF_HOOK(unix_may_send),
	SF_HOOK(socket_socketpair),
	{ SF_PROBE(security_socket_getpeersec_stream),
	  sf_socket_getpeersec_stream, false, &sf_getpeersec_stream_body },
	{ NULL, NULL, false }
};
