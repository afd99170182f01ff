/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sf_env.h - user-space environment of the smackfuse access core.
 *
 * The core (the .c files of src/common) includes nothing but this header (through
 * smack.h).  The kernel side (src/kmod/sf_env.h) must provide the same
 * names; the complete list is:
 *
 *   types     u8 u16 u32 u64 s32 s64 size_t bool true false NULL
 *   errno     EINVAL ENOMEM ENOENT EACCES
 *   memory    sf_malloc(n)        uninitialised, NULL on failure
 *             sf_zalloc(n)        zeroed, NULL on failure
 *             sf_free(p)          NULL allowed
 *             (n may be large, up to tens of MB: the kernel maps these
 *             to kvmalloc/kvzalloc/kvfree)
 *   strings   memcpy memcmp memset strlen   (the usual semantics)
 *   mutex     struct sf_mutex; sf_mutex_init(m) sf_mutex_destroy(m)
 *             sf_mutex_lock(m) sf_mutex_unlock(m)   (may sleep)
 *   RCU       sf_rcu_read_lock() sf_rcu_read_unlock()   (nest, never block)
 *             sf_rcu_dereference(p)   load a published pointer
 *             sf_rcu_assign(p, v)     publish pointer v into p (release)
 *             sf_synchronize_rcu()    wait for all pre-existing readers
 *   atomics   sf_load_acquire(p) sf_store_release(p, v)   on a u32 lvalue
 *   varargs   the core uses __builtin_va_list/__builtin_va_start directly
 *             (gcc and clang builtins; no header needed on either side)
 *
 * Types, errno, memory and strings come from sf_env_libc.h, which the
 * PAM module's environment (src/pam/sf_env.h) shares; this file adds the
 * daemon's mutex, RCU and atomics.  Readers use liburcu's bulletproof
 * flavour, which needs no per-thread registration, so any thread of a
 * libfuse session may decide access.
 */
#ifndef SMACKFUSE_SF_ENV_H
#define SMACKFUSE_SF_ENV_H

#include <pthread.h>

#include "sf_env_libc.h"

/* Inline read-side fast paths (liburcu is LGPL-2.1; static inlines are fine). */
#ifndef _LGPL_SOURCE
#define _LGPL_SOURCE
#endif
#include <urcu-bp.h>

struct sf_mutex {
	pthread_mutex_t m;
};

static inline void sf_mutex_init(struct sf_mutex *m)
{
	pthread_mutex_init(&m->m, NULL);
}

static inline void sf_mutex_destroy(struct sf_mutex *m)
{
	pthread_mutex_destroy(&m->m);
}

static inline void sf_mutex_lock(struct sf_mutex *m)
{
	pthread_mutex_lock(&m->m);
}

static inline void sf_mutex_unlock(struct sf_mutex *m)
{
	pthread_mutex_unlock(&m->m);
}

#define sf_rcu_read_lock()	urcu_bp_read_lock()
#define sf_rcu_read_unlock()	urcu_bp_read_unlock()
#define sf_rcu_dereference(p)	rcu_dereference(p)
#define sf_rcu_assign(p, v)	rcu_assign_pointer(p, v)
#define sf_synchronize_rcu()	urcu_bp_synchronize_rcu()

#define sf_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define sf_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)

#endif /* SMACKFUSE_SF_ENV_H */
