// SPDX-License-Identifier: GPL-2.0-only
/*
 * control.c - the control filesystem: a second FUSE session whose files
 * are smackfs's, served by one thread of the daemon.
 *
 * One flat directory.  Inode 1 is the root, file i of ctl_files[] is
 * inode i + 2.  Every open gets a handle (struct ctl_handle) that holds
 * what reads show (regenerated on a read at offset 0, like seq_file),
 * the reply of a transaction file, or the writes a collecting file has
 * gathered.  The session runs single-threaded: handles need no locks, and
 * policy readers elsewhere never wait (the core publishes snapshots).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "control_int.h"
#include "mountinfo.h"

#define CTL_ROOT_INO	1
#define CTL_TIMEOUT	3600.0	/* the directory never changes */

struct ctl_handle {
	const struct ctl_file *file;
	struct ctl_buf shown;	/* read side */
	struct ctl_buf collected;	/* CTL_COLLECT writes */
	bool answered;		/* CTL_TXN: a query was written */
	off_t reply_at;		/* CTL_TXN: file offset the reply starts at */
};

static time_t ctl_birth;

static const struct ctl_file *ctl_file_of(fuse_ino_t ino)
{
	if (ino < 2 || ino - 2 >= ctl_nfiles)
		return NULL;
	return &ctl_files[ino - 2];
}

static void ctl_fill_attr(fuse_ino_t ino, struct stat *st)
{
	const struct ctl_file *f = ctl_file_of(ino);

	memset(st, 0, sizeof(*st));
	st->st_ino = ino;
	st->st_atime = st->st_mtime = st->st_ctime = ctl_birth;
	if (ino == CTL_ROOT_INO) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
	} else {
		st->st_mode = S_IFREG | f->mode;
		st->st_nlink = 1;
	}
}

static struct ctl_handle *ctl_handle(struct fuse_file_info *fi)
{
	return (struct ctl_handle *)(uintptr_t)fi->fh;
}

static void ctl_caller_of(fuse_req_t req, struct ctl_caller *who)
{
	const struct fuse_ctx *ctx = fuse_req_ctx(req);

	who->pid = ctx->pid;
	who->uid = ctx->uid;
	who->gid = ctx->gid;
}

/* ---- operations, in fuse_lowlevel_ops order ---- */

static void ctl_init(void *userdata, struct fuse_conn_info *conn)
{
	(void)userdata;
	/* Every read must reach us: nothing is cached, nothing is spliced. */
	conn->want &= ~FUSE_CAP_SPLICE_READ;
}

static void ctl_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fuse_entry_param e;
	size_t i;

	if (parent != CTL_ROOT_INO) {
		fuse_reply_err(req, ENOTDIR);
		return;
	}
	for (i = 0; i < ctl_nfiles; i++) {
		if (strcmp(ctl_files[i].name, name) == 0)
			break;
	}
	if (i == ctl_nfiles) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	memset(&e, 0, sizeof(e));
	e.ino = i + 2;
	e.attr_timeout = CTL_TIMEOUT;
	e.entry_timeout = CTL_TIMEOUT;
	ctl_fill_attr(e.ino, &e.attr);
	fuse_reply_entry(req, &e);
}

static void ctl_getattr(fuse_req_t req, fuse_ino_t ino,
			struct fuse_file_info *fi)
{
	struct stat st;

	(void)fi;
	if (ino != CTL_ROOT_INO && !ctl_file_of(ino)) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	ctl_fill_attr(ino, &st);
	fuse_reply_attr(req, &st, CTL_TIMEOUT);
}

/* Only truncation to 0 (O_TRUNC of "echo > file") is accepted. */
static void ctl_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr,
			int to_set, struct fuse_file_info *fi)
{
	if (to_set & ~(FUSE_SET_ATTR_SIZE | FUSE_SET_ATTR_ATIME |
		       FUSE_SET_ATTR_MTIME | FUSE_SET_ATTR_ATIME_NOW |
		       FUSE_SET_ATTR_MTIME_NOW | FUSE_SET_ATTR_CTIME)) {
		fuse_reply_err(req, EPERM);
		return;
	}
	if ((to_set & FUSE_SET_ATTR_SIZE) && attr->st_size != 0) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	ctl_getattr(req, ino, fi);
}

