// SPDX-License-Identifier: GPL-2.0-only
/*
 * task-matrix.c - the task/IPC/socket differential harness (issue 17).
 *
 *   task-matrix rules                     the policy, in load2 format
 *   task-matrix run --smack|--kmod        run every case, print results
 *   task-matrix label FILE                print our label (after exec)
 *   task-matrix compare --lane LANE KERNEL MODULE ALLOW BUGS
 *                                         compare two runs, print TAP
 *
 * The same cases run in the Smack reference kernel (qemu, --smack: labels
 * written to /proc/self/attr/current) and under smackfuse.ko on Debian's
 * kernel (qemu, --kmod: labels written to the module's current file).
 * The guest script loads the rules into smackfs or the module first.
 *
 * One process runs everything, so the matrix costs a few forks, not one
 * fork+exec per case:
 *   - a target per object label (targets[]): leads a process group of
 *     its own, opens a floor file (for pidfd_getfd), makes a POSIX message
 *     queue with its label while still root, takes the label as root,
 *     drops to UID, makes a message queue (pre-filled), a shared memory
 *     segment and a semaphore set, a keyring and a key in it, a UNIX
 *     stream listener, a UNIX datagram socket, a TCP listener and a UDP
 *     socket on 127.0.0.1 and on ::1, then serves them (accepts, drains,
 *     counts UDP datagrams and SIGIOs in shared memory);
 *   - files on a tmpfs of our own: one per label (fd passing), copies of
 *     this program with SMACK64EXEC, pages with SMACK64MMAP;
 *   - per subject (subjects[]): a process that, still root, forks one
 *     child per object label (for setpgid and PTRACE_TRACEME, which need a
 *     child) and an fd sender (stays root: opens the labelled files, or
 *     has a child labelled like a target make a socket, and passes them
 *     over a socketpair), then takes the subject label, drops to UID
 *     (every subject and target has the same uid, so DAC never decides;
 *     dropping clears CAP_MAC_OVERRIDE) and runs every case; then the
 *     same for root (label _, uid 0, all capabilities): what privilege
 *     overrides and what it does not;
 *   - then the ptrace rule modes: attach, read and TRACEME under exact
 *     and draconian by every subject and by root;
 *   - root once more with onlycap naming another label (root-onlycap);
 *   - last, IPC_RMID of every object, subject after subject.
 * Output, one line per case:  @case OP/SUBJECT/OBJECT RESULT
 * RESULT is OK, an errno name, DROPPED (a UDP datagram or a SIGIO sent
 * but never received), TIMEOUT (a TCP connect that neither completed nor
 * failed), NOFD (an fd that did not arrive: security_file_receive refused
 * it), OK:LABEL (an exec, and the label the program then runs with) or
 * SIG<name> (an exec killed).
 *
 * compare (casediff.c) prints, for one lane, "N/M match", the
 * differences counted by kind, and TAP: one point per operation, a
 * "not ok" per unexplained difference, a point per allow-list entry of
 * the lane (kind, reason and hits) and a "not ok # TODO" per known bug;
 * an entry that takes no case fails.  Entries:
 *   LANES CASE-GLOB KERNEL-GLOB MODULE-GLOB KIND reason...  (fnmatch(3);
 * task-allow.txt gives the rules)
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/kcmp.h>
#include <linux/keyctl.h>
#include <mqueue.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/msg.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "casediff.h"
#include "fdpass.h"

#define UID		39201		/* every subject and target */
#define KEY_BASE	0x7a5c00	/* IPC keys: KEY_BASE + target index */
#define PORT_BASE	7700		/* TCP and UDP: PORT_BASE + index */
#define PORT6_BASE	7720		/* TCP and UDP on ::1: PORT6_BASE + i */
#define PORT6_NOBODY	7739		/* bound by nobody */
#define FILE_DIR	"/tmp/task-matrix"
#define PREFILL		32		/* messages in each queue at start */
#define NET_WAIT_MS	5000		/* for handshakes, datagrams, SIGIO */
#define IOPRIO_WHO_PROCESS	1
#define IOPRIO_BE4		((2 << 13) | 4)

struct label {
	const char *name;	/* in case ids: no * or ^ to escape in globs */
	const char *label;
};

/*
 * Objects: same label as subject A, one rule of each kind from A (r, w,
 * rw, x only: a rule with some access grants a request of nothing), no
 * rule, floor, hat.  Star cannot be a task's label (both refuse it): only
 * files carry it.
 */
static const struct label objects[] = {
	{ "A", "A" }, { "Br", "Br" }, { "Bw", "Bw" }, { "Brw", "Brw" },
	{ "Bx", "Bx" }, { "Bn", "Bn" }, { "floor", "_" }, { "hat", "^" },
	{ "star", "*" },
};
#define NFILES	(int)(sizeof(objects) / sizeof(objects[0]))
#define NTASKS	(NFILES - 1)	/* all but star */

static const struct label subjects[] = {
	{ "A", "A" }, { "hat", "^" }, { "floor", "_" },
};
#define NSUBJECTS	(int)(sizeof(subjects) / sizeof(subjects[0]))

/*
 * The policy.  Rules back to A from Brw (and to ^, _ from the labels they
 * may write) make the two-way socket checks (UNIX stream connect, the
 * TCP handshake) pass for some pairs and not for others (Bw: one way).
 */
static const char *const rules[] = {
	"A Br r", "A Bw w", "A Brw rw", "A Bx x", "Brw A w",
	"^ Bw w", "^ Brw rw", "Brw ^ w",
	"_ Brw rw", "Brw _ w",
	/* SMACK64MMAP labels: Mfull's rules cover every subject's */
	"Mfull Br r", "Mfull Bw w", "Mfull Brw rw", "Mfull Bx x",
	"Mpart Br r",	/* ... and Mpart's do not */
};

/*
 * SMACK64MMAP labels of the mapped files (a NULL label: the file has
 * none).  Mainline refuses * and @ there, so neither is tried.
 */
static const struct label mmap_labels[] = {
	{ "A", "A" }, { "Brw", "Brw" }, { "Bn", "Bn" }, { "floor", "_" },
	{ "hat", "^" }, { "Mfull", "Mfull" }, { "Mpart", "Mpart" },
	{ "none", NULL },
};
#define NMMAP	(int)(sizeof(mmap_labels) / sizeof(mmap_labels[0]))

/* What a target publishes (in a shared page the harness mapped). */
struct target {
	pid_t pid;
	int msq, shm, sem;
	int getfd;		/* a floor file open for reading */
	int udp_got;		/* datagrams received: __atomic_* */
	int mapped_got;		/* on the IPv4 socket from an IPv6 one */
	int udp6_got;		/* on the IPv6 socket */
	int key, keyring;	/* a user key in a keyring, both ours */
	int sigio_got;		/* SIGIO received: __atomic_* */
};

static const char *label_file, *ptrace_file, *onlycap_file;
static struct target *targets;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("task-matrix: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

static void set_label(const char *label)
{
	int fd = open(label_file, O_WRONLY);

	if (fd < 0 || write(fd, label, strlen(label)) < 0)
		die("set label %s: %s", label, strerror(errno));
	close(fd);
}

/* Take @label while root, then become UID: no capability is left. */
static void become(const char *label)
{
	set_label(label);
	if (setgroups(0, NULL) || setgid(UID) || setuid(UID))
		die("drop to uid %d: %s", UID, strerror(errno));
	/* a uid change makes us undumpable: ptrace would stop at EPERM */
	prctl(PR_SET_DUMPABLE, 1);
}

static const char *errname(int e)
{
	const char *n = strerrorname_np(e);

	return n ? n : "E?";
}

static void report(const char *op, const char *s, const char *o,
		   const char *res)
{
	printf("@case %s/%s/%s %s\n", op, s, o, res);
}

static void report_rc(const char *op, const char *s, const char *o, int rc)
{
	report(op, s, o, rc >= 0 ? "OK" : errname(errno));
}

/* ---- targets ---- */

static socklen_t abstract(struct sockaddr_un *sun, const char *kind, int i)
{
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	snprintf(sun->sun_path + 1, sizeof(sun->sun_path) - 1, "tm.%s.%d",
		 kind, i);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 +
			   strlen(sun->sun_path + 1));
}

static struct sockaddr_in loopback(int i)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };

	sin.sin_port = htons((unsigned short)(PORT_BASE + i));
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return sin;
}

