// SPDX-License-Identifier: GPL-2.0-only
/*
 * inode.c - the inode table: backing objects the kernel holds references to.
 *
 * Each node is an O_PATH descriptor of a backing object, found by
 * (st_dev, st_ino) so that hard links share one node and one cached label.
 * The FUSE node id is the backing object's own file handle where it fits
 * in 64 bits, else a number never given before (handle.c says why); the
 * root is the node embedded in struct sf_fs, id FUSE_ROOT_ID.
 *
 * Fd pressure.  A node lives, and keeps its fd, as long as the kernel
 * holds the inode, and the kernel may hold far more inodes than
 * RLIMIT_NOFILE allows fds (a walk of a million files).  So when the
 * table grows past nodes.high (three quarters of the limit: FORGETs
 * arrive late, and open files need fds too), a thread asks the kernel to
 * drop the least recently looked-up names
 * (fuse_lowlevel_notify_inval_entry); the kernel then evicts those
 * inodes that nobody uses and sends FORGET, which closes their fds,
 * until nodes_low (half the limit) remain.  Forgotten inodes lose their
 * page cache, so eviction must not start while a working set fits.  A
 * lookup that meets EMFILE meanwhile waits briefly for those FORGETs and
 * tries again.
 * Why this and not file handles for cold inodes (name_to_handle_at /
 * open_by_handle_at): nothing else resolves a backing object (handle.c
 * does only for the kernel's decoding of a handle, with checks of its
 * own), so a node can never reach outside the backing tree or a
 * recycled inode, labels stay cached exactly as long as before, no fd
 * is ever closed under a request that uses it.  The cost: the name
 * of every node is kept (about 32 bytes), and an inode the kernel still
 * uses (an open file, a cwd) is not forgotten.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "smackfuse.h"
#include "transport.h"

/* Room left for open files, directories and libfuse's own fds. */
static void sf_nodes_limits(struct sf_fs *fs)
{
	struct rlimit rl;
	size_t lim = 1024;

	if (!getrlimit(RLIMIT_NOFILE, &rl))
		lim = rl.rlim_cur == RLIM_INFINITY ? 1u << 20 :
		      (size_t)rl.rlim_cur;
	fs->nodes.high = lim / 4 * 3;
	fs->nodes.low = lim / 2;
}

int sf_nodes_init(struct sf_fs *fs)
{
	pthread_condattr_t ca;

	pthread_mutex_init(&fs->nodes.lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&fs->nodes.evict_cond, &ca);
	pthread_cond_init(&fs->nodes.forget_cond, &ca);
	pthread_condattr_destroy(&ca);
	sf_nodes_limits(fs);
	fs->nodes.evict_futile = ULONG_MAX;
	fs->nodes.nbuckets = 4096;
	fs->nodes.buckets = calloc(fs->nodes.nbuckets, sizeof(*fs->nodes.buckets));
	fs->nodes.ids = calloc(fs->nodes.nbuckets, sizeof(*fs->nodes.ids));
	pthread_rwlock_init(&fs->nodes.ids_lock, NULL);
	fs->nodes.next_volatile = FUSE_ROOT_ID + 1;
	fs->root.id = FUSE_ROOT_ID;
	return fs->nodes.buckets && fs->nodes.ids ? 0 : -ENOMEM;
}

static size_t sf_id_hash(fuse_ino_t id, size_t nbuckets)
{
	return (size_t)(((uint64_t)id * SF_GOLDEN_RATIO_64) >> 17) %
	       nbuckets;
}

/* The node of @id, or NULL; under ids_lock or nodes.lock. */
static struct sf_node *sf_id_find(struct sf_fs *fs, fuse_ino_t id)
{
	struct sf_node *n = fs->nodes.ids[sf_id_hash(id, fs->nodes.nbuckets)];

	while (n && n->id != id)
		n = n->idnext;
	return n;
}

