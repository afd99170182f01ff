// SPDX-License-Identifier: GPL-2.0-only
/*
 * ctl_policy.c - smackfusectl load, apply, rules, access, status, cipso.
 *
 * Rule files are checked here first, with the access core's own parser,
 * so a bad line is reported as file:line:column: reason and nothing is
 * sent.  The text then goes to each mount in one write to the control
 * directory's "load-rules" (or "replace-rules" to clear first), which the
 * daemon applies at close as one batch: all of it or none of it.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "smack.h"
#include "cipso.h"
#include "ctl.h"
#include "policy_dir.h"

static void ctl_report(void *arg, const char *msg)
{
	(void)arg;
	ctl_err("%s", msg);
}

/* Call @fn on @path, or on each file of directory @path (policy_dir.h
 * says which), in name order.  A directory that cannot be listed whole
 * is an error before @fn runs once. */
static int ctl_each_file(const char *path,
			 int (*fn)(const char *file, void *arg), void *arg)
{
	struct sf_file_list l;
	struct stat st;
	size_t i;
	int rc;

	if (strcmp(path, "-") == 0 || stat(path, &st) != 0 ||
	    !S_ISDIR(st.st_mode))
		return fn(path, arg);
	rc = sf_policy_dir_list(path, &l, ctl_report, NULL);
	for (i = 0; rc == 0 && i < l.n; i++)
		rc = fn(l.paths[i], arg);
	sf_file_list_free(&l);
	return rc;
}

/* ---- rule files ---- */

struct ctl_rules {
	struct sf_labels *labels;
	struct ctl_text text;
	unsigned int files;
};

static int ctl_add_rule_file(const char *file, void *arg)
{
	struct ctl_rules *r = arg;
	struct ctl_text one = { 0 };
	struct sf_error err = { .file = file };
	struct sf_batch b;
	char msg[256];
	int rc;

	rc = ctl_text_read(&one, file);
	if (rc < 0) {
		ctl_err("%s: %s", file, strerror(-rc));
		goto out;
	}
	sf_batch_init(&b);
	rc = sf_parse_rule_file(r->labels, one.data ? one.data : "", one.len,
				&b, &err);
	sf_batch_release(&b);
	if (rc < 0) {
		sf_error_format(&err, msg, sizeof(msg));
		ctl_err("%s", msg);
		goto out;
	}
	rc = ctl_text_add(&r->text, one.data ? one.data : "", one.len);
	if (rc == 0 && one.len && one.data[one.len - 1] != '\n')
		rc = ctl_text_add(&r->text, "\n", 1);
	r->files++;
out:
	ctl_text_free(&one);
	return rc;
}

static int ctl_send_rules(const struct ctl_targets *t, const char *file,
			  const struct ctl_text *text, const char *done)
{
	int rc, bad = 0;
	size_t i;

	for (i = 0; i < t->n; i++) {
		rc = ctl_write_file(t->dirs[i], file,
				    text->data ? text->data : "\n",
				    text->len ? text->len : 1);
		if (rc < 0) {
			ctl_say_write_error("mount", t->dirs[i], file, rc);
			bad = 1;
		} else if (done) {
			printf("mount %s: %s\n", t->dirs[i], done);
		}
	}
	return bad;
}

/* The policy's roots: the smackfuse directory, and smack-utils' unless
 * an explicit smackfuse directory stands alone (ctl.h).  An explicit
 * root must exist.  Returns how many roots, or a negative errno. */
static int ctl_policy_roots(const struct ctl_opts *o, const char *roots[2])
{
	int rc, n = 0;

	rc = sf_dir_check(&o->etc, ctl_report, NULL);
	if (rc == 0 && o->smack_etc.path)
		rc = sf_dir_check(&o->smack_etc, ctl_report, NULL);
	if (rc)
		return rc;
	roots[n++] = o->etc.path;
	if (o->smack_etc.path)
		roots[n++] = o->smack_etc.path;
	return n;
}

/* ROOT/accesses.d (or whatever @sub is) of each root that has one, into
 * @paths.  Returns how many, or a negative errno after saying why (one
 * that is there but is no directory, or cannot be looked at). */
static int ctl_policy_dirs(const struct ctl_opts *o, const char *sub,
			   char paths[2][PATH_MAX])
{
	const char *roots[2];
	int n = 0, nroots, i, rc;

	nroots = ctl_policy_roots(o, roots);
	if (nroots < 0)
		return nroots;
	for (i = 0; i < nroots; i++) {
		rc = sf_policy_subdir(roots[i], sub, paths[n], PATH_MAX,
				      ctl_report, NULL);
		if (rc < 0)
			return rc;
		n += rc;
	}
	return n;
}

