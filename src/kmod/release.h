/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * release.h - the Linux releases smackfuse.ko serves, and what it relies
 * on in each (smackfuse-kmod(7), SUPPORTED KERNELS).
 *
 * The module probes kernel functions and reads their arguments from
 * registers, and reads a few structures that no header exports, so it is
 * built only for the releases whose sources were read for it.  Each has a
 * header of its own, release-X.Y.h, which says everything that differs
 * there: the argument lists of the probed functions that changed, the
 * accessors for structures and helpers that changed, and the facts read
 * from the release's source that no header can check.  What is the same
 * in every supported release is here.
 *
 * Every probed function is named in a table (SF_PROTOS_*), as that
 * release declares it: a hook table names its function with SF_PROBE(),
 * which does not compile for a function missing from the tables, and
 * release.c checks each declared prototype against the release's own
 * headers at build time, so a release that changed one fails to build
 * instead of misreading an argument.  The hooks read the arguments in
 * the order these tables give.
 */
#ifndef SMACKFUSE_KMOD_RELEASE_H
#define SMACKFUSE_KMOD_RELEASE_H

#include <linux/version.h>
#include <linux/fs.h>
#include <linux/mm_types.h>
#include <linux/rcupdate.h>
#include <linux/security.h>
#include <linux/sched/task.h>

/*
 * security_socket_getpeersec_stream()'s arguments; where its answer goes
 * (SF_PEERSEC_OUT_PARAMS, sf_peersec_out()) is the release's.
 */
#define SF_PEERSEC_PARAMS	struct socket *sock, SF_PEERSEC_OUT_PARAMS
#define SF_PEERSEC_ARGS		sock, optval, optlen, len

/* For messages: the series this source supports. */
#define SF_RELEASES \
	"Linux 6.1 (Debian 12), 6.12 (Debian 13) and 7.3 (Debian 13 backports)"

struct ipc_ids;		/* ipc/util.h */
struct linux_binprm;
struct mnt_idmap;

/* Linux a.b.c's series, a << 8 | b (LINUX_VERSION_CODE is a.b.c). */
#define SF_LINUX_SERIES	(LINUX_VERSION_CODE >> 8)
#define SF_SERIES(a, b)	((a) << 8 | (b))

/*
 * Probed functions with the same arguments in every supported release:
 * X(function, return type, (arguments)), declared in linux/security.h or
 * linux/sched/task.h (release.c checks them).
 */
