// SPDX-License-Identifier: GPL-2.0-only
/*
 * verdicts.c - what a smackfuse daemon's rules answer for a subject on one
 * of its nodes, handed to the module so that the kernel may decide the
 * checks on attributes it holds (hooks_fuse.c) without asking.
 *
 * A daemon whose features file offers verdicts opens the verdicts file
 * (CAP_MAC_ADMIN, as the policy files; kmod_abi.h, VERDICTS, has the
 * grammar of its lines), binds the open file to its mount ("mount FD
 * ABI", FD its own /dev/fuse descriptor, ABI the version it speaks,
 * which must be ours: the binding is to the live FUSE superblock of
 * subtype smackfuse served through that descriptor's connection, so no
 * other mount, even one on the same mount point, can be taken for it;
 * it ends when that superblock shuts down) and then writes, before each
 * reply that lets the kernel hold a node's attributes, one line per node
 * and subject:
 *
 *	set GEN NODEID LABEL MAP
 *
 * MAP (hex) has bit R set when the daemon's rules give LABEL the request
 * R (SF_MAY_READ | _WRITE | _EXEC | _APPEND bits, 1 to 15) on the node's
 * label: the answer of sf_access() for each request, so no rule of the
 * core's (floor, hat, star, web, the whole-request tests) is re-derived
 * here.  A verdict only allows; a request it does not allow is sent to
 * the daemon, which decides with privilege and the audit line.
 *
 * What would make a verdict stale is the daemon's to say, once the change
 * holds there and before the change is answered as done: "gen GEN" (a
 * rule, onlycap or logging change, a relabel) drops every verdict and
 * refuses any "set" of an older generation, which a request decided
 * under the old policy may still send; "forget NODEID" drops a node's
 * verdicts when the daemon lets go of the node (its id may come back for
 * another incarnation of the file).
 *
 * Closing the file (the daemon exits, or dies) drops the mount's
 * verdicts but keeps the binding, orphaned, until the superblock shuts
 * down: the kernel may still hold attributes of that mount, and every
 * check on them is then sent on as a refresh, which the dead connection
 * refuses (ENOTCONN), instead of being answered from the mode bits.  An
 * orphan holds a reference on the module, so that the module cannot be
 * unloaded while that mount exists: the checks it makes would then be
 * answered from the mode bits until the attributes time out.
 */
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/hash.h>
#include <linux/kdev_t.h>
#include <linux/kprobes.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "smackfuse.h"

#define SF_VERDICT_HASH_BITS	12
#define SF_VERDICTS_MAX		(1u << 17)	/* per mount; then all go */
#define SF_VERDICT_LINE_MAX	(SF_LABEL_MAX + 96)

struct sf_verdict {
	struct hlist_node link;
	u64 nodeid;
	sf_lid subject;
	u16 allowed;			/* bit R: request R passes */
	struct rcu_head rcu;
};

/* One bound mount: the verdicts of one daemon. */
struct sf_vmount {
	struct list_head link;		/* sf_vmounts, RCU */
	const struct super_block *sb;	/* not a reference: see above */
	bool listed;			/* in sf_vmounts (sf_vmounts_lock) */
	bool orphan;			/* its file closed (sf_vmounts_lock) */
	struct list_head gone;		/* sf_vmounts_gone */
	spinlock_t lock;		/* writers */
	u64 min_gen;			/* "set" of an older one is dropped */
	unsigned int count;
	struct hlist_head buckets[1u << SF_VERDICT_HASH_BITS];
};

static LIST_HEAD(sf_vmounts);
/* Orphans whose superblock has shut down, freed from process context
 * (sf_vmounts_reap()): the probe that unlists them may not sleep. */
static LIST_HEAD(sf_vmounts_gone);
/* Taken from security_sb_delete's probe too: a spinlock, never from an
 * interrupt. */
static DEFINE_SPINLOCK(sf_vmounts_lock);

static struct hlist_head *sf_bucket(struct sf_vmount *vm, u64 nodeid)
{
	return &vm->buckets[hash_64(nodeid, SF_VERDICT_HASH_BITS)];
}
NOKPROBE_SYMBOL(sf_bucket);

/* RCU held, or sf_vmounts_lock. */
static struct sf_vmount *sf_vmount_of(const struct super_block *sb)
{
	struct sf_vmount *vm;

	list_for_each_entry_rcu(vm, &sf_vmounts, link)
		if (vm->sb == sb)
			return vm;
	return NULL;
}
NOKPROBE_SYMBOL(sf_vmount_of);