static int ctl_collect_default(const struct ctl_opts *o, struct ctl_rules *r)
{
	char paths[2][PATH_MAX];
	int n = ctl_policy_dirs(o, "accesses.d", paths), i, rc = 0;

	if (n < 0)
		return n;
	for (i = 0; i < n && rc == 0; i++)
		rc = ctl_each_file(paths[i], ctl_add_rule_file, r);
	return rc;
}

int ctl_cmd_load(const struct ctl_opts *o, int argc, char **argv)
{
	struct ctl_rules r = { 0 };
	struct ctl_targets t = { 0 };
	bool clear = false, kmod;
	int c, rc = 1, i;

	while ((c = getopt(argc, argv, "+ch")) != -1) {
		switch (c) {
		case 'c': clear = true; break;
		case 'h': puts("usage: smackfusectl load [-c] [FILE|DIR|-]...");
			return 0;
		default: return 2;
		}
	}
	r.labels = sf_labels_new();
	if (!r.labels)
		return 1;
	if (optind == argc) {
		if (ctl_collect_default(o, &r))
			goto out;
	}
	for (i = optind; i < argc; i++) {
		if (ctl_each_file(argv[i], ctl_add_rule_file, &r))
			goto out;
	}
	if (ctl_policy_targets(o, CTL_T_MOUNTS | CTL_T_KMOD, &t, &kmod))
		goto out;
	rc = ctl_send_rules(&t, clear ? "replace-rules" : "load-rules",
			    &r.text, clear ? "rules replaced" : "rules loaded");
	if (kmod)
		rc |= ctl_kmod_apply(o, &r.text, clear, NULL);
out:
	ctl_targets_free(&t);
	ctl_text_free(&r.text);
	sf_labels_free(r.labels);
	return rc;
}

/* ---- cipso.d: "label level [category...]" lines ---- */

struct ctl_cipso {
	struct ctl_text lines;	/* cipso2 records, one per line */
};

/* smackcipso's line to smackfs's cipso2 record (4-byte number fields). */
static int ctl_add_cipso_file(const char *file, void *arg)
{
	struct ctl_cipso *cs = arg;
	struct ctl_text in = { 0 };
	char *line, *save = NULL, *tok, *save2, rec[2048];
	unsigned int lineno = 0;
	int rc;

	rc = ctl_text_read(&in, file);
	if (rc < 0) {
		ctl_err("%s: %s", file, strerror(-rc));
		return rc;
	}
	for (line = strtok_r(in.data ? in.data : (char *)"", "\n", &save);
	     line; line = strtok_r(NULL, "\n", &save)) {
		long v, cats[256];
		int ncat = 0, len, k;
		char *label, *end;

		lineno++;
		if (strchr(line, '#'))
			*strchr(line, '#') = '\0';
		label = strtok_r(line, " \t\r", &save2);
		if (!label)
			continue;
		if (sf_label_valid(label, strlen(label), NULL)) {
			ctl_err("%s:%u: invalid label \"%s\"", file, lineno,
				label);
			rc = -EINVAL;
			break;
		}
		tok = strtok_r(NULL, " \t\r", &save2);
		v = tok ? strtol(tok, &end, 10) : -1;
		if (!tok || *end || v < 0 || v > SF_CIPSO_MAXLEVEL) {
			ctl_err("%s:%u: want \"label level [category...]\" "
				"with level 0..%d", file, lineno,
				SF_CIPSO_MAXLEVEL);
			rc = -EINVAL;
			break;
		}
		while ((tok = strtok_r(NULL, " \t\r", &save2))) {
			cats[ncat] = strtol(tok, &end, 10);
			if (*end || cats[ncat] < 1 ||
			    cats[ncat] > SF_CIPSO_MAXCAT ||
			    ncat >= SF_CIPSO_MAXCAT) {
				ctl_err("%s:%u: bad category \"%s\" (1..%d)",
					file, lineno, tok, SF_CIPSO_MAXCAT);
				rc = -EINVAL;
				break;
			}
			ncat++;
		}
		if (rc)
			break;
		len = snprintf(rec, sizeof(rec), "%s %-4ld%-4d", label, v,
			       ncat);
		for (k = 0; k < ncat && len < (int)sizeof(rec) - 8; k++)
			len += snprintf(rec + len, sizeof(rec) - len, "%-4ld",
					cats[k]);
		rc = ctl_text_add(&cs->lines, rec, (size_t)len);
		if (rc == 0)
			rc = ctl_text_add(&cs->lines, "\n", 1);
		if (rc)
			break;
	}
	ctl_text_free(&in);
	return rc;
}

