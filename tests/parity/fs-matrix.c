// SPDX-License-Identifier: GPL-2.0-only
/*
 * fs-matrix.c - the file-operation differential harness (issue 16).
 *
 *   fs-matrix rules                      the policy, in load2 format
 *   fs-matrix run [--smack|--kmod] [--user-xattrs XBACKING XVIEW]
 *                 BACKING VIEW           run every case, print results
 *   fs-matrix compare --lane LANE [--no-module] KERNEL OTHER ALLOW BUGS
 *                                        compare two runs, print TAP
 *
 * The same cases run in the Smack reference kernel (qemu, --smack,
 * BACKING = VIEW = a directory on tmpfs) and through a smackfuse mount
 * (BACKING = the backing tree, VIEW = the mountpoint): on the host, and on
 * Debian's kernel in qemu with the labels taken through smackfuse.ko
 * (--kmod).
 *
 * A case is (operation, subject, label[, owner]).  Every case gets fresh
 * objects of its own, built as root in BACKING/c<N>/ just before it runs:
 *   c<N>/      label *, the way in
 *   c<N>/d/    the directory the operation works in
 *   c<N>/d/o   the object (file, directory, symlink, executable)
 *   c<N>/d/s   a symlink to o (the follow cases)
 *   c<N>/e/    a second directory (rename and link targets), e/t a target
 * One of them (the operation's "role") carries the case's label; all the
 * others are labelled * so that only the role decides.  Modes are open
 * (0777/0666) so that only Smack and the owner checks decide.
 *
 * A forked child takes the subject (in the Smack kernel: its label written
 * to /proc/self/attr/current while still root, under smackfuse.ko to the
 * module's current file; on the host the smackfuse users map gives the
 * uid its label), opens what the case needs opened beforehand (the
 * calls on a descriptor: locks, mmap, ftruncate, fchmod, ...), then
 * drops to the subject's uid, which clears every capability but those the
 * subject keeps (P: CAP_MAC_OVERRIDE and CAP_MAC_ADMIN, Smack's own
 * privileges), and makes ONE system call.  The parent reads the
 * result back as root from BACKING (never through the mount): the label of
 * a new or renamed object.  Output, one line per case:
 *   @case <id> <ERRNO>[:<label>[+T]]
 * where <id> is op/subject/label[/owner], ERRNO is OK, an errno name or
 * SIG<name> (killed), label is the object's SMACK64 ("none" if there is no
 * object), +T when it carries SMACK64TRANSMUTE.
 *
 * compare (casediff.c) prints, for one lane, "N/M cases match", the
 * differences counted by kind, and TAP: one point per operation, one
 * "not ok" per unexplained difference or case that did not run, and one
 * point per entry of the lane in the allow list (what the FUSE protocol
 * forces; in a lane without smackfuse.ko, the holes only the module can
 * close) and the bug list (reported "# TODO": visible, counted apart, not
 * failing); an entry that takes no case fails.  Entries are
 *   LANES CASE-GLOB KERNEL-GLOB SMACKFUSE-GLOB KIND reason...
 * (fs-allow.txt gives the rules).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <linux/capability.h>

#include "casediff.h"

#define GID_USERS 100
#define UID_OTHER 39199
#define CASE_TIMEOUT 10
#define EXIT_SETUP 254

#define XA_SMACK "security.SMACK64"
#define XA_TRANS "security.SMACK64TRANSMUTE"
#define XA_EXEC "security.SMACK64EXEC"
#define XA_MMAP "security.SMACK64MMAP"
#define XA_USER "user.pfs"

struct subject {
	const char *name;	/* in case ids */
	const char *label;
	uid_t uid;
	int nlabels;		/* how many of labels[] it is tried with */
	bool smack_privileged;	/* keeps CAP_MAC_OVERRIDE, CAP_MAC_ADMIN */
};

/* Object labels.  "self" is the subject's own label; O<acc> is reached
 * by a rule with exactly that access string; On by none. */
static const char *const labels[] = {
	"self", "_", "*", "^", "@", "On",
	"Or", "Ow", "Ox", "Oa", "Ot", "Ol", "Orw", "Orx", "Owx", "Ora", "Orl",
	"Orwx", "Orwxa", "Orwxat", "Orwxatl",
};
#define NLABELS ((int)(sizeof(labels) / sizeof(labels[0])))
#define NBASIC 6		/* self _ * ^ @ On */

/* PfA, the hat and the floor have a rule to every O<acc>; PfB only the
 * rules below, on the floor and the hat; PfP none, but it keeps Smack's
 * privileges: every denial overridden, labels set (mainline's
 * smack_privileged(), no onlycap here). */
static const struct subject subjects[] = {
	{ "A", "PfA", 39101, NLABELS, false },
	{ "H", "^", 39102, NLABELS, false },
	{ "F", "_", 39103, NLABELS, false },
	{ "B", "PfB", 39104, NBASIC, false },
	{ "P", "PfP", 39106, NBASIC, true },
};
#define NSUBJECTS ((int)(sizeof(subjects) / sizeof(subjects[0])))

static const char *const extra_rules[] = {
	"PfB _ w",
	"PfB ^ r",
};

enum role {
	R_DIR,		/* d carries the label */
	R_OBJ,		/* o */
	R_LNK,		/* s, the symlink to o */
	R_DST,		/* e */
	R_TGT,		/* e/t, the object a rename replaces */
	R_EXECL,	/* o's SMACK64EXEC */
	R_MMAPL,	/* o's SMACK64MMAP */
};

enum kind { K_NONE, K_FILE, K_DIR, K_SYMLINK, K_EXE };

/* ---- the operations: one system call each, in the subject's cwd c<N> */

