/* SPDX-License-Identifier: GPL-2.0-only */
/* create.h - making new objects that are labelled before they are seen. */
#ifndef SMACKFUSE_CREATE_H
#define SMACKFUSE_CREATE_H

#include "smackfuse.h"

int sf_create_umask(mode_t mask);
int sf_make_node(struct sf_fs *fs, struct sf_subject *s, struct sf_node *dir,
		 const char *name, mode_t mode, dev_t rdev, const char *link,
		 sf_lid label, bool transmute, int *out);
int sf_make_unnamed(struct sf_fs *fs, struct sf_subject *s,
		    struct sf_node *dir, mode_t mode, int flags, sf_lid label,
		    int *out_path, int *out_fd);
int sf_make_file(struct sf_fs *fs, struct sf_subject *s, struct sf_node *dir,
		 const char *name, mode_t mode, int flags, sf_lid label,
		 int *out_path, int *out_fd);

#endif /* SMACKFUSE_CREATE_H */
