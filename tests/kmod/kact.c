// SPDX-License-Identifier: GPL-2.0-only
/*
 * kact - do one action the module checks, print its outcome.
 *
 *   kact OP ARGS...
 *
 * Prints "OK" when the call succeeded (or failed for a reason that shows
 * the security check passed, e.g. ENOMSG from an empty queue), else the
 * errno name ("EACCES", "EPERM", ...).  Exit status 0 for OK, 1 otherwise.
 * Loop ops print "denied=N allowed=N other=N".  Linked -static for the
 * qemu guest.  Ops:
 *   kill PID | kill0 PID | ptrace PID | getpgid PID | getsid PID | setnice PID
 *   setioprio PID | getioprio PID | setsched PID | getsched PID
 *   movemem PID | environ PID (open /proc/PID/environ: ptrace read mode)
 *   status PID (read /proc/PID/status) | procls PID (list /proc/PID)
 *   comm-w PID | comm-a PID   open /proc/PID/comm O_WRONLY (| O_APPEND)
 *   pidstat PID | stat PID | utimes PID   stat /proc/PID, stat and utimes
 *                             (to now) /proc/PID/status
 *   access-r PID | access-w PID   access(2) R_OK on /proc/PID/status,
 *                             W_OK on /proc/PID/comm
 *   path-access PATH r|w|x|f  access(2) of PATH with that mode
 *   path-stat PATH N          stat(2) PATH N times (the first error stops)
 *   unlink PATH | rmdir PATH | mknod-chr PATH   unlink(2), rmdir(2), or
 *                             mknod(2) of /dev/null's device at PATH
 *   pair LA LB UID setpgid|traceme
 *                             fork a child labelled LB, become LA and UID;
 *                             setpgid(child), or the child asks
 *                             PTRACE_TRACEME (parent LA traces child LB)
 *   fd-pass LA LB UID PATH r|w|rw|sock
 *                             a child labelled LB opens PATH (or makes a
 *                             UDP socket: sock) and sends the fd over a
 *                             stream socketpair to the parent, labelled
 *                             LA; both become UID (labels "-": stay
 *                             as is).  EACCES when the fd did not
 *                             arrive (MSG_CTRUNC)
 *   msg-create KEY | msgsnd KEY | msgrcv KEY | msgstat KEY | msgrm KEY
 *   msg-get KEY | shm-get KEY | sem-get KEY   the get with flags 0 only
 *   msg-info 0 | shm-info 0 | sem-info 0      the INFO ctl commands (no
 *                             object: the kernel passes a NULL perm)
 *   shm-create KEY | shmat-ro KEY | shmat KEY
 *   sem-create KEY | semop KEY | semget-val KEY
 *   unix-listen NAME | unix-connect NAME      abstract stream sockets
 *   dgram-bind NAME | dgram-send NAME         abstract datagram sockets
 *   inet-listen ADDR PORT | inet-connect ADDR PORT | udp-send ADDR PORT
 *   inet-send ADDR PORT       TCP connect, then write one byte
 *   udp-bind ADDR PORT        a UDP receiver (loops)
 *   inet6-listen PORT         a dual-stack TCP listener on [::] (loops)
 *   inet6-send ADDR6 PORT     AF_INET6 TCP connect, then write one byte
 *   inet6-connect ADDR6 PORT  AF_INET6 TCP connect only
 *   udp6-bind PORT            a UDP receiver on [::] (loops)
 *   udp6-send ADDR6 PORT      one AF_INET6 UDP datagram
 *   kill-loop PID N | msgsnd-loop KEY N       N denied-expected calls
 *   setxattr PATH NAME VALUE | getxattr PATH NAME | removexattr PATH NAME
 *   mac-admin UID OP ARGS...  as uid UID (groups none, gid UID) holding
 *                             CAP_MAC_ADMIN and CAP_MAC_OVERRIDE only,
 *                             do OP (run as root)
 *   pread PATH OFFSET SIZE    prints what one pread(2) returns, or errno
 *   write PATH TEXT           one open(O_WRONLY) and one write(2) of TEXT
 *   acl-user PATH UID         set PATH's access ACL to u::rw-,u:UID:rw-,
 *                             g::---,m::rw-,o::---
 *   setown PATH | setsig PATH  fcntl F_SETOWN / F_SETSIG on PATH (read-only)
 *   chmod PATH | chown PATH | utimens PATH   chmod(2) to 0666, chown(2) to
 *                             the caller's own ids, utimensat(2) with
 *                             explicit times; fchmod, fchown, futimens:
 *                             the same through PATH opened read-only
 *   mq-create NAME | mq-open NAME r|w | mq-unlink NAME  POSIX queue NAME
 *   key-add DESC | key-read DESC | key-write DESC  a user key in @u
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/keyctl.h>
#include <mqueue.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <linux/capability.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "fdpass.h"

#define IOPRIO_WHO_PROCESS	1
#define IOPRIO_CLASS_BE		2
#define IOPRIO_VALUE(c, d)	(((c) << 13) | (d))

struct kmsg {
	/* cppcheck-suppress unusedStructMember ; the kernel reads mtype */
	long type;
	char text[8];
};

