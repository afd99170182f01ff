// SPDX-License-Identifier: GPL-2.0-only
/*
 * control_files.c - the policy files of the control filesystem and the
 * table that names every file.
 *
 * Formats are mainline smackfs's (security/smack/smackfs.c); the parsing
 * and printing of rules is the access core's.  Each write is parsed whole
 * and becomes one batch: applied entirely or, on the first bad line, not
 * at all (EINVAL, with file:line:reason in the log).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "control_int.h"

typedef int (*ctl_parse_fn)(struct sf_labels *labels, const char *buf,
			    size_t len, struct sf_batch *b,
			    struct sf_error *err);
typedef size_t (*ctl_print_fn)(const struct sf_labels *labels,
			       const struct sf_snapshot *snap, char *buf,
			       size_t size);

/* After any accepted change: the next operation must see it. */
static void ctl_changed(struct sf_control *c)
{
	if (c->hooks.invalidate)
		c->hooks.invalidate(c->hooks.arg);
}

/*
 * A write longer than a page may have been split by the kernel (or by the
 * writer) inside a line.  As smackfs does, use only whole lines of it and
 * let the short write bring the rest.  A short write is never cut.
 */
#define CTL_PAGE_LEN	4096	/* PAGE_SIZE of the kernels we serve */

static ssize_t ctl_whole_lines(const char *buf, size_t len)
{
	size_t n = len;

	if (len < CTL_PAGE_LEN || buf[len - 1] == '\n')
		return (ssize_t)len;
	while (n > 0 && buf[n - 1] != '\n')
		n--;
	return n ? (ssize_t)n : -EINVAL;
}

static ssize_t ctl_apply(struct sf_control *c, const char *name,
			 ctl_parse_fn parse, const char *buf, size_t len,
			 bool clear)
{
	struct sf_error err = { .file = name };
	struct sf_op op = { .kind = SF_OP_CLEAR };
	struct sf_batch b;
	int rc = 0;

	sf_batch_init(&b);
	if (clear)
		rc = sf_batch_add(&b, &op);
	if (rc == 0)
		rc = parse(c->labels, buf, len, &b, &err);
	if (rc == -EINVAL)
		ctl_log_error(c, &err);
	if (rc < 0)
		goto out;
	pthread_mutex_lock(&c->write_lock);
	rc = sf_policy_apply(c->policy, &b);
	pthread_mutex_unlock(&c->write_lock);
	if (rc == 0)
		ctl_changed(c);
	else
		ctl_log(c, LOG_ERR, "%s: cannot apply: %s", name,
			strerror(-rc));
out:
	sf_batch_release(&b);
	return rc < 0 ? rc : (ssize_t)len;
}

/*
 * A rule file's write (load2, load, change-rule, revoke-subject, onlycap,
 * load-rules, replace-rules): the core parser that reads it, and how.
 */
#define CTL_LINES	0x1u	/* whole lines of a split write; no empty one */
#define CTL_REPLACE	0x2u	/* the policy's rules are replaced */
struct ctl_rules {
	ctl_parse_fn parse;
	unsigned int how;	/* CTL_LINES, CTL_REPLACE */
};

/* The part of a line-format write to use now: its length, or -EINVAL. */
static ssize_t ctl_lines(struct sf_control *c, const char *name,
			 const char *buf, size_t len)
{
	ssize_t n = ctl_whole_lines(buf, len);

	/* smackfs refuses a write that holds no rule ("\n" included). */
	if (!ctl_has_text(buf, len)) {
		ctl_log(c, LOG_WARNING, "rejected write: %s: no rule", name);
		return -EINVAL;
	}
	if (n < 0)
		ctl_log(c, LOG_WARNING,
			"rejected write: %s: no complete line in %zu bytes",
			name, len);
	return n;
}

/* .arg: its struct ctl_rules */
static ssize_t ctl_store_rules(struct sf_control *c,
			       const struct ctl_input *in)
{
	const struct ctl_rules *r = in->file->arg;
	const char *name = in->file->name;
	ssize_t n = (ssize_t)in->len;

	if (r->how & CTL_LINES)
		n = ctl_lines(c, name, in->buf, in->len);
	if (n < 0)
		return n;
	n = ctl_apply(c, name, r->parse, in->buf, (size_t)n,
		      r->how & CTL_REPLACE);
	/* a replace is a reload (smackfusectl apply): see hooks.reload */
	if (n >= 0 && (r->how & CTL_REPLACE) && c->hooks.reload)
		c->hooks.reload(c->hooks.arg);
	return n;
}

