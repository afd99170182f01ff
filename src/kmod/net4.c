// SPDX-License-Identifier: GPL-2.0-only
/*
 * net4.c - IPv4: the smackfs "netlabel" file's host labels, and the
 * connect/sendmsg checks (the "ambient" label they fall back to is
 * state.c's, which net6.c reads too).
 *
 * A host (address/prefix) may have a label; the longest matching prefix
 * wins.  Sending or connecting needs write from the socket's label to:
 *
 *  - the host's label, when the address has an entry (as mainline's
 *    smk_ipv4_check(); a "-CIPSO" entry: no local check);
 *  - else, when the socket's packets carry what mainline's would
 *    (sf_on_wire(): labelling on, cipso4.c), nothing here: the receiving
 *    socket decides on arrival (rcv.c), on this host or another;
 *  - else, when the address is on this host (127/8, 0.0.0.0, any local
 *    address), the label of the socket that will receive: the TCP
 *    listener or the UDP socket the kernel's own lookup finds.  Mainline
 *    sends the sender's label in CIPSO over loopback and the receiving
 *    socket checks it (smack_socket_sock_rcv_skb); without labels on the
 *    packets the same check is made before sending.  No receiver:
 *    no check (the kernel refuses the connection itself).  A TCP
 *    handshake also needs write from the listener's label to the
 *    connecting socket's: mainline's client drops the SYN-ACK, which
 *    carries the listener's label, in smack_socket_sock_rcv_skb (and the
 *    connect times out); here connect(2) is refused;
 *  - else the ambient label (floor "_" by default): the packet leaves
 *    unlabelled, and a Smack host reads it as its ambient label.
 *
 * An IPv6 socket sending to an IPv4-mapped address (::ffff:A.B.C.D) is
 * decided as mainline's IPv6 branch decides it (sf_inet_mapped_check());
 * other IPv6 destinations are net6.c's.  As in
 * mainline, CAP_MAC_OVERRIDE does not override these checks.
 */
#include <linux/err.h>
#include <linux/in.h>
#include <linux/net.h>
#include <linux/netdevice.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/socket.h>
#include <linux/string.h>
#include <net/inet_hashtables.h>
#include <net/ipv6.h>
#include <net/ip.h>
#include <net/route.h>
#include <net/sock.h>
#include <net/udp.h>
#include "smackfuse.h"
#include "net4addr.h"

#define ARG(n)	regs_get_kernel_argument(regs, (n))
#define SF_HOSTS_MAX	4096

struct sf_host {
	__be32 addr, mask;
	u8 plen;
	sf_lid label;		/* SF_LID_INVALID: "-CIPSO", no check */
};

struct sf_hosts {
	struct rcu_head rcu;
	u32 n;
	struct sf_host h[];	/* longest prefix first */
};

static struct sf_hosts __rcu *sf_hosts;
static DEFINE_MUTEX(sf_hosts_lock);

/* Label of @addr: the longest matching host entry, else ambient. */
sf_lid sf_host4_label(__be32 addr, bool *found)
{
	const struct sf_hosts *hs;
	sf_lid lid = sf_ambient_get();
	u32 i;

	*found = false;
	rcu_read_lock();
	hs = rcu_dereference(sf_hosts);
	for (i = 0; hs && i < hs->n; i++) {
		if ((addr & hs->h[i].mask) == hs->h[i].addr) {
			lid = hs->h[i].label;
			*found = true;
			break;
		}
	}
	rcu_read_unlock();
	return lid;
}

/* Will the kernel deliver a packet to @daddr on this host? */
static bool sf_local_addr(struct net *net, __be32 daddr)
{
	return !daddr || ipv4_is_loopback(daddr) ||
	       inet_addr_type(net, daddr) == RTN_LOCAL;
}

/*
 * sf_local_peer - the socket a packet from @sk to @daddr:@dport reaches
 * @sk: the sending socket (TCP or UDP)
 *
 * Looked up as for a packet arriving on the loopback device, which is
 * where the kernel delivers local traffic.  An unbound sender's source is
 * not known yet: its destination stands in (it only orders reuseport
 * groups and matches connected receivers).  Caller holds rcu_read_lock():
 * listening TCP and all UDP sockets are freed after a grace period, and
 * the pointer is only used as a key.  NULL: nobody receives there.
 */
static struct sock *sf_local_peer(struct sock *sk, __be32 daddr,
				  __be16 dport)
{
	struct net *net = sock_net(sk);
	__be32 saddr = inet_sk(sk)->inet_saddr;
	__be16 sport = inet_sk(sk)->inet_sport;
	int dif = net->loopback_dev->ifindex;

	if (!daddr)	/* the kernel connects 0.0.0.0 to loopback */
		daddr = htonl(INADDR_LOOPBACK);
	if (!saddr)
		saddr = daddr;
	/* release-X.Y.h */
	if (sk->sk_protocol == IPPROTO_TCP)
		return sf_tcp4_listener(net, saddr, sport, daddr, ntohs(dport),
					dif);
	return sf_udp4_lookup(net, saddr, sport, daddr, dport, dif);
}

