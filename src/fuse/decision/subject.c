// SPDX-License-Identifier: GPL-2.0-only
/*
 * subject.c - who is asking: the label and privilege of a request's caller.
 *
 * Nothing here is cached per pid: a pid can be reused, and some requests
 * (writeback) carry pid 0.  The label comes, per request, from the host's
 * Smack, from the kernel companion, or from the users map, whose answer
 * per uid is kept by uids.c; privilege comes from the caller's CapEff,
 * read only when a decision needs it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "kmod_abi.h"
#include "smackfuse.h"
#include "uids.h"

/* Where the one-time notices of this file go (-f: standard error). */
static bool sf_subject_foreground;

/* Is the host kernel's Smack active?  Mainline refuses attr reads with
 * EINVAL when the LSM is not there. */
static bool sf_host_smack(void)
{
	char buf[SF_LABEL_MAX + 2];

	if (sf_read_small("/proc/self/attr/smack/current", buf,
			  sizeof(buf)) > 0)
		return true;
	if (access("/sys/fs/smackfs/load2", F_OK) == 0 &&
	    sf_read_small("/proc/self/attr/current", buf, sizeof(buf)) > 0)
		return true;
	return false;
}

/**
 * sf_kernel_checks - who makes the checks that reach no daemon: mmap(2)
 * of a file carrying SMACK64MMAP (smack_mmap_file) and fcntl(2) F_SETOWN
 * and F_SETSIG (smack_file_fcntl), which the FUSE driver keeps to itself
 * (KNOWN-GAPS 7 and 8).  Asked again each time: the module may be loaded
 * or removed while we run.  Returns who, or NULL when nobody does.
 */
const char *sf_kernel_checks(void)
{
	if (sf_host_smack())
		return "the host's Smack";
	if (access(SF_KMOD_DIR, F_OK) == 0)
		return "smackfuse.ko";
	return NULL;
}

/* The status lines: who checks mmap(2) and F_SETOWN, and whether
 * smackfuse.ko sends the checks on held attributes here (a status part,
 * as sf_getattr_status()). */
int sf_kernel_checks_status(struct sf_fs *fs, char *buf, size_t size)
{
	const char *kchecks = sf_kernel_checks();

	return snprintf(buf, size, "mmap and F_SETOWN checks: %s\n"
			"checks on held attributes sent by smackfuse.ko: %s\n"
			"verdicts refused by smackfuse.ko: %lu\n",
			kchecks ? kchecks : "none (smackfuse.ko not loaded: "
			"a hole without the module)",
			!fs->kmod_refresh ? "no" :
			fs->opt.cache_strict ? "yes (cache=strict: nothing "
					       "cached)" :
			sf_verdicts_on(fs) ? "yes (verdicts: directories, "
					     "files and links cached)" :
			"yes (floor directories cached)",
			atomic_load(&fs->stats.verdicts_failed));
}

/* Is @word one of the lines of @text? */
static bool sf_has_line(const char *text, const char *word)
{
	size_t len = strlen(word);
	const char *p;

	for (p = text; (p = strstr(p, word)); p += len)
		if ((p == text || p[-1] == '\n') &&
		    (p[len] == '\n' || !p[len]))
			return true;
	return false;
}

/*
 * Does the loaded smackfuse.ko speak our ABI version (kmod_abi.h)?  It
 * states its own on the first line of its features (@text).  A module
 * that states another, or none, is refused whatever it offers: the
 * verdicts we would hand it, the labels we would read from it and the
 * checks it would send here may mean something else to it.  @how is how
 * it came to be asked ("subject=kmod", "subject=auto").  0 or -EPROTO,
 * after one message naming both versions.
 */
