// SPDX-License-Identifier: GPL-2.0-only
/*
 * buf.c - the growable text buffer of the control files (buf.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

int ctl_buf_reserve(struct ctl_buf *b, size_t more)
{
	size_t want = b->len + more + 1;
	char *p;

	if (want <= b->cap)
		return 0;
	if (want < 256)
		want = 256;
	if (want < b->cap * 2)
		want = b->cap * 2;
	p = realloc(b->data, want);
	if (!p)
		return -ENOMEM;
	b->data = p;
	b->cap = want;
	return 0;
}

int ctl_buf_append(struct ctl_buf *b, const char *s, size_t len)
{
	if (ctl_buf_reserve(b, len))
		return -ENOMEM;
	memcpy(b->data + b->len, s, len);
	b->len += len;
	b->data[b->len] = '\0';
	return 0;
}

int ctl_buf_printf(struct ctl_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || ctl_buf_reserve(b, (size_t)n))
		return -ENOMEM;
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return 0;
}

void ctl_buf_release(struct ctl_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}
