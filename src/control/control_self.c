// SPDX-License-Identifier: GPL-2.0-only
/*
 * control_self.c - the per-task files: load-self, load-self2 and
 * relabel-self.
 *
 * In mainline these hold state of the writing task's credentials: rules
 * that further restrict that task and what it forks, and the labels it
 * may switch to without privilege.  load-self and load-self2 refuse every
 * well-formed write (below): rules the daemon cannot apply to the task's
 * children must not be taken.  relabel-self is kept per task, known by
 * the pid of the request and the start time of that pid (/proc/PID/stat),
 * so a recycled pid never inherits another task's list, and shown back in
 * smackfs's format; relabelling a task is the kernel's (see smackfuse(8)),
 * so a kept list never widens what a task may do.
 *
 * The control session is single-threaded: this table needs no lock.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "control_int.h"

#define CTL_TASKS_MAX	256	/* tasks with per-task state at once */
struct ctl_task {
	pid_t pid;
	unsigned long long start;	/* the pid's start time: its identity */
	sf_lid *relabel;
	size_t nrelabel;
};

/* starttime's field in /proc/PID/stat (proc(5)); comm is field 2. */
#define CTL_STAT_STARTTIME	22

/* Field CTL_STAT_STARTTIME of /proc/PID/stat; 0 when the task is gone. */
static unsigned long long ctl_task_start(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long start = 0;
	size_t n;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');	/* the command name may hold spaces */
	for (i = 2; p && i < CTL_STAT_STARTTIME; i++)
		p = strchr(p + 1, ' ');
	if (p && sscanf(p + 1, "%llu", &start) != 1)
		start = 0;
	return start;
}

static void ctl_task_clear(struct ctl_task *t)
{
	free(t->relabel);
	memset(t, 0, sizeof(*t));
}

void ctl_self_release(struct sf_control *c)
{
	size_t i;

	for (i = 0; i < c->ntasks; i++)
		ctl_task_clear(&c->tasks[i]);
	free(c->tasks);
	c->tasks = NULL;
	c->ntasks = 0;
}

/* Drop the state of tasks that have exited (or whose pid was reused). */
static void ctl_task_reap(struct sf_control *c)
{
	size_t i = 0;

	while (i < c->ntasks) {
		struct ctl_task *t = &c->tasks[i];

		if (ctl_task_start(t->pid) == t->start) {
			i++;
			continue;
		}
		ctl_task_clear(t);
		c->tasks[i] = c->tasks[--c->ntasks];
	}
}

/* The state of the caller; with @create, made if missing.  NULL: none
 * (or, with @create, no room: -ENOMEM for the caller). */
static struct ctl_task *ctl_task_of(struct sf_control *c,
				    const struct ctl_caller *who, bool create)
{
	unsigned long long start = ctl_task_start(who->pid);
	struct ctl_task *t;
	size_t i;

	if (!start)
		return NULL;
	for (i = 0; i < c->ntasks; i++) {
		t = &c->tasks[i];
		if (t->pid == who->pid && t->start == start)
			return t;
	}
	if (!create)
		return NULL;
	if (c->ntasks == CTL_TASKS_MAX)
		ctl_task_reap(c);
	if (c->ntasks == CTL_TASKS_MAX)
		return NULL;
	if (!c->tasks) {
		c->tasks = calloc(CTL_TASKS_MAX, sizeof(*c->tasks));
		if (!c->tasks)
			return NULL;
	}
	t = &c->tasks[c->ntasks++];
	memset(t, 0, sizeof(*t));
	t->pid = who->pid;
	t->start = start;
	return t;
}

/* ---- load-self, load-self2 ---- */

