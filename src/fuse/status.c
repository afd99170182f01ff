// SPDX-License-Identifier: GPL-2.0-only
/*
 * status.c - the control filesystem's "status" file of this mount: the
 * daemon's options and counters, then one part from each file that owns
 * what it shows (the transport, the requests by type, the capabilities,
 * handles, getattr's sites, the users map, the kernel's checks).
 *
 * It only reads: it sits above every file it asks, and none of them
 * calls it; main.c hands sf_status() to the control filesystem.
 */
#include <stdio.h>

#include "smackfuse.h"
#include "transport.h"

static const char *const sf_subject_names[] = {
	[SF_SUBJ_AUTO] = "auto", [SF_SUBJ_SMACK] = "smack",
	[SF_SUBJ_KMOD] = "kmod", [SF_SUBJ_USERS] = "users",
};

/* Append what @add prints to @buf at *@n; past @size only count it (the
 * status is sized with @buf NULL first, then written). */
static void sf_status_add(struct sf_fs *fs, char *buf, size_t size,
			  size_t *n, int (*add)(struct sf_fs *, char *, size_t))
{
	char none[1];
	int r = *n < size ? add(fs, buf + *n, size - *n) :
			    add(fs, none, sizeof(none));

	if (r > 0)
		*n += (size_t)r;
}

size_t sf_status(void *arg, char *buf, size_t size)
{
	struct sf_fs *fs = arg;
	size_t n;
	int r;

	r = snprintf(buf, size,
		     "source: %s\nmountpoint: %s\nsubject: %s\n"
		     "enforcing: %s\ncache: %s\nlogging: %d\n"
		     "checks: %lu\ndenials: %lu\ngrants: %lu\n"
		     "cache hits: %lu\nnodes: %zu\nnodes peak: %zu\n"
		     "nodes high-water mark: %zu\nnodes evicted: %lu\n",
		     fs->source, fs->mountpoint,
		     sf_subject_names[fs->opt.subject],
		     fs->opt.checks_off ? "no" : "yes",
		     fs->opt.cache_strict ? "strict" : "auto",
		     atomic_load(&fs->logging),
		     atomic_load(&fs->stats.checks), atomic_load(&fs->stats.denials),
		     atomic_load(&fs->stats.grants), atomic_load(&fs->stats.cache_hits),
		     fs->nodes.nnodes, fs->nodes.peak, fs->nodes.high,
		     fs->nodes.evicted);
	if (r < 0)
		return 0;
	n = (size_t)r;
	sf_status_add(fs, buf, size, &n, sf_transport_status);
	sf_status_add(fs, buf, size, &n, sf_reqcount_status);
	sf_status_add(fs, buf, size, &n, sf_caps_status);
	sf_status_add(fs, buf, size, &n, sf_handle_status);
	sf_status_add(fs, buf, size, &n, sf_getattr_status);
	sf_status_add(fs, buf, size, &n, sf_users_status);
	sf_status_add(fs, buf, size, &n, sf_kernel_checks_status);
	sf_status_add(fs, buf, size, &n, sf_privilege_status);
	return n;
}