enum call {
	C_OPEN, C_OPEN_LNK, C_STAT, C_LSTAT, C_FSTATAT, C_STAT_LNK, C_ACCESS,
	C_FACCESSAT_E, C_READLINK, C_READDIR, C_READDIR_LNK, C_GETXATTR,
	C_SETXATTR, C_REMOVEXATTR, C_LISTXATTR, C_CHMOD, C_CHOWN, C_TRUNCATE,
	C_UTIMES_NOW, C_UTIMES_SET, C_FLOCK, C_FCNTL_LOCK, C_EXEC, C_MMAP,
	C_CREATE, C_MKDIR, C_MKNOD, C_SYMLINK, C_LINK_DIR, C_LINK_OBJ,
	C_UNLINK, C_RMDIR, C_RENAME, C_RENAME_IN, C_RENAME_REPL,
	C_TMPFILE, C_RENAME_XCHG, C_RENAME_NOREPL, C_FTRUNCATE, C_FALLOCATE,
	C_COPY_RANGE, C_FCHMOD, C_FCHOWN, C_FUTIMENS_NOW, C_FUTIMENS_SET,
	C_FSETXATTR, C_FGETXATTR, C_CHDIR, C_FCHDIR, C_STATFS, C_FCNTL,
	C_OFD_LOCK, C_GETLK, C_OFD_GETLK, C_FSTAT, C_STATX_EMPTY, C_GETDENTS,
	C_READ, C_WRITE, C_EXECVEAT, C_MKNOD_CHR,
};

struct op {
	const char *name;
	enum role role;
	enum kind okind;	/* what d/o is */
	int flags;
	int preopen;		/* open(d/o) flags as root, -2 = O_PATH d, or -1 */
	enum call call;
	int arg;		/* open flags, access mode, lock type, prot,
				 * fcntl command */
	const char *xattr;	/* the xattr calls' name */
	const char *readback;	/* object whose label is reported */
};

#define F_OWNERS 1	/* also run with o owned by another uid */
#define F_TDIR 2	/* the role's directory is transmuting */
#define F_LINK 4	/* d/s -> o */
#define F_TARGET 8	/* e/t exists */
#define F_SRCFILE 16	/* e/x exists (link source) */
#define F_USERXA 32	/* o has user.pfs */
#define F_STICKY 64	/* d is sticky, o another uid's */

static int rc(long r)
{
	return r < 0 ? errno : 0;
}

static int do_open(const char *p, int flags)
{
	int fd = open(p, flags, 0644);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int do_readdir(const char *p)
{
	struct dirent *de;
	DIR *dir = opendir(p);

	if (!dir)
		return errno;
	errno = 0;
	do
		de = readdir(dir);
	while (de);
	closedir(dir);
	return errno;
}

static int do_lock(int fd, short type)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET };

	return rc(fcntl(fd, F_SETLK, &fl));
}

static int do_mmap(int fd, int prot)
{
	void *p = mmap(NULL, 4096, prot, MAP_PRIVATE, fd, 0);

	if (p == MAP_FAILED)
		return errno;
	munmap(p, 4096);
	return 0;
}

/* F_SETLK, F_GETLK, F_OFD_SETLK or F_OFD_GETLK (cmd) of a lock of type */
static int do_lock_cmd(int fd, int cmd, short type)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET };

	return rc(fcntl(fd, cmd, &fl));
}

/* The value a setxattr case writes: SMACK64TRANSMUTE takes only "TRUE",
 * any other value would be refused for itself, not by Smack's checks.
 * The label PfA comes with a tail that smk_import_entry() cuts off (the
 * label ends at the '/'), which both sides must read as PfA. */
static const char *xattr_value(const char *name)
{
	return strcmp(name, XA_TRANS) ? "PfA/x" : "TRUE";
}

/* Five bytes of the file onto the five after them, through the one
 * descriptor (open for reading and writing beforehand). */
static int do_copy_range(int fd)
{
	loff_t in = 0, out = 5;

	return rc(copy_file_range(fd, &in, fd, &out, 5, 0));
}

static int do_exec(const char *p)
{
	char *const argv[] = { "o", NULL };
	char *const envp[] = { NULL };

	execve(p, argv, envp);
	return errno;
}

