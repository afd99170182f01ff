// SPDX-License-Identifier: GPL-2.0-only
/*
 * ops_cache.c - what the kernel may cache of a reply: how long a name
 * (entry timeout) and a node's attributes (attribute timeout) may serve
 * without asking the daemon, which then decides nothing for them.
 */
#define _GNU_SOURCE
#include <fcntl.h>

#include "ops.h"

/*
 * Entry timeouts.  A cached name lets the kernel find the node without a
 * LOOKUP, and so without the LOOKUP's search check on @dir; but no walk
 * reaches the name without a permission check of @dir (may_lookup()),
 * and that check asks the daemon whenever @dir's attributes are not
 * cached: fuse_permission() refreshes expired attributes with a GETATTR,
 * which getattr.c decides as the walk's search, per caller.  So a name
 * may be cached in a directory every caller may search (sf_universal)
 * and in one whose attributes the kernel never keeps (sf_attr_timeout()
 * 0: a label some caller may lack a right on), which leaves only
 * directories whose attributes are cached for being every caller's own
 * ("*", "@", the one label of a one-label map): every caller searches
 * those too.  A name revisited in a user's directory then costs no
 * LOOKUP, and the GETATTR of the directory still decides the walk.
 */
static double sf_timeout(struct sf_fs *fs, struct sf_node *dir)
{
	sf_lid lid = sf_node_label(fs, dir);

	if (fs->opt.cache_strict)
		return 0;
	if (sf_verdicts_on(fs))
		return SF_CACHE_TIMEOUT;	/* the module decides walks */
	if (sf_attr_timeout(fs, dir) > 0 && !sf_universal(lid) &&
	    !sf_all_access(fs, lid))
		return 0;	/* a walk some caller may not make */
	return SF_CACHE_TIMEOUT;
}

/*
 * A floor directory, when smackfuse.ko sends access(2) and a directory's
 * write checks here even where the kernel holds the attributes
 * (fs->kmod_refresh, subject.c; the module stays loaded while we run).
 * Every other check the kernel makes from a directory's held mode asks
 * search or read, which floor gives every subject (the walk, chdir,
 * opendir, inotify), or is followed by a request of its own that decides
 * (setattr, setxattr).  Not other floor objects:
 * opening a FIFO or a device sends no request, and link(2)'s
 * protected_hardlinks check of a file asks write.
 */
static bool sf_kept_floor_dir(struct sf_fs *fs, struct sf_node *n,
			      sf_lid lid)
{
	return fs->kmod_refresh && lid == SF_LID_FLOOR && n->type == S_IFDIR;
}

/*
 * Objects whose attributes the kernel may hold without smackfuse.ko's
 * verdicts: with held attributes the kernel answers every permission
 * check (access(2), the walk's search, may_create) from the mode bits
 * alone, without asking.  Only objects on which every subject has every
 * access whatever the rules: "*" and "@", and, when the users map gives
 * every caller one label, that label's own objects (a subject has every
 * access to its own label); and floor directories under smackfuse.ko
 * (above).  Any other object's would let access(W_OK) through where
 * mainline may say EACCES (a floor object and a labelled caller).
 */
static bool sf_attrs_for_all(struct sf_fs *fs, struct sf_node *n)
{
	sf_lid lid = sf_node_label(fs, n);

	return sf_all_access(fs, lid) || sf_kept_floor_dir(fs, n, lid);
}

/*
 * Attribute timeouts: the objects above; with smackfuse.ko's verdicts
 * (verdicts.c) every directory, file and link, whose checks the module
 * then decides for the kernel or sends here.
 */
double sf_attr_timeout(struct sf_fs *fs, struct sf_node *n)
{
	if (fs->opt.cache_strict || atomic_load(&n->mapped_write))
		return 0;
	if (sf_verdicts_on(fs) && sf_verdict_type(n->type))
		return SF_CACHE_TIMEOUT;
	return sf_attrs_for_all(fs, n) ? SF_CACHE_TIMEOUT : 0;
}

/*
 * A shared writable mapping of a passed-through file writes the backing
 * file behind the kernel's attribute cache (backing_file_mmap(): the
 * FUSE inode hears of no fault), so stat(2) would show the times of
 * before the write until the attributes timed out.  A node opened for
 * reading and writing with passthrough (such a mapping needs O_RDWR) is
 * therefore no longer cached, and what the kernel cached is dropped now.
 */
void sf_open_mapped_write(struct sf_fs *fs, struct sf_node *n,
			  int flags, int32_t backing_id)
{
	bool cached;

	if (backing_id <= 0 || (flags & O_ACCMODE) != O_RDWR ||
	    atomic_load(&n->mapped_write))
		return;
	cached = sf_attr_timeout(fs, n) > 0;
	if (!atomic_exchange(&n->mapped_write, true) && cached)
		fuse_lowlevel_notify_inval_inode(fs->se, sf_node_ino(fs, n),
						 -1, 0);
}

/* @s: the caller, whose verdicts on @dir and @n the module gets first
 * (verdicts.c), or NULL. */
void sf_entry_timeouts(struct sf_fs *fs, const struct sf_subject *s,
		       struct sf_node *dir, struct sf_node *n,
		       struct fuse_entry_param *e, const char *name)
{
	sf_verdicts_post(fs, s, dir, n, false);
	e->attr_timeout = sf_attr_timeout(fs, n);
	e->entry_timeout = sf_timeout(fs, dir);
	sf_node_remember_entry(fs, n, sf_node_ino(fs, dir), name,
			       e->entry_timeout > 0);
}

/*
 * May the kernel keep the page cache of the file an open (or a create's
 * open) of @fd with @flags hands out?  A passed-through file (@backing_id
 * > 0) has none of its own; a read served from the cache reaches neither
 * the daemon nor the backing file, so it is kept only where such a read
 * would not move the backing atime anyway (atime.c).
 */
bool sf_keep_cache(struct sf_fs *fs, int32_t backing_id, int fd, int flags)
{
	return !backing_id && !fs->opt.cache_strict &&
	       !sf_atime_read_moves(fd, flags);
}