static int sf_kmod_abi_check(const char *text, const char *how)
{
	int abi;
	char nl;

	if (sscanf(text, SF_FEATURES_ABI_SCAN, &abi, &nl) != 2 ||
	    nl != '\n') {
		fprintf(stderr, "smackfuse: smackfuse.ko states no ABI version "
			"in %s (it is older than ABI 1), this smackfuse speaks "
			"ABI %d: %s refused; load the smackfuse.ko of this "
			"smackfuse's release (smackfuse-kmod(7))\n",
			SF_KMOD_PATH(SF_KMOD_FEATURES), SF_ABI_VERSION, how);
		return -EPROTO;
	}
	if (abi != SF_ABI_VERSION) {
		fprintf(stderr, "smackfuse: smackfuse.ko speaks ABI %d, this "
			"smackfuse speaks ABI %d: %s refused; load the "
			"smackfuse.ko of this smackfuse's release "
			"(smackfuse-kmod(7))\n", abi, SF_ABI_VERSION, how);
		return -EPROTO;
	}
	return 0;
}

/*
 * What the loaded smackfuse.ko offers, once it speaks our ABI version
 * (sf_kmod_abi_check()).  Does it send the checks the kernel would
 * answer from held attributes, access(2) and a directory's write, to the
 * daemon (its "features" file says perm_refresh)?  Then the kernel may
 * keep what the daemon would otherwise have to be asked for at each walk
 * (ops_cache.c).  Does it send a change of attributes too
 * (setattr_refresh)?  Then such a call's GETATTR may be that check, w
 * (getattr.c).  The file stays open for as long as the mount runs: an
 * open file of the module keeps it loaded, so what the kernel was let
 * keep never outlives the module that makes it safe.
 */
static int sf_kmod_features(struct sf_fs *fs, const char *how)
{
	char buf[256];
	ssize_t len = -1;
	int fd, rc;

	fd = open(SF_KMOD_PATH(SF_KMOD_FEATURES), O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		len = pread(fd, buf, sizeof(buf) - 1, 0);
	buf[len > 0 ? len : 0] = '\0';
	rc = sf_kmod_abi_check(buf, how);
	if (!rc) {
		fs->kmod_refresh = sf_has_line(buf, SF_FEATURE_PERM_REFRESH);
		fs->kmod_verdicts = fs->kmod_refresh &&
				    sf_has_line(buf, SF_FEATURE_VERDICTS);
		fs->kmod_setattr = fs->kmod_refresh &&
				   sf_has_line(buf, SF_FEATURE_SETATTR_REFRESH);
		if (sf_has_line(buf, SF_FEATURE_PIDLABELS))
			fs->kmod_pidlabels_fd =
				open(SF_KMOD_PATH(SF_KMOD_PIDLABELS),
				     O_RDONLY | O_CLOEXEC);
	}
	if (!rc && fs->kmod_refresh)
		fs->kmod_pin_fd = fd;
	else if (fd >= 0)
		close(fd);
	return rc;
}

int sf_subject_setup(struct sf_fs *fs)
{
	const char *how = "subject=kmod";

	fs->kmod_pin_fd = -1;
	fs->kmod_pidlabels_fd = -1;
	fs->verdict_fd = -1;
	sf_subject_foreground = fs->opt.foreground;
	if (!sf_kernel_checks())
		fprintf(stderr, "smackfuse: smackfuse.ko is not loaded: "
			"mmap(2) of files carrying SMACK64MMAP and fcntl(2) "
			"F_SETOWN and F_SETSIG are not checked on this mount, "
			"where mainline Smack refuses them; load the module "
			"to check them (smackfuse(8), Known differences)\n");
	if (fs->opt.subject == SF_SUBJ_AUTO) {
		how = "subject=auto";
		if (sf_host_smack())
			fs->opt.subject = SF_SUBJ_SMACK;
		else if (access(SF_KMOD_DIR, F_OK) == 0)
			fs->opt.subject = SF_SUBJ_KMOD;
		else
			fs->opt.subject = SF_SUBJ_USERS;
	}
	if (fs->opt.subject == SF_SUBJ_SMACK && !sf_host_smack()) {
		fprintf(stderr, "smackfuse: subject=smack: the host kernel "
			"does not run Smack\n");
		return -ENOENT;
	}
	if (fs->opt.subject == SF_SUBJ_KMOD &&
	    access(SF_KMOD_PATH(SF_KMOD_PIDLABEL), W_OK) != 0) {
		fprintf(stderr, "smackfuse: subject=kmod: kernel companion "
			"not loaded (%s: %s)\n",
			SF_KMOD_PATH(SF_KMOD_PIDLABEL), strerror(errno));
		return -ENOENT;
	}
	if (fs->opt.subject == SF_SUBJ_KMOD)
		return sf_kmod_features(fs, how);
	return 0;
}

/* ---- the users map (parsed by users.c) ---- */

static void sf_users_stderr(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "%s\n", msg);
}

