/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ops.h - the request handlers' room: what its files (ops*.c) share.
 *
 * Each family of FUSE operations has a file, as smack_lsm.c has a section
 * for each family of hooks: names (ops_names.c), attributes (ops_attrs.c)
 * and extended attributes (ops_xattrs.c), open files and their I/O
 * (ops_io.c), directories (ops_dirs.c), locks (ops_locks.c).  ops.c holds
 * the operations table (sf_ops) and INIT; below the families,
 * ops_check.c has the checks several of them make and ops_cache.c says
 * what the kernel may cache of a reply.  Nothing
 * outside the handlers includes this header: the daemon sees sf_ops.
 */
#ifndef SMACKFUSE_OPS_H
#define SMACKFUSE_OPS_H

#include <string.h>

#include "smackfuse.h"

static inline struct sf_fs *sf_fs_of(fuse_req_t req)
{
	return fuse_req_userdata(req);
}

static inline bool sf_hidden(const char *name)
{
	return !strncmp(name, SF_TMP_PREFIX, SF_TMP_PREFIX_LEN);
}

/* ops_check.c */
int sf_check_dir_change(struct sf_fs *fs, struct sf_subject *s,
			struct sf_node *dir, const char *name);
int sf_check_node_reply(fuse_req_t req, struct sf_node *n, u32 request,
			const char *fn);
struct sf_node *sf_peek(struct sf_fs *fs, struct sf_node *dir,
			const char *name, int *err);

/* ops_cache.c */
double sf_attr_timeout(struct sf_fs *fs, struct sf_node *n);
void sf_open_mapped_write(struct sf_fs *fs, struct sf_node *n,
			  int flags, int32_t backing_id);
bool sf_keep_cache(struct sf_fs *fs, int32_t backing_id, int fd, int flags);
void sf_entry_timeouts(struct sf_fs *fs, const struct sf_subject *s,
		       struct sf_node *dir, struct sf_node *n,
		       struct fuse_entry_param *e, const char *name);

/* ops_names.c */
void sf_lookup(fuse_req_t req, fuse_ino_t parent, const char *name);
void sf_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup);
void sf_readlink(fuse_req_t req, fuse_ino_t ino);
void sf_mknod(fuse_req_t req, fuse_ino_t parent, const char *name,
	      mode_t mode, dev_t rdev);
void sf_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name,
	      mode_t mode);
void sf_unlink(fuse_req_t req, fuse_ino_t parent, const char *name);
void sf_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name);
void sf_symlink(fuse_req_t req, const char *link, fuse_ino_t parent,
		const char *name);
void sf_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
	       fuse_ino_t newparent, const char *newname,
	       unsigned int flags);
void sf_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t newparent,
	     const char *newname);
void sf_create(fuse_req_t req, fuse_ino_t parent, const char *name,
	       mode_t mode, struct fuse_file_info *fi);
void sf_forget_multi(fuse_req_t req, size_t count,
		     struct fuse_forget_data *forgets);

void sf_tmpfile(fuse_req_t req, fuse_ino_t parent, mode_t mode,
		struct fuse_file_info *fi);

/* ops_attrs.c */
void sf_getattr(fuse_req_t req, fuse_ino_t ino,
		struct fuse_file_info *fi);
void sf_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr,
		int valid, struct fuse_file_info *fi);
void sf_statfs(fuse_req_t req, fuse_ino_t ino);
void sf_op_access(fuse_req_t req, fuse_ino_t ino, int mask);

/* ops_xattrs.c */
void sf_setxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
		 const char *value, size_t size, int flags);
void sf_getxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
		 size_t size);
void sf_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size);
void sf_removexattr(fuse_req_t req, fuse_ino_t ino, const char *name);

/* ops_io.c */
void sf_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi);
void sf_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
	     struct fuse_file_info *fi);
void sf_write_buf(fuse_req_t req, fuse_ino_t ino,
		  struct fuse_bufvec *in, off_t off,
		  struct fuse_file_info *fi);
void sf_flush(fuse_req_t req, fuse_ino_t ino,
	      struct fuse_file_info *fi);
void sf_release(fuse_req_t req, fuse_ino_t ino,
		struct fuse_file_info *fi);
void sf_fsync(fuse_req_t req, fuse_ino_t ino, int datasync,
	      struct fuse_file_info *fi);
void sf_fallocate(fuse_req_t req, fuse_ino_t ino, int mode,
		  off_t offset, off_t length, struct fuse_file_info *fi);
void sf_copy_file_range(fuse_req_t req, fuse_ino_t ino_in,
			off_t off_in, struct fuse_file_info *fi_in,
			fuse_ino_t ino_out, off_t off_out,
			struct fuse_file_info *fi_out, size_t len,
			int flags);
void sf_lseek(fuse_req_t req, fuse_ino_t ino, off_t off, int whence,
	      struct fuse_file_info *fi);

/* ops_dirs.c */
void sf_opendir(fuse_req_t req, fuse_ino_t ino,
		struct fuse_file_info *fi);
void sf_readdir(fuse_req_t req, fuse_ino_t ino, size_t size,
		off_t offset, struct fuse_file_info *fi);
void sf_releasedir(fuse_req_t req, fuse_ino_t ino,
		   struct fuse_file_info *fi);
void sf_fsyncdir(fuse_req_t req, fuse_ino_t ino, int datasync,
		 struct fuse_file_info *fi);
void sf_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size,
		    off_t offset, struct fuse_file_info *fi);

/* ops_locks.c */
void sf_getlk(fuse_req_t req, fuse_ino_t ino,
	      struct fuse_file_info *fi, struct flock *lock);
void sf_setlk(fuse_req_t req, fuse_ino_t ino,
	      struct fuse_file_info *fi, struct flock *lock, int sleep);
void sf_flock(fuse_req_t req, fuse_ino_t ino,
	      struct fuse_file_info *fi, int op);

#endif /* SMACKFUSE_OPS_H */
