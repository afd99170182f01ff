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
 *
 * Kept files take descriptors from the same RLIMIT_NOFILE as the inode
 * table's O_PATH descriptors and the open files (inode.c keeps a quarter
 * of the limit for those), so at most a sixteenth of the limit is kept
 * here; past it a file is opened for its read alone, as before.  (A
 * guest's limit of 1,024 and 512 busy callers, three files each, left
 * lookups with EMFILE otherwise.)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
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
	[SF_PROC_STAT] = "stat",
};

static struct sf_procfd_slot {
	pthread_mutex_t lock;
	pid_t tid;			/* 0: empty */
	bool used;			/* read since another tid missed */
	int fd[SF_PROC_NFILES];		/* -1: not open */
} sf_procfd[SF_PROCFD_SLOTS];

static pthread_once_t sf_procfd_once = PTHREAD_ONCE_INIT;

/* Descriptors kept, and how many may be (set once, at the first read:
 * after main.c has raised the limit). */
static atomic_uint sf_procfd_kept;
static unsigned int sf_procfd_max;

static void sf_procfd_init(void)
{
	rlim_t lim = SF_PROCFD_SLOTS * SF_PROC_NFILES * 16;
	struct rlimit rl;
	unsigned int i;
	int f;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		lim = 1024;
	else if (rl.rlim_cur < lim)
		lim = rl.rlim_cur;
	sf_procfd_max = (unsigned int)(lim / 16);

	for (i = 0; i < SF_PROCFD_SLOTS; i++) {
		pthread_mutex_init(&sf_procfd[i].lock, NULL);
		for (f = 0; f < SF_PROC_NFILES; f++)
			sf_procfd[i].fd[f] = -1;
	}
}

static struct sf_procfd_slot *sf_procfd_slot(pid_t tid)
{
	uint32_t h = (uint32_t)tid * SF_GOLDEN_RATIO_32;

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
		if (s->fd[f] >= 0) {
			close(s->fd[f]);
			atomic_fetch_sub(&sf_procfd_kept, 1);
		}
		s->fd[f] = -1;
	}
	s->tid = tid;
	return true;
}

static int sf_procfd_open(pid_t tid, enum sf_procfile f, int *fd);
static int sf_procfd_pread(int fd, char *buf, size_t size);

/* May one more descriptor be kept?  Counted when it may. */
static bool sf_procfd_room(void)
{
	unsigned int n = atomic_load(&sf_procfd_kept);

	do {
		if (n >= sf_procfd_max)
			return false;
	} while (!atomic_compare_exchange_weak(&sf_procfd_kept, &n, n + 1));
	return true;
}

/* Open @f of @tid, read it once and close it: nothing kept. */
static int sf_procfd_read_once(pid_t tid, enum sf_procfile f, char *buf,
			       size_t size)
{
	int rc, once;

	rc = sf_procfd_open(tid, f, &once);
	if (!rc) {
		rc = sf_procfd_pread(once, buf, size);
		close(once);
	}
	return rc;
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
	int rc;

	if (tid <= 0 || size < 1)
		return -ESRCH;
	pthread_once(&sf_procfd_once, sf_procfd_init);
	s = sf_procfd_slot(tid);
	pthread_mutex_lock(&s->lock);
	if (!sf_procfd_claim(s, tid) || (s->fd[f] < 0 && !sf_procfd_room())) {
		pthread_mutex_unlock(&s->lock);
		return sf_procfd_read_once(tid, f, buf, size);
	}
	rc = 0;
	if (s->fd[f] < 0) {
		rc = sf_procfd_open(tid, f, &s->fd[f]);
		if (rc)
			atomic_fetch_sub(&sf_procfd_kept, 1);
	}
	if (!rc) {
		rc = sf_procfd_pread(s->fd[f], buf, size);
		if (rc == -ESRCH) {	/* that task is gone: this number's */
			close(s->fd[f]);
			rc = sf_procfd_open(tid, f, &s->fd[f]);
			if (!rc)
				rc = sf_procfd_pread(s->fd[f], buf, size);
			else
				atomic_fetch_sub(&sf_procfd_kept, 1);
		}
	}
	pthread_mutex_unlock(&s->lock);
	return rc;
}

/**
 * sf_proc_flags - the kernel's flags of thread @tid (field 9 of
 * /proc/TID/stat: PF_KTHREAD, PF_IO_WORKER, ... of include/linux/sched.h),
 * read through the kept file.  False when they cannot be read.
 */
bool sf_proc_flags(pid_t tid, unsigned long *flags)
{
	char buf[1024];
	const char *p;

	if (sf_proc_read(tid, SF_PROC_STAT, buf, sizeof(buf)) <= 0)
		return false;
	p = strrchr(buf, ')');	/* after the name, which may hold anything */
	return p && sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %lu", flags) == 1;
}
