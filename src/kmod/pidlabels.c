// SPDX-License-Identifier: GPL-2.0-only
/*
 * pidlabels.c - /sys/kernel/security/smackfuse/pidlabels: the label of
 * any task in one system call.
 *
 * A smackfuse daemon with -o subject=kmod asks the label of the caller of
 * nearly every request it decides.  pidlabel's transaction (write the
 * pid, read the label) costs two system calls and two allocations; here
 * a pread(2) at offset PID returns the label of task PID (in the reader's
 * pid namespace) and a newline, with nothing kept between calls, so one
 * open file serves every thread of the daemon.  What it tells is what
 * pidlabel and /proc/PID/attr/current tell anyone.
 */
#include <linux/fs.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "smackfuse.h"

static ssize_t sf_pidlabels_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	char line[SF_LABEL_MAX + 2];
	struct task_struct *task;
	sf_lid lid = SF_LID_INVALID;
	const char *name;
	size_t n;

	if (*ppos <= 0 || *ppos > PID_MAX_LIMIT)
		return -EINVAL;
	rcu_read_lock();
	task = pid_task(find_vpid((int)*ppos), PIDTYPE_PID);
	if (task)
		lid = sf_task_label(task);
	rcu_read_unlock();
	if (!task)
		return -ESRCH;
	name = sf_label_name(sf_policy_labels(sf_policy), lid);
	if (!name)
		return -EINVAL;
	n = strlen(name);
	if (n >= sizeof(line))	/* no label is (SF_LABEL_MAX) */
		return -EINVAL;
	memcpy(line, name, n);
	line[n++] = '\n';
	if (count < n)
		return -EOVERFLOW;	/* never half a label */
	if (copy_to_user(ubuf, line, n))
		return -EFAULT;
	return n;
}

/* The offset is the question, so pread(2) is the only way to ask: the
 * file cannot be seeked, and read(2) reads at 0 (EINVAL). */
const struct file_operations sf_pidlabels_fops = {
	.owner = THIS_MODULE,
	.read = sf_pidlabels_read,
};
