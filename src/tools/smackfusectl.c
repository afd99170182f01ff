// SPDX-License-Identifier: GPL-2.0-only
/*
 * smackfusectl - change and query the policy of running smackfuse mounts,
 * and label files, in the spirit of smack-utils (smackload, smackctl,
 * smackaccess, chsmack, smackcipso).
 *
 * Every mount serves smackfs-style files in a control directory; the
 * index (/run/smackfuse, paths.h) lists one entry per mount.  This file
 * holds the command line, the search for mounts, and the small I/O
 * helpers.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "escape.h"
#include "ctl.h"

/* A control directory has CTL_ANSWER_MS to answer a lookup, asked every
 * millisecond; a child that did not is given CTL_REAP_MS more to die. */
#define CTL_ANSWER_MS	2000
#define CTL_REAP_MS	100
/* --wait=SECONDS looks for the mounts this often a second. */
#define CTL_WAIT_PER_SEC	10

static const char usage[] =
"usage: smackfusectl [OPTIONS] COMMAND [ARGS]\n"
"\n"
"Commands:\n"
"  load [-c] [FILE|DIR|-]   load rule files (default: the accesses.d\n"
"                           directories) into every mount and the kernel\n"
"                           module; -c clears all rules first\n"
"  apply                    clear, then load the whole policy (accesses.d,\n"
"                           cipso.d and onlycap of " SF_ETC_DEFAULT "\n"
"                           and /etc/smack) into every mount and the kernel\n"
"                           module, and set NetLabel up for cipso.d\n"
"  rules                    print the rules (load2 format)\n"
"  access SUBJECT OBJECT ACCESS\n"
"                           print 1 if allowed, 0 if not (exit 0 / 1)\n"
"  label [-a L] [-e L] [-m L] [-t] [-d] [-r] [-L] PATH...\n"
"                           show, set or remove Smack labels, like chsmack\n"
"  status                   show each mount's status\n"
"  cipso [FILE|DIR|-]       load CIPSO mappings (mounts, NetLabel);\n"
"                           without FILE, show them\n"
"\n"
"Options:\n"
"  -M, --mount PATH         act on this mount only (its mountpoint or its\n"
"                           control directory); default: every mount\n"
"  -T, --target LIST        load/apply/cipso act on these only: mounts,\n"
"                           kmod, netlabel (comma separated); default:\n"
"                           each one present (only the mount of --mount)\n"
"      --kmod-dir DIR       the module's files (" CTL_KMOD_DIR ")\n"
"      --etc DIR            smackfuse policy directory\n"
"                           (" SF_ETC_DEFAULT "), or $" SF_ETC_ENV "\n"
"      --smack-etc DIR      smack-utils policy directory (/etc/smack;\n"
"                           not read when --etc or $" SF_ETC_ENV " names\n"
"                           the policy, unless given too)\n"
"      --rundir DIR         index of running mounts\n"
"                           (" SF_RUN_DEFAULT "), or $" SF_RUN_ENV "\n"
"      --wait SECONDS       wait that long for the mount(s) to appear\n"
"  -v, --verbose            say what is done\n"
"  -h, --help               this text\n"
"  -V, --version            the version\n"
"\n"
"Exit status: 0 success, 1 failure (or \"access\" denied), 2 bad usage.\n"
"See smackfusectl(8) and smackfuse-policy(5).\n";

void ctl_err(const char *fmt, ...)
{
	va_list ap;

	fputs("smackfusectl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int ctl_text_add(struct ctl_text *t, const char *s, size_t len)
{
	char *p;
	size_t want = t->len + len + 1;

	if (want > t->cap) {
		if (want < 2 * t->cap)
			want = 2 * t->cap;
		p = realloc(t->data, want);
		if (!p)
			return -ENOMEM;
		t->data = p;
		t->cap = want;
	}
	memcpy(t->data + t->len, s, len);
	t->len += len;
	t->data[t->len] = '\0';
	return 0;
}

void ctl_text_free(struct ctl_text *t)
{
	free(t->data);
	memset(t, 0, sizeof(*t));
}

static int ctl_text_fd(struct ctl_text *t, int fd)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (ctl_text_add(t, buf, (size_t)n))
			return -ENOMEM;
	}
	return 0;
}

