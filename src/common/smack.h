/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * smack.h - the data model of the smackfuse access core.
 *
 * The core is freestanding C: it includes only "sf_env.h", which each side
 * provides (src/common/user/sf_env.h for user space, src/kmod/sf_env.h for
 * the kernel), the way libfdt relies on libfdt_env.h.  The env header
 * supplies fixed-width types (u8/u16/u32/u64, size_t, bool), errno values,
 * sf_malloc/sf_free, memcpy/memcmp/memset/strlen, a writer mutex and RCU
 * primitives (sf_rcu_read_lock, sf_rcu_dereference, sf_rcu_assign,
 * sf_synchronize_rcu).
 *
 * Semantics follow mainline Linux security/smack.  This header is the
 * contract between the core and its users (daemon, control filesystem,
 * tools, kernel module); change it only with all of them in mind.
 */
#ifndef SMACKFUSE_SMACK_H
#define SMACKFUSE_SMACK_H

#include "sf_env.h"

/* Access bits.  Letters, in print order: r w x a t l b. */
#define SF_MAY_READ	 0x01u	/* r */
#define SF_MAY_WRITE	 0x02u	/* w */
#define SF_MAY_EXEC	 0x04u	/* x */
#define SF_MAY_APPEND	 0x08u	/* a */
#define SF_MAY_TRANSMUTE 0x10u	/* t */
#define SF_MAY_LOCK	 0x20u	/* l */
#define SF_MAY_BRINGUP	 0x40u	/* b */
#define SF_MAY_ALL	 0x7fu
#define SF_MAY_ANYREAD	 (SF_MAY_READ | SF_MAY_EXEC)
#define SF_MAY_READWRITE (SF_MAY_READ | SF_MAY_WRITE)
#define SF_NUM_ACCESS	 7	/* letters in an access string */

/* Largest input any parser accepts: bigger input is refused outright. */
#define SF_INPUT_MAX	 (64u << 20)

/* Labels: 1..255 bytes (mainline SMK_LONGLABEL - 1). */
#define SF_LABEL_MAX	 255
#define SF_LABELLEN	 24	/* fixed-width "load" field (SMK_LABELLEN) */
/* Fixed "load" records: two label fields, then "rwxatl" (mainline
 * SMK_ACCESS) or the older "rwxa" (SMK_OACCESS) access field. */
#define SF_LOADLEN	 (SF_LABELLEN * 2 + 6)	/* SMK_LOADLEN, 54 */
#define SF_OLOADLEN	 (SF_LABELLEN * 2 + 4)	/* SMK_OLOADLEN, 52 */

/*
 * Interned label ids.  Ids are small, dense and never reused or freed (as
 * mainline never frees a smack_known), so they may be cached anywhere.
 */
typedef u32 sf_lid;
enum {
	SF_LID_INVALID = 0,
	SF_LID_STAR,	/* "*" */
	SF_LID_FLOOR,	/* "_" */
	SF_LID_HAT,	/* "^" */
	SF_LID_HUH,	/* "?" */
	SF_LID_WEB,	/* "@" */
	SF_LID_FIRST_USER	/* first id of a non-reserved label */
};

/* Where a parse failed: the caller fills @file; the parser fills the rest. */
struct sf_error {
	const char *file;	/* may be NULL ("<input>") */
	unsigned int line;	/* 1-based; 0 when not line oriented */
	unsigned int column;	/* 1-based; 0 when unknown */
	char reason[160];
};

/* Formats "file:line:column: reason" into @buf (always NUL-terminated). */
void sf_error_format(const struct sf_error *err, char *buf, size_t size);

/* ---- labels (label.c) ---- */

/*
 * sf_label_valid - is @s (@len bytes, not NUL-terminated) a legal label?
 * Returns 0, or -EINVAL with a reason in @err (may be NULL).
 */
int sf_label_valid(const char *s, size_t len, struct sf_error *err);

/*
 * sf_label_prefix - how much of an attribute's value @s (@len bytes) is
 * its label, as smk_parse_smack() reads one: the bytes before the first
 * one sf_label_byte_ok() refuses.  0 when that is no label (empty, a
 * leading '-', longer than SF_LABEL_MAX).
 */