/* Print a snapshot with one of the core's printers into @out. */
static int ctl_show_printed(struct sf_control *c, struct ctl_buf *out,
			    ctl_print_fn print)
{
	size_t need = 4096, got;

	for (;;) {
		if (ctl_buf_reserve(out, need))
			return -ENOMEM;
		sf_rcu_read_lock();
		got = print(c->labels, sf_policy_snapshot(c->policy),
			    out->data + out->len, out->cap - out->len);
		sf_rcu_read_unlock();
		if (got < out->cap - out->len)
			break;
		need = got + 1;
	}
	out->len += got;
	return 0;
}

/* ---- load2, load, change-rule, revoke-subject, onlycap ---- */

static int ctl_show_load2(struct sf_control *c, struct ctl_buf *out)
{
	return ctl_show_printed(c, out, sf_print_load2);
}

static int ctl_show_load(struct sf_control *c, struct ctl_buf *out)
{
	return ctl_show_printed(c, out, sf_print_load);
}

static int ctl_show_onlycap(struct sf_control *c, struct ctl_buf *out)
{
	return ctl_show_printed(c, out, sf_print_onlycap);
}

static const struct ctl_rules ctl_load2 = { sf_parse_load2, CTL_LINES };
/* One fixed-width record per write, sized as smackfs sizes it. */
static const struct ctl_rules ctl_load = { sf_parse_load_record, 0 };
static const struct ctl_rules ctl_change_rule = {
	sf_parse_change_rule, CTL_LINES
};
static const struct ctl_rules ctl_revoke = { sf_parse_revoke_subject, 0 };
static const struct ctl_rules ctl_onlycap = { sf_parse_onlycap, 0 };

/* ---- smackfuse extensions: whole rule files, applied at close ---- */

static const struct ctl_rules ctl_load_rules = { sf_parse_rule_file, 0 };
static const struct ctl_rules ctl_replace_rules = {
	sf_parse_rule_file, CTL_REPLACE
};

/* ---- access2, access: transactions ---- */

typedef int (*ctl_query_fn)(struct sf_labels *labels, const char *buf,
			    size_t len, struct sf_query *q,
			    struct sf_error *err);

static ssize_t ctl_query(struct sf_control *c, const char *name,
			 ctl_query_fn parse, const char *buf, size_t len,
			 struct ctl_buf *out)
{
	struct sf_error err = { .file = name };
	struct sf_query q;
	int rc, allowed = 0;

	rc = parse(c->labels, buf, len, &q, &err);
	if (rc == 0) {
		sf_rcu_read_lock();
		allowed = sf_access(sf_policy_snapshot(c->policy), q.subject,
				    q.object, q.request, NULL) == 0;
		sf_rcu_read_unlock();
	} else if (rc != -ENOENT) {	/* unknown label: the answer is 0 */
		if (rc == -EINVAL)
			ctl_log_error(c, &err);
		return rc;
	}
	/* smackfs answers "1" or "0" followed by its NUL. */
	if (ctl_buf_append(out, allowed ? "1" : "0", 2))
		return -ENOMEM;
	return (ssize_t)len;
}

static ssize_t ctl_store_access2(struct sf_control *c,
				 const struct ctl_input *in)
{
	return ctl_query(c, "access2", sf_parse_access2, in->buf, in->len,
			 in->out);
}

static ssize_t ctl_store_access(struct sf_control *c,
				const struct ctl_input *in)
{
	ssize_t rc = ctl_query(c, "access", sf_parse_access_record, in->buf,
			       in->len, in->out);

	/* smackfs counts an access query as SF_LOADLEN bytes, whatever
	 * was written. */
	return rc < 0 ? rc : SF_LOADLEN;
}

/* ---- logging, and the files that take one number ---- */

/* .arg: its struct ctl_number */
ssize_t ctl_store_number(struct sf_control *c, const struct ctl_input *in)
{
	const struct ctl_number *num = in->file->arg;
	long long v;
	int rc;

	rc = ctl_parse_bounded(c, in->file->name, &num->bounds, in->buf,
			       in->len, &v);
	if (rc == 0)
		rc = num->set(c, in, v);
	return rc ? rc : (ssize_t)in->len;
}

