/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sf_env_libc.h - the part of the access core's environment that both
 * user-space sides take from libc alike: types, errno, memory, strings.
 *
 * Included by the daemon's sf_env.h (next to this file, which lists every
 * name the core needs) and by the PAM module's (src/pam/sf_env.h); each
 * adds only its own mutex, RCU and atomics.
 */
#ifndef SMACKFUSE_SF_ENV_LIBC_H
#define SMACKFUSE_SF_ENV_LIBC_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

static inline void *sf_malloc(size_t n)
{
	return malloc(n ? n : 1);
}

static inline void *sf_zalloc(size_t n)
{
	return calloc(1, n ? n : 1);
}

static inline void sf_free(void *p)
{
	free(p);
}

#endif /* SMACKFUSE_SF_ENV_LIBC_H */
