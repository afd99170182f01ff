// SPDX-License-Identifier: GPL-2.0-only
/*
 * net6.c - IPv6 destinations of connect and sendmsg, decided as mainline's
 * port labelling decides them (smk_ipv6_port_check(), what Smack does
 * when built without CONFIG_SECURITY_SMACK_NETFILTER, the default).
 *
 * An IPv6 socket that connects or sends to an IPv6 address needs write
 * from its label to:
 *
 *  - for ::1, the label of the local socket bound to that port with the
 *    same type (mainline keeps a list of the ports IPv6 sockets bind);
 *    here the TCP listener or the UDP socket the kernel's own lookup
 *    finds, as for a packet arriving on loopback.  If there is none, the
 *    ambient label, as mainline does for a port nobody bound;
 *  - for any other address, the ambient label: mainline checks a host's
 *    label from ipv6host, and the module keeps no IPv6 host labels, so
 *    every IPv6 host is unlabelled.
 *
 * Unlike IPv4 (net4.c) nothing is checked back from the listener: mainline
 * lets every local IPv6 packet in (smk_ipv6_port_check() with
 * SMK_RECEIVING).  IPv4-mapped addresses (::ffff:A.B.C.D) go out as IPv4
 * and are net4.c's.  As in mainline, CAP_MAC_OVERRIDE does not override.
 */
#include <linux/in6.h>
#include <linux/net.h>
#include <linux/netdevice.h>
#include <linux/sched.h>
#include <linux/socket.h>
#include <net/inet6_hashtables.h>
#include <net/ipv6.h>
#include <net/sock.h>
#include <net/udp.h>
#include "smackfuse.h"

/*
 * The socket bound to @daddr's port that a packet from @sk would reach on
 * loopback, or NULL.  Caller holds rcu_read_lock() (see net4.c's
 * sf_local_peer(): the pointer is only used as a key).
 */
static struct sock *sf_local_peer6(struct sock *sk,
				   const struct sockaddr_in6 *daddr)
{
	struct net *net = sock_net(sk);
	const struct in6_addr *saddr = &sk->sk_v6_rcv_saddr;
	__be16 sport = inet_sk(sk)->inet_sport;
	int dif = net->loopback_dev->ifindex;

	if (ipv6_addr_any(saddr))	/* unbound: the destination stands in */
		saddr = &daddr->sin6_addr;
	/* release-X.Y.h */
	if (sk->sk_protocol == IPPROTO_TCP)
		return sf_tcp6_listener(net, saddr, sport, &daddr->sin6_addr,
					ntohs(daddr->sin6_port), dif);
	if (sk->sk_protocol == IPPROTO_UDP)
		return sf_udp6_lookup(net, saddr, sport, &daddr->sin6_addr,
				      daddr->sin6_port, dif);
	return NULL;	/* raw, ping, ...: no port to have bound */
}

/* The label @sk's traffic to @sin6 must be able to write (see above). */
static sf_lid sf_inet6_object(struct sock *sk,
			      const struct sockaddr_in6 *sin6)
{
	sf_lid lid = sf_ambient_get();
	struct sock *peer;

	if (!ipv6_addr_loopback(&sin6->sin6_addr))
		return lid;
	rcu_read_lock();
	peer = sf_local_peer6(sk, sin6);
	if (peer)
		lid = sf_ltab_get(&sf_socks, peer);
	rcu_read_unlock();
	return lid;
}

/**
 * sf_inet6_check - decide a connect or send from @sk to @addr (@len bytes)
 * @fn: the mainline function, for the audit line
 *
 * Returns 0 or -EACCES; 0 too when @addr is no IPv6 destination of an
 * IPv6 socket, or an IPv4-mapped one (net4.c decides those).
 */
int sf_inet6_check(struct sock *sk, const void *addr, int len,
		   const char *fn)
{
	const struct sockaddr_in6 *sin6 = addr;

	if (!sk || !addr || sk->sk_family != AF_INET6 ||
	    len < SIN6_LEN_RFC2133 || sin6->sin6_family != AF_INET6 ||
	    ipv6_addr_v4mapped(&sin6->sin6_addr) ||
	    (current->flags & PF_KTHREAD))
		return 0;
	return sf_check(sf_ltab_get(&sf_socks, sk), sf_inet6_object(sk, sin6),
			SF_MAY_WRITE, NULL, SF_LID_INVALID, fn, NULL);
}
