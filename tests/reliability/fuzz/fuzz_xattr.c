// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_xattr.c - libFuzzer target for the Smack attribute values the
 * daemon accepts: its setxattr operation (sf_setxattr and
 * sf_setxattr_smack, in src/fuse/handlers/ops_xattrs.c, so that file is
 * included here with the libfuse request calls replaced by stubs) on a real
 * backing file and directory (-o xattr=user., so no privilege is needed
 * to store them).
 *
 * Input: byte 0 picks the attribute name, byte 1 the object (file or
 * directory), whether the caller holds CAP_MAC_ADMIN, and the setxattr
 * flags; the rest is the value.  Invariants, checked after every input:
 * - the operation replies exactly once;
 * - without CAP_MAC_ADMIN a Smack attribute is refused with EPERM;
 * - a refused call leaves every backing attribute and the label the
 *   daemon holds for the object exactly as they were;
 * - an accepted SMACK64/SMACK64EXEC/SMACK64MMAP/IPIN/IPOUT value starts
 *   with a valid label by an oracle written here from smack_lsm.c's rules
 *   (not the core's parser: smk_import_entry() takes the value's valid
 *   prefix, "A/b" is A), is stored as exactly that label, and read back
 *   as it; EXEC and MMAP never take "*" or "@";
 * - an accepted SMACK64TRANSMUTE is "TRUE" on a directory;
 * - a privileged SMACK64 set (flags 0) of a valid label is never refused.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "smackfuse.h"

struct sf_fs sf_fs;

/* ---- what ops.c gets instead of libfuse's request calls ---- */

struct fz_req {
	int replies;
	int err;
};

static bool fz_priv;

static int fz_reply_err(fuse_req_t req, int err)
{
	struct fz_req *r = (struct fz_req *)(void *)req;

	r->replies++;
	r->err = err;
	return 0;
}

static void *fz_req_userdata(fuse_req_t req)
{
	(void)req;
	return &sf_fs;
}

static struct sf_node *fz_node(fuse_req_t req, fuse_ino_t ino)
{
	(void)req;
	return (struct sf_node *)(uintptr_t)ino;
}

static void fz_subject_get(struct sf_fs *fs, fuse_req_t req,
			   struct sf_subject *s)
{
	(void)fs;
	(void)req;
	memset(s, 0, sizeof(*s));
	s->pid = getpid();
	s->lid = SF_LID_FLOOR;
}

static bool fz_privileged(struct sf_fs *fs, struct sf_subject *s, int cap)
{
	(void)fs;
	(void)s;
	return fz_priv && cap == SF_CAP_MAC_ADMIN;
}

/* No invalidation thread per input: nothing is mounted. */
static int fz_thread(pthread_t *t, const pthread_attr_t *a,
		     void *(*fn)(void *), void *arg)
{
	(void)t;
	(void)a;
	(void)fn;
	(void)arg;
	return EAGAIN;
}

#define fuse_reply_err(req, err) fz_reply_err(req, err)
#define fuse_req_userdata(req) fz_req_userdata(req)
#define sf_node(req, ino) fz_node(req, ino)
#define sf_subject_get(fs, req, s) fz_subject_get(fs, req, s)
#define sf_privileged(fs, s, cap) fz_privileged(fs, s, cap)
#define pthread_create(t, a, fn, arg) fz_thread(t, a, fn, arg)
#include "../../../src/fuse/handlers/ops_xattrs.c"
#undef fuse_reply_err
#undef fuse_req_userdata
#undef sf_node

/* ---- the oracle ---- */

/* smk_parse_smack()'s rules: the label is the value up to its first byte
 * that a label cannot hold (not printable ASCII, or / " \ '), and must
 * then be 1..255 bytes that do not start with '-' (fz_label_ok). */
static size_t fz_token(const char *v, size_t size)
{
	size_t i;

	for (i = 0; i < size; i++) {
		unsigned char c = (unsigned char)v[i];

		if (c <= ' ' || c > '~' || c == '/' || c == '"' ||
		    c == '\\' || c == '\'')
			break;
	}
	return i;
}

