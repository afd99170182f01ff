/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * smallfile.h - a small file read whole (smallfile.c).
 */
#ifndef SMACKFUSE_SMALLFILE_H
#define SMACKFUSE_SMALLFILE_H

#include <stddef.h>

/* Read @path into @buf (at most @size - 1 bytes, NUL-terminated) with one
 * read(2).  Returns the length or a negative errno. */
int sf_read_small(const char *path, char *buf, size_t size);

#endif /* SMACKFUSE_SMALLFILE_H */
