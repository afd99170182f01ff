// SPDX-License-Identifier: GPL-2.0-only
/*
 * uring_own.c - the daemon's own FUSE-over-io_uring transport, for a
 * libfuse that has none (before 3.18, or built without liburing): one
 * system call per request instead of two, and a queue per CPU
 * (fs/fuse/dev_uring.c).  uring.c decides whether the mount asks for it.
 *
 * It lives beside libfuse's session:
 *  - INIT stays on /dev/fuse (wire.c).  When the kernel offers
 *    FUSE_OVER_IO_URING and -o uring=auto, the queues are built, and
 *    their threads started, before the INIT reply asks for it: from that
 *    reply on the kernel holds every request until each queue (one per
 *    possible CPU) has an entry registered, so nothing may fail after it
 *    but the REGISTER itself, which the kernel answers by going back to
 *    /dev/fuse.
 *  - Each queue is served by SF_UR_THREADS threads on its CPU, each with
 *    a ring of its own and one entry, which it registers and is the only
 *    one to submit on that ring: the kernel hands a request to the task
 *    that submitted its entry, and cancels an entry whose submitter
 *    exits.  A thread stuck in a handler holds up no other request.
 *  - A request the ring delivers is laid out as /dev/fuse would have
 *    delivered it (header, first argument, payload: the payload stays in
 *    place, the first two are copied in front of it) and given to
 *    fuse_session_process_buf(), libfuse's own dispatch.
 *  - Every reply passes wire.c's writev hook, which gives it here
 *    (sf_ring_take()): one whose unique is a ring entry's goes into that
 *    entry and is committed with COMMIT_AND_FETCH, which also waits for
 *    the entry's next request; others (replies to /dev/fuse requests,
 *    notifications) go to /dev/fuse.
 *  - FORGET and INTERRUPT keep coming through /dev/fuse (the kernel
 *    sends them there), to libfuse's own loop.
 * A request that may wait for long (a lock wait, fsync) runs on a thread
 * of its own, so that waits do not take up a queue's threads: lock waits
 * whose release came in behind them on the same queue would never end.
 * Its reply is handed to the entry's thread through an eventfd.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "smackfuse.h"
#include "transport.h"
#include "uring_abi.h"
#include "wire.h"

#ifdef HAVE_LIBURING
#include <liburing.h>
#endif

/* The own ring is the daemon's: nothing to ask of libfuse. */
const char *sf_ring_fuse_opts(const struct sf_fs *fs)
{
	(void)fs;
	return "";
}

const struct fuse_lowlevel_ops *
sf_ring_ops(const struct fuse_lowlevel_ops *ops, size_t *size)
{
	(void)size;
	return ops;
}

/* Never asked for without the hooks (sf_ring_missing()). */
void sf_ring_init_unseen(struct sf_fs *fs)
{
	(void)fs;
}


#ifndef HAVE_LIBURING

const char *sf_ring_missing(bool hooked)
{
	(void)hooked;
	return "smackfuse was built without liburing";
}

bool sf_ring_init_reply(struct sf_fs *fs, struct fuse_init_out *o)
{
	(void)fs;
	(void)o;
	return false;
}

void sf_ring_init_sent(struct sf_fs *fs, bool ok)
{
	(void)fs;
	(void)ok;
}

bool sf_ring_take(const struct iovec *iov, int count, ssize_t *res)
{
	(void)iov;
	(void)count;
	(void)res;
	return false;
}

void sf_ring_settle(void)
{
}

void sf_ring_stop(void)
{
}

long sf_ring_requests(void)
{
	return 0;
}

#else /* HAVE_LIBURING */

const char *sf_ring_missing(bool hooked)
{
	return hooked ? NULL : "libfuse has neither its own ring nor the "
		"custom I/O the daemon's own needs";
}

/* Threads per queue, each with a ring of its own and ONE entry: the
 * kernel hands a request to an available entry of the caller's CPU's
 * queue, and runs the hand-over in the task that registered the entry.
 * An entry whose thread is stuck (a backing filesystem that hangs) is
 * not available, so the queue's other threads go on serving that CPU;
 * with several entries per thread, a stuck thread would hold up the
 * requests given to its other entries.  SF_UR_THREADS requests of one
 * CPU's callers are served at once; further ones wait in the kernel. */
#define SF_UR_THREADS	4
#define SF_UR_DEPTH	1
/* In front of each payload: room for the header and first argument, so
 * that a request is contiguous as libfuse wants it. */
