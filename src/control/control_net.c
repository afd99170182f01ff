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
 *
 * On a kernel that runs Smack itself, Smack owns NetLabel and cannot use
 * what sf_nl_smack_sync() builds (address selectors leave its labelled
 * traffic unlabeled), so "doi", "ambient" and "netlabel" are the kernel's
 * smackfs files: reads show them, writes go to them.
 *
 * At mount start (ctl_net_start) the values are read from the kernel; a
 * NetLabel nobody configured gets Smack's boot configuration, as the
 * kernel's Smack does in init_smk_fs(); what is missing is said in the
 * log and the status file.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "control_int.h"
#include "netlabel.h"

void ctl_net_init(struct ctl_net *n, bool kernel)
{
	memset(n, 0, sizeof(*n));
	sf_cipso_map_init(&n->map);
	n->ambient = SF_LID_FLOOR;
	n->kernel = kernel;
	n->smackfs = kernel && sf_smack_running();
}

void ctl_net_release(struct ctl_net *n)
{
	free(n->note);
	n->note = NULL;
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
			sf_lid ambient, const struct sf_net4addr *addrs,
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
		hosts[i].cipso = addrs[i].label == SF_LID_INVALID;
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
	if (rc) {
		ctl_log(c, LOG_WARNING, "rejected write: %s: the kernel's "
			"NetLabel configuration was not changed: %s", file,
			why);
		return rc;
	}
	ctl_log(c, LOG_INFO, "%s: NetLabel now has DOI %u, ambient \"%s\", "
		"%zu host entr%s", file, doi, want.ambient, naddrs,
		naddrs == 1 ? "y" : "ies");
	c->net.map.doi = doi;
	free(c->net.note);	/* the whole configuration is there now */
	c->net.note = NULL;
	return 0;
}

/*
 * The DOI of a write that does not set one: the mount's, or Smack's
 * default when the kernel had none (the mount's "doi" reads 0), as an
 * ambient or netlabel write on Smack always has its boot DOI.
 */
static u32 ctl_doi(struct sf_control *c)
{
	return c->net.map.doi ? c->net.map.doi : SF_CIPSO_DOI_DEFAULT;
}

/* ---- a kernel that runs Smack: its smackfs files ---- */

/* The largest smackfs file a read is given room for. */
#define CTL_SMACKFS_READ_MAX	(1u << 20)

/* A read of smackfs file @file, as it is, for a read of ours. */
static int ctl_smackfs_show(struct sf_control *c, const char *file,
			    struct ctl_buf *out)
{
	char why[512];
	size_t size = 4096;
	ssize_t n;

	for (;;) {
		if (ctl_buf_reserve(out, size))
			return -ENOMEM;
		n = sf_smackfs_read(file, out->data + out->len,
				    out->cap - out->len, why, sizeof(why));
		if (n != -ENOSPC || size >= CTL_SMACKFS_READ_MAX)
			break;
		size *= 4;
	}
	if (n < 0) {
		ctl_log(c, LOG_WARNING, "read %s: %s", file, why);
		return (int)n;
	}
	out->len += (size_t)n;
	return 0;
}

/* A write of ours, already checked, handed to smackfs file @file. */
static int ctl_smackfs_store(struct sf_control *c, const char *file,
			     const char *buf, size_t len)
{
	char why[512];
	int rc;

	rc = sf_smackfs_write(file, buf, len, why, sizeof(why));
	if (rc)
		ctl_log(c, LOG_WARNING, "rejected write: %s: the kernel's "
			"Smack refused it: %s", file, why);
	return rc;
}

/* smackfs "doi" as a number, 0 if it cannot be read. */
static u32 ctl_smackfs_doi(void)
{
	char num[32], why[256], *end;
	unsigned long v;

	if (sf_smackfs_read("doi", num, sizeof(num), why, sizeof(why)) <= 0)
		return 0;
	v = strtoul(num, &end, 10);
	return (*end == '\0' || *end == '\n') && v <= UINT32_MAX ? (u32)v : 0;
}

/* ---- mount start: what the kernel has ---- */

