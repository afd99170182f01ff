/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options.h - what the command line asks of one mount.
 *
 * main.c fills struct sf_options from argv (sf_parse_args()) and from it
 * what is worked out once before the mount (the labels interned, the
 * xattr names, the subject source resolved).  Nothing writes it after
 * the mount, so it is read without a lock; what changes while the
 * daemon runs (the users map, the policy, the logging level, the
 * counters) is state, in struct sf_fs.
 */
#ifndef SMACKFUSE_OPTIONS_H
#define SMACKFUSE_OPTIONS_H

#include <stdbool.h>

#include "smack.h"

enum sf_subject_source {
	SF_SUBJ_AUTO,
	SF_SUBJ_SMACK,		/* host Smack: /proc/PID/attr/smack/current */
	SF_SUBJ_KMOD,		/* kernel companion: .../smackfuse/pidlabels */
	SF_SUBJ_USERS,		/* the users map */
};

struct sf_options {
	/* -o subject=; AUTO is resolved before the mount (subject.c). */
	enum sf_subject_source subject;
	char *users_path;		/* -o users= (NULL: the default) */
	/* -o users_ttl= and users_timeout= in ms (0: the defaults). */
	unsigned int users_ttl_ms, users_timeout_ms;
	/* -o smackfsdef=, floor=, hat=, interned (smackfsroot= and
	 * smackfstransmute= label fs->root itself). */
	sf_lid def, floor, hat;
	bool root_transmute;		/* -o smackfstransmute= */
	bool cache_strict;		/* -o cache=strict */
	bool checks_off;		/* -o checks=off */
	bool foreground, debug, singlethread;	/* -f, -d, -s */
	bool kstack_off;		/* -o kstack=off */
	bool passthrough_off;		/* -o passthrough=off */
	bool uring_off;			/* -o uring=off */
	/* -o noatime, relatime, ... (atime.c): MOUNT_ATTR_* flags. */
	bool atime_given;
	unsigned int atime_attr;
	char *xattr_prefix;		/* "security." unless -o xattr= */
	/* The backing names of the Smack attributes under @xattr_prefix
	 * (label.c, at start). */
	char *x_smack, *x_exec, *x_mmap, *x_transmute;
	/* -o logging=: the level at start; the control file "logging"
	 * changes fs->logging after that. */
	int logging;
};

#endif /* SMACKFUSE_OPTIONS_H */
