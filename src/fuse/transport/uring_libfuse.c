// SPDX-License-Identifier: GPL-2.0-only
/*
 * uring_libfuse.c - FUSE over io_uring by libfuse's own ring (3.18 and
 * later, built with liburing), where libfuse has one: the daemon asks for
 * it with the session option io_uring, and libfuse builds a queue per CPU,
 * asks for the ring in INIT's reply, and runs each request's handler on
 * its queue's thread (lib/fuse_uring.c).
 *
 * That thread serves every request its CPU's callers make, one after the
 * other.  A handler that waits for as long as something else decides (a
 * lock wait, fsync) would hold up the CPU's queue, and a lock wait whose
 * release came in behind it on that queue would never end.  So such a
 * request runs on another thread (sf_lr_ops's wrappers), which answers
 * it: libfuse takes a ring request's reply from any thread.  But the
 * thread that answers submits the entry's next fetch, and the kernel
 * cancels a submitter's commands when it exits (the entry is lost, and
 * the request the kernel hands it next fails with ECANCELED).  So those
 * threads never exit: a pool per CPU, bound to it as its queue's thread
 * is, that grows to the waits that run at once (SF_LR_MAX_WORKERS).
 *
 * libfuse's ring requests cannot be interrupted (libfuse 3.18 looks for
 * an INTERRUPT's request among the /dev/fuse ones only).  The kernel
 * interrupts a request when its caller has a signal to take; so while
 * such waits run, a watch looks at their callers every SF_LR_WATCH_MS and
 * wakes the wait of one that has, as lock.c's interrupt callback would.
 *
 * Whether libfuse did start its ring is told by INIT's reply where the
 * daemon sees it (wire.c), else by the first GETATTR: once the ring is up
 * the kernel sends every request but FORGET and INTERRUPT through it.
 * libfuse does not count the ring's requests.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>

#include "smackfuse.h"
#include "transport.h"
#include "uring_abi.h"
#include "wire.h"

/* How the status says whose ring it is. */
#define SF_LR_BY		", libfuse's"
#define SF_LR_NOT_STARTED	"libfuse could not start its ring (see its " \
				"message)"

static struct fuse_lowlevel_ops sf_lr_ops;
static const struct fuse_lowlevel_ops *sf_lr_orig;
static atomic_bool sf_lr_asked;		/* libfuse asked for the ring */
/* INIT's reply was not seen: the first GETATTR tells (once). */
static struct sf_fs *sf_lr_fs;
static atomic_bool sf_lr_checked;

const char *sf_ring_missing(bool hooked)
{
	(void)hooked;
	return NULL;
}

/* The session option that has libfuse ask for its ring at INIT.  With
 * -o uring=off libfuse's own switch (FUSE_URING_ENABLE in the
 * environment) must not turn it on behind the status's back. */
const char *sf_ring_fuse_opts(const struct sf_fs *fs)
{
	if (!fs->opt.uring_off)
		return "io_uring";
	unsetenv("FUSE_URING_ENABLE");
	return "";
}

/* libfuse asked for the ring (or not: it said why) in INIT's reply. */
bool sf_ring_init_reply(struct sf_fs *fs, struct fuse_init_out *o)
{
	(void)fs;
	atomic_store(&sf_lr_asked, (o->flags & FUSE_INIT_EXT) &&
		     (o->flags2 & (uint32_t)(FUSE_OVER_IO_URING >> 32)));
	return true;
}

void sf_ring_init_sent(struct sf_fs *fs, bool ok)
{
	if (ok && atomic_load(&sf_lr_asked))
		sf_uring_on(SF_LR_BY);
	else if (ok)
		sf_uring_set(false, SF_LR_NOT_STARTED);
	else
		sf_uring_set(false, "INIT's reply could not be written");
	sf_uring_say(fs);
}

/* INIT's reply is not seen (wire.c has no hooks): libfuse asks for the
 * ring when the kernel offers it, unless it cannot start it. */
void sf_ring_init_unseen(struct sf_fs *fs)
{
	atomic_store(&sf_lr_asked, true);
	sf_lr_fs = fs;
	sf_uring_on(SF_LR_BY);
	sf_uring_say(fs);
}

