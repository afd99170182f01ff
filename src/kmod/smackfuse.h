/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * smackfuse.h - the data model of smackfuse.ko.
 *
 * Labels are interned ids of the shared access core (smack.h).  Tasks,
 * System V IPC objects and UNIX sockets get their label from a pointer-keyed
 * table (ltab.c); an object without an entry carries the floor label "_",
 * which is what every task and object has when the module loads.
 *
 * Enforcement is by kprobes on the kernel's security_*() entry points
 * (probe.c).  A probe that denies makes the probed function return at once
 * with the error, before the function body runs: if the handler does not
 * run, the call is not denied, so probe.c counts every handler that did not
 * run (the "misses" in the status file).
 */
#ifndef SMACKFUSE_KMOD_H
#define SMACKFUSE_KMOD_H

#include <linux/types.h>
#include <linux/spinlock.h>
#include <linux/atomic.h>
#include <linux/kprobes.h>
#include <linux/socket.h>
#include "smack.h"
#include "kmod_abi.h"
#include "release.h"

struct cred;
struct task_struct;

/* ---- label tables: the code (ltab.c) ---- */

#define SF_LTAB_BITS	10

struct sf_ltab {
	const char *name;		/* for messages */
	spinlock_t lock;		/* writers; readers use RCU */
	atomic_t count;			/* entries held */
	struct hlist_head heads[1 << SF_LTAB_BITS];
};

void sf_ltab_init(struct sf_ltab *t, const char *name);
/* Label of @key, SF_LID_FLOOR when it has no entry.  Never blocks. */
sf_lid sf_ltab_get(struct sf_ltab *t, const void *key);
/* Set (replace) the label of @key; the floor label removes the entry. */
int sf_ltab_set(struct sf_ltab *t, const void *key, sf_lid lid, gfp_t gfp);
/* Set current's label on @key, an object it creates; counts a failure. */
int sf_ltab_set_creator(struct sf_ltab *t, const void *key);
void sf_ltab_del(struct sf_ltab *t, const void *key);
/* Drop every entry; call after all probes are gone. */
void sf_ltab_destroy(struct sf_ltab *t);

/* ---- the module's state (state.c) ---- */

/* The policy: created at load and freed at unload by main.c. */
extern struct sf_policy *sf_policy;

struct sf_counters {
	atomic64_t checks;
	atomic64_t denials;
	atomic64_t nomem;	/* calls refused because a label could not be
				 * recorded (fork, ipc, socket creation) */
};
extern struct sf_counters sf_count;

/* The logging file's value: SF_LOG_* bits of the core (smack.h). */
extern int sf_log_policy;

/* ptrace file values, as smackfs: how PTRACE_MODE_ATTACH is decided */
#define SF_PTRACE_DEFAULT	0	/* by the rules (rw) */
#define SF_PTRACE_EXACT		1	/* same label, or CAP_SYS_PTRACE */
#define SF_PTRACE_DRACONIAN	2	/* same label only */
extern int sf_ptrace_rule;

extern struct sf_ltab sf_tasks, sf_ipcs, sf_socks;
/*
 * The label of each socket's peer, as SO_PEERSEC gives it (mainline's
 * smk_packet): a UNIX stream's other end, the sender of an accepted TCP
 * connection's SYN.  Through peersec.c's sf_peer_*() only.
 */
extern struct sf_ltab sf_peers;
struct sock;
/* The sockets the module labels (and whose readers it tells a peer):
 * UNIX, IPv4, and IPv6, since a dual-stack one receives IPv4 (net4.c). */
static inline bool sf_sk_labelled(int family)
{
	return family == AF_UNIX || family == AF_INET || family == AF_INET6;
}
int sf_peer_set(const struct sock *sk, sf_lid lid, gfp_t gfp);
sf_lid sf_peer_get(const struct sock *sk);	/* SF_LID_INVALID: none */
void sf_peer_forget(const struct sock *sk);
/* The label texts SCM_SECURITY's readers hold, until released (peersec.c). */
extern struct sf_ltab sf_secctxs;
/* A request_sock's peer_secid that holds the label of its SYN. */
#define SF_PEER_SECID(lid)	((lid) | (1u << 31))
#define SF_PEER_SECID_LID(s)	((s) & (1u << 31) ? (s) & ~(1u << 31) : SF_LID_INVALID)
/* Label of the task that last set a file's owner (F_SETOWN), for SIGIO. */
extern struct sf_ltab sf_fowners;
/* Label of the task that created a kernel key (hooks_key.c). */
extern struct sf_ltab sf_keys;

static inline sf_lid sf_task_label(const struct task_struct *t)
{
	return sf_ltab_get(&sf_tasks, t);
}

