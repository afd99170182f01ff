/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ctl.h - shared by the files of smackfusectl.
 */
#ifndef SMACKFUSE_CTL_H
#define SMACKFUSE_CTL_H

#include <stdbool.h>
#include <stddef.h>

#include "kmod_abi.h"
#include "paths.h"

struct ctl_opts {
	const char *mount;	/* --mount: a mountpoint or a control dir */
	/* --etc, else $SMACKFUSE_ETC, else /etc/smackfuse.  When one of
	 * the first two names it, it alone is the policy: smack_etc is read
	 * only if --smack-etc names it too (its path is then NULL). */
	struct sf_dir etc;
	struct sf_dir smack_etc;	/* --smack-etc: default /etc/smack */
	const char *rundir;	/* --rundir, $SMACKFUSE_RUNDIR, /run/smackfuse */
	const char *kmod_dir;	/* --kmod-dir: SF_KMOD_DIR (kmod_abi.h) */
	unsigned int targets;	/* --target: CTL_T_* (0: the default) */
	int wait;		/* --wait: seconds to wait for mounts */
	bool verbose;
};

/*
 * What "load", "apply" and "cipso" act on: the running mounts, the kernel
 * module (rules, onlycap), the kernel's NetLabel (cipso.d).  By default
 * every one that is there; with --mount only that mount; --target names
 * them (and then each named one must be there).
 */
#define CTL_T_MOUNTS	0x1u
#define CTL_T_KMOD	0x2u
#define CTL_T_NETLABEL	0x4u

/* ctl_targets.c: the control directories to act on (every running
 * mount, or --mount), and the module and NetLabel as --target says. */
struct ctl_targets {
	char **dirs;
	size_t n;
};
int ctl_targets_find(const struct ctl_opts *o, struct ctl_targets *t);
/*
 * For the multi-target commands: fills @t with the mounts and *@kmod with
 * whether the module is there, as --target/--mount select among @allowed.
 * Fails (after saying so) if a named target is missing or none is there.
 */
int ctl_policy_targets(const struct ctl_opts *o, unsigned int allowed,
		       struct ctl_targets *t, bool *kmod);
bool ctl_want(const struct ctl_opts *o, unsigned int target);
bool ctl_kmod_present(const struct ctl_opts *o);
void ctl_targets_free(struct ctl_targets *t);

/* ctl_io.c: growable text, control files, messages, options. */
struct ctl_text {
	char *data;
	size_t len, cap;
};
int ctl_text_add(struct ctl_text *t, const char *s, size_t len);
void ctl_text_free(struct ctl_text *t);
/* Read a whole file ("-" = stdin) and append it. */
int ctl_text_read(struct ctl_text *t, const char *path);

/* Control-file I/O: one open, one write, one close (its status checked). */
int ctl_write_file(const char *dir, const char *name, const char *buf,
		   size_t len);
int ctl_read_file(const char *dir, const char *name, struct ctl_text *out);

void ctl_say_write_error(const char *target, const char *dir,
			 const char *name, int rc);

/* ctl_kmod.c: the module's target */
int ctl_kmod_apply(const struct ctl_opts *o, const struct ctl_text *rules,
		   bool clear, const char *onlycap);
/* ctl_nl.c: the kernel's NetLabel target */
int ctl_netlabel_apply(const struct ctl_opts *o);

/* Subcommands. */
int ctl_cmd_load(const struct ctl_opts *o, int argc, char **argv);
int ctl_cmd_apply(const struct ctl_opts *o, int argc, char **argv);
int ctl_cmd_rules(const struct ctl_opts *o, int argc, char **argv);
int ctl_cmd_access(const struct ctl_opts *o, int argc, char **argv);
int ctl_cmd_status(const struct ctl_opts *o, int argc, char **argv);
int ctl_cmd_cipso(const struct ctl_opts *o, int argc, char **argv);
int ctl_cmd_label(const struct ctl_opts *o, int argc, char **argv);
/* Optional: src/tools/ctl_run.c may provide it (weak otherwise). */
int ctl_cmd_run(const struct ctl_opts *o, int argc, char **argv)
	__attribute__((weak));

/*
 * getopt_long over @lopts, with the short options made from the table
 * itself (an entry whose val is a letter is also -letter), so each
 * command's table is the one list of its options.  Options without a
 * letter use vals from CTL_LONG_ONLY up.  Stops at the first operand.
 */
struct option;
#define CTL_LONG_ONLY	256
int ctl_getopt(int argc, char **argv, const struct option *lopts);

void ctl_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* SMACKFUSE_CTL_H */