/* [::1]:port, or ::ffff:127.0.0.1 (IPv4 from an IPv6 socket) */
static struct sockaddr_in6 loopback6(int port, bool mapped)
{
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };

	sin6.sin6_port = htons((unsigned short)port);
	if (mapped)
		inet_pton(AF_INET6, "::ffff:127.0.0.1", &sin6.sin6_addr);
	else
		sin6.sin6_addr = in6addr_loopback;
	return sin6;
}

static int bound(int domain, int type, const struct sockaddr *sa,
		 socklen_t len)
{
	int fd = socket(domain, type | SOCK_NONBLOCK, 0), one = 1;

	if (fd < 0)
		die("socket: %s", strerror(errno));
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (domain == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(fd, sa, len))
		die("bind: %s", strerror(errno));
	if (type == SOCK_STREAM && listen(fd, 128))
		die("listen: %s", strerror(errno));
	return fd;
}

/* A POSIX message queue per target, in the mqueue filesystem. */
static void mq_name(char *name, int i)
{
	snprintf(name, 32, "/tm.%d", i);
}

/*
 * Made with the target's label (the queue's inode takes its creator's)
 * but still as root: mainline asks w on the mqueue root (floor) to
 * create, which CAP_MAC_OVERRIDE grants.
 */
static void make_mq(int i)
{
	char name[32];
	mqd_t mq;

	set_label(objects[i].label);
	mq_name(name, i);
	mq = mq_open(name, O_CREAT | O_RDWR, 0666, NULL);
	/* 0666 whatever the umask: DAC must not decide (mqd_t is an fd) */
	if (mq < 0 || fchmod(mq, 0666))
		die("POSIX queue %s: %s", name, strerror(errno));
	mq_close(mq);
}

static void make_ipc(struct target *t, int i)
{
	struct { long type; char text[8]; } m = { 1, "x" };
	int n;

	t->msq = msgget(KEY_BASE + i, IPC_CREAT | IPC_EXCL | 0666);
	t->shm = shmget(KEY_BASE + i, 4096, IPC_CREAT | IPC_EXCL | 0666);
	t->sem = semget(KEY_BASE + i, 1, IPC_CREAT | IPC_EXCL | 0666);
	if (t->msq < 0 || t->shm < 0 || t->sem < 0)
		die("IPC objects of target %d: %s", i, strerror(errno));
	/* msgrcv is checked per message found: never let a queue be empty */
	for (n = 0; n < PREFILL; n++)
		if (msgsnd(t->msq, &m, sizeof(m.text), IPC_NOWAIT))
			die("prefill: %s", strerror(errno));
}

/* Which counter a datagram's first byte says it is for. */
static int *udp_counter(struct target *t, char what)
{
	switch (what) {
	case 'm': return &t->mapped_got;
	case '6': return &t->udp6_got;
	default: return &t->udp_got;
	}
}

/*
 * Serve the sockets until killed (listeners: even, datagram sockets:
 * odd; UNIX, IPv4, IPv6); count UDP datagrams that got in.
 */
#define NSERVE	6
static void serve(int fds[NSERVE], struct target *t)
{
	struct pollfd p[NSERVE];
	char b[16];
	int i, c;

	for (i = 0; i < NSERVE; i++)
		p[i] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
	for (;;) {
		if (poll(p, NSERVE, -1) <= 0)
			continue;
		for (i = 0; i < NSERVE; i += 2) {
			c = p[i].revents ? accept(fds[i], NULL, NULL) : -1;
			if (c >= 0)
				close(c);
		}
		if (p[1].revents)
			(void)!read(fds[1], b, sizeof(b));
		for (i = 3; i < NSERVE; i += 2)
			if (p[i].revents && read(fds[i], b, sizeof(b)) > 0)
				__atomic_add_fetch(udp_counter(t, b[0]), 1,
						   __ATOMIC_SEQ_CST);
	}
}

/*
 * Keys: a keyring in our process keyring and a user key in it, both
 * labelled with ours (smack_key_alloc), open to every uid and possessor
 * (0x3f3f3f3f) so that only Smack decides.
 */
static long keyctl(int cmd, unsigned long a, unsigned long b,
		   unsigned long c, unsigned long d)
{
	return syscall(SYS_keyctl, cmd, a, b, c, d);
}

static void make_keys(struct target *t)
{
	t->keyring = (int)syscall(SYS_add_key, "keyring", "tm.ring", NULL, 0,
				  KEY_SPEC_PROCESS_KEYRING);
	t->key = t->keyring < 0 ? -1 :
		 (int)syscall(SYS_add_key, "user", "tm.key", "v", 1,
			      t->keyring);
	if (t->key < 0 ||
	    keyctl(KEYCTL_SETPERM, (unsigned long)t->keyring, 0x3f3f3f3f, 0,
		   0) ||
	    keyctl(KEYCTL_SETPERM, (unsigned long)t->key, 0x3f3f3f3f, 0, 0))
		die("keys: %s", strerror(errno));
}

static int *sigio_counter;

static void on_sigio(int sig)
{
	(void)sig;
	__atomic_add_fetch(sigio_counter, 1, __ATOMIC_SEQ_CST);
}

static void target_main(int i, int ready)
{
	struct sigaction sa = { .sa_handler = on_sigio,
				.sa_flags = SA_RESTART };
	struct target *t = &targets[i];
	struct sockaddr_un sun;
	struct sockaddr_in sin = loopback(i);
	struct sockaddr_in6 sin6 = loopback6(PORT6_BASE + i, false);
	socklen_t len;
	int fds[NSERVE];

	sigio_counter = &t->sigio_got;
	sigaction(SIGIO, &sa, NULL);
	/* a group of its own, for kill(-pgrp) and PRIO_PGRP */
	if (setpgid(0, 0))
		die("setpgid: %s", strerror(errno));
	/* for pidfd_getfd: floor, so only the ptrace check can refuse it */
	t->getfd = open(FILE_DIR "/floor", O_RDONLY);
	if (t->getfd < 0)
		die(FILE_DIR "/floor: %s", strerror(errno));
	make_mq(i);
	become(objects[i].label);
	make_ipc(t, i);
	make_keys(t);
	len = abstract(&sun, "s", i);
	fds[0] = bound(AF_UNIX, SOCK_STREAM, (struct sockaddr *)&sun, len);
	len = abstract(&sun, "d", i);
	fds[1] = bound(AF_UNIX, SOCK_DGRAM, (struct sockaddr *)&sun, len);
	fds[2] = bound(AF_INET, SOCK_STREAM, (struct sockaddr *)&sin,
		       sizeof(sin));
	fds[3] = bound(AF_INET, SOCK_DGRAM, (struct sockaddr *)&sin,
		       sizeof(sin));
	fds[4] = bound(AF_INET6, SOCK_STREAM, (struct sockaddr *)&sin6,
		       sizeof(sin6));
	fds[5] = bound(AF_INET6, SOCK_DGRAM, (struct sockaddr *)&sin6,
		       sizeof(sin6));
	t->pid = getpid();
	if (write(ready, "r", 1) != 1)
		_exit(2);
	close(ready);
	serve(fds, t);
}

static void start_targets(void)
{
	int p[2], i;
	char c;

	targets = mmap(NULL, sizeof(*targets) * NTASKS, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (targets == MAP_FAILED || pipe(p))
		die("setup: %s", strerror(errno));
	for (i = 0; i < NTASKS; i++) {
		fflush(stdout);
		if (fork() == 0) {
			close(p[0]);
			target_main(i, p[1]);
		}
		if (read(p[0], &c, 1) != 1)
			die("target %s did not start", objects[i].name);
	}
	close(p[0]);
	close(p[1]);
}

static void xattr(int fd, const char *path, const char *name,
		  const char *value)
{
	if (value && fsetxattr(fd, name, value, strlen(value), 0))
		die("%s %s=%s: %s", path, name, value, strerror(errno));
}

/* FILE_DIR/@name: @mode, @size bytes of @data, SMACK64 @label, @xname. */
static void make_file(const char *name, mode_t mode, const char *label,
		      const char *xname, const char *xvalue,
		      const char *data, size_t size)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), FILE_DIR "/%s", name);
	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, mode);
	if (fd < 0 || fchmod(fd, mode) ||
	    (size && write(fd, data, size) != (ssize_t)size))
		die("%s: %s", path, strerror(errno));
	xattr(fd, path, "security.SMACK64", label);
	xattr(fd, path, xname, xvalue);
	close(fd);
}

