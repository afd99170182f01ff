// SPDX-License-Identifier: GPL-2.0-only
/*
 * as.c - run ONE system call as another user and print its errno name.
 *
 *   as [-u UMASK] [-c] USER OP ARGS...
 *
 * USER is a user name, "root", or UID:GID.  A user name also gets its
 * supplementary groups (initgroups).  Changing to a non-zero uid clears
 * every capability; -c also drops all capabilities when staying root.
 * The call runs with umask 022, or UMASK (octal).
 *
 * The first line printed is "OK" or the errno name ("EACCES", "EPERM",
 * ...), so tests compare errno names exactly.  Operations that return
 * data print it on the following lines.  The exit status is 0 whenever
 * the call was made (whatever its result), 2 on a usage error.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/openat2.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

static void usage(void)
{
	fputs("usage: as [-u UMASK] [-c] USER OP ARGS...\n"
	      "ops: open PATH FLAGS [MODE] | read PATH | write PATH DATA |\n"
	      "  append PATH DATA | mmapwrite PATH DATA | mmap PATH|fd:N [rwx] |\n"
	      "  create PATH MODE | stat PATH | lstat PATH |\n"
	      "  mtime PATH | mkdir PATH MODE | rmdir PATH | unlink PATH |\n"
	      "  rename OLD NEW [noreplace|exchange] | link OLD NEW |\n"
	      "  symlink TARGET PATH | readlink PATH |\n"
	      "  mknod PATH fifo|reg|sock|chr|blk MODE [MAJ MIN] |\n"
	      "  setxattr PATH NAME VALUE [create|replace] | getxattr PATH NAME |\n"
	      "  lgetxattr PATH NAME | listxattr PATH [PREFIX] | removexattr PATH NAME |\n"
	      "  truncate PATH LEN | ftruncate PATH LEN | chmod PATH MODE |\n"
	      "  chown PATH UID GID | lchown PATH UID GID |\n"
	      "  utimens PATH ATIME MTIME | futimens PATH ATIME MTIME |\n"
	      "  fchmod PATH MODE | flock PATH sh|ex |\n"
	      "  lock PATH rd|wr|getrd | ofdclose PATH | setown PATH |\n"
	      "  exec PATH [ARGS] |\n"
	      "  run PATH [ARGS] |\n"
	      "  access PATH [rwxf] |\n"
	      "  readdir PATH | copy SRC DST | copyinto SRC DST |\n"
	      "  fallocate PATH OFF LEN [keep|punch|zero] | pwrite PATH DATA OFF |\n"
	      "  mkfile PATH MODE UID GID | times PATH | setcap PATH |\n"
	      "  mmaptimes PATH | atime PATH | rereadatime PATH |\n"
	      "  setfacl PATH access|default u::rwx,u:UID:r-x,g::...,m::...,o::... |\n"
	      "  getfacl PATH access|default [FLAGS: fgetxattr on an open] |\n"
	      "  statfs PATH | fsync PATH | fsyncdir PATH | chdir PATH |\n"
	      "  seek PATH data|hole OFF | tmpfile DIR MODE [LINKNAME DATA] |\n"
	      "  procfd PATH FLAGS | openat2 DIR NAME FLAGS | openmany DIR N |\n"
	      "  mktree DIR N | fill PATH BYTES | fstat PATH | inotify PATH |\n"
	      "  connect PATH\n", stderr);
	exit(2);
}

static int result(int r)
{
	const char *name;

	if (r >= 0) {
		puts("OK");
		return 0;
	}
	name = strerrorname_np(errno);
	if (name)
		puts(name);
	else
		printf("E%d\n", errno);
	return 0;
}

static int drop_caps(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	return (int)syscall(SYS_capset, &h, d);
}

static int become(const char *spec)
{
	struct passwd *pw;
	uid_t uid;
	gid_t gid;

	if (!strcmp(spec, "root"))
		return 0;
	pw = getpwnam(spec);
	if (pw) {
		uid = pw->pw_uid;
		gid = pw->pw_gid;
		if (initgroups(pw->pw_name, gid))
			return -1;
	} else {
		unsigned int u, g;

		if (sscanf(spec, "%u:%u", &u, &g) != 2) {
			fprintf(stderr, "as: unknown user %s\n", spec);
			exit(2);
		}
		uid = u;
		gid = g;
		if (setgroups(0, NULL))
			return -1;
	}
	if (setresgid(gid, gid, gid) || setresuid(uid, uid, uid))
		return -1;
	return 0;
}

static int parse_flags(const char *s)
{
	static const struct { const char *n; int v; } tab[] = {
		{ "O_RDONLY", O_RDONLY }, { "O_WRONLY", O_WRONLY },
		{ "O_RDWR", O_RDWR }, { "O_CREAT", O_CREAT },
		{ "O_EXCL", O_EXCL }, { "O_TRUNC", O_TRUNC },
		{ "O_APPEND", O_APPEND }, { "O_DIRECTORY", O_DIRECTORY },
		{ "O_NOFOLLOW", O_NOFOLLOW }, { "O_PATH", O_PATH },
		{ "O_TMPFILE", O_TMPFILE }, { "O_NONBLOCK", O_NONBLOCK },
		{ "O_SYNC", O_SYNC }, { "O_NOATIME", O_NOATIME },
	};
	char buf[256], *tok, *save = NULL;
	int flags = 0;
	size_t i;

	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, "|,", &save); tok;
	     tok = strtok_r(NULL, "|,", &save)) {
		for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
			if (!strcmp(tok, tab[i].n))
				break;
		if (i == sizeof(tab) / sizeof(tab[0])) {
			fprintf(stderr, "as: unknown flag %s\n", tok);
			exit(2);
		}
		flags |= tab[i].v;
	}
	return flags;
}

static unsigned long num(const char *s, int base)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, base);
	if (errno || *end || end == s) {
		fprintf(stderr, "as: bad number %s\n", s);
		exit(2);
	}
	return v;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int op_readdir(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, i;

	if (!d)
		return result(-1);
	errno = 0;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		names = realloc(names, (n + 1) * sizeof(*names));
		if (!names)
			exit(3);
		names[n++] = strdup(de->d_name);
	}
	if (errno) {
		closedir(d);
		return result(-1);
	}
	closedir(d);
	result(0);
	qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++)
		puts(names[i]);
	return 0;
}

static int op_stat(const char *path, int follow)
{
	struct stat st;
	int r = follow ? stat(path, &st) : lstat(path, &st);

	if (r)
		return result(-1);
	result(0);
	printf("mode=%06o uid=%u gid=%u size=%lld nlink=%lu\n",
	       (unsigned int)st.st_mode, st.st_uid, st.st_gid,
	       (long long)st.st_size, (unsigned long)st.st_nlink);
	return 0;
}

static int op_read(const char *path)
{
	char buf[65536];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return result(-1);
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0)
		return result(-1);
	close(fd);
	buf[n] = '\0';
	result(0);
	fputs(buf, stdout);
	if (n && buf[n - 1] != '\n')
		putchar('\n');
	return 0;
}

static int op_write(const char *path, const char *data, int flags)
{
	int fd = open(path, O_WRONLY | flags);
	ssize_t n;

	if (fd < 0)
		return result(-1);
	n = write(fd, data, strlen(data));
	if (n < 0)
		return result(-1);
	return result(close(fd));
}

/* Write DATA at offset 0 through a shared writable mapping. */
static int op_mmapwrite(const char *path, const char *data)
{
	size_t len = strlen(data);
	int fd = open(path, O_RDWR);
	char *p;

	if (fd < 0)
		return result(-1);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return result(-1);
	memcpy(p, data, len);
	if (msync(p, len, MS_SYNC) || munmap(p, len))
		return result(-1);
	return result(close(fd));
}

