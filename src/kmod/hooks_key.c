// SPDX-License-Identifier: GPL-2.0-only
/*
 * hooks_key.c - kernel keys and keyrings (add_key, keyctl, request_key).
 *
 * Mainline gives a key the label of the task whose credentials create it
 * (smack_key_alloc) and checks every use of it (smack_key_permission):
 * viewing, reading or searching asks r, writing, linking and changing
 * attributes w; unlinking and the kernel's special overrides ask
 * nothing.  CAP_MAC_OVERRIDE of the calling task overrides, as there.
 *
 * The module keeps a key's label in sf_keys, keyed by the struct key,
 * from security_key_alloc to security_key_free (the key garbage
 * collector, process context).  The subject is the calling task's label:
 * mainline takes the label of the credentials the check is made with,
 * which are the caller's own except when request_key(2)'s helper acts
 * for the requester (the module labels tasks, not credentials).  Keys
 * that existed before the load (a login's session keyring, say) are
 * floor, as every object of that time.
 */
#include <linux/cred.h>
#include <linux/key.h>
#include <linux/sched.h>
#include "smackfuse.h"

#define ARG(n)	regs_get_kernel_argument(regs, (n))

/* security_key_alloc(key, cred, flags): the creator's label. */
static int sf_key_alloc(struct kprobe *kp, struct pt_regs *regs)
{
	return sf_deny(regs, sf_ltab_set_creator(&sf_keys, (void *)ARG(0)));
}
NOKPROBE_SYMBOL(sf_key_alloc);

/* security_key_free(key) */
static int sf_key_free(struct kprobe *kp, struct pt_regs *regs)
{
	sf_ltab_del(&sf_keys, (void *)ARG(0));
	return 0;
}
NOKPROBE_SYMBOL(sf_key_free);

/* What smack_key_permission asks for @need; -1: nothing to check. */
static int sf_key_request(unsigned long need)
{
	switch (need) {
	case KEY_NEED_READ:
	case KEY_NEED_SEARCH:
	case KEY_NEED_VIEW:
		return SF_MAY_READ;
	case KEY_NEED_WRITE:
	case KEY_NEED_LINK:
	case KEY_NEED_SETATTR:
		return SF_MAY_WRITE;
	default:
		return -1;
	}
}
NOKPROBE_SYMBOL(sf_key_request);

/* security_key_permission(key_ref, cred, need_perm) */
static int sf_key_permission(struct kprobe *kp, struct pt_regs *regs)
{
	struct key *key = key_ref_to_ptr((key_ref_t)ARG(0));
	int request = sf_key_request(ARG(2));

	if (request < 0 || !key || (current->flags & PF_KTHREAD))
		return 0;
	return sf_deny(regs, sf_check_current(sf_ltab_get(&sf_keys, key),
					      (u32)request,
					      "smack_key_permission", NULL));
}
NOKPROBE_SYMBOL(sf_key_permission);

const struct sf_hook sf_key_hooks[] = {
	{ SF_PROBE(security_key_alloc), sf_key_alloc, false, NULL },
	{ SF_PROBE(security_key_free), sf_key_free, true, NULL },
	{ SF_PROBE(security_key_permission), sf_key_permission, false, NULL },
	{ NULL, NULL, false, NULL }
};
