// SPDX-License-Identifier: GPL-2.0-only
/*
 * procfd.c - a caller's /proc files, kept open between its requests.
 *
 * getattr.c reads the caller's /proc/TID/syscall for most GETATTRs of a
 * labelled caller, subject.c its /proc/PID/status when a decision needs
 * its capabilities.  Opening the file costs more than reading it (a walk
 * of /proc, an inode for the task: 8.3 us against 1.7 us for the read
 * alone, measured on a sleeping reader), and a process makes many
 * requests in a row, so the files stay open in a small table keyed by
 * thread id.
 *
 * A pid can be reused, but an open /proc file cannot follow it: it holds
 * the task's struct pid, and once that task is gone every read fails
 * with ESRCH (proc_single_show()), even when a new task has the same
 * number.  So a read through a kept file describes the task that holds
 * the number now, or fails; on ESRCH the file is opened again by number
 * and read once more.  An exec that takes over the thread group
 * leader's number (de_thread()) moves the leader's struct pid to the
 * exec'ing thread, so the kept file follows the number there too.  What
 * cannot be read fails as before: the caller decides as if the file did
 * not exist (getattr.c: the site is unknown; subject.c: no privilege).
 *
 * Each slot has a lock held across the read: the file is never closed
 * (and its number given to another open) while a thread reads it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "smackfuse.h"

/* Callers kept at once (a power of two): enough for the few hundred
 * processes of a busy shared host.  Each holds one open file, two when
 * its capabilities or kernel stack were asked for. */
#define SF_PROCFD_BITS	9
#define SF_PROCFD_SLOTS	(1u << SF_PROCFD_BITS)

static const char *const sf_procfd_names[SF_PROC_NFILES] = {
	[SF_PROC_SYSCALL] = "syscall",
	[SF_PROC_STACK] = "stack",
	[SF_PROC_STATUS] = "status",
};

static struct sf_procfd_slot {
	pthread_mutex_t lock;
	pid_t tid;			/* 0: empty */
	bool used;			/* read since another tid missed */
	int fd[SF_PROC_NFILES];		/* -1: not open */
} sf_procfd[SF_PROCFD_SLOTS];

static pthread_once_t sf_procfd_once = PTHREAD_ONCE_INIT;

static void sf_procfd_init(void)
{
	unsigned int i;
	int f;

	for (i = 0; i < SF_PROCFD_SLOTS; i++) {
		pthread_mutex_init(&sf_procfd[i].lock, NULL);
		for (f = 0; f < SF_PROC_NFILES; f++)
			sf_procfd[i].fd[f] = -1;
	}
}

static struct sf_procfd_slot *sf_procfd_slot(pid_t tid)
{
	uint32_t h = (uint32_t)tid * 2654435761u;

	return &sf_procfd[h >> (32 - SF_PROCFD_BITS)];
}

/*
 * Give the slot to @tid, closing another thread's files, unless that
 * thread has read through it since the last miss (a second chance, as
 * a clock does): then @tid's file is opened for this read alone, so
 * that two busy callers on one slot do not close each other's files at
 * every request.  Returns false in that case.
 */
static bool sf_procfd_claim(struct sf_procfd_slot *s, pid_t tid)
{
	int f;

	if (s->tid == tid) {
		s->used = true;
		return true;
	}
	if (s->used) {
		s->used = false;
		return false;
	}
	for (f = 0; f < SF_PROC_NFILES; f++) {
		if (s->fd[f] >= 0)
			close(s->fd[f]);
		s->fd[f] = -1;
	}
	s->tid = tid;
	return true;
}

static int sf_procfd_open(pid_t tid, enum sf_procfile f, int *fd)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)tid,
		 sf_procfd_names[f]);
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	return *fd < 0 ? -errno : 0;
}

/* One read from offset 0, which makes a seq_file show afresh. */
static int sf_procfd_pread(int fd, char *buf, size_t size)
{
	ssize_t len = pread(fd, buf, size - 1, 0);

	if (len < 0)
		return -errno;
	buf[len] = '\0';
	return (int)len;
}

/**
 * sf_proc_read - read file @f of thread @tid's /proc directory into @buf
 * (NUL-terminated), through a kept open file when there is one.
 * Returns the length or a negative errno, as sf_read_small().
 */
int sf_proc_read(pid_t tid, enum sf_procfile f, char *buf, size_t size)
{
	struct sf_procfd_slot *s;
	int rc, once;

	if (tid <= 0 || size < 1)
		return -ESRCH;
	pthread_once(&sf_procfd_once, sf_procfd_init);
	s = sf_procfd_slot(tid);
	pthread_mutex_lock(&s->lock);
	if (!sf_procfd_claim(s, tid)) {
		pthread_mutex_unlock(&s->lock);
		rc = sf_procfd_open(tid, f, &once);
		if (!rc) {
			rc = sf_procfd_pread(once, buf, size);
			close(once);
		}
		return rc;
	}
	rc = s->fd[f] < 0 ? sf_procfd_open(tid, f, &s->fd[f]) : 0;
	if (!rc) {
		rc = sf_procfd_pread(s->fd[f], buf, size);
		if (rc == -ESRCH) {	/* that task is gone: this number's */
			close(s->fd[f]);
			rc = sf_procfd_open(tid, f, &s->fd[f]);
			if (!rc)
				rc = sf_procfd_pread(s->fd[f], buf, size);
		}
	}
	pthread_mutex_unlock(&s->lock);
	return rc;
}
