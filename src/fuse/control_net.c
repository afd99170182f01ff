// SPDX-License-Identifier: GPL-2.0-only
/*
 * control_net.c - cipso2, cipso, doi, direct, mapped, ambient, netlabel.
 *
 * As in mainline smackfs, "doi", "ambient" and "netlabel" configure the
 * kernel's NetLabel: the whole state they describe (a pass-through CIPSO
 * DOI with the default IPv4 mapping to it, the ambient label's domain
 * unlabeled, single-label and CIPSO hosts as address selectors of the
 * default) is handed to libsfnetlabel's sf_nl_smack_sync(), which applies
 * it all or rolls it all back.  The stored value changes only when the
 * kernel took it, so what a read shows is what the kernel holds.
 *
 * "cipso2", "cipso", "direct" and "mapped" set the label <-> CIPSO
 * translation (the shared core's struct sf_cipso_map, parsed by its
 * sf_parse_cipso2/sf_parse_cipso); a pass-through DOI keeps no table in
 * the kernel, so they change no kernel object.
 *
 * With -o netlabel=off (struct sf_control_config.netlabel_off) the mount
 * keeps the values without touching the kernel: for a second mount on a
 * host whose NetLabel another mount or smacknl(8) manages.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "control_int.h"
#include "netlabel.h"

#define CTL_NETLBLADDRMIN	9	/* SMK_NETLBLADDRMIN */

void ctl_net_init(struct ctl_net *n, bool kernel)
{
	memset(n, 0, sizeof(*n));
	sf_cipso_map_init(&n->map);
	n->ambient = SF_LID_FLOOR;
	n->kernel = kernel;
}

void ctl_net_release(struct ctl_net *n)
{
	sf_cipso_map_release(&n->map);
	free(n->addrs);
	n->addrs = NULL;
	n->naddrs = 0;
}

static const char *ctl_name(struct sf_control *c, sf_lid lid)
{
	const char *name = sf_label_name(c->labels, lid);

	return name ? name : "_";
}

/*
 * Make the kernel's NetLabel hold @doi, @ambient and @addrs, coming from
 * what this mount set before.  Returns 0 or a negative errno, after
 * logging what the kernel refused; nothing is left half done.
 */
static int ctl_net_sync(struct sf_control *c, const char *file, u32 doi,
			sf_lid ambient, const struct ctl_netaddr *addrs,
			size_t naddrs)
{
	struct sf_nl_smack old = {
		.doi = c->net.map.doi,
		.ambient = ctl_name(c, c->net.ambient),
	};
	struct sf_nl_smack want = { .doi = doi,
				    .ambient = ctl_name(c, ambient) };
	struct sf_nl_host *hosts;
	struct sf_nl *nl;
	char why[256];
	size_t i;
	u32 v;
	int rc;

	if (!c->net.kernel)
		return 0;
	hosts = calloc(naddrs + 1, sizeof(*hosts));
	if (!hosts)
		return -ENOMEM;
	for (i = 0; i < naddrs; i++) {
		hosts[i].sel.family = AF_INET;
		v = htonl(addrs[i].addr);
		memcpy(hosts[i].sel.addr, &v, 4);
		v = htonl(addrs[i].mask);
		memcpy(hosts[i].sel.mask, &v, 4);
		hosts[i].cipso = strcmp(addrs[i].label, "-CIPSO") == 0;
	}
	want.hosts = hosts;
	want.nhosts = naddrs;
	rc = sf_nl_open(&nl, why, sizeof(why));
	if (rc == 0) {
		rc = sf_nl_smack_sync(nl, &old, &want);
		if (rc)
			snprintf(why, sizeof(why), "%s", sf_nl_error(nl));
		sf_nl_close(nl);
	} else if (rc == -ENOENT) {
		rc = -EOPNOTSUPP;	/* no NetLabel in this kernel */
	}
	free(hosts);
	if (rc)
		ctl_log(c, LOG_WARNING, "rejected write: %s: the kernel's "
			"NetLabel configuration was not changed: %s", file,
			why);
	else
		ctl_log(c, LOG_INFO, "%s: NetLabel now has DOI %u, ambient "
			"\"%s\", %zu host entr%s", file, doi, want.ambient,
			naddrs, naddrs == 1 ? "y" : "ies");
	return rc;
}