/* A GETATTR: through /dev/fuse after INIT, libfuse's ring is not up. */
static void sf_lr_getattr(fuse_req_t req, fuse_ino_t ino,
			  struct fuse_file_info *fi)
{
	if (sf_lr_fs && !fuse_req_is_uring(req) &&
	    atomic_exchange(&sf_lr_checked, true) == false) {
		atomic_store(&sf_lr_asked, false);
		sf_uring_set(false, SF_LR_NOT_STARTED);
		sf_uring_say(sf_lr_fs);
	}
	sf_lr_orig->getattr(req, ino, fi);
}

bool sf_ring_take(const struct iovec *iov, int count, ssize_t *res)
{
	(void)iov;
	(void)count;
	(void)res;
	return false;
}

/*
 * The RELEASE that dropped a lock may sit with another CPU's queue
 * thread, which libfuse runs: give the other CPUs a moment to answer what
 * they have been handed (the requests of one CPU come in order).
 */
#define SF_LR_SETTLE_US	2000

void sf_ring_settle(void)
{
	const struct timespec ts = { .tv_nsec = SF_LR_SETTLE_US * 1000L };

	if (atomic_load(&sf_lr_asked))
		nanosleep(&ts, NULL);
}

void sf_ring_stop(void)
{
	sf_uring_set(false, "stopped");
}

/* libfuse does not count its ring's requests. */
long sf_ring_requests(void)
{
	return -1;
}

/* ---- requests that may wait, on threads of their own ---- */

/* How often the callers of running lock waits are looked at. */
#define SF_LR_WATCH_MS		20

enum sf_lr_kind {
	SF_LR_SETLKW, SF_LR_FLOCK, SF_LR_FSYNC, SF_LR_FSYNCDIR,
	SF_LR_FALLOCATE, SF_LR_COPY,
};

/* Threads of one CPU's pool at most; past them a request runs on the
 * queue's thread (as without the pool). */
#define SF_LR_MAX_WORKERS	64

/* One request for a pool thread, with its arguments copied. */
struct sf_lr_job {
	struct sf_lr_job *next;		/* on its pool's queue, or running */
	pthread_t thread;		/* the pool thread running it */
	pid_t caller;			/* the request's thread */
	bool interruptible;		/* a lock wait */
	bool woken;			/* under sf_lr_jobs_lock */
	enum sf_lr_kind kind;
	fuse_req_t req;
	fuse_ino_t ino, ino_out;
	struct fuse_file_info fi, fi_out;
	struct flock lock;
	int arg;			/* flock's op, fsync's datasync,
					 * fallocate's mode, copy's flags */
	off_t off, off_out, len;
	size_t size;
};

/* One CPU's pool: its threads wait for jobs on @cond. */
struct sf_lr_pool {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct sf_lr_job *head, **tail;	/* waiting jobs, first in first */
	unsigned int queued;		/* on head */
	unsigned int threads;		/* started */
	unsigned int idle;		/* started and not running a job */
};

static struct sf_lr_pool *sf_lr_pools;	/* one per possible CPU */
static unsigned int sf_lr_npools;

/* Running jobs, for the watch of their callers' signals. */
static pthread_mutex_t sf_lr_jobs_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sf_lr_job *sf_lr_jobs;
static bool sf_lr_watching;		/* the watch runs */

static void sf_lr_watch_start(void);

static void sf_lr_call(struct sf_lr_job *j)
{
	const struct fuse_lowlevel_ops *o = sf_lr_orig;

	switch (j->kind) {
	case SF_LR_SETLKW:
		o->setlk(j->req, j->ino, &j->fi, &j->lock, 1);
		break;
	case SF_LR_FLOCK:
		o->flock(j->req, j->ino, &j->fi, j->arg);
		break;
	case SF_LR_FSYNC:
		o->fsync(j->req, j->ino, j->arg, &j->fi);
		break;
	case SF_LR_FSYNCDIR:
		o->fsyncdir(j->req, j->ino, j->arg, &j->fi);
		break;
	case SF_LR_FALLOCATE:
		o->fallocate(j->req, j->ino, j->arg, j->off, j->len, &j->fi);
		break;
	case SF_LR_COPY:
		o->copy_file_range(j->req, j->ino, j->off, &j->fi, j->ino_out,
				   j->off_out, &j->fi_out, j->size, j->arg);
		break;
	}
}

