/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * escape.h - the name of a mount's entry in the run directory (paths.h):
 * its mountpoint escaped as `systemd-escape --path` does.  The daemon's
 * control filesystem creates the entry and smackfusectl finds it by the
 * same name, so both call this one function.
 */
#ifndef SMACKFUSE_ESCAPE_H
#define SMACKFUSE_ESCAPE_H

#include <stddef.h>

/* systemd-escape --path style name of @path.  Returns the full length
 * (snprintf style); @buf is NUL-terminated whenever @size > 0. */
size_t sf_escape_path(const char *path, char *buf, size_t size);

#endif /* SMACKFUSE_ESCAPE_H */