/**
 * sf_users_load - read the users map; all or nothing.
 * A missing default file is an empty map; a missing explicit one is an
 * error.  Returns 0 or a negative errno after printing file:line:reason.
 */
int sf_users_load(struct sf_fs *fs, const char *path)
{
	return sf_users_parse(&fs->users, fs->labels, path, !fs->opt.users_path,
			      sf_users_stderr, NULL);
}

int sf_users_option(struct sf_options *o, bool ttl, const char *val,
		    const char **why)
{
	return sf_uids_option(ttl, val, ttl ? &o->users_ttl_ms :
			      &o->users_timeout_ms, why);
}

/* The uid -> label table, made at its first use (the map is loaded
 * then); NULL if there was no memory for it. */
static struct sf_uids *sf_subject_uids(struct sf_fs *fs)
{
	static pthread_mutex_t once = PTHREAD_MUTEX_INITIALIZER;
	struct sf_uids *u = atomic_load_explicit(&fs->uids,
						 memory_order_acquire);
	struct sf_uids_config cfg = {
		.users = &fs->users, .labels = fs->labels,
		.ttl_ms = fs->opt.users_ttl_ms ? fs->opt.users_ttl_ms :
			  SF_UIDS_TTL_MS,
		.timeout_ms = fs->opt.users_timeout_ms ?
			      fs->opt.users_timeout_ms :
			      SF_UIDS_TIMEOUT_MS,
		.foreground = fs->opt.foreground,
	};

	if (u)
		return u;
	pthread_mutex_lock(&once);
	u = atomic_load(&fs->uids);
	if (!u && sf_uids_new(&u, &cfg) == 0)
		atomic_store_explicit(&fs->uids, u, memory_order_release);
	pthread_mutex_unlock(&once);
	return u;
}

/**
 * sf_users_reload - the accounts may have changed (the control file
 * replace-rules, which `smackfusectl apply` and so `systemctl reload`
 * write): every uid's label is looked up again before this returns (or
 * the lookup timeout has passed; answers from before serve no longer).
 */
void sf_users_reload(void *arg)
{
	struct sf_fs *fs = arg;
	struct sf_uids *u = atomic_load(&fs->uids);

	if (u)
		sf_uids_reload(u);
}

/* After the session: the resolver threads end (uids.c). */
void sf_users_stop(struct sf_fs *fs)
{
	struct sf_uids *u = atomic_exchange(&fs->uids, NULL);

	if (u)
		sf_uids_stop(u);
}

/* The users map's status lines (a status part, as sf_getattr_status()). */
int sf_users_status(struct sf_fs *fs, char *buf, size_t size)
{
	struct sf_uids *u = atomic_load(&fs->uids);

	if (fs->opt.subject != SF_SUBJ_USERS ||
	    fs->sole_subject != SF_LID_INVALID)
		return 0;
	if (u)
		return (int)sf_uids_status(u, buf, size);
	return snprintf(buf, size, "users known: 0\n");
}

/* A notice said once by this file: standard error with -f, else syslog. */
static __attribute__((format(printf, 1, 2))) void
sf_subject_notice(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (sf_subject_foreground) {
		fprintf(stderr, "smackfuse: ");
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
	} else {
		vsyslog(LOG_AUTHPRIV | LOG_NOTICE, fmt, ap);
	}
	va_end(ap);
}