static int outcome(int rc)
{
	if (rc >= 0) {
		puts("OK");
		return 0;
	}
	puts(strerrorname_np(errno) ? strerrorname_np(errno) : "E?");
	return 1;
}

static long num(const char *s)
{
	char *end;
	long v = strtol(s, &end, 0);

	if (!*s || *end) {
		fprintf(stderr, "kact: not a number: %s\n", s);
		exit(2);
	}
	return v;
}

static int do_ptrace(pid_t pid)
{
	int st;

	if (ptrace(PTRACE_ATTACH, pid, 0, 0) < 0)
		return -1;
	waitpid(pid, &st, __WALL);
	return (int)ptrace(PTRACE_DETACH, pid, 0, 0);
}

static int do_task(const char *op, pid_t pid)
{
	struct sched_param sp = { 0 };

	if (!strcmp(op, "kill"))
		return kill(pid, SIGCONT);
	if (!strcmp(op, "kill0"))
		return kill(pid, 0);
	if (!strcmp(op, "ptrace"))
		return do_ptrace(pid);
	if (!strcmp(op, "getpgid"))
		return getpgid(pid);
	if (!strcmp(op, "getsid"))
		return getsid(pid);
	if (!strcmp(op, "setnice"))
		return setpriority(PRIO_PROCESS, pid, 0);
	if (!strcmp(op, "setioprio"))
		return (int)syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, pid,
				    IOPRIO_VALUE(IOPRIO_CLASS_BE, 4));
	if (!strcmp(op, "getioprio"))
		return (int)syscall(SYS_ioprio_get, IOPRIO_WHO_PROCESS, pid);
	if (!strcmp(op, "setsched"))
		return sched_setscheduler(pid, SCHED_OTHER, &sp);
	if (!strcmp(op, "getsched"))
		return sched_getscheduler(pid);
	if (!strcmp(op, "environ")) {
		char path[64];
		int fd;

		snprintf(path, sizeof(path), "/proc/%d/environ", (int)pid);
		fd = open(path, O_RDONLY);
		return fd < 0 ? -1 : close(fd);
	}
	if (!strcmp(op, "status")) {
		char path[64], c;
		int fd, n;

		snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			return -1;
		n = (int)read(fd, &c, 1);
		close(fd);
		return n < 0 ? -1 : 0;
	}
	if (!strcmp(op, "comm-w") || !strcmp(op, "comm-a")) {
		char path[64];
		int fd;

		snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
		fd = open(path, O_WRONLY | (op[5] == 'a' ? O_APPEND : 0));
		return fd < 0 ? -1 : close(fd);
	}
	if (!strcmp(op, "pidstat") || !strcmp(op, "stat") ||
	    !strcmp(op, "utimes")) {
		char path[64];
		struct stat st;

		snprintf(path, sizeof(path), "/proc/%d%s", (int)pid,
			 op[0] == 'p' ? "" : "/status");
		if (op[0] == 'u')
			return utimensat(AT_FDCWD, path, NULL, 0);
		return stat(path, &st);
	}
	if (!strcmp(op, "access-r") || !strcmp(op, "access-w")) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid,
			 op[7] == 'r' ? "status" : "comm");
		return access(path, op[7] == 'r' ? R_OK : W_OK);
	}
	if (!strcmp(op, "procls")) {
		char path[64];
		DIR *d;
		int n = 0;

		snprintf(path, sizeof(path), "/proc/%d", (int)pid);
		d = opendir(path);
		if (!d)
			return -1;
		errno = 0;
		while (readdir(d))
			n++;
		n = errno || !n ? -1 : 0;
		closedir(d);
		return n;
	}
	if (!strcmp(op, "movemem"))
		return (int)syscall(SYS_move_pages, pid, 0UL, NULL, NULL, NULL,
				    0);
	fprintf(stderr, "kact: unknown op %s\n", op);
	exit(2);
}