#define SF_PROTOS_COMMON(X)						\
	X(security_sb_delete, void, (struct super_block *sb))		\
	X(security_file_receive, int, (struct file *file))		\
	X(security_mmap_file, int, (struct file *file, unsigned long prot, \
				     unsigned long flags))		\
	X(security_file_fcntl, int, (struct file *file, unsigned int cmd, \
				      unsigned long arg))		\
	X(security_file_set_fowner, void, (struct file *file))		\
	X(security_file_send_sigiotask, int, (struct task_struct *tsk,	\
					       struct fown_struct *fown, \
					       int sig))		\
	X(security_file_free, void, (struct file *file))		\
	X(security_file_open, int, (struct file *file))		\
	X(security_msg_queue_alloc, int, (struct kern_ipc_perm *msq))	\
	X(security_shm_alloc, int, (struct kern_ipc_perm *shp))	\
	X(security_sem_alloc, int, (struct kern_ipc_perm *sma))	\
	X(security_msg_queue_free, void, (struct kern_ipc_perm *msq))	\
	X(security_shm_free, void, (struct kern_ipc_perm *shp))	\
	X(security_sem_free, void, (struct kern_ipc_perm *sma))	\
	X(security_ipc_permission, int, (struct kern_ipc_perm *ipcp,	\
					  short flag))			\
	X(security_msg_queue_associate, int, (struct kern_ipc_perm *msq, \
					       int msqflg))		\
	X(security_msg_queue_msgctl, int, (struct kern_ipc_perm *msq,	\
					    int cmd))			\
	X(security_msg_queue_msgsnd, int, (struct kern_ipc_perm *msq,	\
					    struct msg_msg *msg,	\
					    int msqflg))		\
	X(security_msg_queue_msgrcv, int, (struct kern_ipc_perm *msq,	\
					    struct msg_msg *msg,	\
					    struct task_struct *target, \
					    long type, int mode))	\
	X(security_shm_associate, int, (struct kern_ipc_perm *shp,	\
					 int shmflg))			\
	X(security_shm_shmctl, int, (struct kern_ipc_perm *shp, int cmd)) \
	X(security_shm_shmat, int, (struct kern_ipc_perm *shp,		\
				     char __user *shmaddr, int shmflg))	\
	X(security_sem_associate, int, (struct kern_ipc_perm *sma,	\
					 int semflg))			\
	X(security_sem_semctl, int, (struct kern_ipc_perm *sma, int cmd)) \
	X(security_sem_semop, int, (struct kern_ipc_perm *sma,		\
				     struct sembuf *sops, unsigned int nsops, \
				     int alter))			\
	X(security_key_alloc, int, (struct key *key, const struct cred *cred, \
				     unsigned long flags))		\
	X(security_key_free, void, (struct key *key))			\
	X(security_key_permission, int, (key_ref_t key_ref,		\
					  const struct cred *cred,	\
					  enum key_need_perm need_perm)) \
	X(security_inode_create, int, (struct inode *dir,		\
					struct dentry *dentry, umode_t mode)) \
	X(security_inode_unlink, int, (struct inode *dir,		\
					struct dentry *dentry))	\
	X(security_inode_permission, int, (struct inode *inode, int mask)) \
	X(security_inode_getattr, int, (const struct path *path))	\
	X(cap_inode_setxattr, int, (struct dentry *dentry, const char *name, \
				     const void *value, size_t size,	\
				     int flags))			\
	X(security_sk_alloc, int, (struct sock *sk, int family,	\
				    gfp_t priority))			\
	X(security_sk_free, void, (struct sock *sk))			\
	X(security_sk_clone, void, (const struct sock *sk,		\
				     struct sock *newsk))		\
	X(security_sock_rcv_skb, int, (struct sock *sk,		\
					struct sk_buff *skb))		\
	X(security_inet_conn_request, int, (const struct sock *sk,	\
					     struct sk_buff *skb,	\
					     struct request_sock *req))	\
	X(security_socket_post_create, int, (struct socket *sock,	\
					      int family, int type,	\
					      int protocol, int kern))	\
	X(security_unix_stream_connect, int, (struct sock *sock,	\
					       struct sock *other,	\
					       struct sock *newsk))	\
	X(security_unix_may_send, int, (struct socket *sock,		\
					 struct socket *other))		\
	X(security_socket_socketpair, int, (struct socket *socka,	\
					     struct socket *sockb))	\
	X(security_socket_getpeersec_dgram, int, (struct socket *sock,	\
						   struct sk_buff *skb, \
						   u32 *secid))		\
	X(security_inet_csk_clone, void, (struct sock *newsk,		\
					   const struct request_sock *req)) \
	X(security_socket_connect, int, (struct socket *sock,		\
					  struct sockaddr *address,	\
					  int addrlen))			\
	X(security_socket_sendmsg, int, (struct socket *sock,		\
					  struct msghdr *msg, int size)) \
	X(security_task_free, void, (struct task_struct *task))	\
	X(security_task_kill, int, (struct task_struct *p,		\
				     struct kernel_siginfo *info, int sig, \
				     const struct cred *cred))		\
	X(security_ptrace_access_check, int, (struct task_struct *child, \
					       unsigned int mode))	\
	X(security_ptrace_traceme, int, (struct task_struct *parent))	\
	X(security_task_setpgid, int, (struct task_struct *p, pid_t pgid)) \
	X(security_task_getpgid, int, (struct task_struct *p))		\
	X(security_task_getsid, int, (struct task_struct *p))		\
	X(security_task_setnice, int, (struct task_struct *p, int nice)) \
	X(security_task_setioprio, int, (struct task_struct *p, int ioprio)) \
	X(security_task_getioprio, int, (struct task_struct *p))	\
	X(security_task_setscheduler, int, (struct task_struct *p))	\
	X(security_task_getscheduler, int, (struct task_struct *p))	\
	X(security_task_movememory, int, (struct task_struct *p))	\
	X(do_exit, void, (long code))

#if SF_LINUX_SERIES == SF_SERIES(6, 1)
#include "release-6.1.h"
#elif SF_LINUX_SERIES == SF_SERIES(6, 12)
#include "release-6.12.h"
#elif SF_LINUX_SERIES == SF_SERIES(7, 3)
#include "release-7.3.h"
#else
#error "smackfuse.ko serves Linux 6.1 (Debian 12), 6.12 (Debian 13) and 7.3 (Debian 13 backports) only: the functions it probes and the structures it reads were checked against those releases (smackfuse-kmod(7), SUPPORTED KERNELS)"
#endif