#define SF_UR_PRE	(sizeof(struct fuse_in_header) + FUSE_URING_OP_IN_OUT_SZ)

struct sf_ur_queue;

struct sf_ur_ent {
	struct sf_ur_queue *q;
	struct fuse_uring_req_header hdr;	/* iov[0], the kernel's */
	char *buf;			/* SF_UR_PRE, then the payload */
	struct iovec iov[2];
	char *wire;			/* the request, in /dev/fuse format */
	size_t wire_len;
	_Atomic uint64_t unique;	/* of the request it carries, or 0 */
	uint64_t commit_id;		/* of the reply to commit */
	bool fetched;			/* has carried a request */
	struct sf_ur_ent *next;		/* on the queue's pending list */
};

/* One thread of a queue: its ring and entries (SF_UR_DEPTH). */
struct sf_ur_queue {
	unsigned int qid;
	struct io_uring ring;
	bool ring_ok;
	int efd;			/* commits from other threads */
	uint64_t efd_val;		/* its read's buffer */
	pthread_mutex_t lock;		/* pending */
	struct sf_ur_ent *pending;	/* replies waiting to be committed */
	struct sf_ur_ent *ents;
	unsigned int live;		/* entries the kernel still holds */
	unsigned int settled;		/* sf_ur_settle_gen seen: see there */
	pthread_t thread;
	bool started;
};

static struct {
	unsigned int nt;		/* sf_urq[]: SF_UR_THREADS per queue */
	atomic_ulong requests;		/* that came through the ring */
} sf_ur;
static struct sf_ur_queue *sf_urq;
static size_t sf_ur_payload;		/* the kernel's max_payload_sz */
static int sf_ur_fd;			/* /dev/fuse */
static struct fuse_session *sf_ur_se;
static struct sf_fs *sf_ur_fs;		/* for its messages */
static atomic_bool sf_ur_stopping;
/* The queues' threads wait for the INIT reply: go 1, or -1 to give up. */
static pthread_mutex_t sf_ur_go_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t sf_ur_go_cond = PTHREAD_COND_INITIALIZER;
static int sf_ur_go;
/* sf_ring_settle()'s rounds: each queue thread sets its ->settled to the
 * round it read before its last wait, once it has answered what that
 * wait brought; the cond is broadcast under the lock. */
static atomic_uint sf_ur_settle_gen;
static pthread_mutex_t sf_ur_settle_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t sf_ur_settle_cond = PTHREAD_COND_INITIALIZER;
#define SF_UR_SETTLE_MS	200

/* The queue this thread serves, and the entry whose request it runs. */
static __thread struct sf_ur_queue *sf_ur_self;
static __thread struct sf_ur_ent *sf_ur_cur;

/* Queue an URING_CMD for @e; submitted by the queue thread's next
 * io_uring_submit_and_wait().  Only the queue's thread calls this. */
static int sf_ur_prep(struct sf_ur_ent *e, uint32_t op)
{
	struct sf_ur_queue *q = e->q;
	struct fuse_uring_cmd_req req = { .qid = (uint16_t)q->qid };
	struct io_uring_sqe *sqe = io_uring_get_sqe(&q->ring);

	if (!sqe) {		/* full: make room */
		io_uring_submit(&q->ring);
		sqe = io_uring_get_sqe(&q->ring);
		if (!sqe)
			return -EBUSY;
	}
	memset(sqe, 0, 2 * sizeof(*sqe));	/* a 128-byte SQE */
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = sf_ur_fd;
	sqe->cmd_op = op;
	sqe->addr = (uintptr_t)e->iov;
	sqe->len = 2;
	if (op == FUSE_IO_URING_CMD_COMMIT_AND_FETCH)
		req.commit_id = e->commit_id;
	memcpy(sqe->cmd, &req, sizeof(req));
	io_uring_sqe_set_data(sqe, e);
	return 0;
}

/* Wait for a wakeup from another thread (a reply to commit, or stop). */
static int sf_ur_arm_eventfd(struct sf_ur_queue *q)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&q->ring);

	if (!sqe)
		return -EBUSY;
	io_uring_prep_read(sqe, q->efd, &q->efd_val, sizeof(q->efd_val), 0);
	io_uring_sqe_set_data(sqe, q);
	return 0;
}

