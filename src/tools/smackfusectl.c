// SPDX-License-Identifier: GPL-2.0-only
/*
 * smackfusectl - change and query the policy of running smackfuse mounts,
 * and label files, in the spirit of smack-utils (smackload, smackctl,
 * smackaccess, chsmack, smackcipso).
 *
 * Every mount serves smackfs-style files in a control directory; the
 * index (/run/smackfuse, paths.h) lists one entry per mount.  This file
 * holds the command line; the commands are in ctl_*.c, what they act on
 * in ctl_targets.c and what they all use in ctl_io.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "ctl.h"

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
"      --kmod-dir DIR       the module's files (" SF_KMOD_DIR ")\n"
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
		.kmod_dir = SF_KMOD_DIR,
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