static void sf_not_caller_log(const struct sf_subject *s)
{
	int fsuid = s->status.have & SF_TASK_HAVE_UID ?
		    (int)s->status.fsuid : -1;

	sf_subject_notice("pid %d: its /proc status shows fs uid %d, its "
			  "request was made as %u: no privilege or group is "
			  "taken from it (counted in status; logged once)",
			  (int)s->pid, fsuid, (unsigned int)s->uid);
}

/*
 * Is @pid a kernel thread?  An answer that cannot be read is yes (no
 * privilege follows from it).
 */
static bool sf_subject_kthread(pid_t pid)
{
	unsigned long flags;

	return !sf_proc_flags(pid, &flags) || (flags & SF_PF_KTHREAD);
}

/*
 * A kernel thread acting for someone else (nfsd re-exporting the mount:
 * nfsd_setuser() gives it the client's fsuid and groups and drops
 * CAP_MAC_OVERRIDE and the other file capabilities for any fsuid but 0)
 * does so with override credentials that /proc does not show: its
 * CapEff there is the full set of the kernel's own credentials.  Taking
 * privilege from it would let every NFS client override every rule, so
 * such a caller has no capability and only its fsgid as group.  Said
 * once in the log.
 */
static void sf_subject_kthread_note(pid_t pid)
{
	static atomic_bool said;
	char buf[128], name[32] = "?";
	const char *a, *b;

	if (atomic_exchange(&said, true))
		return;
	if (sf_proc_read(pid, SF_PROC_STAT, buf, sizeof(buf)) > 0 &&
	    (a = strchr(buf, '(')) && (b = strrchr(buf, ')')) && b > a)
		snprintf(name, sizeof(name), "%.*s", (int)(b - a - 1), a + 1);
	sf_subject_notice("request from kernel thread %d (%s), e.g. nfsd "
			  "re-exporting the mount: it is given no capability "
			  "(its credentials in /proc are not those it acts "
			  "with) and is decided as the label of its fsuid or "
			  "pid; said once", pid, name);
}

/*
 * CapEff and Groups of /proc/PID/status into @s (once); what cannot be
 * read is no capability and no group.  Read through the descriptor
 * procfd.c keeps, which fails (and is opened again by number) once the
 * task that held the pid is gone.
 *
 * The file shows a task's objective credentials (__task_cred(): its
 * real_cred); the kernel made the request with its subjective ones
 * (current_cred()), whose fs uid the request carries.  They differ when
 * the pid is another task's by now (the caller gone, its number reused),
 * and for a task working under borrowed credentials (override_creds():
 * an io_uring personality, a kernel thread serving a client such as
 * nfsd), whose status shows its own privilege, not the one the request
 * was made with.  Mainline decides on the subjective credentials, so a
 * status whose fs uid is not the request's describes someone else: it
 * gives no capability and no group (the refusal side; counted in the
 * status file).  control_priv.c makes the same comparison.  A kernel
 * thread's status is never taken, whatever its fs uid (above).
 */
static void sf_subject_status(struct sf_subject *s)
{
	char buf[4096];

	if (s->status_read)
		return;
	s->status_read = true;
	memset(&s->status, 0, sizeof(s->status));
	if (s->pid <= 0)
		return;
	if (sf_subject_kthread(s->pid)) {
		sf_subject_kthread_note(s->pid);
		return;
	}
	if (sf_proc_read(s->pid, SF_PROC_STATUS, buf, sizeof(buf)) <= 0)
		return;
	sf_task_status_parse(buf, &s->status);
	if ((s->status.have & SF_TASK_HAVE_UID) && s->status.fsuid == s->uid)
		return;
	if (atomic_fetch_add_explicit(&s->stats->status_not_caller, 1,
				      memory_order_relaxed) == 0)
		sf_not_caller_log(s);
	memset(&s->status, 0, sizeof(s->status));
}