/*
 * mmap PATH [rwx]: open PATH read-only (its failure is printed as well),
 * or take the inherited descriptor N for "fd:N", then map its first page
 * MAP_PRIVATE with PROT_READ, PROT_WRITE and PROT_EXEC as the letters say
 * (default "rx"), and print the errno of mmap(2).
 */
static int op_mmap(const char *path, const char *mode)
{
	int prot = 0, fd;
	void *p;

	for (; *mode; mode++) {
		if (*mode == 'r')
			prot |= PROT_READ;
		else if (*mode == 'w')
			prot |= PROT_WRITE;
		else if (*mode == 'x')
			prot |= PROT_EXEC;
		else
			usage();
	}
	if (!strncmp(path, "fd:", 3))
		fd = atoi(path + 3);
	else
		fd = open(path, O_RDONLY);
	if (fd < 0)
		return result(-1);
	p = mmap(NULL, 4096, prot, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return result(-1);
	munmap(p, 4096);
	return result(close(fd));
}

static int op_getxattr(const char *path, const char *name, int follow)
{
	char buf[4096];
	ssize_t n = follow ? getxattr(path, name, buf, sizeof(buf) - 1) :
		lgetxattr(path, name, buf, sizeof(buf) - 1);

	if (n < 0)
		return result(-1);
	buf[n] = '\0';
	result(0);
	puts(buf);
	return 0;
}

static int op_listxattr(const char *path, const char *prefix)
{
	char buf[8192], *p, *names[256];
	ssize_t n = llistxattr(path, buf, sizeof(buf));
	size_t k = 0, i;

	if (n < 0)
		return result(-1);
	result(0);
	for (p = buf; p < buf + n && k < 256; p += strlen(p) + 1)
		if (!prefix || !strncmp(p, prefix, strlen(prefix)))
			names[k++] = p;
	qsort(names, k, sizeof(*names), cmp_str);
	for (i = 0; i < k; i++)
		puts(names[i]);
	return 0;
}

/* @kind: rd or wr takes that lock (F_SETLK), getrd tests for a read
 * lock (F_GETLK). */
static int op_lock(const char *path, const char *kind)
{
	struct flock fl = { .l_whence = SEEK_SET, .l_start = 0, .l_len = 0 };
	int get = !strcmp(kind, "getrd");
	int rd = get || !strcmp(kind, "rd");
	int fd = open(path, rd ? O_RDONLY : O_WRONLY);

	if (fd < 0)
		return result(-1);
	fl.l_type = rd ? F_RDLCK : F_WRLCK;
	return result(fcntl(fd, get ? F_GETLK : F_SETLK, &fl));
}

/* fcntl(F_SETOWN, self) on PATH opened for reading. */
static int op_setown(const char *path)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return result(-1);
	return result(fcntl(fd, F_SETOWN, getpid()));
}

