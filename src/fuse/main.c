// SPDX-License-Identifier: GPL-2.0-only
/*
 * main.c - smackfuse: mount a tree with Smack enforcement.
 *
 *   smackfuse [options] SOURCE [MOUNTPOINT]
 *
 * SOURCE is opened before anything is mounted, so that MOUNTPOINT may be
 * SOURCE itself (the default).  The policy, the users map and the mount
 * labels are all checked before mounting: a bad file stops the mount.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmod_abi.h"
#include "smackfuse.h"
#include "control.h"
#include "paths.h"
#include "transport.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

/* The most worker threads libfuse's loop may run at once (its own
 * default is 10). */
#define SF_MAX_WORKERS	64

struct sf_fs sf_fs;

/* What the command line says that the daemon does not keep: read by
 * sf_setup() and sf_run(); what it keeps is struct sf_options (fs->opt). */
struct sf_cmdline {
	char *source, *mountpoint;
	char **rules;
	size_t nrules;
	char *pass;			/* -o options for libfuse */
	char *def, *root, *transmute, *floor, *hat;
	char *control;			/* -o control=DIR|none */
	char *etc, *rundir;		/* --etc DIR, --rundir DIR */
	char *users_default;		/* ETC/users */
	bool netlabel_off;		/* -o netlabel=off */
	bool remount;			/* -o remount: remount.c */
	bool help, version;
};

static void sf_usage(FILE *f)
{
	fprintf(f,
"usage: smackfuse [options] SOURCE [MOUNTPOINT]\n"
"\n"
"Mount SOURCE on MOUNTPOINT (default: over SOURCE itself) and decide every\n"
"access through the mount by the Smack rules and the labels of the tree.\n"
"\n"
"options:\n"
"  -f                     stay in the foreground, audit to stderr\n"
"  -d                     debug output (implies -f)\n"
"  -s                     single-threaded\n"
"  -h, --help             this help\n"
"  -V, --version          print the version\n"
"  --etc DIR              policy directory, whose accesses.d and users\n"
"                         are the defaults below (default $" SF_ETC_ENV ",\n"
"                         else " SF_ETC_DEFAULT ")\n"
"  --rules PATH           rule file or directory of them (repeatable;\n"
"                         default " SF_ETC_DEFAULT "/accesses.d\n"
"                         if it exists)\n"
"  --rundir DIR           index of running mounts (default\n"
"                         $" SF_RUN_ENV ", else " SF_RUN_DEFAULT ")\n"
"  -o subject=auto|smack|kmod|users   where subject labels come from\n"
"  -o users=PATH          users map (default " SF_ETC_DEFAULT "/users)\n"
"  -o users_ttl=SECONDS   a uid's label follows its account within this\n"
"                         (default 60)\n"
"  -o users_timeout=SECONDS  longest wait for a user lookup; then the\n"
"                         request is denied (default 2)\n"
"  -o smackfsdef=LABEL    label of unlabelled objects (alias smackfsdefault=)\n"
"  -o smackfsroot=LABEL   label of the root\n"
"  -o smackfstransmute=LABEL  label of the root, made transmuting\n"
"  -o smackfsfloor=LABEL, -o smackfshat=LABEL\n"
"  -o cache=strict|auto   strict: the kernel caches nothing\n"
"  -o kstack=auto|off     off: tell stat(2) and access(2) apart by the\n"
"                         caller's system call alone, not its kernel stack\n"
"  -o passthrough=auto|off  off: reads and writes of open files go\n"
"                         through the daemon even where the kernel could\n"
"                         pass them to the backing file\n"
"  -o uring=auto|off      auto: requests come over io_uring where the\n"
"                         kernel offers it (enable_uring), else /dev/fuse\n"
"  -o checks=off          no enforcement (benchmarks only)\n"
"  -o xattr=PREFIX        keep labels in PREFIX\"SMACK64\"... (default security.)\n"
"  -o logging=0..3        0 none, 1 denials (default), 2 grants, 3 both\n"
"  -o control=DIR|none    smackfs-style control files (default\n"
"                         RUNDIR/<escaped mountpoint>)\n"
"  -o netlabel=on|off     whether the control files doi, ambient and\n"
"                         netlabel configure the kernel's NetLabel (on)\n"
"  -o remount,OPT...      change a smackfuse mount at MOUNTPOINT (ro, rw,\n"
"                         noatime, relatime, strictatime, noexec, ...) and\n"
"                         exit: what mount -o remount runs\n"
"  -o OPT                 any other option is passed to libfuse\n"
"\n"
"See smackfuse(8).\n");
}