/**
 * sf_node_of_id - the node the kernel knows as @id, or NULL.  No
 * reference is taken: a request's node lives until its FORGET.
 */
struct sf_node *sf_node_of_id(struct sf_fs *fs, fuse_ino_t id)
{
	struct sf_node *n;

	if (id == FUSE_ROOT_ID)
		return &fs->root;
	pthread_rwlock_rdlock(&fs->nodes.ids_lock);
	n = sf_id_find(fs, id);
	pthread_rwlock_unlock(&fs->nodes.ids_lock);
	return n;
}

struct sf_node *sf_node(fuse_req_t req, fuse_ino_t ino)
{
	return sf_node_of_id(fuse_req_userdata(req), ino);
}

fuse_ino_t sf_node_ino(const struct sf_fs *fs, const struct sf_node *n)
{
	if (n == &fs->root)
		return FUSE_ROOT_ID;
	return n->id;
}

/*
 * Give @n its id: @id (the backing handle's, handle.c) unless it is 0 or
 * taken, else the next volatile one, never given before (a handle of a
 * forgotten volatile node must not reach another).  Volatile nodes have
 * generation 0, handle nodes never: an old volatile handle that decodes
 * as a backing handle after a restart is refused by the kernel's
 * generation check.  Under nodes.lock.
 */
static void sf_node_set_id(struct sf_fs *fs, struct sf_node *n,
			   fuse_ino_t id)
{
	size_t h;

	if (id && !sf_id_find(fs, id)) {
		n->id = id;
		n->gen = sf_handle_gen(id);
	} else {
		do
			id = fs->nodes.next_volatile++;
		while (id <= FUSE_ROOT_ID || sf_id_find(fs, id));
		n->id = id;
		n->gen = 0;
	}
	h = sf_id_hash(n->id, fs->nodes.nbuckets);
	pthread_rwlock_wrlock(&fs->nodes.ids_lock);
	n->idnext = fs->nodes.ids[h];
	fs->nodes.ids[h] = n;
	pthread_rwlock_unlock(&fs->nodes.ids_lock);
}

/* Under nodes.lock. */
static void sf_node_unset_id(struct sf_fs *fs, struct sf_node *n)
{
	struct sf_node **p = &fs->nodes.ids[sf_id_hash(n->id, fs->nodes.nbuckets)];

	pthread_rwlock_wrlock(&fs->nodes.ids_lock);
	for (; *p; p = &(*p)->idnext) {
		if (*p == n) {
			*p = n->idnext;
			break;
		}
	}
	pthread_rwlock_unlock(&fs->nodes.ids_lock);
}

static size_t sf_hash(ino_t ino, dev_t dev, size_t nbuckets)
{
	uint64_t h = (uint64_t)ino * SF_GOLDEN_RATIO_64 ^ (uint64_t)dev;

	return (size_t)(h >> 17) % nbuckets;
}

static void sf_nodes_grow(struct sf_fs *fs)
{
	size_t nb = fs->nodes.nbuckets * 2, i;
	struct sf_node **b = calloc(nb, sizeof(*b));
	struct sf_node **ids = calloc(nb, sizeof(*ids));

	if (!b || !ids) {
		free(b);
		free(ids);
		return;		/* keep the longer chains */
	}
	pthread_rwlock_wrlock(&fs->nodes.ids_lock);
	for (i = 0; i < fs->nodes.nbuckets; i++) {
		struct sf_node *n = fs->nodes.buckets[i], *next;

		for (; n; n = next) {
			size_t h = sf_hash(n->ino, n->dev, nb);

			next = n->next;
			n->next = b[h];
			b[h] = n;
		}
		for (n = fs->nodes.ids[i]; n; n = next) {
			size_t h = sf_id_hash(n->id, nb);

			next = n->idnext;
			n->idnext = ids[h];
			ids[h] = n;
		}
	}
	free(fs->nodes.buckets);
	free(fs->nodes.ids);
	fs->nodes.buckets = b;
	fs->nodes.ids = ids;
	fs->nodes.nbuckets = nb;
	pthread_rwlock_unlock(&fs->nodes.ids_lock);
}

