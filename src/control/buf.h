/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * buf.h - a growable text buffer: what a read of a control file shows,
 * or what writes to a collecting file gathered.  Always NUL-terminated
 * once it holds anything; needs nothing else of the control filesystem.
 */
#ifndef SMACKFUSE_CTLFS_BUF_H
#define SMACKFUSE_CTLFS_BUF_H

#include <stddef.h>

struct ctl_buf {
	char *data;
	size_t len, cap;
};

/* Room for @more bytes and a NUL.  0 or -ENOMEM (@b unchanged). */
int ctl_buf_reserve(struct ctl_buf *b, size_t more);
int ctl_buf_append(struct ctl_buf *b, const char *s, size_t len);
int ctl_buf_printf(struct ctl_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ctl_buf_release(struct ctl_buf *b);

#endif /* SMACKFUSE_CTLFS_BUF_H */
