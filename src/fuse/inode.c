// SPDX-License-Identifier: GPL-2.0-only
/*
 * inode.c - the inode table: backing objects the kernel holds references to.
 *
 * Each node is an O_PATH descriptor of a backing object, found by
 * (st_dev, st_ino) so that hard links share one node and one cached label.
 * The FUSE node id is the node's address (passthrough_ll does the same);
 * the root is the node embedded in struct sf_fs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "smackfuse.h"

int sf_nodes_init(struct sf_fs *fs)
{
	pthread_mutex_init(&fs->nodes_lock, NULL);
	fs->nbuckets = 4096;
	fs->buckets = calloc(fs->nbuckets, sizeof(*fs->buckets));
	return fs->buckets ? 0 : -ENOMEM;
}

struct sf_node *sf_node(fuse_req_t req, fuse_ino_t ino)
{
	struct sf_fs *fs = fuse_req_userdata(req);

	if (ino == FUSE_ROOT_ID)
		return &fs->root;
	return (struct sf_node *)(uintptr_t)ino;
}

fuse_ino_t sf_node_ino(const struct sf_fs *fs, const struct sf_node *n)
{
	if (n == &fs->root)
		return FUSE_ROOT_ID;
	return (fuse_ino_t)(uintptr_t)n;
}

/* "/proc/self/fd/N" for calls that cannot take an O_PATH descriptor. */
void sf_proc_path(const struct sf_node *n, char *buf, size_t size)
{
	snprintf(buf, size, "/proc/self/fd/%d", n->fd);
}

static size_t sf_hash(ino_t ino, dev_t dev, size_t nbuckets)
{
	uint64_t h = (uint64_t)ino * 0x9e3779b97f4a7c15ull ^ (uint64_t)dev;

	return (size_t)(h >> 17) % nbuckets;
}

static void sf_nodes_grow(struct sf_fs *fs)
{
	size_t nb = fs->nbuckets * 2, i;
	struct sf_node **b = calloc(nb, sizeof(*b));

	if (!b)
		return;		/* keep the longer chains */
	for (i = 0; i < fs->nbuckets; i++) {
		struct sf_node *n = fs->buckets[i], *next;

		for (; n; n = next) {
			size_t h = sf_hash(n->ino, n->dev, nb);

			next = n->next;
			n->next = b[h];
			b[h] = n;
		}
	}
	free(fs->buckets);
	fs->buckets = b;
	fs->nbuckets = nb;
}

/* Find or insert the node of @st; takes one lookup reference.  Consumes
 * @fd (closed if an existing node is returned). */
static struct sf_node *sf_node_get(struct sf_fs *fs, int fd,
				   const struct stat *st)
{
	struct sf_node *n;
	size_t h;

	if (st->st_ino == fs->root.ino && st->st_dev == fs->root.dev) {
		close(fd);
		pthread_mutex_lock(&fs->nodes_lock);
		fs->root.nlookup++;
		pthread_mutex_unlock(&fs->nodes_lock);
		return &fs->root;
	}
	pthread_mutex_lock(&fs->nodes_lock);
	h = sf_hash(st->st_ino, st->st_dev, fs->nbuckets);
	for (n = fs->buckets[h]; n; n = n->next)
		if (n->ino == st->st_ino && n->dev == st->st_dev)
			break;
	if (n) {
		n->nlookup++;
		pthread_mutex_unlock(&fs->nodes_lock);
		close(fd);
		return n;
	}
	n = calloc(1, sizeof(*n));
	if (!n) {
		pthread_mutex_unlock(&fs->nodes_lock);
		close(fd);
		return NULL;
	}
	n->fd = fd;
	n->ino = st->st_ino;
	n->dev = st->st_dev;
	n->type = st->st_mode & S_IFMT;
	n->nlookup = 1;
	n->next = fs->buckets[h];
	fs->buckets[h] = n;
	if (++fs->nnodes > fs->nbuckets * 2)
		sf_nodes_grow(fs);
	pthread_mutex_unlock(&fs->nodes_lock);
	return n;
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
	fd = openat(parent->fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstatat(fd, "", &e->attr, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW)) {
		int saverr = errno;

		close(fd);
		return -saverr;
	}
	n = sf_node_get(fs, fd, &e->attr);
	if (!n)
		return -ENOMEM;
	e->ino = sf_node_ino(fs, n);
	*out = n;
	return 0;
}

static void sf_node_unhash(struct sf_fs *fs, struct sf_node *n)
{
	struct sf_node **p = &fs->buckets[sf_hash(n->ino, n->dev,
						  fs->nbuckets)];

	for (; *p; p = &(*p)->next) {
		if (*p == n) {
			*p = n->next;
			fs->nnodes--;
			return;
		}
	}
}

/* Give memory back after the kernel forgot many nodes: freed nodes would
 * otherwise stay in malloc's arenas. */
static void sf_nodes_trim(struct sf_fs *fs)
{
	static atomic_ulong forgotten;

	(void)fs;
	if (atomic_fetch_add(&forgotten, 1) % 4096 == 4095)
		malloc_trim(0);
}

void sf_node_forget(struct sf_fs *fs, struct sf_node *n, uint64_t nlookup)
{
	bool drop = false;

	pthread_mutex_lock(&fs->nodes_lock);
	n->nlookup = nlookup > n->nlookup ? 0 : n->nlookup - nlookup;
	if (!n->nlookup && n != &fs->root) {
		sf_node_unhash(fs, n);
		drop = true;
	}
	pthread_mutex_unlock(&fs->nodes_lock);
	if (drop) {
		sf_lock_release_all(n);
		close(n->fd);
		free(n->ename);
		free(n);
		sf_nodes_trim(fs);
	}
}

/* Remember the name under which the kernel may cache @n, to drop it in
 * sf_nodes_invalidate() when a label or rule changes. */
void sf_node_remember_entry(struct sf_fs *fs, struct sf_node *n,
			    fuse_ino_t parent, const char *name)
{
	char *copy = strdup(name);

	if (!copy)
		return;
	pthread_mutex_lock(&fs->nodes_lock);
	free(n->ename);
	n->ename = copy;
	n->eparent = parent;
	pthread_mutex_unlock(&fs->nodes_lock);
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

	pthread_mutex_lock(&fs->nodes_lock);
	cap = fs->nnodes + 1;
	v = calloc(cap, sizeof(*v));
	sf_node_label_invalidate(&fs->root);
	for (i = 0; i < fs->nbuckets; i++) {
		struct sf_node *nd;

		for (nd = fs->buckets[i]; nd; nd = nd->next) {
			sf_node_label_invalidate(nd);
			if (!v || n >= cap)
				continue;
			v[n].ino = sf_node_ino(fs, nd);
			v[n].parent = nd->eparent;
			v[n].name = nd->ename;	/* ownership moves to v */
			nd->ename = NULL;
			n++;
		}
	}
	pthread_mutex_unlock(&fs->nodes_lock);
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
	pthread_mutex_lock(&fs->nodes_lock);
	n->nlookup++;
	pthread_mutex_unlock(&fs->nodes_lock);
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
	n = sf_node_get(fs, fd, &e->attr);
	if (!n)
		return -ENOMEM;
	e->ino = sf_node_ino(fs, n);
	*out = n;
	return 0;
}