/* Our own executable, for the SMACK64EXEC copies (static: no loader). */
static char *self_image(size_t *size)
{
	static char buf[4 << 20];
	int fd = open("/proc/self/exe", O_RDONLY);
	ssize_t n;

	*size = 0;
	while (fd >= 0 && *size < sizeof(buf) &&
	       (n = read(fd, buf + *size, sizeof(buf) - *size)) > 0)
		*size += (size_t)n;
	if (fd < 0 || *size == 0 || *size == sizeof(buf))
		die("/proc/self/exe: %s", strerror(errno));
	close(fd);
	return buf;
}

/*
 * Object i's label as an attribute value: every other one with a tail
 * that smk_fetch() cuts off at the '/' ("Br/t" is Br), which the module
 * must read the same way.  Returns a static buffer.
 */
static const char *stored_label(int i)
{
	static char value[64];

	snprintf(value, sizeof(value), i % 2 ? "%s/t" : "%s",
		 objects[i].label);
	return value;
}

/*
 * On a tmpfs of our own (no noexec, xattrs kept in both kernels):
 *   <name>    mode 0666, SMACK64 = the label: passed as open fds
 *   x.<name>  a copy of this program, SMACK64 _, SMACK64EXEC = the label
 *   m.<name>  a page, SMACK64 _, SMACK64MMAP = the label
 * (the first two as stored_label() writes it).
 */
static void make_files(void)
{
	char name[64], page[4096] = "";
	size_t size;
	char *exe = self_image(&size);
	int i;

	mkdir(FILE_DIR, 0755);
	if (mount("tmpfs", FILE_DIR, "tmpfs", 0, "mode=755"))
		die("mount %s: %s", FILE_DIR, strerror(errno));
	for (i = 0; i < NFILES; i++)
		make_file(objects[i].name, 0666, stored_label(i), "", NULL,
			  NULL, 0);
	for (i = 0; i <= NTASKS; i++) {
		snprintf(name, sizeof(name), "x.%s",
			 i < NTASKS ? objects[i].name : "none");
		make_file(name, 0755, "_", "security.SMACK64EXEC",
			  i < NTASKS ? stored_label(i) : NULL, exe, size);
	}
	for (i = 0; i < NMMAP; i++) {
		snprintf(name, sizeof(name), "m.%s", mmap_labels[i].name);
		make_file(name, 0644, "_", "security.SMACK64MMAP",
			  mmap_labels[i].label, page, sizeof(page));
	}
}

/* ---- task operations: target pid ---- */

static int do_ptrace(pid_t pid)
{
	int st;

	if (ptrace(PTRACE_ATTACH, pid, 0, 0) < 0)
		return -1;
	waitpid(pid, &st, __WALL);
	return (int)ptrace(PTRACE_DETACH, pid, 0, 0);
}

/*
 * get_robust_list(2): a ptrace access check in read mode and nothing
 * else (opening /proc/PID/environ also walks /proc/PID, whose inode
 * carries the task's label: mainline then wants x as well).
 */
static int do_ptrace_read(pid_t pid)
{
	void *head;
	size_t len;

	return (int)syscall(SYS_get_robust_list, pid, &head, &len);
}

/*
 * Open a file below /proc/PID: its inode carries the task's label, so
 * the open's own access and then r are checked (after x on /proc/PID).
 */
static int open_proc(pid_t pid, const char *file, int flags)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
	fd = open(path, flags);
	return fd < 0 ? -1 : close(fd);
}

/* /proc/PID/environ: the checks above, then a ptrace read check. */
static int do_environ(pid_t pid)
{
	return open_proc(pid, "environ", O_RDONLY);
}

static int do_proc_status(pid_t pid)
{
	return open_proc(pid, "status", O_RDONLY);
}

static int do_proc_comm_w(pid_t pid)
{
	return open_proc(pid, "comm", O_WRONLY);
}

static int do_proc_comm_a(pid_t pid)
{
	return open_proc(pid, "comm", O_WRONLY | O_APPEND);
}

static int do_getprio(pid_t pid)
{
	errno = 0;
	return getpriority(PRIO_PROCESS, pid) == -1 && errno ? -1 : 0;
}

static int do_setaffinity(pid_t pid)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -1;
	return sched_setaffinity(pid, sizeof(set), &set);
}

static int do_getaffinity(pid_t pid)
{
	cpu_set_t set;

	return sched_getaffinity(pid, sizeof(set), &set);
}

static int do_getparam(pid_t pid)
{
	struct sched_param sp;

	return sched_getparam(pid, &sp);
}

static int do_setsched(pid_t pid)
{
	struct sched_param sp = { 0 };

	return sched_setscheduler(pid, SCHED_OTHER, &sp);
}

/* The other ways to send a signal reach the same hook (task_kill). */
static int do_tgkill(pid_t pid)
{
	return (int)syscall(SYS_tgkill, pid, pid, SIGWINCH);
}

static int do_sigqueue(pid_t pid)
{
	union sigval v = { .sival_int = 0 };

	return sigqueue(pid, SIGWINCH, v);
}

static int do_pidfd_kill(pid_t pid)
{
	int fd = (int)syscall(SYS_pidfd_open, pid, 0), rc;

	if (fd < 0)
		return -1;
	rc = (int)syscall(SYS_pidfd_send_signal, fd, SIGWINCH, NULL, 0);
	close(fd);
	return rc;
}

static int do_kill(pid_t pid) { return kill(pid, SIGWINCH); }
static int do_killcont(pid_t pid) { return kill(pid, SIGCONT); }
static int do_kill0(pid_t pid) { return kill(pid, 0); }
static int do_getpgid(pid_t pid) { return getpgid(pid); }
static int do_getsid(pid_t pid) { return getsid(pid); }
static int do_setnice(pid_t pid) { return setpriority(PRIO_PROCESS, pid, 0); }
static int do_getsched(pid_t pid) { return sched_getscheduler(pid); }

static int do_setioprio(pid_t pid)
{
	return (int)syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, pid,
			    IOPRIO_BE4);
}

static int do_getioprio(pid_t pid)
{
	return (int)syscall(SYS_ioprio_get, IOPRIO_WHO_PROCESS, pid);
}

/* Another way into task_kill: a queued signal with siginfo (SI_QUEUE). */
static siginfo_t queue_info(void)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	si.si_signo = SIGWINCH;
	si.si_code = SI_QUEUE;	/* negative: may go to another process */
	si.si_pid = getpid();
	si.si_uid = getuid();
	return si;
}

static int do_rt_sigqueueinfo(pid_t pid)
{
	siginfo_t si = queue_info();

	return (int)syscall(SYS_rt_sigqueueinfo, pid, SIGWINCH, &si);
}

static int do_rt_tgsigqueueinfo(pid_t pid)
{
	siginfo_t si = queue_info();

	return (int)syscall(SYS_rt_tgsigqueueinfo, pid, pid, SIGWINCH, &si);
}

static int do_tkill(pid_t pid)
{
	return (int)syscall(SYS_tkill, pid, SIGWINCH);
}

/* Each target leads a process group of its own (target_main). */
static int do_kill_pgrp(pid_t pid) { return kill(-pid, SIGWINCH); }

static int do_setprio_pgrp(pid_t pid)
{
	return setpriority(PRIO_PGRP, pid, 0);
}

static int do_getprio_pgrp(pid_t pid)
{
	errno = 0;
	return getpriority(PRIO_PGRP, pid) == -1 && errno ? -1 : 0;
}

/*
 * Cross-memory access: ptrace_may_access() in attach mode (mm_access).
 * The target is a fork of this process: vm_byte is at the same address.
 */
static char vm_byte;

static int vm_rw(pid_t pid, int write)
{
	char c = 0;
	struct iovec local = { &c, 1 }, remote = { &vm_byte, 1 };

	if (write)
		return (int)syscall(SYS_process_vm_writev, pid, &local, 1,
				    &remote, 1, 0);
	return (int)syscall(SYS_process_vm_readv, pid, &local, 1, &remote, 1,
			    0);
}

static int do_vm_readv(pid_t pid) { return vm_rw(pid, 0); }
static int do_vm_writev(pid_t pid) { return vm_rw(pid, 1); }

/* kcmp: a ptrace read check on both tasks (we pass ours). */
static int do_kcmp_vm(pid_t pid)
{
	return (int)syscall(SYS_kcmp, getpid(), pid, KCMP_VM, 0, 0);
}

