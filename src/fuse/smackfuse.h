/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * smackfuse.h - the state of the smackfuse daemon, shared by src/fuse.
 *
 * One struct sf_fs holds everything the daemon knows: the backing tree,
 * the inode table, the policy, the counters and, in fs->opt (options.h),
 * what the command line asked for.  The
 * control filesystem reaches it through the functions at the bottom
 * (sf_invalidate_all, sf_status, ...), never through the inode table.
 */
#ifndef SMACKFUSE_SMACKFUSE_H
#define SMACKFUSE_SMACKFUSE_H

/* 3.12: fuse_session_loop_mt() takes a fuse_loop_cfg_create() config. */
#define FUSE_USE_VERSION FUSE_MAKE_VERSION(3, 12)
#include <fuse_lowlevel.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "caps.h"
#include "options.h"
#include "procstatus.h"
#include "smallfile.h"
#include "smack.h"
#include "users.h"

struct fuse_init_out;	/* <linux/fuse.h>, for caps.c */

/* Prefix of the hidden names used while a new object gets its label. */
#define SF_TMP_PREFIX	".smackfuse-new."
#define SF_TMP_PREFIX_LEN (sizeof(SF_TMP_PREFIX) - 1)

/* exec opens carry __FMODE_EXEC in the open flags. */
#define SF_FMODE_EXEC 0x20

/* The mainline hook a permission check is audited as. */
#define SF_FN_PERM	"smack_inode_permission"

/* Kernel cache timeout for answers that are the same for every caller. */
#define SF_CACHE_TIMEOUT 1.0

/* Node flags. */
#define SF_NODE_LABEL_VALID	0x1u	/* @label/@transmute are current */
#define SF_NODE_TRANSMUTE	0x2u	/* directory with SMACK64TRANSMUTE */

/*
 * An inode of the backing tree that the kernel knows.  @fd is an O_PATH
 * descriptor; every backing call is made relative to it.
 */
struct sf_node {
	struct sf_node *next;		/* hash chain, under fs->nodes.lock */
	/* The FUSE node id and generation (handle.c: the backing object's
	 * own handle where it fits, so that they outlive the daemon), and
	 * the chain of fs->nodes.ids, under fs->nodes.ids_lock. */
	fuse_ino_t id;
	uint32_t gen;
	struct sf_node *idnext;
	int fd;
	ino_t ino;
	dev_t dev;
	mode_t type;			/* S_IFMT bits */
	bool ecached;			/* @ename is in the kernel's cache */
	uint64_t nlookup;		/* under fs->nodes.lock */
	_Atomic sf_lid label;		/* effective SMACK64 */
	atomic_uint flags;
	/* A name the kernel knows the node by, so that it can be asked to
	 * drop it: by sf_invalidate_all() when @ecached (entry timeout > 0;
	 * such a name is not replaced by an uncached one), and under fd
	 * pressure (inode.c).  Under fs->nodes.lock. */
	fuse_ino_t eparent;
	char *ename;
	/* Least recently looked up first (fs->nodes.lru_head); under
	 * fs->nodes.lock. */
	struct sf_node *lru_prev, *lru_next;
	/* POSIX locks: one open file description per lock owner, so that
	 * OFD locks give POSIX semantics (see lock.c).  Under sf_locks_lock. */
	struct sf_lockfd *locks;
	/* Set, never cleared, when @locks first gets an entry: FLUSH of a
	 * node that never had one has no lock to release (no mutex). */
	atomic_bool locked_once;
	/* Passthrough: the kernel takes one backing file per inode, so all
	 * of the node's opens share one backing id, from the first until
	 * the node is forgotten.  Set under passthrough.c's lock. */
	int32_t backing_id;
	/* Opened for reading and writing with passthrough: its attributes
	 * are never cached again (ops.c, sf_open_mapped_write()). */
	atomic_bool mapped_write;
	/* The last verdict handed to smackfuse.ko (verdicts.c): its
	 * subject and generation, so that it is not handed over again. */
	_Atomic sf_lid verdict_lid;
	_Atomic uint64_t verdict_gen;
};