static void set_label(const char *label)
{
	int fd = open("/sys/kernel/security/smackfuse/current", O_WRONLY);

	if (fd < 0 || write(fd, label, strlen(label)) < 0) {
		perror("kact: set label");
		exit(2);
	}
	close(fd);
}

/* Label "-": keep the label and the uid (works without the module). */
static void become(const char *label, uid_t uid)
{
	if (!strcmp(label, "-"))
		return;
	set_label(label);
	if (setgid(uid) || setuid(uid)) {
		perror("kact: drop privilege");
		exit(2);
	}
}

/*
 * The parent/child actions: setpgid needs the target to be our child, and
 * PTRACE_TRACEME is asked by the child about its parent.  The child takes
 * label LB, the parent LA, both become UID.
 */
static int do_pair(const char *la, const char *lb, uid_t uid, const char *op)
{
	int ready[2], go[2], st;
	pid_t child;
	char c;

	if (pipe(ready) || pipe(go))
		return -1;
	child = fork();
	if (child == 0) {
		become(lb, uid);
		(void)!write(ready[1], "r", 1);
		if (strcmp(op, "traceme")) {
			alarm(5);
			pause();
			_exit(0);
		}
		if (read(go[0], &c, 1) != 1)
			_exit(100);
		_exit(ptrace(PTRACE_TRACEME, 0, 0, 0) < 0 ? errno : 0);
	}
	if (read(ready[0], &c, 1) != 1) {
		fprintf(stderr, "kact: child did not start\n");
		exit(2);
	}
	become(la, uid);
	if (!strcmp(op, "setpgid"))
		return setpgid(child, child);
	if (!strcmp(op, "traceme")) {
		(void)!write(go[1], "g", 1);
		if (waitpid(child, &st, 0) < 0 || !WIFEXITED(st))
			return -1;
		errno = WEXITSTATUS(st);
		return errno ? -1 : 0;
	}
	fprintf(stderr, "kact: unknown pair op %s\n", op);
	exit(2);
}

static void become(const char *label, uid_t uid);

static int do_fdpass(const char *la, const char *lb, uid_t uid,
		     const char *path, const char *mode)
{
	int sv[2], fd, st, rc;
	pid_t child;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return -1;
	child = fork();
	if (child == 0) {
		close(sv[0]);
		become(lb, uid);
		if (!strcmp(mode, "sock"))
			fd = socket(AF_INET, SOCK_DGRAM, 0);
		else
			fd = open(path, !strcmp(mode, "r") ? O_RDONLY :
					!strcmp(mode, "w") ? O_WRONLY : O_RDWR);
		if (fd < 0)
			_exit(100);
		if (fdpass_send(sv[1], fd))
			_exit(101);
		_exit(0);
	}
	close(sv[1]);
	become(la, uid);
	/* OK once the fd arrived; EACCES when it was dropped (fdpass.h) */
	fd = fdpass_recv(sv[0]);
	rc = fd >= 0 ? close(fd) : -1;
	st = fd >= 0 ? errno : -fd;
	waitpid(child, NULL, 0);
	errno = st;
	return rc;
}