/* The LRU list, under nodes.lock; the root is never on it. */
static void sf_lru_del(struct sf_fs *fs, struct sf_node *n)
{
	if (n->lru_prev)
		n->lru_prev->lru_next = n->lru_next;
	else
		fs->nodes.lru_head = n->lru_next;
	if (n->lru_next)
		n->lru_next->lru_prev = n->lru_prev;
	else
		fs->nodes.lru_tail = n->lru_prev;
	n->lru_prev = n->lru_next = NULL;
}

static void sf_lru_add(struct sf_fs *fs, struct sf_node *n)
{
	n->lru_next = NULL;
	n->lru_prev = fs->nodes.lru_tail;
	if (fs->nodes.lru_tail)
		fs->nodes.lru_tail->lru_next = n;
	else
		fs->nodes.lru_head = n;
	fs->nodes.lru_tail = n;
}

static void sf_lru_touch(struct sf_fs *fs, struct sf_node *n)
{
	if (fs->nodes.lru_tail != n) {
		sf_lru_del(fs, n);
		sf_lru_add(fs, n);
	}
}

static void *sf_evict_thread(void *arg);

/* A node was added: past the high-water mark, wake (or start) the
 * thread that makes the kernel forget.  Under nodes.lock. */
static void sf_nodes_pressure(struct sf_fs *fs)
{
	if (fs->nodes.nnodes > fs->nodes.peak)
		fs->nodes.peak = fs->nodes.nnodes;
	if (fs->nodes.nnodes <= fs->nodes.high || !fs->se || fs->nodes.evict_stop)
		return;
	if (!fs->nodes.evict_started) {
		/* Created from a worker: it inherits the workers' blocked
		 * signals. */
		if (pthread_create(&fs->nodes.evict_thread, NULL, sf_evict_thread,
				   fs))
			return;
		fs->nodes.evict_started = true;
	}
	pthread_cond_signal(&fs->nodes.evict_cond);
}

/* Find or insert the node of @st; takes one lookup reference.  Consumes
 * @fd (closed if an existing node is returned). */
/* The node of @st, with a new lookup reference, or NULL.  Under
 * nodes.lock. */
static struct sf_node *sf_node_known(struct sf_fs *fs, const struct stat *st)
{
	struct sf_node *n;

	if (st->st_ino == fs->root.ino && st->st_dev == fs->root.dev) {
		fs->root.nlookup++;
		return &fs->root;
	}
	n = fs->nodes.buckets[sf_hash(st->st_ino, st->st_dev, fs->nodes.nbuckets)];
	for (; n; n = n->next) {
		if (n->ino == st->st_ino && n->dev == st->st_dev) {
			n->nlookup++;
			sf_lru_touch(fs, n);
			return n;
		}
	}
	return NULL;
}

static struct sf_node *sf_node_get(struct sf_fs *fs, int fd,
				   const struct stat *st, fuse_ino_t id)
{
	struct sf_node *n;
	size_t h;

	pthread_mutex_lock(&fs->nodes.lock);
	n = sf_node_known(fs, st);
	if (n) {
		pthread_mutex_unlock(&fs->nodes.lock);
		close(fd);
		return n;
	}
	h = sf_hash(st->st_ino, st->st_dev, fs->nodes.nbuckets);
	n = calloc(1, sizeof(*n));
	if (!n) {
		pthread_mutex_unlock(&fs->nodes.lock);
		close(fd);
		return NULL;
	}
	n->fd = fd;
	n->ino = st->st_ino;
	n->dev = st->st_dev;
	n->type = st->st_mode & S_IFMT;
	n->nlookup = 1;
	sf_node_set_id(fs, n, id);
	n->next = fs->nodes.buckets[h];
	fs->nodes.buckets[h] = n;
	sf_lru_add(fs, n);
	if (++fs->nodes.nnodes > fs->nodes.nbuckets * 2)
		sf_nodes_grow(fs);
	sf_nodes_pressure(fs);
	pthread_mutex_unlock(&fs->nodes.lock);
	return n;
}

