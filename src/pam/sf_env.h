/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sf_env.h - the access core's environment inside pam_smackfuse.so.
 *
 * The module uses two files of the core (label.c, out.c) to check and
 * intern the users map's labels exactly as the daemon does.  Its label
 * table lives for one pam_sm_open_session() call and no other thread
 * ever sees it, so the writer mutex and RCU reduce to plain memory
 * accesses: no liburcu in a library that sshd, login and su dlopen.
 * The names are those listed in src/common/user/sf_env.h; types, errno,
 * memory and strings come from src/common/user/sf_env_libc.h, shared with
 * the daemon, so this file holds only what differs.
 */
#ifndef SMACKFUSE_SF_ENV_H
#define SMACKFUSE_SF_ENV_H

#include "sf_env_libc.h"

/* One thread per table: nothing to exclude. */
struct sf_mutex {
	int unused;
};

static inline void sf_mutex_init(struct sf_mutex *m)
{
	m->unused = 0;
}

static inline void sf_mutex_destroy(struct sf_mutex *m)
{
	(void)m;
}

static inline void sf_mutex_lock(struct sf_mutex *m)
{
	(void)m;
}

static inline void sf_mutex_unlock(struct sf_mutex *m)
{
	(void)m;
}

#define sf_rcu_read_lock()	do { } while (0)
#define sf_rcu_read_unlock()	do { } while (0)
#define sf_rcu_dereference(p)	(p)
#define sf_rcu_assign(p, v)	((p) = (v))
#define sf_synchronize_rcu()	do { } while (0)

#define sf_load_acquire(p)	(*(p))
#define sf_store_release(p, v)	(*(p) = (v))

#endif /* SMACKFUSE_SF_ENV_H */