/*
 * sf_probed_FN: the type of each probed function, and SF_PROBE(FN) its
 * name for a hook table, which compiles only for a function in the tables.
 */
#define SF_PROTO_TYPEDEF(fn, ret, args)	typedef ret sf_probed_##fn args;
SF_PROTOS_COMMON(SF_PROTO_TYPEDEF)
SF_PROTOS_RELEASE(SF_PROTO_TYPEDEF)
SF_PROTOS_UNDECLARED(SF_PROTO_TYPEDEF)
#undef SF_PROTO_TYPEDEF

#define SF_PROBE(fn)	(#fn + 0 * sizeof(sf_probed_##fn *))

/*
 * struct proc_inode (fs/proc/internal.h, not in the headers), as every
 * supported release has it (each release header confirms it with
 * SF_PROC_INODE_LAYOUT 1): the struct pid of a /proc/PID inode comes
 * first, the VFS inode after seven words and a list node.  release.c
 * checks it at load on /proc/self.  CONFIG_RANDSTRUCT would shuffle it.
 */
#if SF_PROC_INODE_LAYOUT != 1
#error "struct proc_inode: no layout known for this release"
#endif
#if IS_ENABLED(CONFIG_RANDSTRUCT)
#error "smackfuse.ko reads procfs inodes by their layout, which CONFIG_RANDSTRUCT shuffles"
#endif
struct sf_proc_inode {
	struct pid *pid;
	unsigned int fd;
	void *op;		/* union proc_op: a pointer or an int */
	void *pde;
	void *sysctl;
	const void *sysctl_entry;
	struct hlist_node sibling_inodes;
	const void *ns_ops;
	struct inode vfs_inode;
};

/*
 * The head of struct fuse_inode (fs/fuse/fuse_i.h, not in the headers),
 * as every supported release has it (SF_FUSE_INODE_LAYOUT 1 in each
 * release header: read in 6.1's source, and in the BTF of Debian's 6.12
 * and 7.3 kernels, where fuse is built in): the VFS inode, then the node
 * id, the lookup count, the forget link, the time in jiffies until the
 * attributes expire, the mask of attributes made invalid.  hooks_fuse.c
 * reads the last two, as fuse_permission() does.
 */
#if SF_FUSE_INODE_LAYOUT != 1
#error "struct fuse_inode: no layout known for this release"
#endif
struct sf_fuse_inode_head {
	struct inode inode;
	u64 nodeid;
	u64 nlookup;
	void *forget;
	u64 i_time;
	u32 inval_mask;
};

/*
 * The connection (struct fuse_conn, never dereferenced: compared) of a
 * /dev/fuse file's struct fuse_dev (its private_data once mounted) and of
 * a FUSE superblock (s_fs_info, a struct fuse_mount, whose first member
 * it is in every supported release), for verdicts.c to tell which
 * superblock a daemon serves.  Layout 1 (6.1's source, 6.12's BTF): the
 * connection is fuse_dev's first member.  Layout 2 (7.3's BTF): a
 * reference count and a flag, then a struct fuse_chan, whose connection
 * follows a spinlock.
 */
#if SF_FUSE_DEV_LAYOUT == 1
struct sf_fuse_dev_head {
	const void *conn;
};

static inline const void *sf_fuse_dev_conn(const void *fud)
{
	return ((const struct sf_fuse_dev_head *)fud)->conn;
}
#elif SF_FUSE_DEV_LAYOUT == 2
struct sf_fuse_chan_head {
	u32 lock;			/* spinlock_t, without lock debugging */
	const void *conn;
};

struct sf_fuse_dev_head {
	u32 ref;			/* refcount_t */
	bool sync_init;
	const struct sf_fuse_chan_head *chan;
};

static inline const void *sf_fuse_dev_conn(const void *fud)
{
	const struct sf_fuse_chan_head *chan =
		READ_ONCE(((const struct sf_fuse_dev_head *)fud)->chan);

	return chan ? READ_ONCE(chan->conn) : NULL;
}
#else
#error "struct fuse_dev: no layout known for this release"
#endif

struct sf_fuse_mount_head {
	const void *conn;
};

/* Check at load what no header can check at build (release.c). */
int sf_release_check(void);

#endif /* SMACKFUSE_KMOD_RELEASE_H */