#define SF_OPEN_RETRIES		40	/* waits for FORGETs ... */
#define SF_OPEN_RETRY_MS	50	/* ... of at most 50 ms: 2 s */

/*
 * openat() met EMFILE/ENFILE.  If the table holds enough nodes for
 * forgetting to help, wake the evicting thread and wait for FORGETs
 * (at most about two seconds), trying again after each.  Otherwise the
 * fds are held by open files: fail at once.  So too when a wait saw no
 * FORGET come and none has come since: the kernel keeps those nodes
 * (open files), and every lookup would wait in vain.
 */
static int sf_openat_retry(struct sf_fs *fs, int dirfd, const char *name)
{
	struct timespec ts;
	unsigned long seen;
	int i, fd = -1, err = errno;

	for (i = 0; i < SF_OPEN_RETRIES && (err == EMFILE || err == ENFILE);
	     i++) {
		pthread_mutex_lock(&fs->nodes.lock);
		if (fs->nodes.nnodes <= fs->nodes.low || !fs->nodes.evict_started) {
			pthread_mutex_unlock(&fs->nodes.lock);
			break;
		}
		pthread_cond_signal(&fs->nodes.evict_cond);
		seen = fs->nodes.forgotten;
		if (fs->nodes.evict_futile == seen) {
			pthread_mutex_unlock(&fs->nodes.lock);
			break;
		}
		sf_loop_yield();	/* the FORGETs come through the device */
		sf_deadline_ms(&ts, SF_OPEN_RETRY_MS);
		pthread_cond_timedwait(&fs->nodes.forget_cond, &fs->nodes.lock, &ts);
		if (fs->nodes.forgotten == seen)
			fs->nodes.evict_futile = seen;
		pthread_mutex_unlock(&fs->nodes.lock);
		fd = openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0)
			return fd;
		err = errno;
	}
	errno = err;
	return -1;
}

/**
 * sf_node_lookup - find @name in @parent, without following a symlink.
 * Fills @e (attributes, node id; timeouts are the caller's business) and
 * takes a lookup reference on the node.  Returns 0 or a negative errno.
 */
int sf_node_lookup(struct sf_fs *fs, struct sf_node *parent,
		   const char *name, struct fuse_entry_param *e,
		   struct sf_node **out)
{
	struct sf_node *n;
	int fd;

	memset(e, 0, sizeof(*e));
	if (!strncmp(name, SF_TMP_PREFIX, SF_TMP_PREFIX_LEN))
		return -ENOENT;
	if (!strcmp(name, "..") && parent == &fs->root)
		return -ENOENT;
	/* A node the kernel knows needs no new descriptor: the node's own
	 * O_PATH descriptor pins the inode, so no other object can have
	 * its (dev, ino) meanwhile.  Saves an openat() and a close() on
	 * every revalidation. */
	if (fstatat(parent->fd, name, &e->attr, AT_SYMLINK_NOFOLLOW))
		return -errno;
	pthread_mutex_lock(&fs->nodes.lock);
	n = sf_node_known(fs, &e->attr);
	pthread_mutex_unlock(&fs->nodes.lock);
	if (n) {
		e->ino = sf_node_ino(fs, n);
		e->generation = n->gen;
		*out = n;
		return 0;
	}
	fd = openat(parent->fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && (errno == EMFILE || errno == ENFILE))
		fd = sf_openat_retry(fs, parent->fd, name);
	if (fd < 0)
		return -errno;
	return sf_node_from_fd(fs, fd, e, out);
}