static int do_kcmp_file(pid_t pid)
{
	return (int)syscall(SYS_kcmp, getpid(), pid, KCMP_FILE, 1, 1);
}

/*
 * pidfd_getfd: a ptrace attach check, then the file's receive check (a
 * floor file open for reading, which everyone may receive).
 */
static int do_pidfd_getfd(pid_t pid)
{
	int pfd = (int)syscall(SYS_pidfd_open, pid, 0), fd;
	int i;

	if (pfd < 0)
		return -1;
	for (i = 0; i < NTASKS && targets[i].pid != pid; i++)
		;
	fd = (int)syscall(SYS_pidfd_getfd, pfd, targets[i].getfd, 0);
	close(pfd);
	return fd < 0 ? -1 : close(fd);
}

/*
 * The kernel's struct sched_attr under a name of our own: glibc 2.41
 * (Debian 13) defines it in <sched.h>, older ones do not, and
 * linux/sched/types.h clashes with glibc's struct sched_param.  size says
 * how much the kernel reads.
 */
struct tm_sched_attr {
	unsigned int size, sched_policy;
	unsigned long long sched_flags;
	int sched_nice;
	unsigned int sched_priority;
	unsigned long long sched_runtime, sched_deadline, sched_period;
};

static int do_setattr(pid_t pid)
{
	struct tm_sched_attr a = { .size = sizeof(a),
				.sched_policy = SCHED_OTHER };

	return (int)syscall(SYS_sched_setattr, pid, &a, 0);
}

static int do_getattr(pid_t pid)
{
	struct tm_sched_attr a;

	return (int)syscall(SYS_sched_getattr, pid, &a, sizeof(a), 0);
}

static int do_setparam(pid_t pid)
{
	struct sched_param sp = { 0 };

	return sched_setparam(pid, &sp);
}

static int do_rr_interval(pid_t pid)
{
	struct timespec ts;

	return sched_rr_get_interval(pid, &ts);
}

/* /proc/PID/mem: the open's checks, then ptrace attach (mm_access). */
static int do_proc_mem(pid_t pid)
{
	return open_proc(pid, "mem", O_RDONLY);
}

/* /proc/PID/attr/current read: the open's checks; reading asks none. */
static int do_proc_attr(pid_t pid)
{
	char path[64], buf[256];
	int fd, rc;

	snprintf(path, sizeof(path), "/proc/%d/attr/current", (int)pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	rc = (int)read(fd, buf, sizeof(buf));
	close(fd);
	return rc;
}

/* /proc/PID/fd listed: the directory's open, then getdents. */
static int do_proc_fd_list(pid_t pid)
{
	char path[64], buf[1024];
	int fd, rc;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	fd = open(path, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return -1;
	rc = (int)syscall(SYS_getdents64, fd, buf, sizeof(buf));
	close(fd);
	return rc;
}

/* readlink below /proc/PID/fd: mainline's readlink check, ptrace read. */
static int do_proc_fd_link(pid_t pid)
{
	char path[64], buf[256];

	snprintf(path, sizeof(path), "/proc/%d/fd/1", (int)pid);
	return (int)readlink(path, buf, sizeof(buf));
}

/*
 * stat and access below /proc/PID and of /proc/PID itself: mainline's
 * smack_inode_getattr asks r, smack_inode_permission the mask's access,
 * of the inode (the task's label), besides x to walk in.
 */
static int do_proc_pid_stat(pid_t pid)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	return stat(path, &st);
}

static int do_proc_status_stat(pid_t pid)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	return stat(path, &st);
}

static int do_proc_status_access(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	return access(path, R_OK);
}

/* utimes to now: mainline's smack_inode_setattr asks w (we own it). */
static int do_proc_status_utimes(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	return utimensat(AT_FDCWD, path, NULL, 0);
}

struct task_op {
	const char *name;
	int (*fn)(pid_t pid);
};

static const struct task_op task_ops[] = {
	{ "kill", do_kill }, { "kill-cont", do_killcont },
	{ "kill0", do_kill0 }, { "tgkill", do_tgkill },
	{ "sigqueue", do_sigqueue }, { "pidfd-send-signal", do_pidfd_kill },
	{ "ptrace-attach", do_ptrace },
	{ "ptrace-read", do_ptrace_read }, { "proc-environ", do_environ },
	{ "proc-status", do_proc_status }, { "proc-comm-w", do_proc_comm_w },
	{ "proc-comm-a", do_proc_comm_a },
	{ "getpgid", do_getpgid },
	{ "getsid", do_getsid }, { "setpriority", do_setnice },
	{ "getpriority", do_getprio }, { "sched-setscheduler", do_setsched },
	{ "sched-getscheduler", do_getsched },
	{ "sched-getparam", do_getparam },
	{ "sched-setaffinity", do_setaffinity },
	{ "sched-getaffinity", do_getaffinity },
	{ "ioprio-set", do_setioprio }, { "ioprio-get", do_getioprio },
	{ "rt-sigqueueinfo", do_rt_sigqueueinfo },
	{ "rt-tgsigqueueinfo", do_rt_tgsigqueueinfo }, { "tkill", do_tkill },
	{ "kill-pgrp", do_kill_pgrp }, { "setpriority-pgrp", do_setprio_pgrp },
	{ "getpriority-pgrp", do_getprio_pgrp },
	{ "process-vm-readv", do_vm_readv },
	{ "process-vm-writev", do_vm_writev }, { "kcmp-vm", do_kcmp_vm },
	{ "kcmp-file", do_kcmp_file }, { "pidfd-getfd", do_pidfd_getfd },
	{ "sched-setattr", do_setattr }, { "sched-getattr", do_getattr },
	{ "sched-setparam", do_setparam },
	{ "sched-rr-get-interval", do_rr_interval },
	{ "proc-mem", do_proc_mem }, { "proc-attr-current", do_proc_attr },
	{ "proc-fd-list", do_proc_fd_list },
	{ "proc-fd-readlink", do_proc_fd_link },
	{ "proc-pid-stat", do_proc_pid_stat },
	{ "proc-status-stat", do_proc_status_stat },
	{ "proc-status-access", do_proc_status_access },
	{ "proc-status-utimes", do_proc_status_utimes },
};

/* ---- System V IPC: the target's objects, by id or by key ---- */

static int do_msgsnd(int i)
{
	struct { long type; char text[8]; } m = { 1, "x" };

	return msgsnd(targets[i].msq, &m, sizeof(m.text), IPC_NOWAIT);
}

static int do_msgrcv(int i)
{
	struct { long type; char text[8]; } m;

	return (int)msgrcv(targets[i].msq, &m, sizeof(m.text), 0, IPC_NOWAIT);
}

static int do_msgstat(int i)
{
	struct msqid_ds ds;

	return msgctl(targets[i].msq, IPC_STAT, &ds);
}

/* IPC_SET to what the target made (the owner is UID: DAC lets us). */
static int do_msgset(int i)
{
	struct msqid_ds ds = { 0 };

	ds.msg_perm.uid = UID;
	ds.msg_perm.gid = UID;
	ds.msg_perm.mode = 0666;
	ds.msg_qbytes = 16384;	/* MSGMNB: raising it needs privilege */
	return msgctl(targets[i].msq, IPC_SET, &ds);
}

static int shmat_mode(int i, int flags)
{
	void *a = shmat(targets[i].shm, NULL, flags);

	return a == (void *)-1 ? -1 : shmdt(a);
}

static int do_shmat_ro(int i)
{
	return shmat_mode(i, SHM_RDONLY);
}

static int do_shmat_rw(int i)
{
	return shmat_mode(i, 0);
}

static int do_shmstat(int i)
{
	struct shmid_ds ds;

	return shmctl(targets[i].shm, IPC_STAT, &ds);
}

static int do_semop(int i)
{
	struct sembuf sb = { 0, 1, IPC_NOWAIT };

	return semop(targets[i].sem, &sb, 1);
}

static int do_semval(int i)
{
	return semctl(targets[i].sem, 0, GETVAL);
}

static int do_semsetval(int i)
{
	return semctl(targets[i].sem, 0, SETVAL, 0);
}

static int do_semstat(int i)
{
	struct semid_ds ds;

	return semctl(targets[i].sem, 0, IPC_STAT, &ds);
}