static int op_flock(const char *path, const char *kind)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return result(-1);
	return result(flock(fd, (!strcmp(kind, "ex") ? LOCK_EX : LOCK_SH) |
			    LOCK_NB));
}

/* An OFD write lock taken through one open file, which is then closed:
 * another open file must find the range free (F_OFD_GETLK) and take it.
 * Prints the first failure's errno, or OK. */
static int op_ofdclose(const char *path)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	int fd = open(path, O_RDWR);

	if (fd < 0 || fcntl(fd, F_OFD_SETLK, &fl))
		return result(-1);
	close(fd);
	fd = open(path, O_RDWR);
	if (fd < 0 || fcntl(fd, F_OFD_GETLK, &fl))
		return result(-1);
	if (fl.l_type != F_UNLCK) {
		errno = EAGAIN;
		return result(-1);
	}
	fl.l_type = F_WRLCK;
	return result(fcntl(fd, F_OFD_SETLK, &fl));
}

/* execve in a child; report the errno of the execve itself. */
static int op_exec(char **argv)
{
	int p[2], err = 0, status;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return result(-1);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return result(-1);
	if (pid == 0) {
		char *envp[] = { "PATH=/usr/bin:/bin", NULL };

		close(p[0]);
		execve(argv[0], argv, envp);
		err = errno;
		if (write(p[1], &err, sizeof(err)) < 0)
			_exit(126);
		_exit(127);
	}
	close(p[1]);
	if (read(p[0], &err, sizeof(err)) != sizeof(err))
		err = 0;
	waitpid(pid, &status, 0);
	if (err) {
		errno = err;
		return result(-1);
	}
	return result(0);
}

/* run PATH [ARGS]: exec as op_exec, then wait for the program: a second
 * line "exit N" or "signal NAME" tells whether it ran, or died on the way
 * (mainline kills an exec whose program cannot be mapped: SIGSEGV). */
static int op_run(char **argv)
{
	int p[2], err = 0, status;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return result(-1);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return result(-1);
	if (pid == 0) {
		char *envp[] = { "PATH=/usr/bin:/bin", NULL };

		close(p[0]);
		execve(argv[0], argv, envp);
		err = errno;
		if (write(p[1], &err, sizeof(err)) < 0)
			_exit(126);
		_exit(127);
	}
	close(p[1]);
	if (read(p[0], &err, sizeof(err)) != sizeof(err))
		err = 0;
	if (waitpid(pid, &status, 0) < 0)
		return result(-1);
	if (err) {
		errno = err;
		return result(-1);
	}
	result(0);
	if (WIFSIGNALED(status))
		printf("signal SIG%s\n", sigabbrev_np(WTERMSIG(status)) ?
		       sigabbrev_np(WTERMSIG(status)) : "?");
	else
		printf("exit %d\n", WEXITSTATUS(status));
	return 0;
}

/* fstat PATH: fstat(2) of an O_PATH descriptor (no permission check
 * opens it, so only ->getattr is asked). */
static int op_fstat(const char *path)
{
	struct stat st;
	int fd = open(path, O_PATH);

	if (fd < 0)
		return result(-1);
	return result(fstat(fd, &st));
}

/* inotify PATH: inotify_add_watch(2), which wants read of PATH. */
static int op_inotify(const char *path)
{
	int fd = inotify_init1(IN_CLOEXEC);

	if (fd < 0)
		return result(-1);
	return result(inotify_add_watch(fd, path, IN_ACCESS) < 0 ? -1 : 0);
}

/* connect PATH: connect(2) to a Unix socket file, which wants write. */
static int op_connect(const char *path)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || strlen(path) >= sizeof(sun.sun_path))
		return result(-1);
	strcpy(sun.sun_path, path);
	return result(connect(fd, (struct sockaddr *)&sun, sizeof(sun)));
}

static int op_access(const char *path, const char *how)
{
	int mode = 0;

	for (; *how; how++) {
		if (*how == 'r')
			mode |= R_OK;
		else if (*how == 'w')
			mode |= W_OK;
		else if (*how == 'x')
			mode |= X_OK;
	}
	return result(access(path, mode));
}

static int op_copy(const char *src, const char *dst)
{
	int in = open(src, O_RDONLY), out;
	ssize_t n;

	if (in < 0)
		return result(-1);
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0)
		return result(-1);
	do {
		n = copy_file_range(in, NULL, out, NULL, 1 << 20, 0);
	} while (n > 0);
	if (n < 0)
		return result(-1);
	return result(close(out));
}

/* copy_file_range of all of SRC into the existing DST, from offset 0,
 * without truncating it. */
static int op_copyinto(const char *src, const char *dst)
{
	int in = open(src, O_RDONLY), out;
	ssize_t n;

	if (in < 0)
		return result(-1);
	out = open(dst, O_WRONLY);
	if (out < 0)
		return result(-1);
	do {
		n = copy_file_range(in, NULL, out, NULL, 1 << 20, 0);
	} while (n > 0);
	if (n < 0)
		return result(-1);
	return result(close(out));
}

