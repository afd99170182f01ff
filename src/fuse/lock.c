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
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "smackfuse.h"

static pthread_mutex_t sf_locks_lock = PTHREAD_MUTEX_INITIALIZER;

/* The descriptor of @owner's locks on @n, opened on first use. */
int sf_lock_get(struct sf_fs *fs, struct sf_node *n, uint64_t owner, int fhfd)
{
	struct sf_lockfd *l;
	char proc[64];
	int fd;

	(void)fs;
	pthread_mutex_lock(&sf_locks_lock);
	for (l = n->locks; l; l = l->next) {
		if (l->owner == owner) {
			fd = l->fd;
			pthread_mutex_unlock(&sf_locks_lock);
			return fd;
		}
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fhfd);
	fd = open(proc, O_RDWR | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		fd = open(proc, (fcntl(fhfd, F_GETFL) & O_ACCMODE) | O_CLOEXEC |
			  O_NOCTTY);
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
	l->fd = fd;
	l->next = n->locks;
	n->locks = l;
	pthread_mutex_unlock(&sf_locks_lock);
	return fd;
}

void sf_lock_release_owner(struct sf_node *n, uint64_t owner)
{
	struct sf_lockfd **p, *l = NULL;

	pthread_mutex_lock(&sf_locks_lock);
	for (p = &n->locks; *p; p = &(*p)->next) {
		if ((*p)->owner == owner) {
			l = *p;
			*p = l->next;
			break;
		}
	}
	pthread_mutex_unlock(&sf_locks_lock);
	if (l) {
		close(l->fd);
		free(l);
	}
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
		close(l->fd);
		free(l);
	}
}