/* The *_STAT commands name the object by its index, not its id. */
static int idx(int id)
{
	return id & 0x7fff;	/* ipcid_to_idx(): IPCMNI_SHIFT 15 */
}

static int do_msgstat_idx(int i)
{
	struct msqid_ds ds;

	return msgctl(idx(targets[i].msq), MSG_STAT, &ds);
}

static int do_msgstat_any(int i)
{
	struct msqid_ds ds;

	return msgctl(idx(targets[i].msq), MSG_STAT_ANY, &ds);
}

/* IPC_INFO names no object (the kernel passes a NULL perm): allowed. */
static int do_msginfo(int i)
{
	struct msginfo mi;

	(void)i;
	return msgctl(0, IPC_INFO, (struct msqid_ds *)&mi);
}

static int do_shmset(int i)
{
	struct shmid_ds ds = { 0 };

	ds.shm_perm.uid = UID;
	ds.shm_perm.gid = UID;
	ds.shm_perm.mode = 0666;
	return shmctl(targets[i].shm, IPC_SET, &ds);
}

static int do_shmstat_idx(int i)
{
	struct shmid_ds ds;

	return shmctl(idx(targets[i].shm), SHM_STAT, &ds);
}

static int do_shmlock(int i)
{
	return shmctl(targets[i].shm, SHM_LOCK, NULL) ? -1 :
	       shmctl(targets[i].shm, SHM_UNLOCK, NULL);
}

static int do_semgetall(int i)
{
	unsigned short v[1];

	return semctl(targets[i].sem, 0, GETALL, v);
}

static int do_semsetall(int i)
{
	unsigned short v[1] = { 0 };

	return semctl(targets[i].sem, 0, SETALL, v);
}

static int do_semgetpid(int i) { return semctl(targets[i].sem, 0, GETPID); }
static int do_semgetncnt(int i) { return semctl(targets[i].sem, 0, GETNCNT); }
static int do_semgetzcnt(int i) { return semctl(targets[i].sem, 0, GETZCNT); }

static int do_semset(int i)
{
	struct semid_ds ds = { 0 };

	ds.sem_perm.uid = UID;
	ds.sem_perm.gid = UID;
	ds.sem_perm.mode = 0666;
	return semctl(targets[i].sem, 0, IPC_SET, &ds);
}

static int do_semstat_idx(int i)
{
	struct semid_ds ds;

	return semctl(idx(targets[i].sem), 0, SEM_STAT, &ds);
}

static int do_msgrm(int i) { return msgctl(targets[i].msq, IPC_RMID, NULL); }
static int do_shmrm(int i) { return shmctl(targets[i].shm, IPC_RMID, NULL); }
static int do_semrm(int i) { return semctl(targets[i].sem, 0, IPC_RMID); }

static int do_msgget0(int i) { return msgget(KEY_BASE + i, 0); }
static int do_msggetr(int i) { return msgget(KEY_BASE + i, 0444); }
static int do_msggetw(int i) { return msgget(KEY_BASE + i, 0222); }
static int do_shmget0(int i) { return shmget(KEY_BASE + i, 0, 0); }
static int do_shmgetrw(int i) { return shmget(KEY_BASE + i, 0, 0666); }
static int do_semget0(int i) { return semget(KEY_BASE + i, 0, 0); }
static int do_semgetr(int i) { return semget(KEY_BASE + i, 0, 0444); }

static int do_shmstat_any(int i)
{
	struct shmid_ds ds;

	return shmctl(idx(targets[i].shm), SHM_STAT_ANY, &ds);
}

static int do_semstat_any(int i)
{
	struct semid_ds ds;

	return semctl(idx(targets[i].sem), 0, SEM_STAT_ANY, &ds);
}

static int do_semtimedop(int i)
{
	struct sembuf sb = { 0, 1, IPC_NOWAIT };
	struct timespec ts = { 0, 0 };

	return semtimedop(targets[i].sem, &sb, 1, &ts);
}

/*
 * POSIX message queues: mainline labels a queue's inode with its
 * creator's label and checks the open as any inode's (may_open, then
 * smack_file_open's r).
 */
static int mq_open_mode(int i, int flags)
{
	char name[32];
	mqd_t mq;

	mq_name(name, i);
	mq = mq_open(name, flags);
	return mq < 0 ? -1 : mq_close(mq);
}

static int do_mq_open_r(int i) { return mq_open_mode(i, O_RDONLY); }
static int do_mq_open_w(int i) { return mq_open_mode(i, O_WRONLY); }

struct ipc_op {
	const char *name;
	int (*fn)(int i);
};

static const struct ipc_op ipc_ops[] = {
	{ "msgget-0", do_msgget0 }, { "msgget-r", do_msggetr },
	{ "msgget-w", do_msggetw }, { "msgsnd", do_msgsnd },
	{ "msgrcv", do_msgrcv }, { "msgctl-stat", do_msgstat },
	{ "msgctl-set", do_msgset }, { "msgctl-msgstat", do_msgstat_idx },
	{ "msgctl-msgstatany", do_msgstat_any }, { "msgctl-info", do_msginfo },
	{ "shmget-0", do_shmget0 }, { "shmget-rw", do_shmgetrw },
	{ "shmat-ro", do_shmat_ro }, { "shmat-rw", do_shmat_rw },
	{ "shmctl-stat", do_shmstat }, { "shmctl-set", do_shmset },
	{ "shmctl-shmstat", do_shmstat_idx }, { "shmctl-lock", do_shmlock },
	{ "semget-0", do_semget0 }, { "semget-r", do_semgetr },
	{ "semop", do_semop }, { "semctl-getval", do_semval },
	{ "semctl-setval", do_semsetval }, { "semctl-stat", do_semstat },
	{ "semctl-getall", do_semgetall }, { "semctl-setall", do_semsetall },
	{ "semctl-getpid", do_semgetpid }, { "semctl-getncnt", do_semgetncnt },
	{ "semctl-getzcnt", do_semgetzcnt }, { "semctl-set", do_semset },
	{ "semctl-semstat", do_semstat_idx },
	{ "shmctl-shmstatany", do_shmstat_any },
	{ "semctl-semstatany", do_semstat_any },
	{ "semtimedop", do_semtimedop },
	{ "mq-open-r", do_mq_open_r }, { "mq-open-w", do_mq_open_w },
};

/*
 * IPC_RMID last of all, subject after subject: the first one allowed
 * removes the object and the later ones find nothing (EINVAL), in both
 * kernels alike.
 */
static const struct ipc_op rmid_ops[] = {
	{ "msgctl-rmid", do_msgrm }, { "shmctl-rmid", do_shmrm },
	{ "semctl-rmid", do_semrm },
};

/* ---- the subject's own children: setpgid and PTRACE_TRACEME ---- */

struct kid {
	pid_t pid;
	int cmd, ans;	/* pipes: a command byte in, an errno byte out */
};

/* A child labelled @label waits for 't' (trace me) until its pipe closes. */
static void kid_main(const char *label, int cmd, int ans)
{
	unsigned char e;
	char c;

	become(label);
	/* ready: the parent must not act on us before we carry the label */
	if (write(ans, "r", 1) != 1)
		_exit(3);
	while (read(cmd, &c, 1) == 1) {
		e = ptrace(PTRACE_TRACEME, 0, 0, 0) < 0 ? (unsigned char)errno
							 : 0;
		if (write(ans, &e, 1) != 1)
			break;
	}
	_exit(0);
}

static void start_kids(struct kid *kids)
{
	int i, c[2], a[2];
	char ready;

	for (i = 0; i < NTASKS; i++) {
		if (pipe(c) || pipe(a))
			die("pipe: %s", strerror(errno));
		fflush(stdout);
		kids[i].pid = fork();
		if (kids[i].pid < 0)
			die("fork: %s", strerror(errno));
		if (kids[i].pid == 0) {
			close(c[1]);
			close(a[0]);
			kid_main(objects[i].label, c[0], a[1]);
		}
		close(c[0]);
		close(a[1]);
		kids[i].cmd = c[1];
		kids[i].ans = a[0];
		if (read(a[0], &ready, 1) != 1)
			die("child %s did not start", objects[i].name);
	}
}

static int kid_traceme(const struct kid *k)
{
	unsigned char e;

	if (write(k->cmd, "t", 1) != 1 || read(k->ans, &e, 1) != 1)
		return -1;
	errno = e;
	return e ? -1 : 0;
}

/* ---- fd passing: a root sender opens the file, the subject receives ---- */