/* IPC_INFO and the kind's own INFO command; the buffer fits all kinds. */
static int do_ipc_info(const char *op)
{
	union {
		struct msginfo msg;
		struct shminfo shm;
		struct shm_info shm_info;
		struct seminfo sem;
		char pad[256];
	} u;

	if (!strcmp(op, "msg-info"))
		return msgctl(0, IPC_INFO, (struct msqid_ds *)&u) < 0 ? -1 :
		       msgctl(0, MSG_INFO, (struct msqid_ds *)&u);
	if (!strcmp(op, "shm-info"))
		return shmctl(0, IPC_INFO, (struct shmid_ds *)&u) < 0 ? -1 :
		       shmctl(0, SHM_INFO, (struct shmid_ds *)&u);
	return semctl(0, 0, IPC_INFO, &u) < 0 ? -1 :
	       semctl(0, 0, SEM_INFO, &u);
}

static int do_ipc(const char *op, key_t key)
{
	struct kmsg m = { .type = 1, .text = "x" };
	struct sembuf sb = { 0, 1, IPC_NOWAIT };
	int id;

	if (!strcmp(op + 3, "-info"))
		return do_ipc_info(op);
	if (!strcmp(op, "msg-create"))
		return msgget(key, IPC_CREAT | 0666);
	if (!strcmp(op, "shm-create"))
		return shmget(key, 4096, IPC_CREAT | 0666);
	if (!strcmp(op, "sem-create"))
		return semget(key, 1, IPC_CREAT | 0666);
	if (!strncmp(op, "msg", 3))
		id = msgget(key, 0);
	else if (!strncmp(op, "shm", 3))
		id = shmget(key, 0, 0);
	else
		id = semget(key, 0, 0);
	if (id < 0 || !strcmp(op + 3, "-get"))
		return id;
	if (!strcmp(op, "msgsnd"))
		return msgsnd(id, &m, sizeof(m.text), IPC_NOWAIT);
	if (!strcmp(op, "msgrcv")) {
		if (msgrcv(id, &m, sizeof(m.text), 0, IPC_NOWAIT) < 0 &&
		    errno != ENOMSG)
			return -1;
		return 0;
	}
	if (!strcmp(op, "msgrm"))
		return msgctl(id, IPC_RMID, NULL);
	if (!strcmp(op, "msgstat")) {
		struct msqid_ds ds;

		return msgctl(id, IPC_STAT, &ds);
	}
	if (!strcmp(op, "shmat-ro") || !strcmp(op, "shmat")) {
		void *a = shmat(id, NULL, op[5] ? SHM_RDONLY : 0);

		if (a == (void *)-1)
			return -1;
		return shmdt(a);
	}
	if (!strcmp(op, "semop"))
		return semop(id, &sb, 1);
	if (!strcmp(op, "semget-val"))
		return semctl(id, 0, GETVAL);
	fprintf(stderr, "kact: unknown op %s\n", op);
	exit(2);
}

static socklen_t abstract(struct sockaddr_un *sun, const char *name)
{
	size_t n = strlen(name);

	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	if (n > sizeof(sun->sun_path) - 1)
		n = sizeof(sun->sun_path) - 1;
	memcpy(sun->sun_path + 1, name, n);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
}