/* The one system call of a case; returns 0 or the errno. */
static int do_call(const struct op *op, int fd, uid_t uid)
{
	static const struct timespec then[2] = { { 1000000, 0 },
						 { 1000000, 0 } };
	struct stat st;
	char buf[1024];

	switch (op->call) {
	case C_OPEN: return do_open("d/o", op->arg);
	case C_OPEN_LNK: return do_open("d/s", op->arg);
	case C_STAT: return rc(stat("d/o", &st));
	case C_LSTAT: return rc(lstat("d/o", &st));
	case C_FSTATAT:
		return rc(fstatat(fd, "o", &st, AT_SYMLINK_NOFOLLOW));
	case C_STAT_LNK: return rc(stat("d/s", &st));
	case C_ACCESS: return rc(access("d/o", op->arg));
	case C_FACCESSAT_E:
		return rc(faccessat(AT_FDCWD, "d/o", op->arg, AT_EACCESS));
	case C_READLINK: return rc(readlink("d/o", buf, sizeof(buf)));
	case C_READDIR: return do_readdir("d/o");
	case C_READDIR_LNK: return do_readdir("d/s/");
	case C_GETXATTR: return rc(getxattr("d/o", op->xattr, buf, sizeof(buf)));
	case C_SETXATTR:
		return rc(setxattr("d/o", op->xattr, xattr_value(op->xattr),
				   strlen(xattr_value(op->xattr)), 0));
	case C_REMOVEXATTR: return rc(removexattr("d/o", op->xattr));
	case C_LISTXATTR: return rc(listxattr("d/o", buf, sizeof(buf)));
	case C_CHMOD: return rc(chmod("d/o", 0640));
	/* chown to the subject itself: no change asked, only the checks */
	case C_CHOWN: return rc(chown("d/o", uid, GID_USERS));
	case C_TRUNCATE: return rc(truncate("d/o", 0));
	case C_UTIMES_NOW: return rc(utimensat(AT_FDCWD, "d/o", NULL, 0));
	case C_UTIMES_SET: return rc(utimensat(AT_FDCWD, "d/o", then, 0));
	case C_FLOCK: return rc(flock(fd, op->arg | LOCK_NB));
	case C_FCNTL_LOCK: return do_lock(fd, op->arg);
	case C_EXEC: return do_exec("d/o");
	case C_MMAP: return do_mmap(fd, op->arg);
	case C_CREATE: return do_open("d/n", O_WRONLY | O_CREAT | O_EXCL);
	case C_MKDIR: return rc(mkdir("d/n", 0777));
	case C_MKNOD: return rc(mknod("d/n", S_IFIFO | 0666, 0));
	/* without CAP_MKNOD: EPERM, after the directory's checks */
	case C_MKNOD_CHR: return rc(mknod("d/n", S_IFCHR | 0666,
					  makedev(1, 3)));
	case C_SYMLINK: return rc(symlink("o", "d/n"));
	case C_LINK_DIR: return rc(link("e/x", "d/n"));
	case C_LINK_OBJ: return rc(link("d/o", "e/n"));
	case C_UNLINK: return rc(unlink("d/o"));
	case C_RMDIR: return rc(rmdir("d/o"));
	case C_RENAME: return rc(rename("d/o", "e/n"));
	case C_RENAME_IN: return rc(rename("d/o", "d/n"));
	case C_RENAME_REPL: return rc(rename("d/o", "e/t"));
	/* the file's label is not observable: it has no name */
	case C_TMPFILE: return do_open("d", O_TMPFILE | op->arg);
	case C_RENAME_XCHG:
		return rc(renameat2(AT_FDCWD, "d/o", AT_FDCWD, "e/t",
				    RENAME_EXCHANGE));
	case C_RENAME_NOREPL:
		return rc(renameat2(AT_FDCWD, "d/o", AT_FDCWD,
				    op->flags & F_TARGET ? "e/t" : "e/n",
				    RENAME_NOREPLACE));
	case C_FTRUNCATE: return rc(ftruncate(fd, 0));
	case C_FALLOCATE: return rc(fallocate(fd, 0, 0, 4096));
	case C_COPY_RANGE: return do_copy_range(fd);
	case C_FCHMOD: return rc(fchmod(fd, 0640));
	case C_FCHOWN: return rc(fchown(fd, uid, GID_USERS));
	case C_FUTIMENS_NOW: return rc(futimens(fd, NULL));
	case C_FUTIMENS_SET: return rc(futimens(fd, then));
	case C_FSETXATTR:
		return rc(fsetxattr(fd, op->xattr, xattr_value(op->xattr),
				    strlen(xattr_value(op->xattr)), 0));
	case C_FGETXATTR:
		return rc(fgetxattr(fd, op->xattr, buf, sizeof(buf)));
	case C_CHDIR: return rc(chdir("d/o"));
	case C_FCHDIR: return rc(fchdir(fd));
	case C_STATFS: {
		struct statfs sfs;

		return rc(statfs("d/o", &sfs));
	}
	case C_FCNTL: return rc(fcntl(fd, op->arg, op->arg == F_SETOWN ?
					  (long)getpid() : (long)SIGUSR1));
	case C_OFD_LOCK: return do_lock_cmd(fd, F_OFD_SETLK, op->arg);
	case C_GETLK: return do_lock_cmd(fd, F_GETLK, op->arg);
	case C_OFD_GETLK: return do_lock_cmd(fd, F_OFD_GETLK, op->arg);
	case C_FSTAT: return rc(fstat(fd, &st));
	case C_STATX_EMPTY: {
		struct statx stx;

		return rc(statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS,
				&stx));
	}
	case C_GETDENTS: return rc(syscall(SYS_getdents64, fd, buf,
					   sizeof(buf)));
	case C_READ: return rc(read(fd, buf, sizeof(buf)));
	case C_WRITE: return rc(write(fd, "x", 1));
	case C_EXECVEAT: {
		char *const argv[] = { "o", NULL };
		char *const envp[] = { NULL };

		return rc(execveat(fd, "", argv, envp, AT_EMPTY_PATH));
	}
	}
	return EINVAL;
}

#define OP(n, r, k, f, pre, call, arg, rb) { n, r, k, f, pre, call, arg, NULL, rb }
#define XOP(n, f, call, x, rb) { n, R_OBJ, K_FILE, f, -1, call, 0, x, rb }
/* the xattr calls on a descriptor opened (as root) beforehand */
#define FXOP(n, f, call, x, rb) \
	{ n, R_OBJ, K_FILE, f, O_RDONLY, call, 0, x, rb }
