// SPDX-License-Identifier: GPL-2.0-only
/*
 * loop.c - who reads the next request from /dev/fuse.
 *
 * libfuse's multi-threaded loop keeps every idle worker blocked in
 * read(2) on the device, and the kernel wakes them in turn: each request
 * of a serial caller lands on another thread, often on the other CPU.
 * On this project's 2-core VMs that handoff costs more than many
 * requests do: serving a serial caller from one thread made unlink 1.2x
 * and small reads 1.1-1.2x faster (bench/fs-results.txt, section 0).
 * But a single thread would let one blocked request (a lock wait, a hung
 * backing filesystem) stop the whole mount.
 *
 * So the workers pass a token: only its holder reads the device, and it
 * keeps the token while it answers, then reads again.  A serial caller
 * is served by one hot thread; the other workers wait on the token, not
 * on the device.  The token moves on
 *  - when the holder starts a request that may block for long (a lock
 *    wait, fsync, reads and writes through the daemon, but not a small
 *    write): sf_loop_yield(), before the handler runs;
 *  - when a handler is about to wait for the kernel itself
 *    (sf_openat_retry() waits for FORGETs): sf_loop_yield() again;
 *  - when the holder has spent a whole watch period on one request
 *    (anything that blocks in the backing filesystem): the watch thread
 *    hands the token to a waiting worker.
 * The holder learns that it lost the token from the epoch, which every
 * handover increments.  A race can at worst leave two readers for a
 * moment, which is libfuse's own way of working: never none.
 *
 * The device's I/O goes through wire.c's hooks, which call
 * sf_loop_acquire() before each read and sf_loop_received() after it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/fuse.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "smackfuse.h"
#include "wire.h"

/* How long one request may keep the token: the watch period while the
 * mount is busy.  While it is idle the watch backs off to the maximum. */
#define SF_WATCH_MIN_MS		10
#define SF_WATCH_MAX_MS		500

static struct {
	bool on;			/* multi-threaded */
	sem_t token;			/* 1 while nobody holds it */
	atomic_ulong epoch;		/* handovers so far, from 1 */
	atomic_ulong seq;		/* requests read */
	atomic_bool busy;		/* the holder is in a handler */
	atomic_ulong takeovers;		/* handovers by the watch */
	pthread_key_t exit_key;		/* a holder that exits yields */
	pthread_t watch;
	pthread_mutex_t watch_lock;
	pthread_cond_t watch_cond;	/* on CLOCK_MONOTONIC */
	bool watch_stop;
} sf_loop = {
	.watch_lock = PTHREAD_MUTEX_INITIALIZER,
};

/* The epoch this thread holds the token in; 0 if it does not. */
static __thread unsigned long sf_loop_mine;

/**
 * sf_loop_yield - let another worker read the device while this thread
 * handles something that may block.  A no-op if the thread has no token.
 */
void sf_loop_yield(void)
{
	unsigned long mine = sf_loop_mine;

	sf_loop_mine = 0;
	if (!mine || !atomic_compare_exchange_strong(&sf_loop.epoch, &mine,
						     mine + 1))
		return;
	atomic_store(&sf_loop.busy, false);
	sem_post(&sf_loop.token);
}

/* libfuse may end an idle worker (max_idle_threads): never with the
 * token, which would be lost with it. */
static void sf_loop_thread_exit(void *unused)
{
	(void)unused;
	sf_loop_yield();
}

/* Before reading: keep the token, or wait for it.  sem_wait() is where
 * libfuse's cancellation at exit finds the waiting workers. */
void sf_loop_acquire(void)
{
	if (!sf_loop.on)
		return;
	if (!sf_loop_mine || atomic_load(&sf_loop.epoch) != sf_loop_mine) {
		sf_loop_mine = 0;
		while (sem_wait(&sf_loop.token) && errno == EINTR)
			;
		sf_loop_mine = atomic_load(&sf_loop.epoch);
		pthread_setspecific(sf_loop.exit_key, &sf_loop);
	}
	atomic_store(&sf_loop.busy, false);
}

/**
 * sf_request_may_wait - does the handler of @opcode wait for as long as
 * something else decides (a lock's holder, the disk)?  Both transports
 * keep such a request from holding up the others.
 */
bool sf_request_may_wait(uint32_t opcode)
{
	switch (opcode) {
	case FUSE_SETLKW:
	case FUSE_FSYNC:
	case FUSE_FSYNCDIR:
	case FUSE_FALLOCATE:
	case FUSE_COPY_FILE_RANGE:
		return true;
	default:
		return false;
	}
}

/* A WRITE of at most this many bytes (with its headers) keeps the token:
 * a small write into the page cache returns at once, and handing the
 * device to another thread for each one cost more than the write itself
 * (4-byte writes without passthrough: 0.14 s for 10,000 against 0.094
 * kept; issue 30).  One that blocks after all is passed over by the
 * watch. */
