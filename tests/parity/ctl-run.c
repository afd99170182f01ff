// SPDX-License-Identifier: GPL-2.0-only
/*
 * ctl-run - one side of the control-file differential harness (issue 16).
 *
 *   ctl-run [-s] [-u UID] DIR STEPS
 *
 * Runs every step of the STEPS file against the control files in DIR
 * (/sys/fs/smackfs in the Smack reference kernel, a smackfuse control
 * directory on the host) and prints one line per step:
 *
 *   @C NAME open=E write=N|E [reply=R] close=E rb=FILE:TEXT ...
 *
 * so that the two sides can be compared line by line (ctl-diff.sh).
 * A step is "NAME WHO FILE HOW DATA [READBACK...]":
 *   WHO   root (all capabilities), nocap (root without CAP_MAC_ADMIN),
 *         user (uid/gid 65534, no capabilities), other (uid UID, all
 *         capabilities, label "Other": with -s written to
 *         /proc/self/attr/current, else the host's users map says so);
 *   HOW   w (O_WRONLY), wt (O_WRONLY|O_TRUNC), rw (O_RDWR, and the reply
 *         is read from the same descriptor), r (O_RDONLY, open only);
 *   DATA  a double-quoted string with \n \t \0 \\ \" \xHH and \{N,c}
 *         (N times the byte c), or - for no write;
 *   READBACK files read after the step (default: FILE when it is read).
 * Each identity is one long-lived worker process, created before any step
 * (so "other" can take its label while nothing restricts it) and keeping
 * its per-task state (load-self rules, relabel-self list) across steps,
 * as a task does in the kernel.  Read-backs are normalised: lines sorted
 * (the kernel lists rules newest first, smackfuse in table order), and
 * the words of onlycap and relabel-self sorted, and the secid-based
 * categories of long labels in cipso and cipso2 numbered (number_mapped).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAXSTEPS	1024
#define MAXRB		4
#define MAXDATA		(1 << 16)

enum who { W_ROOT, W_NOCAP, W_USER, W_OTHER, W_N };
static const char *const who_names[W_N] = { "root", "nocap", "user",
					    "other" };

struct step {
	char name[64];
	enum who who;
	char file[64];
	char how[4];
	char *data;		/* NULL: no write */
	size_t len;
	int nrb;
	char rb[MAXRB][64];
};

static struct step steps[MAXSTEPS];
static int nsteps;
static const char *dir;
static uid_t other_uid = 4242;
static int smack_labels;

static void die(const char *fmt, const char *arg, int line)
{
	fprintf(stderr, "ctl-run: ");
	fprintf(stderr, fmt, arg, line);
	fputc('\n', stderr);
	exit(2);
}

static const char *errname(int e)
{
	const char *n = strerrorname_np(e);

	return n ? n : "E?";
}

/* ---- the steps file ---- */

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decode the quoted DATA at *@p into @out; returns its length. */
static size_t parse_data(char **p, char *out, int line)
{
	char *s = *p + 1;
	size_t n = 0;

	while (*s && *s != '"') {
		char c = *s++;

		if (n + 1 >= MAXDATA)
			die("%s: data too long at line %d", "steps", line);
		if (c != '\\') {
			out[n++] = c;
			continue;
		}
		c = *s++;
		switch (c) {
		case 'n': out[n++] = '\n'; break;
		case 't': out[n++] = '\t'; break;
		case '0': out[n++] = '\0'; break;
		case '\\': case '"': out[n++] = c; break;
		case 'x':
			if (hexval(s[0]) < 0 || hexval(s[1]) < 0)
				die("%s: bad \\x at line %d", "steps", line);
			out[n++] = (char)(hexval(s[0]) * 16 + hexval(s[1]));
			s += 2;
			break;
		case '{': {
			char *end;
			unsigned long k = strtoul(s, &end, 10);
			char fill = end[1];
			int w = 1;

			if (fill == '\\' && end[2] == '0') {	/* \{N,\0} */
				fill = '\0';
				w = 2;
			}
			if (*end != ',' || !end[1] || end[1 + w] != '}' ||
			    n + k >= MAXDATA)
				die("%s: bad \\{N,c} at line %d", "steps",
				    line);
			memset(out + n, fill, k);
			n += k;
			s = end + 2 + w;
			break;
		}
		default:
			die("%s: bad escape at line %d", "steps", line);
		}
	}
	if (*s != '"')
		die("%s: unterminated data at line %d", "steps", line);
	*p = s + 1;
	return n;
}