static void ctl_net_note(struct sf_control *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Record what the kernel lacks (status) and say it (log). */
static void ctl_net_note(struct sf_control *c, const char *fmt, ...)
{
	va_list ap;
	char *text;

	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	va_end(ap);
	free(c->net.note);
	c->net.note = text;
	if (text)
		ctl_log(c, LOG_WARNING, "NetLabel: %s", text);
}

/* Why Smack's boot configuration is not set up here, or NULL if it may
 * be: only where no active LSM could be labelling with NetLabel. */
static const char *ctl_setup_refused(void)
{
	int selinux = sf_lsm_active("selinux");

	if (selinux < 0)
		return "the active LSMs cannot be read "
		       "(/sys/kernel/security/lsm), so it was not set up";
	if (selinux > 0)
		return "SELinux is active and may label with NetLabel, so it "
		       "was not set up";
	return NULL;
}

/* Use the Smack configuration the kernel has (another mount's, or
 * smacknl smack-setup's). */
static void ctl_net_adopt(struct sf_control *c, struct sf_nl_smack_state *st)
{
	struct sf_error err = { .file = "NetLabel" };
	sf_lid lid;

	c->net.map.doi = st->doi;
	if (st->nambient == 1 &&
	    sf_label_intern(c->labels, st->ambient, strlen(st->ambient), &lid,
			    &err) == 0)
		c->net.ambient = lid;
	ctl_log(c, LOG_INFO, "NetLabel: the kernel has Smack's configuration: "
		"DOI %u, ambient \"%s\"", st->doi,
		ctl_name(c, c->net.ambient));
	if (st->nsels)
		ctl_net_note(c, "the default IPv4 mapping has %u address "
			     "selector%s that this mount did not set (its "
			     "netlabel file is empty): a doi, ambient or "
			     "netlabel write replaces them", st->nsels,
			     st->nsels == 1 ? "" : "s");
}

/* A NetLabel as the kernel boots it: Smack's boot configuration. */
static void ctl_net_setup(struct sf_control *c, struct sf_nl *nl)
{
	const char *refused = ctl_setup_refused();

	if (refused) {
		ctl_net_note(c, "no CIPSO DOI, so the kernel drops CIPSO "
			     "packets from Smack hosts; %s: write doi (or run "
			     "smacknl smack-setup) to set it up", refused);
		return;
	}
	if (sf_nl_smack_setup(nl, SF_CIPSO_DOI_DEFAULT, "_", NULL)) {
		ctl_net_note(c, "no CIPSO DOI, so the kernel drops CIPSO "
			     "packets from Smack hosts; Smack's configuration "
			     "could not be set up: %s", sf_nl_error(nl));
		return;
	}
	c->net.map.doi = SF_CIPSO_DOI_DEFAULT;
	c->net.ambient = SF_LID_FLOOR;
	ctl_log(c, LOG_INFO, "NetLabel: set up as Smack does at boot: DOI %u "
		"pass-through, the default IPv4 mapping to it, ambient \"_\" "
		"unlabeled", SF_CIPSO_DOI_DEFAULT);
}

void ctl_net_start(struct sf_control *c)
{
	struct sf_nl_smack_state st;
	struct sf_nl *nl;
	char why[256];
	int rc;

	if (!c->net.kernel)
		return;
	if (c->net.smackfs) {
		c->net.map.doi = ctl_smackfs_doi();
		ctl_log(c, LOG_INFO, "NetLabel: this kernel runs Smack: doi, "
			"ambient and netlabel are its smackfs files");
		return;
	}
	c->net.map.doi = 0;	/* until the kernel shows one */
	rc = sf_nl_open(&nl, why, sizeof(why));
	if (rc) {
		ctl_net_note(c, "%s", why);
		return;
	}
	rc = sf_nl_smack_state(nl, &st);
	if (rc)
		ctl_net_note(c, "%s", sf_nl_error(nl));
	else if (st.doi)
		ctl_net_adopt(c, &st);
	else if (st.fresh)
		ctl_net_setup(c, nl);
	else
		ctl_net_note(c, "the kernel's NetLabel is configured, but not "
			     "as Smack's (no pass-through DOI in the default "
			     "IPv4 mapping): CIPSO packets from Smack hosts "
			     "are not read as Smack labels; a doi write sets "
			     "Smack's configuration up");
	if (!rc)
		sf_nl_smack_state_release(&st);
	sf_nl_close(nl);
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
	if (rc == -EINVAL || rc == -EOVERFLOW)
		ctl_log_error(c, &err);
	if (rc == 0)
		rc = sf_cipso_map_set(&c->net.map, &rule);
	return rc ? rc : (ssize_t)len;
}

ssize_t ctl_store_cipso2(struct sf_control *c, const struct ctl_input *in)
{
	return ctl_set_cipso(c, "cipso2", in->buf, in->len, sf_parse_cipso2);
}

ssize_t ctl_store_cipso(struct sf_control *c, const struct ctl_input *in)
{
	return ctl_set_cipso(c, "cipso", in->buf, in->len, sf_parse_cipso);
}

/* ---- doi, direct, mapped: one number, shown without a newline ---- */

/*
 * kstrtou32_from_user() and kstrtou8_from_user(), as smackfs reads doi,
 * direct and mapped: the first 2 + @bits bytes only, an optional '+',
 * decimal digits, an optional newline; ERANGE above the type's maximum.
 */
#define CTL_KSTRTOU(bits)						\
	{ .window = (bits) + 2, .max = (1LL << (bits)) - 1,		\
	  .hi = (1LL << (bits)) - 1 }

int ctl_show_doi(struct sf_control *c, struct ctl_buf *out)
{
	if (c->net.smackfs)
		return ctl_smackfs_show(c, "doi", out);
	return ctl_buf_printf(out, "%u", c->net.map.doi);
}

static int ctl_set_doi(struct sf_control *c, const struct ctl_input *in,
		       long long v)
{
	int rc;

	if (v == 0) {	/* CIPSO_V4_DOI_UNKNOWN */
		ctl_log(c, LOG_WARNING, "rejected write: doi: 0 is no DOI");
		return -EINVAL;
	}
	if (c->net.smackfs)
		rc = ctl_smackfs_store(c, "doi", in->buf, in->len);
	else
		rc = ctl_net_sync(c, "doi", (u32)v, c->net.ambient,
				  c->net.addrs, c->net.naddrs);
	if (rc == 0)
		c->net.map.doi = (u32)v;
	return rc;
}

const struct ctl_number ctl_doi_number = {
	.bounds = CTL_KSTRTOU(32), .set = ctl_set_doi,
};

int ctl_show_direct(struct sf_control *c, struct ctl_buf *out)
{
	return ctl_buf_printf(out, "%d", c->net.map.direct);
}

int ctl_show_mapped(struct sf_control *c, struct ctl_buf *out)
{
	return ctl_buf_printf(out, "%d", c->net.map.mapped);
}

/* A level used for both would make received labels ambiguous. */
static int ctl_set_level(struct sf_control *c, const struct ctl_input *in,
			 long long v)
{
	bool direct = strcmp(in->file->name, "direct") == 0;
	u8 *level = direct ? &c->net.map.direct : &c->net.map.mapped;
	u8 other = direct ? c->net.map.mapped : c->net.map.direct;

	if (v == other) {
		ctl_log(c, LOG_WARNING, "rejected write: %s: level %d is "
			"already the %s level", in->file->name, (int)v,
			direct ? "mapped" : "direct");
		return -EINVAL;
	}
	*level = (u8)v;
	return 0;
}

/* direct and mapped */
const struct ctl_number ctl_level_number = {
	.bounds = CTL_KSTRTOU(8), .set = ctl_set_level,
};

/* ---- ambient: the label followed by its NUL, as smackfs shows it ---- */

int ctl_show_ambient(struct sf_control *c, struct ctl_buf *out)
{
	const char *name = ctl_name(c, c->net.ambient);

	if (c->net.smackfs)
		return ctl_smackfs_show(c, "ambient", out);
	return ctl_buf_append(out, name, strlen(name) + 1);
}

/* The label the write starts with, read by the core's sf_label_import()
 * as smackfuse.ko's ambient file reads it. */
ssize_t ctl_store_ambient(struct sf_control *c, const struct ctl_input *in)
{
	struct sf_error err = { .file = "ambient" };
	const char *name;
	sf_lid lid;
	int rc;

	rc = sf_label_import(c->labels, in->buf, in->len, &lid, &err);
	if (rc == -EINVAL)
		ctl_log_error(c, &err);
	if (rc)
		return rc;
	name = ctl_name(c, lid);
	if (c->net.smackfs)
		rc = ctl_smackfs_store(c, "ambient", name, strlen(name));
	else
		rc = ctl_net_sync(c, "ambient", ctl_doi(c), lid, c->net.addrs,
				  c->net.naddrs);
	if (rc)
		return rc;
	c->net.ambient = lid;
	return (ssize_t)in->len;
}

/* ---- netlabel: single-label and CIPSO hosts, longest prefix first ---- */

int ctl_show_netlabel(struct sf_control *c, struct ctl_buf *out)
{
	size_t i;
	int rc = 0;

	if (c->net.smackfs)
		return ctl_smackfs_show(c, "netlabel", out);
	for (i = 0; i < c->net.naddrs && rc == 0; i++) {
		const struct sf_net4addr *a = &c->net.addrs[i];

		rc = ctl_buf_printf(out, "%u.%u.%u.%u/%u %s\n",
				    a->addr >> 24, (a->addr >> 16) & 0xff,
				    (a->addr >> 8) & 0xff, a->addr & 0xff,
				    a->prefix, a->label == SF_LID_INVALID ?
				    SF_NET4ADDR_CIPSO : ctl_name(c, a->label));
	}
	return rc;
}

/*
 * The host list with @a added, or its entry for @a's network replaced, in
 * a new array (*@out, *@n).
 */
static int ctl_hosts_with(const struct ctl_net *net,
			  const struct sf_net4addr *a,
			  struct sf_net4addr **out, size_t *n)
{
	struct sf_net4addr *v = calloc(net->naddrs + 1, sizeof(*v));
	size_t i, k = 0, at;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < net->naddrs; i++)
		if (net->addrs[i].addr != a->addr ||
		    net->addrs[i].mask != a->mask)
			v[k++] = net->addrs[i];
	for (at = 0; at < k && v[at].prefix >= a->prefix; at++)
		;
	memmove(&v[at + 1], &v[at], (k - at) * sizeof(*v));
	v[at] = *a;
	*out = v;
	*n = k + 1;
	return 0;
}

