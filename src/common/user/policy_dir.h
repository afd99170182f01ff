/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * policy_dir.h - the files of a policy directory (accesses.d, cipso.d),
 * listed the same way by the daemon and by smackfusectl.
 *
 * Names starting with a dot and the leftovers of editors and package
 * managers (~, .bak, .dpkg-old, .dpkg-dist, .dpkg-new) are skipped; every
 * other entry must be a regular file (a symlink to one is fine).  A
 * subdirectory, a dangling symlink, a FIFO or an entry that cannot be
 * looked at is an error, never skipped: its rules would be missing from
 * the policy without a word.
 */
#ifndef SMACKFUSE_POLICY_DIR_H
#define SMACKFUSE_POLICY_DIR_H

#include <stdbool.h>
#include <stddef.h>

/* Full paths ("DIR/NAME"), sorted by name (C byte order). */
struct sf_file_list {
	char **paths;
	size_t n;
};

/* Is @name one that a policy directory skips? */
bool sf_policy_skip_name(const char *name);

/*
 * sf_policy_dir_list - fill @l with the files of directory @dir.  All or
 * nothing: on error @l is empty and one message ("PATH: reason") went
 * through @report.  Returns 0 or a negative errno.
 */
int sf_policy_dir_list(const char *dir, struct sf_file_list *l,
		       void (*report)(void *arg, const char *msg), void *arg);
void sf_file_list_free(struct sf_file_list *l);

/*
 * sf_policy_subdir - does @etc/@sub (accesses.d, cipso.d) exist?  1 and
 * its path in @buf if it is a directory, 0 if there is nothing by that
 * name, or a negative errno after a message: something else is there, or
 * it cannot be looked at.
 */
int sf_policy_subdir(const char *etc, const char *sub, char *buf,
		     size_t size, void (*report)(void *arg, const char *msg),
		     void *arg);

#endif /* SMACKFUSE_POLICY_DIR_H */