/**
 * sf_verdict_of - the daemon's verdict on @request (SF_MAY_* bits) of
 * @subject on @nodeid of the mount on @sb: SF_VERDICT_UNBOUND when no
 * daemon hands verdicts for that mount, SF_VERDICT_ALLOWS when its
 * verdict allows (or nothing is asked, which mainline passes too), else
 * SF_VERDICT_ASK: the check is then the daemon's.  One walk of the bound
 * mounts under RCU; never blocks (RCU walk too).
 */
enum sf_verdict_answer sf_verdict_of(const struct super_block *sb,
				     u64 nodeid, sf_lid subject, u32 request)
{
	enum sf_verdict_answer answer = SF_VERDICT_UNBOUND;
	struct sf_vmount *vm;
	struct sf_verdict *v;

	rcu_read_lock();
	vm = sf_vmount_of(sb);
	if (vm && !request)
		answer = SF_VERDICT_ALLOWS;
	else if (vm)
		answer = SF_VERDICT_ASK;
	if (answer == SF_VERDICT_ASK && request <= 15) {
		hlist_for_each_entry_rcu(v, sf_bucket(vm, nodeid), link) {
			if (v->nodeid != nodeid || v->subject != subject)
				continue;
			if (READ_ONCE(v->allowed) & (1u << request))
				answer = SF_VERDICT_ALLOWS;
			break;
		}
	}
	rcu_read_unlock();
	return answer;
}
NOKPROBE_SYMBOL(sf_verdict_of);

/* Under vm->lock. */
static void sf_verdict_drop(struct sf_vmount *vm, struct sf_verdict *v)
{
	hlist_del_rcu(&v->link);
	kfree_rcu(v, rcu);
	vm->count--;
}

/* Under vm->lock. */
static void sf_verdicts_drop_all(struct sf_vmount *vm)
{
	struct hlist_node *tmp;
	struct sf_verdict *v;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(vm->buckets); i++)
		hlist_for_each_entry_safe(v, tmp, &vm->buckets[i], link)
			sf_verdict_drop(vm, v);
}

static int sf_verdict_set(struct sf_vmount *vm, u64 gen, u64 nodeid,
			  sf_lid subject, u16 allowed)
{
	struct sf_verdict *v, *nv = kmalloc(sizeof(*nv), GFP_KERNEL);
	struct hlist_head *head = sf_bucket(vm, nodeid);

	if (!nv)
		return -ENOMEM;
	nv->nodeid = nodeid;
	nv->subject = subject;
	nv->allowed = allowed;
	spin_lock(&vm->lock);
	if (gen < vm->min_gen) {	/* decided under an older policy */
		spin_unlock(&vm->lock);
		kfree(nv);
		return 0;
	}
	hlist_for_each_entry(v, head, link) {
		if (v->nodeid == nodeid && v->subject == subject) {
			sf_verdict_drop(vm, v);
			break;
		}
	}
	if (vm->count >= SF_VERDICTS_MAX)
		sf_verdicts_drop_all(vm);
	hlist_add_head_rcu(&nv->link, head);
	vm->count++;
	spin_unlock(&vm->lock);
	return 0;
}

static void sf_verdict_forget(struct sf_vmount *vm, u64 nodeid)
{
	struct hlist_node *tmp;
	struct sf_verdict *v;

	spin_lock(&vm->lock);
	hlist_for_each_entry_safe(v, tmp, sf_bucket(vm, nodeid), link)
		if (v->nodeid == nodeid)
			sf_verdict_drop(vm, v);
	spin_unlock(&vm->lock);
}

static void sf_verdict_gen(struct sf_vmount *vm, u64 gen)
{
	spin_lock(&vm->lock);
	sf_verdicts_drop_all(vm);
	if (gen > vm->min_gen)
		vm->min_gen = gen;
	spin_unlock(&vm->lock);
}

/* @vm is unlisted, and past an RCU grace period: nothing else reaches it. */
static void sf_vmount_free(struct sf_vmount *vm)
{
	spin_lock(&vm->lock);
	sf_verdicts_drop_all(vm);
	spin_unlock(&vm->lock);
	kvfree(vm);
}

/* Free the orphans whose superblock is gone (process context). */
static void sf_vmounts_reap(void)
{
	struct sf_vmount *vm, *tmp;
	LIST_HEAD(gone);

	spin_lock(&sf_vmounts_lock);
	list_splice_init(&sf_vmounts_gone, &gone);
	spin_unlock(&sf_vmounts_lock);
	if (list_empty(&gone))
		return;
	synchronize_rcu();	/* no lookup sees them past this */
	list_for_each_entry_safe(vm, tmp, &gone, gone)
		sf_vmount_free(vm);
}

