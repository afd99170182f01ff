// SPDX-License-Identifier: GPL-2.0-only
/*
 * fs.c - the module's securityfs files (SF_KMOD_DIR, kmod_abi.h: their
 * names, and who writes and reads each): the smackfs-style interface.
 *
 * Every file is one struct sf_file: a show() that renders what a read
 * returns (rendered once, at open, so a reader sees one consistent text)
 * and a store() that handles one write().  Policy files instead name the
 * shared core's printer and parser, which the open and write handlers
 * call.  Transaction files (access2, pidlabel) answer a write by replacing
 * the text that the next read on the same open file returns.  Policy
 * writes go through the shared core's parsers, all-or-nothing, and need
 * CAP_MAC_ADMIN (narrowed by onlycap).
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "smackfuse.h"

struct sf_text {
	char *buf;
	size_t len;
};

typedef size_t (*sf_printer)(const struct sf_labels *,
			     const struct sf_snapshot *, char *, size_t);
typedef int (*sf_parser)(struct sf_labels *, const char *, size_t,
			 struct sf_batch *, struct sf_error *);

/*
 * A policy file (load2, onlycap, ...) names the core's printer and parser;
 * any other file has its own show() and store().
 */
struct sf_file {
	const char *name;
	umode_t mode;
	sf_printer print;
	sf_parser parse;
	int (*show)(struct sf_text *t);
	ssize_t (*store)(struct sf_text *t, char *buf, size_t len);
};

static int sf_text_set(struct sf_text *t, const char *s, size_t len)
{
	char *n = kvmalloc(len + 1, GFP_KERNEL);

	if (!n)
		return -ENOMEM;
	memcpy(n, s, len);
	n[len] = '\0';
	kvfree(t->buf);
	t->buf = n;
	t->len = len;
	return 0;
}

/* Render into @t with an snprintf-style @render, growing the buffer
 * while the text grew between sizing and printing. */
static int sf_text_render(struct sf_text *t,
			  size_t (*render)(const void *arg, char *buf,
					   size_t size),
			  const void *arg)
{
	size_t size = 256, need;
	char *buf;

	for (;;) {
		buf = kvmalloc(size, GFP_KERNEL);
		if (!buf)
			return -ENOMEM;
		need = render(arg, buf, size);
		if (need < size)
			break;
		kvfree(buf);
		size = need + 256;
	}
	kvfree(t->buf);
	t->buf = buf;
	t->len = need;
	return 0;
}

/* @arg points to one of the core's policy printers. */
static size_t sf_render_policy(const void *arg, char *buf, size_t size)
{
	const sf_printer *print = arg;
	size_t need;

	rcu_read_lock();
	need = (*print)(sf_policy_labels(sf_policy),
			sf_policy_snapshot(sf_policy), buf, size);
	rcu_read_unlock();
	return need;
}

static int sf_text_print(struct sf_text *t, sf_printer print)
{
	return sf_text_render(t, sf_render_policy, &print);
}

bool sf_admin(void)
{
	return sf_privileged(current_cred(), CAP_MAC_ADMIN,
			     sf_task_label(current));
}

/* Drop one trailing newline (echo adds it). */
static size_t sf_chomp(const char *buf, size_t len)
{
	if (len && buf[len - 1] == '\n')
		len--;
	return len;
}

static void sf_parse_failed(const char *file, struct sf_error *err)
{
	char msg[256];

	err->file = file;
	sf_error_format(err, msg, sizeof(msg));
	pr_warn_ratelimited("smackfuse: %s\n", msg);
}

/* ---- policy files ---- */

static ssize_t sf_apply(const char *file, sf_parser parse, char *buf,
			size_t len)
{
	struct sf_error err = { 0 };
	struct sf_batch b;
	int rc;

	if (!sf_admin())
		return -EPERM;
	sf_batch_init(&b);
	rc = parse(sf_policy_labels(sf_policy), buf, len, &b, &err);
	if (rc == -EINVAL)
		sf_parse_failed(file, &err);
	if (!rc)
		rc = sf_policy_apply(sf_policy, &b);
	sf_batch_release(&b);
	return rc ? rc : (ssize_t)len;
}

/* ---- access2: write "subject object access", read "1" or "0" ---- */