/* "/proc/self/fd/N" of @n's descriptor, for calls that cannot take an
 * O_PATH descriptor.  Here, with the node, because the inode table and
 * the files it calls (label.c, lock.c) all need it. */
static inline void sf_proc_path(const struct sf_node *n, char *buf,
				size_t size)
{
	snprintf(buf, size, "/proc/self/fd/%d", n->fd);
}

struct sf_lockfd {
	struct sf_lockfd *next;
	uint64_t owner;
	uint64_t fh;			/* the open file it was first asked on */
	int fd;
};

struct sf_uids;			/* uids.h: a uid's label, by the map */

/* The node table (inode.c): every backing object the kernel holds. */
struct sf_nodes {
	pthread_mutex_t lock;
	struct sf_node **buckets;
	size_t nbuckets, nnodes;
	/* Nodes by id (sf_node()), as many buckets as @buckets; written
	 * under lock and ids_lock, read under ids_lock alone. */
	pthread_rwlock_t ids_lock;
	struct sf_node **ids;
	fuse_ino_t next_volatile;	/* under lock */
	/* Fd pressure: every node holds an O_PATH fd.  Above @high nodes,
	 * a thread asks the kernel to forget the least recently used ones
	 * until @low remain.  Under lock. */
	struct sf_node *lru_head, *lru_tail;
	size_t high, low, peak;
	unsigned long evicted;
	/* Nodes forgotten so far, and that count when a wait for FORGETs
	 * last saw none come (sf_openat_retry()). */
	unsigned long forgotten, evict_futile;
	pthread_cond_t evict_cond, forget_cond;
	pthread_t evict_thread;
	bool evict_started, evict_stop;
};

/* File handles (handle.c): the backing filesystem's handle type and
 * length when its handles fit in a node id (else 0), whether the
 * backing tree is its whole filesystem, and a descriptor of the tree for
 * open_by_handle_at(). */
struct sf_handles {
	int type;
	unsigned int len;
	bool whole;
	int mfd;
};

/* Passthrough (passthrough.c): the kernel offered it at INIT, the daemon
 * asks for it, it was negotiated and still works. */
struct sf_passthrough {
	bool offered, wanted;
	atomic_bool active;
	atomic_ulong backing_open;	/* ids registered and not closed */
};

/* FUSE capabilities (caps.c): what the kernel offered at INIT (flags2 in
 * the upper half), flags to add to libfuse's reply, whether the daemon
 * clears set-ID bits (setid.c), whether POSIX ACLs were negotiated. */
struct sf_caps {
	uint64_t init_offered;
	uint32_t init_add;
	bool killpriv;
	bool posix_acl;
};

/* Counters shown by the control filesystem's "status" (status.c). */
struct sf_stats {
	atomic_ulong checks, denials, cache_hits, grants, audit_dropped;
	/* GETATTRs whose site could not be told (getattr.c), and those of
	 * them denied; the first denial of a mount is logged. */
	atomic_ulong unsure, unsure_denied;
	atomic_bool unsure_logged;
	/* Callers whose /proc status was not the request's (subject.c). */
	atomic_ulong status_not_caller;
	/* Verdicts smackfuse.ko refused (verdicts.c): its checks come here. */
	atomic_ulong verdicts_failed;
};

/*
 * One mount: what it serves and with which policy, its options (fs->opt,
 * never written after the mount), and, by job, the node table, the
 * handles, the passthrough state, the INIT capabilities and the counters.
 */
struct sf_fs {
	struct fuse_session *se;
	char *source;			/* absolute path of the backing tree */
	char *mountpoint;		/* absolute path of the mount */
	struct sf_node root;
	struct sf_nodes nodes;
	struct sf_handles fh;

	struct sf_policy *policy;
	struct sf_labels *labels;

	struct sf_options opt;		/* options.h */

	/* The users map, and its answers per uid (subject.c makes them at
	 * first use).  @sole_subject: every caller's label, when the map
	 * gives all one (else INVALID). */
	struct sf_users users;
	struct sf_uids *_Atomic uids;
	sf_lid sole_subject;
	atomic_int logging;		/* SF_LOG_*: -o logging=, then the
					 * control file "logging" */