/* Hand @e's reply to the queue's thread, or commit it if this is it. */
static void sf_ur_commit(struct sf_ur_ent *e)
{
	struct sf_ur_queue *q = e->q;

	e->commit_id = atomic_exchange(&e->unique, 0);
	if (sf_ur_self == q && sf_ur_prep(e, FUSE_IO_URING_CMD_COMMIT_AND_FETCH)
	    == 0)
		return;
	pthread_mutex_lock(&q->lock);
	e->next = q->pending;
	q->pending = e;
	pthread_mutex_unlock(&q->lock);
	eventfd_write(q->efd, 1);
}

/* The entry that carries request @unique, if a ring entry does. */
static struct sf_ur_ent *sf_ur_find(uint64_t unique)
{
	unsigned int i, j;

	if (sf_ur_cur && atomic_load(&sf_ur_cur->unique) == unique)
		return sf_ur_cur;
	if (!sf_urq)
		return NULL;
	for (i = 0; i < sf_ur.nt; i++)
		for (j = 0; j < SF_UR_DEPTH; j++)
			if (atomic_load(&sf_urq[i].ents[j].unique) == unique)
				return &sf_urq[i].ents[j];
	return NULL;
}

/* Copy a reply into its entry: the out header into the header buffer,
 * the rest into the payload; then commit. */
static ssize_t sf_ur_reply(struct sf_ur_ent *e, const struct iovec *iov,
			   int count)
{
	struct fuse_out_header oh;
	size_t total = 0, skip = sizeof(oh), psz = 0;
	int i;

	memcpy(&oh, iov[0].iov_base, sizeof(oh));
	for (i = 0; i < count; i++)
		total += iov[i].iov_len;
	if (total - sizeof(oh) > sf_ur_payload) {
		oh.error = -EIO;	/* cannot happen: max_write bounds it */
		count = 0;
	}
	for (i = 0; i < count; i++) {
		size_t n = iov[i].iov_len;
		const char *p = iov[i].iov_base;

		if (skip >= n) {
			skip -= n;
			continue;
		}
		/* memmove: a reply may quote its own request */
		memmove(e->buf + SF_UR_PRE + psz, p + skip, n - skip);
		psz += n - skip;
		skip = 0;
	}
	oh.len = sizeof(oh) + psz;
	memcpy(e->hdr.in_out, &oh, sizeof(oh));
	e->hdr.ring_ent_in_out.payload_sz = (uint32_t)psz;
	sf_ur_commit(e);
	return (ssize_t)total;
}

/* A request libfuse cannot be given: answer it ourselves. */
static void sf_ur_refuse(struct sf_ur_ent *e, uint64_t unique, int err)
{
	struct fuse_out_header oh = { .len = sizeof(oh), .error = -err,
				      .unique = unique };
	struct iovec iov = { .iov_base = &oh, .iov_len = sizeof(oh) };

	atomic_store(&e->unique, unique);
	sf_ur_reply(e, &iov, 1);
}

static void sf_ur_process(struct sf_ur_ent *e)
{
	struct fuse_buf fb = { .mem = e->wire, .size = e->wire_len };

	sf_ur_cur = e;
	fuse_session_process_buf(sf_ur_se, &fb);
	sf_ur_cur = NULL;
}

static void *sf_ur_offload_main(void *arg)
{
	sf_ur_process(arg);
	return NULL;
}

/* Run @e's request on a thread of its own; non-zero if none started. */
static int sf_ur_offload(struct sf_ur_ent *e)
{
	pthread_attr_t a;
	pthread_t t;
	int rc;

	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	rc = pthread_create(&t, &a, sf_ur_offload_main, e);
	pthread_attr_destroy(&a);
	return rc;
}

/* A request arrived in @e: lay it out for libfuse and dispatch it. */
static void sf_ur_request(struct sf_ur_ent *e)
{
	struct fuse_in_header in;
	uint32_t psz = e->hdr.ring_ent_in_out.payload_sz;
	size_t arg0;

	memcpy(&in, e->hdr.in_out, sizeof(in));
	e->fetched = true;
	atomic_fetch_add_explicit(&sf_ur.requests, 1, memory_order_relaxed);
	sf_reqcount(in.opcode);
	if (in.len < sizeof(in) + (size_t)psz || psz > sf_ur_payload ||
	    in.len - sizeof(in) - psz > FUSE_URING_OP_IN_OUT_SZ) {
		sf_ur_refuse(e, in.unique, EIO);
		return;
	}
	arg0 = in.len - sizeof(in) - psz;
	e->wire = e->buf + SF_UR_PRE - arg0 - sizeof(in);
	e->wire_len = in.len;
	memcpy(e->wire, &in, sizeof(in));
	memcpy(e->wire + sizeof(in), e->hdr.op_in, arg0);
	sf_wire_tmpfile_as_create(e->wire, e->wire_len);
	atomic_store(&e->unique, in.unique);
	/* READ and WRITE stay: a queue has threads enough for slow I/O. */
	if (sf_request_may_wait(in.opcode) && sf_ur_offload(e) == 0)
		return;
	sf_ur_process(e);
}

