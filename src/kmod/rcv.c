// SPDX-License-Identifier: GPL-2.0-only
/*
 * rcv.c - arriving packets: mainline's smack_socket_sock_rcv_skb(); the
 * label of a socket that TCP clones for an accepted connection, and the
 * CIPSO option of its SYN-ACK (smack_inet_conn_request()).
 *
 * A packet is delivered to a socket only if the packet's label may write
 * to the socket's label.  The packet's label:
 *
 *  - IPv4 with a CIPSO option: the label it decodes to (cipso4.c), "*"
 *    when no label known here matches ("@" for a socket labelled "*");
 *  - IPv4 without one: the ambient label, as mainline gives every
 *    unlabelled packet that no NetLabel static entry names;
 *  - IPv6 TCP, UDP, UDP-Lite or DCCP from any address but ::1: the
 *    ambient label (mainline's port labelling; the module keeps no IPv6
 *    host labels, see net6.c); from ::1 nothing is checked, as mainline.
 *
 * A refused CIPSO packet is answered with ICMP "host prohibited", as
 * mainline does (a TCP connect then fails with EHOSTUNREACH).
 *
 * Loopback while labelling is off (cipso4.c): local sockets send no CIPSO
 * option, so an IPv4 packet that arrives on the loopback device without
 * one was decided when it was sent, by net4.c against this very
 * receiver; it is not decided again.  With labelling on, loopback is
 * decided here alone, as mainline decides it.
 *
 * A socket that TCP clones for a connection (security_sk_clone(), in
 * softirq) takes its listener's label, as mainline's smk_in and smk_out
 * are copied: it receives the connection's packets under that label.
 * Its peer, for SO_PEERSEC (peersec.c), is the label of the SYN, kept
 * in the request as mainline keeps it (peer_secid, with a mark of ours:
 * no other LSM that runs beside the module sets it; one that did would
 * leave no mark, and the connection no peer label).
 *
 * Why not a kprobe like every other hook (probe.c): these run in softirq.
 * kprobes skip a handler when another kprobe handler is running on the
 * CPU, and a softirq can run on top of a task's probe between the moment
 * kprobes marks it running and the moment our handler turns interrupts
 * off: a skipped arrival check would deliver the packet.  So each hook
 * here is an ftrace_ops of its own.  ftrace skips a callback only when it
 * recurses in the same context (task, softirq, hardirq, NMI), which these
 * callbacks never do: they call no function they hook.  A denial is made
 * as probe.c makes it, by returning from the function at its entry.
 */
#include <linux/err.h>
#include <linux/ftrace.h>
#include <linux/icmp.h>
#include <linux/in6.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <linux/ptrace.h>
#include <linux/skbuff.h>
#include <net/icmp.h>
#include <net/inet_sock.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/request_sock.h>
#include <net/sock.h>
#include "smackfuse.h"

#define ARG(n)	regs_get_kernel_argument(regs, (n))

/* The transport protocol of an IPv6 packet past its extension headers. */
static int sf_ipv6_proto(const struct sk_buff *skb)
{
	const struct ipv6hdr *ip6 = ipv6_hdr(skb);
	u8 nexthdr = ip6->nexthdr;
	__be16 frag_off;
	int offset;

	offset = ipv6_skip_exthdr(skb, skb_network_offset(skb) + sizeof(*ip6),
				  &nexthdr, &frag_off);
	return offset < 0 ? -1 : nexthdr;
}

/*
 * The label @skb, arriving at @sk, carries; false when nothing is
 * checked (see the top of the file).  *@cipso: it came with a CIPSO
 * option.
 */
static bool sf_packet_label(const struct sock *sk, const struct sk_buff *skb,
			    sf_lid sock_label, sf_lid *lid, bool *cipso)
{
	int family = sk->sk_family, proto;

	*cipso = false;
	if (family == AF_INET6 && skb->protocol == htons(ETH_P_IP))
		family = AF_INET;
	if (family == AF_INET) {
		if (sf_cipso4_label(skb, lid)) {
			if (*lid == SF_LID_STAR && sock_label == SF_LID_STAR)
				*lid = SF_LID_WEB;
			*cipso = true;
			return true;
		}
		*lid = sf_ambient_get();
		return skb->skb_iif != LOOPBACK_IFINDEX ||
		       sf_cipso4_labelling();
	}
	if (family != AF_INET6 || skb->protocol != htons(ETH_P_IPV6))
		return false;
	proto = sf_ipv6_proto(skb);
	if (proto != IPPROTO_TCP && proto != IPPROTO_UDP &&
	    proto != IPPROTO_UDPLITE && proto != IPPROTO_DCCP)
		return false;
	*lid = sf_ambient_get();
	return !ipv6_addr_loopback(&ipv6_hdr(skb)->saddr);
}

