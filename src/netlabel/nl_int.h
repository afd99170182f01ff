/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nl_int.h - what the files of libsfnetlabel share: the handle and the
 * one request engine every command goes through.
 */
#ifndef SMACKFUSE_NL_INT_H
#define SMACKFUSE_NL_INT_H

#include <netlink/netlink.h>
#include <netlink/genl/genl.h>
#include "netlabel.h"
#include "nlbl_proto.h"

enum sf_nl_family { NLF_MGMT, NLF_CIPSOV4, NLF_UNLBL, NLF_COUNT };

struct sf_nl {
	struct nl_sock *sk;
	int family[NLF_COUNT];
	int fail_in;		/* SMACKNL_FAIL_AFTER: Nth change fails */
	bool is_change;		/* the message being built is a change */
	char msg[256];
};

/* A message for @fam/@cmd; NULL on ENOMEM (message set). */
struct nl_msg *sf_nl_msg(struct sf_nl *nl, enum sf_nl_family fam, int cmd,
			 int flags);
/*
 * A message for @fam/@cmd carrying the one attribute @attr, @len bytes at
 * @data (no attribute when @data is NULL): what most commands send.
 * NULL on ENOMEM (message set).
 */
struct nl_msg *sf_nl_msg_attr(struct sf_nl *nl, enum sf_nl_family fam,
			      int cmd, int attr, const void *data, int len);
/* A message that did not fit in memory: free @msg, say so, -ENOMEM. */
int sf_nl_nomem(struct sf_nl *nl, struct nl_msg *msg);
/*
 * Send @msg (consumed) and read the answer: each data message goes to
 * @parse(@arg, tb) with its attributes parsed (up to @maxattr).  Returns
 * 0 or the kernel's -errno.  Does not set the message.
 */
int sf_nl_call(struct sf_nl *nl, struct nl_msg *msg, int maxattr,
	       int (*parse)(void *arg, struct nlattr **tb), void *arg);
/*
 * sf_nl_call() for a command whose errors need no words of their own:
 * a kernel error is said as sf_nl_generic(@what) says it.  A NULL @msg
 * (sf_nl_msg failed, and said so) gives -ENOMEM.
 */
int sf_nl_ask(struct sf_nl *nl, struct nl_msg *msg, int maxattr,
	      int (*parse)(void *arg, struct nlattr **tb), void *arg,
	      const char *what);
/* Set the handle's message (printf style) and return @rc. */
int sf_nl_fail(struct sf_nl *nl, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * Message for an error every command can meet (EPERM, ENOMEM, ...);
 * falls back to "@what: <strerror>".  Returns @rc.
 */
int sf_nl_generic(struct sf_nl *nl, int rc, const char *what);

#endif /* SMACKFUSE_NL_INT_H */