static void sf_node_unhash(struct sf_fs *fs, struct sf_node *n)
{
	struct sf_node **p = &fs->nodes.buckets[sf_hash(n->ino, n->dev,
						  fs->nodes.nbuckets)];

	for (; *p; p = &(*p)->next) {
		if (*p == n) {
			*p = n->next;
			fs->nodes.nnodes--;
			break;
		}
	}
	sf_node_unset_id(fs, n);
}

/* Give memory back after the kernel forgot many nodes, or all of them:
 * freed nodes would otherwise stay in malloc's arenas. */
static void sf_nodes_trim(struct sf_fs *fs, bool empty)
{
	static atomic_ulong forgotten;

	(void)fs;
	if (atomic_fetch_add(&forgotten, 1) % 4096 == 4095 || empty)
		malloc_trim(0);
}

void sf_node_forget(struct sf_fs *fs, struct sf_node *n, uint64_t nlookup)
{
	bool drop = false, empty = false;

	pthread_mutex_lock(&fs->nodes.lock);
	n->nlookup = nlookup > n->nlookup ? 0 : n->nlookup - nlookup;
	if (!n->nlookup && n != &fs->root) {
		sf_node_unhash(fs, n);
		sf_lru_del(fs, n);
		fs->nodes.forgotten++;
		drop = true;
		empty = !fs->nodes.nnodes;
	}
	pthread_mutex_unlock(&fs->nodes.lock);
	if (drop) {
		sf_verdict_forget(fs, n);
		sf_lock_release_all(n);
		sf_passthrough_forget(fs, n);
		close(n->fd);
		free(n->ename);
		free(n);
		sf_nodes_trim(fs, empty);
		/* Lookups waiting for an fd (sf_openat_retry). */
		pthread_cond_broadcast(&fs->nodes.forget_cond);
	}
}

static bool sf_node_has_name(const struct sf_node *n, fuse_ino_t parent,
			     const char *name)
{
	return n->ename && n->eparent == parent && !strcmp(n->ename, name);
}

/* Remember the name the kernel knows @n by: to drop it in
 * sf_nodes_invalidate() when a label or rule changes if the kernel may
 * cache it (@cached), and to make the kernel forget @n under fd
 * pressure.  A cached name is kept rather than replaced by an uncached
 * one: it is the one that must be invalidated. */
void sf_node_remember_entry(struct sf_fs *fs, struct sf_node *n,
			    fuse_ino_t parent, const char *name, bool cached)
{
	char *copy;

	if (n == &fs->root || !strcmp(name, ".") || !strcmp(name, ".."))
		return;
	pthread_mutex_lock(&fs->nodes.lock);
	if (sf_node_has_name(n, parent, name) || (n->ecached && !cached)) {
		n->ecached |= cached;
		pthread_mutex_unlock(&fs->nodes.lock);
		return;
	}
	pthread_mutex_unlock(&fs->nodes.lock);
	copy = strdup(name);
	if (!copy)
		return;
	pthread_mutex_lock(&fs->nodes.lock);
	free(n->ename);
	n->ename = copy;
	n->eparent = parent;
	n->ecached = cached;
	pthread_mutex_unlock(&fs->nodes.lock);
}

struct sf_inval {
	fuse_ino_t ino, parent;
	char *name;
};

/*
 * sf_nodes_invalidate - drop every label we cached and every entry and
 * attribute the kernel cached.  The notifications are sent without the
 * table lock: the kernel may answer them with requests of its own.
 */