/*
 * A refused CIPSO packet gets an ICMP "host administratively prohibited"
 * back, as mainline's cipso_v4_error() sends it: its options are read
 * again, since the IP control block may be gone above the IP layer.
 */
static void sf_icmp_refused(struct sk_buff *skb)
{
	struct inet_skb_parm parm;
	int rc;

	if (!skb->dev)
		return;
	memset(&parm, 0, sizeof(parm));
	parm.opt.optlen = ip_hdr(skb)->ihl * 4 - sizeof(struct iphdr);
	rcu_read_lock();
	rc = __ip_options_compile(dev_net(skb->dev), &parm.opt, skb, NULL);
	rcu_read_unlock();
	if (!rc)
		__icmp_send(skb, ICMP_DEST_UNREACH, ICMP_HOST_ANO, 0,
			    SF_ICMP_OPTS(&parm));
}

/* security_sock_rcv_skb(sk, skb): 0 delivers, -EACCES drops. */
static int sf_sock_rcv_skb(struct pt_regs *regs)
{
	const struct sock *sk = (const struct sock *)ARG(0);
	struct sk_buff *skb = (struct sk_buff *)ARG(1);
	sf_lid self, packet;
	bool cipso;
	int rc;

	if (sk->sk_family != AF_INET && sk->sk_family != AF_INET6)
		return 0;
	self = sf_ltab_get(&sf_socks, sk);
	if (!sf_packet_label(sk, skb, self, &packet, &cipso))
		return 0;
	rc = sf_check(packet, self, SF_MAY_WRITE, NULL, SF_LID_INVALID,
		      "smack_socket_sock_rcv_skb", NULL);
	if (rc && cipso)
		sf_icmp_refused(skb);
	return rc;
}
NOKPROBE_SYMBOL(sf_sock_rcv_skb);

/* security_sk_clone(sk, newsk): the listener's label, never fails open. */
static int sf_sk_clone(struct pt_regs *regs)
{
	const struct sock *sk = (const struct sock *)ARG(0);
	sf_lid lid;

	if (sk->sk_family != AF_INET && sk->sk_family != AF_INET6)
		return 0;
	lid = sf_ltab_get(&sf_socks, sk);
	if (sf_ltab_set(&sf_socks, (void *)ARG(1), lid, GFP_ATOMIC))
		atomic64_inc(&sf_count.nomem);
	return 0;
}
NOKPROBE_SYMBOL(sf_sk_clone);

/*
 * security_inet_conn_request(sk, skb, req): the SYN-ACK, and the socket
 * TCP then makes, carry the listener's label, as mainline's
 * smack_inet_conn_request() has NetLabel set them (the listener's
 * smk_out); nothing for a peer with a host entry, or while labelling is
 * off (cipso4.c).  Linux's TCP has just copied the SYN's own IP options
 * there, to echo them: a CIPSO option among them (the peer's label) must
 * not go back.  No memory: no connection.
 */