static int sf_append(char **list, const char *opt)
{
	char *n;

	if (asprintf(&n, "%s%s%s", *list ? *list : "", *list ? "," : "",
		     opt) < 0)
		return -ENOMEM;
	free(*list);
	*list = n;
	return 0;
}

static int sf_bad_option(const char *opt, const char *why)
{
	fprintf(stderr, "smackfuse: -o %s: %s\n", opt, why);
	return -EINVAL;
}

/* -o KEY=ON|OFF where ON sets @flag and OFF clears it; anything else is
 * refused with @expected. */
static int sf_flag_option(const char *opt, const char *val, const char *on,
			  const char *off, bool *flag, const char *expected)
{
	if (val && !strcmp(val, on))
		*flag = true;
	else if (val && !strcmp(val, off))
		*flag = false;
	else
		return sf_bad_option(opt, expected);
	return 0;
}

/* The -o switches of struct sf_options: KEY=ON sets the flag at @at,
 * KEY=OFF clears it. */
static const struct sf_switch {
	const char *key, *on, *off, *expected;
	size_t at;
} sf_switches[] = {
	{ "cache", "strict", "auto", "expected strict|auto",
	  offsetof(struct sf_options, cache_strict) },
	{ "kstack", "off", "auto", "expected auto|off",
	  offsetof(struct sf_options, kstack_off) },
	{ "passthrough", "off", "auto", "expected auto|off",
	  offsetof(struct sf_options, passthrough_off) },
	{ "uring", "off", "auto", "expected auto|off",
	  offsetof(struct sf_options, uring_off) },
	{ "checks", "off", "on", "expected off|on",
	  offsetof(struct sf_options, checks_off) },
};

/* -o @opt if it is one of sf_switches: 0 or -EINVAL; 1 if it is not. */
static int sf_switch_option(struct sf_options *o, const char *opt,
			    size_t klen, const char *val)
{
	const struct sf_switch *w;

	for (w = sf_switches; w < sf_switches + sizeof(sf_switches) /
	     sizeof(sf_switches[0]); w++)
		if (klen == strlen(w->key) && !strncmp(opt, w->key, klen))
			return sf_flag_option(opt, val, w->on, w->off,
					      (bool *)((char *)o + w->at),
					      w->expected);
	return 1;
}

