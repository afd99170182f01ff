/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * control_int.h - internals shared by the control*.c files: the state of
 * one control filesystem and the table of its files.  The helpers below
 * them (buf.h, log.h, parse.h) call nothing of these files.
 */
#ifndef SMACKFUSE_CONTROL_INT_H
#define SMACKFUSE_CONTROL_INT_H

#define FUSE_USE_VERSION 35
#include <fuse_lowlevel.h>
#include <pthread.h>
#include <stdatomic.h>

#include "control.h"
#include "cipso.h"
#include "net4addr.h"
#include "buf.h"
#include "log.h"
#include "parse.h"

/*
 * NetLabel-related values.  doi, ambient and addrs are what the kernel's
 * NetLabel holds (when @kernel); map is the label <-> CIPSO translation.
 */
struct ctl_net {
	struct sf_cipso_map map;	/* doi, direct, mapped, cipso2 rules */
	sf_lid ambient;
	struct sf_net4addr *addrs;	/* "netlabel": longest prefix first */
	size_t naddrs;
	bool kernel;		/* apply doi/ambient/netlabel to the kernel */
	bool smackfs;		/* ... which runs Smack: through smackfs */
	char *note;		/* what the kernel lacks, for status */
};

struct sf_control {
	struct sf_policy *policy;
	struct sf_labels *labels;
	struct sf_control_hooks hooks;
	char *dir;		/* mounted here */
	char *link;		/* index symlink we created, or NULL */
	char *mountpoint, *source;
	bool log_stderr;
	bool made_dir;		/* we created @dir: remove it on stop */

	struct fuse_session *se;
	pthread_t thread;
	bool running;
	dev_t dev;		/* st_dev of the mounted control fs */

	pthread_mutex_t write_lock;	/* one policy writer at a time */
	atomic_int logging;
	atomic_ulong writes, rejected;
	struct ctl_net net;

	/* Kept and shown only (see smackfuse(8)): */
	sf_lid syslog;		/* "syslog"; SF_LID_INVALID: unset ("*") */
	int ptrace;		/* "ptrace", 0..2 */
	struct ctl_net6 *net6;	/* "ipv6host", longest prefix first */
	size_t nnet6;
	struct ctl_task *tasks;	/* load-self, relabel-self (control_self.c) */
	size_t ntasks;
};

/* Who is writing: filled from the request before a store runs. */
struct ctl_caller {
	pid_t pid;
	uid_t uid;
	gid_t gid;
};

struct ctl_file;

/* One write to a control file (or, for CTL_COLLECT, all a handle
 * gathered), as its store sees it. */
struct ctl_input {
	const struct ctl_file *file;
	const struct ctl_caller *who;
	const char *buf;
	size_t len;
	struct ctl_buf *out;	/* CTL_TXN: receives the reply */
};

/* One file of the control directory. */
#define CTL_PRIV	0x1u	/* writes need CAP_MAC_ADMIN + onlycap */
#define CTL_TXN		0x2u	/* transaction: write a query, read result */
#define CTL_COLLECT	0x4u	/* collect writes, apply at close (flush) */

/* Fill @out with what a read shows. */
typedef int ctl_show_fn(struct sf_control *c, struct ctl_buf *out);
/* The same, for files that show the reader's own state. */
typedef int ctl_show_own_fn(struct sf_control *c,
			    const struct ctl_caller *who, struct ctl_buf *out);
/* Apply a write.  Returns bytes used (>0) or a negative errno. */
typedef ssize_t ctl_store_fn(struct sf_control *c, const struct ctl_input *in);

struct ctl_file {
	const char *name;
	mode_t mode;
	unsigned int flags;
	ctl_show_fn *show;		/* NULL: not readable */
	ctl_store_fn *store;		/* NULL: not writable */
	ctl_show_own_fn *show_own;	/* instead of @show */
	/* What a store that serves several files needs to know of this
	 * one, as a sysctl table's .data and .extra1/2 are for its
	 * proc_handler: ctl_store_number's struct ctl_number,
	 * ctl_store_rules's struct ctl_rules (control_files.c). */
	const void *arg;
};

extern const struct ctl_file ctl_files[];
extern const size_t ctl_nfiles;

/*
 * A file that takes one number and keeps it (logging, ptrace, doi,
 * direct, mapped): read as its smackfs file reads it (@bounds), then
 * handed to @set, which checks what the bounds cannot, keeps the value
 * and returns 0, or logs and returns a negative errno.
 */
struct ctl_number {
	struct ctl_bounds bounds;
	int (*set)(struct sf_control *c, const struct ctl_input *in,
		   long long v);
};
ctl_store_fn ctl_store_number;	/* .arg: its struct ctl_number */

/* control_self.c: load-self, load-self2, relabel-self */
struct ctl_task;
void ctl_self_release(struct sf_control *c);
ctl_show_own_fn ctl_show_relabel_self;
ctl_store_fn ctl_store_load_self, ctl_store_load_self2,
	ctl_store_relabel_self;

/* control_ipv6.c: ipv6host */
struct ctl_net6;
void ctl_net6_release(struct sf_control *c);
ctl_show_fn ctl_show_ipv6host;
ctl_store_fn ctl_store_ipv6host;

/* control_priv.c */
int ctl_privileged(struct sf_control *c, const struct ctl_caller *who);
/* May @who open a file of mode @mode (owner and group root) with the
 * access mode @acc?  0 or -EACCES, as generic_permission() decides. */
int ctl_may_open(const struct ctl_caller *who, mode_t mode, int acc);

/* control_net.c: the NetLabel-related files */
void ctl_net_init(struct ctl_net *n, bool kernel);
/* At mount start: read (or set up) the kernel's NetLabel; logs. */
void ctl_net_start(struct sf_control *c);
/* "netlabel: ..." line of status, snprintf style. */
size_t ctl_net_status(struct sf_control *c, char *buf, size_t size);
void ctl_net_release(struct ctl_net *n);
ctl_show_fn ctl_show_cipso2, ctl_show_cipso, ctl_show_doi, ctl_show_direct,
	ctl_show_mapped, ctl_show_ambient, ctl_show_netlabel;
ctl_store_fn ctl_store_cipso2, ctl_store_cipso, ctl_store_ambient,
	ctl_store_netlabel;
/* doi; direct and mapped (one rule for both levels) */
extern const struct ctl_number ctl_doi_number, ctl_level_number;

/* control_path.c: where the control directory lives */
int ctl_path_setup(struct sf_control *c, const char *dir,
		   const char *rundir);
void ctl_path_teardown(struct sf_control *c);

#endif /* SMACKFUSE_CONTROL_INT_H */