void sf_nodes_invalidate(struct sf_fs *fs)
{
	struct sf_inval *v;
	size_t i, n = 0, cap;

	pthread_mutex_lock(&fs->nodes.lock);
	cap = fs->nodes.nnodes + 1;
	v = calloc(cap, sizeof(*v));
	sf_node_label_invalidate(&fs->root);
	for (i = 0; i < fs->nodes.nbuckets; i++) {
		struct sf_node *nd;

		for (nd = fs->nodes.buckets[i]; nd; nd = nd->next) {
			sf_node_label_invalidate(nd);
			if (!v || n >= cap)
				continue;
			v[n].ino = sf_node_ino(fs, nd);
			v[n].parent = nd->eparent;
			/* The kernel drops it: the name stays known. */
			v[n].name = nd->ecached ? strdup(nd->ename) : NULL;
			nd->ecached = false;
			n++;
		}
	}
	pthread_mutex_unlock(&fs->nodes.lock);
	if (!v || !fs->se)
		goto out;
	for (i = 0; i < n; i++) {
		if (v[i].name)
			fuse_lowlevel_notify_inval_entry(fs->se, v[i].parent,
							 v[i].name,
							 strlen(v[i].name));
		fuse_lowlevel_notify_inval_inode(fs->se, v[i].ino, -1, 0);
	}
	fuse_lowlevel_notify_inval_inode(fs->se, FUSE_ROOT_ID, -1, 0);
out:
	for (i = 0; v && i < n; i++)
		free(v[i].name);
	free(v);
}

/* Take one more lookup reference on @n (link, and create's fallback). */
void sf_node_ref(struct sf_fs *fs, struct sf_node *n)
{
	pthread_mutex_lock(&fs->nodes.lock);
	n->nlookup++;
	pthread_mutex_unlock(&fs->nodes.lock);
}

/**
 * sf_node_from_fd - the node of the object @fd (O_PATH, consumed) refers
 * to, with one lookup reference; fills @e like sf_node_lookup().
 */
int sf_node_from_fd(struct sf_fs *fs, int fd, struct fuse_entry_param *e,
		    struct sf_node **out)
{
	struct sf_node *n;

	memset(e, 0, sizeof(*e));
	if (fstatat(fd, "", &e->attr, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW)) {
		int saverr = errno;

		close(fd);
		return -saverr;
	}
	n = sf_node_get(fs, fd, &e->attr, sf_handle_id(fs, fd, &e->attr));
	if (!n)
		return -ENOMEM;
	e->ino = sf_node_ino(fs, n);
	e->generation = n->gen;
	*out = n;
	return 0;
}

/* The node of id @id with a new lookup reference, or NULL. */
struct sf_node *sf_node_by_id(struct sf_fs *fs, fuse_ino_t id)
{
	struct sf_node *n;

	pthread_mutex_lock(&fs->nodes.lock);
	n = id == FUSE_ROOT_ID ? &fs->root : sf_id_find(fs, id);
	if (n) {
		n->nlookup++;
		if (n != &fs->root)
			sf_lru_touch(fs, n);
	}
	pthread_mutex_unlock(&fs->nodes.lock);
	return n;
}

/**
 * sf_node_lookup_handle - LOOKUP of "." (decoding a handle) or ".." (its
 * directory's parent) in node id @parent, which the daemon may not know:
 * the node table's, or the backing object handle.c finds for the id.
 * Fills @e and takes a lookup reference as sf_node_lookup() does.
 * No Smack check: mainline asks none while decoding either.
 */
int sf_node_lookup_handle(struct sf_fs *fs, fuse_ino_t parent,
			  const char *name, struct fuse_entry_param *e,
			  struct sf_node **out)
{
	struct sf_node *n;
	int fd, rc;

	if (!strcmp(name, "..")) {
		n = sf_node_of_id(fs, parent);
		return n ? sf_node_lookup(fs, n, "..", e, out) : -ESTALE;
	}
	n = sf_node_by_id(fs, parent);
	if (n) {
		memset(e, 0, sizeof(*e));
		if (fstatat(n->fd, "", &e->attr,
			    AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW)) {
			rc = -errno;
			sf_node_forget(fs, n, 1);
			return rc;
		}
		e->ino = parent;
		e->generation = n->gen;
		*out = n;
		return 0;
	}
	fd = sf_handle_open(fs, parent);
	if (fd < 0)
		return fd;
	rc = sf_node_from_fd(fs, fd, e, &n);
	if (rc)
		return rc;
	if (n->id != parent) {		/* known by another id: not ours */
		sf_node_forget(fs, n, 1);
		return -ESTALE;
	}
	*out = n;
	return 0;
}