/*
 * Mainline keeps these rules in the writer's credentials: every check of
 * that task, and of every task it forks afterwards, also needs them.  The
 * daemon cannot follow a task's children (a fork is invisible to a
 * filesystem, and the kernel's process events name the real parent, not
 * the creator of a CLONE_PARENT child), so it could apply the rules to
 * the writer but not to what the writer starts.  Accepting the write
 * would tell the task it is restricted while its children are not: a
 * well-formed write is refused instead, with EOPNOTSUPP and a log line.
 * A malformed one is EINVAL, as in mainline.  Nothing is kept, so the
 * files read empty.
 */
static ssize_t ctl_self_store(struct sf_control *c, const char *name,
			      int (*parse)(struct sf_labels *, const char *,
					   size_t, struct sf_batch *,
					   struct sf_error *),
			      const char *buf, size_t len)
{
	struct sf_error err = { .file = name };
	struct sf_labels *scratch = sf_labels_new();
	struct sf_batch b;
	int rc;

	/* Parsed against a table of its own: a refused write must not
	 * leave its labels behind in the policy's (cipso2 lists them). */
	if (!scratch)
		return -ENOMEM;
	sf_batch_init(&b);
	rc = parse(scratch, buf, len, &b, &err);
	sf_batch_release(&b);
	sf_labels_free(scratch);
	if (rc == -EINVAL)
		ctl_log_error(c, &err);
	if (rc < 0)
		return rc;
	ctl_log(c, LOG_WARNING, "refused write: %s: smackfuse does not apply "
		"per-task rules (it cannot follow the task's children)", name);
	return -EOPNOTSUPP;
}

ssize_t ctl_store_load_self(struct sf_control *c, const struct ctl_input *in)
{
	return ctl_self_store(c, "load-self", sf_parse_load_record, in->buf,
			      in->len);
}

ssize_t ctl_store_load_self2(struct sf_control *c, const struct ctl_input *in)
{
	if (!ctl_has_text(in->buf, in->len)) {
		ctl_log(c, LOG_WARNING, "rejected write: load-self2: no rule");
		return -EINVAL;
	}
	return ctl_self_store(c, "load-self2", sf_parse_load2, in->buf,
			      in->len);
}

/* ---- relabel-self ---- */

/* Shown as smackfs shows it: each label followed by a space. */
int ctl_show_relabel_self(struct sf_control *c, const struct ctl_caller *who,
			  struct ctl_buf *out)
{
	struct ctl_task *t = ctl_task_of(c, who, false);
	size_t i;
	int rc = 0;

	for (i = 0; t && i < t->nrelabel && rc == 0; i++)
		rc = ctl_buf_printf(out, "%s ",
				    sf_label_name(c->labels, t->relabel[i]));
	return rc;
}

/*
 * A list of labels, parsed as onlycap is (a lone word starting with '-'
 * empties it); it replaces the caller's list.  Mainline asks privilege
 * for this (CTL_PRIV) although the file's mode lets anyone open it.
 */
ssize_t ctl_store_relabel_self(struct sf_control *c,
			       const struct ctl_input *in)
{
	struct sf_error err = { .file = "relabel-self" };
	struct ctl_task *t;
	struct sf_batch b;
	sf_lid *list = NULL;
	size_t n = 0;
	int rc;

	sf_batch_init(&b);
	rc = sf_parse_onlycap(c->labels, in->buf, in->len, &b, &err);
	if (rc == -EINVAL)
		ctl_log_error(c, &err);
	if (rc < 0)
		goto out;
	if (b.nops == 1 && b.ops[0].nlabels) {
		n = b.ops[0].nlabels;
		list = malloc(n * sizeof(*list));
		if (!list) {
			rc = -ENOMEM;
			goto out;
		}
		memcpy(list, b.ops[0].labels, n * sizeof(*list));
	}
	t = ctl_task_of(c, in->who, true);
	if (!t) {
		free(list);
		rc = -ENOMEM;
		goto out;
	}
	free(t->relabel);
	t->relabel = list;
	t->nrelabel = n;
out:
	sf_batch_release(&b);
	return rc < 0 ? rc : (ssize_t)in->len;
}