static int sf_inet_conn_request(struct pt_regs *regs)
{
	const struct sock *sk = (const struct sock *)ARG(0);
	const struct sk_buff *skb = (const struct sk_buff *)ARG(1);
	struct inet_request_sock *ireq = inet_rsk((void *)ARG(2));
	struct ip_options_rcu *opt = NULL, *old;
	sf_lid self = sf_ltab_get(&sf_socks, sk), syn;
	bool found, cipso;

	ireq->req.peer_secid = 0;	/* not zeroed at allocation */
	if (sk->sk_family != AF_INET &&
	    (sk->sk_family != AF_INET6 || skb->protocol != htons(ETH_P_IP)))
		return 0;
	if (sf_packet_label(sk, skb, self, &syn, &cipso))
		ireq->req.peer_secid = SF_PEER_SECID(syn);
	if (sf_host4_label(ip_hdr(skb)->saddr, &found) == SF_LID_INVALID ||
	    !found) {	/* no entry, or -CIPSO */
		opt = sf_cipso4_options(self, GFP_ATOMIC);
		if (IS_ERR(opt))
			return PTR_ERR(opt);
	}
	old = rcu_dereference_protected(ireq->ireq_opt, true);
	if (!opt && (!old || !old->opt.cipso))
		return 0;	/* nothing of ours, no CIPSO echoed */
	old = xchg((__force struct ip_options_rcu **)&ireq->ireq_opt, opt);
	if (old)
		kfree_rcu(old, rcu);
	return 0;
}
NOKPROBE_SYMBOL(sf_inet_conn_request);

/* security_inet_csk_clone(newsk, req): the SYN's label is the peer's. */
static int sf_inet_csk_clone(struct pt_regs *regs)
{
	const struct request_sock *req = (const struct request_sock *)ARG(1);
	sf_lid syn = SF_PEER_SECID_LID(req->peer_secid);

	if (syn == SF_LID_INVALID)
		sf_peer_forget((void *)ARG(0));
	else if (sf_peer_set((struct sock *)ARG(0), syn, GFP_ATOMIC))
		atomic64_inc(&sf_count.nomem);
	return 0;
}
NOKPROBE_SYMBOL(sf_inet_csk_clone);

struct sf_rcv_hook {
	const char *symbol;
	int (*check)(struct pt_regs *regs);	/* 0, or the error to return */
	struct ftrace_ops ops;
	bool filtered, registered;
};

static void sf_rcv_call(unsigned long ip, unsigned long parent_ip,
			struct ftrace_ops *ops, struct ftrace_regs *fregs);

#define SF_RCV_HOOK(fn, check_fn)					\
	{ .symbol = SF_PROBE(fn), .check = (check_fn),			\
	  .ops = { .func = sf_rcv_call,					\
		   .flags = FTRACE_OPS_FL_SAVE_REGS |			\
			    FTRACE_OPS_FL_IPMODIFY } }

static struct sf_rcv_hook sf_rcv_hooks[] = {
	SF_RCV_HOOK(security_sock_rcv_skb, sf_sock_rcv_skb),
	SF_RCV_HOOK(security_sk_clone, sf_sk_clone),
	SF_RCV_HOOK(security_inet_conn_request, sf_inet_conn_request),
	SF_RCV_HOOK(security_inet_csk_clone, sf_inet_csk_clone),
};

static void sf_rcv_call(unsigned long ip, unsigned long parent_ip,
			struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	struct sf_rcv_hook *h = container_of(ops, struct sf_rcv_hook, ops);
	struct pt_regs *regs = ftrace_get_regs(fregs);

	/* SAVE_REGS: never NULL; if it were, the call could not be denied */
	if (regs)
		sf_deny(regs, h->check(regs));
}
NOKPROBE_SYMBOL(sf_rcv_call);

void sf_rcv_unregister(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sf_rcv_hooks); i++) {
		struct sf_rcv_hook *h = &sf_rcv_hooks[i];

		if (h->registered)
			unregister_ftrace_function(&h->ops);
		if (h->filtered)	/* frees the hash, leaves the pointer */
			ftrace_free_filter(&h->ops);
		h->registered = false;
		h->filtered = false;
	}
}

/**
 * sf_rcv_register - hook every arrival function, or none
 *
 * Returns 0, or a negative errno after logging which hook failed.
 */
int sf_rcv_register(void)
{
	unsigned int i;
	int rc;

	for (i = 0; i < ARRAY_SIZE(sf_rcv_hooks); i++) {
		struct sf_rcv_hook *h = &sf_rcv_hooks[i];
		char *name = (char *)h->symbol;

		rc = ftrace_set_filter(&h->ops, name, strlen(name), 1);
		h->filtered = true;
		if (!rc)
			rc = register_ftrace_function(&h->ops);
		if (rc) {
			pr_err("smackfuse: cannot hook %s with ftrace: error %d\n",
			       h->symbol, rc);
			sf_rcv_unregister();
			return rc;
		}
		h->registered = true;
	}
	return 0;
}