/* The status line: requests whose caller's status was another's (a
 * status part, as sf_getattr_status()). */
int sf_privilege_status(struct sf_fs *fs, char *buf, size_t size)
{
	return snprintf(buf, size, "privilege refused, status not the "
			"caller's: %lu\n",
			atomic_load_explicit(&fs->stats.status_not_caller,
					     memory_order_relaxed));
}

/* in_group_p() as far as /proc/PID/status tells: beyond the first
 * SF_TASK_GROUPS groups the answer is no, so setid.c clears a set-group-ID
 * bit the kernel might have kept (the safe side). */
static bool sf_in_group(struct sf_subject *s, gid_t gid)
{
	int i;

	if (s->gid == gid)
		return true;
	sf_subject_status(s);
	for (i = 0; i < s->status.ngroups; i++)
		if (s->status.groups[i] == gid)
			return true;
	return false;
}

/*
 * The users map's label of the caller's uid: the same for every process
 * of the account (as pam_smackfuse labels its logins), so it is looked up
 * once per uid and kept current (uids.c).  When no answer can be had (the
 * name service failed or did not answer in time), the caller is "*",
 * which is denied everything, and loses its privilege: nothing it asks is
 * allowed, and nothing it could create would carry "*".
 */
static sf_lid sf_subject_users(struct sf_fs *fs, struct sf_subject *s)
{
	struct sf_uids *u;
	sf_lid lid;

	if (fs->sole_subject != SF_LID_INVALID)
		return fs->sole_subject;
	u = sf_subject_uids(fs);
	if (u && sf_uids_label(u, s->uid, &lid))
		return lid;
	s->status_read = true;
	memset(&s->status, 0, sizeof(s->status));	/* no privilege */
	return SF_LID_STAR;
}

static sf_lid sf_label_from_text(struct sf_fs *fs, char *buf, int len)
{
	sf_lid lid;

	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\0'))
		len--;
	if (len <= 0 ||
	    sf_label_intern(fs->labels, buf, (size_t)len, &lid, NULL))
		return SF_LID_FLOOR;
	return lid;
}

static sf_lid sf_subject_smack(struct sf_fs *fs, pid_t pid)
{
	char path[64], buf[SF_LABEL_MAX + 2];
	int len;

	snprintf(path, sizeof(path), "/proc/%d/attr/smack/current", pid);
	len = sf_read_small(path, buf, sizeof(buf));
	if (len < 0) {
		snprintf(path, sizeof(path), "/proc/%d/attr/current", pid);
		len = sf_read_small(path, buf, sizeof(buf));
	}
	return sf_label_from_text(fs, buf, len);
}

/* The companion's transaction file: write the pid, read the label.  Each
 * thread keeps its own open file: the answer belongs to the open file. */
static __thread int sf_kmod_fd = -1;

static sf_lid sf_subject_kmod(struct sf_fs *fs, pid_t pid)
{
	char buf[SF_KMOD_LABEL_LINE_MAX + 1];
	ssize_t len;
	int n;

	if (fs->kmod_pidlabels_fd >= 0) {
		/* One call: the offset is the pid (kmod_abi.h, PIDLABELS). */
		len = pread(fs->kmod_pidlabels_fd, buf, sizeof(buf) - 1, pid);
		if (len <= 0)
			return SF_LID_FLOOR;
		buf[len] = '\0';
		return sf_label_from_text(fs, buf, (int)len);
	}
	if (sf_kmod_fd < 0)
		sf_kmod_fd = open(SF_KMOD_PATH(SF_KMOD_PIDLABEL),
				  O_RDWR | O_CLOEXEC);
	if (sf_kmod_fd < 0)
		return SF_LID_FLOOR;
	n = snprintf(buf, sizeof(buf), "%d", pid);
	if (pwrite(sf_kmod_fd, buf, (size_t)n, 0) != n) {
		if (errno != ESRCH) {	/* e.g. the module was reloaded */
			close(sf_kmod_fd);
			sf_kmod_fd = -1;
		}
		return SF_LID_FLOOR;
	}
	len = pread(sf_kmod_fd, buf, sizeof(buf) - 1, 0);
	if (len <= 0)
		return SF_LID_FLOOR;
	buf[len] = '\0';
	return sf_label_from_text(fs, buf, (int)len);
}