static void parse_step(char *s, int line)
{
	struct step *st = &steps[nsteps];
	static char buf[MAXDATA];
	char who[16], *tok;
	int w, used;

	if (nsteps == MAXSTEPS)
		die("%s: too many steps at line %d", "steps", line);
	if (sscanf(s, "%63s %15s %63s %3s %n", st->name, who, st->file,
		   st->how, &used) != 4)
		die("%s: want NAME WHO FILE HOW DATA at line %d", "steps",
		    line);
	for (w = 0; w < W_N && strcmp(who, who_names[w]); w++)
		;
	if (w == W_N)
		die("%s: unknown WHO at line %d", who, line);
	st->who = (enum who)w;
	s += used;
	if (*s == '"') {
		st->len = parse_data(&s, buf, line);
		st->data = malloc(st->len + 1);
		if (!st->data)
			die("%s: out of memory at line %d", "steps", line);
		memcpy(st->data, buf, st->len);
	} else if (*s == '-') {
		s++;
	} else {
		die("%s: DATA must be quoted or - at line %d", "steps", line);
	}
	while ((tok = strtok(s, " \t\n")) != NULL) {
		s = NULL;
		if (st->nrb == MAXRB)
			die("%s: too many read-backs at line %d", "steps",
			    line);
		snprintf(st->rb[st->nrb++], sizeof(st->rb[0]), "%s", tok);
	}
	if (!st->nrb && strcmp(st->how, "rw") != 0) {
		memcpy(st->rb[0], st->file, sizeof(st->rb[0]));
		st->nrb = 1;
	}
	nsteps++;
}

static void read_steps(const char *path)
{
	static char line[MAXDATA + 256];
	FILE *f = fopen(path, "re");
	int n = 0;
	char *p;

	if (!f)
		die("%s: cannot open%.0d", path, 0);
	while (fgets(line, sizeof(line), f)) {
		n++;
		for (p = line; *p == ' ' || *p == '\t'; p++)
			;
		if (*p == '#' || *p == '\n' || !*p)
			continue;
		parse_step(p, n);
	}
	fclose(f);
}

/* ---- identities ---- */

/* Keep the permitted set minus @drop (CAP_* above 31 only); make it
 * effective. */
static int caps_keep(__u32 drop1)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -1;
	d[1].permitted &= ~drop1;
	d[0].effective = d[0].permitted;
	d[1].effective = d[1].permitted;
	d[0].inheritable = d[1].inheritable = 0;
	return (int)syscall(SYS_capset, &h, d);
}

static void become(enum who w)
{
	const __u32 admin = 1u << (CAP_MAC_ADMIN - 32);
	int fd;

	switch (w) {
	case W_ROOT:
		return;
	case W_NOCAP:
		if (prctl(PR_CAPBSET_DROP, CAP_MAC_ADMIN, 0, 0, 0) ||
		    caps_keep(admin))
			die("%s: cannot drop CAP_MAC_ADMIN%.0d", "nocap", 0);
		return;
	case W_USER:
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			die("%s: cannot become 65534%.0d", "user", 0);
		return;
	case W_OTHER:
		if (smack_labels) {
			fd = open("/proc/self/attr/current", O_WRONLY);
			if (fd < 0 || write(fd, "Other", 5) != 5)
				die("%s: cannot take the label Other%.0d",
				    "other", 0);
			close(fd);
		}
		if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) || setgroups(0, NULL) ||
		    setgid(other_uid) || setuid(other_uid) ||
		    caps_keep(0))
			die("%s: cannot become the other uid%.0d", "other", 0);
		return;
	default:
		return;
	}
}

/* ---- one step ---- */

struct out {
	char buf[MAXDATA];
	size_t len;
};