/* An entry came back with an error: the kernel no longer holds it. */
static void sf_ur_lost(struct sf_ur_ent *e, int res)
{
	char why[96];

	e->q->live--;
	if (e->fetched || atomic_load(&sf_ur_stopping) || res == -ENOTCONN ||
	    res == -ECANCELED)
		return;
	/* A REGISTER refused: the kernel went back to /dev/fuse. */
	snprintf(why, sizeof(why), "the kernel refused a queue (%s)",
		 strerror(-res));
	sf_uring_set(false, why);
	sf_uring_say(sf_ur_fs);
}

/* Commits handed over by other threads. */
static void sf_ur_take_pending(struct sf_ur_queue *q)
{
	struct sf_ur_ent *e, *next;

	pthread_mutex_lock(&q->lock);
	e = q->pending;
	q->pending = NULL;
	pthread_mutex_unlock(&q->lock);
	for (; e; e = next) {
		next = e->next;
		if (sf_ur_prep(e, FUSE_IO_URING_CMD_COMMIT_AND_FETCH))
			q->live--;	/* cannot happen: an SQE per entry */
	}
}

static void sf_ur_reap(struct sf_ur_queue *q)
{
	struct io_uring_cqe *cqe;

	while (io_uring_peek_cqe(&q->ring, &cqe) == 0) {
		void *data = io_uring_cqe_get_data(cqe);
		int res = cqe->res;

		io_uring_cqe_seen(&q->ring, cqe);
		if (data == q) {
			sf_ur_arm_eventfd(q);
			continue;
		}
		if (res < 0)
			sf_ur_lost(data, res);
		else
			sf_ur_request(data);
	}
}

static bool sf_ur_wait_go(void)
{
	int go;

	pthread_mutex_lock(&sf_ur_go_lock);
	while (!sf_ur_go)
		pthread_cond_wait(&sf_ur_go_cond, &sf_ur_go_lock);
	go = sf_ur_go;
	pthread_mutex_unlock(&sf_ur_go_lock);
	return go > 0;
}

static void sf_ur_settled(struct sf_ur_queue *q, unsigned int gen)
{
	pthread_mutex_lock(&sf_ur_settle_lock);
	q->settled = gen;
	pthread_cond_broadcast(&sf_ur_settle_cond);
	pthread_mutex_unlock(&sf_ur_settle_lock);
}

static bool sf_ur_all_settled(unsigned int gen)
{
	unsigned int i;

	for (i = 0; i < sf_ur.nt; i++) {
		const struct sf_ur_queue *q = &sf_urq[i];

		if (q != sf_ur_self && q->started && q->settled != UINT_MAX &&
		    (int)(q->settled - gen) < 0)
			return false;
	}
	return true;
}

/*
 * The kernel sends RELEASE without waiting for it, and RELEASE drops the
 * closed file's flock(2) and OFD locks.  On /dev/fuse requests are taken
 * in order, so a caller's next lock request finds them gone, as it would
 * natively.  Over the ring, the RELEASE may sit with another of the
 * queue's threads that has not run yet: the caller may keep the CPU, and
 * go on to its next request.  Before a lock request answers "conflict",
 * it settles: every other queue thread takes in and answers what the
 * kernel has handed it so far.  A thread stuck in a handler is waited for
 * SF_UR_SETTLE_MS at most.
 */
void sf_ring_settle(void)
{
	struct timespec until;
	unsigned int gen, i;

	if (!sf_urq)
		return;
	gen = atomic_fetch_add(&sf_ur_settle_gen, 1) + 1;
	for (i = 0; i < sf_ur.nt; i++)
		if (&sf_urq[i] != sf_ur_self && sf_urq[i].started)
			eventfd_write(sf_urq[i].efd, 1);
	sf_deadline_ms(&until, SF_UR_SETTLE_MS);
	pthread_mutex_lock(&sf_ur_settle_lock);
	while (!sf_ur_all_settled(gen) &&
	       pthread_cond_clockwait(&sf_ur_settle_cond, &sf_ur_settle_lock,
				      CLOCK_MONOTONIC, &until) != ETIMEDOUT)
		;
	pthread_mutex_unlock(&sf_ur_settle_lock);
}

