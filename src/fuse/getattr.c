// SPDX-License-Identifier: GPL-2.0-only
/*
 * getattr.c - what a FUSE_GETATTR asks of its caller.
 *
 * With default_permissions the kernel sends GETATTR for stat(2), and also
 * to refresh the mode before a permission check on an inode whose
 * attributes are not cached: each directory a path walk searches, and the
 * object of open, access, chdir, ...  Mainline Smack decides these
 * differently (security/smack/smack_lsm.c):
 * - stat(2) is smack_inode_getattr, which wants read;
 * - a walk's search is smack_inode_permission with MAY_EXEC;
 * - access(2), chdir(2), ... are smack_inode_permission with their mode.
 *
 * The request does not say which.  The caller's thread, blocked until we
 * answer, does: its kernel stack (/proc/TID/stack) names the site of the
 * request, and its system call (/proc/TID/syscall) the mode.  They are
 * read only when the subject lacks an access the answer depends on (the
 * system call first; the stack only when the call's answer depends on
 * the site): ~7 and ~11 us (bench/getattr.sh).  Without kernel stacks
 * (no CAP_SYS_ADMIN, no CONFIG_STACKTRACE) the system call alone decides,
 * with the differences listed in smackfuse(8) NOTES.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "smackfuse.h"

#define SF_FN_GETATTR	"smack_inode_getattr"

/* Where in the kernel the caller waits for the attributes. */
enum sf_site {
	SF_SITE_UNKNOWN,	/* no stack, or another caller */
	SF_SITE_STAT,		/* ->getattr: stat(2), fstat(2), statx(2) */
	SF_SITE_WALK,		/* ->permission from the path walk: search */
	SF_SITE_PERM,		/* ->permission on the object of the call */
};

/* Returned by sf_perm_request() when the call's own request decides. */
#define SF_LATER ((u32)-1)

/* Is @fn a frame of @stack ("[<0>] fn+0x../0x..")? */
static bool sf_has_frame(const char *stack, const char *fn)
{
	size_t len = strlen(fn);
	const char *p = stack;

	while ((p = strstr(p, fn))) {
		if (p > stack && p[-1] == ' ' && p[len] == '+')
			return true;
		p += len;
	}
	return false;
}

static enum sf_site sf_getattr_site(const struct sf_fs *fs, pid_t tid)
{
	char path[64], stack[8192];

	if (!fs->stacks || tid <= 0)
		return SF_SITE_UNKNOWN;
	snprintf(path, sizeof(path), "/proc/%d/stack", tid);
	if (sf_read_small(path, stack, sizeof(stack)) <= 0)
		return SF_SITE_UNKNOWN;
	if (sf_has_frame(stack, "fuse_permission"))
		return sf_has_frame(stack, "link_path_walk") ? SF_SITE_WALK :
							       SF_SITE_PERM;
	/* fuse_getattr() may tail-call fuse_do_getattr() and not show. */
	if (sf_has_frame(stack, "vfs_getattr_nosec") ||
	    sf_has_frame(stack, "fuse_getattr"))
		return SF_SITE_STAT;
	return SF_SITE_UNKNOWN;
}

/* Can this daemon read kernel stacks (and may it: -o kstack)?  Asked
 * once, at start. */
void sf_getattr_setup(struct sf_fs *fs)
{
	char stack[4096];

	fs->stacks = false;
	if (fs->kstack_off)
		return;
	fs->stacks = sf_read_small("/proc/self/stack", stack,
				   sizeof(stack)) > 0 &&
		     strstr(stack, "+0x");
	if (!fs->stacks)
		fprintf(stderr, "smackfuse: kernel stacks are not readable "
			"(/proc/self/stack): stat(2) and access(2) of "
			"directories are answered as smackfuse(8) NOTES "
			"describes\n");
}

/* The caller's system call, read once per request; @nr is -1 when it
 * cannot be told. */
struct sf_call {
	long nr;
	unsigned long a[6];
};

/*
 * The system call the caller's thread @tid is blocked in while the kernel
 * waits for our answer (/proc/TID/syscall: the number, then six arguments
 * in hex).  Unknown for pid 0, a thread that exited, or "running".
 */
static void sf_call_read(pid_t tid, struct sf_call *c)
{
	char path[64], buf[256], *p, *end;
	long nr;
	int i;

	c->nr = -1;
	if (tid <= 0)
		return;
	snprintf(path, sizeof(path), "/proc/%d/syscall", tid);
	if (sf_read_small(path, buf, sizeof(buf)) <= 0)
		return;
	nr = strtol(buf, &end, 10);
	if (end == buf || nr < 0)
		return;
	for (i = 0, p = end; i < 6; i++, p = end) {
		c->a[i] = strtoul(p, &end, 16);
		if (end == p)
			return;
	}
	c->nr = nr;
}

/* Is the call access(2)?  Then @request gets its mode's Smack bits. */
static bool sf_call_access(const struct sf_call *c, u32 *request)
{
	switch (c->nr) {
#ifdef SYS_access
	case SYS_access:
		*request = sf_access_request((int)c->a[1]);
		return true;
#endif
	case SYS_faccessat:
	case SYS_faccessat2:
		*request = sf_access_request((int)c->a[2]);
		return true;
	default:
		return false;
	}
}

static bool sf_call_stat(const struct sf_call *c)
{
	switch (c->nr) {
#ifdef SYS_stat
	case SYS_stat:
	case SYS_lstat:
#endif
	case SYS_fstat:
	case SYS_newfstatat:
	case SYS_statx:
		return true;
	default:
		return false;
	}
}