/* One -o option: ours, or kept for libfuse. */
static int sf_option(struct sf_options *o, struct sf_cmdline *c, char *opt)
{
	char *val = strchr(opt, '=');
	size_t klen = val ? (size_t)(val - opt) : strlen(opt);
	int rc;

	if (val)
		val++;
#define KEY(k) (klen == strlen(k) && !strncmp(opt, k, klen))
	if (!*opt || KEY("defaults") || KEY("allow_other") ||
	    KEY("default_permissions"))
		return 0;
	if (KEY("remount") && !val) {
		c->remount = true;
		return 0;
	}
	if (KEY("subject")) {
		if (!val)
			return sf_bad_option(opt, "needs a value");
		if (!strcmp(val, "auto"))
			o->subject = SF_SUBJ_AUTO;
		else if (!strcmp(val, "smack"))
			o->subject = SF_SUBJ_SMACK;
		else if (!strcmp(val, "kmod"))
			o->subject = SF_SUBJ_KMOD;
		else if (!strcmp(val, "users"))
			o->subject = SF_SUBJ_USERS;
		else
			return sf_bad_option(opt,
					     "expected auto|smack|kmod|users");
		return 0;
	}
	if (KEY("control")) {
		if (!val || !*val)
			return sf_bad_option(opt, "needs a directory or none");
		c->control = val;
		return 0;
	}
	if (KEY("users_ttl") || KEY("users_timeout")) {
		const char *why;

		return sf_users_option(o, KEY("users_ttl"), val, &why) ?
		       sf_bad_option(opt, why) : 0;
	}
	if (KEY("netlabel"))
		return sf_flag_option(opt, val, "off", "on", &c->netlabel_off,
				      "expected on or off");
	if (KEY("users") || KEY("smackfsdef") || KEY("smackfsdefault") ||
	    KEY("smackfsroot") || KEY("smackfstransmute") ||
	    KEY("smackfsfloor") || KEY("smackfshat") || KEY("xattr")) {
		if (!val || !*val)
			return sf_bad_option(opt, "needs a value");
		if (KEY("users"))
			o->users_path = val;
		else if (KEY("smackfsdef") || KEY("smackfsdefault"))
			c->def = val;
		else if (KEY("smackfsroot"))
			c->root = val;
		else if (KEY("smackfstransmute"))
			c->transmute = val;
		else if (KEY("smackfsfloor"))
			c->floor = val;
		else if (KEY("smackfshat"))
			c->hat = val;
		else
			o->xattr_prefix = val;
		return 0;
	}
	rc = sf_switch_option(o, opt, klen, val);
	if (rc <= 0)
		return rc;
	if (KEY("logging")) {
		if (!val || strlen(val) != 1 || val[0] < '0' ||
		    val[0] > '0' + SF_LOG_ALL)
			return sf_bad_option(opt, "expected 0, 1, 2 or 3");
		o->logging = val[0] - '0';
		return 0;
	}
#undef KEY
	if (!c->remount && sf_atime_option(o, opt))
		return 0;
	return sf_append(&c->pass, opt);
}

static int sf_options(struct sf_options *o, struct sf_cmdline *c,
		      char *list)
{
	char *save = NULL, *opt;

	for (opt = strtok_r(list, ",", &save); opt;
	     opt = strtok_r(NULL, ",", &save)) {
		int rc = sf_option(o, c, opt);

		if (rc)
			return rc;
	}
	return 0;
}

/* --NAME DIR or --NAME=DIR into *@out; 1 if @argv[*i] is not --NAME. */
static int sf_dir_arg(const char *name, int argc, char **argv, int *i,
		      char **out)
{
	size_t n = strlen(name);
	char *a = argv[*i];

	if (strncmp(a, name, n) || (a[n] && a[n] != '='))
		return 1;
	if (a[n] == '=') {
		*out = a + n + 1;
	} else if (*i + 1 < argc) {
		*out = argv[++*i];
	} else {
		fprintf(stderr, "smackfuse: %s needs an argument\n", name);
		return -EINVAL;
	}
	if (!**out) {
		fprintf(stderr, "smackfuse: %s needs a directory\n", name);
		return -EINVAL;
	}
	return 0;
}

static int sf_parse_args(struct sf_options *o, struct sf_cmdline *c,
			 int argc, char **argv)
{
	int i, rc;

	for (i = 1; i < argc; i++) {
		char *a = argv[i];

		rc = sf_dir_arg("--etc", argc, argv, &i, &c->etc);
		if (rc == 1)
			rc = sf_dir_arg("--rundir", argc, argv, &i,
					&c->rundir);
		if (rc < 0)
			return rc;
		if (rc == 0)
			continue;
		if (!strcmp(a, "-f")) {
			o->foreground = true;
		} else if (!strcmp(a, "-d") || !strcmp(a, "--debug")) {
			o->debug = o->foreground = true;
		} else if (!strcmp(a, "-s")) {
			o->singlethread = true;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			c->help = true;
		} else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
			c->version = true;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--rules")) {
			if (++i >= argc) {
				fprintf(stderr, "smackfuse: %s needs an "
					"argument\n", a);
				return -EINVAL;
			}
			if (a[1] == 'o') {
				rc = sf_options(o, c, argv[i]);
				if (rc)
					return rc;
				continue;
			}
			goto add_rules;
		} else if (!strncmp(a, "-o", 2)) {
			rc = sf_options(o, c, a + 2);
			if (rc)
				return rc;
		} else if (!strncmp(a, "--rules=", 8)) {
			argv[i] += 8;
			goto add_rules;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "smackfuse: unknown option %s\n", a);
			return -EINVAL;
		} else if (!c->source) {
			c->source = a;
		} else if (!c->mountpoint) {
			c->mountpoint = a;
		} else {
			fprintf(stderr, "smackfuse: too many arguments: %s\n",
				a);
			return -EINVAL;
		}
		continue;