static void out_add(struct out *o, const char *s, size_t n)
{
	if (o->len + n >= sizeof(o->buf) - 2)
		n = sizeof(o->buf) - 2 - o->len;
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static void out_str(struct out *o, const char *s)
{
	out_add(o, s, strlen(s));
}

/* Bytes as printable text: \n, \0, \xHH; spaces stay (words are split
 * on them by nobody: the line is compared whole). */
static void out_escaped(struct out *o, const char *s, size_t n)
{
	char tmp[8];
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\n')
			out_str(o, "\\n");
		else if (c == '\0')
			out_str(o, "\\0");
		else if (c == '\\')
			out_str(o, "\\\\");
		else if (c < 0x20 || c >= 0x7f) {
			snprintf(tmp, sizeof(tmp), "\\x%02x", c);
			out_str(o, tmp);
		} else {
			out_add(o, (const char *)&s[i], 1);
		}
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sort the @sep-separated pieces of @s in place (order carries no
 * meaning in these files); empty pieces are dropped for words. */
static size_t normalise(char *s, size_t n, char sep)
{
	char *parts[4096], *copy = malloc(n + 1), *p, *save = NULL;
	char seps[2] = { sep, '\0' };
	size_t np = 0, len = 0, i;

	if (!copy)
		return n;
	memcpy(copy, s, n);
	copy[n] = '\0';
	for (p = strtok_r(copy, seps, &save); p && np < 4096;
	     p = strtok_r(NULL, seps, &save))
		parts[np++] = p;
	qsort(parts, np, sizeof(parts[0]), cmp_str);
	for (i = 0; i < np; i++) {
		size_t k = strlen(parts[i]);

		memcpy(s + len, parts[i], k);
		len += k;
		s[len++] = sep;
	}
	free(copy);
	return len;
}

/*
 * A label of SMK_CIPSOLEN (24) bytes or more has no direct CIPSO form:
 * smackfs encodes its secid, a number the kernel hands out in the order
 * it imports labels, which varies from boot to boot (two runs of the
 * same steps read "100/4" and "100/2,3" for one label).  So the
 * categories of such a line become "#K", K counting the distinct
 * encodings in the (sorted) read-back: what is compared is that each
 * long label has the mapped level and an encoding of its own.
 */
static size_t number_mapped(char *s, size_t n)
{
	static char out[MAXDATA];
	const char *seen[256];
	size_t seen_len[256], nseen = 0, len = 0, i;
	char *line = s, *end, *sp, *slash;

	for (; line < s + n; line = end + 1) {
		end = memchr(line, '\n', s + n - line);
		if (!end)
			end = s + n;
		sp = memchr(line, ' ', end - line);
		slash = sp ? memchr(sp, '/', end - sp) : NULL;
		if (len + (end - line) + 16 > sizeof(out))
			return n;
		if (!slash || sp - line < 24 || nseen == 256) {
			memcpy(out + len, line, end - line);
			len += end - line;
		} else {
			size_t clen = end - slash - 1;

			for (i = 0; i < nseen; i++)
				if (seen_len[i] == clen &&
				    !memcmp(seen[i], slash + 1, clen))
					break;
			if (i == nseen) {
				seen[nseen] = slash + 1;
				seen_len[nseen++] = clen;
			}
			memcpy(out + len, line, slash + 1 - line);
			len += slash + 1 - line;
			len += snprintf(out + len, 16, "#%zu", i + 1);
		}
		if (end < s + n)
			out[len++] = '\n';
	}
	memcpy(s, out, len);
	return len;
}

static void read_back(struct out *o, const char *file)
{
	static char buf[MAXDATA];
	char path[512];
	size_t n = 0;
	ssize_t r;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	out_str(o, " rb=");
	out_str(o, file);
	out_str(o, ":");
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		out_str(o, errname(errno));
		return;
	}
	while (n < sizeof(buf) && (r = read(fd, buf + n, sizeof(buf) - n)) > 0)
		n += (size_t)r;
	if (r < 0 && n == 0) {
		out_str(o, errname(errno));
		close(fd);
		return;
	}
	close(fd);
	if (!strcmp(file, "onlycap") || !strcmp(file, "relabel-self"))
		n = normalise(buf, n, ' ');
	else if (memchr(buf, '\n', n))
		n = normalise(buf, n, '\n');
	if (!strcmp(file, "cipso") || !strcmp(file, "cipso2"))
		n = number_mapped(buf, n);
	out_str(o, "\"");
	out_escaped(o, buf, n);
	out_str(o, "\"");
}

static void run_step(const struct step *st)
{
	static struct out o;
	char path[512], reply[256], tmp[32];
	int flags = O_WRONLY, fd, i;
	ssize_t r;

	o.len = 0;
	if (!strcmp(st->how, "wt"))
		flags |= O_TRUNC;
	else if (!strcmp(st->how, "rw"))
		flags = O_RDWR;
	else if (!strcmp(st->how, "r"))
		flags = O_RDONLY;
	snprintf(path, sizeof(path), "%s/%s", dir, st->file);
	out_str(&o, "@C ");
	out_str(&o, st->name);
	out_str(&o, " open=");
	fd = open(path, flags);
	out_str(&o, fd < 0 ? errname(errno) : "OK");
	if (fd >= 0 && st->data) {
		r = write(fd, st->data, st->len);
		snprintf(tmp, sizeof(tmp), "%zd", r);
		out_str(&o, " write=");
		out_str(&o, r < 0 ? errname(errno) : tmp);
		if (r >= 0 && flags == O_RDWR) {
			r = read(fd, reply, sizeof(reply));
			out_str(&o, " reply=");
			if (r < 0)
				out_str(&o, errname(errno));
			else
				out_escaped(&o, reply, (size_t)r);
		}
	}
	if (fd >= 0) {
		out_str(&o, " close=");
		out_str(&o, close(fd) ? errname(errno) : "OK");
	}
	for (i = 0; i < st->nrb; i++)
		read_back(&o, st->rb[i]);
	out_str(&o, "\n");
	fflush(stdout);
	if (write(STDOUT_FILENO, o.buf, o.len) != (ssize_t)o.len)
		exit(2);
}

/* ---- workers ---- */

struct worker {
	pid_t pid;
	int cmd, ack;
};

static void worker_loop(enum who w, int cmd, int ack)
{
	int i;

	become(w);
	while (read(cmd, &i, sizeof(i)) == sizeof(i)) {
		if (i < 0 || i >= nsteps)
			break;
		run_step(&steps[i]);
		if (write(ack, "", 1) != 1)
			break;
	}
	_exit(0);
}

static void start_worker(struct worker *wk, enum who w)
{
	int c[2], a[2];

	if (pipe2(c, O_CLOEXEC) || pipe2(a, O_CLOEXEC))
		die("%s: pipe%.0d", "worker", 0);
	wk->pid = fork();
	if (wk->pid < 0)
		die("%s: fork%.0d", "worker", 0);
	if (wk->pid == 0) {
		close(c[1]);
		close(a[0]);
		worker_loop(w, c[0], a[1]);
	}
	close(c[0]);
	close(a[1]);
	wk->cmd = c[1];
	wk->ack = a[0];
}

int main(int argc, char **argv)
{
	struct worker wk[W_N];
	int opt, i, w, rc = 0;
	char ack;

	while ((opt = getopt(argc, argv, "su:")) != -1) {
		if (opt == 's')
			smack_labels = 1;
		else if (opt == 'u')
			other_uid = (uid_t)strtoul(optarg, NULL, 10);
		else
			return 2;
	}
	if (argc - optind != 2) {
		fprintf(stderr, "usage: ctl-run [-s] [-u UID] DIR STEPS\n");
		return 2;
	}
	dir = argv[optind];
	read_steps(argv[optind + 1]);
	setvbuf(stdout, NULL, _IONBF, 0);
	for (w = 0; w < W_N; w++)
		start_worker(&wk[w], (enum who)w);
	for (i = 0; i < nsteps; i++) {
		w = steps[i].who;
		if (write(wk[w].cmd, &i, sizeof(i)) != sizeof(i) ||
		    read(wk[w].ack, &ack, 1) != 1) {
			printf("@C %s worker-died\n", steps[i].name);
			rc = 1;
			break;
		}
	}
	/* Each worker holds the others' pipes too: tell each to stop. */
	for (w = 0; w < W_N; w++) {
		i = -1;
		if (write(wk[w].cmd, &i, sizeof(i)) != sizeof(i))
			kill(wk[w].pid, SIGKILL);
		close(wk[w].cmd);
		waitpid(wk[w].pid, NULL, 0);
	}
	printf("@END %d\n", nsteps);
	return rc;
}