/*
 * The Smack request of a permission check on the object of the caller's
 * system call, when nothing else will decide it: access(2) asks its mode,
 * chdir(2) search, inotify and fanotify read, and opening a FIFO or a
 * device (no FUSE_OPEN follows) what open asks.  Otherwise the call's
 * own request (OPEN, SETATTR, UNLINK, ...) decides: SF_LATER.  A special
 * file whose call cannot be told needs read and write.  (Socket files
 * are labelled "*", as in mainline: the sockets' own labels decide.)
 */
static u32 sf_perm_request(const struct sf_call *c, mode_t type)
{
	const bool special = type != S_IFREG && type != S_IFDIR;
	u32 request;

	if (sf_call_access(c, &request))
		return request;
	switch (c->nr) {
	case SYS_chdir:
	case SYS_fchdir:
	case SYS_chroot:
		return SF_MAY_EXEC;
	case SYS_inotify_add_watch:
	case SYS_fanotify_mark:
		return SF_MAY_READ;
#ifdef SYS_open
	case SYS_open:
		return special ? sf_open_request((int)c->a[1]) : SF_LATER;
	case SYS_creat:
		return special ? sf_open_request(O_WRONLY | O_TRUNC) :
				 SF_LATER;
#endif
	case SYS_openat:
		return special ? sf_open_request((int)c->a[2]) : SF_LATER;
	case SYS_utimensat:
#ifdef SYS_utimes
	case SYS_utimes:
	case SYS_utime:
	case SYS_futimesat:
#endif
		return SF_LATER;	/* SETATTR decides */
	default:	/* unknown, or openat2, whose flags are in user memory */
		return special ? SF_MAY_READWRITE : SF_LATER;
	}
}

static int sf_granted(struct sf_fs *fs)
{
	atomic_fetch_add_explicit(&fs->checks, 1, memory_order_relaxed);
	return 0;
}

/* Does @s have at least one of the accesses in @bits? */
static bool sf_may_any(struct sf_fs *fs, struct sf_subject *s, sf_lid object,
		       u32 bits)
{
	u32 bit;

	for (bit = 1; bit <= bits; bit <<= 1)
		if ((bits & bit) && !sf_decide(fs, s, object, bit))
			return true;
	return false;
}

/*
 * Without the caller's kernel stack, its system call alone: stat wants
 * read and access(2) its mode, except on a directory the subject may read
 * or search (a walk through it sends the same request from the same
 * call); any other call passes on a file the subject may read, write or
 * append to, and its own request decides.
 */
static int sf_check_getattr_blind(struct sf_fs *fs, struct sf_subject *s,
				  struct sf_node *n, sf_lid object,
				  const struct sf_call *c)
{
	const bool dir = n->type == S_IFDIR;
	u32 request;

	if (dir && sf_may_any(fs, s, object, SF_MAY_READ | SF_MAY_EXEC))
		return sf_granted(fs);
	if (sf_call_access(c, &request))
		return request ? sf_check_label(fs, s, object, request,
						SF_FN_PERM, n, NULL) :
				 sf_granted(fs);
	if (!sf_call_stat(c) && !dir &&
	    sf_may_any(fs, s, object, SF_MAY_READ | SF_MAY_WRITE |
		       SF_MAY_APPEND))
		return sf_granted(fs);
	return sf_check_label(fs, s, object, SF_MAY_READ, SF_FN_GETATTR, n,
			      NULL);
}

/* Everything a GETATTR of a @type object may be asked to stand for. */
static u32 sf_getattr_all(mode_t type)
{
	u32 all = SF_MAY_READ | SF_MAY_WRITE | SF_MAY_EXEC;

	return type == S_IFREG || type == S_IFDIR ? all :
						    all | SF_MAY_APPEND;
}

/**
 * sf_check_getattr - may subject @s have the attributes of @n?
 * Returns 0 or -EACCES; denials are audited as mainline names them.
 */
int sf_check_getattr(struct sf_fs *fs, struct sf_subject *s,
		     struct sf_node *n)
{
	const u32 search = n->type == S_IFDIR ? SF_MAY_EXEC : 0;
	struct sf_call call;
	sf_lid object;
	u32 request;
	bool later;

	if (fs->checks_off)
		return 0;
	object = sf_node_label(fs, n);
	if (!sf_decide(fs, s, object, sf_getattr_all(n->type)))
		return sf_check_label(fs, s, object, SF_MAY_READ,
				      SF_FN_GETATTR, n, NULL);
	/* The system call first, the cheaper read: when the subject may
	 * read the object (and search a directory) and the call asks
	 * nothing it lacks, every site passes and the stack is not read. */
	sf_call_read(s->pid, &call);
	request = sf_perm_request(&call, n->type);
	later = request == SF_LATER || !request;
	if ((later || !sf_decide(fs, s, object, request)) &&
	    !sf_decide(fs, s, object, SF_MAY_READ | search))
		return sf_granted(fs);
	switch (sf_getattr_site(fs, s->pid)) {
	case SF_SITE_STAT:
		return sf_check_label(fs, s, object, SF_MAY_READ,
				      SF_FN_GETATTR, n, NULL);
	case SF_SITE_WALK:
		return sf_check_label(fs, s, object, SF_MAY_EXEC, SF_FN_PERM,
				      n, NULL);
	case SF_SITE_PERM:
		if (later)
			return sf_granted(fs);
		return sf_check_label(fs, s, object, request, SF_FN_PERM, n,
				      NULL);
	default:
		return sf_check_getattr_blind(fs, s, n, object, &call);
	}
}