/* ---- cipso2, cipso: the core's parser and printer ---- */

static int ctl_show_cipso_fmt(struct sf_control *c, struct ctl_buf *out,
			      size_t (*print)(const struct sf_labels *,
					      const struct sf_cipso_map *,
					      char *, size_t))
{
	size_t need = print(c->labels, &c->net.map, NULL, 0);

	/* labels may be interned meanwhile: size again until it fits */
	for (;;) {
		if (ctl_buf_reserve(out, need))
			return -ENOMEM;
		need = print(c->labels, &c->net.map, out->data + out->len,
			     out->cap - out->len);
		if (need < out->cap - out->len)
			break;
	}
	out->len += need;
	return 0;
}

int ctl_show_cipso2(struct sf_control *c, struct ctl_buf *out)
{
	return ctl_show_cipso_fmt(c, out, sf_print_cipso2);
}

int ctl_show_cipso(struct sf_control *c, struct ctl_buf *out)
{
	return ctl_show_cipso_fmt(c, out, sf_print_cipso);
}

static ssize_t ctl_set_cipso(struct sf_control *c, const char *file,
			     const char *buf, size_t len,
			     int (*parse)(struct sf_labels *, const char *,
					  size_t, struct sf_cipso_rule *,
					  struct sf_error *))
{
	struct sf_error err = { .file = file };
	struct sf_cipso_rule rule;
	int rc;

	rc = parse(c->labels, buf, len, &rule, &err);
	if (rc == -EINVAL)
		ctl_log_error(c, &err);
	if (rc == 0)
		rc = sf_cipso_map_set(&c->net.map, &rule);
	return rc ? rc : (ssize_t)len;
}

ssize_t ctl_store_cipso2(struct sf_control *c, const struct ctl_caller *who,
			 const char *buf, size_t len, struct ctl_buf *out)
{
	(void)who;
	(void)out;
	return ctl_set_cipso(c, "cipso2", buf, len, sf_parse_cipso2);
}

ssize_t ctl_store_cipso(struct sf_control *c, const struct ctl_caller *who,
			const char *buf, size_t len, struct ctl_buf *out)
{
	(void)who;
	(void)out;
	return ctl_set_cipso(c, "cipso", buf, len, sf_parse_cipso);
}

/* ---- doi, direct, mapped: one number, shown without a newline ---- */

static int ctl_number(struct sf_control *c, const char *file,
		      const char *buf, size_t len, int min, int max, int *v)
{
	if (ctl_parse_int(buf, len, v) || *v < min || *v > max) {
		ctl_log(c, LOG_WARNING, "rejected write: %s: want a number "
			"from %d to %d", file, min, max);
		return -EINVAL;
	}
	return 0;
}

int ctl_show_doi(struct sf_control *c, struct ctl_buf *out)
{
	return ctl_buf_printf(out, "%u", c->net.map.doi);
}

ssize_t ctl_store_doi(struct sf_control *c, const struct ctl_caller *who,
		      const char *buf, size_t len, struct ctl_buf *out)
{
	int v, rc;

	(void)who;
	(void)out;
	rc = ctl_number(c, "doi", buf, len, 1, 2147483647, &v);
	if (rc == 0)
		rc = ctl_net_sync(c, "doi", (u32)v, c->net.ambient,
				  c->net.addrs, c->net.naddrs);
	if (rc)
		return rc;
	c->net.map.doi = (u32)v;
	return (ssize_t)len;
}

int ctl_show_direct(struct sf_control *c, struct ctl_buf *out)
{
	return ctl_buf_printf(out, "%d", c->net.map.direct);
}