int ctl_text_read(struct ctl_text *t, const char *path)
{
	int fd, rc;

	if (strcmp(path, "-") == 0)
		return ctl_text_fd(t, STDIN_FILENO);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	rc = ctl_text_fd(t, fd);
	close(fd);
	return rc;
}

int ctl_write_file(const char *dir, const char *name, const char *buf,
		   size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	size_t done = 0;
	int fd, rc = 0;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (done < len) {
		n = write(fd, buf + done, len - done);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			break;
		}
		done += (size_t)n;
	}
	/* Collecting files apply at close: its status is the verdict. */
	if (close(fd) != 0 && rc == 0)
		rc = -errno;
	return rc;
}

int ctl_read_file(const char *dir, const char *name, struct ctl_text *out)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	return ctl_text_read(out, path);
}

/* ---- finding mounts ---- */

/*
 * Is @dir a live control directory?  A daemon that is stopped or hung
 * would block a lookup there for ever, and with it every command that
 * looks at all mounts: so ask from a child, and give it 2 seconds.
 */
static bool ctl_is_control_dir(const char *dir)
{
	char path[PATH_MAX];
	int status, i;
	pid_t pid;

	if (snprintf(path, sizeof(path), "%s/load2", dir) >=
	    (int)sizeof(path))
		return false;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return access(path, F_OK) == 0;
	if (pid == 0)
		_exit(access(path, F_OK) == 0 ? 0 : 1);
	for (i = 0; i < CTL_ANSWER_MS; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) && WEXITSTATUS(status) == 0;
		usleep(1000);
	}
	kill(pid, SIGKILL);	/* FUSE waits are killable */
	for (i = 0; i < CTL_REAP_MS && waitpid(pid, &status, WNOHANG) != pid;
	     i++)
		usleep(1000);
	ctl_err("%s: does not answer (its daemon is stopped or hung); "
		"skipped", dir);
	return false;
}