add_rules:
		c->rules = realloc(c->rules, (c->nrules + 1) *
				   sizeof(*c->rules));
		if (!c->rules)
			return -ENOMEM;
		c->rules[c->nrules++] = argv[i];
	}
	return 0;
}

static int sf_mount_label(struct sf_fs *fs, const char *opt, const char *val,
			  sf_lid *out)
{
	struct sf_error err;

	if (!val)
		return 0;
	memset(&err, 0, sizeof(err));
	if (sf_label_intern(fs->labels, val, strlen(val), out, &err)) {
		fprintf(stderr, "smackfuse: -o %s=%s: %s\n", opt, val,
			err.reason);
		return -EINVAL;
	}
	return 0;
}

static void sf_report_stderr(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "smackfuse: %s\n", msg);
}

/* The rules and the users map: given on the command line, else those of
 * the policy directory (--etc, $SMACKFUSE_ETC, the build's). */
static int sf_setup_policy(struct sf_fs *fs, struct sf_cmdline *c)
{
	struct sf_dir etc = sf_etc_dir(c->etc, "--etc");
	int rc;

	rc = sf_dir_check(&etc, sf_report_stderr, NULL);
	if (rc)
		return rc;
	if (fs->opt.debug)
		fprintf(stderr, "smackfuse: policy directory %s (%s)\n",
			etc.path, etc.from);
	rc = sf_policy_load(fs, etc.path, c->rules, c->nrules);
	if (rc)
		return rc;
	rc = sf_subject_setup(fs);
	if (rc)
		return rc;
	if (fs->opt.subject != SF_SUBJ_USERS && !fs->opt.users_path)
		return 0;
	if (!fs->opt.users_path &&
	    asprintf(&c->users_default, "%s/users", etc.path) < 0)
		return -ENOMEM;
	return sf_users_load(fs, fs->opt.users_path ? fs->opt.users_path :
			     c->users_default);
}

