// SPDX-License-Identifier: GPL-2.0-only
/*
 * cipso4.c - the smackfs "doi", "direct", "mapped" and "cipso2" files,
 * and the label that an arriving IPv4 packet's CIPSO option carries.
 *
 * The mapping is the shared core's (cipso.h), so a packet decodes here to
 * what smacknl and a smackfuse mount's control files say it carries, and
 * to what a Smack host meant (smack_from_secattr()).  It is published
 * whole under RCU: a writer copies it, changes the copy and swaps it in,
 * so the arrival check (rcv.c, softirq) reads one consistent mapping and
 * never waits.
 *
 * Outgoing labels: once the "doi" file has been written (the admin's word
 * that the kernel's NetLabel holds that DOI, as "smacknl smack-setup"
 * makes it: a kernel without it drops every CIPSO packet that arrives),
 * an IPv4 socket whose label is not the ambient label carries the CIPSO
 * option of its label in its IP options (inet_opt), as mainline's
 * netlbl_sock_setattr() puts it there; every packet it sends carries it.
 * Before that no packet leaves labelled.
 */
#include <linux/err.h>
#include <linux/ip.h>
#include <linux/kernel.h>
#include <net/inet_connection_sock.h>
#include <net/inet_sock.h>
#include <net/sock.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "cipso.h"
#include "smackfuse.h"

struct sf_cmap {
	struct rcu_head rcu;
	struct sf_cipso_map map;
};

static struct sf_cmap __rcu *sf_cmap;
static DEFINE_MUTEX(sf_cmap_lock);
static bool sf_labelling;	/* the doi file was written */

static void sf_cmap_free(struct sf_cmap *c)
{
	if (c) {
		sf_cipso_map_release(&c->map);
		kfree(c);
	}
}

static void sf_cmap_free_rcu(struct rcu_head *head)
{
	sf_cmap_free(container_of(head, struct sf_cmap, rcu));
}

/*
 * The mapping in force, or the defaults in @def before any write.  Caller
 * holds rcu_read_lock() while it reads the result.
 */
static const struct sf_cipso_map *sf_cmap_get(struct sf_cipso_map *def)
{
	const struct sf_cmap *c = rcu_dereference(sf_cmap);

	sf_cipso_map_init(def);
	return c ? &c->map : def;
}

/* A private copy of the mapping in force (the defaults before any). */
static struct sf_cmap *sf_cmap_copy(const struct sf_cmap *old)
{
	struct sf_cmap *c = kzalloc(sizeof(*c), GFP_KERNEL);
	u32 i;

	if (!c)
		return NULL;
	sf_cipso_map_init(&c->map);
	if (!old)
		return c;
	c->map.doi = old->map.doi;
	c->map.direct = old->map.direct;
	c->map.mapped = old->map.mapped;
	for (i = 0; i < old->map.nrules; i++) {
		if (sf_cipso_map_set(&c->map, &old->map.rules[i])) {
			sf_cmap_free(c);
			return NULL;
		}
	}
	return c;
}

/*
 * Change the mapping with @change(@map, @arg), all or nothing: the copy
 * is published only when @change returns 0.
 */
static int sf_cmap_update(int (*change)(struct sf_cipso_map *map,
					const void *arg),
			  const void *arg)
{
	struct sf_cmap *old, *c;
	int rc;

	mutex_lock(&sf_cmap_lock);
	old = rcu_dereference_protected(sf_cmap,
					lockdep_is_held(&sf_cmap_lock));
	c = sf_cmap_copy(old);
	rc = c ? change(&c->map, arg) : -ENOMEM;
	if (rc) {
		sf_cmap_free(c);
	} else {
		rcu_assign_pointer(sf_cmap, c);
		if (old)
			call_rcu(&old->rcu, sf_cmap_free_rcu);
	}
	mutex_unlock(&sf_cmap_lock);
	return rc;
}

static int sf_cmap_add_rule(struct sf_cipso_map *map, const void *arg)
{
	return sf_cipso_map_set(map, arg);
}

/**
 * sf_cipso2_write - one smackfs "cipso2" record ("label L N C1 ... CN")
 * @err: where a bad record is reported
 *
 * Returns 0, or -EINVAL/-EOVERFLOW (with @err) or -ENOMEM; the mapping in
 * force changes only on success.
 */
int sf_cipso2_write(const char *buf, size_t len, struct sf_error *err)
{
	struct sf_cipso_rule rule;
	int rc;

	rc = sf_parse_cipso2(sf_policy_labels(sf_policy), buf, len, &rule,
			     err);
	return rc ? rc : sf_cmap_update(sf_cmap_add_rule, &rule);
}

struct sf_cmap_number {
	enum sf_cipso_number which;
	u32 value;
};