static int do_unix(const char *op, const char *name)
{
	struct sockaddr_un sun;
	socklen_t len = abstract(&sun, name);
	int stream = !strncmp(op, "unix", 4);
	int fd = socket(AF_UNIX, stream ? SOCK_STREAM : SOCK_DGRAM, 0);

	if (fd < 0)
		return -1;
	if (!strcmp(op, "unix-listen") || !strcmp(op, "dgram-bind")) {
		if (bind(fd, (struct sockaddr *)&sun, len) ||
		    (stream && listen(fd, 16)))
			return -1;
		puts("READY");
		fflush(stdout);
		for (;;) {
			int c;

			if (!stream) {
				char b[16];

				(void)!read(fd, b, sizeof(b));
				continue;
			}
			c = accept(fd, NULL, NULL);
			if (c >= 0)
				close(c);
		}
	}
	if (!strcmp(op, "unix-connect"))
		return connect(fd, (struct sockaddr *)&sun, len);
	if (!strcmp(op, "dgram-send"))
		return (int)sendto(fd, "x", 1, 0, (struct sockaddr *)&sun, len);
	fprintf(stderr, "kact: unknown op %s\n", op);
	exit(2);
}

/* IPv4 on loopback: a TCP listener, a connect, a UDP datagram. */
static int do_inet(const char *op, const char *addr, int port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	int udp = !strncmp(op, "udp", 3);
	int fd = socket(AF_INET, udp ? SOCK_DGRAM : SOCK_STREAM, 0), one = 1;

	sin.sin_port = htons((unsigned short)port);
	if (fd < 0 || inet_pton(AF_INET, addr, &sin.sin_addr) != 1)
		return -1;
	if (!strcmp(op, "inet-listen")) {
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) ||
		    listen(fd, 64))
			return -1;
		for (;;) {
			int c = accept(fd, NULL, NULL);

			if (c >= 0)
				close(c);
		}
	}
	if (!strcmp(op, "udp-bind")) {
		char b[16];

		if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)))
			return -1;
		for (;;)
			(void)!read(fd, b, sizeof(b));
	}
	if (!strcmp(op, "inet-connect"))
		return connect(fd, (struct sockaddr *)&sin, sizeof(sin));
	if (!strcmp(op, "inet-send"))
		return connect(fd, (struct sockaddr *)&sin, sizeof(sin)) < 0 ?
		       -1 : (int)write(fd, "x", 1);
	if (!strcmp(op, "udp-send"))
		return (int)sendto(fd, "x", 1, 0, (struct sockaddr *)&sin,
				   sizeof(sin));
	fprintf(stderr, "kact: unknown op %s\n", op);
	exit(2);
}

/* IPv6 sockets: a dual-stack listener, and a connect to ADDR6. */
static int do_inet6(const char *op, const char *addr, int port)
{
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };
	int fd = socket(AF_INET6, SOCK_STREAM, 0), zero = 0, one = 1;

	sin6.sin6_port = htons((unsigned short)port);
	if (fd < 0 || inet_pton(AF_INET6, addr, &sin6.sin6_addr) != 1)
		return -1;
	if (!strcmp(op, "inet6-listen")) {
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
		if (bind(fd, (struct sockaddr *)&sin6, sizeof(sin6)) ||
		    listen(fd, 64))
			return -1;
		for (;;) {
			int c = accept(fd, NULL, NULL);

			if (c >= 0)
				close(c);
		}
	}
	if (!strcmp(op, "inet6-send"))
		return connect(fd, (struct sockaddr *)&sin6, sizeof(sin6)) < 0 ?
		       -1 : (int)write(fd, "x", 1);
	if (!strcmp(op, "inet6-connect"))
		return connect(fd, (struct sockaddr *)&sin6, sizeof(sin6));
	fprintf(stderr, "kact: unknown op %s\n", op);
	exit(2);
}