/*
 * "A.B.C.D[/N] LABEL" (LABEL may be -CIPSO), one line a write, read by
 * the core's sf_parse_net4addr() as smackfuse.ko's netlabel file reads
 * each of its lines.
 */
ssize_t ctl_store_netlabel(struct sf_control *c, const struct ctl_input *in)
{
	struct sf_error err = { .file = "netlabel" };
	struct sf_net4addr a, *addrs = NULL;
	size_t n = 0, len = in->len;
	int rc;

	rc = sf_parse_net4addr(c->labels, in->buf, len, &a, &err);
	if (rc == -EINVAL)
		ctl_log_error(c, &err);
	if (rc)
		return rc;
	if (c->net.smackfs) {	/* the kernel's Smack: its own file */
		rc = ctl_smackfs_store(c, "netlabel", in->buf, len);
		return rc ? rc : (ssize_t)len;
	}
	rc = ctl_hosts_with(&c->net, &a, &addrs, &n);
	if (rc == 0)
		rc = ctl_net_sync(c, "netlabel", ctl_doi(c), c->net.ambient,
				  addrs, n);
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
	if (c->net.smackfs)
		return (size_t)snprintf(buf, size, "netlabel: smackfs (this "
					"kernel runs Smack: doi, ambient and "
					"netlabel are its smackfs files)\n");
	return (size_t)snprintf(buf, size, "netlabel: kernel (DOI %u, "
				"ambient \"%s\", %zu host entr%s)%s%s\n",
				c->net.map.doi, ctl_name(c, c->net.ambient),
				c->net.naddrs, c->net.naddrs == 1 ? "y" :
				"ies", c->net.note ? "; missing: " : "",
				c->net.note ? c->net.note : "");
}