/* Everything that can fail before the mount. */
static int sf_setup(struct sf_fs *fs, struct sf_cmdline *c)
{
	struct stat st;
	sf_lid root = SF_LID_FLOOR;
	int rc;

	fs->source = realpath(c->source, NULL);
	if (!fs->source) {
		fprintf(stderr, "smackfuse: %s: %s\n", c->source,
			strerror(errno));
		return -errno;
	}
	fs->root.fd = sf_atime_open_root(fs, fs->source);
	if (fs->root.fd < 0 || fstat(fs->root.fd, &st)) {
		rc = fs->root.fd < 0 ? fs->root.fd : -errno;
		fprintf(stderr, "smackfuse: %s: %s\n", fs->source,
			strerror(-rc));
		return rc;
	}
	fs->root.ino = st.st_ino;
	fs->root.dev = st.st_dev;
	fs->root.type = S_IFDIR;
	fs->root.nlookup = 2;
	fs->close_quiet = sf_close_is_quiet(fs->root.fd);
	/* The daemon never changes them, so its fsuid/fsgid are these. */
	fs->uid = geteuid();
	fs->gid = getegid();
	fs->mountpoint = realpath(c->mountpoint ? c->mountpoint : c->source,
				  NULL);
	if (!fs->mountpoint) {
		fprintf(stderr, "smackfuse: %s: %s\n", c->mountpoint,
			strerror(errno));
		return -errno;
	}

	fs->policy = sf_policy_new();
	if (!fs->policy)
		return -ENOMEM;
	fs->labels = sf_policy_labels(fs->policy);
	fs->opt.def = fs->opt.floor = SF_LID_FLOOR;
	fs->opt.hat = SF_LID_HAT;
	rc = sf_mount_label(fs, "smackfsdef", c->def, &fs->opt.def);
	rc = rc ? rc : sf_mount_label(fs, "smackfsroot", c->root, &root);
	rc = rc ? rc : sf_mount_label(fs, "smackfstransmute", c->transmute,
				      &root);
	rc = rc ? rc : sf_mount_label(fs, "smackfsfloor", c->floor,
				      &fs->opt.floor);
	rc = rc ? rc : sf_mount_label(fs, "smackfshat", c->hat, &fs->opt.hat);
	if (rc)
		return rc;
	fs->opt.root_transmute = c->transmute != NULL;
	atomic_store(&fs->root.label, root);
	atomic_store(&fs->root.flags, SF_NODE_LABEL_VALID |
		     (fs->opt.root_transmute ? SF_NODE_TRANSMUTE : 0));

	rc = sf_setup_policy(fs, c);
	if (rc)
		return rc;
	fs->sole_subject = fs->opt.subject == SF_SUBJ_USERS ?
			   sf_users_sole_label(&fs->users) : SF_LID_INVALID;
	rc = sf_labels_setup(fs);
	if (rc)
		return rc;
	sf_getattr_setup(fs);
	rc = sf_nodes_init(fs);
	if (!rc)
		sf_handle_setup(fs);
	return rc;
}

/* Every inode the kernel knows costs an O_PATH descriptor. */
static void sf_raise_nofile(struct sf_fs *fs)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur >= rl.rlim_max)
		return;
	rl.rlim_cur = rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl) == 0 && fs->opt.debug)
		fprintf(stderr, "smackfuse: open file limit raised to %llu\n",
			(unsigned long long)rl.rlim_cur);
}

/* The control filesystem (control.h) of this mount, hooked to @fs. */
static int sf_control_start_fs(struct sf_fs *fs, struct sf_cmdline *c,
			       struct sf_control **ctl)
{
	struct sf_control_config cc = {
		.dir = c->control, .mountpoint = fs->mountpoint,
		.source = fs->source, .log_stderr = fs->opt.foreground,
		.debug = fs->opt.debug, .logging = atomic_load(&fs->logging),
		.netlabel_off = c->netlabel_off,
		.rundir = sf_run_dir(c->rundir, "--rundir").path,
	};
	struct sf_control_hooks ch = {
		.arg = fs, .invalidate = sf_invalidate_all,
		.subject = sf_subject_hook, .status = sf_status,
		.set_logging = sf_set_logging, .reload = sf_users_reload,
	};

	if (sf_control_start(ctl, fs->policy, &cc, &ch) == 0)
		return 0;
	if (c->control)		/* asked for by name: that is fatal */
		return -1;
	fprintf(stderr, "smackfuse: warning: running without control "
		"files (see the log above)\n");
	return 0;
}

