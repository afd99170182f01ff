// SPDX-License-Identifier: GPL-2.0-only
/*
 * control_net.c - cipso2, cipso, doi, direct, mapped, ambient, netlabel.
 *
 * These files configure the kernel's NetLabel in mainline.  smackfuse does
 * not do that yet (the NetLabel helper will): the values are parsed with
 * smackfs's rules, stored, and shown in smackfs's formats, and every write
 * says in the log, as "status" does, that nothing was applied.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "control_int.h"

/* Mainline defaults (SMACK_CIPSO_DOI_DEFAULT, _DIRECT_, _MAPPED_). */
#define CTL_DOI_DEFAULT		3
#define CTL_DIRECT_DEFAULT	250
#define CTL_MAPPED_DEFAULT	251
#define CTL_DIGITLEN		4	/* SMK_DIGITLEN */
#define CTL_CIPSOMIN		(SF_LABELLEN + 2 * CTL_DIGITLEN)
#define CTL_CIPSOMAX		(CTL_CIPSOMIN + CTL_CIPSO_MAXCATNUM * CTL_DIGITLEN)

void ctl_net_init(struct ctl_net *n)
{
	memset(n, 0, sizeof(*n));
	n->doi = CTL_DOI_DEFAULT;
	n->direct = CTL_DIRECT_DEFAULT;
	n->mapped = CTL_MAPPED_DEFAULT;
	n->ambient = SF_LID_FLOOR;
}

void ctl_net_release(struct ctl_net *n)
{
	free(n->cipso);
	free(n->addrs);
	n->cipso = NULL;
	n->addrs = NULL;
	n->ncipso = n->naddrs = 0;
}

static void ctl_net_stored(struct sf_control *c, const char *file)
{
	c->net.touched = true;
	ctl_log(c, LOG_NOTICE, "%s: value stored but NOT applied to the "
		"kernel (NetLabel configuration is not supported yet)", file);
}

static bool ctl_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' ||
	       ch == '\v' || ch == '\f';
}

/* Length of the label at @p: up to whitespace, NUL or @end. */
static size_t ctl_token(const char *p, const char *end)
{
	const char *q = p;

	while (q < end && *q && !ctl_space(*q))
		q++;
	return (size_t)(q - p);
}