sf_lid sf_subject_of(struct sf_fs *fs, pid_t pid, uid_t uid, gid_t gid)
{
	struct sf_subject s = { .pid = pid, .uid = uid, .gid = gid,
				.stats = &fs->stats };

	switch (fs->opt.subject) {
	case SF_SUBJ_SMACK:
		return pid > 0 ? sf_subject_smack(fs, pid) : SF_LID_FLOOR;
	case SF_SUBJ_KMOD:
		return pid > 0 ? sf_subject_kmod(fs, pid) : SF_LID_FLOOR;
	default:
		return sf_subject_users(fs, &s);
	}
}

/**
 * sf_subject_get - the caller of @req.  The label is looked up now; the
 * capabilities and groups only when a decision needs them.
 */
void sf_subject_get(struct sf_fs *fs, fuse_req_t req, struct sf_subject *s)
{
	const struct fuse_ctx *ctx = fuse_req_ctx(req);

	memset(s, 0, sizeof(*s));
	s->stats = &fs->stats;
	s->pid = ctx->pid;
	s->uid = ctx->uid;
	s->gid = ctx->gid;
	switch (fs->opt.subject) {
	case SF_SUBJ_SMACK:
		s->lid = s->pid > 0 ? sf_subject_smack(fs, s->pid)
				    : SF_LID_FLOOR;
		break;
	case SF_SUBJ_KMOD:
		s->lid = s->pid > 0 ? sf_subject_kmod(fs, s->pid)
				    : SF_LID_FLOOR;
		break;
	default:
		s->lid = sf_subject_users(fs, s);
		break;
	}
}

/*
 * The caller's effective capabilities for this request.  In access(2)
 * and faccessat(2) without AT_EACCESS, the kernel checks with the
 * credentials access_override_creds() makes: the real uid's, with no
 * capability unless that uid is 0 (then the permitted set; securebits'
 * SECURE_NO_SETUID_FIXUP, which keeps them, is not seen here: the safe
 * side).  /proc/PID/status shows the task's own set, not those.
 */
static uint64_t sf_subject_caps(struct sf_subject *s)
{
	sf_subject_status(s);
	if (!s->access_creds)
		return s->status.capeff;
	if (!(s->status.have & SF_TASK_HAVE_UID) || s->status.ruid != 0)
		return 0;
	return s->status.capprm;
}

/**
 * sf_privileged - smack_privileged(): @cap in the caller's effective set,
 * and the caller's label in onlycap (or onlycap empty).
 */
bool sf_privileged(struct sf_fs *fs, struct sf_subject *s, int cap)
{
	bool ok;

	if (!sf_cap_in(sf_subject_caps(s), cap))
		return false;
	sf_rcu_read_lock();
	ok = sf_onlycap_allows(sf_policy_snapshot(fs->policy), s->lid);
	sf_rcu_read_unlock();
	return ok;
}

sf_lid sf_subject_hook(void *arg, pid_t pid, uid_t uid, gid_t gid)
{
	return sf_subject_of(arg, pid, uid, gid);
}

/* capable(): @cap in the caller's effective set, onlycap aside. */
bool sf_subject_capable(struct sf_subject *s, int cap)
{
	return sf_cap_in(sf_subject_caps(s), cap);
}

/* in_group_p(): @gid is the caller's fsgid or one of its groups. */
bool sf_subject_in_group(struct sf_subject *s, gid_t gid)
{
	return sf_in_group(s, gid);
}