/* The ambient file's label: IPv4 (net4.c) and IPv6 (net6.c) hosts. */
void sf_ambient_set(sf_lid lid);
sf_lid sf_ambient_get(void);

/* ---- decisions, privilege, audit (check.c) ---- */

/* CAP_@cap of @cred in the initial namespace, narrowed by onlycap. */
bool sf_privileged(const struct cred *cred, int cap, sf_lid label);

/* What the audit line says about the object (all fields optional). */
struct sf_aobj {
	const struct task_struct *task;	/* opid= ocomm= */
	int ipc_id;			/* ipc_id=, when has_ipc */
	bool has_ipc;
	bool noaudit;			/* PTRACE_MODE_NOAUDIT */
};

/**
 * sf_check - the one decision every hook makes
 * @subject: the subject's label
 * @object: the object's label
 * @request: SF_MAY_* bits; 0 is decided like any request (mainline)
 * @priv: credentials whose CAP_MAC_OVERRIDE may override a denial, or NULL
 * @privlabel: the label onlycap is checked against for @priv
 * @fn: the mainline Smack function name, for the audit line
 * @obj: audit fields of the object, or NULL
 *
 * Counts the check (and the denial), writes the rate-limited audit line
 * per the logging setting, and returns 0 or -EACCES.  Never blocks.
 */
int sf_check(sf_lid subject, sf_lid object, u32 request,
	     const struct cred *priv, sf_lid privlabel, const char *fn,
	     const struct sf_aobj *obj);

/*
 * sf_report - count and audit a decision @rc made without sf_access()
 * (the ptrace exact modes compare labels); returns @rc.  sf_check() ends
 * with it.
 */
int sf_report(sf_lid subject, sf_lid object, u32 request, int rc,
	      const char *fn, const struct sf_aobj *obj);

/* The SF_MAY_* bits of a MAY_* mask (MAY_READ, _WRITE, _EXEC, _APPEND). */
u32 sf_inode_request(int mask);

/* sf_check() with current as the subject (kernel threads always pass). */
int sf_check_current(sf_lid object, u32 request, const char *fn,
		     const struct sf_aobj *obj);

/* ---- what a handler's decision does (deny.c) ---- */

/*
 * sf_deny - make the probed function return @rc without running it.
 * For @rc == 0 returns 0 and the function runs normally (the other LSMs
 * still decide).  Call only from a hook's handler (struct sf_hook.pre),
 * which probe.c's common pre_handler calls at the function's entry.
 */
int sf_deny(struct pt_regs *regs, int rc);

/*
 * sf_skip - make the probed function return 0 without running it: a
 * check that mainline leaves out where Smack claims the object (the
 * capability module's, smack_inode_xattr_skipcap).  From a hook's
 * handler only, as sf_deny().  Returns what a handler returns.
 */
int sf_skip(struct pt_regs *regs);

/*
 * sf_divert - make the probed function's caller run @fn (same arguments,
 * same return) instead, in process context where it may sleep.  @fn
 * decides, calls the function's body (struct sf_hook.body) if it allows,
 * and calls sf_divert_done() last.  Returns what a handler returns.
 */
int sf_divert(struct pt_regs *regs, unsigned long fn);
void sf_divert_done(void);
/* Wait until no diverted call is left (after the probes are gone). */
void sf_divert_wait(void);

/* ---- the hooks (hooks_*.c, net4.c), registered by probe.c ---- */

struct sf_hook {
	const char *symbol;		/* e.g. "security_task_kill" */
	kprobe_pre_handler_t pre;	/* returns sf_deny(regs, rc) */
	bool cleanup;			/* only forgets a label: a miss leaves
					 * a stale entry, never lets a call
					 * through (counted apart) */
	unsigned long *body;		/* if set, receives the address of the
					 * function's body past the probed
					 * call site (for sf_divert()) */
};

extern const struct sf_hook sf_task_hooks[];
extern const struct sf_hook sf_ipc_hooks[];
extern const struct sf_hook sf_net_hooks[];
extern const struct sf_hook sf_net4_hooks[];
extern const struct sf_hook sf_peersec_hooks[];
extern const struct sf_hook sf_file_hooks[];
extern const struct sf_hook sf_mqueue_hooks[];
extern const struct sf_hook sf_key_hooks[];

/* ---- POSIX message queues (hooks_mqueue.c) ---- */

struct inode;
struct path;
struct super_block;
struct file_operations;
struct file;
bool sf_mqueue_inode(const struct inode *inode);
/* @request: the open's access, SF_MAY_READ and SF_MAY_WRITE. */
int sf_mqueue_open_check(struct file *file, u32 request);

/* ---- checks sent to a smackfuse mount's daemon (hooks_fuse.c) ---- */

