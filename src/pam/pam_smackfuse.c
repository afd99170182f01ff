// SPDX-License-Identifier: GPL-2.0-only
/*
 * pam_smackfuse.c - login labels: a PAM session module that gives the
 * process opening the session the label the users map gives the user.
 *
 * The label is written to smackfuse.ko's "current" file, which labels the
 * writing task; the session's shell is forked and exec'd by that task
 * afterwards and inherits the label (smackfuse.ko's task_alloc hook).  The
 * map is read with the daemon's parser (src/common/user/users.c), so a
 * user's files and a user's processes get the same label.
 *
 * Fail closed: a map that cannot be read or parsed, a user that cannot be
 * resolved, or a label the module refuses ends the session with
 * PAM_SESSION_ERR and one syslog line; "nofail" lets a session through
 * when the map is the problem (its label is then left as it was).
 * Without the module loaded there is nothing to label: PAM_IGNORE.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#define PAM_SM_SESSION
#include <security/pam_ext.h>
#include <security/pam_modules.h>

#include "kmod_abi.h"
#include "users.h"

struct sf_pam_opts {
	const char *map;	/* map=PATH */
	const char *kmod;	/* kmod=DIR: the module's securityfs directory */
	bool debug;
	bool nofail;		/* a bad map lets the session through */
};

/* A process that opens many sessions (a display manager) says it once;
 * the module is linked -z nodelete, so this outlives pam_end(). */
static bool sf_pam_absent_logged;

static int sf_pam_args(pam_handle_t *pamh, int argc, const char **argv,
		       struct sf_pam_opts *o)
{
	int i;

	o->map = SF_USERS_DEFAULT;
	o->kmod = SF_KMOD_DIR;
	o->debug = false;
	o->nofail = false;
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "map=", 4) && argv[i][4]) {
			o->map = argv[i] + 4;
		} else if (!strncmp(argv[i], "kmod=", 5) && argv[i][5]) {
			o->kmod = argv[i] + 5;
		} else if (!strcmp(argv[i], "debug")) {
			o->debug = true;
		} else if (!strcmp(argv[i], "nofail")) {
			o->nofail = true;
		} else {
			/* A misspelt "nofail" or "map=" must not pass. */
			pam_syslog(pamh, LOG_ERR, "unknown option \"%s\"",
				   argv[i]);
			return -EINVAL;
		}
	}
	return 0;
}

static void sf_pam_report(void *arg, const char *msg)
{
	pam_syslog(arg, LOG_ERR, "%s", msg);
}

/*
 * The label the map gives @pw, in @out: its line's label, the user's own
 * name for "* %u" (the floor when the name is no label, as the daemon
 * does), the floor when no line matches.  Returns 0 or a negative errno.
 */
static int sf_pam_label(struct sf_labels *labels, const struct sf_users *u,
			const struct passwd *pw, char *out, size_t size)
{
	const struct sf_user_rule *r;
	struct sf_user_groups g = { NULL, 0 };
	sf_lid lid = SF_LID_FLOOR;
	const char *name;
	int rc;

	rc = sf_user_groups_get(pw->pw_name, pw->pw_gid, &g);
	if (rc)
		return rc;
	r = sf_users_match(u, pw->pw_uid, sf_user_groups_has, &g);
	free(g.gids);
	if (r && r->per_user) {
		if (sf_label_intern(labels, pw->pw_name, strlen(pw->pw_name),
				    &lid, NULL))
			lid = SF_LID_FLOOR;
	} else if (r) {
		lid = r->label;
	}
	name = sf_label_name(labels, lid);
	if (!name || strlen(name) >= size)
		return -EINVAL;
	strcpy(out, name);
	return 0;
}

/*
 * Label the calling task with @label through @dir/current, then read it
 * back: the write is what the session inherits, so it must have taken.
 */