/*
 * Binding: the live superblock is found and the binding listed under its
 * s_umount (iterate_supers_type() holds it across the call, and skips a
 * superblock already shut down), so security_sb_delete() of that
 * superblock comes after, and removes it.
 */
struct sf_vbind {
	const void *conn;		/* the daemon's FUSE connection */
	struct sf_vmount *vm;
	int rc;				/* -ENODEV until found */
};

static void sf_vbind_sb(struct super_block *sb, void *arg)
{
	const struct sf_fuse_mount_head *fm = sb->s_fs_info;
	struct sf_vbind *b = arg;

	if (!fm || fm->conn != b->conn || !sb->s_subtype ||
	    strcmp(sb->s_subtype, SF_FUSE_SUBTYPE))
		return;
	spin_lock(&sf_vmounts_lock);
	if (sf_vmount_of(sb)) {
		b->rc = -EBUSY;
	} else {
		b->vm->sb = sb;
		b->vm->listed = true;
		list_add_rcu(&b->vm->link, &sf_vmounts);
		b->rc = 0;
	}
	spin_unlock(&sf_vmounts_lock);
}

/* The connection of @dev, an open /dev/fuse that serves a mount, or NULL
 * (private_data is its struct fuse_dev once mounted: fuse_fill_super). */
static const void *sf_fuse_file_conn(struct file *dev)
{
	const struct inode *inode = file_inode(dev);
	const void *fud;

	BUILD_BUG_ON(sizeof(spinlock_t) != sizeof(u32));	/* layout 2 */
	if (!S_ISCHR(inode->i_mode) ||
	    inode->i_rdev != MKDEV(MISC_MAJOR, FUSE_MINOR))
		return NULL;
	fud = READ_ONCE(dev->private_data);
	if ((unsigned long)fud < PAGE_SIZE)	/* none yet, or a marker */
		return NULL;
	return sf_fuse_dev_conn(fud);
}

/* "mount FD": one binding per open file. */
static int sf_vmount_bind(struct file *file, int fd)
{
	struct sf_vbind b = { .rc = -ENODEV };
	struct file_system_type *fuse;
	struct file *dev;
	unsigned int i;

	if (file->private_data)
		return -EBUSY;
	sf_vmounts_reap();
	dev = fget(fd);
	if (!dev)
		return -EBADF;
	b.conn = sf_fuse_file_conn(dev);
	fuse = b.conn ? get_fs_type("fuse") : NULL;
	b.vm = fuse ? kvzalloc(sizeof(*b.vm), GFP_KERNEL) : NULL;
	if (b.vm) {
		spin_lock_init(&b.vm->lock);
		for (i = 0; i < ARRAY_SIZE(b.vm->buckets); i++)
			INIT_HLIST_HEAD(&b.vm->buckets[i]);
		/* @dev held: its connection stays what it is */
		iterate_supers_type(fuse, sf_vbind_sb, &b);
	} else if (fuse) {
		b.rc = -ENOMEM;
	}
	if (fuse)
		module_put(fuse->owner);	/* get_fs_type()'s */
	fput(dev);
	if (b.rc) {
		kvfree(b.vm);
		return b.rc;
	}
	file->private_data = b.vm;
	return 0;
}

/* security_sb_delete(@sb): a FUSE superblock shuts down; its binding, if
 * any, ends now (the daemon's later lines are ignored). */
void sf_verdicts_sb_gone(const struct super_block *sb)
{
	struct sf_vmount *vm;

	spin_lock(&sf_vmounts_lock);
	vm = sf_vmount_of(sb);
	if (vm) {
		list_del_rcu(&vm->link);
		vm->listed = false;
		if (vm->orphan) {
			list_add(&vm->gone, &sf_vmounts_gone);
			module_put(THIS_MODULE);	/* the orphan's */
		}
	}
	spin_unlock(&sf_vmounts_lock);
}
NOKPROBE_SYMBOL(sf_verdicts_sb_gone);

/* At unload (no file open, no probe left): every binding goes. */
void sf_verdicts_exit(void)
{
	struct sf_vmount *vm, *tmp;

	spin_lock(&sf_vmounts_lock);
	list_for_each_entry_safe(vm, tmp, &sf_vmounts, link) {
		list_del_rcu(&vm->link);
		vm->listed = false;
		list_add(&vm->gone, &sf_vmounts_gone);
	}
	spin_unlock(&sf_vmounts_lock);
	sf_vmounts_reap();
}