/* Run @job on this thread, watched while it runs if it is a lock wait. */
static void sf_lr_run(struct sf_lr_job *job)
{
	struct sf_lr_job **p;

	job->thread = pthread_self();
	pthread_mutex_lock(&sf_lr_jobs_lock);
	job->next = sf_lr_jobs;
	sf_lr_jobs = job;
	if (job->interruptible)
		sf_lr_watch_start();
	pthread_mutex_unlock(&sf_lr_jobs_lock);
	sf_lr_call(job);
	pthread_mutex_lock(&sf_lr_jobs_lock);
	for (p = &sf_lr_jobs; *p; p = &(*p)->next)
		if (*p == job) {
			*p = job->next;
			break;
		}
	pthread_mutex_unlock(&sf_lr_jobs_lock);
	free(job);
}

/* A pool thread: never exits (see the top of this file). */
static void *sf_lr_worker(void *arg)
{
	struct sf_lr_pool *pool = arg;
	struct sf_lr_job *job;

	/* Not the queue thread's name, which it would inherit. */
	pthread_setname_np(pthread_self(), "smackfuse-wait");
	pthread_mutex_lock(&pool->lock);
	for (;;) {
		while (!pool->head)
			pthread_cond_wait(&pool->cond, &pool->lock);
		job = pool->head;
		pool->head = job->next;
		if (!pool->head)
			pool->tail = &pool->head;
		pool->queued--;
		pool->idle--;
		pthread_mutex_unlock(&pool->lock);
		sf_lr_run(job);
		pthread_mutex_lock(&pool->lock);
		pool->idle++;
	}
	return NULL;
}

/* The pool of the CPU this queue thread is bound to. */
static struct sf_lr_pool *sf_lr_pool_here(void)
{
	int cpu = sched_getcpu();

	if (!sf_lr_pools || cpu < 0 || (unsigned int)cpu >= sf_lr_npools)
		return NULL;
	return &sf_lr_pools[cpu];
}

/*
 * Hand @job to a thread of this CPU's pool, starting one if none is idle
 * (it inherits the queue thread's CPU and signal mask); else run it here.
 */
static void sf_lr_offload(struct sf_lr_job *job)
{
	struct sf_lr_pool *pool = sf_lr_pool_here();
	bool queued = false;
	pthread_attr_t a;
	pthread_t t;

	job->caller = fuse_req_ctx(job->req)->pid;
	if (pool) {
		pthread_mutex_lock(&pool->lock);
		/* Jobs already queued have the idle threads' wakeups. */
		if (pool->idle <= pool->queued &&
		    pool->threads < SF_LR_MAX_WORKERS) {
			pthread_attr_init(&a);
			pthread_attr_setdetachstate(&a,
						    PTHREAD_CREATE_DETACHED);
			if (!pthread_create(&t, &a, sf_lr_worker, pool)) {
				pool->threads++;
				pool->idle++;	/* counted until it takes one */
			}
			pthread_attr_destroy(&a);
		}
		if (pool->idle > pool->queued) {
			job->next = NULL;
			*pool->tail = job;
			pool->tail = &job->next;
			pool->queued++;
			pthread_cond_signal(&pool->cond);
			queued = true;
		}
		pthread_mutex_unlock(&pool->lock);
	}
	if (!queued)
		sf_lr_run(job);
}

/* The pools, empty: threads start with the first jobs. */
static void sf_lr_pools_init(void)
{
	unsigned int i, n = sf_uring_queues();

	sf_lr_pools = calloc(n ? n : 1, sizeof(*sf_lr_pools));
	if (!sf_lr_pools)
		return;
	sf_lr_npools = n;
	for (i = 0; i < n; i++) {
		pthread_mutex_init(&sf_lr_pools[i].lock, NULL);
		pthread_cond_init(&sf_lr_pools[i].cond, NULL);
		sf_lr_pools[i].tail = &sf_lr_pools[i].head;
	}
}

