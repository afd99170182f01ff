// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_control.c - libFuzzer target for the control-file writes: load2,
 * load, change-rule, access2, access, revoke-subject, onlycap, logging,
 * cipso2, cipso, doi, direct, mapped, ambient, netlabel, load-rules and
 * replace-rules.  It drives the control filesystem's own FUSE handlers
 * (open, write, flush, read, release: static in src/control/control.c, so
 * that file is included here with libfuse's request calls replaced by
 * stubs) on a fresh policy per input.
 *
 * The input is a sequence of writes, each: file (1 byte), flags (1 byte:
 * bit 0 the writer lacks CAP_MAC_ADMIN, bits 1-3 its label, bits 4-5
 * into how many write(2)s a collecting file's data is split), length
 * (2 bytes, little endian), data.  After every write:
 * - each handler replied exactly once;
 * - a refused write (any errno) left the policy as it was: every readable
 *   file shows the same bytes as before (rules, onlycap, logging, CIPSO
 *   and NetLabel values), and the daemon was not told of a change;
 * - an accepted write used 1..len bytes (0 would make writers loop), and a
 *   non-empty policy write told the daemon (invalidate hook) before
 *   returning;
 * - a query (access, access2) changed nothing and answers "1" or "0"
 *   with its NUL, and a second query on the same open file is EBUSY;
 * - a writer without CAP_MAC_ADMIN is refused with EPERM.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "control_int.h"

/* ---- what control.c gets instead of libfuse's request calls ---- */

struct fz_req {
	int replies;
	int err;		/* fuse_reply_err */
	size_t written;		/* fuse_reply_write */
	char buf[4096];		/* fuse_reply_buf */
	size_t len;
};

static struct sf_control *fz_ctl;
static bool fz_unpriv;
static sf_lid fz_subject;
static unsigned long fz_invalidations;

static struct fz_req *fz_r(fuse_req_t req)
{
	return (struct fz_req *)(void *)req;
}

static int fz_reply_err(fuse_req_t req, int err)
{
	fz_r(req)->replies++;
	fz_r(req)->err = err;
	return 0;
}

static int fz_reply_write(fuse_req_t req, size_t count)
{
	fz_r(req)->replies++;
	fz_r(req)->written = count;
	return 0;
}

static int fz_reply_buf(fuse_req_t req, const char *buf, size_t size)
{
	struct fz_req *r = fz_r(req);

	r->replies++;
	r->len = size < sizeof(r->buf) ? size : sizeof(r->buf);
	if (r->len)
		memcpy(r->buf, buf, r->len);
	return 0;
}

static int fz_reply_open(fuse_req_t req, const struct fuse_file_info *fi)
{
	(void)fi;
	fz_r(req)->replies++;
	return 0;
}

static void *fz_req_userdata(fuse_req_t req)
{
	(void)req;
	return fz_ctl;
}

static const struct fuse_ctx *fz_req_ctx(fuse_req_t req)
{
	static struct fuse_ctx ctx;

	(void)req;
	ctx.pid = getpid();
	ctx.uid = geteuid();
	ctx.gid = getegid();
	return &ctx;
}

/* CAP_MAC_ADMIN is the fuzzer's choice; onlycap is the policy's. */
static int fz_privileged(struct sf_control *c, const struct ctl_caller *who)
{
	bool ok;

	(void)who;
	if (fz_unpriv)
		return -EPERM;
	sf_rcu_read_lock();
	ok = sf_onlycap_allows(sf_policy_snapshot(c->policy), fz_subject);
	sf_rcu_read_unlock();
	return ok ? 0 : -EPERM;
}

#define fuse_reply_err(req, err) fz_reply_err(req, err)
#define fuse_reply_write(req, n) fz_reply_write(req, n)
#define fuse_reply_buf(req, b, n) fz_reply_buf(req, b, n)
#define fuse_reply_open(req, fi) fz_reply_open(req, fi)
#define fuse_req_userdata(req) fz_req_userdata(req)
#define fuse_req_ctx(req) fz_req_ctx(req)
#define ctl_privileged(c, who) fz_privileged(c, who)
#include "../../../src/control/control.c"

static void fz_invalidate(void *arg)
{
	(void)arg;
	fz_invalidations++;
}

/* Everything a reader can see, in one buffer ("status" aside: it counts
 * writes). */
static void fz_snapshot(struct sf_control *c, struct ctl_buf *out)
{
	size_t i;

	out->len = 0;
	for (i = 0; i < ctl_nfiles; i++) {
		if (!ctl_files[i].show || !strcmp(ctl_files[i].name, "status"))
			continue;
		if (ctl_buf_printf(out, "== %s\n", ctl_files[i].name) ||
		    ctl_files[i].show(c, out))
			abort();
	}
}

static void fz_fail(const char *what, const struct ctl_file *f, int err)
{
	fprintf(stderr, "fuzz_control: %s: %s (errno %d)\n", f->name, what,
		err);
	abort();
}

static bool fz_policy_file(const struct ctl_file *f)
{
	static const char *const names[] = { "load2", "load", "change-rule",
		"revoke-subject", "onlycap", "load-rules", "replace-rules" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(f->name, names[i]))
			return true;
	return false;
}

/* One write (or, for a collecting file, a few writes and the close). */
static void fz_one(struct sf_control *c, size_t idx, unsigned int flags,
		   const char *data, size_t len, struct ctl_buf *before,
		   struct ctl_buf *after)
{
	const struct ctl_file *f = &ctl_files[idx];
	fuse_ino_t ino = idx + 2;
	struct fuse_file_info fi;
	struct fz_req r;
	unsigned long inv0 = fz_invalidations;
	int err = 0;

	fz_unpriv = flags & 1;
	fz_subject = SF_LID_STAR + ((flags >> 1) & 7) %
		     (sf_labels_count(c->labels) - 1);
	memset(&fi, 0, sizeof(fi));
	fi.flags = (f->flags & CTL_TXN) ? O_RDWR : O_WRONLY;
	memset(&r, 0, sizeof(r));
	ctl_open((fuse_req_t)(void *)&r, ino, &fi);
	if (r.replies != 1)
		fz_fail("open: not one reply", f, 0);
	if (r.err) {
		if (f->store)
			fz_fail("open for writing refused", f, r.err);
		return;
	}
	fz_snapshot(c, before);

	if (f->flags & CTL_COLLECT) {
		size_t parts = 1 + ((flags >> 4) & 3), off = 0, i;

		for (i = 0; i < parts && !err; i++) {
			size_t n = i + 1 == parts ? len - off : len / parts;

			memset(&r, 0, sizeof(r));
			ctl_write((fuse_req_t)(void *)&r, ino, data + off, n,
				  (off_t)off, &fi);
			if (r.replies != 1)
				fz_fail("write: not one reply", f, 0);
			err = r.err;
			if (!err && r.written != n)
				fz_fail("collecting write cut short", f, 0);
			off += n;
		}
		if (!err) {
			memset(&r, 0, sizeof(r));
			ctl_flush((fuse_req_t)(void *)&r, ino, &fi);
			if (r.replies != 1)
				fz_fail("flush: not one reply", f, 0);
			err = r.err;
		}
	} else {
		memset(&r, 0, sizeof(r));
		ctl_write((fuse_req_t)(void *)&r, ino, data, len, 0, &fi);
		if (r.replies != 1)
			fz_fail("write: not one reply", f, 0);
		err = r.err;
		if (!err && (r.written == 0 || r.written > len))
			fz_fail("accepted write used 0 or too many bytes", f,
				0);
	}
	if ((f->flags & CTL_PRIV) && fz_unpriv && err != EPERM)
		fz_fail("writer without CAP_MAC_ADMIN not refused", f, err);

	if ((f->flags & CTL_TXN) && !err) {
		memset(&r, 0, sizeof(r));
		ctl_write((fuse_req_t)(void *)&r, ino, data, len, 0, &fi);
		if (r.replies != 1 || r.err != EBUSY)
			fz_fail("second query on one open file", f, r.err);
		memset(&r, 0, sizeof(r));
		ctl_read((fuse_req_t)(void *)&r, ino, 4096, 0, &fi);
		if (r.replies != 1 || r.err || r.len != 2 ||
		    (r.buf[0] != '0' && r.buf[0] != '1') || r.buf[1])
			fz_fail("query answer is not 1 or 0 with its NUL", f,
				r.err);
	}
	memset(&r, 0, sizeof(r));
	ctl_release((fuse_req_t)(void *)&r, ino, &fi);
	if (r.replies != 1 || r.err)
		fz_fail("release", f, r.err);

	fz_snapshot(c, after);
	if (err || (f->flags & CTL_TXN)) {
		if (before->len != after->len ||
		    memcmp(before->data, after->data, before->len)) {
			fprintf(stderr, "before:\n%s\nafter:\n%s\n",
				before->data, after->data);
			fz_fail(err ? "refused write changed the policy" :
				"query changed the policy", f, err);
		}
		if (fz_invalidations != inv0)
			fz_fail("daemon told of a change that did not happen",
				f, err);
	} else if (fz_policy_file(f) && len && fz_invalidations == inv0) {
		fz_fail("policy changed, daemon not told", f, 0);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ctl_buf before = { 0 }, after = { 0 };
	struct sf_control c;
	size_t pos = 0;

	memset(&c, 0, sizeof(c));
	c.policy = sf_policy_new();
	if (!c.policy)
		abort();
	c.labels = sf_policy_labels(c.policy);
	c.hooks.invalidate = fz_invalidate;
	c.dir = "fuzz";
	c.mountpoint = "/fuzz";
	c.source = "/fuzz-src";
	pthread_mutex_init(&c.write_lock, NULL);
	atomic_init(&c.logging, 1);
	ctl_net_init(&c.net, false);	/* never the kernel's NetLabel */
	fz_ctl = &c;

	while (size - pos >= 4) {
		size_t idx = data[pos] % ctl_nfiles;
		unsigned int flags = data[pos + 1];
		size_t len = data[pos + 2] | (size_t)data[pos + 3] << 8;

		pos += 4;
		if (len > size - pos)
			len = size - pos;
		fz_one(&c, idx, flags, (const char *)data + pos, len, &before,
		       &after);
		pos += len;
	}

	ctl_buf_release(&before);
	ctl_buf_release(&after);
	/* as ctl_free(): per-task state (relabel-self) and
	 * ipv6host entries */
	ctl_self_release(&c);
	ctl_net6_release(&c);
	ctl_net_release(&c.net);
	pthread_mutex_destroy(&c.write_lock);
	sf_policy_free(c.policy);
	return 0;
}