/* A queue's thread: on its CPU, the only one to submit on its ring. */
static void *sf_ur_thread(void *arg)
{
	struct sf_ur_queue *q = arg;
	cpu_set_t cpus;
	unsigned int i;
	int rc;

	sf_ur_self = q;
	CPU_ZERO(&cpus);
	CPU_SET(q->qid, &cpus);
	pthread_setaffinity_np(pthread_self(), sizeof(cpus), &cpus);
	if (!sf_ur_wait_go())
		return NULL;
	for (i = 0; i < SF_UR_DEPTH; i++)
		if (sf_ur_prep(&q->ents[i], FUSE_IO_URING_CMD_REGISTER) == 0)
			q->live++;
	sf_ur_arm_eventfd(q);
	while (q->live && !atomic_load(&sf_ur_stopping)) {
		unsigned int gen = atomic_load(&sf_ur_settle_gen);

		sf_ur_take_pending(q);
		/* A settle round asked: do not sleep, but take in (and then
		 * answer) whatever the kernel has handed this thread. */
		if (gen != q->settled)
			rc = io_uring_submit_and_get_events(&q->ring);
		else
			rc = io_uring_submit_and_wait(&q->ring, 1);
		if (rc < 0 && rc != -EINTR)
			break;
		sf_ur_reap(q);
		if (gen != q->settled)
			sf_ur_settled(q, gen);
	}
	sf_ur_settled(q, UINT_MAX);	/* gone: nothing to wait for */
	return NULL;
}

static int sf_ur_queue_init(struct sf_ur_queue *q, unsigned int qid)
{
	unsigned int i;
	int rc;

	q->qid = qid;
	q->efd = -1;
	pthread_mutex_init(&q->lock, NULL);
	q->ents = calloc(SF_UR_DEPTH, sizeof(*q->ents));
	if (!q->ents)
		return -ENOMEM;
	for (i = 0; i < SF_UR_DEPTH; i++) {
		struct sf_ur_ent *e = &q->ents[i];

		e->q = q;
		e->buf = malloc(SF_UR_PRE + sf_ur_payload);
		if (!e->buf)
			return -ENOMEM;
		e->iov[0].iov_base = &e->hdr;
		e->iov[0].iov_len = sizeof(e->hdr);
		e->iov[1].iov_base = e->buf + SF_UR_PRE;
		e->iov[1].iov_len = sf_ur_payload;
	}
	q->efd = eventfd(0, EFD_CLOEXEC);
	if (q->efd < 0)
		return -errno;
	/* An SQE per entry, and the eventfd's read. */
	rc = io_uring_queue_init(2 * SF_UR_DEPTH + 2, &q->ring,
				 IORING_SETUP_SQE128);
	if (rc)
		return rc;
	q->ring_ok = true;
	return 0;
}

/* Threads with libfuse's workers' signal mask: SIGTERM and its kin are
 * for libfuse's loop; every other signal is let through, since a handler
 * may be woken by one (lock.c's interrupted lock wait), and the threads
 * that run the queues' long requests inherit this mask. */
