// SPDX-License-Identifier: GPL-2.0-only
/*
 * check.c - the decision for one request, its audit line, and the hooks
 * the control filesystem calls to change it (invalidate, logging).
 *
 * Every hook has the shape of smk_curacc(): the caller's label, the
 * object's label, one sf_access() call, override by CAP_MAC_OVERRIDE
 * (narrowed by onlycap), then the audit line as logging asks.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "smackfuse.h"

/* Rate limit: a burst of SF_AUDIT_BURST lines, then SF_AUDIT_RATE a second
 * (printk_ratelimit style), counting what was dropped. */
#define SF_AUDIT_BURST	100
#define SF_AUDIT_RATE	20

static pthread_mutex_t sf_audit_lock = PTHREAD_MUTEX_INITIALIZER;
static double sf_audit_tokens = SF_AUDIT_BURST;
static struct timespec sf_audit_last;
static time_t sf_audit_notice;

void sf_audit_setup(struct sf_fs *fs)
{
	if (!fs->opt.foreground)
		openlog("smackfuse", LOG_PID, LOG_AUTHPRIV);
	clock_gettime(CLOCK_MONOTONIC, &sf_audit_last);
}

static bool sf_audit_allowed(struct sf_fs *fs, unsigned long *dropped)
{
	struct timespec now;
	bool ok;

	clock_gettime(CLOCK_MONOTONIC, &now);
	pthread_mutex_lock(&sf_audit_lock);
	sf_audit_tokens += (now.tv_sec - sf_audit_last.tv_sec) * SF_AUDIT_RATE +
		(now.tv_nsec - sf_audit_last.tv_nsec) * 1e-9 * SF_AUDIT_RATE;
	if (sf_audit_tokens > SF_AUDIT_BURST)
		sf_audit_tokens = SF_AUDIT_BURST;
	sf_audit_last = now;
	ok = sf_audit_tokens >= 1.0;
	if (ok)
		sf_audit_tokens -= 1.0;
	/* The "suppressed" notice goes out at most once a second, with a
	 * line that got through. */
	if (ok && now.tv_sec != sf_audit_notice) {
		sf_audit_notice = now.tv_sec;
		*dropped = atomic_exchange(&fs->stats.audit_dropped, 0);
	}
	pthread_mutex_unlock(&sf_audit_lock);
	if (!ok)
		atomic_fetch_add(&fs->stats.audit_dropped, 1);
	return ok;
}

/* The mount-relative path of @node, from its O_PATH descriptor. */
static void sf_audit_path(struct sf_fs *fs, struct sf_node *node,
			  const char *name, char *buf, size_t size)
{
	char proc[64], real[4096];
	size_t slen = strlen(fs->source);
	const char *rel;
	ssize_t len;

	sf_proc_path(node, proc, sizeof(proc));
	len = readlink(proc, real, sizeof(real) - 1);
	if (len < 0) {
		snprintf(buf, size, "%s", name ? name : "?");
		return;
	}
	real[len] = '\0';
	rel = real;
	if (!strncmp(real, fs->source, slen) &&
	    (real[slen] == '/' || !real[slen]))
		rel = real + slen;
	if (!strcmp(fs->source, "/"))
		rel = real;
	snprintf(buf, size, "%s%s%s%s", strcmp(fs->mountpoint, "/") ?
		 fs->mountpoint : "", rel, name ? "/" : "", name ? name : "");
}

static void sf_audit(struct sf_fs *fs, struct sf_subject *s, sf_lid object,
		     u32 request, bool denied, const char *fn,
		     struct sf_node *node, const char *name)
{
	char comm[64] = "?", path[4200], desc[4400], line[5000], p[64];
	unsigned long dropped = 0;
	struct sf_audit a;
	FILE *f;

	if (!sf_audit_allowed(fs, &dropped))
		return;
	snprintf(p, sizeof(p), "/proc/%d/comm", s->pid);
	f = s->pid > 0 ? fopen(p, "re") : NULL;
	if (f) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	sf_audit_path(fs, node, name, path, sizeof(path));
	snprintf(desc, sizeof(desc), "path=\"%s\" dev=\"smackfuse\" ino=%llu",
		 path, (unsigned long long)node->ino);
	a.fn = fn;
	a.denied = denied;
	a.subject = sf_label_name(fs->labels, s->lid);
	a.object = sf_label_name(fs->labels, object);
	a.request = request;
	a.pid = s->pid;
	a.comm = comm;
	a.objdesc = desc;
	sf_audit_format(&a, line, sizeof(line));
	if (fs->opt.foreground) {
		if (dropped)
			fprintf(stderr, "smackfuse: %lu audit lines "
				"suppressed\n", dropped);
		fprintf(stderr, "%s\n", line);
	} else {
		if (dropped)
			syslog(LOG_AUTHPRIV | LOG_WARNING,
			       "%lu audit lines suppressed", dropped);
		syslog(LOG_AUTHPRIV | LOG_NOTICE, "%s", line);
	}
}

