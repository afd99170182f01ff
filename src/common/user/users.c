// SPDX-License-Identifier: GPL-2.0-only
/*
 * users.c - the users map parser, shared by the daemon and pam_smackfuse.
 *
 * Strict like doas: the first bad line names file and line, and nothing
 * of a bad file is used.  Users and groups are resolved at load, so a
 * name that does not exist is an error, not a silent non-match; a lookup
 * that fails (NSS down) is an error too, never a guess.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "users.h"

struct sf_users_ctx {
	const char *path;
	unsigned int line;
	struct sf_labels *labels;
	bool has_groups;
	sf_users_report report;
	void *arg;
};

static int sf_users_error(struct sf_users_ctx *c, const char *reason,
			  const char *what)
{
	char msg[512];

	snprintf(msg, sizeof(msg), "%s:%u: %s%s%s", c->path, c->line, reason,
		 what ? ": " : "", what ? what : "");
	c->report(c->arg, msg);
	return -EINVAL;
}

/*
 * Resolve a user or group name with the reentrant lookups: inside a PAM
 * module, getpwnam()'s static buffer may hold the caller's own entry.
 * Returns 0 and the id, -ENOENT for an unknown name, or another errno.
 */
static int sf_users_lookup(const char *name, bool group, unsigned int *id)
{
	size_t size = SF_NSS_BUF_MIN;
	bool found = false;
	int rc;

	for (;;) {
		char *buf = malloc(size);
		struct passwd pw, *pr = NULL;
		struct group gr, *gres = NULL;

		if (!buf)
			return -ENOMEM;
		if (group) {
			rc = getgrnam_r(name, &gr, buf, size, &gres);
			found = !rc && gres;
			if (found)
				*id = gres->gr_gid;
		} else {
			rc = getpwnam_r(name, &pw, buf, size, &pr);
			found = !rc && pr;
			if (found)
				*id = pr->pw_uid;
		}
		free(buf);
		if (rc != ERANGE || size >= SF_NSS_BUF_MAX)
			break;
		size *= 4;
	}
	if (found)
		return 0;
	/* Some NSS modules say "no such name" with an errno. */
	return rc && rc != ENOENT && rc != ESRCH ? -rc : -ENOENT;
}

/* "WHO": "*", "@group" or a user name, resolved now. */
static int sf_users_who(struct sf_users_ctx *c, const char *who,
			struct sf_user_rule *r)
{
	unsigned int id;
	int rc;

	if (!strcmp(who, "*")) {
		r->kind = SF_UR_ANY;
		return 0;
	}
	if (strlen(who + (who[0] == '@')) >= sizeof(r->name))
		return sf_users_error(c, "name too long", NULL);
	strcpy(r->name, who + (who[0] == '@'));
	if (who[0] == '@') {
		rc = sf_users_lookup(who + 1, true, &id);
		if (rc == -ENOENT)
			return sf_users_error(c, "unknown group", who + 1);
		if (rc)
			return sf_users_error(c, "group lookup failed",
					      strerror(-rc));
		r->kind = SF_UR_GROUP;
		r->gid = (gid_t)id;
		c->has_groups = true;
		return 0;
	}
	rc = sf_users_lookup(who, false, &id);
	if (rc == -ENOENT)
		return sf_users_error(c, "unknown user", who);
	if (rc)
		return sf_users_error(c, "user lookup failed", strerror(-rc));
	r->kind = SF_UR_USER;
	r->uid = (uid_t)id;
	return 0;
}

static int sf_users_line(struct sf_users_ctx *c, char *s,
			 struct sf_user_rule *r)
{
	char *who, *label, *extra, *save = NULL;
	struct sf_error err = { .file = c->path, .line = c->line };
	char msg[512];
	int rc;

	who = strtok_r(s, " \t", &save);
	label = strtok_r(NULL, " \t", &save);
	extra = strtok_r(NULL, " \t", &save);
	if (!label)
		return sf_users_error(c, "expected \"WHO LABEL\"", NULL);
	if (extra)
		return sf_users_error(c, "trailing text", extra);
	memset(r, 0, sizeof(*r));
	rc = sf_users_who(c, who, r);
	if (rc)
		return rc;
	if (!strcmp(label, "%u")) {
		if (r->kind != SF_UR_ANY)
			return sf_users_error(c, "%u is only valid after *",
					      NULL);
		r->per_user = true;
		return 0;
	}
	if (sf_label_intern(c->labels, label, strlen(label), &r->label,
			    &err)) {
		snprintf(msg, sizeof(msg), "%s:%u: bad label \"%s\": %s",
			 c->path, c->line, label, err.reason);
		c->report(c->arg, msg);
		return -EINVAL;
	}
	return 0;
}

/* Strip surrounding blanks; NULL for a blank or comment line. */
static char *sf_users_trim(char *s)
{
	char *end = s + strlen(s);

	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	while (isspace((unsigned char)*s))
		s++;
	return *s && *s != '#' ? s : NULL;
}

static int sf_users_read_error(struct sf_users_ctx *c, int e)
{
	char msg[512];

	snprintf(msg, sizeof(msg), "%s: %s", c->path, strerror(e));
	c->report(c->arg, msg);
	return -e;
}

/*
 * Only a name that is not there at all may be an empty map: a dangling
 * symlink is a mistake.  Only a regular file is read: a FIFO would block
 * every login (pam_smackfuse) and the mount.
 */