static int sf_cmap_set_number(struct sf_cipso_map *map, const void *arg)
{
	const struct sf_cmap_number *n = arg;

	switch (n->which) {
	case SF_CIPSO_DOI:
		if (!n->value)	/* CIPSO_V4_DOI_UNKNOWN */
			return -EINVAL;
		map->doi = n->value;
		return 0;
	case SF_CIPSO_DIRECT:
	case SF_CIPSO_MAPPED:
		if (n->value > SF_CIPSO_MAXLEVEL)
			return -ERANGE;
		/* one level for both would make arrivals ambiguous */
		if (n->value == (n->which == SF_CIPSO_DIRECT ? map->mapped :
							       map->direct))
			return -EINVAL;
		if (n->which == SF_CIPSO_DIRECT)
			map->direct = (u8)n->value;
		else
			map->mapped = (u8)n->value;
		return 0;
	}
	return -EINVAL;
}

/* The "doi", "direct" or "mapped" value; 0 or -EINVAL, -ERANGE. */
int sf_cipso_number_set(enum sf_cipso_number which, u32 value)
{
	struct sf_cmap_number n = { .which = which, .value = value };
	int rc = sf_cmap_update(sf_cmap_set_number, &n);

	if (!rc && which == SF_CIPSO_DOI)
		WRITE_ONCE(sf_labelling, true);
	return rc;
}

/* Do IPv4 sockets labelled other than ambient send CIPSO options? */
bool sf_cipso4_labelling(void)
{
	return READ_ONCE(sf_labelling);
}

/**
 * sf_cipso4_options - the IP options of a socket labelled @lid
 * @gfp: for the allocation
 *
 * A new struct ip_options_rcu holding @lid's CIPSO option, as
 * cipso_v4_sock_setattr() lays it out (padded to 4 bytes, the option
 * first); NULL when the socket sends none (labelling is off, or @lid is
 * the ambient label, which mainline maps to unlabelled); ERR_PTR(-ENOMEM)
 * or ERR_PTR(-EINVAL) for a label that cannot be encoded, which the
 * caller refuses: a labelled socket never sends unlabelled.
 */
struct ip_options_rcu *sf_cipso4_options(sf_lid lid, gfp_t gfp)
{
	const struct sf_labels *labels = sf_policy_labels(sf_policy);
	u8 buf[SF_CIPSO_OPT_MAX];
	struct sf_cipso_attr attr;
	struct ip_options_rcu *opt;
	const struct sf_cipso_map *map;
	struct sf_cipso_map def;
	const char *name;
	int len = -EINVAL;

	if (!sf_cipso4_labelling() || lid == sf_ambient_get())
		return NULL;
	name = sf_label_name(labels, lid);
	rcu_read_lock();
	map = sf_cmap_get(&def);
	if (name && !sf_cipso_encode(map, lid, name, strlen(name), &attr))
		len = sf_cipso_option_build(map->doi, &attr, buf, sizeof(buf));
	rcu_read_unlock();
	if (len <= 0)
		return ERR_PTR(-EINVAL);
	opt = kzalloc(sizeof(*opt) + ALIGN(len, 4), gfp);
	if (!opt)
		return ERR_PTR(-ENOMEM);
	memcpy(opt->opt.__data, buf, len);
	opt->opt.optlen = ALIGN(len, 4);
	opt->opt.cipso = sizeof(struct iphdr);
	return opt;
}

/* Does @sk carry a CIPSO option (ours, or one set with IP_OPTIONS)? */
bool sf_cipso4_sock_labelled(struct sock *sk)
{
	const struct ip_options_rcu *opt;
	bool labelled;

	rcu_read_lock();
	opt = rcu_dereference(inet_sk(sk)->inet_opt);
	labelled = opt && opt->opt.cipso;
	rcu_read_unlock();
	return labelled;
}

/* TCP accounts for its IP options in every segment's size. */
static void sf_sock_opt_len(struct sock *sk, int delta)
{
	if (sk->sk_protocol == IPPROTO_TCP && sk->sk_type == SOCK_STREAM)
		inet_csk(sk)->icsk_ext_hdr_len += delta;
}

/*
 * Put @opt (from sf_cipso4_options()) on @sk, a socket no other task can
 * reach yet (its creation), replacing what it had.
 */
void sf_cipso4_sock_set(struct sock *sk, struct ip_options_rcu *opt)
{
	struct ip_options_rcu *old;

	old = rcu_replace_pointer(inet_sk(sk)->inet_opt, opt, true);
	if (old)
		sf_sock_opt_len(sk, -(int)old->opt.optlen);
	sf_sock_opt_len(sk, opt->opt.optlen);
	if (old)
		kfree_rcu(old, rcu);
}