/* UDP over IPv6: a receiver on [::] (loops), a datagram to ADDR6. */
static int do_udp6(const char *op, const char *addr, int port)
{
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };
	int fd = socket(AF_INET6, SOCK_DGRAM, 0);
	char b[16];

	sin6.sin6_port = htons((unsigned short)port);
	if (fd < 0 || inet_pton(AF_INET6, addr, &sin6.sin6_addr) != 1)
		return -1;
	if (!strcmp(op, "udp6-bind")) {
		if (bind(fd, (struct sockaddr *)&sin6, sizeof(sin6)))
			return -1;
		for (;;)
			(void)!read(fd, b, sizeof(b));
	}
	if (!strcmp(op, "udp6-send"))
		return (int)sendto(fd, "x", 1, 0, (struct sockaddr *)&sin6,
				   sizeof(sin6));
	fprintf(stderr, "kact: unknown op %s\n", op);
	exit(2);
}

/* A "user" key DESC in the user keyring: add it, or find it and read or
 * update it. */
static int do_key(const char *op, const char *desc)
{
	char b[16];
	long id;

	if (!strcmp(op, "key-add"))
		return syscall(SYS_add_key, "user", desc, "x", 1,
			       KEY_SPEC_USER_KEYRING) < 0 ? -1 : 0;
	id = syscall(SYS_keyctl, KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING, "user",
		     desc, 0);
	if (id < 0)
		return -1;
	if (!strcmp(op, "key-read"))
		return syscall(SYS_keyctl, KEYCTL_READ, id, b, sizeof(b)) < 0 ?
		       -1 : 0;
	return syscall(SYS_keyctl, KEYCTL_UPDATE, id, "y", 1) < 0 ? -1 : 0;
}

/* POSIX message queue NAME ("/q"): create it (0666), open it for
 * reading or writing, or remove it. */
static int do_mq(const char *op, const char *name, const char *how)
{
	mqd_t q;

	if (!strcmp(op, "mq-unlink"))
		return mq_unlink(name);
	umask(0);	/* 0666: only Smack decides */
	if (!strcmp(op, "mq-create"))
		q = mq_open(name, O_RDWR | O_CREAT | O_EXCL, 0666, NULL);
	else
		q = mq_open(name, how && !strcmp(how, "w") ? O_WRONLY :
			    O_RDONLY);
	return q == (mqd_t)-1 ? -1 : 0;
}

/* fcntl(F_SETOWN, self) or fcntl(F_SETSIG, SIGIO) on PATH opened for
 * reading. */
static int do_fcntl_owner(const char *op, const char *path)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	if (!strcmp(op, "setown"))
		return fcntl(fd, F_SETOWN, getpid());
	return fcntl(fd, F_SETSIG, SIGIO);
}

/* A change of attributes (security_inode_setattr), by path or through a
 * descriptor ("f" ops). */
static int do_setattr(const char *op, const char *path)
{
	static const struct timespec then[2] = { { 5, 0 }, { 5, 0 } };
	const int byfd = op[0] == 'f';
	int fd = -1, rc, err;

	if (byfd) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -1;
		op++;
	}
	if (!strcmp(op, "chmod"))
		rc = byfd ? fchmod(fd, 0666) : chmod(path, 0666);
	else if (!strcmp(op, "chown"))
		rc = byfd ? fchown(fd, getuid(), getgid()) :
			    chown(path, getuid(), getgid());
	else
		rc = byfd ? futimens(fd, then) :
			    utimensat(AT_FDCWD, path, then, 0);
	err = errno;
	if (fd >= 0)
		close(fd);
	errno = err;
	return rc;
}

static int do_loop(const char *op, long target, long n)
{
	long i, denied = 0, allowed = 0, other = 0;
	struct kmsg m = { 1, "x" };
	int id = -1;

	if (!strcmp(op, "msgsnd-loop")) {
		id = msgget((key_t)target, 0);
		if (id < 0)
			return outcome(-1);
	}
	for (i = 0; i < n; i++) {
		int rc = id < 0 ? kill((pid_t)target, SIGCONT) :
				  msgsnd(id, &m, sizeof(m.text), IPC_NOWAIT);

		if (rc == 0)
			allowed++;
		else if (errno == EACCES)
			denied++;
		else
			other++;
	}
	printf("denied=%ld allowed=%ld other=%ld\n", denied, allowed, other);
	return allowed || other;
}

