// SPDX-License-Identifier: GPL-2.0-only
/*
 * uids.c - the label of a request's uid under the users map: a table that
 * requests read without a lock, filled and kept current by resolver
 * threads, so that no request thread ever calls the name service.
 *
 * Jobs: a uid to look up.  A request that finds no usable answer makes
 * its uid's job urgent (an urgent queue, a deadline) and waits for it;
 * the keeper thread queues background jobs for answers past three
 * quarters of their life that requests used (so that a busy user never
 * waits), and drops answers past their life; a reload
 * queues every uid.  There is one job per uid at a time (the pending
 * set), so a hung lookup holds one resolver thread per uid, and
 * SF_UIDS_WORKERS of them keep answering the other uids.
 *
 * Locks: u->lock guards jobs, queue and counters; the table has its own
 * writer lock and is never touched under u->lock but by readers.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "smackfuse.h"
#include "transport.h"
#include "uidlookup.h"
#include "uids.h"
#include "uidtab.h"

#define SF_UIDS_WORKERS		8	/* resolver threads */
#define SF_UIDS_BUCKETS		256	/* of the pending set */
/* A uid's requests that may wait for its lookup at once; more are denied
 * at once.  A waiting request holds what serves it: one of libfuse's 64
 * threads, or over io_uring one of the 4 entries of its CPU's queue
 * (uring.c), so one user's hung lookup must hold few. */
#define SF_UIDS_WAITERS		2
#define SF_UIDS_RETRY_NS	1000000000ull	/* a failed lookup's turn */
#define SF_UIDS_TICK_NS		1000000000ull	/* the keeper's period */
#define SF_MS			1000000ull

struct sf_ujob {
	struct sf_ujob *qnext, *qprev;	/* the queue, while queued */
	struct sf_ujob *hnext;		/* the pending set, until done */
	uid_t uid;
	bool queued, running, done;
	bool stale;			/* began before a reload: not pending */
	bool urgent;			/* a request waits for it */
	bool logged;			/* its timeout was logged */
	bool capped;			/* a refusal for SF_UIDS_WAITERS was */
	uint64_t deadline;		/* urgent: waiters give up then */
	uint64_t reload;		/* the reload it counts for, or 0 */
	unsigned int refs;		/* waiters */
	pthread_cond_t cond;		/* @done, on CLOCK_MONOTONIC */
};

struct sf_uids {
	struct sf_uids_config cfg;
	struct sf_uidtab *tab;
	struct sf_umap *map;
	_Atomic uint64_t floor;		/* the last reload: older answers
					 * serve until floor + timeout only */
	pthread_mutex_t lock;
	pthread_cond_t work;		/* queue or stop; CLOCK_MONOTONIC */
	pthread_cond_t progress;	/* a reload's job is done */
	pthread_cond_t tick;		/* the keeper's sleep; stop */
	struct sf_ujob *qhead[2], *qtail[2];	/* urgent, background */
	struct sf_ujob *pending[SF_UIDS_BUCKETS];
	bool started, stop;
	pthread_t threads[SF_UIDS_WORKERS + 1];	/* the keeper, workers */
	unsigned int nthreads;
	uint64_t reloads, reload_left;
	pthread_mutex_t reload_lock;	/* one reload at a time */
	unsigned long lookups, failures, timeouts, refused;
	unsigned int waiting, waiting_peak;
};

/* ---- messages ---- */

static void sf_uids_log(struct sf_uids *u, int prio, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (u->cfg.foreground)
		fprintf(stderr, "smackfuse: %s\n", msg);
	else
		syslog(LOG_AUTHPRIV | prio, "%s", msg);
}

/* ---- answers ---- */

/* May @e answer a request at @now? */
static bool sf_uids_usable(struct sf_uids *u, const struct sf_uent *e,
			   uint64_t now)
{
	uint64_t floor = atomic_load_explicit(&u->floor,
					      memory_order_acquire);

	if (e->flags & SF_UE_FAILED)
		return now - e->born < SF_UIDS_RETRY_NS;
	if (now - e->born >= u->cfg.ttl_ms * SF_MS)
		return false;
	return e->born >= floor || now < floor + u->cfg.timeout_ms * SF_MS;
}

/* The table's answer for @uid, if usable: 1 allow-able (label in *@lid),
 * 0 none, -1 a failed lookup (deny). */