static ssize_t sf_store_access2(struct sf_text *t, char *buf, size_t len)
{
	struct sf_error err = { 0 };
	struct sf_query q;
	int rc;

	rc = sf_parse_access2(sf_policy_labels(sf_policy), buf, len, &q, &err);
	if (rc == -EINVAL)
		sf_parse_failed(SF_KMOD_ACCESS2, &err);
	if (rc)
		return rc;
	rcu_read_lock();
	rc = sf_access(sf_policy_snapshot(sf_policy), q.subject, q.object,
		       q.request, NULL);
	rcu_read_unlock();
	rc = sf_text_set(t, rc ? "0" : "1", 1);
	return rc ? rc : (ssize_t)len;
}

/* ---- current: the caller's own label ---- */

/**
 * sf_label_line - @lid's name and a newline into @line (SF_LABEL_LINE
 * bytes), as current, pidlabel and pidlabels read it.  Returns its
 * length, 0 for a label that has no name.
 */
size_t sf_label_line(sf_lid lid, char *line)
{
	const char *name = sf_label_name(sf_policy_labels(sf_policy), lid);
	size_t n;

	BUILD_BUG_ON(SF_KMOD_LABEL_LINE_MAX != SF_LABEL_MAX + 1);
	if (!name)
		return 0;
	n = strlen(name);
	if (n > SF_LABEL_MAX)	/* never: a label is no longer */
		return 0;
	memcpy(line, name, n);
	line[n++] = '\n';
	return n;
}

static int sf_show_label(struct sf_text *t, sf_lid lid)
{
	char line[SF_LABEL_LINE];
	size_t n = sf_label_line(lid, line);

	return n ? sf_text_set(t, line, n) : -EINVAL;
}

static int sf_show_current(struct sf_text *t)
{
	return sf_show_label(t, sf_task_label(current));
}

/*
 * Setting one's own label needs CAP_MAC_ADMIN (and onlycap), as writing
 * /proc/self/attr/current does under Smack; "*" and "@" may not be a
 * task's label.  The new label holds for this task and what it forks.
 */
static ssize_t sf_store_current(struct sf_text *t, char *buf, size_t len)
{
	struct sf_error err = { 0 };
	size_t n = sf_chomp(buf, len);
	sf_lid lid;
	int rc;

	if (!sf_admin())
		return -EPERM;
	rc = sf_label_intern(sf_policy_labels(sf_policy), buf, n, &lid, &err);
	if (rc)
		return rc;
	if (lid == SF_LID_STAR || lid == SF_LID_WEB)
		return -EINVAL;
	rc = sf_ltab_set(&sf_tasks, current, lid, GFP_KERNEL);
	return rc ? rc : (ssize_t)len;
}

/* ---- pidlabel: write a pid, read its label ---- */

/* The label of task @pid (in the caller's pid namespace) into *@lid;
 * -ESRCH if there is none.  pidlabels.c asks it too. */
int sf_pid_label(int pid, sf_lid *lid)
{
	struct task_struct *task;

	rcu_read_lock();
	task = pid_task(find_vpid(pid), PIDTYPE_PID);
	if (task)
		*lid = sf_task_label(task);
	rcu_read_unlock();
	return task ? 0 : -ESRCH;
}

static ssize_t sf_store_pidlabel(struct sf_text *t, char *buf, size_t len)
{
	sf_lid lid;
	int pid, rc;

	buf[sf_chomp(buf, len)] = '\0';
	rc = kstrtoint(buf, 10, &pid);
	if (rc || pid <= 0)
		return -EINVAL;
	rc = sf_pid_label(pid, &lid);
	if (!rc)
		rc = sf_show_label(t, lid);
	return rc ? rc : (ssize_t)len;
}

/* ---- netlabel and ambient: IPv4 host labels ---- */

static size_t sf_render_netlabel(const void *arg, char *buf, size_t size)
{
	return sf_netlabel_print(buf, size);
}

static int sf_show_netlabel(struct sf_text *t)
{
	return sf_text_render(t, sf_render_netlabel, NULL);
}

static ssize_t sf_store_netlabel(struct sf_text *t, char *buf, size_t len)
{
	struct sf_error err = { 0 };
	int rc;

	if (!sf_admin())
		return -EPERM;
	rc = sf_netlabel_write(buf, &err);
	if (rc == -EINVAL)
		sf_parse_failed(SF_KMOD_NETLABEL, &err);
	return rc ? rc : (ssize_t)len;
}

static int sf_show_ambient(struct sf_text *t)
{
	return sf_show_label(t, sf_ambient_get());
}

static ssize_t sf_store_ambient(struct sf_text *t, char *buf, size_t len)
{
	struct sf_error err = { 0 };
	sf_lid lid;
	int rc;

	if (!sf_admin())
		return -EPERM;
	rc = sf_label_import(sf_policy_labels(sf_policy), buf, len, &lid,
			     &err);
	if (rc)
		return rc;
	sf_ambient_set(lid);
	return len;
}