/* A new job for a request from the ring; NULL when it is to run here
 * (from /dev/fuse, whose loop passes its token on instead, or no
 * memory). */
static struct sf_lr_job *sf_lr_job(fuse_req_t req, enum sf_lr_kind kind,
				   fuse_ino_t ino,
				   const struct fuse_file_info *fi)
{
	struct sf_lr_job *job;

	if (!fuse_req_is_uring(req))
		return NULL;
	job = calloc(1, sizeof(*job));
	if (!job)
		return NULL;
	job->req = req;
	job->kind = kind;
	job->ino = ino;
	if (fi)
		job->fi = *fi;
	return job;
}

static void sf_lr_setlk(fuse_req_t req, fuse_ino_t ino,
			struct fuse_file_info *fi, struct flock *lock,
			int sleep)
{
	struct sf_lr_job *job = sleep ? sf_lr_job(req, SF_LR_SETLKW, ino,
						  fi) : NULL;

	if (!job) {
		sf_lr_orig->setlk(req, ino, fi, lock, sleep);
		return;
	}
	job->lock = *lock;
	job->interruptible = true;
	sf_lr_offload(job);
}

static void sf_lr_flock(fuse_req_t req, fuse_ino_t ino,
			struct fuse_file_info *fi, int op)
{
	bool waits = (op & (LOCK_SH | LOCK_EX)) && !(op & LOCK_NB);
	struct sf_lr_job *job = waits ? sf_lr_job(req, SF_LR_FLOCK, ino, fi) :
					NULL;

	if (!job) {
		sf_lr_orig->flock(req, ino, fi, op);
		return;
	}
	job->arg = op;
	job->interruptible = true;
	sf_lr_offload(job);
}

/* FSYNC and FSYNCDIR (@op) differ only in the handler that serves
 * them. */
static void sf_lr_sync(fuse_req_t req, enum sf_lr_kind op, fuse_ino_t ino,
		       int datasync, struct fuse_file_info *fi)
{
	struct sf_lr_job *job = sf_lr_job(req, op, ino, fi);

	if (!job) {
		(op == SF_LR_FSYNC ? sf_lr_orig->fsync :
		 sf_lr_orig->fsyncdir)(req, ino, datasync, fi);
		return;
	}
	job->arg = datasync;
	sf_lr_offload(job);
}

static void sf_lr_fsync(fuse_req_t req, fuse_ino_t ino, int datasync,
			struct fuse_file_info *fi)
{
	sf_lr_sync(req, SF_LR_FSYNC, ino, datasync, fi);
}

static void sf_lr_fsyncdir(fuse_req_t req, fuse_ino_t ino, int datasync,
			   struct fuse_file_info *fi)
{
	sf_lr_sync(req, SF_LR_FSYNCDIR, ino, datasync, fi);
}

static void sf_lr_fallocate(fuse_req_t req, fuse_ino_t ino, int mode,
			    off_t off, off_t len, struct fuse_file_info *fi)
{
	struct sf_lr_job *job = sf_lr_job(req, SF_LR_FALLOCATE, ino, fi);

	if (!job) {
		sf_lr_orig->fallocate(req, ino, mode, off, len, fi);
		return;
	}
	job->arg = mode;
	job->off = off;
	job->len = len;
	sf_lr_offload(job);
}

static void sf_lr_copy_file_range(fuse_req_t req, fuse_ino_t ino_in,
				  off_t off_in, struct fuse_file_info *fi_in,
				  fuse_ino_t ino_out, off_t off_out,
				  struct fuse_file_info *fi_out, size_t len,
				  int flags)
{
	struct sf_lr_job *job = sf_lr_job(req, SF_LR_COPY, ino_in, fi_in);

	if (!job) {
		sf_lr_orig->copy_file_range(req, ino_in, off_in, fi_in,
					    ino_out, off_out, fi_out, len,
					    flags);
		return;
	}
	job->off = off_in;
	job->ino_out = ino_out;
	job->off_out = off_out;
	job->fi_out = *fi_out;
	job->size = len;
	job->arg = flags;
	sf_lr_offload(job);
}