/* cipso2 takes one record per write. */
static int ctl_send_cipso(const struct ctl_targets *t,
			  const struct ctl_text *lines)
{
	char *copy, *line, *save = NULL;
	size_t i, n;
	int rc, bad = 0;

	for (i = 0; i < t->n && lines->len; i++) {
		copy = strdup(lines->data);
		if (!copy)
			return 1;
		n = 0;
		for (line = strtok_r(copy, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			rc = ctl_write_file(t->dirs[i], "cipso2", line,
					    strlen(line));
			if (rc < 0) {
				ctl_say_write_error("mount", t->dirs[i],
						    "cipso2", rc);
				if (n)
					ctl_err("mount %s: the first %zu "
						"CIPSO mapping(s) were loaded",
						t->dirs[i], n);
				bad = 1;
				break;
			}
			n++;
		}
		if (!bad)
			printf("mount %s: %zu CIPSO mapping(s) loaded\n",
			       t->dirs[i], n);
		free(copy);
	}
	return bad;
}

static int ctl_show_all(const struct ctl_targets *t, const char *name,
			bool nul_ok)
{
	struct ctl_text out = { 0 };
	size_t i;
	int rc, bad = 0;

	for (i = 0; i < t->n; i++) {
		out.len = 0;
		rc = ctl_read_file(t->dirs[i], name, &out);
		if (rc < 0) {
			ctl_err("%s/%s: %s", t->dirs[i], name, strerror(-rc));
			bad = 1;
			continue;
		}
		if (t->n > 1)
			printf("%s# %s\n", i ? "\n" : "", t->dirs[i]);
		if (nul_ok && out.len && out.data[out.len - 1] == '\0')
			out.len--;
		fwrite(out.data ? out.data : "", 1, out.len, stdout);
	}
	ctl_text_free(&out);
	return bad;
}

int ctl_cmd_cipso(const struct ctl_opts *o, int argc, char **argv)
{
	struct ctl_cipso cs = { { 0 } };
	struct ctl_targets t = { 0 };
	int i, rc = 1;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		puts("usage: smackfusectl cipso [FILE|DIR|-]...");
		return 0;
	}
	for (i = 1; i < argc; i++) {
		if (ctl_each_file(argv[i], ctl_add_cipso_file, &cs))
			goto out;
	}
	if (argc == 1) {
		rc = ctl_targets_find(o, &t) ? 1 :
		     ctl_show_all(&t, "cipso2", false);
		goto out;
	}
	if (!ctl_want(o, CTL_T_MOUNTS)) {
		rc = 0;
	} else {
		if (ctl_targets_find(o, &t))
			goto out;
		rc = ctl_send_cipso(&t, &cs.lines);
	}
	if (cs.lines.len && ctl_want(o, CTL_T_NETLABEL))
		rc |= ctl_netlabel_apply(o);
out:
	ctl_targets_free(&t);
	ctl_text_free(&cs.lines);
	return rc;
}

/* ---- apply ---- */

/*
 * The first ROOT/onlycap there is, in @path: 1, 0 if no root has one, or
 * a negative errno after saying why.  Only "no such file" is absence: a
 * file that cannot be looked at, or is no regular file (a FIFO would
 * block, a dangling symlink is a mistake), must not clear onlycap.
 */
static int ctl_find_onlycap(const struct ctl_opts *o, char *path,
			    const char **from)
{
	const char *roots[2];
	struct stat st;
	int nroots, i;

	nroots = ctl_policy_roots(o, roots);
	if (nroots < 0)
		return nroots;
	for (i = 0; i < nroots; i++) {
		if (snprintf(path, PATH_MAX, "%s/onlycap", roots[i]) >=
		    PATH_MAX) {
			ctl_err("%s/onlycap: path too long", roots[i]);
			return -ENAMETOOLONG;
		}
		if (lstat(path, &st) && errno == ENOENT)
			continue;
		*from = roots[i];
		if (stat(path, &st)) {
			ctl_err("%s: %s", path, strerror(errno));
			return -errno;
		}
		if (!S_ISREG(st.st_mode)) {
			ctl_err("%s: not a regular file", path);
			return -EINVAL;
		}
		return 1;
	}
	return 0;
}