/**
 * sf_check_label_quiet - would the rules alone give subject @s @request
 * on an object labelled @object?  No override, no counter, no audit line:
 * for a shortcut whose denial leads to a check that is audited.
 * Returns 0 or -EACCES.
 */
int sf_check_label_quiet(struct sf_fs *fs, struct sf_subject *s,
			 sf_lid object, u32 request)
{
	int rc;

	if (fs->opt.checks_off)
		return 0;
	sf_rcu_read_lock();
	rc = sf_access(sf_policy_snapshot(fs->policy), s->lid, object,
		       request, NULL);
	sf_rcu_read_unlock();
	return rc ? -EACCES : 0;
}

/*
 * What may_open() asks inode_permission() for, for open(2) with @flags:
 * the access mode, write for O_TRUNC, append for O_APPEND; an exec open
 * asks execute alone (do_open_execat's acc_mode).  Flags 3 ask read and
 * write, as ACC_MODE does.
 */
u32 sf_open_perm_request(int flags)
{
	static const u32 acc[4] = {
		[O_RDONLY] = SF_MAY_READ, [O_WRONLY] = SF_MAY_WRITE,
		[O_RDWR] = SF_MAY_READWRITE, [3] = SF_MAY_READWRITE,
	};
	u32 may;

	if (flags & SF_FMODE_EXEC)
		return SF_MAY_EXEC;
	may = acc[flags & O_ACCMODE];
	if (flags & O_TRUNC)
		may |= SF_MAY_WRITE;
	if (flags & O_APPEND)
		may |= SF_MAY_APPEND;
	return may;
}

/* What access(2) with @mode asks: smack_inode_permission with the
 * mode's bits (F_OK asks nothing). */
u32 sf_access_request(int mode)
{
	return ((mode & R_OK) ? SF_MAY_READ : 0) |
	       ((mode & W_OK) ? SF_MAY_WRITE : 0) |
	       ((mode & X_OK) ? SF_MAY_EXEC : 0);
}

/**
 * sf_check_label - may subject @s have @request on an object labelled
 * @object?  @node/@name only describe the object in the audit line.
 * Returns 0 or -EACCES.
 */
int sf_check_label(struct sf_fs *fs, struct sf_subject *s, sf_lid object,
		   u32 request, const char *fn, struct sf_node *node,
		   const char *name)
{
	struct sf_decision d;
	int rc, logging;

	if (fs->opt.checks_off)
		return 0;
	atomic_fetch_add_explicit(&fs->stats.checks, 1, memory_order_relaxed);
	sf_rcu_read_lock();
	rc = sf_access(sf_policy_snapshot(fs->policy), s->lid, object,
		       request, &d);
	sf_rcu_read_unlock();
	if (rc && sf_privileged(fs, s, SF_CAP_MAC_OVERRIDE))
		rc = 0;
	logging = atomic_load_explicit(&fs->logging, memory_order_relaxed);
	if (rc) {
		atomic_fetch_add_explicit(&fs->stats.denials, 1,
					  memory_order_relaxed);
		if (logging & SF_LOG_DENIED)
			sf_audit(fs, s, object, request, true, fn, node, name);
	} else {
		atomic_fetch_add_explicit(&fs->stats.grants, 1,
					  memory_order_relaxed);
		if (logging & SF_LOG_ACCEPTED)
			sf_audit(fs, s, object, request, false, fn, node,
				 name);
	}
	return rc ? -EACCES : 0;
}

/**
 * sf_check_node - may subject @s have @request on @node?  sf_check_label()
 * on the node's label; @name, when set, is the entry in @node the audit
 * line names.  Returns 0 or -EACCES.
 */
int sf_check_node(struct sf_fs *fs, struct sf_subject *s,
		  struct sf_node *node, u32 request, const char *fn,
		  const char *name)
{
	if (fs->opt.checks_off)
		return 0;
	return sf_check_label(fs, s, sf_node_label(fs, node), request, fn,
			      node, name);
}

/* ---- hooks for the control filesystem ---- */

/**
 * sf_invalidate_all - forget every cached label and make the kernel drop
 * every entry and attribute it cached.  Call after a rule, onlycap or
 * label change; not from inside a request of the enforcement session
 * (the kernel may hold the locks the notification needs).
 */
void sf_invalidate_all(void *arg)
{
	sf_nodes_invalidate(arg);
	sf_verdicts_flush(arg);
}

/* smackfuse.ko's verdicts go with a change: while grants are audited,
 * none is handed over (verdicts.c). */
void sf_set_logging(void *arg, int level)
{
	struct sf_fs *fs = arg;

	if (level >= 0 && level <= SF_LOG_ALL) {
		atomic_store(&fs->logging, level);
		sf_verdicts_flush(fs);
	}
}
