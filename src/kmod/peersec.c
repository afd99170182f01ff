// SPDX-License-Identifier: GPL-2.0-only
/*
 * peersec.c - the labels a socket's reader is told: SO_PEERSEC (the
 * peer of a stream, mainline's smack_socket_getpeersec_stream()) and
 * SCM_SECURITY (the sender of a datagram, smack_socket_getpeersec_dgram()
 * with smack_secid_to_secctx()).  Not checks: what the module answers.
 *
 * The peer of a stream: at each end of a UNIX stream (connect, in
 * hooks_net.c, or socketpair) the other end's label; on a socket TCP
 * accepted, the label of its SYN (rcv.c, through the request's
 * peer_secid); on any other socket the empty string.
 *
 * The sender of a datagram: an IPv4 packet's label (its CIPSO option's,
 * or the ambient label: rcv.c reads it the same way), a UNIX datagram's
 * sending socket's label.  The kernel hands a datagram's label around as
 * a security id and turns that into text with security_secid_to_secctx():
 * ours carry a mark (SF_PEER_SECID) that no other LSM's ids have, and the
 * text we give out is ours to free (security_release_secctx()).
 *
 * The kernel's own LSM answers first: the module answers only where that
 * one has no answer (ENOPROTOOPT), so that a program reading another
 * LSM's peer context (dbus reads AppArmor's) still gets it.  Every hook
 * here diverts its call (deny.c) to a function that runs the LSM's answer
 * first; a missed probe leaves the LSM's answer alone, never a check
 * undone.
 */
#include <linux/errno.h>
#include <linux/net.h>
#include <linux/ptrace.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/socket.h>
#include <linux/sockptr.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <net/sock.h>
#include "smackfuse.h"

#define ARG(n)	regs_get_kernel_argument(regs, (n))

/* ---- the peer of a stream ---- */

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

void sf_peer_forget(const struct sock *sk)
{
	sf_ltab_del(&sf_peers, sk);
}
NOKPROBE_SYMBOL(sf_peer_forget);

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

/* @lid's name without its newline into @line; its length, 0 for none. */
static size_t sf_peersec_name(sf_lid lid, char *line)
{
	size_t n = sf_label_line(lid, line);

	if (n)
		line[--n] = '\0';
	return n;
}

/* SO_PEERSEC's answer for @sk: its peer's label and a NUL, or "". */
static int sf_peersec_copy(const struct sock *sk, SF_PEERSEC_OUT_PARAMS)
{
	char line[SF_LABEL_LINE] = "";
	sf_lid peer = sf_peer_get(sk);
	int slen = 1;
	int rc = 0;

	if (peer != SF_LID_INVALID) {
		slen = (int)sf_peersec_name(peer, line) + 1;
		if (slen == 1)	/* a peer label no longer in the policy */
			return -ENOPROTOOPT;
	}
	if ((unsigned int)slen > len)
		rc = -ERANGE;
	else if (sf_peersec_out(optval, line, slen))
		rc = -EFAULT;
	if (sf_peersec_out(optlen, &slen, sizeof(slen)))
		rc = -EFAULT;
	return rc;
}

static unsigned long sf_getpeersec_stream_body;

/*
 * Runs instead of security_socket_getpeersec_stream(), in its caller's
 * context (copying out may fault).
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

/* ---- the sender of a datagram ---- */

/*
 * The label a datagram came with: an IPv4 packet's (@skb), or the
 * sending UNIX socket's (@sock, no @skb: af_unix asks at send).  False
 * for any other (mainline has none for IPv6 without secmarks).
 */
static bool sf_dgram_label(const struct socket *sock,
			   const struct sk_buff *skb, sf_lid *lid)
{
	if (skb) {
		if (skb->protocol != htons(ETH_P_IP))
			return false;
		if (!sf_cipso4_label(skb, lid))
			*lid = sf_ambient_get();
		return true;
	}
	if (!sock || !sock->sk || sock->sk->sk_family != AF_UNIX)
		return false;
	*lid = sf_ltab_get(&sf_socks, sock->sk);
	return true;
}

static unsigned long sf_getpeersec_dgram_body;

static int sf_getpeersec_dgram_divert(struct socket *sock,
				      struct sk_buff *skb, u32 *secid)
{
	int (*body)(struct socket *, struct sk_buff *, u32 *) =
		(void *)sf_getpeersec_dgram_body;
	int rc = body(sock, skb, secid);
	sf_lid lid;