static int sf_uids_answer(struct sf_uids *u, uid_t uid, sf_lid *lid)
{
	struct sf_uent e;

	if (!sf_uidtab_get(u->tab, uid, &e) ||
	    !sf_uids_usable(u, &e, sf_now_ns()))
		return 0;
	if (e.flags & SF_UE_FAILED)
		return -1;
	*lid = e.lid;
	return 1;
}

/* ---- jobs (under u->lock) ---- */

static struct sf_ujob **sf_uids_bucket(struct sf_uids *u, uid_t uid)
{
	return &u->pending[(uid * SF_GOLDEN_RATIO_32) % SF_UIDS_BUCKETS];
}

static struct sf_ujob *sf_uids_pending(struct sf_uids *u, uid_t uid)
{
	struct sf_ujob *j;

	for (j = *sf_uids_bucket(u, uid); j; j = j->hnext)
		if (j->uid == uid && !j->stale)
			return j;
	return NULL;
}

static void sf_uids_unpend(struct sf_uids *u, struct sf_ujob *job)
{
	struct sf_ujob **pp = sf_uids_bucket(u, job->uid);

	while (*pp && *pp != job)
		pp = &(*pp)->hnext;
	if (*pp)
		*pp = job->hnext;
}

/* Queue 0 holds urgent jobs (a request waits), 1 background ones; each
 * is first come, first served. */
static void sf_uids_enqueue(struct sf_uids *u, struct sf_ujob *job)
{
	struct sf_ujob **head = &u->qhead[!job->urgent];
	struct sf_ujob **tail = &u->qtail[!job->urgent];

	job->queued = true;
	job->qnext = NULL;
	job->qprev = *tail;
	if (*tail)
		(*tail)->qnext = job;
	else
		*head = job;
	*tail = job;
	pthread_cond_signal(&u->work);
}

static void sf_uids_dequeue(struct sf_uids *u, struct sf_ujob *job)
{
	struct sf_ujob **head = &u->qhead[!job->urgent];
	struct sf_ujob **tail = &u->qtail[!job->urgent];

	if (job->qprev)
		job->qprev->qnext = job->qnext;
	else
		*head = job->qnext;
	if (job->qnext)
		job->qnext->qprev = job->qprev;
	else
		*tail = job->qprev;
	job->queued = false;
}

static void sf_uids_free_job(struct sf_ujob *job)
{
	pthread_cond_destroy(&job->cond);
	free(job);
}

static int sf_uids_start(struct sf_uids *u);

/* The pending job of @uid, made (at the back) if there is none.  NULL on
 * ENOMEM or when the threads cannot start. */
static struct sf_ujob *sf_uids_job(struct sf_uids *u, uid_t uid)
{
	struct sf_ujob *job = sf_uids_pending(u, uid), **b;
	pthread_condattr_t ca;

	if (job)
		return job;
	if (!u->started && sf_uids_start(u))
		return NULL;
	job = calloc(1, sizeof(*job));
	if (!job)
		return NULL;
	job->uid = uid;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&job->cond, &ca);
	pthread_condattr_destroy(&ca);
	b = sf_uids_bucket(u, uid);
	job->hnext = *b;
	*b = job;
	sf_uids_enqueue(u, job);
	return job;
}

static void sf_ns_to_ts(uint64_t ns, struct timespec *ts)
{
	ts->tv_sec = (time_t)(ns / 1000000000ull);
	ts->tv_nsec = (long)(ns % 1000000000ull);
}

/* ---- the request side ---- */