int ctl_show_mapped(struct sf_control *c, struct ctl_buf *out)
{
	return ctl_buf_printf(out, "%d", c->net.map.mapped);
}

/* A level used for both would make received labels ambiguous. */
static ssize_t ctl_set_level(struct sf_control *c, const char *file,
			     const char *buf, size_t len, u8 *level,
			     u8 other)
{
	int v;

	if (ctl_number(c, file, buf, len, 0, SF_CIPSO_MAXLEVEL, &v))
		return -EINVAL;
	if (v == other) {
		ctl_log(c, LOG_WARNING, "rejected write: %s: level %d is "
			"already the %s level", file, v,
			level == &c->net.map.direct ? "mapped" : "direct");
		return -EINVAL;
	}
	*level = (u8)v;
	return (ssize_t)len;
}

ssize_t ctl_store_direct(struct sf_control *c, const struct ctl_caller *who,
			 const char *buf, size_t len, struct ctl_buf *out)
{
	(void)who;
	(void)out;
	return ctl_set_level(c, "direct", buf, len, &c->net.map.direct,
			     c->net.map.mapped);
}

ssize_t ctl_store_mapped(struct sf_control *c, const struct ctl_caller *who,
			 const char *buf, size_t len, struct ctl_buf *out)
{
	(void)who;
	(void)out;
	return ctl_set_level(c, "mapped", buf, len, &c->net.map.mapped,
			     c->net.map.direct);
}

/* ---- ambient: the label followed by its NUL, as smackfs shows it ---- */

int ctl_show_ambient(struct sf_control *c, struct ctl_buf *out)
{
	const char *name = ctl_name(c, c->net.ambient);

	return ctl_buf_append(out, name, strlen(name) + 1);
}

static bool ctl_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' ||
	       ch == '\v' || ch == '\f';
}

ssize_t ctl_store_ambient(struct sf_control *c, const struct ctl_caller *who,
			  const char *buf, size_t len, struct ctl_buf *out)
{
	struct sf_error err = { .file = "ambient" };
	size_t n = 0;
	sf_lid lid;
	int rc;

	(void)who;
	(void)out;
	while (n < len && buf[n] && !ctl_space(buf[n]))
		n++;
	rc = sf_label_intern(c->labels, buf, n, &lid, &err);
	if (rc == -EINVAL)
		ctl_log_error(c, &err);
	if (rc == 0)
		rc = ctl_net_sync(c, "ambient", c->net.map.doi, lid,
				  c->net.addrs, c->net.naddrs);
	if (rc)
		return rc;
	c->net.ambient = lid;
	return (ssize_t)len;
}

/* ---- netlabel: single-label and CIPSO hosts, longest prefix first ---- */

int ctl_show_netlabel(struct sf_control *c, struct ctl_buf *out)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < c->net.naddrs && rc == 0; i++) {
		const struct ctl_netaddr *a = &c->net.addrs[i];

		rc = ctl_buf_printf(out, "%u.%u.%u.%u/%d %s\n",
				    a->addr >> 24, (a->addr >> 16) & 0xff,
				    (a->addr >> 8) & 0xff, a->addr & 0xff,
				    a->prefix, a->label);
	}
	return rc;
}