static void ctl_open(fuse_req_t req, fuse_ino_t ino,
		     struct fuse_file_info *fi)
{
	const struct ctl_file *f = ctl_file_of(ino);
	int acc = fi->flags & O_ACCMODE;
	struct ctl_caller who;
	struct ctl_handle *h;

	if (!f) {
		fuse_reply_err(req, ino == CTL_ROOT_INO ? EISDIR : ENOENT);
		return;
	}
	if (acc != O_RDONLY && !f->store) {
		fuse_reply_err(req, EACCES);
		return;
	}
	/* The file's mode decides, at open, as smackfs' modes do: nobody
	 * learns only at write() that the file was never theirs. */
	ctl_caller_of(req, &who);
	if (ctl_may_open(&who, f->mode, acc) < 0) {
		fuse_reply_err(req, EACCES);
		return;
	}
	h = calloc(1, sizeof(*h));
	if (!h) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	h->file = f;
	fi->fh = (uintptr_t)h;
	fi->direct_io = 1;	/* contents change; never cache them */
	fi->keep_cache = 0;
	if (fuse_reply_open(req, fi) == -ENOENT)
		free(h);
}

static void ctl_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		     struct fuse_file_info *fi)
{
	struct ctl_handle *h = ctl_handle(fi);
	struct sf_control *c = fuse_req_userdata(req);
	int rc;

	(void)ino;
	if (!(h->file->flags & CTL_TXN) && off == 0) {
		h->shown.len = 0;
		/* A write-only smackfs file reads as empty, as there. */
		if (h->file->show_own) {
			struct ctl_caller who;

			ctl_caller_of(req, &who);
			rc = h->file->show_own(c, &who, &h->shown);
		} else {
			rc = h->file->show ? h->file->show(c, &h->shown) : 0;
		}
		if (rc < 0) {
			fuse_reply_err(req, -rc);
			return;
		}
	}
	/*
	 * smackfs' transaction write leaves the file offset at 0, so the
	 * reply is read from 0; FUSE has moved it past the query.  Read
	 * the reply from where the query ended.
	 */
	if ((h->file->flags & CTL_TXN) && off >= h->reply_at)
		off -= h->reply_at;
	if (off < 0 || (size_t)off >= h->shown.len) {
		fuse_reply_buf(req, NULL, 0);
		return;
	}
	if (size > h->shown.len - (size_t)off)
		size = h->shown.len - (size_t)off;
	fuse_reply_buf(req, h->shown.data + off, size);
}

static void ctl_write(fuse_req_t req, fuse_ino_t ino, const char *buf,
		      size_t size, off_t off, struct fuse_file_info *fi)
{
	struct ctl_handle *h = ctl_handle(fi);
	struct sf_control *c = fuse_req_userdata(req);
	const struct ctl_file *f = h->file;
	struct ctl_caller who;
	struct ctl_input in = { .file = f, .who = &who, .buf = buf,
				.len = size, .out = &h->shown };
	ssize_t rc;

	(void)ino;
	/* Like smackfs, every write stands alone; @off only places the
	 * reply of a transaction. */
	ctl_caller_of(req, &who);
	if (f->flags & CTL_PRIV) {
		rc = ctl_privileged(c, &who);
		if (rc < 0) {
			ctl_log(c, LOG_NOTICE,
				"%s: write by pid %d uid %u refused: not privileged",
				f->name, (int)who.pid, (unsigned int)who.uid);
			fuse_reply_err(req, (int)-rc);
			return;
		}
	}
	if (f->flags & CTL_COLLECT) {
		if (h->collected.len + size > SF_INPUT_MAX) {
			fuse_reply_err(req, EFBIG);
			return;
		}
		if (ctl_buf_append(&h->collected, buf, size)) {
			fuse_reply_err(req, ENOMEM);
			return;
		}
		fuse_reply_write(req, size);
		return;
	}
	if (f->flags & CTL_TXN) {
		if (h->answered) {
			fuse_reply_err(req, EBUSY);
			return;
		}
		h->shown.len = 0;
	}
	if (size == 0) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	atomic_fetch_add(&c->writes, 1);
	rc = f->store(c, &in);
	if (rc < 0) {
		atomic_fetch_add(&c->rejected, 1);
		fuse_reply_err(req, (int)-rc);
		return;
	}
	if (f->flags & CTL_TXN) {
		h->answered = true;
		h->reply_at = off + rc;
	}
	fuse_reply_write(req, (size_t)rc);
}