/* Wait for @uid's lookup; under u->lock.  True when it came in time. */
static bool sf_uids_wait(struct sf_uids *u, uid_t uid)
{
	struct sf_ujob *job = sf_uids_job(u, uid);
	uint64_t now = sf_now_ns();
	struct timespec ts;
	bool done;

	if (!job)
		return false;
	if (!job->urgent) {
		if (job->queued)
			sf_uids_dequeue(u, job);
		job->urgent = true;
		job->deadline = now + u->cfg.timeout_ms * SF_MS;
		if (!job->running)
			sf_uids_enqueue(u, job);
	}
	if (now >= job->deadline) {
		u->refused++;
		return false;
	}
	if (job->refs >= SF_UIDS_WAITERS) {
		u->refused++;
		if (!job->capped)
			sf_uids_log(u, LOG_WARNING, "uid %u: %u requests wait "
				    "for its lookup already: the others are "
				    "denied until it comes", (unsigned int)uid,
				    SF_UIDS_WAITERS);
		job->capped = true;
		return false;
	}
	job->refs++;
	if (++u->waiting > u->waiting_peak)
		u->waiting_peak = u->waiting;
	sf_ns_to_ts(job->deadline, &ts);
	while (!job->done &&
	       pthread_cond_timedwait(&job->cond, &u->lock, &ts) != ETIMEDOUT)
		;
	u->waiting--;
	done = job->done;
	if (!done && !job->logged) {
		job->logged = true;
		u->timeouts++;
		sf_uids_log(u, LOG_WARNING, "uid %u: no answer from the name "
			    "service in %u ms: its requests are denied until "
			    "one comes", (unsigned int)uid, u->cfg.timeout_ms);
	}
	if (--job->refs == 0 && job->done)
		sf_uids_free_job(job);
	return done;
}

bool sf_uids_label(struct sf_uids *u, uid_t uid, sf_lid *lid)
{
	int a = sf_uids_answer(u, uid, lid);
	bool came;

	if (a)
		return a > 0;
	/* Let another worker read the device while this one waits. */
	sf_loop_yield();
	pthread_mutex_lock(&u->lock);
	came = sf_uids_wait(u, uid);
	pthread_mutex_unlock(&u->lock);
	return came && sf_uids_answer(u, uid, lid) > 0;
}

/* ---- the resolver side ---- */

/* Store what a lookup of @uid found: @rc 0 and @e, or a failure.  A
 * failure keeps a usable older answer (it still holds within its life)
 * and is logged once per spell of failures. */
static void sf_uids_store(struct sf_uids *u, struct sf_ujob *job, int rc,
			  struct sf_uent *e)
{
	struct sf_uent old;
	bool had = sf_uidtab_get(u->tab, e->uid, &old);
	bool logged = job->logged || (had && (old.flags & SF_UE_LOGGED));

	if (!rc) {
		if (logged)
			sf_uids_log(u, LOG_NOTICE, "uid %u: the name service "
				    "answers again", (unsigned int)e->uid);
		if (sf_uidtab_put(u->tab, e) == 0)
			return;
		rc = -ENOMEM;
	}
	if (!logged)
		sf_uids_log(u, LOG_WARNING, "uid %u: user lookup failed: %s",
			    (unsigned int)e->uid, strerror(-rc));
	if (had && !(old.flags & SF_UE_FAILED) &&
	    sf_uids_usable(u, &old, sf_now_ns())) {
		/* The old answer serves out its life; remember the log. */
		old.flags |= SF_UE_LOGGED;
		sf_uidtab_put(u->tab, &old);
		return;
	}
	e->flags = SF_UE_FAILED | SF_UE_LOGGED;
	e->born = sf_now_ns();
	sf_uidtab_put(u->tab, e);	/* on ENOMEM: no answer, deny */
}

static void *sf_uids_worker(void *arg)
{
	struct sf_uids *u = arg;
	struct sf_uent e;
	struct sf_ujob *job;
	uint64_t floor;
	int rc;

	pthread_mutex_lock(&u->lock);
	while (!u->stop) {
		job = u->qhead[0] ? u->qhead[0] : u->qhead[1];
		if (!job) {
			pthread_cond_wait(&u->work, &u->lock);
			continue;
		}
		sf_uids_dequeue(u, job);
		job->running = true;
		u->lookups++;
		pthread_mutex_unlock(&u->lock);

		memset(&e, 0, sizeof(e));
		e.uid = job->uid;
		floor = atomic_load(&u->floor);
		rc = sf_umap_label(u->map, job->uid, floor, &e.lid, &e.born);
		sf_uids_store(u, job, rc, &e);

		pthread_mutex_lock(&u->lock);
		if (rc)
			u->failures++;
		job->done = true;
		if (!job->stale)
			sf_uids_unpend(u, job);
		if (job->reload == u->reloads && u->reload_left &&
		    --u->reload_left == 0)
			pthread_cond_broadcast(&u->progress);
		pthread_cond_broadcast(&job->cond);
		if (!job->refs)
			sf_uids_free_job(job);
	}
	pthread_mutex_unlock(&u->lock);
	return NULL;
}

/* ---- the keeper: background lookups, expiry, memory ---- */

