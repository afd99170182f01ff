// SPDX-License-Identifier: GPL-2.0-only
/*
 * uidlookup.c - what the users map says about one uid, asked of the name
 * service now.  Only resolver threads (uids.c) come here: every call may
 * block for as long as the name service takes.
 *
 * The map's own names ("alice A", "@staff S") are looked up again too, at
 * most a second apart: a line names an account, not the uid the account
 * had when the daemon started, so that a uid given to a new account does
 * not inherit the line of the old one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "uidlookup.h"

/* How long the map's names, once looked up, may serve. */
#define SF_UMAP_AGE_NS	1000000000ull

struct sf_umap {
	const struct sf_users *users;
	struct sf_labels *labels;
	bool need_account;		/* "%u" or @group lines */
	pthread_mutex_t lock;
	struct sf_user_rule *lines;	/* users->n, looked up at @at */
	uint64_t at;			/* 0: not looked up (or failed) */
};

uint64_t sf_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

struct sf_umap *sf_umap_new(const struct sf_users *users,
			    struct sf_labels *labels)
{
	struct sf_umap *m = calloc(1, sizeof(*m));
	size_t i;

	if (!m)
		return NULL;
	m->lines = calloc(users->n ? users->n : 1, sizeof(*m->lines));
	if (!m->lines) {
		free(m);
		return NULL;
	}
	m->users = users;
	m->labels = labels;
	for (i = 0; i < users->n; i++)
		m->need_account |= users->rules[i].per_user ||
				   users->rules[i].kind == SF_UR_GROUP;
	pthread_mutex_init(&m->lock, NULL);
	return m;
}

void sf_umap_free(struct sf_umap *m)
{
	if (!m)
		return;
	pthread_mutex_destroy(&m->lock);
	free(m->lines);
	free(m);
}

/* getpwnam(3): these say "no such entry", anything else is a failure. */
static bool sf_nss_not_found(int rc)
{
	return rc == ENOENT || rc == ESRCH || rc == EBADF || rc == EPERM;
}

/* The account of @uid: its name (malloc'd, NULL when there is none) and
 * primary group.  Returns 0 or a negative errno. */
static int sf_account(uid_t uid, char **name, gid_t *gid)
{
	size_t size = SF_NSS_BUF_MIN;
	int rc;

	*name = NULL;
	for (;;) {
		struct passwd pw, *res = NULL;
		char *buf = malloc(size);

		if (!buf)
			return -ENOMEM;
		rc = getpwuid_r(uid, &pw, buf, size, &res);
		if (!rc && res) {
			*name = strdup(res->pw_name);
			*gid = res->pw_gid;
			rc = *name ? 0 : ENOMEM;
		}
		free(buf);
		if (rc != ERANGE || size >= SF_NSS_BUF_MAX)
			break;
		size *= 4;
	}
	if (rc && sf_nss_not_found(rc))
		rc = 0;
	return -rc;
}

/* The map's lines with fresh ids: looked up at or after @floor, and not
 * longer ago than SF_UMAP_AGE_NS.  Under m->lock. */
static int sf_umap_fresh(struct sf_umap *m, uint64_t floor)
{
	uint64_t now = sf_now_ns();
	int rc;

	if (m->at && m->at >= floor && now - m->at < SF_UMAP_AGE_NS)
		return 0;
	m->at = 0;
	rc = sf_users_resolve(m->users, m->lines);
	if (!rc)
		m->at = now;
	return rc;
}

/* The label a matched @r gives the account @name (NULL: none). */
static sf_lid sf_umap_rule_label(struct sf_umap *m,
				 const struct sf_user_rule *r,
				 const char *name)
{
	sf_lid lid;

	if (!r)
		return SF_LID_FLOOR;
	if (!r->per_user)
		return r->label;
	/* As pam_smackfuse: a name that is no valid label is the floor. */
	if (!name || sf_label_intern(m->labels, name, strlen(name), &lid,
				     NULL))
		return SF_LID_FLOOR;
	return lid;
}

int sf_umap_label(struct sf_umap *m, uid_t uid, uint64_t floor, sf_lid *lid,
		  uint64_t *born)
{
	struct sf_user_groups g = { NULL, 0 };
	gid_t gid = 0;
	const struct sf_user_rule *r;
	struct sf_users view;
	char *name = NULL;
	int rc = 0;

	*born = sf_now_ns();
	if (m->need_account)
		rc = sf_account(uid, &name, &gid);
	if (!rc && name && m->users->has_groups)
		rc = sf_user_groups_get(name, gid, &g);
	if (rc)
		goto out;
	pthread_mutex_lock(&m->lock);
	rc = sf_umap_fresh(m, floor);
	if (!rc) {
		view = *m->users;
		view.rules = m->lines;
		r = sf_users_match(&view, uid, sf_user_groups_has, &g);
		*lid = sf_umap_rule_label(m, r, name);
		if (m->at < *born)
			*born = m->at;
	}
	pthread_mutex_unlock(&m->lock);
out:
	free(g.gids);
	free(name);
	return rc;
}