/* Names the evicting thread hands to the kernel in one batch. */
#define SF_EVICT_BATCH 1024

/*
 * Take up to @max of the least recently used nodes' names (ownership
 * moves to @v: the kernel is about to drop them).  Every node looked at
 * goes to the back of the list, so that nodes the kernel cannot forget
 * (in use) do not stop the next pass.  Under nodes.lock.
 */
static size_t sf_evict_pick(struct sf_fs *fs, struct sf_inval *v, size_t max)
{
	size_t k = 0, seen = 0, scan = fs->nodes.nnodes;

	while (k < max && seen++ < scan && fs->nodes.lru_head) {
		struct sf_node *n = fs->nodes.lru_head;

		sf_lru_touch(fs, n);
		if (!n->ename)
			continue;
		v[k].parent = n->eparent;
		v[k].name = n->ename;
		n->ename = NULL;
		n->ecached = false;
		k++;
	}
	return k;
}

static void *sf_evict_thread(void *arg)
{
	struct sf_fs *fs = arg;
	struct sf_inval *v = calloc(SF_EVICT_BATCH, sizeof(*v));
	struct timespec ts;
	size_t i, k, want;

	if (!v)
		return NULL;
	pthread_mutex_lock(&fs->nodes.lock);
	while (!fs->nodes.evict_stop) {
		if (fs->nodes.nnodes <= fs->nodes.high) {
			pthread_cond_wait(&fs->nodes.evict_cond, &fs->nodes.lock);
			continue;
		}
		/* One pass: from the high-water mark down to the low. */
		want = fs->nodes.nnodes - fs->nodes.low;
		while (want > 0 && !fs->nodes.evict_stop) {
			k = sf_evict_pick(fs, v, want < SF_EVICT_BATCH ?
					  want : SF_EVICT_BATCH);
			if (!k)
				break;
			want -= k;
			fs->nodes.evicted += k;
			pthread_mutex_unlock(&fs->nodes.lock);
			/* Not under the lock: the kernel may need a request
			 * answered (and the directory lock) first. */
			for (i = 0; i < k; i++) {
				fuse_lowlevel_notify_inval_entry(fs->se,
					v[i].parent, v[i].name,
					strlen(v[i].name));
				free(v[i].name);
			}
			pthread_mutex_lock(&fs->nodes.lock);
		}
		/* Let the FORGETs arrive; never spin on nodes the kernel
		 * keeps (open files): at most one pass per 20 ms. */
		sf_deadline_ms(&ts, 20);
		while (!fs->nodes.evict_stop &&
		       pthread_cond_timedwait(&fs->nodes.evict_cond, &fs->nodes.lock,
					      &ts) == 0)
			;
	}
	pthread_mutex_unlock(&fs->nodes.lock);
	free(v);
	return NULL;
}

/*
 * sf_nodes_stop - stop the evicting thread (if it ever started).  Called
 * once the session is unmounted, before it is destroyed: a notification
 * in flight then fails at once.  Should one still block, the thread is
 * left behind rather than the daemon hanging at exit.
 */
void sf_nodes_stop(struct sf_fs *fs)
{
	struct timespec ts;
	bool started;

	pthread_mutex_lock(&fs->nodes.lock);
	fs->nodes.evict_stop = true;
	started = fs->nodes.evict_started;
	pthread_cond_broadcast(&fs->nodes.evict_cond);
	pthread_mutex_unlock(&fs->nodes.lock);
	if (!started)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 2;
	if (pthread_timedjoin_np(fs->nodes.evict_thread, NULL, &ts))
		pthread_detach(fs->nodes.evict_thread);
}