struct sf_uids_sweep {
	struct sf_uids *u;
	uint64_t now, floor;
	bool all;			/* a reload: every uid */
	uid_t *uids;
	size_t n, cap;
};

static bool sf_uids_sweep_one(void *arg, const struct sf_uent *e, bool used)
{
	struct sf_uids_sweep *s = arg;
	uint64_t age = s->now - e->born, ttl = s->u->cfg.ttl_ms * SF_MS;
	bool again;

	if (age >= ttl)
		return true;		/* dropped: its next request waits */
	again = s->all || (!(e->flags & SF_UE_FAILED) &&
			   (e->born < s->floor ||
			    (used && age >= ttl - ttl / 4)));
	if (again && s->n < s->cap)
		s->uids[s->n++] = e->uid;
	return false;
}

/* One pass over the table; queue what is due (every uid for a reload:
 * counted in u->reload_left).  Returns the uids queued. */
static size_t sf_uids_sweep(struct sf_uids *u, bool all)
{
	struct sf_uids_sweep s = { .u = u, .all = all };
	struct sf_ujob *job;
	size_t i, queued = 0;

	s.cap = sf_uidtab_count(u->tab) + 64;
	s.uids = malloc(s.cap * sizeof(*s.uids));
	if (!s.uids)
		s.cap = 0;
	s.now = sf_now_ns();
	s.floor = atomic_load(&u->floor);
	sf_uidtab_sweep(u->tab, sf_uids_sweep_one, &s);
	pthread_mutex_lock(&u->lock);
	for (i = 0; i < s.n; i++) {
		job = sf_uids_job(u, s.uids[i]);
		if (!job)
			continue;
		queued++;
		if (all && job->reload != u->reloads) {
			job->reload = u->reloads;
			u->reload_left++;
		}
	}
	pthread_mutex_unlock(&u->lock);
	free(s.uids);
	return queued;
}

static void *sf_uids_keeper(void *arg)
{
	struct sf_uids *u = arg;
	struct timespec ts;
	bool stop;

	for (;;) {
		sf_uids_sweep(u, false);
		sf_uidtab_reclaim(u->tab);
		pthread_mutex_lock(&u->lock);
		sf_ns_to_ts(sf_now_ns() + SF_UIDS_TICK_NS, &ts);
		if (!u->stop)
			pthread_cond_timedwait(&u->tick, &u->lock, &ts);
		stop = u->stop;
		pthread_mutex_unlock(&u->lock);
		if (stop)
			return NULL;
	}
}

/* Under u->lock.  The keeper and one worker will do (said once). */
static int sf_uids_start(struct sf_uids *u)
{
	int rc = 0;

	while (!rc && u->nthreads < SF_UIDS_WORKERS + 1) {
		rc = pthread_create(&u->threads[u->nthreads], NULL,
				    u->nthreads ? sf_uids_worker :
				    sf_uids_keeper, u);
		if (!rc)
			u->nthreads++;
	}
	if (rc) {
		sf_uids_log(u, LOG_ERR, "cannot start user lookup threads "
			    "(%u of %u running): %s", u->nthreads,
			    SF_UIDS_WORKERS + 1, strerror(rc));
		if (u->nthreads < 2)
			return -rc;
	}
	u->started = true;
	return 0;
}

static void sf_uids_free(struct sf_uids *u)
{
	struct sf_ujob *job, *next;
	size_t i;

	for (i = 0; i < SF_UIDS_BUCKETS; i++) {
		for (job = u->pending[i]; job; job = next) {
			next = job->hnext;
			sf_uids_free_job(job);
		}
	}
	sf_uidtab_free(u->tab);
	sf_umap_free(u->map);
	pthread_cond_destroy(&u->work);
	pthread_cond_destroy(&u->progress);
	pthread_cond_destroy(&u->tick);
	pthread_mutex_destroy(&u->lock);
	pthread_mutex_destroy(&u->reload_lock);
	free(u);
}

/**
 * sf_uids_stop - end the threads and free @u, once no request can come.
 * A thread stuck in the name service is given a second, then left with
 * @u (the process is ending).
 */