/* A collecting file applies what it gathered when it is closed: close(2)
 * returns the verdict. */
static void ctl_flush(fuse_req_t req, fuse_ino_t ino,
		      struct fuse_file_info *fi)
{
	struct ctl_handle *h = ctl_handle(fi);
	struct sf_control *c = fuse_req_userdata(req);
	struct ctl_caller who;
	struct ctl_input in = { .file = h->file, .who = &who,
				.buf = h->collected.data,
				.len = h->collected.len };
	ssize_t rc = 0;

	(void)ino;
	if ((h->file->flags & CTL_COLLECT) && h->collected.len) {
		ctl_caller_of(req, &who);
		atomic_fetch_add(&c->writes, 1);
		rc = h->file->store(c, &in);
		if (rc < 0)
			atomic_fetch_add(&c->rejected, 1);
		h->collected.len = 0;
	}
	fuse_reply_err(req, rc < 0 ? (int)-rc : 0);
}

static void ctl_release(fuse_req_t req, fuse_ino_t ino,
			struct fuse_file_info *fi)
{
	struct ctl_handle *h = ctl_handle(fi);

	(void)ino;
	ctl_buf_release(&h->shown);
	ctl_buf_release(&h->collected);
	free(h);
	fuse_reply_err(req, 0);
}

static void ctl_opendir(fuse_req_t req, fuse_ino_t ino,
			struct fuse_file_info *fi)
{
	if (ino != CTL_ROOT_INO) {
		fuse_reply_err(req, ENOTDIR);
		return;
	}
	fuse_reply_open(req, fi);
}

static void ctl_readdir(fuse_req_t req, fuse_ino_t ino, size_t size,
			off_t off, struct fuse_file_info *fi)
{
	char *buf = calloc(1, size);
	size_t used = 0, n;
	struct stat st;
	off_t i;

	(void)fi;
	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	memset(&st, 0, sizeof(st));
	/* Entry i: 0 ".", 1 "..", 2.. the files. */
	for (i = off; i < (off_t)ctl_nfiles + 2; i++) {
		const char *name = i == 0 ? "." : i == 1 ? ".." :
				   ctl_files[i - 2].name;

		st.st_ino = i < 2 ? ino : (fuse_ino_t)i;
		st.st_mode = i < 2 ? S_IFDIR : S_IFREG;
		n = fuse_add_direntry(req, buf + used, size - used, name, &st,
				      i + 1);
		if (n > size - used)
			break;
		used += n;
	}
	fuse_reply_buf(req, buf, used);
	free(buf);
}

static void ctl_releasedir(fuse_req_t req, fuse_ino_t ino,
			   struct fuse_file_info *fi)
{
	(void)ino;
	(void)fi;
	fuse_reply_err(req, 0);
}

static const struct fuse_lowlevel_ops ctl_ops = {
	.init		= ctl_init,
	.lookup		= ctl_lookup,
	.getattr	= ctl_getattr,
	.setattr	= ctl_setattr,
	.open		= ctl_open,
	.read		= ctl_read,
	.write		= ctl_write,
	.flush		= ctl_flush,
	.release	= ctl_release,
	.opendir	= ctl_opendir,
	.readdir	= ctl_readdir,
	.releasedir	= ctl_releasedir,
};

/* ---- life cycle ---- */

static void *ctl_thread(void *arg)
{
	struct sf_control *c = arg;

	fuse_session_loop(c->se);
	return NULL;
}

static int ctl_mount(struct sf_control *c, bool debug)
{
	char *argv[] = { "smackfuse-control", "-o",
			 "allow_other,fsname=smackfuse-control,"
			 "subtype=smackfuse-control", debug ? "-d" : NULL,
			 NULL };
	struct fuse_args args = FUSE_ARGS_INIT(debug ? 4 : 3, argv);

	c->se = fuse_session_new(&args, &ctl_ops, sizeof(ctl_ops), c);
	fuse_opt_free_args(&args);
	if (!c->se) {
		ctl_log(c, LOG_ERR, "cannot create the FUSE session");
		return -EIO;
	}
	if (fuse_session_mount(c->se, c->dir) != 0) {
		ctl_log(c, LOG_ERR, "cannot mount on %s", c->dir);
		fuse_session_destroy(c->se);
		c->se = NULL;
		return -EIO;
	}
	return 0;
}