/* "A.B.C.D[/N] LABEL" into @a; LABEL may be -CIPSO or -DELETE. */
static int ctl_parse_netaddr(struct sf_control *c, const char *buf,
			     size_t len, struct ctl_netaddr *a)
{
	char tmp[SF_LABEL_MAX + 64], label[SF_LABEL_MAX + 2];
	struct sf_error err = { .file = "netlabel" };
	unsigned int b[4], prefix = 32;
	int n = 0;
	sf_lid lid;

	if (len < CTL_NETLBLADDRMIN || len >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, buf, len);
	tmp[len] = '\0';
	if (sscanf(tmp, "%3u.%3u.%3u.%3u/%2u %256s%n", &b[0], &b[1], &b[2],
		   &b[3], &prefix, label, &n) != 6) {
		prefix = 32;
		if (sscanf(tmp, "%3u.%3u.%3u.%3u %256s%n", &b[0], &b[1],
			   &b[2], &b[3], label, &n) != 5)
			return -EINVAL;
	}
	while (tmp[n] && ctl_space(tmp[n]))
		n++;
	if (tmp[n] || prefix > 32 || b[0] > 255 || b[1] > 255 ||
	    b[2] > 255 || b[3] > 255 || strlen(label) > SF_LABEL_MAX)
		return -EINVAL;
	if (label[0] == '-') {
		if (strcmp(label, "-CIPSO") && strcmp(label, "-DELETE"))
			return -EINVAL;
	} else if (sf_label_intern(c->labels, label, strlen(label), &lid,
				   &err)) {
		ctl_log_error(c, &err);
		return -EINVAL;
	}
	a->prefix = (int)prefix;
	a->mask = prefix ? 0xffffffffu << (32 - prefix) : 0;
	a->addr = ((u32)b[0] << 24 | (u32)b[1] << 16 | (u32)b[2] << 8 |
		   (u32)b[3]) & a->mask;
	memcpy(a->label, label, strlen(label) + 1);
	return 0;
}

/*
 * The host list with @a added, replaced or (-DELETE) removed, in a new
 * array (*@out, *@n).  -ENOENT: deleting what is not there.
 */
static int ctl_hosts_with(const struct ctl_net *net,
			  const struct ctl_netaddr *a,
			  struct ctl_netaddr **out, size_t *n)
{
	struct ctl_netaddr *v = calloc(net->naddrs + 1, sizeof(*v));
	bool del = strcmp(a->label, "-DELETE") == 0, found = false;
	size_t i, k = 0;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < net->naddrs; i++) {
		if (net->addrs[i].addr == a->addr &&
		    net->addrs[i].mask == a->mask)
			found = true;
		else
			v[k++] = net->addrs[i];
	}
	if (del && !found) {
		free(v);
		return -ENOENT;
	}
	if (!del) {
		size_t at;

		for (at = 0; at < k && v[at].prefix >= a->prefix; at++)
			;
		memmove(&v[at + 1], &v[at], (k - at) * sizeof(*v));
		v[at] = *a;
		k++;
	}
	*out = v;
	*n = k;
	return 0;
}

ssize_t ctl_store_netlabel(struct sf_control *c, const struct ctl_caller *who,
			   const char *buf, size_t len, struct ctl_buf *out)
{
	struct ctl_netaddr a, *addrs = NULL;
	size_t n = 0;
	int rc;

	(void)who;
	(void)out;
	if (ctl_parse_netaddr(c, buf, len, &a)) {
		ctl_log(c, LOG_WARNING, "rejected write: netlabel: want "
			"\"A.B.C.D[/N] LABEL\" (or -CIPSO, -DELETE)");
		return -EINVAL;
	}
	rc = ctl_hosts_with(&c->net, &a, &addrs, &n);
	if (rc == 0)
		rc = ctl_net_sync(c, "netlabel", c->net.map.doi,
				  c->net.ambient, addrs, n);
	if (rc) {
		free(addrs);
		return rc;
	}
	free(c->net.addrs);
	c->net.addrs = addrs;
	c->net.naddrs = n;
	return (ssize_t)len;
}

size_t ctl_net_status(struct sf_control *c, char *buf, size_t size)
{
	if (!c->net.kernel)
		return (size_t)snprintf(buf, size, "netlabel: off (doi, "
					"ambient and netlabel are kept by "
					"this mount only: -o netlabel=off)\n");
	return (size_t)snprintf(buf, size, "netlabel: kernel (DOI %u, "
				"ambient \"%s\", %zu host entr%s)\n",
				c->net.map.doi, ctl_name(c, c->net.ambient),
				c->net.naddrs, c->net.naddrs == 1 ? "y" :
				"ies");
}