static const int open_modes[] = { O_RDONLY, O_WRONLY, O_RDWR };
static const char *const open_names[] = { "r", "w", "rw", "sock" };
#define FD_SOCK	3

/*
 * A UDP socket labelled like target i: made by a child that takes the
 * label (still root) and sends it itself.
 */
static void send_socket(int s, int i)
{
	pid_t pid;
	int fd;

	pid = fork();
	if (pid == 0) {
		set_label(objects[i].label);
		fd = socket(AF_INET, SOCK_DGRAM, 0);
		if (fd < 0)
			_exit(3);
		if (fdpass_send(s, fd))
			_exit(3);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, NULL, 0) != pid)
		_exit(3);
}

/* The sender: requests are two bytes (file index, mode index). */
static void sender_main(int s)
{
	unsigned char req[2];
	char path[128];
	int fd;

	while (read(s, req, 2) == 2) {
		if (req[0] >= NFILES || req[1] > FD_SOCK)
			_exit(3);
		if (req[1] == FD_SOCK) {
			send_socket(s, req[0]);
			continue;
		}
		snprintf(path, sizeof(path), FILE_DIR "/%s",
			 objects[req[0]].name);
		fd = open(path, open_modes[req[1]]);
		if (fd < 0)
			_exit(3);
		if (fdpass_send(s, fd))
			_exit(3);
		close(fd);
	}
	_exit(0);
}

static int start_sender(void)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		die("socketpair: %s", strerror(errno));
	fflush(stdout);
	if (fork() == 0) {
		close(sv[0]);
		sender_main(sv[1]);
	}
	close(sv[1]);
	return sv[0];
}

/*
 * "OK" when the fd arrived, NOFD when the kernel dropped it (MSG_CTRUNC),
 * EOF when the sender closed without sending.
 */
static const char *recv_result(int s)
{
	int fd = fdpass_recv(s);

	if (fd == -EACCES)
		return "NOFD";
	if (fd == -EPIPE)
		return "EOF";
	if (fd < 0)
		return errname(-fd);
	close(fd);
	return "OK";
}

static void fd_case(const char *s, int sender, int i, int m)
{
	unsigned char req[2] = { (unsigned char)i, (unsigned char)m };
	char op[32];

	snprintf(op, sizeof(op), "fd-pass-%s", open_names[m]);
	if (write(sender, req, 2) != 2)
		die("fd sender: %s", strerror(errno));
	report(op, s, objects[i].name, recv_result(sender));
}

/* Files of every label opened r, w, rw; sockets of every task label. */
static void fd_cases(const char *s, int sender)
{
	int i, m;

	for (i = 0; i < NFILES; i++)
		for (m = 0; m < FD_SOCK; m++)
			fd_case(s, sender, i, m);
	for (i = 0; i < NTASKS; i++)
		fd_case(s, sender, i, FD_SOCK);
}

/* ---- exec with SMACK64EXEC, mmap of files with SMACK64MMAP ---- */

/* Strip what follows the label (a newline, NULs). */
static void chomp(char *buf)
{
	buf[strcspn(buf, "\n")] = '\0';
}

/* "OK:<label the program runs with>", an errno name or SIG<name>. */
static void exec_case(const char *s, const char *name)
{
	char path[128], out[128] = "", res[160];
	ssize_t n, got = 0;
	int p[2], st;
	pid_t pid;

	snprintf(path, sizeof(path), FILE_DIR "/x.%s", name);
	fflush(stdout);
	if (pipe(p) || (pid = fork()) < 0)
		die("exec %s: %s", path, strerror(errno));
	if (pid == 0) {
		dup2(p[1], 1);
		execl(path, "task-matrix", "label", label_file, (char *)NULL);
		dprintf(1, "%s", errname(errno));
		_exit(1);
	}
	close(p[1]);
	while ((n = read(p[0], out + got, sizeof(out) - 1 - got)) > 0)
		got += n;
	close(p[0]);
	chomp(out);
	waitpid(pid, &st, 0);
	if (WIFSIGNALED(st))
		snprintf(res, sizeof(res), "SIG%s", sigabbrev_np(WTERMSIG(st)));
	else
		snprintf(res, sizeof(res), "%s%s", WEXITSTATUS(st) ? "" : "OK:",
			 out);
	report("exec", s, name, res);
}

static int map_file(const char *name, int prot)
{
	char path[128];
	void *a;
	int fd;

	snprintf(path, sizeof(path), FILE_DIR "/m.%s", name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	a = mmap(NULL, 4096, prot, MAP_PRIVATE, fd, 0);
	close(fd);
	return a == MAP_FAILED ? -1 : munmap(a, 4096);
}

static void file_cases(const char *s)
{
	int i;

	for (i = 0; i < NTASKS; i++)
		exec_case(s, objects[i].name);
	exec_case(s, "none");
	for (i = 0; i < NMMAP; i++)
		report_rc("mmap-read", s, mmap_labels[i].name,
			  map_file(mmap_labels[i].name, PROT_READ));
	for (i = 0; i < NMMAP; i++)
		report_rc("mmap-exec", s, mmap_labels[i].name,
			  map_file(mmap_labels[i].name,
				   PROT_READ | PROT_EXEC));
}

/* ---- sockets ---- */

static void unix_cases(const char *s)
{
	struct sockaddr_un sun;
	socklen_t len;
	int i, fd, rc;

	for (i = 0; i < NTASKS; i++) {
		len = abstract(&sun, "s", i);
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
		rc = connect(fd, (struct sockaddr *)&sun, len);
		report_rc("unix-stream-connect", s, objects[i].name, rc);
		close(fd);
		len = abstract(&sun, "d", i);
		fd = socket(AF_UNIX, SOCK_DGRAM, 0);
		rc = (int)sendto(fd, "x", 1, MSG_DONTWAIT,
				 (struct sockaddr *)&sun, len);
		report_rc("unix-dgram-send", s, objects[i].name, rc);
		close(fd);
	}
}

static long ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 +
	       (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/*
 * The cases whose denial mainline shows late or not at all to the caller:
 * it drops a refused SYN (or SYN-ACK) and a refused UDP datagram at the
 * receiving socket, and a refused SIGIO is simply not sent.  All of them
 * start at once and share one wait, so a denial costs NET_WAIT_MS once
 * per subject, not once per case.  Connects go to each target over IPv4,
 * over IPv6 (mainline's port labelling, checked at connect and sendmsg
 * only) and over IPv4 from an IPv6 socket (::ffff:127.0.0.1); one more
 * goes to an IPv6 port nobody bound (the ambient label's).
 */
enum { T4, T6, TMAPPED, NTCP };
static const char *const tcp_names[NTCP] = { "tcp-connect", "tcp6-connect",
					     "tcp6-mapped-connect" };
static const char udp_what[NTCP] = { '4', '6', 'm' };
static const char *const udp_names[NTCP] = { "udp-send", "udp6-send",
					     "udp6-mapped-send" };

#define NCONN	(NTCP * NTASKS + 1)	/* + the port nobody bound */

struct async {
	struct pollfd tcp[NCONN];
	const char *tcp_res[NCONN];
	int tcp_pending;
	int udp_err[NTCP][NTASKS], udp_before[NTCP][NTASKS];
	int io_err[NTASKS], io_before[NTASKS], io_fd[NTASKS][2];
};

static int seen(const int *counter)
{
	return __atomic_load_n(counter, __ATOMIC_SEQ_CST);
}

/* Where connect or send @kind goes for target @i (-1: nobody's port). */
static socklen_t destination(int kind, int i, struct sockaddr_storage *ss)
{
	if (kind == T4) {
		*(struct sockaddr_in *)ss = loopback(i);
		return sizeof(struct sockaddr_in);
	}
	*(struct sockaddr_in6 *)ss = loopback6(i < 0 ? PORT6_NOBODY :
					       kind == TMAPPED ? PORT_BASE + i :
					       PORT6_BASE + i, kind == TMAPPED);
	return sizeof(struct sockaddr_in6);
}

/* Nonblocking connect @c: EINPROGRESS until the handshake ends. */
static void tcp_start(struct async *a, int c, int kind, int i)
{
	struct sockaddr_storage ss;
	socklen_t len = destination(kind, i, &ss);
	struct pollfd *p = &a->tcp[c];

	p->fd = socket(kind == T4 ? AF_INET : AF_INET6,
		       SOCK_STREAM | SOCK_NONBLOCK, 0);
	p->events = POLLOUT;
	a->tcp_res[c] = "TIMEOUT";
	if (!connect(p->fd, (struct sockaddr *)&ss, len)) {
		a->tcp_res[c] = "OK";
	} else if (errno == EINPROGRESS) {
		a->tcp_pending++;
		return;
	} else {
		a->tcp_res[c] = errname(errno);
	}
	p->fd = -p->fd - 1;	/* decided: poll ignores it */
}

static void tcp_poll(struct async *a, int ms)
{
	int i, e;
	socklen_t el;

	if (poll(a->tcp, NCONN, ms) <= 0)
		return;
	for (i = 0; i < NCONN; i++) {
		if (a->tcp[i].fd < 0 || !a->tcp[i].revents)
			continue;
		el = sizeof(e);
		getsockopt(a->tcp[i].fd, SOL_SOCKET, SO_ERROR, &e, &el);
		a->tcp_res[i] = e ? errname(e) : "OK";
		a->tcp[i].fd = -a->tcp[i].fd - 1;
		a->tcp_pending--;
	}
}

static int *udp_got(int kind, int i)
{
	return udp_counter(&targets[i], udp_what[kind]);
}

/* One datagram, its first byte saying which counter it is for. */
static void udp_start(struct async *a, const int fd[2], int kind, int i)
{
	struct sockaddr_storage ss;
	socklen_t len = destination(kind, i, &ss);

	a->udp_before[kind][i] = seen(udp_got(kind, i));
	a->udp_err[kind][i] = sendto(fd[kind != T4], &udp_what[kind], 1, 0,
				     (struct sockaddr *)&ss, len) == 1 ?
			      0 : errno;
}

/*
 * SIGIO to target i (security_file_send_sigiotask): a socketpair end owned
 * by the target (F_SETOWN records our label, as smack_file_set_fowner),
 * O_ASYNC, then data arrives on it.
 */
static void sigio_start(struct async *a, int i)
{
	int *sv = a->io_fd[i];

	a->io_before[i] = seen(&targets[i].sigio_got);
	a->io_err[i] = 0;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) ||
	    fcntl(sv[0], F_SETOWN, targets[i].pid) ||
	    fcntl(sv[0], F_SETFL, O_ASYNC) || write(sv[1], "x", 1) != 1)
		a->io_err[i] = errno;
}

