// SPDX-License-Identifier: GPL-2.0-only
/*
 * caps.c - the FUSE capabilities that make files behave as on the disk
 * underneath, asked for at INIT.
 *
 *  - FUSE_DONT_MASK: CREATE, MKNOD and MKDIR bring the mode unmasked and
 *    the caller's umask, which create.c hands to the backing filesystem
 *    as the creating thread's umask.  The backing filesystem then does
 *    what it does for a local caller: the umask, or instead a default
 *    ACL of the directory (POSIX.1e ignores the umask there).
 *  - FUSE_HANDLE_KILLPRIV_V2: the daemon clears set-user-ID and
 *    set-group-ID bits on write, truncate and chown (setid.c).  The
 *    kernel then marks the superblock SB_NOSEC, so that a write of a
 *    file with no such bit asks nothing: without it, every write(2)
 *    sends a GETXATTR of security.capability (file_remove_privs() ->
 *    cap_inode_need_killpriv()).  Linux 5.11 and later offer it.
 *  - FUSE_POSIX_ACL: the kernel's permission check evaluates the access
 *    ACLs of the backing tree, which it reads with GETXATTR (acl.c);
 *    without it, it looks at the mode bits alone, whose group class is
 *    an ACL's mask, and a named entry that denies is let through.  The
 *    kernel then also keeps the umask to itself (caps.c's DONT_MASK
 *    still brings it to create.c) and leaves chmod's update of the ACL
 *    to the backing filesystem (SETATTR).  Linux 4.9 and later offer it.
 *  - FUSE_EXPORT_SUPPORT: the kernel decodes a file handle whose inode
 *    it no longer holds by LOOKUP of "." and ".." (handle.c); without
 *    it, open_by_handle_at() and an NFS re-export fail with ESTALE.
 *
 * libfuse 3.14 has no FUSE_CAP_HANDLE_KILLPRIV_V2 (3.16 added it): the
 * flag is then added to INIT's reply on its way out (wire.c's hook),
 * when the kernel offered it.
 */
#define _GNU_SOURCE
#include <linux/fuse.h>
#include <stdio.h>
#include <string.h>

#include "smackfuse.h"

/* INIT's request offers @offered (flags2 in the upper half; wire.c). */
void sf_caps_offered(struct sf_fs *fs, uint64_t offered)
{
	fs->caps.init_offered = offered;
}

/* INIT's reply on its way out (wire.c): what libfuse cannot ask for. */
void sf_caps_init_reply(struct sf_fs *fs, struct fuse_init_out *o)
{
	o->flags |= (uint32_t)fs->caps.init_add;
}

/* The status line: who clears set-id bits on write (a status part). */
int sf_caps_status(struct sf_fs *fs, char *buf, size_t size)
{
	return snprintf(buf, size, "set-id bits cleared by: %s\n"
			"posix acls evaluated by: %s\n"
			"open(O_TMPFILE): served (%s)\n",
			fs->caps.killpriv ? "daemon" : "kernel",
			fs->caps.posix_acl ? "kernel" : "nobody",
#ifdef HAVE_STRUCT_FUSE_LOWLEVEL_OPS_TMPFILE
			"libfuse's tmpfile op"
#else
			"FUSE_TMPFILE as a CREATE: libfuse before 3.15"
#endif
			);
}

/* In the INIT callback. */
void sf_caps_init(struct sf_fs *fs, struct fuse_conn_info *conn)
{
	if (conn->capable & FUSE_CAP_DONT_MASK)
		conn->want |= FUSE_CAP_DONT_MASK;
	if (conn->capable & FUSE_CAP_EXPORT_SUPPORT)
		conn->want |= FUSE_CAP_EXPORT_SUPPORT;
	if (conn->capable & FUSE_CAP_POSIX_ACL) {
		conn->want |= FUSE_CAP_POSIX_ACL;
		fs->caps.posix_acl = true;
	}
	/* Version 1 leaves truncate and chown to the daemon without
	 * saying whether the caller could keep the bits. */
	conn->want &= ~FUSE_CAP_HANDLE_KILLPRIV;
#ifdef FUSE_CAP_HANDLE_KILLPRIV_V2
	if (conn->capable & FUSE_CAP_HANDLE_KILLPRIV_V2) {
		conn->want |= FUSE_CAP_HANDLE_KILLPRIV_V2;
		fs->caps.killpriv = true;
	}
#else
	if (fs->caps.init_offered & FUSE_HANDLE_KILLPRIV_V2) {
		fs->caps.init_add |= FUSE_HANDLE_KILLPRIV_V2;
		fs->caps.killpriv = true;
	}
#endif
}