size_t sf_label_prefix(const char *s, size_t len);

struct sf_labels;	/* the intern table: append-only, lock-free lookup */

/*
 * sf_label_import - the label a smackfs write of one label gives
 * ("ambient": a mount's control file and smackfuse.ko's file alike), as
 * smk_import_entry(data, count) imports it: sf_label_prefix() of the
 * write, interned into @labels.  Returns 0, or -EINVAL with the reason
 * in @err when that is no label (-ENOMEM).
 */
int sf_label_import(struct sf_labels *labels, const char *s, size_t len,
		    sf_lid *out, struct sf_error *err);

struct sf_labels *sf_labels_new(void);
void sf_labels_free(struct sf_labels *labels);
/* Number of labels interned so far, reserved ones included. */
u32 sf_labels_count(const struct sf_labels *labels);
/* Lookup without creating; SF_LID_INVALID if unknown.  Never blocks. */
sf_lid sf_label_find(const struct sf_labels *labels, const char *s, size_t len);
/* Lookup, creating the label if needed.  Validates; <0 errno on failure. */
int sf_label_intern(struct sf_labels *labels, const char *s, size_t len,
		    sf_lid *out, struct sf_error *err);
/* NUL-terminated name of @lid, or NULL for an unknown id. Never blocks. */
const char *sf_label_name(const struct sf_labels *labels, sf_lid lid);

/* ---- access strings (access.c) ---- */

/*
 * sf_access_parse - "rwxatlb" (any case, '-' as placeholder) to bits.
 * Strict: any other byte is an error.  Returns 0 or -EINVAL.
 */
int sf_access_parse(const char *s, size_t len, u32 *bits,
		    struct sf_error *err);
/* Bits to "rwxatlb" order, "-" for none; @buf needs SF_NUM_ACCESS + 1. */
void sf_access_format(u32 bits, char *buf);

/* ---- rules and policy (rules.c, policy.c) ---- */

/*
 * A policy is one intern table plus an RCU-published immutable snapshot
 * (rules, onlycap).  Readers take sf_rcu_read_lock(), call
 * sf_policy_snapshot(), decide, and unlock; they never wait for writers.
 * Writers build a whole new snapshot from a batch and publish it at once,
 * so a reader sees all of the old policy or all of the new, never a mix.
 */
struct sf_policy;
struct sf_decision;
struct sf_snapshot;	/* immutable once published */

struct sf_policy *sf_policy_new(void);
void sf_policy_free(struct sf_policy *policy);
struct sf_labels *sf_policy_labels(struct sf_policy *policy);
/* Call between sf_rcu_read_lock() and sf_rcu_read_unlock(). */
const struct sf_snapshot *sf_policy_snapshot(const struct sf_policy *policy);

/* A batch of changes, applied whole or not at all. */
enum sf_op_kind {
	SF_OP_SET,		/* load/load2: replace (subject, object) access */
	SF_OP_CHANGE,		/* change-rule: add @allow, then clear @deny */
	SF_OP_REVOKE_SUBJECT,	/* revoke-subject: all rules of @subject to 0 */
	SF_OP_CLEAR,		/* drop every rule (smackfusectl load -c) */
	SF_OP_ONLYCAP,		/* replace onlycap with @labels[0..@nlabels) */
};
struct sf_op {
	enum sf_op_kind kind;
	sf_lid subject, object;
	u32 allow, deny;
	sf_lid *labels;		/* SF_OP_ONLYCAP only; owned by the batch */
	u32 nlabels;
};
struct sf_batch {
	struct sf_op *ops;
	u32 nops, cap;
};
void sf_batch_init(struct sf_batch *b);
void sf_batch_release(struct sf_batch *b);
int sf_batch_add(struct sf_batch *b, const struct sf_op *op);	/* copies */
/* Drop the ops from index @nops on (undo appends after a failure). */
void sf_batch_truncate(struct sf_batch *b, u32 nops);

/* Build the next snapshot from the current one plus @b; publish it. */
int sf_policy_apply(struct sf_policy *policy, const struct sf_batch *b);
/*
 * sf_policy_access - sf_access() on the current snapshot, taking and
 * dropping the RCU read lock itself.  Never blocks.
 */