static const struct op ops[] = {
	OP("open_r", R_OBJ, K_FILE, 0, -1, C_OPEN, O_RDONLY, NULL),
	OP("open_w", R_OBJ, K_FILE, 0, -1, C_OPEN, O_WRONLY, NULL),
	OP("open_rw", R_OBJ, K_FILE, 0, -1, C_OPEN, O_RDWR, NULL),
	OP("open_a", R_OBJ, K_FILE, 0, -1, C_OPEN, O_WRONLY | O_APPEND, NULL),
	OP("open_t", R_OBJ, K_FILE, 0, -1, C_OPEN, O_WRONLY | O_TRUNC, NULL),
	OP("open_rt", R_OBJ, K_FILE, 0, -1, C_OPEN, O_RDONLY | O_TRUNC, NULL),
	OP("open_rwt", R_OBJ, K_FILE, 0, -1, C_OPEN, O_RDWR | O_TRUNC, NULL),
	OP("open_dir", R_OBJ, K_DIR, 0, -1, C_OPEN, O_RDONLY | O_DIRECTORY, NULL),
	OP("open_path", R_OBJ, K_FILE, 0, -1, C_OPEN, O_PATH, NULL),
	OP("open_r.dir", R_DIR, K_FILE, 0, -1, C_OPEN, O_RDONLY, NULL),
	OP("stat", R_OBJ, K_FILE, 0, -1, C_STAT, 0, NULL),
	OP("stat.dir", R_DIR, K_FILE, 0, -1, C_STAT, 0, NULL),
	OP("lstat", R_OBJ, K_FILE, 0, -1, C_LSTAT, 0, NULL),
	OP("fstatat", R_OBJ, K_FILE, 0, -2, C_FSTATAT, 0, NULL),
	OP("access_f", R_OBJ, K_FILE, 0, -1, C_ACCESS, F_OK, NULL),
	OP("access_r", R_OBJ, K_FILE, 0, -1, C_ACCESS, R_OK, NULL),
	OP("access_w", R_OBJ, K_FILE, 0, -1, C_ACCESS, W_OK, NULL),
	OP("access_x", R_OBJ, K_EXE, 0, -1, C_ACCESS, X_OK, NULL),
	OP("access_rw", R_OBJ, K_FILE, 0, -1, C_ACCESS, R_OK | W_OK, NULL),
	OP("faccessat_e", R_OBJ, K_FILE, 0, -1, C_FACCESSAT_E, R_OK | W_OK, NULL),
	OP("readlink", R_OBJ, K_SYMLINK, 0, -1, C_READLINK, 0, NULL),
	OP("follow_stat.lnk", R_LNK, K_FILE, F_LINK, -1, C_STAT_LNK, 0, NULL),
	OP("follow_stat.obj", R_OBJ, K_FILE, F_LINK, -1, C_STAT_LNK, 0, NULL),
	OP("follow_open.lnk", R_LNK, K_FILE, F_LINK, -1, C_OPEN_LNK, O_RDONLY, NULL),
	OP("follow_open.obj", R_OBJ, K_FILE, F_LINK, -1, C_OPEN_LNK, O_RDONLY, NULL),
	OP("follow_readdir.lnk", R_LNK, K_DIR, F_LINK, -1, C_READDIR_LNK, 0, NULL),
	OP("follow_readdir.obj", R_OBJ, K_DIR, F_LINK, -1, C_READDIR_LNK, 0, NULL),
	OP("readdir", R_OBJ, K_DIR, 0, -1, C_READDIR, 0, NULL),
	XOP("getxattr_smack", 0, C_GETXATTR, XA_SMACK, NULL),
	XOP("getxattr_user", F_USERXA, C_GETXATTR, XA_USER, NULL),
	XOP("setxattr_user", F_OWNERS, C_SETXATTR, XA_USER, NULL),
	XOP("setxattr_smack", 0, C_SETXATTR, XA_SMACK, "d/o"),
	XOP("removexattr_user", F_USERXA, C_REMOVEXATTR, XA_USER, NULL),
	XOP("removexattr_smack", 0, C_REMOVEXATTR, XA_SMACK, "d/o"),
	XOP("listxattr", 0, C_LISTXATTR, NULL, NULL),
	OP("chmod", R_OBJ, K_FILE, F_OWNERS, -1, C_CHMOD, 0, NULL),
	OP("chown", R_OBJ, K_FILE, F_OWNERS, -1, C_CHOWN, 0, NULL),
	OP("truncate", R_OBJ, K_FILE, 0, -1, C_TRUNCATE, 0, NULL),
	OP("utimes_now", R_OBJ, K_FILE, F_OWNERS, -1, C_UTIMES_NOW, 0, NULL),
	OP("utimes_set", R_OBJ, K_FILE, F_OWNERS, -1, C_UTIMES_SET, 0, NULL),
	OP("flock_sh", R_OBJ, K_FILE, 0, O_RDONLY, C_FLOCK, LOCK_SH, NULL),
	OP("flock_ex", R_OBJ, K_FILE, 0, O_RDONLY, C_FLOCK, LOCK_EX, NULL),
	OP("fcntl_rd", R_OBJ, K_FILE, 0, O_RDWR, C_FCNTL_LOCK, F_RDLCK, NULL),
	OP("fcntl_wr", R_OBJ, K_FILE, 0, O_RDWR, C_FCNTL_LOCK, F_WRLCK, NULL),
	OP("exec", R_OBJ, K_EXE, 0, -1, C_EXEC, 0, NULL),
	OP("exec.execlabel", R_EXECL, K_EXE, 0, -1, C_EXEC, 0, NULL),
	OP("exec.mmaplabel", R_MMAPL, K_EXE, 0, -1, C_EXEC, 0, NULL),
	OP("mmap_r", R_OBJ, K_FILE, 0, O_RDONLY, C_MMAP, PROT_READ, NULL),
	OP("mmap_x", R_OBJ, K_FILE, 0, O_RDONLY, C_MMAP, PROT_READ | PROT_EXEC, NULL),
	OP("mmap_x.mmaplabel", R_MMAPL, K_FILE, 0, O_RDONLY, C_MMAP, PROT_READ | PROT_EXEC, NULL),
	OP("create", R_DIR, K_NONE, 0, -1, C_CREATE, 0, "d/n"),
	OP("create.tdir", R_DIR, K_NONE, F_TDIR, -1, C_CREATE, 0, "d/n"),
	OP("mkdir", R_DIR, K_NONE, 0, -1, C_MKDIR, 0, "d/n"),
	OP("mkdir.tdir", R_DIR, K_NONE, F_TDIR, -1, C_MKDIR, 0, "d/n"),
	OP("mknod", R_DIR, K_NONE, 0, -1, C_MKNOD, 0, "d/n"),
	OP("mknod.tdir", R_DIR, K_NONE, F_TDIR, -1, C_MKNOD, 0, "d/n"),
	OP("symlink", R_DIR, K_NONE, 0, -1, C_SYMLINK, 0, "d/n"),
	OP("symlink.tdir", R_DIR, K_NONE, F_TDIR, -1, C_SYMLINK, 0, "d/n"),
	OP("link.dir", R_DIR, K_NONE, F_SRCFILE, -1, C_LINK_DIR, 0, "d/n"),
	OP("link.obj", R_OBJ, K_FILE, F_OWNERS, -1, C_LINK_OBJ, 0, "e/n"),
	OP("unlink.dir", R_DIR, K_FILE, 0, -1, C_UNLINK, 0, NULL),
	OP("unlink.obj", R_OBJ, K_FILE, 0, -1, C_UNLINK, 0, NULL),
	OP("rmdir.dir", R_DIR, K_DIR, 0, -1, C_RMDIR, 0, NULL),
	OP("rmdir.obj", R_OBJ, K_DIR, 0, -1, C_RMDIR, 0, NULL),
	/* the directory's checks come before may_delete's own refusals
	 * (EISDIR, ENOTDIR, the sticky bit's EPERM) and CAP_MKNOD's */
	OP("unlink_isdir.dir", R_DIR, K_DIR, 0, -1, C_UNLINK, 0, NULL),
	OP("rmdir_notdir.dir", R_DIR, K_FILE, 0, -1, C_RMDIR, 0, NULL),
	OP("unlink_sticky.dir", R_DIR, K_FILE, F_STICKY, -1, C_UNLINK, 0,
	   NULL),
	OP("mknod_chr.dir", R_DIR, K_NONE, 0, -1, C_MKNOD_CHR, 0, "d/n"),
	OP("rename.src", R_DIR, K_FILE, 0, -1, C_RENAME, 0, "e/n"),
	OP("rename.dst", R_DST, K_FILE, 0, -1, C_RENAME, 0, "e/n"),
	OP("rename.obj", R_OBJ, K_FILE, 0, -1, C_RENAME, 0, "e/n"),
	OP("rename.repl", R_TGT, K_FILE, F_TARGET, -1, C_RENAME_REPL, 0, "e/t"),
	OP("rename.in", R_DIR, K_FILE, 0, -1, C_RENAME_IN, 0, "d/n"),
	OP("rename.tdir", R_DST, K_FILE, F_TDIR, -1, C_RENAME, 0, "e/n"),
	OP("rename_dir.obj", R_OBJ, K_DIR, 0, -1, C_RENAME, 0, "e/n"),
	OP("rename_dir.src", R_DIR, K_DIR, 0, -1, C_RENAME, 0, "e/n"),
	/* O_CREAT of an existing file: an open for its mode, no create */
	OP("open_rc", R_OBJ, K_FILE, 0, -1, C_OPEN, O_RDONLY | O_CREAT, NULL),
	OP("open_wc", R_OBJ, K_FILE, 0, -1, C_OPEN, O_WRONLY | O_CREAT, NULL),
	OP("open_rwc", R_OBJ, K_FILE, 0, -1, C_OPEN, O_RDWR | O_CREAT, NULL),
	OP("open_wct", R_OBJ, K_FILE, 0, -1, C_OPEN,
	   O_WRONLY | O_CREAT | O_TRUNC, NULL),
	OP("open_wc.dir", R_DIR, K_FILE, 0, -1, C_OPEN, O_WRONLY | O_CREAT,
	   NULL),
	OP("open_wcx.dir", R_DIR, K_FILE, 0, -1, C_OPEN,
	   O_WRONLY | O_CREAT | O_EXCL, NULL),
	OP("tmpfile", R_DIR, K_NONE, 0, -1, C_TMPFILE, O_WRONLY, NULL),
	OP("tmpfile_rw", R_DIR, K_NONE, 0, -1, C_TMPFILE, O_RDWR, NULL),
	/* e/t and d/o trade places: e/t's label says whether they did */
	OP("xchg.obj", R_OBJ, K_FILE, F_TARGET, -1, C_RENAME_XCHG, 0, "e/t"),
	OP("xchg.tgt", R_TGT, K_FILE, F_TARGET, -1, C_RENAME_XCHG, 0, "e/t"),
	OP("xchg.src", R_DIR, K_FILE, F_TARGET, -1, C_RENAME_XCHG, 0, "e/t"),
	OP("xchg.dst", R_DST, K_FILE, F_TARGET, -1, C_RENAME_XCHG, 0, "e/t"),
	OP("xchg_dir.obj", R_OBJ, K_DIR, F_TARGET, -1, C_RENAME_XCHG, 0,
	   "e/t"),
	OP("norepl.obj", R_OBJ, K_FILE, 0, -1, C_RENAME_NOREPL, 0, "e/n"),
	OP("norepl.dst", R_DST, K_FILE, 0, -1, C_RENAME_NOREPL, 0, "e/n"),
	OP("norepl.tgt", R_TGT, K_FILE, F_TARGET, -1, C_RENAME_NOREPL, 0,
	   "e/t"),
	OP("ftruncate", R_OBJ, K_FILE, 0, O_WRONLY, C_FTRUNCATE, 0, NULL),
	OP("fallocate", R_OBJ, K_FILE, 0, O_WRONLY, C_FALLOCATE, 0, NULL),
	OP("copy_range", R_OBJ, K_FILE, 0, O_RDWR, C_COPY_RANGE, 0, NULL),
	OP("fchmod", R_OBJ, K_FILE, F_OWNERS, O_RDONLY, C_FCHMOD, 0, NULL),
	OP("fchown", R_OBJ, K_FILE, F_OWNERS, O_RDONLY, C_FCHOWN, 0, NULL),
	OP("futimens_now", R_OBJ, K_FILE, F_OWNERS, O_RDONLY, C_FUTIMENS_NOW,
	   0, NULL),
	OP("futimens_set", R_OBJ, K_FILE, F_OWNERS, O_RDONLY, C_FUTIMENS_SET,
	   0, NULL),
	{ "setxattr_transmute", R_OBJ, K_DIR, 0, -1, C_SETXATTR, 0, XA_TRANS,
	  "d/o" },
	XOP("setxattr_exec", 0, C_SETXATTR, XA_EXEC, "d/o"),
	XOP("setxattr_mmap", 0, C_SETXATTR, XA_MMAP, "d/o"),
	FXOP("fsetxattr_user", F_OWNERS, C_FSETXATTR, XA_USER, NULL),
	FXOP("fsetxattr_smack", 0, C_FSETXATTR, XA_SMACK, "d/o"),
	FXOP("fgetxattr_smack", 0, C_FGETXATTR, XA_SMACK, NULL),
	FXOP("fgetxattr_user", F_USERXA, C_FGETXATTR, XA_USER, NULL),
	OP("chdir", R_OBJ, K_DIR, 0, -1, C_CHDIR, 0, NULL),
	OP("fchdir", R_OBJ, K_DIR, 0, O_PATH | O_DIRECTORY, C_FCHDIR, 0,
	   NULL),
	OP("statfs", R_OBJ, K_FILE, 0, -1, C_STATFS, 0, NULL),
	OP("fcntl_setown", R_OBJ, K_FILE, 0, O_RDONLY, C_FCNTL, F_SETOWN,
	   NULL),
	OP("fcntl_setsig", R_OBJ, K_FILE, 0, O_RDONLY, C_FCNTL, F_SETSIG,
	   NULL),
	OP("ofd_rd", R_OBJ, K_FILE, 0, O_RDWR, C_OFD_LOCK, F_RDLCK, NULL),
	OP("ofd_wr", R_OBJ, K_FILE, 0, O_RDWR, C_OFD_LOCK, F_WRLCK, NULL),
	OP("getlk_wr", R_OBJ, K_FILE, 0, O_RDWR, C_GETLK, F_WRLCK, NULL),
	OP("ofd_getlk_wr", R_OBJ, K_FILE, 0, O_RDWR, C_OFD_GETLK, F_WRLCK,
	   NULL),
	/* calls on a descriptor the subject could not have opened itself */
	OP("fstat", R_OBJ, K_FILE, 0, O_RDONLY, C_FSTAT, 0, NULL),
	OP("fstat_path", R_OBJ, K_FILE, 0, O_PATH, C_FSTAT, 0, NULL),
	OP("statx_empty", R_OBJ, K_FILE, 0, O_PATH, C_STATX_EMPTY, 0, NULL),
	OP("getdents", R_OBJ, K_DIR, 0, O_RDONLY | O_DIRECTORY, C_GETDENTS, 0,
	   NULL),
	OP("read", R_OBJ, K_FILE, 0, O_RDONLY, C_READ, 0, NULL),
	OP("write", R_OBJ, K_FILE, 0, O_WRONLY, C_WRITE, 0, NULL),
	OP("execveat", R_OBJ, K_EXE, 0, O_PATH, C_EXECVEAT, 0, NULL),
};
#define NOPS ((int)(sizeof(ops) / sizeof(ops[0])))