extern unsigned long sf_inode_permission_body;
bool sf_fuse_perm_sent(const struct inode *inode, int mask);
int sf_fuse_perm_divert(struct inode *inode, int mask);
extern unsigned long sf_inode_getattr_body;
bool sf_fuse_getattr_sent(const struct inode *inode);
int sf_fuse_getattr_divert(const struct path *path);
extern unsigned long sf_inode_setattr_body;
bool sf_fuse_setattr_sent(const struct inode *inode);
int sf_fuse_setattr_divert(SF_SETATTR_PARAMS);
extern const struct sf_hook sf_fuse_hooks[];

/* ---- a daemon's verdicts on its nodes (verdicts.c) ---- */

enum sf_verdict_answer {
	SF_VERDICT_UNBOUND,	/* the mount hands no verdicts */
	SF_VERDICT_ALLOWS,
	SF_VERDICT_ASK,		/* none that allows: the daemon decides */
};
enum sf_verdict_answer sf_verdict_of(const struct super_block *sb,
				     u64 nodeid, sf_lid subject, u32 request);
void sf_verdicts_sb_gone(const struct super_block *sb);
void sf_verdicts_exit(void);
extern const struct file_operations sf_verdicts_fops;
extern const struct file_operations sf_pidlabels_fops;	/* pidlabels.c */

/* fs.c, for pidlabels.c: a task's label, and a label as a line (with
 * room for a NUL) */
#define SF_LABEL_LINE	(SF_KMOD_LABEL_LINE_MAX + 1)
int sf_pid_label(int pid, sf_lid *lid);
size_t sf_label_line(sf_lid lid, char *line);

/* CAP_MAC_ADMIN, narrowed by onlycap: may the caller change policy? */
bool sf_admin(void);

/* ---- IPv6 destinations (net6.c) ---- */

int sf_inet6_check(struct sock *sk, const void *addr, int len,
		   const char *fn);

/* ---- IPv4 host labels (net4.c) ---- */

int sf_netlabel_write(char *buf, struct sf_error *err);
/* Label of IPv4 @addr (network order): its longest host entry
 * (SF_LID_INVALID for -CIPSO), else the ambient label. */
sf_lid sf_host4_label(__be32 addr, bool *found);
size_t sf_netlabel_print(char *buf, size_t size);	/* snprintf style */
void sf_net4_exit(void);

/* ---- CIPSO: the doi, direct, mapped and cipso2 files (cipso4.c) ---- */

struct sk_buff;
enum sf_cipso_number { SF_CIPSO_DOI, SF_CIPSO_DIRECT, SF_CIPSO_MAPPED };
int sf_cipso2_write(const char *buf, size_t len, struct sf_error *err);
size_t sf_cipso2_print(char *buf, size_t size);	/* snprintf style */
int sf_cipso_number_set(enum sf_cipso_number which, u32 value);
u32 sf_cipso_number(enum sf_cipso_number which);
/* The label of an arriving IPv4 packet's CIPSO option; false: none. */
bool sf_cipso4_label(const struct sk_buff *skb, sf_lid *lid);
struct ip_options_rcu;
struct sock;
bool sf_cipso4_labelling(void);
struct ip_options_rcu *sf_cipso4_options(sf_lid lid, gfp_t gfp);
void sf_cipso4_sock_set(struct sock *sk, struct ip_options_rcu *opt);
void sf_cipso4_sock_del(struct sock *sk);
bool sf_cipso4_sock_labelled(struct sock *sk);
void sf_cipso4_exit(void);

/* ---- arriving packets, on ftrace_ops of their own (rcv.c) ---- */

int sf_rcv_register(void);
void sf_rcv_unregister(void);

/* ---- tasks (hooks_task.c) ---- */

/* Wait until the SMACK64EXEC labels queued at exec are set. */
void sf_exec_wait(void);

/* ---- the probes (probe.c) ---- */

/* Register every hook of every table, or none; names the one that fails. */
int sf_probes_register(void);
void sf_probes_unregister(void);
/*
 * Handlers that did not run since load (kprobe nmissed, summed): of the
 * checking and labelling probes (@cleanup false: a miss there may let a
 * call through or mislabel a task), or of the cleanup probes.
 */
unsigned long sf_probes_missed(bool cleanup);
/* "missed SYMBOL N" lines for every probe that missed, into @buf. */
size_t sf_probes_missed_detail(char *buf, size_t size);
unsigned int sf_probes_count(void);
/* Handlers entered from an int3 at a probed call site (see probe.c). */
unsigned long sf_probes_traps(void);

/* ---- securityfs (fs.c) ---- */

int sf_fs_init(void);
void sf_fs_exit(void);

#endif /* SMACKFUSE_KMOD_H */