#define SF_LOOP_SMALL_WRITE	(sizeof(struct fuse_in_header) + \
				 sizeof(struct fuse_write_in) + 4096)

/* Requests that may wait, and the backing file's I/O: the one thread
 * reading /dev/fuse passes the token on before handling them. */
static bool sf_loop_may_block(uint32_t opcode, size_t len)
{
	return sf_request_may_wait(opcode) || opcode == FUSE_READ ||
	       (opcode == FUSE_WRITE && len > SF_LOOP_SMALL_WRITE);
}

/* After reading a request of @opcode, @len bytes long. */
void sf_loop_received(uint32_t opcode, size_t len)
{
	if (!sf_loop.on)
		return;
	atomic_fetch_add(&sf_loop.seq, 1);
	atomic_store(&sf_loop.busy, true);
	if (sf_loop_may_block(opcode, len))
		sf_loop_yield();
}

/* The watch: a holder busy with the same request for a whole period is
 * blocked somewhere; give the token to a waiting worker. */
static void sf_loop_watch_once(unsigned long *last_epoch,
			       unsigned long *last_seq, long *period)
{
	unsigned long epoch = atomic_load(&sf_loop.epoch);
	unsigned long seq = atomic_load(&sf_loop.seq);

	if (!atomic_load(&sf_loop.busy)) {
		*period = *period * 2 > SF_WATCH_MAX_MS ? SF_WATCH_MAX_MS :
			  *period * 2;
	} else {
		*period = SF_WATCH_MIN_MS;
		if (epoch == *last_epoch && seq == *last_seq &&
		    atomic_compare_exchange_strong(&sf_loop.epoch, &epoch,
						   epoch + 1)) {
			/* Not busy until the next holder reads: a token
			 * nobody has taken up yet is not handed on twice. */
			atomic_store(&sf_loop.busy, false);
			atomic_fetch_add(&sf_loop.takeovers, 1);
			sem_post(&sf_loop.token);
			epoch++;
		}
	}
	*last_epoch = epoch;
	*last_seq = seq;
}

static void *sf_loop_watch(void *arg)
{
	unsigned long last_epoch = 0, last_seq = 0;
	long period = SF_WATCH_MIN_MS;
	struct timespec ts;

	(void)arg;
	pthread_mutex_lock(&sf_loop.watch_lock);
	while (!sf_loop.watch_stop) {
		sf_deadline_ms(&ts, period);
		if (pthread_cond_timedwait(&sf_loop.watch_cond,
					   &sf_loop.watch_lock, &ts) != ETIMEDOUT)
			continue;
		sf_loop_watch_once(&last_epoch, &last_seq, &period);
	}
	pthread_mutex_unlock(&sf_loop.watch_lock);
	return NULL;
}

/**
 * sf_loop_start - before the multi-threaded loop: the token and its
 * watch.  The watch blocks every signal, so that SIGTERM reaches the
 * thread libfuse waits in.
 */
int sf_loop_start(void)
{
	pthread_condattr_t ca;
	sigset_t all, old;
	int rc;

	if (sem_init(&sf_loop.token, 0, 1))
		return -errno;
	rc = -pthread_key_create(&sf_loop.exit_key, sf_loop_thread_exit);
	if (rc)
		goto out_sem;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&sf_loop.watch_cond, &ca);
	pthread_condattr_destroy(&ca);
	atomic_store(&sf_loop.epoch, 1);
	sf_loop.watch_stop = false;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = -pthread_create(&sf_loop.watch, NULL, sf_loop_watch, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc)
		goto out_key;
	sf_loop.on = true;
	return 0;
out_key:
	pthread_cond_destroy(&sf_loop.watch_cond);
	pthread_key_delete(sf_loop.exit_key);
out_sem:
	sem_destroy(&sf_loop.token);
	return rc;
}

/* After the loop: its workers are gone. */
void sf_loop_stop(void)
{
	if (!sf_loop.on)
		return;
	pthread_mutex_lock(&sf_loop.watch_lock);
	sf_loop.watch_stop = true;
	pthread_cond_signal(&sf_loop.watch_cond);
	pthread_mutex_unlock(&sf_loop.watch_lock);
	pthread_join(sf_loop.watch, NULL);
	sf_loop.on = false;
	pthread_cond_destroy(&sf_loop.watch_cond);
	pthread_key_delete(sf_loop.exit_key);
	sem_destroy(&sf_loop.token);
}

/* For the status file: requests the watch found blocked. */
unsigned long sf_loop_takeovers(void)
{
	return atomic_load(&sf_loop.takeovers);
}