/*
 * The label @sk's traffic to @sin must be able to write (see the top of
 * the file); *@check false when there is nothing to check.  *@back is the
 * label of the local TCP listener found there, which must be able to write
 * back to @sk, else SF_LID_INVALID.
 */
/*
 * Does what @sk sends say what mainline's would?  With labelling on, its
 * packets carry its label in CIPSO, or carry none because its label is
 * the ambient one, and the receiving socket decides, here or on another
 * host.  A labelled socket without an option (created before labelling
 * was on, or after a send to a single-label host took it off) sends
 * packets that would arrive as the ambient label: those are still
 * checked here, against the receiver, as while labelling is off.
 */
static bool sf_on_wire(struct sock *sk)
{
	return sf_cipso4_labelling() &&
	       (sf_ltab_get(&sf_socks, sk) == sf_ambient_get() ||
		sf_cipso4_sock_labelled(sk));
}

static sf_lid sf_inet_object(struct sock *sk, const struct sockaddr_in *sin,
			     bool *check, sf_lid *back)
{
	__be32 daddr = sin->sin_addr.s_addr;
	struct sock *peer;
	bool found;
	sf_lid lid = sf_host4_label(daddr, &found);

	*check = !(found && lid == SF_LID_INVALID);	/* -CIPSO */
	*back = SF_LID_INVALID;
	if (found)
		return lid;
	if (sf_on_wire(sk)) {	/* the receiving socket decides (rcv.c) */
		*check = false;
		return lid;
	}
	if (!sf_local_addr(sock_net(sk), daddr))
		return lid;
	if (sk->sk_protocol != IPPROTO_TCP && sk->sk_protocol != IPPROTO_UDP)
		return lid;	/* raw, ping, ...: no one receiver to ask */
	rcu_read_lock();
	peer = sf_local_peer(sk, daddr, sin->sin_port);
	if (peer)
		lid = sf_ltab_get(&sf_socks, peer);
	rcu_read_unlock();
	*check = peer != NULL;
	if (peer && sk->sk_protocol == IPPROTO_TCP)
		*back = lid;
	return lid;
}

/* Does a host entry with a label (not -CIPSO) name @addr? */
static bool sf_host_entry(__be32 addr)
{
	bool found;

	return sf_host4_label(addr, &found) != SF_LID_INVALID && found;
}

static int sf_inet_check(struct sock *sk, const struct sockaddr_in *sin,
			 const char *fn)
{
	bool check;
	sf_lid back, self = sf_ltab_get(&sf_socks, sk);
	sf_lid object = sf_inet_object(sk, sin, &check, &back);
	int rc;

	if (!check || (current->flags & PF_KTHREAD))
		return 0;
	rc = sf_check(self, object, SF_MAY_WRITE, NULL, SF_LID_INVALID, fn,
		      NULL);
	/* a single-label host: its packets leave without CIPSO from now on */
	if (!rc && sf_host_entry(sin->sin_addr.s_addr) &&
	    sk->sk_family == AF_INET)
		sf_cipso4_sock_del(sk);
	if (!rc && back != SF_LID_INVALID)
		rc = sf_check(back, self, SF_MAY_WRITE, NULL, SF_LID_INVALID,
			      "smack_socket_sock_rcv_skb", NULL);
	return rc;
}

/*
 * The IPv4 destination of a connect or send from @sk to @addr (@len
 * bytes): an IPv4 address from an IPv4 socket, or an IPv4-mapped IPv6
 * address (::ffff:A.B.C.D) from an IPv6 socket, which the kernel sends as
 * IPv4.  False for anything else (other IPv6: net6.c).
 */
static bool sf_inet_dest(const struct sock *sk, const void *addr, int len,
			 struct sockaddr_in *sin)
{
	const struct sockaddr_in6 *sin6 = addr;
	const struct sockaddr_in *in = addr;

	if (!sk || !addr)
		return false;
	if (sk->sk_family == AF_INET && len >= (int)sizeof(*in) &&
	    in->sin_family == AF_INET) {
		*sin = *in;
		return true;
	}
	if (sk->sk_family != AF_INET6 || len < (int)sizeof(*sin6) ||
	    sin6->sin6_family != AF_INET6 ||
	    !ipv6_addr_v4mapped(&sin6->sin6_addr))
		return false;
	sin->sin_family = AF_INET;
	sin->sin_port = sin6->sin6_port;
	sin->sin_addr.s_addr = sin6->sin6_addr.s6_addr32[3];
	return true;
}