/* fallocate PATH OFF LEN [keep|punch|zero]: FALLOC_FL_* of the name. */
static int op_fallocate(char **a, int n)
{
	int mode = 0, fd;

	if (n > 3 && !strcmp(a[3], "keep"))
		mode = FALLOC_FL_KEEP_SIZE;
	else if (n > 3 && !strcmp(a[3], "punch"))
		mode = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE;
	else if (n > 3 && !strcmp(a[3], "zero"))
		mode = FALLOC_FL_ZERO_RANGE;
	else if (n > 3)
		usage();
	fd = open(a[0], O_WRONLY);
	if (fd < 0)
		return result(-1);
	return result(fallocate(fd, mode, (off_t)num(a[1], 0),
				(off_t)num(a[2], 0)));
}

/* mkfile PATH MODE UID GID: PATH created or truncated, 8 KiB written,
 * then owned and moded as given (what a set-ID case starts from). */
static int op_mkfile(char **a)
{
	char buf[8192];
	int fd = open(a[0], O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		return result(-1);
	memset(buf, 'm', sizeof(buf));
	if (write(fd, buf, sizeof(buf)) != sizeof(buf) ||
	    fchown(fd, (uid_t)num(a[2], 10), (gid_t)num(a[3], 10)) ||
	    fchmod(fd, (mode_t)num(a[1], 8)))
		return result(-1);
	return result(close(fd));
}

/* Have PATH's mtime and ctime moved past @was? */
static void times_moved(const char *path, const char *when,
			const struct stat *was)
{
	struct stat st;

	if (stat(path, &st)) {
		printf("%s: stat %s\n", when, strerrorname_np(errno));
		return;
	}
	printf("%s: mtime %s ctime %s\n", when,
	       st.st_mtim.tv_sec != was->st_mtim.tv_sec ||
	       st.st_mtim.tv_nsec != was->st_mtim.tv_nsec ? "moved" : "same",
	       st.st_ctim.tv_sec != was->st_ctim.tv_sec ||
	       st.st_ctim.tv_nsec != was->st_ctim.tv_nsec ? "moved" : "same");
}

/*
 * mmaptimes PATH: write the first byte of PATH through a shared mapping,
 * then msync, munmap; after each, whether stat(2) shows new times (with
 * a stat just before the write, as a program that looked first).  The
 * writes are plain stores, not read-modify-writes: qemu's TCG makes the
 * read of an x86 read-modify-write fault first, and tmpfs, which asks
 * for no write notification, is then mapped writable at that read
 * fault, so the store moves no time (they move at a write fault:
 * fault_dirty_shared_page(), mm/memory.c).
 */
static int op_mmaptimes(const char *path)
{
	const struct timespec pause = { 0, 20 * 1000 * 1000 };
	int fd = open(path, O_RDWR);
	struct stat was;
	volatile char *p;

	if (fd < 0)
		return result(-1);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED || stat(path, &was))
		return result(-1);
	result(0);
	nanosleep(&pause, NULL);	/* past the clock's granularity */
	p[0] = 'w';
	times_moved(path, "write", &was);
	if (msync((void *)p, 4096, MS_SYNC))
		return result(-1);
	times_moved(path, "msync", &was);
	if (stat(path, &was))
		return result(-1);
	nanosleep(&pause, NULL);
	p[1] = 'w';
	if (msync((void *)p, 4096, MS_SYNC) || munmap((void *)p, 4096) ||
	    close(fd))
		return result(-1);
	times_moved(path, "second write, msync, munmap", &was);
	return 0;
}

static bool atime_moved(const struct stat *a, const struct stat *b)
{
	return a->st_atim.tv_sec != b->st_atim.tv_sec ||
	       a->st_atim.tv_nsec != b->st_atim.tv_nsec;
}

/*
 * rereadatime PATH: read PATH, then read it again through the same open
 * file; after each, whether fstat(2) shows a new atime.
 */
static int op_rereadatime(const char *path)
{
	const struct timespec pause = { 0, 50 * 1000 * 1000 };
	struct stat was, st;
	char buf[4096];
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &was))
		return result(-1);
	nanosleep(&pause, NULL);
	if (pread(fd, buf, sizeof(buf), 0) < 0 || fstat(fd, &st))
		return result(-1);
	result(0);
	printf("first read: atime %s\n",
	       atime_moved(&was, &st) ? "moved" : "same");
	nanosleep(&pause, NULL);
	if (pread(fd, buf, sizeof(buf), 0) < 0 || fstat(fd, &was))
		return result(-1);
	printf("read again: atime %s\n",
	       atime_moved(&st, &was) ? "moved" : "same");
	close(fd);
	return 0;
}

/* times PATH: mtime and ctime, to the nanosecond. */
static int op_times(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return result(-1);
	result(0);
	printf("%lld.%09ld %lld.%09ld\n", (long long)st.st_mtim.tv_sec,
	       st.st_mtim.tv_nsec, (long long)st.st_ctim.tv_sec,
	       st.st_ctim.tv_nsec);
	return 0;
}

/*
 * POSIX ACLs in their xattr form (system.posix_acl_access/_default):
 * a version, then entries of tag, permissions and id, sorted by tag and
 * id.  Written as getfacl's short form: "u::rwx,u:1001:r-x,g::r-x,m::rwx,
 * o::---" (ids numeric).
 */