/* onlycap file: labels separated by blanks or lines, '#' comments. */
static int ctl_read_onlycap(const struct ctl_opts *o, struct ctl_text *out,
			    const char **from)
{
	char path[PATH_MAX], *p, *tok, *save = NULL;
	struct ctl_text in = { 0 };
	int rc;

	*from = NULL;
	rc = ctl_find_onlycap(o, path, from);
	if (rc <= 0)
		return rc;
	rc = ctl_text_read(&in, path);
	if (rc < 0) {
		ctl_err("%s: %s", path, strerror(-rc));
		return rc;
	}
	for (p = in.data ? strchr(in.data, '#') : NULL; p; p = strchr(p, '#')) {
		while (*p && *p != '\n')
			*p++ = ' ';
	}
	for (tok = strtok_r(in.data ? in.data : (char *)"", " \t\r\n", &save);
	     tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
		if (sf_label_valid(tok, strlen(tok), NULL)) {
			ctl_err("%s: invalid label \"%s\"", path, tok);
			rc = -EINVAL;
			break;
		}
		if (out->len)
			ctl_text_add(out, " ", 1);
		ctl_text_add(out, tok, strlen(tok));
	}
	ctl_text_free(&in);
	return rc;
}

/* One mount: rules, then CIPSO mappings, then onlycap; stops at the
 * first failure and says what was done. */
static int ctl_apply_mount(const char *dir, const struct ctl_rules *r,
			   const struct ctl_cipso *cs, const char *onlycap)
{
	struct ctl_targets one = { .dirs = (char **)&dir, .n = 1 };
	size_t n = strlen(onlycap);
	int rc;

	if (ctl_send_rules(&one, "replace-rules", &r->text, NULL))
		return 1;
	printf("mount %s: rules replaced (%u rule file(s))\n", dir, r->files);
	if (ctl_send_cipso(&one, &cs->lines)) {
		ctl_err("mount %s: the rules above were applied; onlycap "
			"was not", dir);
		return 1;
	}
	/* onlycap last: it may narrow who can make the writes above. */
	rc = ctl_write_file(dir, "onlycap", n ? onlycap : "-", n ? n : 1);
	if (rc < 0) {
		ctl_say_write_error("mount", dir, "onlycap", rc);
		ctl_err("mount %s: the rules and CIPSO mappings above were "
			"applied; onlycap was not", dir);
		return 1;
	}
	printf("mount %s: onlycap %s%s%s\n", dir, n ? "\"" : "cleared",
	       onlycap, n ? "\"" : "");
	return 0;
}

int ctl_cmd_apply(const struct ctl_opts *o, int argc, char **argv)
{
	struct ctl_rules r = { 0 };
	struct ctl_cipso cs = { { 0 } };
	struct ctl_text onlycap = { 0 };
	struct ctl_targets t = { 0 };
	char paths[2][PATH_MAX];
	const char *ocfrom;
	size_t i;
	int rc = 1, bad = 0, n, k;
	bool kmod;

	(void)argv;
	if (argc > 1) {
		ctl_err("apply takes no arguments (it reads %s%s%s)",
			o->etc.path, o->smack_etc.path ? " and " : "",
			o->smack_etc.path ? o->smack_etc.path : "");
		return 2;
	}
	if (o->verbose)
		printf("policy directory %s (%s)%s%s\n", o->etc.path,
		       o->etc.from, o->smack_etc.path ? ", and " : "",
		       o->smack_etc.path ? o->smack_etc.path : "");
	r.labels = sf_labels_new();
	if (!r.labels)
		return 1;
	if (ctl_collect_default(o, &r))
		goto out;
	n = ctl_policy_dirs(o, "cipso.d", paths);
	if (n < 0)
		goto out;
	for (k = 0; k < n; k++) {
		if (ctl_each_file(paths[k], ctl_add_cipso_file, &cs))
			goto out;
	}
	if (ctl_read_onlycap(o, &onlycap, &ocfrom))
		goto out;
	if (ctl_text_add(&onlycap, "", 0))
		goto out;
	if (ctl_policy_targets(o, CTL_T_MOUNTS | CTL_T_KMOD | CTL_T_NETLABEL,
			       &t, &kmod))
		goto out;
	if (r.files == 0)
		ctl_err("note: no rule files in %s/accesses.d%s%s%s: every "
			"rule is cleared", o->etc.path,
			o->smack_etc.path ? " or " : "",
			o->smack_etc.path ? o->smack_etc.path : "",
			o->smack_etc.path ? "/accesses.d" : "");
	if (o->verbose && ocfrom)
		printf("onlycap from %s/onlycap\n", ocfrom);
	/* Each target whole, in turn; one failing does not stop the next. */
	for (i = 0; i < t.n; i++)
		bad |= ctl_apply_mount(t.dirs[i], &r, &cs, onlycap.data);
	if (kmod)
		bad |= ctl_kmod_apply(o, &r.text, true, onlycap.data);
	if (cs.lines.len && ctl_want(o, CTL_T_NETLABEL))
		bad |= ctl_netlabel_apply(o);
	else if (o->targets & CTL_T_NETLABEL)
		printf("netlabel: no CIPSO mappings in cipso.d: nothing to "
		       "do\n");
	if (bad)
		ctl_err("apply: some targets failed (see above)");
	rc = bad;
out:
	ctl_targets_free(&t);
	ctl_text_free(&r.text);
	ctl_text_free(&cs.lines);
	ctl_text_free(&onlycap);
	sf_labels_free(r.labels);
	return rc;
}