/* What sf_control_start() allocated, freed by its error path and by
 * sf_control_stop(). */
static void ctl_free(struct sf_control *c)
{
	ctl_self_release(c);
	ctl_net6_release(c);
	ctl_net_release(&c->net);
	pthread_mutex_destroy(&c->write_lock);
	free(c->mountpoint);
	free(c->source);
	free(c->dir);
	free(c->link);
	free(c);
}

int sf_control_start(struct sf_control **out, struct sf_policy *policy,
		     const struct sf_control_config *cfg,
		     const struct sf_control_hooks *hooks)
{
	struct sf_control *c;
	sigset_t all, old;
	int rc;

	*out = NULL;
	if (cfg->dir && strcmp(cfg->dir, "none") == 0)
		return 0;
	if (!ctl_birth)
		ctl_birth = time(NULL);
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->policy = policy;
	c->labels = sf_policy_labels(policy);
	if (hooks)
		c->hooks = *hooks;
	c->log_stderr = cfg->log_stderr;
	c->syslog = SF_LID_INVALID;
	c->mountpoint = strdup(cfg->mountpoint ? cfg->mountpoint : "");
	c->source = strdup(cfg->source ? cfg->source : "");
	pthread_mutex_init(&c->write_lock, NULL);
	atomic_init(&c->logging, cfg->logging >= 0 &&
		    cfg->logging <= SF_LOG_ALL ? cfg->logging : SF_LOG_DENIED);
	ctl_net_init(&c->net, !cfg->netlabel_off);
	if (!c->mountpoint || !c->source) {
		rc = -ENOMEM;
		goto out_free;
	}
	rc = ctl_path_setup(c, cfg->dir, cfg->rundir);
	if (rc < 0)
		goto out_free;
	ctl_net_start(c);
	rc = ctl_mount(c, cfg->debug);
	if (rc < 0)
		goto out_path;

	/* Signals belong to the daemon's main thread, not to ours. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = -pthread_create(&c->thread, NULL, ctl_thread, c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc < 0) {
		ctl_log(c, LOG_ERR, "cannot start the control thread");
		goto out_unmount;
	}
	c->running = true;
	c->dev = sf_mount_dev(c->dir);
	ctl_log(c, LOG_INFO, "serving the control files of %s%s",
		c->mountpoint, cfg->netlabel_off ? " (netlabel=off: doi, "
		"ambient and netlabel do not change the kernel)" : "");
	*out = c;
	return 0;

out_unmount:
	fuse_session_unmount(c->se);
	fuse_session_destroy(c->se);
out_path:
	ctl_path_teardown(c);
out_free:
	ctl_free(c);
	return rc;
}

/* Wake the session thread out of its read of /dev/fuse: abort the
 * connection (works even when a file is held open), else rely on the
 * lazy unmount dropping the last reference. */
static void ctl_abort(struct sf_control *c)
{
	char path[64];
	int fd;

	if (!c->dev || major(c->dev) != 0)
		return;
	snprintf(path, sizeof(path), "/sys/fs/fuse/connections/%u/abort",
		 minor(c->dev));
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (write(fd, "1", 1) < 0)
		ctl_log(c, LOG_DEBUG, "abort: %s", strerror(errno));
	close(fd);
}

void sf_control_stop(struct sf_control *c)
{
	struct timespec ts;

	if (!c)
		return;
	if (c->running) {
		fuse_session_exit(c->se);
		if (umount2(c->dir, MNT_DETACH) != 0 && errno != EINVAL)
			ctl_log(c, LOG_WARNING, "unmount: %s",
				strerror(errno));
		ctl_abort(c);
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += 5;
		if (pthread_timedjoin_np(c->thread, NULL, &ts) != 0) {
			ctl_log(c, LOG_WARNING,
				"control thread did not stop; leaving it");
			pthread_detach(c->thread);
			ctl_path_teardown(c);
			return;	/* the thread still uses @c: leak it */
		}
	}
	fuse_session_unmount(c->se);
	fuse_session_destroy(c->se);
	ctl_path_teardown(c);
	ctl_free(c);
}

int sf_control_logging(const struct sf_control *c)
{
	return c ? atomic_load(&c->logging) : SF_LOG_DENIED;
}

const char *sf_control_dir(const struct sf_control *c)
{
	return c ? c->dir : NULL;
}