struct acl_entry {
	unsigned short tag, perm;
	unsigned int id;
};

static const struct { char c; unsigned short tag, named; } acl_tags[] = {
	{ 'u', 0x01, 0x02 }, { 'g', 0x04, 0x08 }, { 'm', 0x10, 0 },
	{ 'o', 0x20, 0 },
};

static const char *acl_name(const char *which)
{
	if (!strcmp(which, "access"))
		return "system.posix_acl_access";
	if (!strcmp(which, "default"))
		return "system.posix_acl_default";
	usage();
	return NULL;
}

static int acl_cmp(const void *a, const void *b)
{
	const struct acl_entry *x = a, *y = b;

	if (x->tag != y->tag)
		return x->tag < y->tag ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* One "t:[id]:rwx" of SPEC into @e. */
static void acl_parse_one(char *item, struct acl_entry *e)
{
	char *id = strchr(item, ':'), *perm;
	size_t i;

	perm = id ? strchr(id + 1, ':') : NULL;
	if (!perm || strlen(perm + 1) != 3)
		usage();
	*perm++ = '\0';
	for (i = 0; i < sizeof(acl_tags) / sizeof(*acl_tags); i++)
		if (item[0] == acl_tags[i].c && item[1] == ':')
			break;
	if (i == sizeof(acl_tags) / sizeof(*acl_tags))
		usage();
	e->tag = id[1] ? acl_tags[i].named : acl_tags[i].tag;
	e->id = id[1] ? (unsigned int)num(id + 1, 10) : 0xffffffffu;
	e->perm = (perm[0] == 'r') << 2 | (perm[1] == 'w') << 1 |
		  (perm[2] == 'x');
	if (!e->tag)
		usage();
}

static int op_setfacl(const char *path, const char *which, char *spec)
{
	struct { unsigned int version; struct acl_entry e[32]; } x;
	char *item, *save = NULL;
	int n = 0;

	x.version = 2;
	for (item = strtok_r(spec, ",", &save); item && n < 32;
	     item = strtok_r(NULL, ",", &save))
		acl_parse_one(item, &x.e[n++]);
	qsort(x.e, (size_t)n, sizeof(*x.e), acl_cmp);
	return result(lsetxattr(path, acl_name(which), &x,
				sizeof(x.version) + (size_t)n * sizeof(*x.e),
				0));
}

/* @flags: NULL for lgetxattr(2) of @path, else fgetxattr(2) on @path
 * opened with those flags (an open file's ACL, past any lookup). */
static int op_getfacl(const char *path, const char *which, const char *flags)
{
	struct { unsigned int version; struct acl_entry e[32]; } x;
	ssize_t len;
	int i, j, fd = -1;

	if (flags) {
		fd = open(path, parse_flags(flags));
		if (fd < 0)
			return result(-1);
		len = fgetxattr(fd, acl_name(which), &x, sizeof(x));
		i = errno;
		close(fd);
		errno = i;
	} else {
		len = lgetxattr(path, acl_name(which), &x, sizeof(x));
	}

	if (len < 0 && errno == ENODATA) {
		result(0);
		puts("none");
		return 0;
	}
	if (len < (ssize_t)sizeof(x.version))
		return result(-1);
	result(0);
	for (i = 0; i < (int)((size_t)len - sizeof(x.version)) /
		    (int)sizeof(*x.e); i++) {
		for (j = 0; j < 4; j++)
			if (x.e[i].tag == acl_tags[j].tag ||
			    x.e[i].tag == acl_tags[j].named)
				break;
		printf("%s%c:", i ? "," : "", j < 4 ? acl_tags[j].c : '?');
		if (j < 4 && x.e[i].tag == acl_tags[j].named)
			printf("%u", x.e[i].id);
		printf(":%c%c%c", x.e[i].perm & 4 ? 'r' : '-',
		       x.e[i].perm & 2 ? 'w' : '-', x.e[i].perm & 1 ? 'x' : '-');
	}
	putchar('\n');
	return 0;
}

static int op_seek(const char *path, const char *how, const char *off)
{
	int fd = open(path, O_RDONLY);
	off_t r;

	if (fd < 0)
		return result(-1);
	r = lseek(fd, (off_t)num(off, 0),
		  !strcmp(how, "hole") ? SEEK_HOLE : SEEK_DATA);
	if (r < 0)
		return result(-1);
	result(0);
	printf("%lld\n", (long long)r);
	return 0;
}

static int op_mknod(char **a, int n)
{
	mode_t type;
	dev_t dev = 0;

	if (n < 3)
		usage();
	if (!strcmp(a[1], "fifo"))
		type = S_IFIFO;
	else if (!strcmp(a[1], "reg"))
		type = S_IFREG;
	else if (!strcmp(a[1], "sock"))
		type = S_IFSOCK;
	else if (!strcmp(a[1], "chr"))
		type = S_IFCHR;
	else if (!strcmp(a[1], "blk"))
		type = S_IFBLK;
	else
		usage();
	if (n >= 5)
		dev = makedev(num(a[3], 0), num(a[4], 0));
	return result(mknod(a[0], type | (mode_t)num(a[2], 8), dev));
}

static int op_utimens(const char *path, const char *at, const char *mt,
		      bool by_fd)
{
	struct timespec ts[2];
	int fd;

	ts[0].tv_nsec = ts[1].tv_nsec = 0;
	if (!strcmp(at, "now"))
		ts[0].tv_nsec = UTIME_NOW;
	else
		ts[0].tv_sec = (time_t)num(at, 0);
	if (!strcmp(mt, "now"))
		ts[1].tv_nsec = UTIME_NOW;
	else
		ts[1].tv_sec = (time_t)num(mt, 0);
	if (!by_fd)
		return result(utimensat(AT_FDCWD, path, ts, 0));
	fd = open(path, O_RDONLY);
	return result(fd < 0 ? -1 : futimens(fd, ts));
}

/* fchmod(2) through a descriptor opened for reading. */
static int op_fchmod(const char *path, mode_t mode)
{
	int fd = open(path, O_RDONLY);

	return result(fd < 0 ? -1 : fchmod(fd, mode));
}

static int op_fd(const char *path, int flags, int what)
{
	int fd = open(path, flags);

	if (fd < 0)
		return result(-1);
	return result(what ? fsync(fd) : 0);
}

/* procfd PATH FLAGS: O_PATH open, then reopen through /proc/self/fd
 * (and read it, for O_RDONLY). */
static int op_procfd(const char *path, const char *flags)
{
	char proc[64];
	int fd = open(path, O_PATH), f = parse_flags(flags);

	if (fd < 0)
		return result(-1);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if ((f & O_ACCMODE) == O_RDONLY && !(f & O_PATH))
		return op_read(proc);
	return result(open(proc, f));
}

/* openat2 DIR NAME FLAGS: resolve NAME beneath DIR, no magic links. */
static int op_openat2(const char *dir, const char *name, const char *flags)
{
	struct open_how how = {
		.flags = (unsigned long long)parse_flags(flags),
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
	};
	int dfd = open(dir, O_PATH | O_DIRECTORY);

	if (dfd < 0)
		return result(-1);
	return result((int)syscall(SYS_openat2, dfd, name, &how, sizeof(how)));
}

/* openmany DIR N: open DIR/f0 .. DIR/f(N-1) read-only and hold them all;
 * then "opened=K first_error=ERRNO". */
static int op_openmany(const char *dir, unsigned long n)
{
	int *fds = calloc(n ? n : 1, sizeof(int));
	const char *first = "none";
	unsigned long i, opened = 0;
	char path[4096];

	if (!fds)
		exit(3);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/f%lu", dir, i);
		fds[i] = open(path, O_RDONLY);
		if (fds[i] >= 0)
			opened++;
		else if (!strcmp(first, "none"))
			first = strerrorname_np(errno);
	}
	result(0);
	printf("opened=%lu first_error=%s\n", opened, first ? first : "E?");
	for (i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
	return 0;
}

/* mktree DIR N: N empty files, 1000 per subdirectory d0, d1, ... */
static int op_mktree(const char *dir, unsigned long n)
{
	char path[4096];
	unsigned long i;
	int fd;

	for (i = 0; i < n; i++) {
		if (i % 1000 == 0) {
			snprintf(path, sizeof(path), "%s/d%lu", dir, i / 1000);
			if (mkdir(path, 0755) && errno != EEXIST)
				return result(-1);
		}
		snprintf(path, sizeof(path), "%s/d%lu/f%lu", dir, i / 1000, i);
		fd = open(path, O_CREAT | O_WRONLY, 0644);
		if (fd < 0)
			return result(-1);
		close(fd);
	}
	return result(0);
}

/* fill PATH BYTES: append BYTES in 64 KiB writes, then fsync; the first
 * error wins. */
static int op_fill(const char *path, unsigned long bytes)
{
	static char chunk[65536];
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
	ssize_t w;

	if (fd < 0)
		return result(-1);
	memset(chunk, 'w', sizeof(chunk));
	while (bytes > 0) {
		w = write(fd, chunk, bytes < sizeof(chunk) ? bytes :
			  sizeof(chunk));
		if (w < 0)
			return result(-1);
		bytes -= (unsigned long)w;
	}
	if (fsync(fd) || close(fd))
		return result(-1);
	return result(0);
}

/* An unnamed file in @dir, @data written to it, then given the name
 * @name with linkat() through /proc/self/fd (as open(2)'s manual shows):
 * the first error, or OK. */
static int op_tmpfile_link(const char *dir, mode_t mode, const char *name,
			   const char *data)
{
	char proc[64];
	ssize_t len = (ssize_t)strlen(data);
	int fd = open(dir, O_TMPFILE | O_RDWR, mode);

	if (fd < 0)
		return result(-1);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (write(fd, data, (size_t)len) != len ||
	    linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW)) {
		int e = errno;

		close(fd);
		errno = e;
		return result(-1);
	}
	close(fd);
	return result(0);
}