/* ---- doi, direct, mapped and cipso2: the CIPSO mapping (cipso4.c) ---- */

static size_t sf_render_cipso2(const void *arg, char *buf, size_t size)
{
	return sf_cipso2_print(buf, size);
}

static int sf_show_cipso2(struct sf_text *t)
{
	return sf_text_render(t, sf_render_cipso2, NULL);
}

/* One record per write, as smackfs takes it. */
static ssize_t sf_store_cipso2(struct sf_text *t, char *buf, size_t len)
{
	struct sf_error err = { 0 };
	int rc;

	if (!sf_admin())
		return -EPERM;
	rc = sf_cipso2_write(buf, len, &err);
	if (rc == -EINVAL || rc == -EOVERFLOW)
		sf_parse_failed(SF_KMOD_CIPSO2, &err);
	return rc ? rc : (ssize_t)len;
}

/* A number shown without a newline, as smackfs shows doi and direct. */
static int sf_show_cipso_number(struct sf_text *t, enum sf_cipso_number w)
{
	char line[16];
	int n = scnprintf(line, sizeof(line), "%u", sf_cipso_number(w));

	return sf_text_set(t, line, n);
}

/* kstrtou32/kstrtou8 as smackfs reads them (an optional newline). */
static ssize_t sf_store_cipso_number(char *buf, size_t len,
				     enum sf_cipso_number which)
{
	u32 v;
	u8 level;
	int rc;

	if (!sf_admin())
		return -EPERM;
	/* kstrtou32_from_user() and kstrtou8_from_user() read 34 and 10
	 * bytes at most (a sign, 32 or 8 binary digits, a newline) */
	buf[min_t(size_t, len, which == SF_CIPSO_DOI ? 34 : 10)] = '\0';
	if (which == SF_CIPSO_DOI) {
		rc = kstrtou32(buf, 10, &v);
	} else {
		rc = kstrtou8(buf, 10, &level);
		v = level;
	}
	if (!rc)
		rc = sf_cipso_number_set(which, v);
	return rc ? rc : (ssize_t)len;
}

static int sf_show_doi(struct sf_text *t)
{
	return sf_show_cipso_number(t, SF_CIPSO_DOI);
}

static ssize_t sf_store_doi(struct sf_text *t, char *buf, size_t len)
{
	return sf_store_cipso_number(buf, len, SF_CIPSO_DOI);
}

static int sf_show_direct(struct sf_text *t)
{
	return sf_show_cipso_number(t, SF_CIPSO_DIRECT);
}

static ssize_t sf_store_direct(struct sf_text *t, char *buf, size_t len)
{
	return sf_store_cipso_number(buf, len, SF_CIPSO_DIRECT);
}

static int sf_show_mapped(struct sf_text *t)
{
	return sf_show_cipso_number(t, SF_CIPSO_MAPPED);
}

static ssize_t sf_store_mapped(struct sf_text *t, char *buf, size_t len)
{
	return sf_store_cipso_number(buf, len, SF_CIPSO_MAPPED);
}

/* ---- logging and status ---- */

/* A setting that is one small number, read and written as decimal text. */
static int sf_show_int(struct sf_text *t, int value)
{
	char line[8];
	int n = scnprintf(line, sizeof(line), "%d\n", value);

	return sf_text_set(t, line, n);
}

/*
 * Store the decimal number in @buf into @setting if it lies in
 * [@min, @max]; anything else is -EINVAL and leaves @setting alone.
 */
static ssize_t sf_store_int(char *buf, size_t len, int min, int max,
			    int *setting)
{
	int v;

	if (!sf_admin())
		return -EPERM;
	buf[sf_chomp(buf, len)] = '\0';
	if (kstrtoint(buf, 10, &v) || v < min || v > max)
		return -EINVAL;
	WRITE_ONCE(*setting, v);
	return len;
}

static int sf_show_logging(struct sf_text *t)
{
	return sf_show_int(t, READ_ONCE(sf_log_policy));
}

static ssize_t sf_store_logging(struct sf_text *t, char *buf, size_t len)
{
	return sf_store_int(buf, len, 0, SF_LOG_ALL, &sf_log_policy);
}

/* ptrace: 0 default, 1 exact, 2 draconian (smackfs ptrace). */
static int sf_show_ptrace(struct sf_text *t)
{
	return sf_show_int(t, READ_ONCE(sf_ptrace_rule));
}