int sf_policy_access(const struct sf_policy *policy, sf_lid subject,
		     sf_lid object, u32 request, struct sf_decision *d);

/* Reading a snapshot. */
u32 sf_snapshot_nrules(const struct sf_snapshot *snap);
/* Access of the explicit rule (subject, object), or -ENOENT. O(1). */
int sf_rule_lookup(const struct sf_snapshot *snap, sf_lid subject,
		   sf_lid object, u32 *access);
/* Iterate rules in load order: returns false at the end. */
bool sf_rule_at(const struct sf_snapshot *snap, u32 index,
		sf_lid *subject, sf_lid *object, u32 *access);

/*
 * sf_mmap_rule - may @subject map a file whose SMACK64MMAP label is @mmap
 * (mainline: smack_mmap_file(); mmap.c)?  Returns 0 or -EACCES; on a
 * denial *@may is the access @mmap does not cover (0 for an unknown
 * @subject), for the caller's audit line.  Call under the RCU read lock.
 */
int sf_mmap_rule(const struct sf_snapshot *snap, sf_lid subject, sf_lid mmap,
		 u32 *may);
/* Onlycap labels, in the order they were written (sf_print_onlycap
 * prints them reversed, as mainline does). */
u32 sf_onlycap_count(const struct sf_snapshot *snap);
sf_lid sf_onlycap_at(const struct sf_snapshot *snap, u32 index);
/* Memory held by @snap in bytes (for the benchmark). */
size_t sf_snapshot_bytes(const struct sf_snapshot *snap);
/* True if onlycap is empty or contains @subject. */
bool sf_onlycap_allows(const struct sf_snapshot *snap, sf_lid subject);

/* ---- the decision (access.c) ---- */

/* Which step of smk_access() decided; for audit lines and tests. */
enum sf_reason {
	SF_R_STAR_SUBJECT,	/* 1: subject "*" denied everything */
	SF_R_WEB,		/* 2: subject or object "@" */
	SF_R_STAR_OBJECT,	/* 3: object "*" */
	SF_R_SAME,		/* 4: same label */
	SF_R_FLOOR_OBJECT,	/* 5: read/exec or lock on "_" */
	SF_R_HAT_SUBJECT,	/* 5: read/exec or lock by "^" */
	SF_R_RULE,		/* 6: explicit rule covers the request */
	SF_R_NO_RULE,		/* 6: no rule for the pair */
	SF_R_RULE_SHORT,	/* 6: rule exists but lacks requested bits */
	SF_R_UNKNOWN_LABEL,	/* 0: SF_LID_INVALID subject or object */
};

struct sf_decision {
	int rc;			/* 0 allowed, -EACCES denied */
	enum sf_reason reason;
	u32 rule_access;	/* access of the rule consulted, if any */
};

/*
 * sf_access - may @subject have @request on @object?
 * Mainline smk_access() order; "write implies lock" is applied to rules.
 * Privilege (CAP_MAC_OVERRIDE, onlycap) is NOT applied here: callers apply
 * it after a denial with sf_onlycap_allows().  Returns 0 or -EACCES and
 * fills @d when non-NULL.
 */
int sf_access(const struct sf_snapshot *snap, sf_lid subject, sf_lid object,
	      u32 request, struct sf_decision *d);

/* ---- text formats (parse.c, print.c) ---- */

/*
 * All parsers are all-or-nothing: they append to @b only if the whole
 * input is valid, else return -EINVAL (or -ENOMEM) with @err filled and @b
 * unchanged.  Labels met in valid input are interned into @labels.
 */
int sf_parse_load2(struct sf_labels *labels, const char *buf, size_t len,
		   struct sf_batch *b, struct sf_error *err);
/* "load": fixed-width SF_LOADLEN/SF_OLOADLEN records, and the 2007
 * whitespace-separated form with labels of up to 7 bytes. */
int sf_parse_load(struct sf_labels *labels, const char *buf, size_t len,
		  struct sf_batch *b, struct sf_error *err);
/* One smackfs "load" write: exactly one fixed-width record of SF_OLOADLEN
 * to SF_LOADLEN bytes (labels may fill their 24-byte fields). */