/* sscanf("%d") on [p, end): skip blanks, read a signed decimal. */
static int ctl_scan_int(const char *p, const char *end, long *v)
{
	bool neg = false, any = false;
	long n = 0;

	while (p < end && ctl_space(*p))
		p++;
	if (p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	while (p < end && *p >= '0' && *p <= '9') {
		n = n * 10 + (*p++ - '0');
		if (n > 100000)
			return -EINVAL;
		any = true;
	}
	if (!any)
		return -EINVAL;
	*v = neg ? -n : n;
	return 0;
}

static int ctl_intern(struct sf_control *c, const char *file, const char *s,
		      size_t len, sf_lid *lid)
{
	struct sf_error err = { .file = file };
	int rc = sf_label_intern(c->labels, s, len, lid, &err);

	if (rc == -EINVAL)
		ctl_log_error(c, &err);
	return rc;
}

/* ---- cipso2, cipso ---- */

static int ctl_show_cipso_max(struct sf_control *c, struct ctl_buf *out,
			      size_t maxlen)
{
	size_t i;
	int cat, rc = 0;

	for (i = 0; i < c->net.ncipso && rc == 0; i++) {
		const struct ctl_cipso *e = &c->net.cipso[i];
		const char *name = sf_label_name(c->labels, e->label);
		char sep = '/';

		if (!name || strlen(name) >= maxlen)
			continue;
		rc = ctl_buf_printf(out, "%s %3d", name, e->level);
		for (cat = 1; cat <= CTL_CIPSO_CATS && rc == 0; cat++) {
			if (!(e->cats[(cat - 1) / 8] & (0x80 >> ((cat - 1) % 8))))
				continue;
			rc = ctl_buf_printf(out, "%c%d", sep, cat);
			sep = ',';
		}
		if (rc == 0)
			rc = ctl_buf_append(out, "\n", 1);
	}
	return rc;
}

int ctl_show_cipso2(struct sf_control *c, struct ctl_buf *out)
{
	return ctl_show_cipso_max(c, out, SF_LABEL_MAX + 1);
}

int ctl_show_cipso(struct sf_control *c, struct ctl_buf *out)
{
	return ctl_show_cipso_max(c, out, SF_LABELLEN);
}

static ssize_t ctl_set_cipso(struct sf_control *c, const char *file,
			     const char *buf, size_t len, bool fixed)
{
	const char *end = buf + len, *rule;
	struct ctl_cipso e, *grown;
	long level, ncat, cat;
	size_t llen, i;
	int rc;

	if (fixed && (len < CTL_CIPSOMIN || len > CTL_CIPSOMAX))
		goto bad;
	memset(&e, 0, sizeof(e));
	llen = ctl_token(buf, fixed && len > SF_LABELLEN ?
			 buf + SF_LABELLEN : end);
	rc = ctl_intern(c, file, buf, llen, &e.label);
	if (rc < 0)
		return rc;
	rule = fixed ? buf + SF_LABELLEN : buf + llen + 1;
	if (rule > end || ctl_scan_int(rule, end, &level) ||
	    level < 0 || level > CTL_CIPSO_MAXLEVEL)
		goto bad;
	rule += CTL_DIGITLEN;
	if (rule > end || ctl_scan_int(rule, end, &ncat) ||
	    ncat < 0 || ncat > CTL_CIPSO_MAXCATNUM)
		goto bad;
	if (fixed && len != (size_t)(CTL_CIPSOMIN + ncat * CTL_DIGITLEN))
		goto bad;
	for (i = 0; i < (size_t)ncat; i++) {
		rule += CTL_DIGITLEN;
		if (rule > end || ctl_scan_int(rule, end, &cat) ||
		    cat < 0 || cat > CTL_CIPSO_MAXCATNUM)
			goto bad;
		if (cat > 0)	/* category 0 is ignored, as in mainline */
			e.cats[(cat - 1) / 8] |= 0x80 >> ((cat - 1) % 8);
	}
	e.level = (int)level;
	for (i = 0; i < c->net.ncipso; i++) {
		if (c->net.cipso[i].label == e.label)
			break;
	}
	if (i == c->net.ncipso) {
		grown = realloc(c->net.cipso, (i + 1) * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		c->net.cipso = grown;
		c->net.ncipso++;
	}
	c->net.cipso[i] = e;
	ctl_net_stored(c, file);
	return (ssize_t)len;
bad:
	ctl_log(c, LOG_WARNING, "rejected write: %s: want \"label level "
		"ncat cat...\" in %d-byte fields (level 0..%d, ncat and "
		"cat 0..%d)", file, CTL_DIGITLEN, CTL_CIPSO_MAXLEVEL,
		CTL_CIPSO_MAXCATNUM);
	return -EINVAL;
}

ssize_t ctl_store_cipso2(struct sf_control *c, const struct ctl_caller *who,
			 const char *buf, size_t len, struct ctl_buf *out)
{
	(void)who;
	(void)out;
	return ctl_set_cipso(c, "cipso2", buf, len, false);
}

ssize_t ctl_store_cipso(struct sf_control *c, const struct ctl_caller *who,
			const char *buf, size_t len, struct ctl_buf *out)
{
	(void)who;
	(void)out;
	return ctl_set_cipso(c, "cipso", buf, len, true);
}

/* ---- doi, direct, mapped: one number, shown without a newline ---- */

static ssize_t ctl_set_number(struct sf_control *c, const char *file,
			      const char *buf, size_t len, int *val)
{
	int v;

	if (ctl_parse_int(buf, len, &v)) {
		ctl_log(c, LOG_WARNING, "rejected write: %s: want a number",
			file);
		return -EINVAL;
	}
	*val = v;
	ctl_net_stored(c, file);
	return (ssize_t)len;
}

int ctl_show_doi(struct sf_control *c, struct ctl_buf *out)
{
	return ctl_buf_printf(out, "%d", c->net.doi);
}

ssize_t ctl_store_doi(struct sf_control *c, const struct ctl_caller *who,
		      const char *buf, size_t len, struct ctl_buf *out)
{
	(void)who;
	(void)out;
	return ctl_set_number(c, "doi", buf, len, &c->net.doi);
}

int ctl_show_direct(struct sf_control *c, struct ctl_buf *out)
{
	return ctl_buf_printf(out, "%d", c->net.direct);
}

ssize_t ctl_store_direct(struct sf_control *c, const struct ctl_caller *who,
			 const char *buf, size_t len, struct ctl_buf *out)
{
	(void)who;
	(void)out;
	return ctl_set_number(c, "direct", buf, len, &c->net.direct);
}

int ctl_show_mapped(struct sf_control *c, struct ctl_buf *out)
{
	return ctl_buf_printf(out, "%d", c->net.mapped);
}

ssize_t ctl_store_mapped(struct sf_control *c, const struct ctl_caller *who,
			 const char *buf, size_t len, struct ctl_buf *out)
{
	(void)who;
	(void)out;
	return ctl_set_number(c, "mapped", buf, len, &c->net.mapped);
}

/* ---- ambient: the label followed by its NUL, as smackfs shows it ---- */

int ctl_show_ambient(struct sf_control *c, struct ctl_buf *out)
{
	const char *name = sf_label_name(c->labels, c->net.ambient);

	if (!name)
		name = "_";
	return ctl_buf_append(out, name, strlen(name) + 1);
}

ssize_t ctl_store_ambient(struct sf_control *c, const struct ctl_caller *who,
			  const char *buf, size_t len, struct ctl_buf *out)
{
	sf_lid lid;
	int rc;

	(void)who;
	(void)out;
	rc = ctl_intern(c, "ambient", buf, ctl_token(buf, buf + len), &lid);
	if (rc < 0)
		return rc;
	c->net.ambient = lid;
	ctl_net_stored(c, "ambient");
	return (ssize_t)len;
}

/* ---- netlabel: single-label hosts, longest prefix first ---- */

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
	unsigned int b[4], prefix = 32;
	int n = 0;
	sf_lid lid;

	if (len < 9 || len >= sizeof(tmp))	/* SMK_NETLBLADDRMIN */
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
	    b[2] > 255 || b[3] > 255)
		return -EINVAL;
	if (label[0] == '-') {
		if (strcmp(label, "-CIPSO") && strcmp(label, "-DELETE"))
			return -EINVAL;
	} else if (ctl_intern(c, "netlabel", label, strlen(label), &lid)) {
		return -EINVAL;
	}
	a->prefix = (int)prefix;
	a->mask = prefix ? 0xffffffffu << (32 - prefix) : 0;
	a->addr = ((u32)b[0] << 24 | (u32)b[1] << 16 | (u32)b[2] << 8 |
		   (u32)b[3]) & a->mask;
	if (strlen(label) > SF_LABEL_MAX)
		return -EINVAL;
	memcpy(a->label, label, strlen(label) + 1);
	return 0;
}