static int sf_ur_start_threads(void)
{
	sigset_t mask, old;
	unsigned int i;
	int rc = 0;

	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGQUIT);
	pthread_sigmask(SIG_SETMASK, &mask, &old);
	for (i = 0; i < sf_ur.nt && !rc; i++) {
		rc = -pthread_create(&sf_urq[i].thread, NULL, sf_ur_thread,
				     &sf_urq[i]);
		sf_urq[i].started = rc == 0;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

static void sf_ur_release_threads(int go)
{
	pthread_mutex_lock(&sf_ur_go_lock);
	sf_ur_go = go;
	pthread_cond_broadcast(&sf_ur_go_cond);
	pthread_mutex_unlock(&sf_ur_go_lock);
}

/* Everything sf_ur_setup() made: threads are joined, rings closed. */
static void sf_ur_teardown(void)
{
	unsigned int i, j;

	if (!sf_urq)
		return;
	atomic_store(&sf_ur_stopping, true);
	sf_ur_release_threads(-1);
	for (i = 0; i < sf_ur.nt; i++) {
		struct sf_ur_queue *q = &sf_urq[i];

		if (q->started) {
			eventfd_write(q->efd, 1);
			pthread_join(q->thread, NULL);
		}
		if (q->ring_ok)
			io_uring_queue_exit(&q->ring);
		if (q->efd >= 0)
			close(q->efd);
		for (j = 0; q->ents && j < SF_UR_DEPTH; j++)
			free(q->ents[j].buf);
		free(q->ents);
		pthread_mutex_destroy(&q->lock);
	}
	free(sf_urq);
	sf_urq = NULL;
}

/* Queues, buffers and threads for the sizes INIT's reply gives. */
static int sf_ur_setup(struct sf_fs *fs, const struct fuse_init_out *o)
{
	size_t pages = (o->flags & FUSE_MAX_PAGES) && o->max_pages ?
		       o->max_pages : SF_FUSE_DEFAULT_MAX_PAGES;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned int i, nq;
	int rc = 0;

	sf_ur_payload = SF_FUSE_MIN_READ_BUFFER;
	if (o->max_write > sf_ur_payload)
		sf_ur_payload = o->max_write;
	if (pages * page > sf_ur_payload)
		sf_ur_payload = pages * page;
	nq = sf_uring_queues();
	if (!nq)
		return -ENOENT;
	sf_ur_fd = fuse_session_fd(fs->se);
	sf_ur_se = fs->se;
	sf_ur_fs = fs;
	sf_ur.nt = nq * SF_UR_THREADS;
	sf_urq = calloc(sf_ur.nt, sizeof(*sf_urq));
	if (!sf_urq)
		return -ENOMEM;
	for (i = 0; i < sf_ur.nt && !rc; i++)
		rc = sf_ur_queue_init(&sf_urq[i], i / SF_UR_THREADS);
	if (!rc)
		rc = sf_ur_start_threads();
	if (rc)
		sf_ur_teardown();
	return rc;
}

/**
 * sf_ring_init_reply - INIT's reply @o, about to be written: build the
 * queues and ask for the ring.  False (and the reason said) if they
 * could not be built; then the reply goes as it is.
 */
bool sf_ring_init_reply(struct sf_fs *fs, struct fuse_init_out *o)
{
	char why[96];
	int rc;

	rc = sf_ur_setup(fs, o);
	if (rc) {
		snprintf(why, sizeof(why), "setup failed (%s)",
			 strerror(-rc));
		sf_uring_set(false, why);
		sf_uring_say(fs);
		return false;
	}
	o->flags |= FUSE_INIT_EXT;
	o->flags2 |= (uint32_t)(FUSE_OVER_IO_URING >> 32);
	return true;
}

/**
 * sf_ring_init_sent - the reply that asked for the ring was written
 * (@ok), so the kernel has taken it (fc->initialized): REGISTER may go.
 * Said before, so that a refusal's message comes after.  Or it was not,
 * and the queues go.
 */
void sf_ring_init_sent(struct sf_fs *fs, bool ok)
{
	if (!ok) {
		sf_ur_teardown();
		sf_uring_set(false, "INIT's reply could not be written");
		return;
	}
	sf_uring_on("");
	sf_uring_say(fs);
	sf_ur_release_threads(1);
}

/**
 * sf_ring_take - a reply on its way out: if its unique is a ring entry's,
 * it goes into that entry (*@res: its length) and true is returned.
 */
bool sf_ring_take(const struct iovec *iov, int count, ssize_t *res)
{
	struct fuse_out_header oh;
	struct sf_ur_ent *e;

	if (!sf_urq || count < 1 || iov[0].iov_len < sizeof(oh))
		return false;
	memcpy(&oh, iov[0].iov_base, sizeof(oh));
	e = oh.unique ? sf_ur_find(oh.unique) : NULL;
	if (!e)
		return false;
	*res = sf_ur_reply(e, iov, count);
	return true;
}

long sf_ring_requests(void)
{
	return (long)atomic_load(&sf_ur.requests);
}

/* After the loop and the unmount: the kernel has ended the entries (or
 * will, when /dev/fuse closes); the threads stop either way. */
void sf_ring_stop(void)
{
	sf_ur_teardown();
	sf_uring_set(false, "stopped");
}

#endif /* HAVE_LIBURING */
