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

static ssize_t ctl_store_rules(struct sf_control *c, const char *name,
			       ctl_parse_fn parse, const char *buf,
			       size_t len)
{
	ssize_t n = ctl_whole_lines(buf, len);

	/* smackfs refuses a write that holds no rule ("\n" included). */
	if (!ctl_has_text(buf, len)) {
		ctl_log(c, LOG_WARNING, "rejected write: %s: no rule", name);
		return -EINVAL;
	}
	if (n < 0) {
		ctl_log(c, LOG_WARNING,
			"rejected write: %s: no complete line in %zu bytes",
			name, len);
		return n;
	}
	return ctl_apply(c, name, parse, buf, (size_t)n, false);
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

static ssize_t ctl_store_load2(struct sf_control *c,
			       const struct ctl_caller *who, const char *buf,
			       size_t len, struct ctl_buf *out)
{
	(void)who;
	(void)out;
	return ctl_store_rules(c, "load2", sf_parse_load2, buf, len);
}

static int ctl_show_load(struct sf_control *c, struct ctl_buf *out)
{
	return ctl_show_printed(c, out, sf_print_load);
}

static ssize_t ctl_store_load(struct sf_control *c,
			      const struct ctl_caller *who, const char *buf,
			      size_t len, struct ctl_buf *out)
{
	(void)who;
	(void)out;
	/* One fixed-width record per write, sized as smackfs sizes it. */
	return ctl_apply(c, "load", sf_parse_load_record, buf, len, false);
}

static ssize_t ctl_store_change_rule(struct sf_control *c,
				     const struct ctl_caller *who,
				     const char *buf, size_t len,
				     struct ctl_buf *out)
{
	(void)who;
	(void)out;
	return ctl_store_rules(c, "change-rule", sf_parse_change_rule, buf,
			       len);
}

static ssize_t ctl_store_revoke(struct sf_control *c,
				const struct ctl_caller *who,
				const char *buf, size_t len,
				struct ctl_buf *out)
{
	(void)who;
	(void)out;
	return ctl_apply(c, "revoke-subject", sf_parse_revoke_subject, buf,
			 len, false);
}

static int ctl_show_onlycap(struct sf_control *c, struct ctl_buf *out)
{
	return ctl_show_printed(c, out, sf_print_onlycap);
}

static ssize_t ctl_store_onlycap(struct sf_control *c,
				 const struct ctl_caller *who,
				 const char *buf, size_t len,
				 struct ctl_buf *out)
{
	(void)who;
	(void)out;
	return ctl_apply(c, "onlycap", sf_parse_onlycap, buf, len, false);
}

/* ---- smackfuse extensions: whole rule files, applied at close ---- */

static ssize_t ctl_store_load_rules(struct sf_control *c,
				    const struct ctl_caller *who,
				    const char *buf, size_t len,
				    struct ctl_buf *out)
{
	(void)who;
	(void)out;
	return ctl_apply(c, "load-rules", sf_parse_rule_file, buf, len,
			 false);
}

static ssize_t ctl_store_replace_rules(struct sf_control *c,
				       const struct ctl_caller *who,
				       const char *buf, size_t len,
				       struct ctl_buf *out)
{
	ssize_t rc;

	(void)who;
	(void)out;
	rc = ctl_apply(c, "replace-rules", sf_parse_rule_file, buf, len,
		       true);
	if (rc >= 0 && c->hooks.reload)
		c->hooks.reload(c->hooks.arg);
	return rc;
}

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
				 const struct ctl_caller *who,
				 const char *buf, size_t len,
				 struct ctl_buf *out)
{
	(void)who;
	return ctl_query(c, "access2", sf_parse_access2, buf, len, out);
}

static ssize_t ctl_store_access(struct sf_control *c,
				const struct ctl_caller *who,
				const char *buf, size_t len,
				struct ctl_buf *out)
{
	ssize_t rc;

	(void)who;
	rc = ctl_query(c, "access", sf_parse_access_record, buf, len, out);
	/* smackfs counts an access query as SF_LOADLEN bytes, whatever
	 * was written. */
	return rc < 0 ? rc : SF_LOADLEN;
}

/* ---- logging ---- */

static int ctl_show_logging(struct sf_control *c, struct ctl_buf *out)
{
	return ctl_buf_printf(out, "%d\n", atomic_load(&c->logging));
}

/* kstrtoint_from_user(), then 0 to 3. */
static const struct ctl_bounds ctl_logging_bounds = {
	.file = "logging", .min = INT_MIN, .max = INT_MAX, .lo = 0,
	.hi = SF_LOG_ALL,
	.want = "0, 1, 2 or 3",
};

static ssize_t ctl_store_logging(struct sf_control *c,
				 const struct ctl_caller *who,
				 const char *buf, size_t len,
				 struct ctl_buf *out)
{
	long long v;
	int rc;

	(void)who;
	(void)out;
	rc = ctl_parse_bounded(c, &ctl_logging_bounds, buf, len, &v);
	if (rc < 0)
		return rc;
	atomic_store(&c->logging, (int)v);
	if (c->hooks.set_logging)
		c->hooks.set_logging(c->hooks.arg, (int)v);
	return (ssize_t)len;
}

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
				const struct ctl_caller *who,
				const char *buf, size_t len,
				struct ctl_buf *out)
{
	struct sf_error err = { .file = "syslog", .line = 1 };
	size_t n = len;
	sf_lid lid;

	(void)who;
	(void)out;
	if (n && buf[n - 1] == '\n')
		n--;
	if (sf_label_valid(buf, n, &err) ||
	    sf_label_intern(c->labels, buf, n, &lid, &err)) {
		ctl_log_error(c, &err);
		return -EINVAL;
	}
	c->syslog = lid;
	return (ssize_t)len;
}