	/* What the daemon found at start. */
	bool close_quiet;		/* sf_close_is_quiet(), of the root */
	uid_t uid;			/* the daemon's fsuid and fsgid: what */
	gid_t gid;			/* a new backing object is owned by */
	bool stacks;			/* /proc/TID/stack is read (getattr.c) */
	bool kmod_refresh;		/* smackfuse.ko sends the checks on
					 * held attributes here (subject.c) */
	int kmod_pin_fd;		/* the module's file that says so, held
					 * open: the module stays loaded */
	bool kmod_verdicts;		/* ... and takes our verdicts */
	bool kmod_setattr;		/* ... and sends a change of
					 * attributes here before the
					 * driver's owner check (getattr.c) */
	int kmod_pidlabels_fd;		/* its pidlabels file, where it has
					 * one: a caller's label in one
					 * pread (subject.c), else -1 */
	bool verdicts_bound;		/* its verdicts file is bound to this
					 * mount: verdict_fd (verdicts.c) */
	int verdict_fd;
	_Atomic uint64_t verdict_gen;	/* verdicts older are stale */
	int proc_self_fd;		/* O_PATH fd of /proc/self/fd */

	struct sf_passthrough pt;
	struct sf_caps caps;
	struct sf_stats stats;
};

extern struct sf_fs sf_fs;

/* What a request's caller is; filled lazily by subject.c. */
struct sf_subject {
	pid_t pid;
	uid_t uid;
	gid_t gid;
	sf_lid lid;
	struct sf_stats *stats;		/* its mount's counters */
	bool status_read;		/* @status read (subject.c) */
	/* In access(2) or faccessat(2) without AT_EACCESS: its privilege is
	 * what access_override_creds() leaves (sf_subject_caps()). */
	bool access_creds;
	struct sf_task_status status;	/* its /proc/PID/status */
};

/* inode.c */
int sf_nodes_init(struct sf_fs *fs);
struct sf_node *sf_node(fuse_req_t req, fuse_ino_t ino);
struct sf_node *sf_node_of_id(struct sf_fs *fs, fuse_ino_t id);
fuse_ino_t sf_node_ino(const struct sf_fs *fs, const struct sf_node *n);
/* Look @name up under @parent; fills @e and takes a lookup reference. */
int sf_node_lookup(struct sf_fs *fs, struct sf_node *parent,
		   const char *name, struct fuse_entry_param *e,
		   struct sf_node **out);
int sf_node_from_fd(struct sf_fs *fs, int fd, struct fuse_entry_param *e,
		    struct sf_node **out);
/* The node of id @id with a new lookup reference, or NULL. */
struct sf_node *sf_node_by_id(struct sf_fs *fs, fuse_ino_t id);
/* LOOKUP of "." or ".." in a node id the daemon may not know (handle.c). */
int sf_node_lookup_handle(struct sf_fs *fs, fuse_ino_t parent,
			  const char *name, struct fuse_entry_param *e,
			  struct sf_node **out);
void sf_node_ref(struct sf_fs *fs, struct sf_node *n);
void sf_node_forget(struct sf_fs *fs, struct sf_node *n, uint64_t nlookup);
void sf_node_remember_entry(struct sf_fs *fs, struct sf_node *n,
			    fuse_ino_t parent, const char *name, bool cached);
void sf_nodes_invalidate(struct sf_fs *fs);
/* Stop the fd-pressure thread; after the session is unmounted. */
void sf_nodes_stop(struct sf_fs *fs);

/* verdicts.c */
void sf_verdicts_setup(struct sf_fs *fs);
bool sf_verdicts_on(const struct sf_fs *fs);
bool sf_verdict_type(mode_t type);
void sf_verdicts_post(struct sf_fs *fs, const struct sf_subject *s,
		      struct sf_node *dir, struct sf_node *n, bool again);
void sf_verdict_forget(struct sf_fs *fs, const struct sf_node *n);
void sf_verdicts_flush(struct sf_fs *fs);

/* label.c */
int sf_labels_setup(struct sf_fs *fs);
sf_lid sf_node_label(struct sf_fs *fs, struct sf_node *n);
bool sf_node_transmute(struct sf_fs *fs, struct sf_node *n);
void sf_node_label_invalidate(struct sf_node *n);
/* Write SMACK64 (and TRANSMUTE) on a fresh backing object. */
int sf_label_new_fd(struct sf_fs *fs, int fd, const char *procpath,
		    sf_lid label, bool transmute);
