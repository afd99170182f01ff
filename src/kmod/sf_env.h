/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sf_env.h - kernel environment of the smackfuse access core.
 *
 * The same names as src/common/user/sf_env.h (which lists them), mapped to
 * the kernel: kvmalloc/kvfree for memory (the core may ask for megabytes,
 * and only ever allocates from process context: securityfs writes), a
 * struct mutex for writers, and RCU for readers.  Readers run inside
 * kprobe handlers with preemption disabled, which is an RCU read-side
 * critical section in its own right; the explicit rcu_read_lock() nests.
 */
#ifndef SMACKFUSE_SF_ENV_H
#define SMACKFUSE_SF_ENV_H

#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <asm/barrier.h>

static inline void *sf_malloc(size_t n)
{
	return kvmalloc(n ? n : 1, GFP_KERNEL);
}

static inline void *sf_zalloc(size_t n)
{
	return kvzalloc(n ? n : 1, GFP_KERNEL);
}

static inline void sf_free(void *p)
{
	kvfree(p);
}

struct sf_mutex {
	struct mutex m;
};

static inline void sf_mutex_init(struct sf_mutex *m)
{
	mutex_init(&m->m);
}

static inline void sf_mutex_destroy(struct sf_mutex *m)
{
	mutex_destroy(&m->m);
}

static inline void sf_mutex_lock(struct sf_mutex *m)
{
	mutex_lock(&m->m);
}

static inline void sf_mutex_unlock(struct sf_mutex *m)
{
	mutex_unlock(&m->m);
}

#define sf_rcu_read_lock()	rcu_read_lock()
#define sf_rcu_read_unlock()	rcu_read_unlock()
#define sf_rcu_dereference(p)	rcu_dereference(p)
#define sf_rcu_assign(p, v)	rcu_assign_pointer(p, v)
#define sf_synchronize_rcu()	synchronize_rcu()

#define sf_load_acquire(p)	smp_load_acquire(p)
#define sf_store_release(p, v)	smp_store_release(p, v)

#endif /* SMACKFUSE_SF_ENV_H */