/* ---- fixtures, made as root in BACKING */

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("fs-matrix: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputs("\n", stderr);
	va_end(ap);
	exit(1);
}

static void xlabel(const char *path, const char *name, const char *val)
{
	if (lsetxattr(path, name, val, strlen(val), 0))
		die("setxattr %s %s=%s: %s", path, name, val, strerror(errno));
}

static void xdir(const char *path, const char *label, bool transmute)
{
	if (mkdir(path, 0777))
		die("mkdir %s: %s", path, strerror(errno));
	xlabel(path, XA_SMACK, label);
	if (transmute)
		xlabel(path, XA_TRANS, "TRUE");
}

/* A complete x86-64 program that exits 0: one ELF header, one loadable
 * segment, three instructions.  Exec cases need no libc in the tree. */
static const unsigned char exit0_code[] = {
	0xb8, 0x3c, 0x00, 0x00, 0x00,	/* mov $60, %eax (exit) */
	0x31, 0xff,			/* xor %edi, %edi */
	0x0f, 0x05,			/* syscall */
};

static void write_exit0(int fd)
{
	size_t hdr = sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr);
	size_t size = hdr + sizeof(exit0_code);
	Elf64_Ehdr eh = {
		.e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64,
			     ELFDATA2LSB, EV_CURRENT },
		.e_type = ET_EXEC, .e_machine = EM_X86_64,
		.e_version = EV_CURRENT, .e_entry = 0x400000 + hdr,
		.e_phoff = sizeof(Elf64_Ehdr), .e_ehsize = sizeof(Elf64_Ehdr),
		.e_phentsize = sizeof(Elf64_Phdr), .e_phnum = 1,
	};
	Elf64_Phdr ph = {
		.p_type = PT_LOAD, .p_flags = PF_R | PF_X,
		.p_vaddr = 0x400000, .p_paddr = 0x400000,
		.p_filesz = size, .p_memsz = size, .p_align = 0x1000,
	};

	if (write(fd, &eh, sizeof(eh)) != sizeof(eh) ||
	    write(fd, &ph, sizeof(ph)) != sizeof(ph) ||
	    write(fd, exit0_code, sizeof(exit0_code)) != sizeof(exit0_code))
		die("write exit0: %s", strerror(errno));
}