static int ctl_targets_add(struct ctl_targets *t, const char *dir)
{
	char **grown = realloc(t->dirs, (t->n + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	t->dirs = grown;
	t->dirs[t->n] = strdup(dir);
	if (!t->dirs[t->n])
		return -ENOMEM;
	t->n++;
	return 0;
}

int ctl_getopt(int argc, char **argv, const struct option *lopts)
{
	char shorts[64];
	const struct option *l;
	size_t n = 0;

	shorts[n++] = '+';	/* stop at the command or the first operand */
	for (l = lopts; l->name && n + 3 < sizeof(shorts); l++) {
		if (l->flag || l->val <= 0 || l->val >= CTL_LONG_ONLY)
			continue;
		shorts[n++] = (char)l->val;
		if (l->has_arg == required_argument)
			shorts[n++] = ':';
	}
	shorts[n] = '\0';
	return getopt_long(argc, argv, shorts, lopts, NULL);
}

static int ctl_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int ctl_find_once(const struct ctl_opts *o, struct ctl_targets *t,
			 bool quiet)
{
	char path[PATH_MAX], name[PATH_MAX - 64], *real;
	struct dirent *de;
	DIR *d;

	memset(t, 0, sizeof(*t));
	if (o->mount) {
		if (ctl_is_control_dir(o->mount))
			return ctl_targets_add(t, o->mount);
		real = realpath(o->mount, NULL);
		sf_escape_path(real ? real : o->mount, name, sizeof(name));
		free(real);
		if (snprintf(path, sizeof(path), "%s/%s", o->rundir, name) >=
		    (int)sizeof(path))
			return -ENAMETOOLONG;
		if (ctl_is_control_dir(path))
			return ctl_targets_add(t, path);
		if (!quiet)
			ctl_err("%s: no running smackfuse mount there "
				"(looked for %s)", o->mount, path);
		return -ENOENT;
	}
	d = opendir(o->rundir);
	if (d) {
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			if (snprintf(path, sizeof(path), "%s/%s", o->rundir,
				 de->d_name) >=
			    (int)sizeof(path))
				continue;
			if (!ctl_is_control_dir(path)) {
				if (o->verbose)
					ctl_err("%s: not a live control "
						"directory, skipped", path);
				continue;
			}
			if (ctl_targets_add(t, path)) {
				closedir(d);
				return -ENOMEM;
			}
		}
		closedir(d);
	}
	if (t->n == 0) {
		if (!quiet)
			ctl_err("no running smackfuse mount found in %s",
				o->rundir);
		return -ENOENT;
	}
	qsort(t->dirs, t->n, sizeof(*t->dirs), ctl_name_cmp);
	return 0;
}

static int ctl_find_wait(const struct ctl_opts *o, struct ctl_targets *t,
			 bool quiet)
{
	int tries = o->wait * CTL_WAIT_PER_SEC;

	/* --wait: the unit runs us right after starting the daemon. */
	while (tries-- > 0) {
		if (ctl_find_once(o, t, true) == 0)
			return 0;
		ctl_targets_free(t);
		usleep(1000000 / CTL_WAIT_PER_SEC);
	}
	return ctl_find_once(o, t, quiet);
}

int ctl_targets_find(const struct ctl_opts *o, struct ctl_targets *t)
{
	return ctl_find_wait(o, t, false);
}

bool ctl_want(const struct ctl_opts *o, unsigned int target)
{
	if (o->targets)
		return o->targets & target;
	return o->mount ? target == CTL_T_MOUNTS : true;
}

int ctl_policy_targets(const struct ctl_opts *o, unsigned int allowed,
		       struct ctl_targets *t, bool *kmod)
{
	bool named_mounts = o->mount || (o->targets & CTL_T_MOUNTS);

	memset(t, 0, sizeof(*t));
	*kmod = false;
	if ((allowed & CTL_T_KMOD) && ctl_want(o, CTL_T_KMOD)) {
		*kmod = ctl_kmod_present(o);
		if (!*kmod && (o->targets & CTL_T_KMOD)) {
			ctl_err("kmod: smackfuse.ko is not loaded (no %s/load2)",
				o->kmod_dir);
			return -ENOENT;
		}
	}
	if (ctl_want(o, CTL_T_MOUNTS)) {
		/* a missing mount is fine when the module is the target */
		if (ctl_find_wait(o, t, !named_mounts && *kmod) &&
		    (named_mounts || !*kmod)) {
			if (!named_mounts && (allowed & CTL_T_KMOD) &&
			    ctl_want(o, CTL_T_KMOD))
				ctl_err("and smackfuse.ko is not loaded (no "
					"%s/load2): nothing to act on",
					o->kmod_dir);
			return -ENOENT;
		}
	}
	if (!t->n && !*kmod && !((allowed & CTL_T_NETLABEL) &&
				 (o->targets & CTL_T_NETLABEL))) {
		ctl_err("nothing to act on: --target names no mount or "
			"module%s", allowed & CTL_T_NETLABEL ? "" :
			" (this command has no NetLabel part)");
		return -ENOENT;
	}
	return 0;
}

static int ctl_parse_targets(const char *list, unsigned int *out)
{
	char *copy = strdup(list), *tok, *save = NULL;
	int rc = 0;

	*out = 0;
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "mounts"))
			*out |= CTL_T_MOUNTS;
		else if (!strcmp(tok, "kmod"))
			*out |= CTL_T_KMOD;
		else if (!strcmp(tok, "netlabel"))
			*out |= CTL_T_NETLABEL;
		else
			rc = -EINVAL;
	}
	free(copy);
	if (rc || !*out)
		ctl_err("--target: want mounts, kmod and/or netlabel, "
			"comma separated (got \"%s\")", list);
	return rc || !*out ? -EINVAL : 0;
}

