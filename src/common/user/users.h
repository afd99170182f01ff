/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * users.h - the users map (/etc/smackfuse/users): which label a user gets.
 *
 * One parser for the daemon (-o subject=users) and the PAM session module
 * (src/pam), so that a user's files and a user's login get the same label.
 * Lines are "user LABEL", "@group LABEL", "* LABEL" or "* %u" (the user's
 * own name); '#' starts a comment.  The first matching line wins, users
 * before groups before "*"; no match is the floor "_".
 */
#ifndef SMACKFUSE_USERS_H
#define SMACKFUSE_USERS_H

#include <stdbool.h>
#include <sys/types.h>

#include "smack.h"

/* The PAM module's default map: the daemon's (main.c), under the policy
 * directory $(sysconfdir)/smackfuse when the build says where that is. */
#ifdef SF_SYSCONFDIR
#define SF_USERS_DEFAULT SF_SYSCONFDIR "/smackfuse/users"
#else
#define SF_USERS_DEFAULT "/etc/smackfuse/users"
#endif

/* Longest user or group name a line may give (LOGIN_NAME_MAX). */
#define SF_USERS_NAME_MAX 256

/* The buffer a reentrant password or group lookup (getpwnam_r() and
 * kin) is first given, and the largest it grows to on ERANGE. */
#define SF_NSS_BUF_MIN	1024
#define SF_NSS_BUF_MAX	(1u << 20)

/* One line of the users map. */
struct sf_user_rule {
	enum { SF_UR_USER, SF_UR_GROUP, SF_UR_ANY } kind;
	uid_t uid;			/* SF_UR_USER */
	gid_t gid;			/* SF_UR_GROUP */
	bool per_user;			/* "%u": the user's name */
	bool gone;			/* the name no longer exists: no match */
	sf_lid label;
	/* The user or group as the line names it (without '@'), so that it
	 * can be looked up again when the accounts change. */
	char name[SF_USERS_NAME_MAX];
};

/* A parsed map: @rules in file order, one allocation. */
struct sf_users {
	struct sf_user_rule *rules;
	size_t n;
	bool has_groups;
};

/* Where the parser's messages ("FILE:LINE: reason") go. */
typedef void (*sf_users_report)(void *arg, const char *msg);

/*
 * sf_users_parse - read the map at @path into @u, labels interned into
 * @labels.  All or nothing: on error @u is left as it was.  A missing
 * file is an empty map when @missing_ok, an error otherwise.  Returns 0 or
 * a negative errno after one message through @report.
 */
int sf_users_parse(struct sf_users *u, struct sf_labels *labels,
		   const char *path, bool missing_ok, sf_users_report report,
		   void *arg);
void sf_users_free(struct sf_users *u);

/*
 * sf_users_sole_label - the one label the map gives every uid, or
 * SF_LID_INVALID when uids may get different labels (two labels, or
 * "* %u").  A uid no line names gets the floor unless a "*" line says.
 */
sf_lid sf_users_sole_label(const struct sf_users *u);

/*
 * sf_users_resolve - @u's lines into @out (u->n of them) with their user
 * and group names looked up now, as the parser did at load: a line whose
 * name no longer exists is marked gone and matches nobody.  Returns 0, or
 * a negative errno when a lookup failed (the name service is down): then
 * @out is not to be used.
 */
int sf_users_resolve(const struct sf_users *u, struct sf_user_rule *out);

/*
 * sf_users_match - the line that labels @uid: its user line, else the
 * first @group line whose group @in_group(@arg, gid) says @uid is in,
 * else the first "*" line.  NULL when none: the floor.
 */
const struct sf_user_rule *sf_users_match(const struct sf_users *u,
					  uid_t uid,
					  bool (*in_group)(void *arg, gid_t gid),
					  void *arg);

/*
 * The groups an account's session gets (initgroups(3)): its primary and
 * the group database's others, for sf_users_match()'s @in_group, which
 * sf_user_groups_has() is over them.  The daemon and the PAM module must
 * put a user in the same groups, so both take them from here.
 */
struct sf_user_groups {
	gid_t *gids;			/* the caller frees it */
	int n;
};

/* Returns 0, -ENOMEM, or -EIO (the group database would not say). */
int sf_user_groups_get(const char *name, gid_t gid,
		       struct sf_user_groups *g);
bool sf_user_groups_has(void *arg, gid_t gid);

#endif /* SMACKFUSE_USERS_H */