static int ctl_show_logging(struct sf_control *c, struct ctl_buf *out)
{
	return ctl_buf_printf(out, "%d\n", atomic_load(&c->logging));
}

static int ctl_set_logging(struct sf_control *c, const struct ctl_input *in,
			   long long v)
{
	(void)in;
	atomic_store(&c->logging, (int)v);
	if (c->hooks.set_logging)
		c->hooks.set_logging(c->hooks.arg, (int)v);
	return 0;
}

/* kstrtoint_from_user(), then 0 to 3. */
static const struct ctl_number ctl_logging = {
	.bounds = { .min = INT_MIN, .max = INT_MAX, .lo = 0,
		    .hi = SF_LOG_ALL, .want = "0, 1, 2 or 3" },
	.set = ctl_set_logging,
};

/* ---- syslog, ptrace: kept and shown (smackfuse does not apply them) ---- */

/* The label and its NUL, as smackfs shows it; "*" while unset. */
static int ctl_show_syslog(struct sf_control *c, struct ctl_buf *out)
{
	const char *name = c->syslog != SF_LID_INVALID ?
			   sf_label_name(c->labels, c->syslog) : NULL;

	if (!name)
		name = "*";
	return ctl_buf_append(out, name, strlen(name) + 1);
}

/* One label, and at most a newline after it. */
static ssize_t ctl_store_syslog(struct sf_control *c,
				const struct ctl_input *in)
{
	struct sf_error err = { .file = "syslog", .line = 1 };
	size_t n = in->len;
	sf_lid lid;

	if (n && in->buf[n - 1] == '\n')
		n--;
	if (sf_label_valid(in->buf, n, &err) ||
	    sf_label_intern(c->labels, in->buf, n, &lid, &err)) {
		ctl_log_error(c, &err);
		return -EINVAL;
	}
	c->syslog = lid;
	return (ssize_t)in->len;
}

static int ctl_show_ptrace(struct sf_control *c, struct ctl_buf *out)
{
	return ctl_buf_printf(out, "%d\n", c->ptrace);
}

static int ctl_set_ptrace(struct sf_control *c, const struct ctl_input *in,
			  long long v)
{
	(void)in;
	c->ptrace = (int)v;
	return 0;
}

/* kstrtoint_from_user(), then 0 (default), 1 (exact) or 2 (draconian). */
static const struct ctl_number ctl_ptrace = {
	.bounds = { .min = INT_MIN, .max = INT_MAX, .lo = 0, .hi = 2,
		    .want = "0, 1 or 2" },
	.set = ctl_set_ptrace,
};

/* ---- status ---- */

/*
 * Append what @show prints (it counts what it would print past @size, as
 * snprintf; NULL and 0 only count).  The daemon's counters may grow
 * between the sizing and the writing: size again until the text fits,
 * so that no part of the status is ever left out or cut short.
 */
static int ctl_buf_show(struct ctl_buf *out,
			size_t (*show)(void *, char *, size_t), void *arg)
{
	size_t n = show(arg, NULL, 0);
	int tries;

	for (tries = 0; tries < 8; tries++) {
		if (ctl_buf_reserve(out, n + 64))
			return -ENOMEM;
		n = show(arg, out->data + out->len, out->cap - out->len);
		if (n < out->cap - out->len) {
			out->len += n;
			return 0;
		}
	}
	return -EAGAIN;
}

static size_t ctl_net_status_show(void *arg, char *buf, size_t size)
{
	return ctl_net_status(arg, buf, size);
}