void ctl_targets_free(struct ctl_targets *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->dirs[i]);
	free(t->dirs);
	memset(t, 0, sizeof(*t));
}

/* ---- main ---- */

static const struct {
	const char *name;
	int (*fn)(const struct ctl_opts *o, int argc, char **argv);
} ctl_cmds[] = {
	{ "load", ctl_cmd_load },
	{ "apply", ctl_cmd_apply },
	{ "rules", ctl_cmd_rules },
	{ "access", ctl_cmd_access },
	{ "label", ctl_cmd_label },
	{ "status", ctl_cmd_status },
	{ "cipso", ctl_cmd_cipso },
	{ "run", ctl_cmd_run },		/* ctl_run.c, when built in */
};

/* Options without a letter. */
enum {
	OPT_ETC = CTL_LONG_ONLY, OPT_SMACK_ETC, OPT_RUNDIR, OPT_WAIT,
	OPT_KMOD_DIR,
};

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "mount", required_argument, NULL, 'M' },
		{ "etc", required_argument, NULL, OPT_ETC },
		{ "smack-etc", required_argument, NULL, OPT_SMACK_ETC },
		{ "rundir", required_argument, NULL, OPT_RUNDIR },
		{ "wait", required_argument, NULL, OPT_WAIT },
		{ "target", required_argument, NULL, 'T' },
		{ "kmod-dir", required_argument, NULL, OPT_KMOD_DIR },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct ctl_opts o = {
		.smack_etc = { "/etc/smack", "built-in default", false },
		.kmod_dir = CTL_KMOD_DIR,
	};
	const char *etc = NULL, *rundir = NULL;
	size_t i;
	int c;

	/* "+": stop at the command; its own options follow it. */
	while ((c = ctl_getopt(argc, argv, lopts)) != -1) {
		switch (c) {
		case 'M': o.mount = optarg; break;
		case OPT_ETC: etc = optarg; break;
		case OPT_SMACK_ETC:
			o.smack_etc = (struct sf_dir){ optarg, "--smack-etc",
						       true };
			break;
		case OPT_RUNDIR: rundir = optarg; break;
		case OPT_WAIT: o.wait = atoi(optarg); break;
		case 'T':
			if (ctl_parse_targets(optarg, &o.targets))
				return 2;
			break;
		case OPT_KMOD_DIR: o.kmod_dir = optarg; break;
		case 'v': o.verbose = true; break;
		case 'h': fputs(usage, stdout); return 0;
		case 'V': printf("smackfusectl %s\n", PACKAGE_VERSION);
			return 0;
		default: fputs(usage, stderr); return 2;
		}
	}
	if (optind >= argc) {
		fputs(usage, stderr);
		return 2;
	}
	o.etc = sf_etc_dir(etc, "--etc");
	if (o.etc.explicit && !o.smack_etc.explicit)
		o.smack_etc.path = NULL;
	o.rundir = sf_run_dir(rundir, "--rundir").path;
	for (i = 0; i < sizeof(ctl_cmds) / sizeof(ctl_cmds[0]); i++) {
		if (ctl_cmds[i].fn &&
		    strcmp(argv[optind], ctl_cmds[i].name) == 0) {
			argv += optind;
			argc -= optind;
			optind = 1;
			return ctl_cmds[i].fn(&o, argc, argv);
		}
	}
	if (strcmp(argv[optind], "help") == 0) {
		fputs(usage, stdout);
		return 0;
	}
	ctl_err("unknown command \"%s\" (see smackfusectl --help)",
		argv[optind]);
	return 2;
}