int sf_parse_load_record(struct sf_labels *labels, const char *buf,
			 size_t len, struct sf_batch *b, struct sf_error *err);
/* "subject object allow deny" lines. */
int sf_parse_change_rule(struct sf_labels *labels, const char *buf,
			 size_t len, struct sf_batch *b, struct sf_error *err);
int sf_parse_revoke_subject(struct sf_labels *labels, const char *buf,
			    size_t len, struct sf_batch *b,
			    struct sf_error *err);
/* Space-separated label list; empty input clears onlycap ("-" too). */
int sf_parse_onlycap(struct sf_labels *labels, const char *buf, size_t len,
		     struct sf_batch *b, struct sf_error *err);
/*
 * Rule files as smack-utils reads them: "subject object access [deny]"
 * per line, '#' comments, blank lines, CRLF tolerated.  A 3-field line is
 * a SET, a 4-field line a CHANGE.
 */
int sf_parse_rule_file(struct sf_labels *labels, const char *buf, size_t len,
		       struct sf_batch *b, struct sf_error *err);
/*
 * access / access2 requests: one "subject object access" query.  Labels
 * are looked up, not interned: an unknown one yields SF_LID_INVALID, which
 * sf_access() denies (reason SF_R_UNKNOWN_LABEL), as mainline answers 0
 * for a label it has never imported.  Mainline's reply to a query is two
 * bytes, '1' or '0' then a NUL (simple_transaction_set(file, 2)).
 */
struct sf_query {
	sf_lid subject, object;
	u32 request;
};
int sf_parse_access2(struct sf_labels *labels, const char *buf, size_t len,
		     struct sf_query *q, struct sf_error *err);
int sf_parse_access(struct sf_labels *labels, const char *buf, size_t len,
		    struct sf_query *q, struct sf_error *err);
/* One smackfs "access" write: a fixed-width record of at least SF_LOADLEN
 * bytes (the access field runs to its end); it counts as SF_LOADLEN. */
int sf_parse_access_record(struct sf_labels *labels, const char *buf,
			   size_t len, struct sf_query *q,
			   struct sf_error *err);

/*
 * Printers write into @buf (@size bytes) and return the length the full
 * output needs (snprintf style), so callers can size a buffer and retry.
 */
size_t sf_print_load2(const struct sf_labels *labels,
		      const struct sf_snapshot *snap, char *buf, size_t size);
size_t sf_print_load(const struct sf_labels *labels,
		     const struct sf_snapshot *snap, char *buf, size_t size);
size_t sf_print_onlycap(const struct sf_labels *labels,
			const struct sf_snapshot *snap, char *buf,
			size_t size);

/* ---- audit (audit.c) ---- */

/* The logging file's bits, as smackfs (SMACK_AUDIT_DENIED and
 * SMACK_AUDIT_ACCEPT in security/smack/smack.h): which decisions get an
 * audit line; 0 none, SF_LOG_ALL both. */
#define SF_LOG_DENIED	0x1
#define SF_LOG_ACCEPTED	0x2
#define SF_LOG_ALL	(SF_LOG_DENIED | SF_LOG_ACCEPTED)

struct sf_audit {
	const char *fn;		/* hook name, e.g. "smack_inode_permission" */
	bool denied;
	const char *subject, *object;
	u32 request;
	int pid;
	const char *comm;
	const char *objdesc;	/* e.g. "path=\"/a/b\" dev=\"fuse\" ino=12" */
};
/* lsm=SMACK fn=... action=denied subject="..." object="..." requested=...
 * pid=... comm="..." <objdesc>.  Returns the full length, snprintf style. */
size_t sf_audit_format(const struct sf_audit *a, char *buf, size_t size);

/* ---- hashing, for the core and its users ---- */

/* Multiplicative hashing (Knuth, TAOCP 6.4): 2^64 and 2^32 over the
 * golden ratio, odd, so the product spreads the key's low bits into the
 * high ones that are kept. */
#define SF_GOLDEN_RATIO_64	0x9e3779b97f4a7c15ull
#define SF_GOLDEN_RATIO_32	2654435761u

#endif /* SMACKFUSE_SMACK_H */