/*
 * An IPv6 socket's traffic to an IPv4-mapped address, as mainline decides
 * it.  smack_socket_connect() and smack_socket_sendmsg() take their IPv6
 * branch (smk_ipv6_port_check()): the address is not ::1 and no ipv6host
 * entry names it, so the socket must write to the ambient label.  The
 * kernel then sends an IPv4 packet without a CIPSO option (only PF_INET
 * sockets are NetLabel-labelled), which a local receiver reads as the
 * ambient label in smack_socket_sock_rcv_skb(); mainline drops what that
 * check refuses, here the call is refused.  A TCP listener's SYN-ACK
 * carries the listener's own label back, as for IPv4.
 */
static int sf_inet_mapped_check(struct sock *sk, const struct sockaddr_in *sin,
				const char *fn)
{
	sf_lid self = sf_ltab_get(&sf_socks, sk);
	sf_lid ambient = sf_ambient_get();
	sf_lid receiver = SF_LID_INVALID;
	struct sock *peer;
	int rc;

	if (current->flags & PF_KTHREAD)
		return 0;
	rc = sf_check(self, ambient, SF_MAY_WRITE, NULL, SF_LID_INVALID, fn,
		      NULL);
	/* with labelling on, the receiver decides on arrival (rcv.c) */
	if (rc || sf_cipso4_labelling() ||
	    !sf_local_addr(sock_net(sk), sin->sin_addr.s_addr) ||
	    (sk->sk_protocol != IPPROTO_TCP && sk->sk_protocol != IPPROTO_UDP))
		return rc;
	rcu_read_lock();
	peer = sf_local_peer(sk, sin->sin_addr.s_addr, sin->sin_port);
	if (peer)
		receiver = sf_ltab_get(&sf_socks, peer);
	rcu_read_unlock();
	if (receiver == SF_LID_INVALID)
		return 0;
	rc = sf_check(ambient, receiver, SF_MAY_WRITE, NULL, SF_LID_INVALID,
		      "smack_socket_sock_rcv_skb", NULL);
	if (!rc && sk->sk_protocol == IPPROTO_TCP)
		rc = sf_check(receiver, self, SF_MAY_WRITE, NULL,
			      SF_LID_INVALID, "smack_socket_sock_rcv_skb",
			      NULL);
	return rc;
}

/* An IPv4 destination here, any other IPv6 one in net6.c. */
static int sf_inet_dest_check(struct sock *sk, const void *addr, int len,
			      const char *fn)
{
	struct sockaddr_in sin;

	if (!sf_inet_dest(sk, addr, len, &sin))
		return sf_inet6_check(sk, addr, len, fn);
	if (sk->sk_family == AF_INET6)
		return sf_inet_mapped_check(sk, &sin, fn);
	return sf_inet_check(sk, &sin, fn);
}

/* security_socket_connect(sock, address, addrlen) */
static int sf_socket_connect(struct kprobe *kp, struct pt_regs *regs)
{
	struct socket *sock = (struct socket *)ARG(0);

	return sf_deny(regs, sf_inet_dest_check(sock->sk, (void *)ARG(1),
						(int)ARG(2),
						"smack_socket_connect"));
}
NOKPROBE_SYMBOL(sf_socket_connect);

/* security_socket_sendmsg(sock, msg, size): only with a destination. */
static int sf_socket_sendmsg(struct kprobe *kp, struct pt_regs *regs)
{
	struct socket *sock = (struct socket *)ARG(0);
	struct msghdr *msg = (struct msghdr *)ARG(1);

	return sf_deny(regs, sf_inet_dest_check(sock->sk, msg->msg_name,
						msg->msg_namelen,
						"smack_socket_sendmsg"));
}
NOKPROBE_SYMBOL(sf_socket_sendmsg);

/*
 * security_socket_post_create(sock, family, type, protocol, kern): an
 * IPv4 socket carries its label's CIPSO option (cipso4.c), as mainline's
 * smack_socket_post_create() has NetLabel put it there.  A label that
 * cannot be put on the wire refuses the socket.
 */
static int sf_socket_post_create(struct kprobe *kp, struct pt_regs *regs)
{
	struct socket *sock = (struct socket *)ARG(0);
	struct ip_options_rcu *opt;

	if ((int)ARG(1) != AF_INET || !sock->sk)
		return 0;
	opt = sf_cipso4_options(sf_ltab_get(&sf_socks, sock->sk), GFP_ATOMIC);
	if (IS_ERR(opt))
		return sf_deny(regs, PTR_ERR(opt));
	if (opt)
		sf_cipso4_sock_set(sock->sk, opt);
	return 0;
}
NOKPROBE_SYMBOL(sf_socket_post_create);

