// SPDX-License-Identifier: GPL-2.0-only
/*
 * out.c - bounded output and a tiny formatter, since the core has no libc
 * (no printf in the kernel build of the same files either).
 */
#include "core.h"

void sf_out_mem(struct sf_out *o, const char *s, size_t n)
{
	if (o->len < o->size) {
		size_t room = o->size - 1 - o->len;
		size_t k = n < room ? n : room;

		memcpy(o->buf + o->len, s, k);
		o->buf[o->len + k] = '\0';
	}
	o->len += n;
}

void sf_out_str(struct sf_out *o, const char *s)
{
	sf_out_mem(o, s, strlen(s));
}

void sf_out_char(struct sf_out *o, char c)
{
	sf_out_mem(o, &c, 1);
}

void sf_out_u64(struct sf_out *o, u64 v)
{
	char tmp[20];
	int i = sizeof(tmp);

	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	sf_out_mem(o, tmp + i, sizeof(tmp) - i);
}

void sf_out_s64(struct sf_out *o, s64 v)
{
	if (v < 0) {
		sf_out_char(o, '-');
		sf_out_u64(o, (u64)0 - (u64)v);
		return;
	}
	sf_out_u64(o, (u64)v);
}

static void sf_out_byte(struct sf_out *o, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";
	char esc[4] = { '\\', 'x', hex[c >> 4], hex[c & 15] };

	if (c > ' ' && c <= '~')
		sf_out_char(o, (char)c);
	else if (c == ' ')
		sf_out_str(o, "space");
	else
		sf_out_mem(o, esc, sizeof(esc));
}

void sf_out_vfmt(struct sf_out *o, const char *fmt, __builtin_va_list ap)
{
	const char *p;

	for (p = fmt; *p; p++) {
		if (*p != '%' || !p[1]) {
			sf_out_char(o, *p);
			continue;
		}
		switch (*++p) {
		case 's':
			sf_out_str(o, __builtin_va_arg(ap, const char *));
			break;
		case 'u':
			sf_out_u64(o, __builtin_va_arg(ap, unsigned int));
			break;
		case 'd':
			sf_out_s64(o, __builtin_va_arg(ap, int));
			break;
		case 'z':
			sf_out_u64(o, __builtin_va_arg(ap, size_t));
			break;
		case 'c':
			sf_out_byte(o, (unsigned char)__builtin_va_arg(ap, int));
			break;
		default:
			sf_out_char(o, *p);
			break;
		}
	}
}

void sf_out_fmt(struct sf_out *o, const char *fmt, ...)
{
	__builtin_va_list ap;

	__builtin_va_start(ap, fmt);
	sf_out_vfmt(o, fmt, ap);
	__builtin_va_end(ap);
}

void sf_err(struct sf_error *err, unsigned int line, unsigned int column,
	    const char *fmt, ...)
{
	__builtin_va_list ap;
	struct sf_out o;

	if (!err)
		return;
	err->line = line;
	err->column = column;
	sf_out_init(&o, err->reason, sizeof(err->reason));
	__builtin_va_start(ap, fmt);
	sf_out_vfmt(&o, fmt, ap);
	__builtin_va_end(ap);
}

/**
 * sf_error_format - "file:line:column: reason", as compilers print it.
 * @err: the error; line 0 or column 0 are left out.
 * @buf: destination, always NUL-terminated when @size > 0.
 */
void sf_error_format(const struct sf_error *err, char *buf, size_t size)
{
	struct sf_out o;

	sf_out_init(&o, buf, size);
	sf_out_str(&o, err->file ? err->file : "<input>");
	if (err->line) {
		sf_out_char(&o, ':');
		sf_out_u64(&o, err->line);
		if (err->column) {
			sf_out_char(&o, ':');
			sf_out_u64(&o, err->column);
		}
	}
	sf_out_str(&o, ": ");
	sf_out_str(&o, err->reason);
}