static ssize_t sf_store_ptrace(struct sf_text *t, char *buf, size_t len)
{
	return sf_store_int(buf, len, SF_PTRACE_DEFAULT, SF_PTRACE_DRACONIAN,
			    &sf_ptrace_rule);
}

/*
 * What a smackfuse daemon may rely on (kmod_abi.h, FEATURES): the ABI
 * version, then one word a line: perm_refresh and setattr_refresh
 * (hooks_fuse.c), the verdicts file (verdicts.c), the pidlabels file
 * (pidlabels.c), rcv_check (rcv.c).  A daemon that relies on a feature
 * keeps this file open, which keeps the module loaded (the file's
 * owner) for as long as it relies on it.
 */
static int sf_show_features(struct sf_text *t)
{
	static const char words[] =
		SF_FEATURE_PERM_REFRESH "\n" SF_FEATURE_SETATTR_REFRESH "\n"
		SF_FEATURE_VERDICTS "\n" SF_FEATURE_PIDLABELS "\n"
		SF_FEATURE_RCV_CHECK "\n";
	char text[sizeof(words) + 16];
	int n;

	n = scnprintf(text, sizeof(text), SF_FEATURES_ABI_FMT "%s",
		      SF_ABI_VERSION, words);
	return sf_text_set(t, text, n);
}

static int sf_show_status(struct sf_text *t)
{
	char text[1024];
	size_t len;
	u32 nrules;

	rcu_read_lock();
	nrules = sf_snapshot_nrules(sf_policy_snapshot(sf_policy));
	rcu_read_unlock();
	len = scnprintf(text, sizeof(text),
		"checks %lld\ndenials %lld\nmisses %lu\ncleanup_misses %lu\n"
		"nomem %lld\nlabelled_tasks %d\nipc_objects %d\n"
		"sockets %d\nprobes %u\nrules %u\nlabels %u\ntraps %lu\n"
		"file_owners %d\nlabelling %d\n",
		(long long)atomic64_read(&sf_count.checks),
		(long long)atomic64_read(&sf_count.denials),
		sf_probes_missed(false), sf_probes_missed(true),
		(long long)atomic64_read(&sf_count.nomem),
		atomic_read(&sf_tasks.count), atomic_read(&sf_ipcs.count),
		atomic_read(&sf_socks.count), sf_probes_count(), nrules,
		sf_labels_count(sf_policy_labels(sf_policy)),
		sf_probes_traps(), atomic_read(&sf_fowners.count),
		sf_cipso4_labelling());
	len += sf_probes_missed_detail(text + len, sizeof(text) - len);
	return sf_text_set(t, text, len);
}

#define SF_POLICY_FILE(n, m, pr, pa) \
	{ .name = (n), .mode = (m), .print = (pr), .parse = (pa) }
#define SF_FILE(n, m, sh, st) \
	{ .name = (n), .mode = (m), .show = (sh), .store = (st) }

static const struct sf_file sf_files[] = {
	SF_POLICY_FILE(SF_KMOD_LOAD2, 0644, sf_print_load2, sf_parse_load2),
	SF_POLICY_FILE(SF_KMOD_LOAD, 0644, sf_print_load, sf_parse_load),
	SF_POLICY_FILE(SF_KMOD_CHANGE_RULE, 0200, NULL, sf_parse_change_rule),
	SF_POLICY_FILE(SF_KMOD_REVOKE_SUBJECT, 0200, NULL,
		       sf_parse_revoke_subject),
	SF_POLICY_FILE(SF_KMOD_ONLYCAP, 0644, sf_print_onlycap,
		       sf_parse_onlycap),
	SF_FILE(SF_KMOD_ACCESS2, 0666, NULL, sf_store_access2),
	SF_FILE(SF_KMOD_CURRENT, 0666, sf_show_current, sf_store_current),
	SF_FILE(SF_KMOD_PIDLABEL, 0666, NULL, sf_store_pidlabel),
	SF_FILE(SF_KMOD_NETLABEL, 0644, sf_show_netlabel, sf_store_netlabel),
	SF_FILE(SF_KMOD_AMBIENT, 0644, sf_show_ambient, sf_store_ambient),
	SF_FILE(SF_KMOD_DOI, 0644, sf_show_doi, sf_store_doi),
	SF_FILE(SF_KMOD_DIRECT, 0644, sf_show_direct, sf_store_direct),
	SF_FILE(SF_KMOD_MAPPED, 0644, sf_show_mapped, sf_store_mapped),
	SF_FILE(SF_KMOD_CIPSO2, 0644, sf_show_cipso2, sf_store_cipso2),
	SF_FILE(SF_KMOD_LOGGING, 0644, sf_show_logging, sf_store_logging),
	SF_FILE(SF_KMOD_PTRACE, 0644, sf_show_ptrace, sf_store_ptrace),
	SF_FILE(SF_KMOD_STATUS, 0444, sf_show_status, NULL),
	SF_FILE(SF_KMOD_FEATURES, 0444, sf_show_features, NULL),
};