	if (rc == -ENOPROTOOPT && sf_dgram_label(sock, skb, &lid)) {
		*secid = SF_PEER_SECID(lid);
		rc = 0;
	}
	sf_divert_done();
	return rc;
}

/* security_socket_getpeersec_dgram(sock, skb, secid) */
static int sf_socket_getpeersec_dgram(struct kprobe *kp, struct pt_regs *regs)
{
	return sf_divert(regs, (unsigned long)sf_getpeersec_dgram_divert);
}
NOKPROBE_SYMBOL(sf_socket_getpeersec_dgram);

/*
 * The text of one of our ids: a copy of the label's name that the
 * caller releases (recorded in sf_secctxs until then), or only its
 * length when the caller asks for no text.
 */
static int sf_secctx_of(sf_lid lid, SF_SECCTX_PARAMS)
{
	char line[SF_LABEL_LINE], *text = NULL;
	size_t n = sf_peersec_name(lid, line);

	if (!n)
		return -EINVAL;
	if (sf_secctx_wanted(SF_SECCTX_ARGS)) {
		text = kmemdup(line, n + 1, GFP_ATOMIC);
		if (!text)
			return -ENOMEM;
		if (sf_ltab_set(&sf_secctxs, text, SF_PEER_SECID(lid),
				GFP_ATOMIC)) {
			kfree(text);
			return -ENOMEM;
		}
	}
	return sf_secctx_give(SF_SECCTX_ARGS, text, n);
}

static unsigned long sf_secid_to_secctx_body;

static int sf_secid_to_secctx_divert(SF_SECCTX_PARAMS)
{
	int (*body)(SF_SECCTX_PARAMS) = (void *)sf_secid_to_secctx_body;
	sf_lid lid = SF_PEER_SECID_LID(secid);
	int rc;

	if (lid == SF_LID_INVALID)
		rc = body(SF_SECCTX_ARGS);
	else
		rc = sf_secctx_of(lid, SF_SECCTX_ARGS);
	sf_divert_done();
	return rc;
}

/* security_secid_to_secctx(): any caller, any context; ours are marked. */
static int sf_secid_to_secctx(struct kprobe *kp, struct pt_regs *regs)
{
	return sf_divert(regs, (unsigned long)sf_secid_to_secctx_divert);
}
NOKPROBE_SYMBOL(sf_secid_to_secctx);

static unsigned long sf_release_secctx_body;

static void sf_release_secctx_divert(SF_RELCTX_PARAMS)
{
	void (*body)(SF_RELCTX_PARAMS) = (void *)sf_release_secctx_body;
	char *text = sf_relctx_text(SF_RELCTX_ARGS);

	if (text && sf_ltab_get(&sf_secctxs, text) != SF_LID_FLOOR) {
		sf_ltab_del(&sf_secctxs, text);
		kfree(text);
		sf_relctx_clear(SF_RELCTX_ARGS);
	} else {
		body(SF_RELCTX_ARGS);
	}
	sf_divert_done();
}

/* security_release_secctx(): ours are the texts sf_secctxs holds. */
static int sf_release_secctx(struct kprobe *kp, struct pt_regs *regs)
{
	return sf_divert(regs, (unsigned long)sf_release_secctx_divert);
}
NOKPROBE_SYMBOL(sf_release_secctx);

/*
 * cleanup: a missed probe leaves the kernel's LSM to answer, as without
 * the module; nothing is let through.
 */
const struct sf_hook sf_peersec_hooks[] = {
	{ SF_PROBE(security_socket_socketpair), sf_socket_socketpair, true },
	{ SF_PROBE(security_socket_getpeersec_stream),
	  sf_socket_getpeersec_stream, true, &sf_getpeersec_stream_body },
	{ SF_PROBE(security_socket_getpeersec_dgram),
	  sf_socket_getpeersec_dgram, true, &sf_getpeersec_dgram_body },
	{ SF_PROBE(security_secid_to_secctx), sf_secid_to_secctx, true,
	  &sf_secid_to_secctx_body },
	{ SF_PROBE(security_release_secctx), sf_release_secctx, true,
	  &sf_release_secctx_body },
	{ NULL, NULL, false }
};