/* The label (and transmute) an object created in @dir by @s gets. */
sf_lid sf_new_label(struct sf_fs *fs, struct sf_subject *s,
		    struct sf_node *dir, bool *transmute);
/* Map a visible xattr name to the backing one; NULL = not allowed. */
const char *sf_xattr_backing(struct sf_fs *fs, const char *name,
			     char *buf, size_t size, bool *is_smack);
bool sf_universal(sf_lid lid);
bool sf_all_access(struct sf_fs *fs, sf_lid lid);
int sf_node_label_attr(struct sf_fs *fs, struct sf_node *n,
		       const char *name, sf_lid *lid);

/* subject.c */
int sf_subject_setup(struct sf_fs *fs);
int sf_users_load(struct sf_fs *fs, const char *path);
/* -o users_ttl=SECONDS, -o users_timeout=SECONDS (@ttl: which). */
int sf_users_option(struct sf_options *o, bool ttl, const char *val,
		    const char **why);
/* The accounts may have changed: look every known uid up again. */
void sf_users_reload(void *arg);
int sf_users_status(struct sf_fs *fs, char *buf, size_t size);
void sf_users_stop(struct sf_fs *fs);
void sf_subject_get(struct sf_fs *fs, fuse_req_t req, struct sf_subject *s);
sf_lid sf_subject_of(struct sf_fs *fs, pid_t pid, uid_t uid, gid_t gid);
bool sf_privileged(struct sf_fs *fs, struct sf_subject *s, int cap);
bool sf_subject_capable(struct sf_subject *s, int cap);
bool sf_subject_in_group(struct sf_subject *s, gid_t gid);
const char *sf_kernel_checks(void);
int sf_kernel_checks_status(struct sf_fs *fs, char *buf, size_t size);
int sf_privilege_status(struct sf_fs *fs, char *buf, size_t size);

/*
 * check.c: the decision has one verb, "check"; the suffix says what
 * differs: what the object is (_node: its label is looked up; _label:
 * given), what is asked when it is fixed (_getattr, _dir_change, _perm),
 * _quiet (the rules alone: no CAP_MAC_OVERRIDE, no counters, no audit
 * line; a denial only means "look closer"), _reply (ops_check.c: the
 * request's caller is the subject and a denial is replied).  Without
 * _quiet a check counts, lets CAP_MAC_OVERRIDE (narrowed by onlycap)
 * override a denial and audits as logging asks.  A denial is -EACCES.
 */
int sf_check_node(struct sf_fs *fs, struct sf_subject *s,
		  struct sf_node *node, u32 request, const char *fn,
		  const char *name);
int sf_check_label(struct sf_fs *fs, struct sf_subject *s, sf_lid object,
		   u32 request, const char *fn, struct sf_node *node,
		   const char *name);
int sf_check_label_quiet(struct sf_fs *fs, struct sf_subject *s,
			 sf_lid object, u32 request);
/* What open(2) with @flags asks of the object (inode_permission()'s
 * part; smack_file_open()'s read is a check of its own); what access(2)
 * with @mode asks. */
u32 sf_open_perm_request(int flags);
u32 sf_access_request(int mode);
void sf_audit_setup(struct sf_fs *fs);

/* procfd.c: a caller's /proc/TID files, kept open between requests */
enum sf_procfile { SF_PROC_SYSCALL, SF_PROC_STACK, SF_PROC_STATUS,
		   SF_PROC_STAT, SF_PROC_NFILES };
int sf_proc_read(pid_t tid, enum sf_procfile f, char *buf, size_t size);
bool sf_proc_flags(pid_t tid, unsigned long *flags);
#define SF_PF_IO_WORKER	0x00000010	/* include/linux/sched.h */
#define SF_PF_KTHREAD	0x00200000

/* getattr.c */
void sf_getattr_setup(struct sf_fs *fs);
int sf_getattr_status(struct sf_fs *fs, char *buf, size_t size);
int sf_check_getattr(struct sf_fs *fs, struct sf_subject *s,
		     struct sf_node *n, const struct fuse_file_info *fi);