static void xfile(const char *path, const char *label, uid_t owner,
		  bool exe)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0666);

	if (fd < 0)
		die("create %s: %s", path, strerror(errno));
	if (exe)
		write_exit0(fd);
	else if (write(fd, "data\n", 5) != 5)
		die("write %s: %s", path, strerror(errno));
	if (exe && fchmod(fd, 0777))
		die("chmod %s: %s", path, strerror(errno));
	if (fchown(fd, owner, GID_USERS))
		die("chmod/chown %s: %s", path, strerror(errno));
	close(fd);
	xlabel(path, XA_SMACK, label);
}

static void xsymlink(const char *target, const char *path, const char *label,
		     uid_t owner)
{
	if (symlink(target, path) || lchown(path, owner, GID_USERS))
		die("symlink %s: %s", path, strerror(errno));
	xlabel(path, XA_SMACK, label);
}

static const char *label_of(const struct subject *s, const char *l)
{
	return strcmp(l, "self") ? l : s->label;
}

static bool needs_e(const struct op *op)
{
	return op->role == R_DST || op->flags & (F_TARGET | F_SRCFILE) ||
	       op->call == C_LINK_OBJ || op->call == C_RENAME ||
	       op->call == C_RENAME_NOREPL;
}

/* The objects of one case in BACKING/c<n>; L is the case's label. */
static void fixture(const char *base, const struct op *op,
		    const struct subject *s, const char *L, uid_t owner)
{
	const char *dl = op->role == R_DIR ? L : "*";
	const char *ol = op->role == R_OBJ ? L : "*";
	char p[4096];

	xdir(base, "*", false);
	snprintf(p, sizeof(p), "%s/d", base);
	xdir(p, dl, op->flags & F_TDIR && op->role == R_DIR);
	if (op->flags & F_STICKY) {
		if (chmod(p, 01777))
			die("chmod %s: %s", p, strerror(errno));
		owner = UID_OTHER;
	}
	if (needs_e(op)) {
		snprintf(p, sizeof(p), "%s/e", base);
		xdir(p, op->role == R_DST ? L : "*",
		     op->flags & F_TDIR && op->role == R_DST);
	}
	snprintf(p, sizeof(p), "%s/d/o", base);
	switch (op->okind) {
	case K_NONE:
		break;
	case K_FILE:
	case K_EXE:
		xfile(p, ol, owner, op->okind == K_EXE);
		break;
	case K_DIR:
		xdir(p, ol, false);
		if (lchown(p, owner, GID_USERS))
			die("chown %s: %s", p, strerror(errno));
		break;
	case K_SYMLINK:
		xsymlink("x", p, ol, owner);
		break;
	}
	if (op->role == R_EXECL)
		xlabel(p, XA_EXEC, L);
	if (op->role == R_MMAPL)
		xlabel(p, XA_MMAP, L);
	if (op->flags & F_USERXA)
		xlabel(p, XA_USER, "v");
	if (op->flags & F_LINK) {
		snprintf(p, sizeof(p), "%s/d/s", base);
		xsymlink("o", p, op->role == R_LNK ? L : "*", s->uid);
	}
	if (op->flags & F_TARGET) {
		snprintf(p, sizeof(p), "%s/e/t", base);
		xfile(p, op->role == R_TGT ? L : "*", s->uid, false);
	}
	if (op->flags & F_SRCFILE) {
		snprintf(p, sizeof(p), "%s/e/x", base);
		xfile(p, "*", s->uid, false);
	}
}