static int sf_users_open(struct sf_users_ctx *c, bool missing_ok, FILE **f)
{
	struct stat st;
	int fd, e;

	*f = NULL;
	fd = open(c->path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		e = errno;
		if (e == ENOENT && missing_ok && lstat(c->path, &st) &&
		    errno == ENOENT)
			return 0;
		return sf_users_read_error(c, e);
	}
	e = fstat(fd, &st) ? errno : S_ISDIR(st.st_mode) ? EISDIR :
	    !S_ISREG(st.st_mode) ? EINVAL : 0;
	if (!e) {
		*f = fdopen(fd, "re");
		e = *f ? 0 : errno;
	}
	if (!e)
		return 0;
	close(fd);
	if (e == EINVAL) {
		char msg[512];

		snprintf(msg, sizeof(msg), "%s: not a regular file", c->path);
		c->report(c->arg, msg);
		return -EINVAL;
	}
	return sf_users_read_error(c, e);
}

int sf_users_parse(struct sf_users *u, struct sf_labels *labels,
		   const char *path, bool missing_ok, sf_users_report report,
		   void *arg)
{
	struct sf_users_ctx c = { .path = path, .labels = labels,
				  .report = report, .arg = arg };
	struct sf_user_rule *rules = NULL, *nr;
	char *buf = NULL, *s;
	size_t cap = 0, n = 0;
	FILE *f;
	int rc;

	rc = sf_users_open(&c, missing_ok, &f);
	if (rc || !f)
		return rc;
	errno = 0;
	while (getline(&buf, &cap, f) > 0) {
		c.line++;
		s = sf_users_trim(buf);
		if (!s)
			continue;
		nr = realloc(rules, (n + 1) * sizeof(*rules));
		if (!nr) {
			rc = -ENOMEM;
			break;
		}
		rules = nr;
		rc = sf_users_line(&c, s, &rules[n]);
		if (rc)
			break;
		n++;
	}
	/* A read error is no end of file: a map cut short labels wrongly. */
	if (!rc && ferror(f))
		rc = sf_users_read_error(&c, errno ? errno : EIO);
	free(buf);
	fclose(f);
	if (rc) {
		free(rules);
		return rc;
	}
	u->rules = rules;
	u->n = n;
	u->has_groups = c.has_groups;
	return 0;
}

void sf_users_free(struct sf_users *u)
{
	free(u->rules);
	u->rules = NULL;
	u->n = 0;
	u->has_groups = false;
}

sf_lid sf_users_sole_label(const struct sf_users *u)
{
	sf_lid sole;
	bool any = false;
	size_t i;

	for (i = 0; i < u->n; i++) {
		if (u->rules[i].per_user)
			return SF_LID_INVALID;
		any |= u->rules[i].kind == SF_UR_ANY;
	}
	/* Without a "*" line some uids fall through to the floor. */
	sole = any ? u->rules[0].label : SF_LID_FLOOR;
	for (i = 0; i < u->n; i++)
		if (u->rules[i].label != sole)
			return SF_LID_INVALID;
	return sole;
}

int sf_users_resolve(const struct sf_users *u, struct sf_user_rule *out)
{
	unsigned int id;
	size_t i;
	int rc;

	for (i = 0; i < u->n; i++) {
		out[i] = u->rules[i];
		if (out[i].kind == SF_UR_ANY)
			continue;
		rc = sf_users_lookup(out[i].name, out[i].kind == SF_UR_GROUP,
				     &id);
		if (rc == -ENOENT) {
			out[i].gone = true;
			continue;
		}
		if (rc)
			return rc;
		out[i].gone = false;
		if (out[i].kind == SF_UR_GROUP)
			out[i].gid = (gid_t)id;
		else
			out[i].uid = (uid_t)id;
	}
	return 0;
}

const struct sf_user_rule *sf_users_match(const struct sf_users *u,
					  uid_t uid,
					  bool (*in_group)(void *arg, gid_t gid),
					  void *arg)
{
	size_t i;

	for (i = 0; i < u->n; i++)
		if (u->rules[i].kind == SF_UR_USER && !u->rules[i].gone &&
		    u->rules[i].uid == uid)
			return &u->rules[i];
	for (i = 0; u->has_groups && i < u->n; i++)
		if (u->rules[i].kind == SF_UR_GROUP && !u->rules[i].gone &&
		    in_group(arg, u->rules[i].gid))
			return &u->rules[i];
	for (i = 0; i < u->n; i++)
		if (u->rules[i].kind == SF_UR_ANY)
			return &u->rules[i];
	return NULL;
}

int sf_user_groups_get(const char *name, gid_t gid,
		       struct sf_user_groups *g)
{
	int cap = 64;

	for (;;) {
		gid_t *gids = malloc(sizeof(*gids) * (size_t)cap);
		int want = cap;

		if (!gids)
			return -ENOMEM;
		if (getgrouplist(name, gid, gids, &want) >= 0) {
			g->gids = gids;
			g->n = want;
			return 0;
		}
		free(gids);
		if (want <= cap)	/* glibc always says how many */
			return -EIO;
		cap = want;
	}
}

bool sf_user_groups_has(void *arg, gid_t gid)
{
	const struct sf_user_groups *g = arg;
	int i;

	for (i = 0; i < g->n; i++)
		if (g->gids[i] == gid)
			return true;
	return false;
}
