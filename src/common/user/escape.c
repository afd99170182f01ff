// SPDX-License-Identifier: GPL-2.0-only
/*
 * escape.c - the name of a mount's entry in the run directory (escape.h).
 */
#include <stdio.h>

#include "escape.h"

size_t sf_escape_path(const char *path, char *buf, size_t size)
{
	size_t n = 0;
	const char *p = path;
	char tmp[8];
	int k;

#define PUT(ch) do { if (n + 1 < size) buf[n] = (ch); n++; } while (0)
	while (*p == '/')
		p++;
	if (!*p)
		PUT('-');
	for (; *p; p++) {
		if (*p == '/') {
			while (p[1] == '/')
				p++;
			if (p[1])
				PUT('-');
			continue;
		}
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == ':' || *p == '_' ||
		    (*p == '.' && n > 0)) {
			PUT(*p);
			continue;
		}
		snprintf(tmp, sizeof(tmp), "\\x%02x", (unsigned char)*p);
		for (k = 0; tmp[k]; k++)
			PUT(tmp[k]);
	}
#undef PUT
	if (size)
		buf[n < size ? n : size - 1] = '\0';
	return n;
}
