// SPDX-License-Identifier: GPL-2.0-only
/*
 * hooks_net.c - socket labels, and the UNIX domain socket checks (the IPv4
 * host checks are in net4.c; the peer labels SO_PEERSEC reads, peersec.c).
 *
 * A socket takes the label of the task that creates it (mainline sets
 * both smk_in and smk_out to it).  A stream connect needs write from the
 * connecting socket to the listener and back (mainline checks both ways);
 * a datagram send (or connect) needs write to the receiver.  Privilege
 * (CAP_MAC_OVERRIDE) skips the check, as in mainline.
 */
#include <linux/net.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/socket.h>
#include <net/sock.h>
#include "smackfuse.h"

#define ARG(n)	regs_get_kernel_argument(regs, (n))

/*
 * security_sk_alloc(sk, family, priority): UNIX, IPv4 and IPv6 sockets
 * made by a task (not the ones TCP clones in softirq, which stay floor).
 */
static int sf_sk_alloc(struct kprobe *kp, struct pt_regs *regs)
{
	if (!sf_sk_labelled((int)ARG(1)))
		return 0;
	/* a missed sk_free may have left a freed socket's peer here */
	sf_peer_forget((void *)ARG(0));
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
		sf_peer_forget(sk);
	}
	return 0;
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

#define SF_HOOK(name)	{ SF_PROBE(security_##name), sf_##name, false }

const struct sf_hook sf_net_hooks[] = {
	SF_HOOK(sk_alloc),
	{ SF_PROBE(security_sk_free), sf_sk_free, true },
	SF_HOOK(unix_stream_connect),
	SF_HOOK(unix_may_send),
	{ NULL, NULL, false }
};