ssize_t ctl_store_netlabel(struct sf_control *c, const struct ctl_caller *who,
			   const char *buf, size_t len, struct ctl_buf *out)
{
	struct ctl_net *n = &c->net;
	struct ctl_netaddr a, *grown;
	size_t i, at;

	(void)who;
	(void)out;
	if (ctl_parse_netaddr(c, buf, len, &a)) {
		ctl_log(c, LOG_WARNING, "rejected write: netlabel: want "
			"\"A.B.C.D[/N] LABEL\" (or -CIPSO, -DELETE)");
		return -EINVAL;
	}
	for (i = 0; i < n->naddrs; i++) {
		if (n->addrs[i].addr == a.addr && n->addrs[i].mask == a.mask)
			break;
	}
	if (strcmp(a.label, "-DELETE") == 0) {
		if (i == n->naddrs)
			return -ENOENT;
		memmove(&n->addrs[i], &n->addrs[i + 1],
			(n->naddrs - i - 1) * sizeof(a));
		n->naddrs--;
	} else if (i < n->naddrs) {
		n->addrs[i] = a;
	} else {
		grown = realloc(n->addrs, (n->naddrs + 1) * sizeof(a));
		if (!grown)
			return -ENOMEM;
		n->addrs = grown;
		for (at = 0; at < n->naddrs; at++) {
			if (a.prefix > n->addrs[at].prefix)
				break;
		}
		memmove(&n->addrs[at + 1], &n->addrs[at],
			(n->naddrs - at) * sizeof(a));
		n->addrs[at] = a;
		n->naddrs++;
	}
	ctl_net_stored(c, "netlabel");
	return (ssize_t)len;
}