/**
 * sf_ring_ops - @ops with the requests that may wait wrapped: on libfuse's
 * ring they run on threads of their own.  The handlers stay as they are.
 */
const struct fuse_lowlevel_ops *
sf_ring_ops(const struct fuse_lowlevel_ops *ops, size_t *size)
{
	sf_lr_orig = ops;
	sf_lr_ops = *ops;
	sf_lr_pools_init();
	*size = sizeof(sf_lr_ops);
	if (ops->getattr)
		sf_lr_ops.getattr = sf_lr_getattr;
	if (ops->setlk)
		sf_lr_ops.setlk = sf_lr_setlk;
	if (ops->flock)
		sf_lr_ops.flock = sf_lr_flock;
	if (ops->fsync)
		sf_lr_ops.fsync = sf_lr_fsync;
	if (ops->fsyncdir)
		sf_lr_ops.fsyncdir = sf_lr_fsyncdir;
	if (ops->fallocate)
		sf_lr_ops.fallocate = sf_lr_fallocate;
	if (ops->copy_file_range)
		sf_lr_ops.copy_file_range = sf_lr_copy_file_range;
	return &sf_lr_ops;
}

/* ---- INTERRUPT ---- */

/* The hex signal mask on /proc/TID/status's line @key ("\nSigPnd:"), or
 * 0 when there is none. */
static unsigned long long sf_lr_status_mask(const char *status,
					    const char *key)
{
	const char *p = strstr(status, key);

	return p ? strtoull(p + strlen(key), NULL, 16) : 0;
}

/* Does thread @tid have a signal to take (pending and not blocked)?
 * That is when the kernel interrupts the request it waits in. */
static bool sf_lr_signalled(pid_t tid)
{
	unsigned long long pnd, shd, blk;
	char path[64], buf[4096];

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	if (sf_read_small(path, buf, sizeof(buf)) <= 0)
		return false;
	pnd = sf_lr_status_mask(buf, "\nSigPnd:");
	shd = sf_lr_status_mask(buf, "\nShdPnd:");
	blk = sf_lr_status_mask(buf, "\nSigBlk:");
	/* SIGKILL cannot be blocked. */
	return ((pnd | shd) & (~blk | (1ULL << (SIGKILL - 1)))) != 0;
}

/*
 * One round of the watch, under sf_lr_jobs_lock: a job whose caller has a
 * signal to take is woken, and again each round until it is over (one
 * signal could land just before it enters its system call and be lost).
 */
static void sf_lr_watch_once(void)
{
	struct sf_lr_job *job;

	for (job = sf_lr_jobs; job; job = job->next) {
		if (!job->woken && job->interruptible)
			job->woken = sf_lr_signalled(job->caller);
		if (job->woken)
			pthread_kill(job->thread, SF_LOCK_SIGNAL);
	}
}

/* Runs while jobs do; the next job starts another. */
static void *sf_lr_watch(void *arg)
{
	const struct timespec period = { .tv_nsec = SF_LR_WATCH_MS * 1000000L };

	(void)arg;
	pthread_setname_np(pthread_self(), "smackfuse-watch");
	pthread_mutex_lock(&sf_lr_jobs_lock);
	while (sf_lr_jobs) {
		sf_lr_watch_once();
		pthread_mutex_unlock(&sf_lr_jobs_lock);
		nanosleep(&period, NULL);
		pthread_mutex_lock(&sf_lr_jobs_lock);
	}
	sf_lr_watching = false;
	pthread_mutex_unlock(&sf_lr_jobs_lock);
	return NULL;
}

/* With a new job on the list, under sf_lr_jobs_lock: watch it. */
static void sf_lr_watch_start(void)
{
	pthread_attr_t a;
	pthread_t t;

	if (sf_lr_watching)
		return;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	sf_lr_watching = pthread_create(&t, &a, sf_lr_watch, NULL) == 0;
	pthread_attr_destroy(&a);
}