/* A label cut by fz_token() of @len bytes is one smk_parse_smack() takes. */
static bool fz_label_ok(const char *v, size_t len)
{
	return len > 0 && len <= 255 && v[0] != '-';
}

/* ---- the backing objects ---- */

static const char *const fz_names[] = {
	"security.SMACK64", "security.SMACK64EXEC", "security.SMACK64MMAP",
	"security.SMACK64TRANSMUTE", "security.SMACK64IPIN",
	"security.SMACK64IPOUT", "security.SMACK64X", "user.SMACK64",
	"user.other", "security.other",
};
#define FZ_NNAMES (sizeof(fz_names) / sizeof(fz_names[0]))

/* Every backing name a call above could write. */
static const char *const fz_backing[] = {
	"user.SMACK64", "user.SMACK64EXEC", "user.SMACK64MMAP",
	"user.SMACK64TRANSMUTE", "user.SMACK64IPIN", "user.SMACK64IPOUT",
	"user.SMACK64X", "user.other", "security.other",
};
#define FZ_NBACKING (sizeof(fz_backing) / sizeof(fz_backing[0]))

struct fz_state {
	ssize_t len[FZ_NBACKING];
	char val[FZ_NBACKING][512];
	sf_lid label;
	bool transmute;
};

static char fz_dir[64];
static struct sf_node *fz_obj[2];	/* file, directory */

static void fz_proc(struct sf_node *n, char *buf, size_t size)
{
	snprintf(buf, size, "/proc/self/fd/%d", n->fd);
}

static struct sf_node *fz_node_new(const char *path)
{
	struct sf_node *n = calloc(1, sizeof(*n));
	struct stat st;

	if (!n)
		abort();
	n->fd = open(path, O_PATH | O_CLOEXEC);
	if (n->fd < 0 || fstat(n->fd, &st))
		abort();
	n->ino = st.st_ino;
	n->dev = st.st_dev;
	n->type = st.st_mode & S_IFMT;
	n->nlookup = 1;
	return n;
}

static void fz_cleanup(void)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/f", fz_dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/d", fz_dir);
	rmdir(path);
	rmdir(fz_dir);
}

static void fz_setup(void)
{
	const char *tmp = getenv("TMPDIR");
	char path[128];
	int fd;

	snprintf(fz_dir, sizeof(fz_dir), "%s/sf-fzx.XXXXXX",
		 tmp && strlen(tmp) < 40 ? tmp : "/tmp");
	if (!mkdtemp(fz_dir))
		abort();
	atexit(fz_cleanup);
	snprintf(path, sizeof(path), "%s/f", fz_dir);
	fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		abort();
	close(fd);
	fz_obj[0] = fz_node_new(path);
	snprintf(path, sizeof(path), "%s/d", fz_dir);
	if (mkdir(path, 0755))
		abort();
	fz_obj[1] = fz_node_new(path);

	sf_fs.policy = sf_policy_new();
	if (!sf_fs.policy)
		abort();
	sf_fs.labels = sf_policy_labels(sf_fs.policy);
	sf_fs.opt.def = sf_fs.opt.floor = SF_LID_FLOOR;
	sf_fs.opt.hat = SF_LID_HAT;
	sf_fs.opt.xattr_prefix = "user.";
	sf_fs.proc_self_fd = -1;
	atomic_store(&sf_fs.logging, 0);
	if (sf_labels_setup(&sf_fs))
		abort();
}

/* Start every input from an unlabelled object ("_", the default). */
static void fz_reset(struct sf_node *n)
{
	char proc[64];
	size_t i;

	fz_proc(n, proc, sizeof(proc));
	for (i = 0; i < FZ_NBACKING; i++)
		removexattr(proc, fz_backing[i]);
	atomic_store(&n->flags, 0);
}

static void fz_save(struct sf_node *n, struct fz_state *st)
{
	char proc[64];
	size_t i;

	memset(st, 0, sizeof(*st));
	fz_proc(n, proc, sizeof(proc));
	for (i = 0; i < FZ_NBACKING; i++)
		st->len[i] = getxattr(proc, fz_backing[i], st->val[i],
				      sizeof(st->val[i]));
	st->label = atomic_load(&n->label);
	st->transmute = atomic_load(&n->flags) & SF_NODE_TRANSMUTE;
}