const struct sf_hook sf_net4_hooks[] = {
	{ SF_PROBE(security_socket_post_create), sf_socket_post_create,
	  false },
	{ SF_PROBE(security_socket_connect), sf_socket_connect, false },
	{ SF_PROBE(security_socket_sendmsg), sf_socket_sendmsg, false },
	{ NULL, NULL, false }
};

/* ---- the netlabel file ---- */

static void sf_hosts_add(struct sf_hosts *hs, const struct sf_net4addr *a)
{
	struct sf_host h = {
		.addr = htonl(a->addr),
		.mask = htonl(a->mask),
		.plen = (u8)a->prefix,
		.label = a->label,
	};
	u32 i, at;

	for (i = 0; i < hs->n; i++) {
		if (hs->h[i].addr == h.addr && hs->h[i].plen == h.plen) {
			hs->h[i].label = h.label;
			return;
		}
	}
	for (at = 0; at < hs->n && hs->h[at].plen >= h.plen; at++)
		;
	memmove(&hs->h[at + 1], &hs->h[at], (hs->n - at) * sizeof(h));
	hs->h[at] = h;
	hs->n++;
}

/*
 * Each non-empty line of @buf (@len bytes, newlines included) read by the
 * core's sf_parse_net4addr(), as a mount's netlabel control file reads
 * its one line: into @hs, or with @hs NULL only checked (no label is
 * interned).  @err's line is the line's number.
 */
static int sf_netlabel_lines(const char *buf, size_t len,
			     struct sf_hosts *hs, struct sf_error *err)
{
	struct sf_labels *labels = hs ? sf_policy_labels(sf_policy) : NULL;
	unsigned int line = 0;
	size_t pos, n;

	for (pos = 0; pos < len; pos += n) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		struct sf_net4addr a;
		int rc;

		n = nl ? (size_t)(nl - buf) - pos + 1 : len - pos;
		line++;
		if (buf[pos] == '\n')
			continue;
		rc = sf_parse_net4addr(labels, buf + pos, n, &a, err);
		if (rc) {
			err->line = line;
			return rc;
		}
		if (hs)
			sf_hosts_add(hs, &a);
	}
	return 0;
}

/**
 * sf_netlabel_write - add or replace host labels, all lines or none
 * @buf: NUL-terminated lines "A.B.C.D[/N] LABEL" ("-CIPSO": no check),
 *	 each as smackfs takes one per write (sf_parse_net4addr())
 * @err: where a bad line is reported
 */
int sf_netlabel_write(char *buf, struct sf_error *err)
{
	struct sf_hosts *old, *hs;
	size_t len = strlen(buf), lines = 1, size, i;
	u32 cap;
	int rc;

	for (i = 0; i < len; i++)
		lines += buf[i] == '\n';
	rc = sf_netlabel_lines(buf, len, NULL, err);
	if (rc)
		return rc;
	mutex_lock(&sf_hosts_lock);
	old = rcu_dereference_protected(sf_hosts,
					lockdep_is_held(&sf_hosts_lock));
	cap = (old ? old->n : 0) + lines;
	if (cap > SF_HOSTS_MAX) {
		err->line = 0;
		err->column = 0;
		strscpy(err->reason, "too many host entries",
			sizeof(err->reason));
		rc = -E2BIG;
		goto out;
	}
	size = struct_size(hs, h, cap);
	hs = kzalloc(size, GFP_KERNEL);
	if (!hs) {
		rc = -ENOMEM;
		goto out;
	}
	if (old) {
		memcpy(hs->h, old->h, old->n * sizeof(old->h[0]));
		hs->n = old->n;
	}
	rc = sf_netlabel_lines(buf, len, hs, err);	/* only -ENOMEM now */
	if (rc) {
		kfree(hs);
		goto out;
	}
	rcu_assign_pointer(sf_hosts, hs);
	if (old)
		kfree_rcu(old, rcu);
out:
	mutex_unlock(&sf_hosts_lock);
	return rc;
}

size_t sf_netlabel_print(char *buf, size_t size)
{
	const struct sf_labels *labels = sf_policy_labels(sf_policy);
	const struct sf_hosts *hs;
	size_t len = 0;
	u32 i;

	rcu_read_lock();
	hs = rcu_dereference(sf_hosts);
	for (i = 0; hs && i < hs->n; i++) {
		const struct sf_host *h = &hs->h[i];
		const char *name = h->label == SF_LID_INVALID ? "-CIPSO" :
				   sf_label_name(labels, h->label);

		len += snprintf(buf + (len < size ? len : size),
				len < size ? size - len : 0,
				"%pI4/%u %s\n", &h->addr, h->plen, name);
	}
	rcu_read_unlock();
	return len;
}

void sf_net4_exit(void)
{
	struct sf_hosts *hs = rcu_dereference_protected(sf_hosts, true);

	RCU_INIT_POINTER(sf_hosts, NULL);
	kfree_rcu(hs, rcu);
}
