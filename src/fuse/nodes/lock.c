// SPDX-License-Identifier: GPL-2.0-only
/*
 * lock.c - POSIX record locks on behalf of many processes.
 *
 * The daemon is one process, so its own POSIX locks would never conflict
 * with each other.  Instead each lock owner (the kernel's lock_owner, one
 * per process and file) gets an open file description of its own and the
 * locks are taken as OFD locks on it: owners conflict with each other, an
 * owner never conflicts with itself, and closing the owner's description
 * (on flush, as POSIX close() does) releases all its locks.
 *
 * A caller waiting for a lock can be interrupted, and killed: the kernel
 * then sends INTERRUPT, and the thread waiting on its behalf is woken by
 * a signal (sf_lock_wait()).  Without that, even SIGKILL would wait for
 * the lock.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "smackfuse.h"
#include "transport.h"

static pthread_mutex_t sf_locks_lock = PTHREAD_MUTEX_INITIALIZER;

/* The descriptor of @owner's locks on @n, opened on first use (read-write
 * if it can be, else as the open file's @flags), when asked on open file
 * @fh. */
int sf_lock_get(struct sf_node *n, uint64_t owner, uint64_t fh, int flags)
{
	struct sf_lockfd *l;
	char proc[64];
	int fd;

	pthread_mutex_lock(&sf_locks_lock);
	for (l = n->locks; l; l = l->next) {
		if (l->owner == owner) {
			fd = l->fd;
			pthread_mutex_unlock(&sf_locks_lock);
			return fd;
		}
	}
	sf_proc_path(n, proc, sizeof(proc));
	fd = open(proc, O_RDWR | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		fd = open(proc, (flags & O_ACCMODE) | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		fd = -errno;
		pthread_mutex_unlock(&sf_locks_lock);
		return fd;
	}
	l = malloc(sizeof(*l));
	if (!l) {
		close(fd);
		pthread_mutex_unlock(&sf_locks_lock);
		return -ENOMEM;
	}
	l->owner = owner;
	l->fh = fh;
	l->fd = fd;
	l->next = n->locks;
	atomic_store(&n->locked_once, true);
	n->locks = l;
	pthread_mutex_unlock(&sf_locks_lock);
	return fd;
}

/* Unlink from @n the first entry @match accepts. */
static struct sf_lockfd *sf_lock_take(struct sf_node *n,
				      bool (*match)(const struct sf_lockfd *,
						    uint64_t), uint64_t key)
{
	struct sf_lockfd **p, *l = NULL;

	pthread_mutex_lock(&sf_locks_lock);
	for (p = &n->locks; *p; p = &(*p)->next) {
		if (match(*p, key)) {
			l = *p;
			*p = l->next;
			break;
		}
	}
	pthread_mutex_unlock(&sf_locks_lock);
	return l;
}

static void sf_lock_free(struct sf_lockfd *l)
{
	close(l->fd);
	free(l);
}

static bool sf_lock_of_owner(const struct sf_lockfd *l, uint64_t owner)
{
	return l->owner == owner;
}

static bool sf_lock_of_file(const struct sf_lockfd *l, uint64_t fh)
{
	return l->fh == fh;
}

void sf_lock_release_owner(struct sf_node *n, uint64_t owner)
{
	struct sf_lockfd *l;

	/* Most files are never locked: every close(2) sends FLUSH, and
	 * it need not take the global lock for them.  An owner's lock
	 * taken concurrently with its own close is as racy either way. */
	if (!atomic_load(&n->locked_once))
		return;
	l = sf_lock_take(n, sf_lock_of_owner, owner);
	if (l)
		sf_lock_free(l);
}

/*
 * At RELEASE of open file @fh: the locks first asked on it.  An OFD lock
 * (fcntl F_OFD_SETLK) is owned by its open file, and FLUSH names the
 * closing process as owner, not the file; RELEASE names the file only
 * when it held a flock(2).  A POSIX owner that used @fh has closed it,
 * and its FLUSH released its locks, so what is left here is the file's.
 */
void sf_lock_release_file(struct sf_node *n, uint64_t fh)
{
	struct sf_lockfd *l;

	if (!atomic_load(&n->locked_once))
		return;
	while ((l = sf_lock_take(n, sf_lock_of_file, fh)))
		sf_lock_free(l);
}

void sf_lock_release_all(struct sf_node *n)
{
	struct sf_lockfd *l, *next;

	pthread_mutex_lock(&sf_locks_lock);
	l = n->locks;
	n->locks = NULL;
	pthread_mutex_unlock(&sf_locks_lock);
	for (; l; l = next) {
		next = l->next;
		sf_lock_free(l);
	}
}

/* SF_LOCK_SIGNAL's handler: it only breaks the wait (no SA_RESTART). */
static void sf_lock_woken(int sig)
{
	(void)sig;
}

/* At start-up, before any worker exists. */
int sf_lock_setup(void)
{
	struct sigaction sa = { .sa_handler = sf_lock_woken };

	sigemptyset(&sa.sa_mask);
	return sigaction(SF_LOCK_SIGNAL, &sa, NULL) ? -errno : 0;
}

struct sf_lock_waiter {
	pthread_t thread;
	atomic_bool done;
};

#define SF_LOCK_KICKS	5000	/* signals, 1 ms apart: at most 5 s */

/*
 * INTERRUPT for a waiting request.  One signal could land just before the
 * waiter enters its system call and be lost, so keep signalling until the
 * wait is over (a millisecond apart; libfuse holds the request, so the
 * waiter cannot go away meanwhile).
 */
static void sf_lock_interrupt(fuse_req_t req, void *data)
{
	struct sf_lock_waiter *w = data;
	const struct timespec ms = { .tv_nsec = 1000000 };	/* 1 ms */
	int i;

	(void)req;
	/* Called at once, by the waiter itself, if the request was
	 * interrupted before it could register: it checks for that. */
	if (pthread_equal(w->thread, pthread_self()))
		return;
	for (i = 0; i < SF_LOCK_KICKS && !atomic_load(&w->done); i++) {
		pthread_kill(w->thread, SF_LOCK_SIGNAL);
		nanosleep(&ms, NULL);
	}
}

/**
 * sf_lock_wait - wait for a lock on @fd for @req: an OFD lock @fl, or, if
 * @fl is NULL, flock(2) @op.  Returns 0 or an errno (EINTR if the caller
 * was interrupted).
 */
int sf_lock_wait(fuse_req_t req, int fd, struct flock *fl, int op)
{
	struct sf_lock_waiter w = { .thread = pthread_self() };
	int rc;

	fuse_req_interrupt_func(req, sf_lock_interrupt, &w);
	if (fuse_req_interrupted(req))
		rc = EINTR;
	else if (fl)
		rc = fcntl(fd, F_OFD_SETLKW, fl) ? errno : 0;
	else
		rc = flock(fd, op) ? errno : 0;
	atomic_store(&w.done, true);
	/* Waits for a running sf_lock_interrupt(), which uses &w. */
	fuse_req_interrupt_func(req, NULL, NULL);
	return rc;
}

static int sf_lock_try_once(int fd, struct flock *fl, int op)
{
	if (fl)
		return fcntl(fd, F_OFD_SETLK, fl) ? errno : 0;
	return flock(fd, op) ? errno : 0;
}

/**
 * sf_lock_try - take a lock without waiting: an OFD lock @fl on @fd, or,
 * if @fl is NULL, flock(2) @op (LOCK_NB or LOCK_UN).  The conflict may be
 * with a file its caller has just closed, whose RELEASE (sent without
 * waiting) another ring thread has yet to answer: then once more, after
 * sf_transport_settle().  Returns 0 or an errno.
 */
int sf_lock_try(int fd, struct flock *fl, int op)
{
	struct flock want;
	int rc;

	if (fl)
		want = *fl;
	rc = sf_lock_try_once(fd, fl, op);
	if (rc != EAGAIN && rc != EACCES)	/* EWOULDBLOCK is EAGAIN */
		return rc;
	sf_transport_settle();
	if (fl)
		*fl = want;
	return sf_lock_try_once(fd, fl, op);
}

/**
 * sf_lock_test - F_OFD_GETLK of @fl on @fd, as sf_lock_try() takes it:
 * a conflict is looked at again after sf_transport_settle().  Returns 0 or
 * an errno; @fl says the conflict, or F_UNLCK.
 */
int sf_lock_test(int fd, struct flock *fl)
{
	struct flock want = *fl;

	if (fcntl(fd, F_OFD_GETLK, fl))
		return errno;
	if (fl->l_type == F_UNLCK)
		return 0;
	sf_transport_settle();
	*fl = want;
	return fcntl(fd, F_OFD_GETLK, fl) ? errno : 0;
}