static int sf_run(struct sf_fs *fs, struct sf_cmdline *c, const char *argv0)
{
	struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
	const char *wire = sf_transport_fuse_opts(fs);
	const struct fuse_lowlevel_ops *ops;
	struct fuse_loop_config *lc = NULL;
	struct sf_control *ctl = NULL;
	size_t ops_size = sizeof(sf_ops);
	char *opts = NULL;
	int rc = 1;

	/* The subtype is how smackfuse.ko knows our mounts (kmod_abi.h). */
	if (asprintf(&opts, "allow_other,default_permissions,"
		     "subtype=" SF_FUSE_SUBTYPE ",fsname=%s%s%s%s%s",
		     fs->source, *wire ? "," : "", wire, c->pass ? "," : "",
		     c->pass ? c->pass : "") < 0)
		return 1;
	if (fuse_opt_add_arg(&args, argv0) ||
	    fuse_opt_add_arg(&args, "-o") || fuse_opt_add_arg(&args, opts) ||
	    (fs->opt.debug && fuse_opt_add_arg(&args, "-d")))
		goto out;
	ops = sf_transport_ops(&sf_ops, &ops_size);
	fs->se = fuse_session_new(&args, ops, ops_size, fs);
	if (!fs->se)
		goto out;
	if (fuse_set_signal_handlers(fs->se))
		goto out_destroy;
	if (fuse_session_mount(fs->se, fs->mountpoint))
		goto out_signals;
	if (sf_transport_setup(fs) || sf_lock_setup())
		goto out_unmount;
	if (fuse_daemonize(fs->opt.foreground))
		goto out_unmount;
	sf_audit_setup(fs);
	sf_verdicts_setup(fs);
	/* After daemonizing: the control thread must live in this process. */
	if (sf_control_start_fs(fs, c, &ctl))
		goto out_unmount;
	if (fs->opt.singlethread) {
		rc = fuse_session_loop(fs->se);
	} else {
		lc = fuse_loop_cfg_create();
		if (!lc || sf_transport_loop_start())
			goto out_unmount;
		fuse_loop_cfg_set_max_threads(lc, SF_MAX_WORKERS);
		rc = fuse_session_loop_mt(fs->se, lc);
	}
	/* The loop returns the number of the signal that ended it: SIGTERM,
	 * SIGINT or SIGHUP is a clean shutdown, not a failure. */
	rc = (rc == 0 || rc == SIGTERM || rc == SIGINT || rc == SIGHUP) ? 0 : 1;
out_unmount:
	sf_transport_loop_stop();
	fuse_loop_cfg_destroy(lc);
	sf_control_stop(ctl);
	fuse_session_unmount(fs->se);
	sf_transport_stop();
	sf_nodes_stop(fs);
	sf_users_stop(fs);
out_signals:
	fuse_remove_signal_handlers(fs->se);
out_destroy:
	fuse_session_destroy(fs->se);
	fs->se = NULL;
out:
	fuse_opt_free_args(&args);
	free(opts);
	return rc;
}

/* What main() parsed: freed on every way out, so that leak checkers
 * (make check-daemon-asan) see only real leaks. */
static void sf_cmdline_free(struct sf_cmdline *c)
{
	free(c->rules);
	free(c->pass);
	free(c->users_default);
}

static int sf_main(struct sf_fs *fs, struct sf_cmdline *c, int argc,
		   char **argv)
{
	if (sf_parse_args(&fs->opt, c, argc, argv)) {
		fprintf(stderr, "Try 'smackfuse --help'.\n");
		return 1;
	}
	/* The control file "logging" may change it after the mount. */
	atomic_store(&fs->logging, fs->opt.logging);
	if (c->help) {
		sf_usage(stdout);
		return 0;
	}
	if (c->version) {
		printf("smackfuse %s (libfuse %s)\n", PACKAGE_VERSION,
		       fuse_pkgversion());
		return 0;
	}
	if (!c->source) {
		sf_usage(stderr);
		return 1;
	}
	if (c->remount) {
		char *mnt = realpath(c->mountpoint ? c->mountpoint : c->source,
				     NULL);
		int rc;

		if (!mnt) {
			perror("smackfuse: remount");
			return 1;
		}
		rc = sf_remount(mnt, c->pass);
		free(mnt);
		return rc;
	}
	umask(0);
	sf_raise_nofile(fs);
	if (sf_setup(fs, c))
		return 1;
	return sf_run(fs, c, argv[0]);
}

int main(int argc, char **argv)
{
	struct sf_fs *fs = &sf_fs;
	struct sf_cmdline c;
	int rc;

	memset(&c, 0, sizeof(c));
	fs->opt.logging = SF_LOG_DENIED;
	rc = sf_main(fs, &c, argc, argv);
	sf_cmdline_free(&c);
	return rc;
}
