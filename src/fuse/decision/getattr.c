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
 * the site): ~7 and ~11 us (bench/getattr.sh).
 *
 * Whatever cannot be told for certain (a caller still running towards
 * its sleep, frames this file does not know, unreadable files, -o
 * kstack=off) is answered for every site it could be: the request must
 * pass the checks of all of them.  That may deny what mainline allows,
 * never the other way round; such requests are counted in the status
 * file and the first one of a mount is logged.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "smackfuse.h"

#define SF_FN_GETATTR	"smack_inode_getattr"

/* Where in the kernel the caller waits for the attributes. */
enum sf_site {
	SF_SITE_UNKNOWN,	/* no stack, or frames we do not know */
	SF_SITE_STAT,		/* ->getattr: stat(2), fstat(2), statx(2) */
	SF_SITE_WALK,		/* ->permission from the path walk: search */
	SF_SITE_PERM,		/* ->permission on the object of the call */
	SF_SITE_SETATTR,	/* ->setattr's refresh (chown), or
				 * smackfuse.ko's at security_inode_setattr
				 * (any change): asks w */
	SF_SITE_ACL,		/* smackfuse.ko's, for getxattr(2) of an ACL
				 * the kernel holds: asks r */
};

/*
 * What the permission check on the object of the caller's system call
 * asks (sf_perm_request()).  The flag rides beside the access bits, never
 * in them: an open of a FIFO or a device is smack_inode_permission with
 * its mode, then smack_file_open's read as a second decision.
 */
struct sf_perm {
	u32 request;		/* SF_MAY_* bits only */
	bool and_read;		/* then read, as a decision of its own */
	bool site_known;	/* asked only where the site is known to be
				 * the permission check (sf_dir_write()) */
};

/* Asks nothing: the call's own request (OPEN, SETATTR, UNLINK, ...)
 * decides, or the call makes no permission check on the object. */
static const struct sf_perm sf_perm_later;

static struct sf_perm sf_perm_of(u32 request)
{
	return (struct sf_perm){ .request = request };
}

static bool sf_perm_asks(const struct sf_perm *p)
{
	return p->request || p->and_read;
}

/*
 * How long to wait for a caller that is still on its way to sleep in
 * the request: its /proc files say "running" (or show no FUSE frame)
 * until it has scheduled out.  Bounded; past it the site is unknown.
 */
#define SF_SETTLE_TRIES	40

static void sf_settle_pause(int try)
{
	struct timespec ts = { 0, 20000 };	/* 20 us */

	if (try < 8)
		sched_yield();
	else
		nanosleep(&ts, NULL);
}

/*
 * Is @fn a frame of @stack ("[<0>] fn+0x../0x..")?  The compiler may
 * have renamed a function it specialised ("link_path_walk.part.0" on
 * 6.1), so "fn." counts as "fn".
 */
static bool sf_has_frame(const char *stack, const char *fn)
{
	size_t len = strlen(fn);
	const char *p = stack;

	while ((p = strstr(p, fn))) {
		if (p > stack && p[-1] == ' ' &&
		    (p[len] == '+' || p[len] == '.'))
			return true;
		p += len;
	}
	return false;
}

/* Frames of ->getattr for stat(2) and friends, from 6.1 (where
 * fuse_getattr and vfs_getattr_nosec are tail calls and leave no frame)
 * to 6.18. */
static const char *const sf_stat_frames[] = {
	"sf_stat_refresh", "fuse_getattr", "vfs_getattr_nosec", "vfs_getattr",
	"vfs_statx", "vfs_fstatat", "vfs_fstat", "do_statx",
};

static enum sf_site sf_stack_site(const char *stack)
{
	size_t i;