bool sf_kernel_reads_xattr(const char *name, pid_t tid);
bool sf_kernel_reads_acl(struct sf_fs *fs, pid_t tid);
enum { SF_CALL_UNKNOWN = -1, SF_CALL_OTHER, SF_CALL_CHOWN,
       SF_CALL_FALLOCATE };
int sf_caller_call(pid_t tid);

/* lock.c */
int sf_lock_get(struct sf_node *n, uint64_t owner, uint64_t fh, int flags);
void sf_lock_release_owner(struct sf_node *n, uint64_t owner);
void sf_lock_release_file(struct sf_node *n, uint64_t fh);
void sf_lock_release_all(struct sf_node *n);
int sf_lock_setup(void);
int sf_lock_wait(fuse_req_t req, int fd, struct flock *fl, int op);
/* Breaks a thread's waiting fcntl() or flock() with EINTR (no
 * SA_RESTART): lock.c's interrupt callback, uring_libfuse.c's watch. */
#define SF_LOCK_SIGNAL	(SIGRTMIN + 3)
int sf_lock_try(int fd, struct flock *fl, int op);
int sf_lock_test(int fd, struct flock *fl);


/* policy.c: @paths, or @etc/accesses.d if there is one and none given */
int sf_policy_load(struct sf_fs *fs, const char *etc, char **paths,
		   size_t npaths);

/* caps.c */
void sf_caps_offered(struct sf_fs *fs, uint64_t offered);
void sf_caps_init_reply(struct sf_fs *fs, struct fuse_init_out *o);
int sf_caps_status(struct sf_fs *fs, char *buf, size_t size);
void sf_caps_init(struct sf_fs *fs, struct fuse_conn_info *conn);

/* setid.c */
int sf_setid_setattr(struct sf_fs *fs, struct sf_subject *s,
		     struct sf_node *n, int fd, int valid, mode_t *kill);
int sf_setid_clear(struct sf_node *n, int fd, mode_t kill);
int sf_setid_open(struct sf_fs *fs, struct sf_subject *s, int fd,
		  int flags);
int sf_setid_fallocate(struct sf_fs *fs, fuse_req_t req, int fd, int err);
int sf_setid_acl(struct sf_subject *s, struct sf_node *n);

/* acl.c */
bool sf_acl_name(const char *name);
bool sf_acl_access_name(const char *name);
int sf_acl_check_get(struct sf_fs *fs, struct sf_subject *s,
		     struct sf_node *n, bool *kernel);
void sf_acl_before_reply(struct sf_fs *fs, struct sf_node *n, bool always);
int sf_acl_get_error(struct sf_fs *fs, struct sf_subject *s, int err,
		     bool kernel);
void sf_acl_label_changed(struct sf_fs *fs, struct sf_node *n);

/* atime.c */
bool sf_atime_option(struct sf_options *o, const char *opt);
int sf_atime_open_root(struct sf_fs *fs, const char *source);
void sf_atime_mounted(struct sf_fs *fs);
bool sf_atime_read_moves(int fd, int flags);

/* handle.c */
void sf_handle_setup(struct sf_fs *fs);
fuse_ino_t sf_handle_id(struct sf_fs *fs, int fd, const struct stat *st);
uint32_t sf_handle_gen(fuse_ino_t id);
int sf_handle_open(struct sf_fs *fs, fuse_ino_t id);
int sf_handle_status(struct sf_fs *fs, char *buf, size_t size);

/* remount.c */
int sf_remount(const char *mountpoint, const char *opts);

/* For the control filesystem (control.h hooks take a void *arg):
 * check.c, status.c (the status file), subject.c. */
void sf_invalidate_all(void *arg);
size_t sf_status(void *arg, char *buf, size_t size);
sf_lid sf_subject_hook(void *arg, pid_t pid, uid_t uid, gid_t gid);
void sf_set_logging(void *arg, int level);

/* ops.c */
extern const struct fuse_lowlevel_ops sf_ops;
bool sf_close_is_quiet(int fd);

#endif /* SMACKFUSE_SMACKFUSE_H */