/* access(2)'s mode from one letter: r, w, x or f (F_OK). */
static int access_mode(const char *m)
{
	switch (m[0]) {
	case 'r':
		return R_OK;
	case 'w':
		return W_OK;
	case 'x':
		return X_OK;
	default:
		return F_OK;
	}
}

static int stat_times(const char *path, long n)
{
	struct stat st;

	while (n-- > 0)
		if (stat(path, &st))
			return -1;
	return 0;
}

/* One write(2) of @text to @path, as is: the errno of the open or the
 * write (a short write is EIO). */
static int do_write(const char *path, const char *text)
{
	size_t len = strlen(text);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n = -1;
	int e;

	if (fd >= 0) {
		n = write(fd, text, len);
		if (n >= 0 && (size_t)n != len) {
			errno = EIO;
			n = -1;
		}
		e = errno;
		close(fd);
		errno = e;
	}
	return outcome(n < 0 ? -1 : 0);
}

/* What one pread(2) of @size at @off returns, as is (a label file's
 * text ends in its newline), or the errno's name. */
static int do_pread(const char *path, long off, size_t size)
{
	char buf[512];
	ssize_t n = -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd >= 0 && size <= sizeof(buf))
		n = pread(fd, buf, size, off);
	else if (fd >= 0)
		errno = EINVAL;
	if (n < 0)
		return outcome(-1);
	fwrite(buf, 1, (size_t)n, stdout);
	if (fd >= 0)
		close(fd);
	return 0;
}

/* The access ACL u::rw-,u:@uid:rw-,g::---,m::rw-,o::--- in its xattr
 * form: version 2, then (tag, perm, id) entries, little-endian, in tag
 * order. */
static int acl_user(const char *path, unsigned int uid)
{
	static const struct { unsigned short tag, perm; } e[] = {
		{ 0x01, 6 }, { 0x02, 6 }, { 0x04, 0 }, { 0x10, 6 }, { 0x20, 0 },
	};
	unsigned char buf[4 + sizeof(e) / sizeof(*e) * 8], *p = buf + 4;
	size_t i;

	memset(buf, 0, sizeof(buf));
	buf[0] = 2;
	for (i = 0; i < sizeof(e) / sizeof(*e); i++, p += 8) {
		unsigned int id = e[i].tag == 0x02 ? uid : 0xffffffffu;

		p[0] = (unsigned char)e[i].tag;
		p[2] = (unsigned char)e[i].perm;
		p[4] = id & 0xff;
		p[5] = (id >> 8) & 0xff;
		p[6] = (id >> 16) & 0xff;
		p[7] = (id >> 24) & 0xff;
	}
	return setxattr(path, "system.posix_acl_access", buf, sizeof(buf), 0);
}

/* Become @uid holding CAP_MAC_ADMIN and CAP_MAC_OVERRIDE, effective and
 * permitted, and no other capability (Smack's privileged subject). */
static int mac_admin(uid_t uid)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2] = { { 0 } };
	const __u32 bits = 1U << (CAP_MAC_OVERRIDE - 32) |
			   1U << (CAP_MAC_ADMIN - 32);

	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) || setgroups(0, NULL) ||
	    setgid((gid_t)uid) || setuid(uid))
		return -1;
	d[1].effective = bits;
	d[1].permitted = bits;
	return (int)syscall(SYS_capset, &h, d);
}

