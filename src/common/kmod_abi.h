/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kmod_abi.h - what smackfuse.ko and the programs that use it say to each
 * other: the module's securityfs directory and files, the feature words,
 * the verdict lines, the pidlabels reads, and the version of it all.
 *
 * The one page a change to the module's files, or to what the daemon
 * reads and writes there, starts from: the module (src/kmod), the daemon
 * (src/fuse), smackrun and smackfusectl (src/tools), pam_smackfuse
 * (src/pam) and smacknl (src/netlabel) take every name and format below
 * from here, and spell none of them themselves.  Macros only, and no
 * include: it builds in the kernel and in user space alike.
 *
 * THE VERSION
 *
 * SF_ABI_VERSION counts the versions of the contract between the daemon
 * and the module: the grammars of features, verdicts and pidlabels, and
 * what each feature word promises.  Raise it with any change the other
 * side could misread (a new or changed line, a word whose meaning moves);
 * a new feature word alone that an older daemon ignores needs none.
 * The smackfs-format files (load2 ... ptrace) are Smack's and do not
 * change with it.
 *
 *	- the module states its version as the first line of features,
 *	  "abi N" (SF_FEATURES_ABI_FMT);
 *	- a daemon that is to take labels or hand verdicts (subject=kmod,
 *	  and subject=auto when the module is loaded) refuses to start on a
 *	  module that states another version, or none, with one message
 *	  naming both versions;
 *	- the daemon announces its own on the verdicts file's "mount" line
 *	  (SF_VERDICT_MOUNT_FMT), and the module refuses another version,
 *	  or none, with EPROTO and a kernel warning naming both.
 *
 * Without the module (no SF_KMOD_DIR) nothing is asked: a daemon with
 * subject=auto takes the users map, as always.
 *
 * THE FILES, all in SF_KMOD_DIR (mode; who writes; who reads; what)
 *
 *	load2, load (0644; smackfusectl load/apply --target kmod, the
 *		administrator; smackfusectl, the administrator): the rules,
 *		in smackfs' formats; a write is one batch, all or nothing,
 *		at most SF_KMOD_WRITE_MAX bytes.
 *	change-rule, revoke-subject (0200; the administrator): smackfs'.
 *	onlycap (0644; smackfusectl apply; anyone): smackfs'.
 *	access2 (0666; anyone): smackfs' transaction: write "S O ACCESS",
 *		read "1" or "0" on the same open file.
 *	current (0666; smackrun, pam_smackfuse; pam_smackfuse, anyone):
 *		the caller's label and a newline; a write (CAP_MAC_ADMIN)
 *		labels the writer and what it forks.
 *	pidlabel (0666; the daemon, without pidlabels): transaction: write
 *		a decimal pid, read that task's label line.
 *	pidlabels (0444; the daemon, subject=kmod): see PIDLABELS below.
 *	netlabel, ambient, doi, direct, mapped, cipso2 (0644; smacknl
 *		smack-setup writes doi and ambient, the administrator the
 *		rest; anyone): smackfs' NetLabel files.
 *	logging, ptrace (0644; the administrator): smackfs' numbers.
 *	status (0444; the administrator, the tests): counters, "NAME N"
 *		lines; not part of the versioned contract.
 *	features (0444; the daemon): see FEATURES below.  A daemon that
 *		relies on a feature keeps the file open, which keeps the
 *		module loaded.
 *	verdicts (0200, CAP_MAC_ADMIN; the daemon): see VERDICTS below.
 */
#ifndef SMACKFUSE_KMOD_ABI_H
#define SMACKFUSE_KMOD_ABI_H

#define SF_ABI_VERSION		1

/* The securityfs directory: its name (securityfs_create_dir) and path. */
#define SF_KMOD_DIR_NAME	"smackfuse"
#define SF_KMOD_DIR		"/sys/kernel/security/smackfuse"
/* The path of file @name (a literal, one of the names below). */
#define SF_KMOD_PATH(name)	SF_KMOD_DIR "/" name

/* Every file the module creates (the table above says what each holds). */
#define SF_KMOD_LOAD2		"load2"
#define SF_KMOD_LOAD		"load"
#define SF_KMOD_CHANGE_RULE	"change-rule"
#define SF_KMOD_REVOKE_SUBJECT	"revoke-subject"
#define SF_KMOD_ONLYCAP		"onlycap"
#define SF_KMOD_ACCESS2		"access2"
#define SF_KMOD_CURRENT		"current"
#define SF_KMOD_PIDLABEL	"pidlabel"
#define SF_KMOD_PIDLABELS	"pidlabels"
#define SF_KMOD_NETLABEL	"netlabel"
#define SF_KMOD_AMBIENT		"ambient"
#define SF_KMOD_DOI		"doi"
#define SF_KMOD_DIRECT		"direct"
#define SF_KMOD_MAPPED		"mapped"
#define SF_KMOD_CIPSO2		"cipso2"
#define SF_KMOD_LOGGING		"logging"
#define SF_KMOD_PTRACE		"ptrace"
#define SF_KMOD_STATUS		"status"
#define SF_KMOD_FEATURES	"features"
#define SF_KMOD_VERDICTS	"verdicts"