/* ---- running one case */

/* Where a child writes its label: none (the users map decides), smackfs'
 * /proc/self/attr/current (--smack) or smackfuse.ko's file (--kmod). */
static const char *label_file;
static char child_stack[256 * 1024] __attribute__((aligned(16)));

struct child_args {
	const char *dir;
	const struct op *op;
	const struct subject *s;
};

/* Keep CAP_MAC_OVERRIDE and CAP_MAC_ADMIN (only) across the setuid that
 * follows: as root, keep the permitted set; the caller drops uid. */
static int keep_smack_caps(void)
{
	return prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0);
}

/* After the setuid: make those two effective, and nothing else left. */
static int raise_smack_caps(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2] = { { 0 } };
	const __u32 bits = 1U << (CAP_MAC_OVERRIDE - 32) |
			   1U << (CAP_MAC_ADMIN - 32);

	d[1].effective = bits;
	d[1].permitted = bits;
	return syscall(SYS_capset, &h, d);
}

/* In the child: become the subject, then make the call.  The child shares
 * the parent's memory (CLONE_VM | CLONE_VFORK, the parent waits): a fork
 * per case costs four times as much under qemu's TCG. */
static int child(void *arg)
{
	const struct child_args *a = arg;
	const char *dir = a->dir;
	const struct op *op = a->op;
	const struct subject *s = a->s;
	int pre = -1;

	if (label_file) {
		int fd = open(label_file, O_WRONLY);
		if (fd < 0 || write(fd, s->label, strlen(s->label)) < 0)
			return EXIT_SETUP;
		close(fd);
	}
	if (chdir(dir))
		return EXIT_SETUP;
	if (op->preopen == -2)
		pre = open("d", O_PATH | O_DIRECTORY);
	else if (op->preopen >= 0)
		pre = open("d/o", op->preopen);
	if (op->preopen != -1 && pre < 0)
		return EXIT_SETUP;
	/* raw system calls: glibc's would act on the whole "process" */
	if (s->smack_privileged && keep_smack_caps())
		return EXIT_SETUP;
	if (syscall(SYS_setgroups, 0, NULL) ||
	    syscall(SYS_setgid, GID_USERS) || syscall(SYS_setuid, s->uid))
		return EXIT_SETUP;
	if (s->smack_privileged && raise_smack_caps())
		return EXIT_SETUP;
	alarm(CASE_TIMEOUT);
	return do_call(op, pre, s->uid);
}

static void result_name(int status, char *buf, size_t len)
{
	const char *n;

	if (WIFSIGNALED(status)) {
		n = sigabbrev_np(WTERMSIG(status));
		snprintf(buf, len, "SIG%s", n ? n : "?");
	} else if (WEXITSTATUS(status) == 0) {
		snprintf(buf, len, "OK");
	} else if (WEXITSTATUS(status) == EXIT_SETUP) {
		snprintf(buf, len, "SETUP-FAILED");
	} else {
		n = strerrorname_np(WEXITSTATUS(status));
		if (n)
			snprintf(buf, len, "%s", n);
		else
			snprintf(buf, len, "E%d", WEXITSTATUS(status));
	}
}

/* ":label[+T]" of a backing object, ":none" when there is none. */
static void readback(const char *path, char *buf, size_t len)
{
	char v[300];
	ssize_t n;
	struct stat st;

	if (lstat(path, &st)) {
		snprintf(buf, len, ":none");
		return;
	}
	n = lgetxattr(path, XA_SMACK, v, sizeof(v) - 1);
	v[n < 0 ? 0 : n] = '\0';
	snprintf(buf, len, ":%s%s", n < 0 ? "unlabelled" : v,
		 lgetxattr(path, XA_TRANS, NULL, 0) > 0 ? "+T" : "");
}