int main(int argc, char **argv)
{
	const char *op;

	if (argc < 3) {
		fprintf(stderr, "usage: kact OP ARGS... (see kact.c)\n");
		return 2;
	}
	op = argv[1];
	if (!strcmp(op, "mac-admin") && argc >= 5) {
		if (mac_admin((uid_t)num(argv[2])))
			return outcome(-1);
		argc -= 2;
		argv += 2;
		op = argv[1];
	}
	if (!strcmp(op, "path-access") && argc == 4)
		return outcome(access(argv[2], access_mode(argv[3])));
	if (!strcmp(op, "unlink") && argc == 3)
		return outcome(unlink(argv[2]));
	if (!strcmp(op, "rmdir") && argc == 3)
		return outcome(rmdir(argv[2]));
	if (!strcmp(op, "mknod-chr") && argc == 3)
		return outcome(mknod(argv[2], S_IFCHR | 0600, makedev(1, 3)));
	if (!strcmp(op, "path-stat") && argc == 4)
		return outcome(stat_times(argv[2], num(argv[3])));
	if (!strcmp(op, "getxattr") && argc == 4) {
		char value[256];

		return outcome(getxattr(argv[2], argv[3], value,
					sizeof(value)) < 0 ? -1 : 0);
	}
	if (!strcmp(op, "write") && argc == 4)
		return do_write(argv[2], argv[3]);
	if (!strcmp(op, "pread") && argc == 5)
		return do_pread(argv[2], num(argv[3]), (size_t)num(argv[4]));
	if (!strcmp(op, "acl-user") && argc == 4)
		return outcome(acl_user(argv[2], (unsigned int)num(argv[3])));
	if (!strcmp(op, "setxattr") && argc == 5)
		return outcome(setxattr(argv[2], argv[3], argv[4],
					strlen(argv[4]), 0));
	if (!strcmp(op, "removexattr") && argc == 4)
		return outcome(removexattr(argv[2], argv[3]));
	if (!strncmp(op, "key-", 4) && argc == 3)
		return outcome(do_key(op, argv[2]));
	if (!strncmp(op, "mq-", 3) && (argc == 3 || argc == 4))
		return outcome(do_mq(op, argv[2], argc == 4 ? argv[3] : NULL));
	if ((!strcmp(op, "setown") || !strcmp(op, "setsig")) && argc == 3)
		return outcome(do_fcntl_owner(op, argv[2]));
	if ((!strcmp(op, "chmod") || !strcmp(op, "fchmod") ||
	     !strcmp(op, "chown") || !strcmp(op, "fchown") ||
	     !strcmp(op, "utimens") || !strcmp(op, "futimens")) && argc == 3)
		return outcome(do_setattr(op, argv[2]));
	if (!strcmp(op, "fd-pass") && argc == 7)
		return outcome(do_fdpass(argv[2], argv[3], (uid_t)num(argv[4]),
					 argv[5], argv[6]));
	if (!strcmp(op, "pair") && argc == 6)
		return outcome(do_pair(argv[2], argv[3], (uid_t)num(argv[4]),
				       argv[5]));
	if (strstr(op, "-loop") && argc == 4)
		return do_loop(op, num(argv[2]), num(argv[3]));
	if (!strncmp(op, "msg", 3) || !strncmp(op, "shm", 3) ||
	    !strncmp(op, "sem", 3))
		return outcome(do_ipc(op, (key_t)num(argv[2])));
	if (!strcmp(op, "inet6-listen"))
		return outcome(do_inet6(op, "::", (int)num(argv[2])));
	if ((!strcmp(op, "inet6-send") || !strcmp(op, "inet6-connect")) &&
	    argc == 4)
		return outcome(do_inet6(op, argv[2], (int)num(argv[3])));
	if (!strcmp(op, "udp6-bind"))
		return outcome(do_udp6(op, "::", (int)num(argv[2])));
	if (!strcmp(op, "udp6-send") && argc == 4)
		return outcome(do_udp6(op, argv[2], (int)num(argv[3])));
	if ((!strncmp(op, "inet", 4) || !strncmp(op, "udp", 3)) && argc == 4)
		return outcome(do_inet(op, argv[2], (int)num(argv[3])));
	if (!strncmp(op, "unix", 4) || !strncmp(op, "dgram", 5))
		return outcome(do_unix(op, argv[2]));
	return outcome(do_task(op, (pid_t)num(argv[2])));
}