	/* smackfuse.ko's refresh for a permission check the FUSE driver
	 * answered from the attributes it held (hooks_fuse.c): from
	 * ->getattr, but the check is the walk's or the call's, as a
	 * refresh from fuse_permission.  (Its refresh for stat's read,
	 * sf_stat_refresh, is under the stat frames below.) */
	if (sf_has_frame(stack, "sf_perm_refresh") ||
	    sf_has_frame(stack, "fuse_permission"))
		return sf_has_frame(stack, "link_path_walk") ? SF_SITE_WALK :
							       SF_SITE_PERM;
	if (sf_has_frame(stack, "sf_acl_refresh"))
		return SF_SITE_ACL;
	/* chown(2) and friends refresh the mode before SETATTR, and
	 * smackfuse.ko before the driver's owner check of any change
	 * (through ->getattr: asked before the stat frames). */
	if (sf_has_frame(stack, "sf_setattr_refresh") ||
	    sf_has_frame(stack, "fuse_setattr"))
		return SF_SITE_SETATTR;
	for (i = 0; i < sizeof(sf_stat_frames) / sizeof(*sf_stat_frames); i++)
		if (sf_has_frame(stack, sf_stat_frames[i]))
			return SF_SITE_STAT;
	return SF_SITE_UNKNOWN;
}

/* Is the caller waiting in a FUSE request (fuse_simple_request() is an
 * inline wrapper of __fuse_simple_request() since 6.3)? */
static bool sf_in_request(const char *stack)
{
	return sf_has_frame(stack, "request_wait_answer") ||
	       sf_has_frame(stack, "fuse_simple_request") ||
	       sf_has_frame(stack, "__fuse_simple_request");
}

/*
 * The site, from the caller's kernel stack.  The stack is trusted only
 * while it shows the caller inside a FUSE request: a thread still
 * running on another CPU shows nothing (the unwinder refuses), so wait
 * a little for it to sleep.
 */
static bool sf_request_stack(const struct sf_fs *fs, pid_t tid,
			     char *stack, size_t size, int *err)
{
	int try;

	*err = 0;
	if (!fs->stacks || tid <= 0)
		return false;
	for (try = 0; try < SF_SETTLE_TRIES; try++) {
		*err = sf_proc_read(tid, SF_PROC_STACK, stack, size);
		if (*err < 0)
			return false;
		*err = 0;
		if (sf_in_request(stack))
			return true;
		sf_settle_pause(try);
	}
	return false;
}

static enum sf_site sf_getattr_site(const struct sf_fs *fs, pid_t tid,
				    int *err)
{
	char stack[8192];

	if (!sf_request_stack(fs, tid, stack, sizeof(stack), err))
		return SF_SITE_UNKNOWN;
	return sf_stack_site(stack);
}

/* Can this daemon read kernel stacks (and may it: -o kstack)?  Asked
 * once, at start. */
void sf_getattr_setup(struct sf_fs *fs)
{
	char stack[4096];

	fs->stacks = false;
	if (fs->opt.kstack_off)
		return;
	fs->stacks = sf_read_small("/proc/self/stack", stack,
				   sizeof(stack)) > 0 &&
		     strstr(stack, "+0x");
	if (!fs->stacks)
		fprintf(stderr, "smackfuse: kernel stacks are not readable "
			"(/proc/self/stack): a GETATTR whose site matters "
			"must pass the checks of every site it could be "
			"(smackfuse(8) NOTES)\n");
}

/* The caller's system call, read once per request; @nr is -1 when it
 * cannot be told. */
struct sf_call {
	long nr;
	unsigned long a[6];
	int err;	/* why /proc/TID/syscall could not be read */
};

/* Parse /proc/TID/syscall: the number, then six arguments in hex. */
static bool sf_call_parse(const char *buf, struct sf_call *c)
{
	const char *p;
	char *end;
	long nr;
	int i;

	nr = strtol(buf, &end, 10);
	if (end == buf || nr < 0)
		return false;
	for (i = 0, p = end; i < 6; i++, p = end) {
		c->a[i] = strtoul(p, &end, 16);
		if (end == p)
			return false;
	}
	c->nr = nr;
	return true;
}