static int sf_pam_set_current(const char *dir, const char *label)
{
	char path[4096], back[SF_KMOD_LABEL_LINE_MAX + 1];
	size_t len = strlen(label);
	ssize_t n;
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s/" SF_KMOD_CURRENT,
			     dir) >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, label, len);
	if (n < 0 || (size_t)n != len) {
		int e = n < 0 ? errno : EIO;

		close(fd);
		return -e;
	}
	if (close(fd))
		return -errno;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, back, sizeof(back) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	while (n > 0 && back[n - 1] == '\n')
		n--;
	if ((size_t)n != len || memcmp(back, label, len))
		return -EIO;
	return 0;
}

/* The user PAM opens the session for, from the password database. */
static int sf_pam_user(pam_handle_t *pamh, struct passwd *pw, char *buf,
		       size_t size)
{
	struct passwd *res = NULL;
	const char *user = NULL;

	if (pam_get_user(pamh, &user, NULL) != PAM_SUCCESS || !user ||
	    !*user) {
		pam_syslog(pamh, LOG_ERR, "no user name");
		return -EINVAL;
	}
	if (getpwnam_r(user, pw, buf, size, &res) || !res) {
		pam_syslog(pamh, LOG_ERR, "user \"%s\" unknown", user);
		return -ENOENT;
	}
	return 0;
}

static int sf_pam_open(pam_handle_t *pamh, const struct sf_pam_opts *o,
		       struct sf_labels *labels)
{
	struct sf_users map = { NULL, 0, false };
	char pwbuf[4096], label[SF_LABEL_MAX + 1];
	struct passwd pw;
	int rc;

	if (sf_pam_user(pamh, &pw, pwbuf, sizeof(pwbuf)))
		return PAM_SESSION_ERR;
	rc = sf_users_parse(&map, labels, o->map, false, sf_pam_report, pamh);
	if (rc) {
		pam_syslog(pamh, LOG_ERR, "users map %s unusable: %s "
			   "session for %s", o->map,
			   o->nofail ? "nofail: unlabelled" : "refusing the",
			   pw.pw_name);
		return o->nofail ? PAM_IGNORE : PAM_SESSION_ERR;
	}
	rc = sf_pam_label(labels, &map, &pw, label, sizeof(label));
	sf_users_free(&map);
	if (rc) {
		pam_syslog(pamh, LOG_ERR, "no label for %s: %s", pw.pw_name,
			   strerror(-rc));
		return PAM_SESSION_ERR;
	}
	if (access(o->kmod, F_OK)) {
		if (o->debug || !sf_pam_absent_logged)
			pam_syslog(pamh, LOG_NOTICE, "%s: smackfuse.ko not "
				   "loaded, sessions are not labelled",
				   o->kmod);
		sf_pam_absent_logged = true;
		return PAM_IGNORE;
	}
	rc = sf_pam_set_current(o->kmod, label);
	if (rc) {
		pam_syslog(pamh, LOG_ERR, "cannot label the session of %s "
			   "\"%s\": %s/" SF_KMOD_CURRENT ": %s", pw.pw_name,
			   label, o->kmod, strerror(-rc));
		return PAM_SESSION_ERR;
	}
	if (o->debug)
		pam_syslog(pamh, LOG_DEBUG, "session of %s (uid %u) labelled "
			   "\"%s\"", pw.pw_name, (unsigned int)pw.pw_uid,
			   label);
	return PAM_SUCCESS;
}

PAM_EXTERN int pam_sm_open_session(pam_handle_t *pamh, int flags, int argc,
				   const char **argv)
{
	struct sf_pam_opts o;
	struct sf_labels *labels;
	int rc;

	(void)flags;
	if (sf_pam_args(pamh, argc, argv, &o))
		return PAM_SESSION_ERR;
	labels = sf_labels_new();
	if (!labels) {
		pam_syslog(pamh, LOG_CRIT, "out of memory");
		return PAM_BUF_ERR;
	}
	rc = sf_pam_open(pamh, &o, labels);
	sf_labels_free(labels);
	return rc;
}

/* The label leaves with the session's processes: nothing to undo. */
PAM_EXTERN int pam_sm_close_session(pam_handle_t *pamh, int flags, int argc,
				    const char **argv)
{
	(void)pamh;
	(void)flags;
	(void)argc;
	(void)argv;
	return PAM_SUCCESS;
}
