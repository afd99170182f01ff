// SPDX-License-Identifier: GPL-2.0-only
/*
 * ops.c - the FUSE operations table and INIT.
 *
 * Each operation has the shape of a mainline Smack hook: find the caller,
 * find the object, sf_check_node() what the VFS and smack_lsm.c would
 * check, then one backing *at() call and one reply.  The kernel checks the mode
 * bits itself (default_permissions).  The handlers live in a file per
 * family (ops.h), the checks several families make in ops_check.c.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/sysmacros.h>

#include "ops.h"
#include "mountinfo.h"
#include "transport.h"

/* The read-ahead window the mount's bdi gets at least (read_ahead_kb). */
#define SF_READAHEAD_KB	1024
/* The largest WRITE INIT lets the kernel send in one request. */
#define SF_MAX_WRITE	(1024 * 1024)

/*
 * The kernel reads ahead at most 128 KiB on a FUSE mount; sequential reads
 * need more to keep up with the backing disk.  Raised from a thread: the
 * mount's device number is only known once INIT has been answered.
 */
static void *sf_readahead_thread(void *arg)
{
	struct sf_fs *fs = arg;
	char path[96], cur[32];
	dev_t dev;
	FILE *f;

	sf_atime_mounted(fs);
	/* Not stat(): that is a request to ourselves (see mountinfo.c). */
	dev = sf_mount_dev(fs->mountpoint);
	if (!dev)
		return NULL;
	snprintf(path, sizeof(path), "/sys/class/bdi/%u:%u/read_ahead_kb",
		 major(dev), minor(dev));
	f = fopen(path, "r+e");
	if (!f)
		return NULL;
	if (fgets(cur, sizeof(cur), f) && atoi(cur) < SF_READAHEAD_KB) {
		rewind(f);
		fprintf(f, "%d\n", SF_READAHEAD_KB);
	}
	fclose(f);
	return NULL;
}

static void sf_init(void *userdata, struct fuse_conn_info *conn)
{
	struct sf_fs *fs = userdata;
	pthread_t t;

	/* Writes arrive through a pipe (splice); replies are not spliced
	 * (see sf_read). */
	if (conn->capable & FUSE_CAP_SPLICE_READ)
		conn->want |= FUSE_CAP_SPLICE_READ;
	if (conn->capable & FUSE_CAP_FLOCK_LOCKS)
		conn->want |= FUSE_CAP_FLOCK_LOCKS;
	if (conn->capable & FUSE_CAP_POSIX_LOCKS)
		conn->want |= FUSE_CAP_POSIX_LOCKS;
	if (conn->capable & FUSE_CAP_ATOMIC_O_TRUNC)
		conn->want |= FUSE_CAP_ATOMIC_O_TRUNC;
	/* Passthrough needs it off too: writes are decided at open. */
	conn->want &= ~FUSE_CAP_WRITEBACK_CACHE;
	sf_caps_init(fs, conn);
	sf_transport_init(fs, conn);
	conn->max_write = SF_MAX_WRITE;
	if (fs->opt.cache_strict)
		conn->want &= ~FUSE_CAP_READDIRPLUS_AUTO;
	if (!pthread_create(&t, NULL, sf_readahead_thread, fs))
		pthread_detach(t);
}

static void sf_destroy(void *userdata)
{
	(void)userdata;
}

const struct fuse_lowlevel_ops sf_ops = {
	.init = sf_init,
	.destroy = sf_destroy,
	.lookup = sf_lookup,
	.forget = sf_forget,
	.getattr = sf_getattr,
	.setattr = sf_setattr,
	.readlink = sf_readlink,
	.mknod = sf_mknod,
	.mkdir = sf_mkdir,
	.unlink = sf_unlink,
	.rmdir = sf_rmdir,
	.symlink = sf_symlink,
	.rename = sf_rename,
	.link = sf_link,
	.open = sf_open,
	.read = sf_read,
	.flush = sf_flush,
	.release = sf_release,
	.fsync = sf_fsync,
	.opendir = sf_opendir,
	.readdir = sf_readdir,
	.releasedir = sf_releasedir,
	.fsyncdir = sf_fsyncdir,
	.statfs = sf_statfs,
	.setxattr = sf_setxattr,
	.getxattr = sf_getxattr,
	.listxattr = sf_listxattr,
	.removexattr = sf_removexattr,
	.access = sf_op_access,
	.create = sf_create,
#ifdef HAVE_STRUCT_FUSE_LOWLEVEL_OPS_TMPFILE
	.tmpfile = sf_tmpfile,
#endif
	.getlk = sf_getlk,
	.setlk = sf_setlk,
	.write_buf = sf_write_buf,
	.forget_multi = sf_forget_multi,
	.flock = sf_flock,
	.fallocate = sf_fallocate,
	.readdirplus = sf_readdirplus,
	.copy_file_range = sf_copy_file_range,
	.lseek = sf_lseek,
};