/* ---- the one set of file operations ---- */

static int sf_open(struct inode *inode, struct file *file)
{
	const struct sf_file *f = inode->i_private;
	struct sf_text *t;
	int rc = 0;

	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	if (file->f_mode & FMODE_READ) {
		if (f->print)
			rc = sf_text_print(t, f->print);
		else if (f->show)
			rc = f->show(t);
	}
	if (rc) {
		kfree(t);
		return rc;
	}
	file->private_data = t;
	return 0;
}

static ssize_t sf_read(struct file *file, char __user *ubuf, size_t count,
		       loff_t *ppos)
{
	struct sf_text *t = file->private_data;

	if (!t->buf)
		return 0;
	return simple_read_from_buffer(ubuf, count, ppos, t->buf, t->len);
}

/* Each write() is one whole request (one batch of whole lines). */
static ssize_t sf_write(struct file *file, const char __user *ubuf,
			size_t count, loff_t *ppos)
{
	const struct sf_file *f = file_inode(file)->i_private;
	ssize_t rc;
	char *buf;

	if (!f->store && !f->parse)
		return -EINVAL;
	if (count > SF_KMOD_WRITE_MAX)
		return -E2BIG;
	/* count bytes of the caller's, then our NUL: copying count + 1
	 * would read past the buffer (EFAULT at a page's end). */
	buf = kvmalloc(count + 1, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	if (copy_from_user(buf, ubuf, count)) {
		kvfree(buf);
		return -EFAULT;
	}
	buf[count] = '\0';
	if (f->parse)
		rc = sf_apply(f->name, f->parse, buf, count);
	else
		rc = f->store(file->private_data, buf, count);
	kvfree(buf);
	if (rc > 0) {
		*ppos = 0;	/* a transaction's answer is read from 0 */
	}
	return rc;
}

static int sf_release(struct inode *inode, struct file *file)
{
	struct sf_text *t = file->private_data;

	kvfree(t->buf);
	kfree(t);
	return 0;
}

static const struct file_operations sf_fops = {
	.owner = THIS_MODULE,
	.open = sf_open,
	.read = sf_read,
	.write = sf_write,
	.release = sf_release,
	.llseek = generic_file_llseek,
};

static struct dentry *sf_dir;
/* sf_files, then the files with operations of their own */
static struct dentry *sf_dentries[ARRAY_SIZE(sf_files) + 2];

static int sf_fs_file(unsigned int i, const char *name, umode_t mode,
		      void *data, const struct file_operations *fops)
{
	sf_dentries[i] = securityfs_create_file(name, mode, sf_dir, data,
						fops);
	if (IS_ERR(sf_dentries[i])) {
		int rc = PTR_ERR(sf_dentries[i]);

		sf_dentries[i] = NULL;
		pr_err("smackfuse: securityfs file %s: error %d\n", name, rc);
		return rc;
	}
	return 0;
}

int sf_fs_init(void)
{
	unsigned int i;
	int rc;

	sf_dir = securityfs_create_dir(SF_KMOD_DIR_NAME, NULL);
	if (IS_ERR(sf_dir)) {
		rc = PTR_ERR(sf_dir);
		sf_dir = NULL;
		pr_err("smackfuse: securityfs directory: error %d\n", rc);
		return rc;
	}
	for (i = 0, rc = 0; i < ARRAY_SIZE(sf_files) && !rc; i++)
		rc = sf_fs_file(i, sf_files[i].name, sf_files[i].mode,
				(void *)&sf_files[i], &sf_fops);
	/* verdicts.c: a daemon's own file, with state per open file;
	 * pidlabels.c: asked by pread(2)'s offset */
	if (!rc)
		rc = sf_fs_file(i, SF_KMOD_VERDICTS, 0200, NULL,
				&sf_verdicts_fops);
	if (!rc)
		rc = sf_fs_file(i + 1, SF_KMOD_PIDLABELS, 0444, NULL,
				&sf_pidlabels_fops);
	if (rc)
		sf_fs_exit();
	return rc;
}

void sf_fs_exit(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sf_dentries); i++) {
		securityfs_remove(sf_dentries[i]);
		sf_dentries[i] = NULL;
	}
	securityfs_remove(sf_dir);
	sf_dir = NULL;
}
