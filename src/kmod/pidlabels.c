// SPDX-License-Identifier: GPL-2.0-only
/*
 * pidlabels.c - the pidlabels file (kmod_abi.h, PIDLABELS): the label of
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
#include <linux/uaccess.h>
#include "smackfuse.h"

static ssize_t sf_pidlabels_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	char line[SF_LABEL_LINE];
	sf_lid lid;
	size_t n;
	int rc;

	if (*ppos <= 0 || *ppos > PID_MAX_LIMIT)
		return -EINVAL;
	rc = sf_pid_label((int)*ppos, &lid);
	if (rc)
		return rc;
	n = sf_label_line(lid, line);
	if (!n)
		return -EINVAL;
	if (count < n)
		return -EOVERFLOW;	/* never half a label */
	if (n > sizeof(line) || copy_to_user(ubuf, line, n))
		return -EFAULT;
	return n;
}

/* The offset is the question, so pread(2) is the only way to ask: the
 * file cannot be seeked, and read(2) reads at 0 (EINVAL). */
const struct file_operations sf_pidlabels_fops = {
	.owner = THIS_MODULE,
	.read = sf_pidlabels_read,
};