/* Cases still undecided: a handshake, a datagram or a signal on its way. */
static int async_left(const struct async *a)
{
	int i, k, n = a->tcp_pending;

	for (i = 0; i < NTASKS; i++) {
		for (k = 0; k < NTCP; k++)
			n += !a->udp_err[k][i] &&
			     seen(udp_got(k, i)) == a->udp_before[k][i];
		n += !a->io_err[i] && seen(&targets[i].sigio_got) ==
				      a->io_before[i];
	}
	return n;
}

static const char *arrived(int err, const int *counter, int before)
{
	if (err)
		return errname(err);
	return seen(counter) == before ? "DROPPED" : "OK";
}

/*
 * A datagram to an IPv6 address that is not ours: mainline checks w to
 * the ambient label (no ipv6host entry names it), then no route.
 */
static const char *udp6_remote(void)
{
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6,
				     .sin6_port = htons(9) };
	int fd = socket(AF_INET6, SOCK_DGRAM, 0), rc;

	inet_pton(AF_INET6, "2001:db8::1", &sin6.sin6_addr);
	rc = (int)sendto(fd, "r", 1, 0, (struct sockaddr *)&sin6,
			 sizeof(sin6));
	rc = rc < 0 ? errno : 0;
	close(fd);
	return rc ? errname(rc) : "OK";
}

static void async_report(const char *s, struct async *a)
{
	int i, k;

	for (k = 0; k < NTCP; k++)
		for (i = 0; i < NTASKS; i++)
			report(tcp_names[k], s, objects[i].name,
			       a->tcp_res[k * NTASKS + i]);
	report("tcp6-connect", s, "nobody", a->tcp_res[NCONN - 1]);
	for (k = 0; k < NTCP; k++)
		for (i = 0; i < NTASKS; i++)
			report(udp_names[k], s, objects[i].name,
			       arrived(a->udp_err[k][i], udp_got(k, i),
				       a->udp_before[k][i]));
	for (i = 0; i < NTASKS; i++)
		report("sigio", s, objects[i].name,
		       arrived(a->io_err[i], &targets[i].sigio_got,
			       a->io_before[i]));
}

static void async_cases(const char *s)
{
	struct async a = { .tcp_pending = 0 };
	int udp[2] = { socket(AF_INET, SOCK_DGRAM, 0),
		       socket(AF_INET6, SOCK_DGRAM, 0) };
	struct timespec t0;
	int i, k;

	for (i = 0; i < NTASKS; i++) {
		for (k = 0; k < NTCP; k++) {
			tcp_start(&a, k * NTASKS + i, k, i);
			udp_start(&a, udp, k, i);
		}
		sigio_start(&a, i);
	}
	tcp_start(&a, NCONN - 1, T6, -1);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (async_left(&a) && ms_since(&t0) < NET_WAIT_MS)
		tcp_poll(&a, 20);
	async_report(s, &a);
	report("udp6-send", s, "remote", udp6_remote());
	for (i = 0; i < NCONN; i++)
		close(a.tcp[i].fd < 0 ? -a.tcp[i].fd - 1 : a.tcp[i].fd);
	for (i = 0; i < NTASKS; i++) {
		close(a.io_fd[i][0]);
		close(a.io_fd[i][1]);
	}
	close(udp[0]);
	close(udp[1]);
}

/*
 * Keys (smack_key_permission): the target's key and keyring by serial,
 * each call asking one permission: view, read, search ask r; write, link
 * and setattr w.  The key's permission bits let every uid do all.
 */
static int do_key_describe(int i)
{
	char buf[256];

	return (int)keyctl(KEYCTL_DESCRIBE, (unsigned long)targets[i].key,
			   (unsigned long)buf, sizeof(buf), 0);
}

static int do_key_read(int i)
{
	char buf[16];

	return (int)keyctl(KEYCTL_READ, (unsigned long)targets[i].key,
			   (unsigned long)buf, sizeof(buf), 0);
}

static int do_key_update(int i)
{
	return (int)keyctl(KEYCTL_UPDATE, (unsigned long)targets[i].key,
			   (unsigned long)"v", 1, 0);
}

/* The same bits again: SETATTR asked, nothing changed. */
static int do_key_setperm(int i)
{
	return (int)keyctl(KEYCTL_SETPERM, (unsigned long)targets[i].key,
			   0x3f3f3f3f, 0, 0);
}

static int do_key_security(int i)
{
	char buf[256];

	return (int)keyctl(KEYCTL_GET_SECURITY, (unsigned long)targets[i].key,
			   (unsigned long)buf, sizeof(buf), 0);
}

/* search the keyring (r) for the key (r on it too) */
static int do_keyring_search(int i)
{
	return (int)keyctl(KEYCTL_SEARCH, (unsigned long)targets[i].keyring,
			   (unsigned long)"user", (unsigned long)"tm.key", 0);
}

/* link the target's key into our own process keyring (w on the key) */
static int do_key_link(int i)
{
	return (int)keyctl(KEYCTL_LINK, (unsigned long)targets[i].key,
			   (unsigned long)KEY_SPEC_PROCESS_KEYRING, 0, 0);
}

/* add a key of ours to the target's keyring (w on the keyring); the
 * description is the subject's, so no subject updates another's key */
static const char *key_subject;

static int do_keyring_add(int i)
{
	char desc[64];

	snprintf(desc, sizeof(desc), "tm.%s", key_subject);
	return (int)syscall(SYS_add_key, "user", desc, "s", 1,
			    targets[i].keyring);
}

static const struct ipc_op key_ops[] = {
	{ "key-describe", do_key_describe }, { "key-read", do_key_read },
	{ "key-update", do_key_update }, { "key-setperm", do_key_setperm },
	{ "key-get-security", do_key_security },
	{ "keyring-search", do_keyring_search }, { "key-link", do_key_link },
	{ "keyring-add", do_keyring_add },
};

static void key_cases(const char *s)
{
	size_t j;
	int i;

	key_subject = s;
	for (j = 0; j < sizeof(key_ops) / sizeof(key_ops[0]); j++)
		for (i = 0; i < NTASKS; i++)
			report_rc(key_ops[j].name, s, objects[i].name,
				  key_ops[j].fn(i));
}