/* The largest single write a policy file takes (E2BIG beyond). */
#define SF_KMOD_WRITE_MAX	(4u << 20)

/*
 * A label line, as current, pidlabel and pidlabels read: the label (1 to
 * 255 bytes, SF_LABEL_MAX of smack.h) and a newline; at most this many
 * bytes.
 */
#define SF_KMOD_LABEL_LINE_MAX	256

/*
 * FEATURES: what a daemon may rely on.  The first line is the version,
 * "abi N" and a newline; then one word a line, in no set order, each a
 * promise of the module's:
 *
 *	perm_refresh	access(2) on a smackfuse mount, and a write to a
 *			directory there whose attributes the FUSE driver
 *			holds, are sent to the daemon as a GETATTR from the
 *			caller (the daemon may let the kernel hold
 *			attributes that differ by label);
 *	setattr_refresh	a change of attributes there is sent the same way,
 *			before the FUSE driver's owner check;
 *	verdicts	the verdicts file (VERDICTS below);
 *	pidlabels	the pidlabels file (PIDLABELS below);
 *	rcv_check	arriving packets are checked against the receiving
 *			socket (NetLabel; the daemon does not ask it).
 *
 * A reader ignores a word it does not know.
 */
#define SF_FEATURES_ABI_FMT	"abi %d\n"	/* SF_ABI_VERSION */
#define SF_FEATURES_ABI_SCAN	"abi %d%c"	/* ... and the '\n' */
#define SF_FEATURE_PERM_REFRESH	"perm_refresh"
#define SF_FEATURE_SETATTR_REFRESH "setattr_refresh"
#define SF_FEATURE_VERDICTS	SF_KMOD_VERDICTS
#define SF_FEATURE_PIDLABELS	SF_KMOD_PIDLABELS
#define SF_FEATURE_RCV_CHECK	"rcv_check"

/*
 * VERDICTS: what the daemon's rules answer for a subject on one of its
 * nodes, handed to the module (src/fuse/nodes/verdicts.c writes them,
 * src/kmod/verdicts.c takes them), so that the kernel may hold every
 * node's attributes and the module decide the checks on them.  Each
 * write(2) is whole lines, applied in order; the first bad line ends the
 * write with its error (the lines before it hold).  The lines:
 *
 *	mount FD ABI	first, once per open file: bind the file to the
 *			live FUSE superblock of subtype SF_FUSE_SUBTYPE that
 *			FD, the writer's own /dev/fuse, serves; ABI is the
 *			writer's SF_ABI_VERSION.  EPROTO if ABI is not the
 *			module's or is missing, EBADF, ENODEV (FD serves no
 *			such mount), EBUSY (bound already).  Any other line
 *			before it: ENOTCONN.
 *	set GEN NODEID LABEL MAP
 *			subject LABEL's verdict on node NODEID (decimal),
 *			decided under policy generation GEN (decimal): bit R
 *			of MAP (hex, at most SF_VERDICT_MAP_MAX) set when
 *			sf_access() gives request R (SF_MAY_READ | _WRITE |
 *			_EXEC | _APPEND bits, 1 to 15).  Dropped if GEN is
 *			older than the last "gen".
 *	gen GEN		every verdict of the mount is stale (a rule,
 *			onlycap or logging change, a relabel); GEN is the
 *			new generation.
 *	forget NODEID	the daemon let go of the node: its verdicts go.
 *
 * Each line has a printf format (_FMT, with its newline) for the writer
 * and the sscanf format (_SCAN) that reads it back: the trailing %c of a
 * _SCAN catches anything after the line's fields, and a line with more
 * is no such line.  "mount FD" alone (one field) is a writer of no
 * version.  The label's width in SF_VERDICT_SET_SCAN is SF_LABEL_MAX.
 */
#define SF_FUSE_SUBTYPE		"smackfuse"	/* the daemon's mounts */
/* mount FD ABI */
#define SF_VERDICT_MOUNT_FMT	"mount %d %d\n"
#define SF_VERDICT_MOUNT_SCAN	"mount %d %d %c"
/* set GEN NODEID LABEL MAP */
#define SF_VERDICT_SET_FMT	"set %llu %llu %s %x\n"
#define SF_VERDICT_SET_SCAN	"set %llu %llu %255s %x %c"
/* gen GEN */
#define SF_VERDICT_GEN_FMT	"gen %llu\n"
#define SF_VERDICT_GEN_SCAN	"gen %llu %c"
/* forget NODEID */
#define SF_VERDICT_FORGET_FMT	"forget %llu\n"
#define SF_VERDICT_FORGET_SCAN	"forget %llu %c"
#define SF_VERDICT_MAP_MAX	0xffff

/*
 * PIDLABELS: the label of any task in one system call, for a daemon that
 * asks it of nearly every request.  pread(2) at offset PID (in the
 * reader's pid namespace), of at least SF_KMOD_LABEL_LINE_MAX bytes,
 * returns that task's label line; nothing is kept between calls, so one
 * open file serves every thread.  Errors: ESRCH (no such task),
 * EOVERFLOW (the buffer cannot hold the whole line), EINVAL (offset 0 or
 * beyond PID_MAX_LIMIT: read(2) reads at 0; the file cannot be seeked).
 */

#endif /* SMACKFUSE_KMOD_ABI_H */