/* ---- rules, status ---- */

/* A command without arguments: control file @file of every target. */
static int ctl_show_cmd(const struct ctl_opts *o, int argc, const char *cmd,
			const char *file)
{
	struct ctl_targets t = { 0 };
	int rc;

	if (argc > 1) {
		ctl_err("%s takes no arguments", cmd);
		return 2;
	}
	if (ctl_targets_find(o, &t))
		return 1;
	rc = ctl_show_all(&t, file, false);
	ctl_targets_free(&t);
	return rc;
}

int ctl_cmd_rules(const struct ctl_opts *o, int argc, char **argv)
{
	(void)argv;
	return ctl_show_cmd(o, argc, "rules", "load2");
}

int ctl_cmd_status(const struct ctl_opts *o, int argc, char **argv)
{
	(void)argv;
	return ctl_show_cmd(o, argc, "status", "status");
}

/* ---- access ---- */

/* One transaction on access2: write the query, read "1" or "0". */
static int ctl_ask(const char *dir, const char *query, char *answer)
{
	char path[PATH_MAX], buf[4];
	ssize_t n;
	int fd, rc = 0;

	if (snprintf(path, sizeof(path), "%s/access2", dir) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, query, strlen(query)) < 0)
		rc = -errno;
	else if ((n = pread(fd, buf, sizeof(buf), 0)) < 1)
		rc = n < 0 ? -errno : -EIO;
	else
		*answer = buf[0];
	close(fd);
	return rc;
}

int ctl_cmd_access(const struct ctl_opts *o, int argc, char **argv)
{
	struct ctl_targets t = { 0 };
	char query[3 * (SF_LABEL_MAX + 1) + 16], answer = '0';
	u32 bits;
	size_t i;
	int rc, all = 1, bad = 0;

	if (argc != 4) {
		ctl_err("usage: smackfusectl access SUBJECT OBJECT ACCESS");
		return 2;
	}
	for (i = 1; i < 3; i++) {
		if (sf_label_valid(argv[i], strlen(argv[i]), NULL)) {
			ctl_err("\"%s\" is not a valid Smack label", argv[i]);
			return 2;
		}
	}
	if (sf_access_parse(argv[3], strlen(argv[3]), &bits, NULL)) {
		ctl_err("\"%s\" is not an access string (letters rwxatlb, "
			"or -)", argv[3]);
		return 2;
	}
	snprintf(query, sizeof(query), "%s %s %s", argv[1], argv[2], argv[3]);
	if (ctl_targets_find(o, &t))
		return 1;
	for (i = 0; i < t.n; i++) {
		rc = ctl_ask(t.dirs[i], query, &answer);
		if (rc < 0) {
			ctl_err("%s/access2: %s", t.dirs[i], strerror(-rc));
			bad = 1;
			continue;
		}
		if (t.n > 1)
			printf("%s: %c\n", t.dirs[i], answer);
		else
			printf("%c\n", answer);
		if (answer != '1')
			all = 0;
	}
	ctl_targets_free(&t);
	return bad ? 2 : all ? 0 : 1;
}
