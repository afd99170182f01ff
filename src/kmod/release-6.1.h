/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * release-6.1.h - Linux 6.1, Debian 12's kernel (6.1.0-N-amd64), as read
 * in Debian's linux-source-6.1 (6.1.192).  Included by release.h only.
 */

/* Probed functions whose arguments differ in another supported release. */
#define SF_PROTOS_RELEASE(X)						\
	X(security_task_alloc, int, (struct task_struct *task,		\
				      unsigned long clone_flags))	\
	X(security_bprm_committed_creds, void, (struct linux_binprm *bprm)) \
	X(security_inode_setattr, int, (SF_SETATTR_PARAMS))		\
	X(security_inode_getxattr, int, (struct dentry *dentry,	\
					  const char *name))		\
	X(cap_inode_removexattr, int,					\
	  (struct user_namespace *mnt_userns, struct dentry *dentry,	\
	   const char *name))						\
	X(security_socket_getpeersec_stream, int, (SF_PEERSEC_PARAMS))	\
	X(security_secid_to_secctx, int, (SF_SECCTX_PARAMS))		\
	X(security_release_secctx, void, (SF_RELCTX_PARAMS))

/* security_inode_setattr()'s arguments (hooks_fuse.c calls it on). */
#define SF_SETATTR_PARAMS	struct user_namespace *mnt_userns,	\
				struct dentry *dentry, struct iattr *attr
#define SF_SETATTR_ARGS		mnt_userns, dentry, attr

/* SO_PEERSEC's answer goes straight to user memory (sockptr_t in 6.2). */
#define SF_PEERSEC_OUT_PARAMS	char __user *optval, int __user *optlen, \
				unsigned int len
#define sf_peersec_out(to, from, n)	copy_to_user((to), (from), (n))

/*
 * A security id's text (security_secid_to_secctx()) is a string and its
 * length; no text asked: the length alone.  0 on success.  Released with
 * both (security_release_secctx()), nothing to clear after (peersec.c).
 */
#define SF_SECCTX_PARAMS	u32 secid, char **secdata, u32 *seclen
#define SF_SECCTX_ARGS		secid, secdata, seclen
#define SF_RELCTX_PARAMS	char *secdata, u32 seclen
#define SF_RELCTX_ARGS		secdata, seclen

static inline bool sf_secctx_wanted(SF_SECCTX_PARAMS)
{
	return secdata;
}

static inline int sf_secctx_give(SF_SECCTX_PARAMS, char *text, u32 len)
{
	if (secdata)
		*secdata = text;
	*seclen = len;
	return 0;
}

static inline char *sf_relctx_text(SF_RELCTX_PARAMS)
{
	return secdata;
}

static inline void sf_relctx_clear(SF_RELCTX_PARAMS)
{
}

/* Probed functions no exported header declares (read in ipc/util.c). */
#define SF_PROTOS_UNDECLARED(X)					\
	X(ipc_rmid, void, (struct ipc_ids *ids, struct kern_ipc_perm *ipcp))

/* fs/proc/internal.h: struct proc_inode as release.h has it. */
#define SF_PROC_INODE_LAYOUT	1

/* fs/fuse/fuse_i.h: struct fuse_inode's head as release.h has it. */
#define SF_FUSE_INODE_LAYOUT	1

/* fs/fuse/fuse_i.h: how a /dev/fuse file's struct fuse_dev reaches its
 * connection, as release.h has it. */
#define SF_FUSE_DEV_LAYOUT	1

/* Where getxattr(2) of a POSIX ACL meets Smack (smack_inode_getxattr;
 * the ACL itself may come from the inode's cache): its arguments. */
#define SF_ACL_HOOK		security_inode_getxattr
#define SF_ACL_HOOK_PARAMS	struct dentry *dentry, const char *name
#define SF_ACL_HOOK_ARGS	dentry, name
#define SF_ACL_HOOK_DENTRY	0
#define SF_ACL_HOOK_NAME	1

/* ipc/mqueue.c's MQUEUE_MAGIC (no header exports it). */
#define SF_MQUEUE_MAGIC		0x19800202

/* No idmapping, for inode_operations.getattr (a struct user_namespace *):
 * hooks_fuse.c calls FUSE's, which reads only path->dentry. */
#define SF_NOP_IDMAP		(&init_user_ns)

/* The file a struct fown_struct is part of: embedded in struct file. */
#define sf_fown_file(fown)	container_of(fown, struct file, f_owner)

/* A counted reference to @mm's executable, or NULL. */
static inline struct file *sf_exe_file_get(struct mm_struct *mm)
{
	struct file *exe;

	rcu_read_lock();
	exe = rcu_dereference(mm->exe_file);
	if (exe && !get_file_rcu(exe))
		exe = NULL;
	rcu_read_unlock();
	return exe;
}

/*
 * The kernel's socket lookups for a packet arriving on loopback (net4.c,
 * net6.c): 6.1 keeps one UDP table for every namespace.
 */
#define sf_tcp4_listener(net, saddr, sport, daddr, hnum, dif)		\
	__inet_lookup_listener(net, (net)->ipv4.tcp_death_row.hashinfo, \
			       NULL, 0, saddr, sport, daddr, hnum, dif, 0)
#define sf_udp4_lookup(net, saddr, sport, daddr, dport, dif)		\
	__udp4_lib_lookup(net, saddr, sport, daddr, dport, dif, 0,	\
			  &udp_table, NULL)
#define sf_tcp6_listener(net, saddr, sport, daddr, hnum, dif)		\
	inet6_lookup_listener(net, (net)->ipv4.tcp_death_row.hashinfo,	\
			      NULL, 0, saddr, sport, daddr, hnum, dif, 0)
#define sf_udp6_lookup(net, saddr, sport, daddr, dport, dif)		\
	__udp6_lib_lookup(net, saddr, sport, daddr, dport, dif, 0,	\
			  &udp_table, NULL)

/* include/net/icmp.h: what __icmp_send() takes for the options echoed in
 * an ICMP error (struct ip_options in 6.x, the whole parm in 7.x). */
#define SF_ICMP_OPTS(parm)	(&(parm)->opt)