void sf_uids_stop(struct sf_uids *u)
{
	struct timespec ts;
	unsigned int i, stuck = 0;

	pthread_mutex_lock(&u->lock);
	u->stop = true;
	pthread_cond_broadcast(&u->work);
	pthread_cond_broadcast(&u->tick);
	pthread_mutex_unlock(&u->lock);
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 1;
	for (i = 0; i < u->nthreads; i++) {
		if (pthread_timedjoin_np(u->threads[i], NULL, &ts)) {
			pthread_detach(u->threads[i]);
			stuck++;
		}
	}
	if (!stuck)
		sf_uids_free(u);
}

/* ---- reload, status, set-up ---- */

/* Lookups under way began before a reload: their answers will not do.
 * They leave the pending set (their waiters keep them), so that the
 * reload's sweep makes new jobs for their uids.  Under u->lock. */
static void sf_uids_drop_running(struct sf_uids *u)
{
	struct sf_ujob **pp;
	size_t i;

	for (i = 0; i < SF_UIDS_BUCKETS; i++) {
		pp = &u->pending[i];
		while (*pp) {
			if ((*pp)->running) {
				(*pp)->stale = true;
				*pp = (*pp)->hnext;
			} else {
				pp = &(*pp)->hnext;
			}
		}
	}
}

void sf_uids_reload(struct sf_uids *u)
{
	uint64_t deadline;
	struct timespec ts;

	pthread_mutex_lock(&u->reload_lock);
	pthread_mutex_lock(&u->lock);
	sf_uids_drop_running(u);
	u->reloads++;
	u->reload_left = 0;
	atomic_store(&u->floor, sf_now_ns());
	pthread_mutex_unlock(&u->lock);

	sf_uids_sweep(u, true);
	deadline = atomic_load(&u->floor) + u->cfg.timeout_ms * SF_MS;
	sf_ns_to_ts(deadline, &ts);
	pthread_mutex_lock(&u->lock);
	while (u->reload_left &&
	       pthread_cond_timedwait(&u->progress, &u->lock, &ts) !=
	       ETIMEDOUT)
		;
	pthread_mutex_unlock(&u->lock);
	pthread_mutex_unlock(&u->reload_lock);
}

size_t sf_uids_status(struct sf_uids *u, char *buf, size_t size)
{
	size_t known = sf_uidtab_count(u->tab);
	int n;

	pthread_mutex_lock(&u->lock);
	n = snprintf(buf, size, "users known: %zu\nuser lookups: %lu\n"
		     "user lookups failed: %lu\nuser lookups timed out: %lu\n"
		     "user requests refused waiting: %lu\n"
		     "user lookups waited for (peak): %u\n",
		     known, u->lookups, u->failures, u->timeouts, u->refused,
		     u->waiting_peak);
	pthread_mutex_unlock(&u->lock);
	return n < 0 ? 0 : (size_t)n;
}

int sf_uids_new(struct sf_uids **out, const struct sf_uids_config *cfg)
{
	struct sf_uids *u = calloc(1, sizeof(*u));
	pthread_condattr_t ca;

	if (!u)
		return -ENOMEM;
	u->cfg = *cfg;
	u->tab = sf_uidtab_new();
	u->map = sf_umap_new(cfg->users, cfg->labels);
	if (!u->tab || !u->map) {
		sf_uidtab_free(u->tab);
		sf_umap_free(u->map);
		free(u);
		return -ENOMEM;
	}
	pthread_mutex_init(&u->lock, NULL);
	pthread_mutex_init(&u->reload_lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&u->work, &ca);
	pthread_cond_init(&u->progress, &ca);
	pthread_cond_init(&u->tick, &ca);
	pthread_condattr_destroy(&ca);
	*out = u;
	return 0;
}

/* SECONDS: a decimal number, whole milliseconds, in [@min_ms, @max_ms]. */
static int sf_uids_seconds(const char *val, unsigned int min_ms,
			   unsigned int max_ms, unsigned int *out)
{
	char *end;
	double s;

	if (!val || !*val)
		return -EINVAL;
	s = strtod(val, &end) * 1000;
	if (*end || !(s >= min_ms && s <= max_ms))	/* NaN fails too */
		return -EINVAL;
	*out = (unsigned int)(s + 0.5);
	return 0;
}

int sf_uids_option(bool ttl, const char *val, unsigned int *ms,
		   const char **why)
{
	if (ttl) {
		*why = "expected seconds, 1 to 86400";
		return sf_uids_seconds(val, 1000, 86400000, ms);
	}
	*why = "expected seconds, 0.1 to 300";
	return sf_uids_seconds(val, 100, 300000, ms);
}