/*
 * "mount FD ABI" (@n fields read of it): a writer that speaks another
 * version of kmod_abi.h than ours, or states none (a daemon older than
 * the version), binds nothing: -EPROTO, and the kernel log says both.
 */
static int sf_vmount_abi(int n, int abi)
{
	if (n == 2 && abi == SF_ABI_VERSION)
		return 0;
	if (n == 2)
		pr_warn("smackfuse: verdicts: smackfuse.ko speaks ABI %d, the writer (pid %d, %s) speaks ABI %d: refused\n",
			SF_ABI_VERSION, task_tgid_nr(current), current->comm,
			abi);
	else
		pr_warn("smackfuse: verdicts: smackfuse.ko speaks ABI %d, the writer (pid %d, %s) states no ABI version (a daemon older than ABI 1): refused\n",
			SF_ABI_VERSION, task_tgid_nr(current), current->comm);
	return -EPROTO;
}

/* One line, NUL-terminated, without its newline (kmod_abi.h, VERDICTS). */
static int sf_verdicts_line(struct file *file, char *line)
{
	struct sf_vmount *vm = file->private_data;
	char label[SF_LABEL_MAX + 1];
	unsigned int allowed;
	unsigned long long gen, nodeid;
	int fd, abi = 0, n;
	struct sf_error err = { 0 };
	sf_lid subject;
	char end;
	int rc;

	n = sscanf(line, SF_VERDICT_MOUNT_SCAN, &fd, &abi, &end);
	if (n == 1 || n == 2) {
		rc = sf_vmount_abi(n, abi);
		return rc ? rc : sf_vmount_bind(file, fd);
	}
	if (!vm)
		return -ENOTCONN;	/* no mount bound yet */
	if (!READ_ONCE(vm->listed))
		return 0;		/* its mount is gone: nothing to do */
	if (sscanf(line, SF_VERDICT_GEN_SCAN, &gen, &end) == 1) {
		sf_verdict_gen(vm, gen);
		return 0;
	}
	if (sscanf(line, SF_VERDICT_FORGET_SCAN, &nodeid, &end) == 1) {
		sf_verdict_forget(vm, nodeid);
		return 0;
	}
	BUILD_BUG_ON(SF_LABEL_MAX != 255);	/* the width in _SET_SCAN */
	if (sscanf(line, SF_VERDICT_SET_SCAN,
		   &gen, &nodeid, label, &allowed, &end) != 4 ||
	    allowed > SF_VERDICT_MAP_MAX)
		return -EINVAL;
	rc = sf_label_intern(sf_policy_labels(sf_policy), label,
			     strlen(label), &subject, &err);
	if (rc)
		return rc;
	return sf_verdict_set(vm, gen, nodeid, subject, allowed & ~1u);
}

/* Each write() is whole lines, applied in order; the first bad one ends
 * it with its error (the lines before it hold). */
static ssize_t sf_verdicts_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	char *buf, *p, *nl;
	int rc = 0;

	if (count > 64 * SF_VERDICT_LINE_MAX)
		return -E2BIG;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	for (p = buf; !rc && *p; p = nl + 1) {
		nl = strchrnul(p, '\n');
		if (!*nl) {
			rc = sf_verdicts_line(file, p);
			break;
		}
		*nl = '\0';
		rc = sf_verdicts_line(file, p);
	}
	kfree(buf);
	return rc ? rc : (ssize_t)count;
}

static int sf_verdicts_open(struct inode *inode, struct file *file)
{
	if (!sf_admin())
		return -EPERM;
	file->private_data = NULL;
	return 0;
}

static int sf_verdicts_release(struct inode *inode, struct file *file)
{
	struct sf_vmount *vm = file->private_data;
	bool listed;

	sf_vmounts_reap();
	if (!vm)
		return 0;
	spin_lock(&sf_vmounts_lock);
	listed = vm->listed;
	vm->orphan = listed;	/* its superblock frees it (above) */
	if (listed)		/* this file's own reference still holds */
		__module_get(THIS_MODULE);
	spin_unlock(&sf_vmounts_lock);
	if (listed) {
		spin_lock(&vm->lock);
		sf_verdicts_drop_all(vm);
		spin_unlock(&vm->lock);
		return 0;
	}
	synchronize_rcu();	/* no lookup sees vm past this */
	sf_vmount_free(vm);
	return 0;
}

const struct file_operations sf_verdicts_fops = {
	.owner = THIS_MODULE,
	.open = sf_verdicts_open,
	.write = sf_verdicts_write,
	.release = sf_verdicts_release,
	.llseek = noop_llseek,
};