static void fz_fail(const char *what, const char *name, int err)
{
	fprintf(stderr, "fuzz_xattr: %s (name %s, reply %d)\n", what, name,
		err);
	abort();
}

/* The label read afresh from the backing tree. */
static sf_lid fz_reread(struct sf_node *n)
{
	sf_node_label_invalidate(n);
	return sf_node_label(&sf_fs, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int xflags[] = { 0, 0, XATTR_CREATE, XATTR_REPLACE };
	struct fz_state before, after;
	struct fz_req r = { 0, 0 };
	const char *name, *value;
	struct sf_node *n;
	size_t vlen, tok;
	int flags;

	if (size < 2)
		return 0;
	if (!fz_obj[0])
		fz_setup();
	name = fz_names[data[0] % FZ_NNAMES];
	n = fz_obj[data[1] & 1];
	fz_priv = data[1] & 2;
	flags = xflags[(data[1] >> 2) & 3];
	value = (const char *)data + 2;
	vlen = size - 2;

	fz_reset(n);
	(void)fz_reread(n);	/* the label the daemon holds: "_" */
	fz_save(n, &before);
	sf_setxattr((fuse_req_t)(void *)&r, (fuse_ino_t)(uintptr_t)n, name,
		    value, vlen, flags);
	if (r.replies != 1)
		fz_fail("not exactly one reply", name, r.err);
	fz_save(n, &after);
	if (!fz_priv && !strncmp(name, "security.SMACK64", 16) &&
	    r.err != EPERM)
		fz_fail("Smack attribute set without CAP_MAC_ADMIN", name,
			r.err);

	if (r.err) {
		if (memcmp(&before, &after, sizeof(before)))
			fz_fail("refused, yet something changed", name, r.err);
		if (fz_reread(n) != before.label)
			fz_fail("refused, yet the stored label changed", name,
				r.err);
		goto out;
	}

	tok = fz_token(value, vlen);
	if (!strcmp(name, "security.SMACK64TRANSMUTE")) {
		if (n->type != S_IFDIR || vlen != 4 || memcmp(value, "TRUE", 4))
			fz_fail("bad SMACK64TRANSMUTE accepted", name, 0);
		if (!(atomic_load(&n->flags) & SF_NODE_TRANSMUTE) ||
		    !sf_node_transmute(&sf_fs, n))
			fz_fail("SMACK64TRANSMUTE accepted, not in force",
				name, 0);
	} else if (!strcmp(name, "security.SMACK64") ||
		   !strcmp(name, "security.SMACK64EXEC") ||
		   !strcmp(name, "security.SMACK64MMAP") ||
		   !strcmp(name, "security.SMACK64IPIN") ||
		   !strcmp(name, "security.SMACK64IPOUT")) {
		size_t i = !strcmp(name, "security.SMACK64") ? 0 :
			   !strcmp(name, "security.SMACK64EXEC") ? 1 :
			   !strcmp(name, "security.SMACK64MMAP") ? 2 :
			   !strcmp(name, "security.SMACK64IPIN") ? 4 : 5;

		if (!fz_label_ok(value, tok))
			fz_fail("invalid label accepted", name, 0);
		if (i == 1 || i == 2) {
			if (tok == 1 && (value[0] == '*' || value[0] == '@'))
				fz_fail("* or @ accepted as EXEC/MMAP", name,
					0);
		}
		if (after.len[i] != (ssize_t)tok ||
		    memcmp(after.val[i], value, tok))
			fz_fail("stored value is not the label", name, 0);
		if (i == 0) {
			const char *l = sf_label_name(sf_fs.labels,
						      fz_reread(n));

			if (!l || strlen(l) != tok || memcmp(l, value, tok))
				fz_fail("label read back differs", name, 0);
		}
	}
out:
	/* No false refusals: a privileged SMACK64 of a valid label. */
	if (fz_priv && flags == 0 && !strcmp(name, "security.SMACK64") &&
	    fz_label_ok(value, fz_token(value, vlen)) && r.err)
		fz_fail("valid label refused", name, r.err);
	return 0;
}