static int ctl_show_ptrace(struct sf_control *c, struct ctl_buf *out)
{
	return ctl_buf_printf(out, "%d\n", c->ptrace);
}

/* kstrtoint_from_user(), then 0 (default), 1 (exact) or 2 (draconian). */
static const struct ctl_bounds ctl_ptrace_bounds = {
	.file = "ptrace", .min = INT_MIN, .max = INT_MAX, .lo = 0, .hi = 2,
	.want = "0, 1 or 2",
};

static ssize_t ctl_store_ptrace(struct sf_control *c,
				const struct ctl_caller *who,
				const char *buf, size_t len,
				struct ctl_buf *out)
{
	long long v;
	int rc;

	(void)who;
	(void)out;
	rc = ctl_parse_bounded(c, &ctl_ptrace_bounds, buf, len, &v);
	if (rc < 0)
		return rc;
	c->ptrace = (int)v;
	return (ssize_t)len;
}

/* ---- status ---- */

static int ctl_show_status(struct sf_control *c, struct ctl_buf *out)
{
	u32 nrules;
	size_t n;
	int rc = 0;

	sf_rcu_read_lock();
	nrules = sf_snapshot_nrules(sf_policy_snapshot(c->policy));
	sf_rcu_read_unlock();
	/* The daemon's hook names the mount, source, subject source and
	 * counters; without a daemon, say what we know. */
	if (c->hooks.status) {
		n = c->hooks.status(c->hooks.arg, NULL, 0);
		if (ctl_buf_reserve(out, n))
			return -ENOMEM;
		n = c->hooks.status(c->hooks.arg, out->data + out->len,
				    out->cap - out->len);
		out->len += n < out->cap - out->len ? n : 0;
	} else {
		rc = ctl_buf_printf(out, "source: %s\nmountpoint: %s\n"
				    "subject: none (no enforcement mount)\n"
				    "logging: %d\n", c->source,
				    c->mountpoint, atomic_load(&c->logging));
	}
	if (rc == 0)
		rc = ctl_buf_printf(out, "control: %s\nrules: %u\n"
				    "labels: %u\npolicy writes: %lu\n"
				    "policy writes rejected: %lu\n", c->dir,
				    nrules, sf_labels_count(c->labels),
				    atomic_load(&c->writes),
				    atomic_load(&c->rejected));
	if (rc == 0) {
		n = ctl_net_status(c, NULL, 0);
		if (ctl_buf_reserve(out, n))
			return -ENOMEM;
		out->len += ctl_net_status(c, out->data + out->len,
					   out->cap - out->len);
	}
	return rc;
}

/* ---- the table: smackfs's files, then smackfuse's own ---- */

const struct ctl_file ctl_files[] = {
	{ "load2", 0644, CTL_PRIV, ctl_show_load2, ctl_store_load2, NULL },
	{ "load", 0644, CTL_PRIV, ctl_show_load, ctl_store_load, NULL },
	{ "change-rule", 0644, CTL_PRIV, NULL, ctl_store_change_rule, NULL },
	{ "access2", 0666, CTL_TXN, NULL, ctl_store_access2, NULL },
	{ "access", 0666, CTL_TXN, NULL, ctl_store_access, NULL },
	{ "revoke-subject", 0644, CTL_PRIV, NULL, ctl_store_revoke, NULL },
	{ "onlycap", 0644, CTL_PRIV,
	  ctl_show_onlycap, ctl_store_onlycap, NULL },
	{ "logging", 0644, CTL_PRIV,
	  ctl_show_logging, ctl_store_logging, NULL },
	{ "cipso2", 0644, CTL_PRIV, ctl_show_cipso2, ctl_store_cipso2, NULL },
	{ "cipso", 0644, CTL_PRIV, ctl_show_cipso, ctl_store_cipso, NULL },
	{ "doi", 0644, CTL_PRIV, ctl_show_doi, ctl_store_doi, NULL },
	{ "direct", 0644, CTL_PRIV, ctl_show_direct, ctl_store_direct, NULL },
	{ "mapped", 0644, CTL_PRIV, ctl_show_mapped, ctl_store_mapped, NULL },
	{ "ambient", 0644, CTL_PRIV,
	  ctl_show_ambient, ctl_store_ambient, NULL },
	{ "netlabel", 0644, CTL_PRIV,
	  ctl_show_netlabel, ctl_store_netlabel, NULL },
	/* refused, never kept (control_self.c): they read empty */
	{ "load-self", 0666, 0, NULL, ctl_store_load_self, NULL },
	{ "load-self2", 0666, 0, NULL, ctl_store_load_self2, NULL },
	{ "relabel-self", 0666, CTL_PRIV, NULL, ctl_store_relabel_self,
	  ctl_show_relabel_self },
	{ "syslog", 0644, CTL_PRIV, ctl_show_syslog, ctl_store_syslog, NULL },
	{ "ptrace", 0644, CTL_PRIV, ctl_show_ptrace, ctl_store_ptrace, NULL },
	{ "ipv6host", 0644, CTL_PRIV,
	  ctl_show_ipv6host, ctl_store_ipv6host, NULL },
	{ "status", 0444, 0, ctl_show_status, NULL, NULL },
	{ "load-rules", 0200, CTL_PRIV | CTL_COLLECT, NULL,
	  ctl_store_load_rules, NULL },
	{ "replace-rules", 0200, CTL_PRIV | CTL_COLLECT, NULL,
	  ctl_store_replace_rules, NULL },
};
const size_t ctl_nfiles = sizeof(ctl_files) / sizeof(ctl_files[0]);