/*
 * The system call the caller's thread @tid is blocked in while the kernel
 * waits for our answer.  A thread that has sent the request but not yet
 * gone to sleep reads "running": wait for it (bounded).  Unknown for pid
 * 0, a thread that exited, or one that never settled.
 */
static void sf_call_read(pid_t tid, struct sf_call *c)
{
	char buf[256];
	int try;

	c->nr = -1;
	c->err = 0;
	if (tid <= 0)
		return;
	for (try = 0; try < SF_SETTLE_TRIES; try++) {
		c->err = sf_proc_read(tid, SF_PROC_SYSCALL, buf, sizeof(buf));
		if (c->err <= 0)
			return;
		c->err = 0;
		if (strncmp(buf, "running", 7))
			break;
		sf_settle_pause(try);
	}
	sf_call_parse(buf, c);
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

/* access(2) or faccessat(2) without AT_EACCESS: checked with the
 * credentials access_override_creds() makes (subject.c). */
static bool sf_call_access_creds(const struct sf_call *c)
{
	switch (c->nr) {
#ifdef SYS_access
	case SYS_access:
#endif
	case SYS_faccessat:
		return true;
	case SYS_faccessat2:
		return !((int)c->a[3] & AT_EACCESS);
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

/* Calls that never reach ->getattr of their objects: only a walk or a
 * permission check can be their site. */
static bool sf_call_never_stats(const struct sf_call *c)
{
	u32 ignored;

	switch (c->nr) {
	case SYS_chdir:
	case SYS_fchdir:
	case SYS_chroot:
		return true;
	default:
		return sf_call_access(c, &ignored);
	}
}

/* chown(2) and its siblings: for anything but a directory the FUSE
 * driver refreshes the attributes from ->setattr (ATTR_KILL_SUID). */
static bool sf_call_chowns(const struct sf_call *c)
{
	switch (c->nr) {
#ifdef SYS_chown
	case SYS_chown:
	case SYS_lchown:
#endif
	case SYS_fchown:
	case SYS_fchownat:
		return true;
	default:
		return false;
	}
}

#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452	/* Linux 6.6, the same on every arch */
#endif

/*
 * Calls made to change an object's attributes (notify_change(), where
 * mainline's smack_inode_setattr asks w): chmod(2), chown(2), the times
 * and truncate(2), through a descriptor too.  An open with O_TRUNC and
 * io_uring's FTRUNCATE change the size too: the open's own permission
 * check asks w first, and nothing in the kernel refuses a new size
 * between the refresh and the SETATTR, whose own w check then decides.
 */
static bool sf_call_setattrs(const struct sf_call *c)
{
	if (sf_call_chowns(c))
		return true;
	switch (c->nr) {
#ifdef SYS_chmod
	case SYS_chmod:
	case SYS_utime:
	case SYS_utimes:
	case SYS_futimesat:
#endif
	case SYS_fchmod:
	case SYS_fchmodat:
	case SYS_fchmodat2:
	case SYS_utimensat:
	case SYS_truncate:
	case SYS_ftruncate:
		return true;
	default:
		return false;
	}
}

/*
 * May a GETATTR of a @type object during call @c be a refresh that stands
 * for smack_inode_setattr (SF_SITE_SETATTR)?  The FUSE driver's before a
 * chown(2) of anything but a directory, and, where smackfuse.ko says
 * setattr_refresh, the module's before any change.
 */
static bool sf_call_may_setattr(const struct sf_fs *fs,
				const struct sf_call *c, mode_t type)
{
	if (sf_call_chowns(c) && type != S_IFDIR)
		return true;
	return fs->kmod_setattr && sf_call_setattrs(c);
}

/*
 * Calls during which the kernel reads an object's file capabilities for
 * itself: killpriv at chown, truncate, an open with O_TRUNC or a write,
 * and exec.  Mainline reads them with __vfs_getxattr(), past every
 * security hook, and no byte of them reaches the caller.
 */
static bool sf_call_reads_caps_itself(const struct sf_call *c)
{
	if (sf_call_chowns(c))
		return true;
	switch (c->nr) {
#ifdef SYS_open
	case SYS_open:
	case SYS_creat:
#endif
	case SYS_openat:
	case SYS_openat2:
	case SYS_truncate:
	case SYS_ftruncate:
	case SYS_write:
	case SYS_pwrite64:
	case SYS_writev:
	case SYS_pwritev:
	case SYS_pwritev2:
	case SYS_fallocate:
	case SYS_copy_file_range:
	case SYS_sendfile:
	case SYS_splice:
	case SYS_execve:
	case SYS_execveat:
		return true;
	default:
		return false;
	}
}

/*
 * Calls during which smackfuse.ko reads a file's security.SMACK64MMAP
 * for its smack_mmap_file check: a mapping (mmap, remap_file_pages, the
 * ELF loader's at exec).  Mainline reads the attribute when the inode is
 * looked up and checks no read for it at the mapping.
 */
static bool sf_call_maps(const struct sf_call *c)
{
	switch (c->nr) {
	case SYS_mmap:
#ifdef SYS_mmap2
	case SYS_mmap2:
#endif
#ifdef SYS_remap_file_pages
	case SYS_remap_file_pages:
#endif
#ifdef SYS_uselib
	case SYS_uselib:
#endif
	case SYS_execve:
	case SYS_execveat:
		return true;
	default:
		return false;
	}
}

/* exec, during which smackfuse.ko reads the program's SMACK64EXEC (the
 * label the task takes; mainline reads it at lookup). */
static bool sf_call_execs(const struct sf_call *c)
{
	return c->nr == SYS_execve || c->nr == SYS_execveat;
}

/* Receiving an open file (SCM_RIGHTS, pidfd_getfd), or fcntl(2)'s
 * F_SETOWN and F_SETSIG, during which smackfuse.ko reads the file's
 * security.SMACK64 for smack_file_receive or smack_file_fcntl. */
static bool sf_call_reads_label(const struct sf_call *c)
{
	switch (c->nr) {
	case SYS_recvmsg:
	case SYS_recvmmsg:
#ifdef SYS_pidfd_getfd
	case SYS_pidfd_getfd:
#endif
	case SYS_fcntl:
#ifdef SYS_fcntl64
	case SYS_fcntl64:
#endif
		return true;
	default:
		return false;
	}
}

/*
 * Is @tid an io_uring worker or SQPOLL thread, or a kernel thread?  An
 * io thread's registers are a copy of its creator's (copy_thread()), so
 * its /proc/TID/syscall names whatever call its creator was in.  The
 * flags (field 9 of /proc/TID/stat) are the kernel's own.  True when
 * they cannot be read.
 */
static bool sf_io_thread(pid_t tid)
{
	unsigned long flags;

	if (tid <= 0 || !sf_proc_flags(tid, &flags))
		return true;
	return flags & (SF_PF_IO_WORKER | SF_PF_KTHREAD);
}

/**
 * sf_kernel_reads_xattr - is a GETXATTR of @name the kernel's own read
 * on behalf of caller @tid's system call, whose value never reaches the
 * caller?  Mainline reads these past every hook (__vfs_getxattr, or at
 * lookup), so such a read asks nothing: killpriv's and exec's file
 * capabilities, and smackfuse.ko's SMACK64MMAP at a mapping, SMACK64EXEC
 * at exec and SMACK64 when a file is received or gets an owner.  False
 * when the call cannot be told: then getxattr(2)'s read check applies.
 * Never an io thread's: an io_uring worker created while its task was in
 * recvmsg(2) or mmap(2) (task_work runs inside any call) shows that call
 * in /proc/TID/syscall, and IORING_OP_GETXATTR would then pass unchecked.
 */
bool sf_kernel_reads_xattr(const char *name, pid_t tid)
{
	bool (*during)(const struct sf_call *c);
	struct sf_call call;

	if (!strcmp(name, "security.capability"))
		during = sf_call_reads_caps_itself;
	else if (!strcmp(name, "security.SMACK64MMAP"))
		during = sf_call_maps;
	else if (!strcmp(name, "security.SMACK64EXEC"))
		during = sf_call_execs;
	else if (!strcmp(name, "security.SMACK64"))
		during = sf_call_reads_label;
	else
		return false;
	if (sf_io_thread(tid))
		return false;
	sf_call_read(tid, &call);
	return during(&call);
}

#ifndef SYS_getxattrat
#define SYS_getxattrat 464	/* Linux 6.13, the same on every arch */
#endif

/*
 * Calls that can hand an xattr's value, an ACL's included, to their
 * caller: getxattr(2) and its siblings, and io_uring's GETXATTR and
 * FGETXATTR run inline from io_uring_enter(2).  A kernel thread (nfsd)
 * never entered from user space: its registers are zeroed and it reads
 * as read(2), which checks no permission on a FUSE inode.
 */
static bool sf_call_gets_xattrs(const struct sf_call *c)
{
	switch (c->nr) {
	case SYS_getxattr:
	case SYS_lgetxattr:
	case SYS_fgetxattr:
	case SYS_getxattrat:
	case SYS_io_uring_enter:
	case SYS_read:
		return true;
	default:
		return false;
	}
}


/**
 * sf_kernel_reads_acl - is a GETXATTR of an ACL the kernel's own read
 * for a permission check of caller @tid (check_acl() with
 * FUSE_POSIX_ACL, acl.c), whose value never reaches the caller?
 * Mainline reads it past every hook.  Told by the caller's kernel stack:
 * generic_permission() (6.18: fuse_permission() tail-calls it; 6.1: a
 * frame of its own too), where a caller's read (vfs_get_acl(), or
 * posix_acl_xattr_get() on 6.1) shows neither.  Without stacks, by the
 * system call: any but getxattr(2) and its siblings, and never an io
 * thread's.  False when it cannot be told: getxattr(2)'s read check
 * then applies.
 */
bool sf_kernel_reads_acl(struct sf_fs *fs, pid_t tid)
{
	struct sf_call call;
	char stack[8192];
	int err;

	if (fs->stacks)
		return sf_request_stack(fs, tid, stack, sizeof(stack), &err) &&
		       (sf_has_frame(stack, "generic_permission") ||
			sf_has_frame(stack, "fuse_permission"));
	if (sf_io_thread(tid))
		return false;
	sf_call_read(tid, &call);
	return call.nr >= 0 && !sf_call_gets_xattrs(&call);
}

/**
 * sf_caller_call - is caller @tid in chown(2) or a sibling, in
 * fallocate(2), or another call?  SF_CALL_UNKNOWN if it cannot be told.
 */
int sf_caller_call(pid_t tid)
{
	struct sf_call call;

	sf_call_read(tid, &call);
	if (call.nr < 0)
		return SF_CALL_UNKNOWN;
	if (sf_call_chowns(&call))
		return SF_CALL_CHOWN;
	return call.nr == SYS_fallocate ? SF_CALL_FALLOCATE : SF_CALL_OTHER;
}

/* Everything a GETATTR of a @type object may be asked to stand for. */
static u32 sf_getattr_all(mode_t type)
{
	u32 all = SF_MAY_READ | SF_MAY_WRITE | SF_MAY_EXEC;

	return type == S_IFREG || type == S_IFDIR ? all :
						    all | SF_MAY_APPEND;
}

/* Opening a FIFO or a device sends no FUSE_OPEN: its two checks are made
 * here. */
static struct sf_perm sf_special_open(int flags)
{
	return (struct sf_perm){ .request = sf_open_perm_request(flags),
				 .and_read = true };
}

/*
 * A directory's permission check that asks write, in calls where the
 * kernel makes checks of its own after it and before any request reaches
 * the daemon: may_delete()'s (unlink(2) of a directory EISDIR, rmdir(2)
 * of a file ENOTDIR, another's file in a sticky directory EPERM),
 * vfs_mknod()'s CAP_MKNOD and vfs_link()'s refusal of a directory
 * (EPERM).  Mainline's smack_inode_permission refuses with EACCES before
 * them, so the refresh that precedes the check decides it: w and x for a
 * removal, a link or a node made in the directory; w for a rename, which
 * asks w alone of a directory moved to another parent (and w and x of
 * both parents, whose x the walk to them has asked).  Only at a known
 * site: the walk to the directory sends GETATTRs in the same call.
 * Where the driver held the directory's attributes and sent no refresh,
 * smackfuse.ko sends one (hooks_fuse.c).
 */
static struct sf_perm sf_dir_write(u32 request)
{
	return (struct sf_perm){ .request = request, .site_known = true };
}

static bool sf_call_dir_write(const struct sf_call *c, struct sf_perm *p)
{
	switch (c->nr) {
#ifdef SYS_unlink
	case SYS_unlink:
	case SYS_rmdir:
	case SYS_link:
	case SYS_mknod:
#endif
	case SYS_unlinkat:
	case SYS_linkat:
	case SYS_mknodat:
		*p = sf_dir_write(SF_MAY_WRITE | SF_MAY_EXEC);
		return true;
#ifdef SYS_rename
	case SYS_rename:
#endif
	case SYS_renameat:
	case SYS_renameat2:
		*p = sf_dir_write(SF_MAY_WRITE);
		return true;
	default:
		return false;
	}
}

/*
 * The Smack request of a permission check on the object of the caller's
 * system call, when nothing else will decide it: access(2) asks its mode,
 * chdir(2) search, inotify and fanotify read, opening a FIFO or a device
 * (no FUSE_OPEN follows) its mode and then read, and link(2) of a file the
 * caller does not own read and write (may_linkat() under
 * protected_hardlinks; EPERM follows a refusal, as in mainline), and
 * the directory checks of sf_call_dir_write().
 * Otherwise the call's own request (OPEN, SETATTR, UNLINK, ...) decides:
 * sf_perm_later.  A call that cannot be told may be any of these:
 * everything.
 * (Socket files are labelled "*", as in mainline: the sockets' own labels
 * decide.)
 */
static struct sf_perm sf_perm_request(const struct sf_call *c, mode_t type)
{
	const bool special = type != S_IFREG && type != S_IFDIR;
	struct sf_perm dir_write;
	u32 request;

	if (c->nr < 0)
		return sf_perm_of(sf_getattr_all(type));
	if (sf_call_stat(c))
		return sf_perm_later;	/* no permission check at all */
	if (sf_call_access(c, &request))
		return sf_perm_of(request);
	if (type == S_IFDIR && sf_call_dir_write(c, &dir_write))
		return dir_write;
	switch (c->nr) {
	case SYS_chdir:
	case SYS_fchdir:
	case SYS_chroot:
		return sf_perm_of(SF_MAY_EXEC);
	case SYS_inotify_add_watch:
	case SYS_fanotify_mark:
		return sf_perm_of(SF_MAY_READ);
#ifdef SYS_link
	case SYS_link:
#endif
	case SYS_linkat:	/* the source; its new directory: above */
		return sf_perm_of(SF_MAY_READWRITE);
#ifdef SYS_open
	case SYS_open:
		return special ? sf_special_open((int)c->a[1]) : sf_perm_later;
	case SYS_creat:
		return special ? sf_special_open(O_WRONLY | O_TRUNC) :
				 sf_perm_later;
#endif
	case SYS_openat:
		return special ? sf_special_open((int)c->a[2]) : sf_perm_later;
	default:	/* e.g. openat2, whose flags are in user memory */
		return special ? sf_perm_of(SF_MAY_READWRITE) : sf_perm_later;
	}
}

static int sf_granted(struct sf_fs *fs)
{
	atomic_fetch_add_explicit(&fs->stats.checks, 1, memory_order_relaxed);
	return 0;
}

static void sf_unsure_log(struct sf_fs *fs, pid_t pid, long nr)
{
	static const char fmt[] = "%s: a GETATTR from pid %d (system call "
		"%ld) could not be placed: it had to pass the checks of every "
		"site it could be, and was refused; mainline may allow it "
		"(counted in status; logged once per mount)";

	if (fs->opt.foreground) {
		fprintf(stderr, "smackfuse: ");
		fprintf(stderr, fmt, fs->mountpoint, pid, nr);
		fputc('\n', stderr);
	} else {
		syslog(LOG_AUTHPRIV | LOG_WARNING, fmt, fs->mountpoint, pid,
		       nr);
	}
}

/* Check what a permission site asks, @p, quietly: its request, then read
 * as a decision of its own when @p->and_read says so. */
static int sf_check_perm_quiet(struct sf_fs *fs, struct sf_subject *s,
			       sf_lid object, const struct sf_perm *p)
{
	if (sf_check_label_quiet(fs, s, object, p->request))
		return -EACCES;
	if (p->and_read && sf_check_label_quiet(fs, s, object, SF_MAY_READ))
		return -EACCES;
	return 0;
}

/* The same, audited as mainline names the two hooks. */
static int sf_check_perm(struct sf_fs *fs, struct sf_subject *s,
			 struct sf_node *n, sf_lid object,
			 const struct sf_perm *p)
{
	int rc;

	rc = sf_check_label(fs, s, object, p->request, SF_FN_PERM, n, NULL);
	if (!rc && p->and_read)
		rc = sf_check_label(fs, s, object, SF_MAY_READ,
				    "smack_file_open", n, NULL);
	return rc;
}

/*
 * The site is unknown: the request must pass what every site it could be
 * asks, each decided as that site would be.  A walk searches (directories
 * only); stat(2) reads, unless the call never stats; the permission check
 * asks the call's own request (everything when the call is unknown).
 * Counted, and the first refusal of a mount logged, since it may refuse
 * what mainline allows.
 */
static int sf_check_getattr_unsure(struct sf_fs *fs, struct sf_subject *s,
				   struct sf_node *n, sf_lid object,
				   const struct sf_call *c,
				   const struct sf_perm *perm)
{
	bool asked = false;
	int rc = 0;

	atomic_fetch_add_explicit(&fs->stats.unsure, 1, memory_order_relaxed);
	if (n->type == S_IFDIR) {
		rc = sf_check_label(fs, s, object, SF_MAY_EXEC, SF_FN_PERM, n,
				    NULL);
		asked = true;
	}
	if (!rc && !sf_call_never_stats(c)) {
		rc = sf_check_label(fs, s, object, SF_MAY_READ, SF_FN_GETATTR,
				    n, NULL);
		asked = true;
	}
	if (!rc && sf_perm_asks(perm) && !perm->site_known) {
		rc = sf_check_perm(fs, s, n, object, perm);
		asked = true;
	}
	if (!asked)
		return sf_granted(fs);
	if (rc) {
		atomic_fetch_add_explicit(&fs->stats.unsure_denied, 1,
					  memory_order_relaxed);
		if (!atomic_exchange(&fs->stats.unsure_logged, true))
			sf_unsure_log(fs, s->pid, c->nr);
	}
	return rc;
}

/* A GETATTR sent for an open file (FUSE_GETATTR_FH: lseek, an append
 * through the page cache) asks nothing: mainline has no check there. */
static bool sf_getattr_of_open_file(const struct fuse_file_info *fi)
{
	return fi && fi->fh;
}

/* A refusal for want of a site: when /proc could not be read because
 * the daemon is out of descriptors, say that (EMFILE, ENFILE) rather
 * than EACCES, so the caller sees the cause and may retry. */
static int sf_resource_error(int call_err, int site_err, int rc)
{
	if (call_err == -EMFILE || call_err == -ENFILE)
		return call_err;
	if (site_err == -EMFILE || site_err == -ENFILE)
		return site_err;
	return rc;
}

/**
 * sf_check_getattr - may subject @s have the attributes of @n?
 * @fi: the open file the request was sent for, or NULL
 * Returns 0 or -EACCES; denials are audited as mainline names them.
 */
int sf_check_getattr(struct sf_fs *fs, struct sf_subject *s,
		     struct sf_node *n, const struct fuse_file_info *fi)
{
	const u32 search = n->type == S_IFDIR ? SF_MAY_EXEC : 0;
	struct sf_call call;
	struct sf_perm perm;
	sf_lid object;
	bool later, setattr;
	int site_err, rc;

	if (fs->opt.checks_off)
		return 0;
	if (sf_getattr_of_open_file(fi))
		return sf_granted(fs);
	object = sf_node_label(fs, n);
	if (!sf_check_label_quiet(fs, s, object, sf_getattr_all(n->type)))
		return sf_check_label(fs, s, object, SF_MAY_READ,
				      SF_FN_GETATTR, n, NULL);
	/* The system call first, the cheaper read: when the subject may
	 * read the object (and search a directory) and the call asks
	 * nothing it lacks, every site passes and the stack is not read. */
	sf_call_read(s->pid, &call);
	s->access_creds = sf_call_access_creds(&call);
	perm = sf_perm_request(&call, n->type);
	later = !sf_perm_asks(&perm);
	setattr = sf_call_may_setattr(fs, &call, n->type);
	if ((later || !sf_check_perm_quiet(fs, s, object, &perm)) &&
	    (!setattr || !sf_check_label_quiet(fs, s, object, SF_MAY_WRITE)) &&
	    !sf_check_label_quiet(fs, s, object, SF_MAY_READ | search))
		return sf_granted(fs);
	switch (sf_getattr_site(fs, s->pid, &site_err)) {
	case SF_SITE_STAT:
		return sf_check_label(fs, s, object, SF_MAY_READ,
				      SF_FN_GETATTR, n, NULL);
	case SF_SITE_WALK:
		return sf_check_label(fs, s, object, SF_MAY_EXEC, SF_FN_PERM,
				      n, NULL);
	case SF_SITE_PERM:
		if (later)
			return sf_granted(fs);
		return sf_check_perm(fs, s, n, object, &perm);
	case SF_SITE_ACL:
		return sf_check_label(fs, s, object, SF_MAY_READ,
				      "smack_inode_get_acl", n, NULL);
	case SF_SITE_SETATTR:
		/* Mainline's smack_inode_setattr, made before the owner
		 * check that the FUSE driver makes before the SETATTR. */
		return sf_check_label(fs, s, object, SF_MAY_WRITE,
				      "smack_inode_setattr", n, NULL);
	default:
		rc = sf_check_getattr_unsure(fs, s, n, object, &call, &perm);
		return rc ? sf_resource_error(call.err, site_err, rc) : 0;
	}
}

/* The status file's lines for what could not be placed. */
int sf_getattr_status(struct sf_fs *fs, char *buf, size_t size)
{
	return snprintf(buf, size, "kernel stacks: %s\n"
			"getattr sites unknown: %lu\n"
			"getattr sites unknown, denied: %lu\n",
			fs->stacks ? "yes" : "no", atomic_load(&fs->stats.unsure),
			atomic_load(&fs->stats.unsure_denied));
}