static int ctl_show_status(struct sf_control *c, struct ctl_buf *out)
{
	u32 nrules;
	int rc;

	sf_rcu_read_lock();
	nrules = sf_snapshot_nrules(sf_policy_snapshot(c->policy));
	sf_rcu_read_unlock();
	/* The daemon's hook names the mount, source, subject source and
	 * counters; without a daemon, say what we know. */
	if (c->hooks.status)
		rc = ctl_buf_show(out, c->hooks.status, c->hooks.arg);
	else
		rc = ctl_buf_printf(out, "source: %s\nmountpoint: %s\n"
				    "subject: none (no enforcement mount)\n"
				    "logging: %d\n", c->source,
				    c->mountpoint, atomic_load(&c->logging));
	if (rc == 0)
		rc = ctl_buf_printf(out, "control: %s\nrules: %u\n"
				    "labels: %u\npolicy writes: %lu\n"
				    "policy writes rejected: %lu\n", c->dir,
				    nrules, sf_labels_count(c->labels),
				    atomic_load(&c->writes),
				    atomic_load(&c->rejected));
	if (rc == 0)
		rc = ctl_buf_show(out, ctl_net_status_show, c);
	return rc;
}

/* ---- the table: smackfs's files, then smackfuse's own ---- */

/*
 * { name, mode, flags, show, store, show_own, arg }: a store shared by
 * several files (ctl_store_rules, ctl_store_number) finds in @arg what
 * this file is.
 */
const struct ctl_file ctl_files[] = {
	{ "load2", 0644, CTL_PRIV, ctl_show_load2, ctl_store_rules, NULL,
	  &ctl_load2 },
	{ "load", 0644, CTL_PRIV, ctl_show_load, ctl_store_rules, NULL,
	  &ctl_load },
	{ "change-rule", 0644, CTL_PRIV, NULL, ctl_store_rules, NULL,
	  &ctl_change_rule },
	{ "access2", 0666, CTL_TXN, NULL, ctl_store_access2, NULL, NULL },
	{ "access", 0666, CTL_TXN, NULL, ctl_store_access, NULL, NULL },
	{ "revoke-subject", 0644, CTL_PRIV, NULL, ctl_store_rules, NULL,
	  &ctl_revoke },
	{ "onlycap", 0644, CTL_PRIV, ctl_show_onlycap, ctl_store_rules, NULL,
	  &ctl_onlycap },
	{ "logging", 0644, CTL_PRIV, ctl_show_logging, ctl_store_number, NULL,
	  &ctl_logging },
	{ "cipso2", 0644, CTL_PRIV, ctl_show_cipso2, ctl_store_cipso2, NULL,
	  NULL },
	{ "cipso", 0644, CTL_PRIV, ctl_show_cipso, ctl_store_cipso, NULL,
	  NULL },
	{ "doi", 0644, CTL_PRIV, ctl_show_doi, ctl_store_number, NULL,
	  &ctl_doi_number },
	{ "direct", 0644, CTL_PRIV, ctl_show_direct, ctl_store_number, NULL,
	  &ctl_level_number },
	{ "mapped", 0644, CTL_PRIV, ctl_show_mapped, ctl_store_number, NULL,
	  &ctl_level_number },
	{ "ambient", 0644, CTL_PRIV, ctl_show_ambient, ctl_store_ambient,
	  NULL, NULL },
	{ "netlabel", 0644, CTL_PRIV, ctl_show_netlabel, ctl_store_netlabel,
	  NULL, NULL },
	/* refused, never kept (control_self.c): they read empty */
	{ "load-self", 0666, 0, NULL, ctl_store_load_self, NULL, NULL },
	{ "load-self2", 0666, 0, NULL, ctl_store_load_self2, NULL, NULL },
	{ "relabel-self", 0666, CTL_PRIV, NULL, ctl_store_relabel_self,
	  ctl_show_relabel_self, NULL },
	{ "syslog", 0644, CTL_PRIV, ctl_show_syslog, ctl_store_syslog, NULL,
	  NULL },
	{ "ptrace", 0644, CTL_PRIV, ctl_show_ptrace, ctl_store_number, NULL,
	  &ctl_ptrace },
	{ "ipv6host", 0644, CTL_PRIV, ctl_show_ipv6host, ctl_store_ipv6host,
	  NULL, NULL },
	{ "status", 0444, 0, ctl_show_status, NULL, NULL, NULL },
	{ "load-rules", 0200, CTL_PRIV | CTL_COLLECT, NULL, ctl_store_rules,
	  NULL, &ctl_load_rules },
	{ "replace-rules", 0200, CTL_PRIV | CTL_COLLECT, NULL,
	  ctl_store_rules, NULL, &ctl_replace_rules },
};
const size_t ctl_nfiles = sizeof(ctl_files) / sizeof(ctl_files[0]);