/*
 * Take our CIPSO option off @sk (a connect or send to a host with a label
 * entry, as mainline's smack_netlbl_delete()).  Only options that are
 * just a CIPSO option are ours; others (IP_OPTIONS) stay.  Caller has
 * interrupts off: the socket's spinlock keeps the softirq out.
 */
void sf_cipso4_sock_del(struct sock *sk)
{
	struct ip_options_rcu *old;

	spin_lock(&sk->sk_lock.slock);
	old = rcu_dereference_protected(inet_sk(sk)->inet_opt, true);
	if (old && old->opt.cipso == sizeof(struct iphdr) &&
	    old->opt.optlen == ALIGN(old->opt.__data[1], 4)) {
		RCU_INIT_POINTER(inet_sk(sk)->inet_opt, NULL);
		sf_sock_opt_len(sk, -(int)old->opt.optlen);
		kfree_rcu(old, rcu);
	}
	spin_unlock(&sk->sk_lock.slock);
}

u32 sf_cipso_number(enum sf_cipso_number which)
{
	const struct sf_cipso_map *map;
	struct sf_cipso_map def;
	u32 v;

	rcu_read_lock();
	map = sf_cmap_get(&def);
	v = which == SF_CIPSO_DOI ? map->doi :
	    which == SF_CIPSO_DIRECT ? map->direct : map->mapped;
	rcu_read_unlock();
	return v;
}

/* Reading "cipso2": every known label with its encoding (snprintf style). */
size_t sf_cipso2_print(char *buf, size_t size)
{
	struct sf_cipso_map def;
	size_t len;

	rcu_read_lock();
	len = sf_print_cipso2(sf_policy_labels(sf_policy), sf_cmap_get(&def),
			      buf, size);
	rcu_read_unlock();
	return len;
}

/*
 * The options of the IPv4 header of @skb, copied into @opts
 * (SF_CIPSO_OPT_MAX bytes, all an IPv4 header holds).  Returns their
 * length, 0 for none.
 */
static size_t sf_ip_options(const struct sk_buff *skb, u8 *opts)
{
	const struct iphdr *iph = ip_hdr(skb);
	size_t len;

	if (iph->ihl <= 5)
		return 0;
	len = min_t(size_t, iph->ihl * 4 - sizeof(*iph), SF_CIPSO_OPT_MAX);
	memcpy(opts, iph + 1, len);
	return len;
}

/* Is there a CIPSO option among @opts?  Walked as cipso_v4_optptr(). */
static bool sf_ip_has_cipso(const u8 *opts, size_t len)
{
	size_t at = 0, olen;

	while (at + 1 < len) {
		if (opts[at] == IPOPT_END)
			return false;
		olen = opts[at] == IPOPT_NOOP ? 1 : opts[at + 1];
		if (!olen || olen > len - at)
			return false;
		if (opts[at] == IPOPT_CIPSO)
			return true;
		at += olen;
	}
	return false;
}

/**
 * sf_cipso4_label - the label an arriving IPv4 packet carries
 * @skb: the packet, its IPv4 header at the network header
 * @lid: receives the label
 *
 * As smack_from_netlbl(): a CIPSO option's level and categories decode to
 * a label known here, or to "*" (which the caller turns into "@" for a
 * socket labelled "*").  An option this host cannot read (a tag other
 * than the restricted bitmap, a malformed one) is "*" too: the packet is
 * labelled, and no label of ours says it may write anywhere.  Returns
 * true when the packet carries a CIPSO option; false (and @lid
 * untouched) when it carries none: it is from an unlabelled host.
 * Never blocks (softirq).
 */
bool sf_cipso4_label(const struct sk_buff *skb, sf_lid *lid)
{
	const struct sf_labels *labels = sf_policy_labels(sf_policy);
	u8 opts[SF_CIPSO_OPT_MAX];
	char name[SF_LABEL_MAX + 1];
	struct sf_cipso_attr attr;
	struct sf_cipso_map def;
	size_t len = sf_ip_options(skb, opts);
	u32 doi;
	int rc;

	if (!len)
		return false;
	rc = sf_cipso_option_parse(opts, len, &doi, &attr);
	if (rc && !sf_ip_has_cipso(opts, len))
		return false;
	*lid = SF_LID_STAR;
	if (rc)
		return true;
	rcu_read_lock();
	if (!sf_cipso_decode(sf_cmap_get(&def), labels, &attr, name))
		*lid = sf_label_find(labels, name, strlen(name));
	rcu_read_unlock();
	if (*lid == SF_LID_INVALID)
		*lid = SF_LID_STAR;
	return true;
}

void sf_cipso4_exit(void)
{
	sf_cmap_free(rcu_dereference_protected(sf_cmap, true));
	RCU_INIT_POINTER(sf_cmap, NULL);
}