/* ---- one subject ---- */

static void task_cases(const char *s, struct kid *kids)
{
	size_t j;
	int i;

	for (j = 0; j < sizeof(task_ops) / sizeof(task_ops[0]); j++)
		for (i = 0; i < NTASKS; i++)
			report_rc(task_ops[j].name, s, objects[i].name,
				  task_ops[j].fn(targets[i].pid));
	for (i = 0; i < NTASKS; i++)
		report_rc("setpgid-child", s, objects[i].name,
			  setpgid(kids[i].pid, kids[i].pid));
	for (i = 0; i < NTASKS; i++)
		report_rc("ptrace-traceme", s, objects[i].name,
			  kid_traceme(&kids[i]));
}

static void ipc_cases(const char *s)
{
	size_t j;
	int i;

	for (j = 0; j < sizeof(ipc_ops) / sizeof(ipc_ops[0]); j++)
		for (i = 0; i < NTASKS; i++)
			report_rc(ipc_ops[j].name, s, objects[i].name,
				  ipc_ops[j].fn(i));
}

static void kill_kids(const struct kid *kids)
{
	int i;

	for (i = 0; i < NTASKS; i++)
		kill(kids[i].pid, SIGKILL);
}

/*
 * root: label _, uid 0, every capability (CAP_MAC_OVERRIDE, CAP_SYS_PTRACE):
 * what privilege overrides, hook by hook, and what it does not.
 */
static const struct label root = { "root", "_" };

/* root again, with onlycap naming another label: no privilege for Smack. */
static const struct label root_onlycap = { "root-onlycap", "_" };
#define ONLYCAP	"Oc"

static void take_subject(const struct label *s)
{
	if (s == &root || s == &root_onlycap)
		set_label(s->label);
	else
		become(s->label);
}

static void subject_main(const struct label *s)
{
	struct kid kids[NTASKS];
	int sender;

	start_kids(kids);
	sender = start_sender();
	take_subject(s);
	task_cases(s->name, kids);
	ipc_cases(s->name);
	unix_cases(s->name);
	async_cases(s->name);
	key_cases(s->name);
	fd_cases(s->name, sender);
	file_cases(s->name);
	fflush(stdout);
	kill_kids(kids);
	_exit(0);
}

/*
 * The ptrace rule modes (smackfs' ptrace file): attach, read and
 * PTRACE_TRACEME again under exact and draconian, by the subjects and by
 * root (label _, CAP_SYS_PTRACE and CAP_MAC_OVERRIDE), which the default
 * mode lets override the rules and the others do not.
 */
static const char *const ptrace_modes[] = { "default", "exact", "draconian" };

static void ptrace_main(const struct label *s, int mode)
{
	struct kid kids[NTASKS];
	char op[48];
	int i;

	start_kids(kids);
	take_subject(s);
	for (i = 0; i < NTASKS; i++) {
		snprintf(op, sizeof(op), "ptrace-attach@%s",
			 ptrace_modes[mode]);
		report_rc(op, s->name, objects[i].name,
			  do_ptrace(targets[i].pid));
		snprintf(op, sizeof(op), "ptrace-read@%s", ptrace_modes[mode]);
		report_rc(op, s->name, objects[i].name,
			  do_ptrace_read(targets[i].pid));
		snprintf(op, sizeof(op), "ptrace-traceme@%s",
			 ptrace_modes[mode]);
		report_rc(op, s->name, objects[i].name,
			  kid_traceme(&kids[i]));
	}
	fflush(stdout);
	kill_kids(kids);
	_exit(0);
}

static void rmid_main(const struct label *s, int mode)
{
	size_t j;
	int i;

	(void)mode;
	become(s->label);
	for (j = 0; j < sizeof(rmid_ops) / sizeof(rmid_ops[0]); j++)
		for (i = 0; i < NTASKS; i++)
			report_rc(rmid_ops[j].name, s->name, objects[i].name,
				  rmid_ops[j].fn(i));
	fflush(stdout);
	_exit(0);
}

static void write_file(const char *file, const char *text)
{
	int fd = open(file, O_WRONLY);

	if (fd < 0 || write(fd, text, strlen(text)) < 0)
		die("%s: %s", file, strerror(errno));
	close(fd);
}

static void set_ptrace_mode(int mode)
{
	char text[4];

	snprintf(text, sizeof(text), "%d", mode);
	write_file(ptrace_file, text);
}

/* Run @fn(@s, @mode) in a child; nonzero when it failed. */
static int in_child(void (*fn)(const struct label *, int),
		    const struct label *s, int mode)
{
	int st = -1;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		fn(s, mode);
	if (pid < 0 || waitpid(pid, &st, 0) != pid || st) {
		fprintf(stderr, "task-matrix: subject %s (%d) failed (%#x)\n",
			s->name, mode, st);
		return 1;
	}
	return 0;
}

static void subject_pass(const struct label *s, int mode)
{
	(void)mode;
	subject_main(s);
}

static int ptrace_passes(void)
{
	int m, i, bad = 0;

	for (m = 1; m <= 2; m++) {
		set_ptrace_mode(m);
		for (i = 0; i < NSUBJECTS; i++)
			bad |= in_child(ptrace_main, &subjects[i], m);
		bad |= in_child(ptrace_main, &root, m);
	}
	set_ptrace_mode(0);
	return bad;
}

/*
 * onlycap: the harness takes ONLYCAP and names it in onlycap, so it keeps
 * its privilege (it must still kill the targets); root-onlycap starts as
 * ONLYCAP (its children take their labels), then takes _ and runs the
 * matrix as root without Smack privilege.  Left set: what follows needs
 * no privilege.
 */
static int onlycap_pass(void)
{
	set_label(ONLYCAP);
	write_file(onlycap_file, ONLYCAP);
	return in_child(subject_pass, &root_onlycap, 0);
}

static int run(void)
{
	int i, bad = 0;

	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	make_files();
	start_targets();
	for (i = 0; i < NSUBJECTS; i++)
		bad |= in_child(subject_pass, &subjects[i], 0);
	bad |= in_child(subject_pass, &root, 0);
	bad |= ptrace_passes();
	bad |= onlycap_pass();
	for (i = 0; i < NSUBJECTS; i++)
		bad |= in_child(rmid_main, &subjects[i], 0);
	for (i = 0; i < NTASKS; i++)
		kill(targets[i].pid, SIGKILL);
	while (wait(NULL) > 0)
		;
	fflush(stdout);
	return bad;
}

/* The label this process runs with (after an exec: SMACK64EXEC). */
static int print_label(const char *file)
{
	char buf[300] = "";
	int fd = open(file, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (n < 0) {
		printf("%s", errname(errno));
		return 1;
	}
	buf[n] = '\0';
	chomp(buf);
	printf("%s\n", buf);
	return 0;
}

static int print_rules(void)
{
	size_t i;

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		puts(rules[i]);
	return 0;
}

/* ---- compare (casediff.c) ---- */

/*
 * Each subject runs every operation in turn: points after all the cases.
 * EOF: the fd sender died, the case never ran.
 */
static const char *const task_not_run[] = { "EOF", NULL };

static const struct casediff_spec task_diff = {
	.name = "task-matrix",
	.other = "module",
	.other_at = "under the module",
	.other_column = "MODULE",
	.examples = 3,
	.not_run = task_not_run,
};

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "rules"))
		return print_rules();
	if (argc == 3 && !strcmp(argv[1], "label"))
		return print_label(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "run")) {
		if (!strcmp(argv[2], "--smack")) {
			label_file = "/proc/self/attr/current";
			ptrace_file = "/sys/fs/smackfs/ptrace";
			onlycap_file = "/sys/fs/smackfs/onlycap";
		} else if (!strcmp(argv[2], "--kmod")) {
			label_file = "/sys/kernel/security/smackfuse/current";
			ptrace_file = "/sys/kernel/security/smackfuse/ptrace";
			onlycap_file = "/sys/kernel/security/smackfuse/onlycap";
		}
		if (label_file)
			return run();
	}
	if (argc >= 2 && !strcmp(argv[1], "compare"))
		return casediff_main(&task_diff, argc - 1, argv + 1);
	fputs("usage: task-matrix rules | run --smack|--kmod | label FILE |\n"
	      "       compare --lane LANE KERNEL MODULE ALLOW BUGS\n", stderr);
	return 2;
}