#define NEED(k) do { if (n < (k)) usage(); } while (0)

static int run(const char *op, char **a, int n)
{
	if (!strcmp(op, "open")) {
		NEED(2);
		return result(open(a[0], parse_flags(a[1]),
				   n > 2 ? (mode_t)num(a[2], 8) : 0644));
	}
	if (!strcmp(op, "tmpfile")) {
		NEED(2);
		if (n > 3)
			return op_tmpfile_link(a[0], (mode_t)num(a[1], 8),
					       a[2], a[3]);
		return result(open(a[0], O_TMPFILE | O_RDWR,
				   (mode_t)num(a[1], 8)));
	}
	if (!strcmp(op, "read")) {
		NEED(1);
		return op_read(a[0]);
	}
	if (!strcmp(op, "write")) {
		NEED(2);
		return op_write(a[0], a[1], O_TRUNC);
	}
	if (!strcmp(op, "append")) {
		NEED(2);
		return op_write(a[0], a[1], O_APPEND);
	}
	if (!strcmp(op, "mmapwrite")) {
		NEED(2);
		return op_mmapwrite(a[0], a[1]);
	}
	if (!strcmp(op, "mmap")) {
		NEED(1);
		return op_mmap(a[0], n > 1 ? a[1] : "rx");
	}
	if (!strcmp(op, "create")) {
		NEED(2);
		return result(open(a[0], O_WRONLY | O_CREAT | O_EXCL,
				   (mode_t)num(a[1], 8)));
	}
	if (!strcmp(op, "stat") || !strcmp(op, "lstat")) {
		NEED(1);
		return op_stat(a[0], op[0] == 's');
	}
	if (!strcmp(op, "mtime")) {
		struct stat st;

		NEED(1);
		if (lstat(a[0], &st))
			return result(-1);
		result(0);
		printf("%lld\n", (long long)st.st_mtime);
		return 0;
	}
	if (!strcmp(op, "mkdir")) {
		NEED(2);
		return result(mkdir(a[0], (mode_t)num(a[1], 8)));
	}
	if (!strcmp(op, "rmdir")) {
		NEED(1);
		return result(rmdir(a[0]));
	}
	if (!strcmp(op, "unlink")) {
		NEED(1);
		return result(unlink(a[0]));
	}
	if (!strcmp(op, "rename")) {
		unsigned int fl = 0;

		NEED(2);
		if (n > 2 && !strcmp(a[2], "noreplace"))
			fl = RENAME_NOREPLACE;
		else if (n > 2 && !strcmp(a[2], "exchange"))
			fl = RENAME_EXCHANGE;
		else if (n > 2)
			usage();
		return result(renameat2(AT_FDCWD, a[0], AT_FDCWD, a[1], fl));
	}
	if (!strcmp(op, "link")) {
		NEED(2);
		return result(link(a[0], a[1]));
	}
	if (!strcmp(op, "symlink")) {
		NEED(2);
		return result(symlink(a[0], a[1]));
	}
	if (!strcmp(op, "readlink")) {
		char buf[4096];
		ssize_t len;

		NEED(1);
		len = readlink(a[0], buf, sizeof(buf) - 1);
		if (len < 0)
			return result(-1);
		buf[len] = '\0';
		result(0);
		puts(buf);
		return 0;
	}
	if (!strcmp(op, "mknod"))
		return op_mknod(a, n);
	if (!strcmp(op, "setxattr")) {
		int fl = 0;

		NEED(3);
		if (n > 3)
			fl = !strcmp(a[3], "create") ? XATTR_CREATE :
				XATTR_REPLACE;
		return result(lsetxattr(a[0], a[1], a[2], strlen(a[2]), fl));
	}
	if (!strcmp(op, "getxattr") || !strcmp(op, "lgetxattr")) {
		NEED(2);
		return op_getxattr(a[0], a[1], op[0] == 'g');
	}
	if (!strcmp(op, "listxattr")) {
		NEED(1);
		return op_listxattr(a[0], n > 1 ? a[1] : NULL);
	}
	if (!strcmp(op, "removexattr")) {
		NEED(2);
		return result(lremovexattr(a[0], a[1]));
	}
	if (!strcmp(op, "truncate")) {
		NEED(2);
		return result(truncate(a[0], (off_t)num(a[1], 0)));
	}
	if (!strcmp(op, "ftruncate")) {
		int fd;

		NEED(2);
		fd = open(a[0], O_WRONLY);
		if (fd < 0)
			return result(-1);
		return result(ftruncate(fd, (off_t)num(a[1], 0)));
	}
	if (!strcmp(op, "chmod")) {
		NEED(2);
		return result(chmod(a[0], (mode_t)num(a[1], 8)));
	}
	if (!strcmp(op, "chown") || !strcmp(op, "lchown")) {
		NEED(3);
		return result((op[0] == 'c' ? chown : lchown)(a[0],
			(uid_t)(strcmp(a[1], "-1") ? num(a[1], 0) : -1UL),
			(gid_t)(strcmp(a[2], "-1") ? num(a[2], 0) : -1UL)));
	}
	if (!strcmp(op, "utimens") || !strcmp(op, "futimens")) {
		NEED(3);
		return op_utimens(a[0], a[1], a[2], op[0] == 'f');
	}
	if (!strcmp(op, "fchmod")) {
		NEED(2);
		return op_fchmod(a[0], (mode_t)num(a[1], 8));
	}
	if (!strcmp(op, "flock")) {
		NEED(2);
		return op_flock(a[0], a[1]);
	}
	if (!strcmp(op, "lock")) {
		NEED(2);
		return op_lock(a[0], a[1]);
	}
	if (!strcmp(op, "ofdclose")) {
		NEED(1);
		return op_ofdclose(a[0]);
	}
	if (!strcmp(op, "setown")) {
		NEED(1);
		return op_setown(a[0]);
	}
	if (!strcmp(op, "exec")) {
		NEED(1);
		return op_exec(a);
	}
	if (!strcmp(op, "run")) {
		NEED(1);
		return op_run(a);
	}
	if (!strcmp(op, "access")) {
		NEED(1);
		return op_access(a[0], n > 1 ? a[1] : "f");
	}
	if (!strcmp(op, "readdir")) {
		NEED(1);
		return op_readdir(a[0]);
	}
	if (!strcmp(op, "copy")) {
		NEED(2);
		return op_copy(a[0], a[1]);
	}
	if (!strcmp(op, "fallocate")) {
		NEED(3);
		return op_fallocate(a, n);
	}
	if (!strcmp(op, "copyinto")) {
		NEED(2);
		return op_copyinto(a[0], a[1]);
	}
	if (!strcmp(op, "pwrite")) {
		int fd;

		NEED(3);
		fd = open(a[0], O_WRONLY);
		if (fd < 0)
			return result(-1);
		if (pwrite(fd, a[1], strlen(a[1]), (off_t)num(a[2], 0)) < 0)
			return result(-1);
		return result(close(fd));
	}
	if (!strcmp(op, "mkfile")) {
		NEED(4);
		return op_mkfile(a);
	}
	if (!strcmp(op, "setfacl")) {
		NEED(3);
		return op_setfacl(a[0], a[1], a[2]);
	}
	if (!strcmp(op, "getfacl")) {
		NEED(2);
		return op_getfacl(a[0], a[1], n > 2 ? a[2] : NULL);
	}
	if (!strcmp(op, "setcap")) {
		/* cap_net_raw+ep: VFS_CAP_REVISION_2 | effective */
		const unsigned int v[5] = { 0x02000001, 1u << 13, 0, 0, 0 };

		NEED(1);
		return result(setxattr(a[0], "security.capability", v,
				       sizeof(v), 0));
	}
	if (!strcmp(op, "mmaptimes")) {
		NEED(1);
		return op_mmaptimes(a[0]);
	}
	if (!strcmp(op, "rereadatime")) {
		NEED(1);
		return op_rereadatime(a[0]);
	}
	if (!strcmp(op, "atime")) {
		struct stat st;

		NEED(1);
		if (lstat(a[0], &st))
			return result(-1);
		result(0);
		printf("%lld.%09ld\n", (long long)st.st_atim.tv_sec,
		       st.st_atim.tv_nsec);
		return 0;
	}
	if (!strcmp(op, "times")) {
		NEED(1);
		return op_times(a[0]);
	}
	if (!strcmp(op, "statfs")) {
		struct statfs sfs;

		NEED(1);
		return result(statfs(a[0], &sfs));
	}
	if (!strcmp(op, "fsync")) {
		NEED(1);
		return op_fd(a[0], O_WRONLY, 1);
	}
	if (!strcmp(op, "fsyncdir")) {
		NEED(1);
		return op_fd(a[0], O_RDONLY | O_DIRECTORY, 1);
	}
	if (!strcmp(op, "fstat")) {
		NEED(1);
		return op_fstat(a[0]);
	}
	if (!strcmp(op, "inotify")) {
		NEED(1);
		return op_inotify(a[0]);
	}
	if (!strcmp(op, "connect")) {
		NEED(1);
		return op_connect(a[0]);
	}
	if (!strcmp(op, "chdir")) {
		NEED(1);
		return result(chdir(a[0]));
	}
	if (!strcmp(op, "seek")) {
		NEED(3);
		return op_seek(a[0], a[1], a[2]);
	}
	if (!strcmp(op, "procfd")) {
		NEED(2);
		return op_procfd(a[0], a[1]);
	}
	if (!strcmp(op, "openat2")) {
		NEED(3);
		return op_openat2(a[0], a[1], a[2]);
	}
	if (!strcmp(op, "openmany")) {
		NEED(2);
		return op_openmany(a[0], num(a[1], 0));
	}
	if (!strcmp(op, "mktree")) {
		NEED(2);
		return op_mktree(a[0], num(a[1], 0));
	}
	if (!strcmp(op, "fill")) {
		NEED(2);
		return op_fill(a[0], num(a[1], 0));
	}
	usage();
	return 2;
}

int main(int argc, char **argv)
{
	int nocap = 0;

	mode_t mask = 022;

	if (argc > 2 && !strcmp(argv[1], "-u")) {
		mask = (mode_t)num(argv[2], 8);
		argv += 2;
		argc -= 2;
	}
	if (argc > 1 && !strcmp(argv[1], "-c")) {
		nocap = 1;
		argv++;
		argc--;
	}
	if (argc < 3)
		usage();
	if (become(argv[1])) {
		perror("as: cannot change user");
		return 2;
	}
	if (nocap && drop_caps()) {
		perror("as: cannot drop capabilities");
		return 2;
	}
	umask(mask);
	return run(argv[2], argv + 3, argc - 3);
}