static void run_case(int n, const char *backing, const char *view,
		     const struct op *op, const struct subject *s,
		     const char *lab, bool other)
{
	char base[1024], vdir[1024], res[64], lb[400] = "";
	const char *L = label_of(s, lab);
	struct child_args args = { vdir, op, s };
	int status;
	pid_t pid;

	snprintf(base, sizeof(base), "%s/c%d", backing, n);
	snprintf(vdir, sizeof(vdir), "%s/c%d", view, n);
	fixture(base, op, s, L, other ? UID_OTHER : s->uid);
	fflush(stdout);
	pid = clone(child, child_stack + sizeof(child_stack),
		    CLONE_VM | CLONE_VFORK | SIGCHLD, &args);
	if (pid < 0)
		die("clone: %s", strerror(errno));
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid: %s", strerror(errno));
	result_name(status, res, sizeof(res));
	if (op->readback) {
		char p[2048];

		snprintf(p, sizeof(p), "%s/%s", base, op->readback);
		readback(p, lb, sizeof(lb));
		/* A removed SMACK64: the Smack kernel's getxattr shows the
		 * label the inode now has, its mount's default (floor here:
		 * smack_inode_removexattr), and the disk keeps none; a
		 * smackfuse mount's backing tree shows the disk, and a file
		 * without SMACK64 has the mount's default label, floor in
		 * every lane.  Both say what the object has. */
		if (op->call == C_REMOVEXATTR && !strcmp(op->xattr, XA_SMACK) &&
		    !strcmp(lb, ":unlabelled"))
			snprintf(lb, sizeof(lb), ":_");
	}
	printf("@case %s/%s/%s%s %s%s\n", op->name, s->name, lab,
	       other ? "/other" : "", res, lb);
}

/* The kernel refuses * and @ as SMACK64EXEC and SMACK64MMAP (EINVAL):
 * no such object can exist there. */
static bool impossible(const struct op *op, const char *lab)
{
	return (op->role == R_EXECL || op->role == R_MMAPL) &&
	       (!strcmp(lab, "*") || !strcmp(lab, "@"));
}

/* The user.* xattr cases want a file system that has them. */
static bool user_xattr_op(const struct op *op)
{
	return op->xattr && !strcmp(op->xattr, XA_USER);
}

static bool has_user_xattrs(const char *dir)
{
	char p[1024];
	bool ok;
	int fd;

	snprintf(p, sizeof(p), "%s/.user-xattr-probe", dir);
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		die("create %s: %s", p, strerror(errno));
	ok = fsetxattr(fd, XA_USER, "v", 1, 0) == 0;
	close(fd);
	unlink(p);
	return ok;
}

/* A tree's root: the way in to every case, search and read for everyone. */
static void tree_root(const char *backing, const char *view)
{
	if (strlen(backing) > 900 || strlen(view) > 900)
		die("paths too long");
	if (chmod(backing, 0755))
		die("chmod %s: %s", backing, strerror(errno));
	xlabel(backing, XA_SMACK, "*");
}

/*
 * Every case, in BACKING/VIEW; the user.* xattr cases in XBACKING/XVIEW
 * when given (a file system with user.* xattrs: tmpfs has none before
 * 6.6).  Where they would go must have them: an answer of the file
 * system is not compared as Smack's.
 */
static int run(const char *backing, const char *view, const char *xbacking,
	       const char *xview)
{
	int n = 0, i, j, k, w;

	umask(0);
	tree_root(backing, view);
	if (xbacking)
		tree_root(xbacking, xview);
	else
		xbacking = backing, xview = view;
	if (!has_user_xattrs(xbacking))
		die("%s has no user.* xattrs: give a tree that has "
		    "(--user-xattrs BACKING VIEW)", xbacking);
	for (i = 0; i < NOPS; i++)
		for (j = 0; j < NSUBJECTS; j++)
			for (k = 0; k < subjects[j].nlabels; k++)
				for (w = 0; w <= (ops[i].flags & F_OWNERS) &&
				     !impossible(&ops[i], labels[k]); w++)
					run_case(n++, user_xattr_op(&ops[i]) ?
						 xbacking : backing,
						 user_xattr_op(&ops[i]) ?
						 xview : view, &ops[i],
						 &subjects[j], labels[k], w);
	fflush(stdout);
	fprintf(stderr, "fs-matrix: %d cases\n", n);
	return 0;
}

static int print_rules(void)
{
	int j, k;

	for (j = 0; j < NSUBJECTS; j++) {
		if (subjects[j].nlabels <= NBASIC)
			continue;
		for (k = NBASIC; k < NLABELS; k++)
			printf("%s %s %s\n", subjects[j].label, labels[k],
			       labels[k] + 1);
	}
	for (j = 0; j < (int)(sizeof(extra_rules) / sizeof(*extra_rules)); j++)
		printf("%s\n", extra_rules[j]);
	return 0;
}

/* ---- comparing two runs (casediff.c) */

static const char *const fs_not_run[] = { "SETUP-FAILED", NULL };

/* The cases come op by op (run()'s outer loop): points as each op ends. */
static const struct casediff_spec fs_diff = {
	.name = "fs-matrix",
	.other = "smackfuse",
	.other_at = "through smackfuse",
	.other_column = "SMACKFUSE",
	.examples = 5,
	.op_runs = true,
	.not_run = fs_not_run,
};

int main(int argc, char **argv)
{
	int i = 1;

	if (argc == 2 && !strcmp(argv[1], "rules"))
		return print_rules();
	if (argc >= 4 && !strcmp(argv[1], "run")) {
		const char *xb = NULL, *xv = NULL;

		if (!strcmp(argv[2], "--smack"))
			label_file = "/proc/self/attr/current";
		else if (!strcmp(argv[2], "--kmod"))
			label_file = "/sys/kernel/security/smackfuse/current";
		if (label_file)
			i++;
		if (argc > i + 3 && !strcmp(argv[i + 1], "--user-xattrs")) {
			xb = argv[i + 2];
			xv = argv[i + 3];
			i += 3;
		}
		if (argc == i + 3)
			return run(argv[i + 1], argv[i + 2], xb, xv);
	}
	if (argc >= 2 && !strcmp(argv[1], "compare"))
		return casediff_main(&fs_diff, argc - 1, argv + 1);
	fputs("usage: fs-matrix rules |\n"
	      "       run [--smack|--kmod] [--user-xattrs XBACKING XVIEW] BACKING VIEW |\n"
	      "       compare --lane LANE [--no-module] KERNEL OTHER ALLOW BUGS\n",
	      stderr);
	return 2;
}
