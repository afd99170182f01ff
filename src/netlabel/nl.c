// SPDX-License-Identifier: GPL-2.0-only
/*
 * nl.c - the generic-netlink plumbing of libsfnetlabel: one socket, the
 * three NetLabel families resolved once, one request engine, and the
 * error messages every command shares.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/genl/ctrl.h>
#include "nl_int.h"

static const char *const family_name[NLF_COUNT] = {
	[NLF_MGMT] = NLBL_FAM_MGMT,
	[NLF_CIPSOV4] = NLBL_FAM_CIPSOV4,
	[NLF_UNLBL] = NLBL_FAM_UNLBL,
};

int sf_nl_fail(struct sf_nl *nl, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(nl->msg, sizeof(nl->msg), fmt, ap);
	va_end(ap);
	return rc;
}

int sf_nl_generic(struct sf_nl *nl, int rc, const char *what)
{
	switch (-rc) {
	case EPERM:
	case EACCES:
		return sf_nl_fail(nl, rc, "%s: permission denied: needs "
				  "CAP_NET_ADMIN", what);
	case ENOMEM:
		return sf_nl_fail(nl, rc, "%s: out of memory", what);
	case EOPNOTSUPP:
		return sf_nl_fail(nl, rc, "%s: not supported by this kernel",
				  what);
	default:
		return sf_nl_fail(nl, rc, "%s: %s", what, strerror(-rc));
	}
}

const char *sf_nl_error(const struct sf_nl *nl)
{
	return nl->msg;
}

int sf_nl_open(struct sf_nl **out, char *errbuf, size_t errlen)
{
	struct sf_nl *nl = calloc(1, sizeof(*nl));
	int i, rc;

	if (!nl) {
		snprintf(errbuf, errlen, "out of memory");
		return -ENOMEM;
	}
	nl->sk = nl_socket_alloc();
	if (!nl->sk) {
		rc = -ENOMEM;
		snprintf(errbuf, errlen, "out of memory");
		goto out_free;
	}
	rc = genl_connect(nl->sk);
	if (rc < 0) {
		snprintf(errbuf, errlen, "cannot open a generic netlink "
			 "socket: %s", nl_geterror(rc));
		rc = -EIO;
		goto out_sock;
	}
	for (i = 0; i < NLF_COUNT; i++) {
		nl->family[i] = genl_ctrl_resolve(nl->sk, family_name[i]);
		if (nl->family[i] < 0) {
			snprintf(errbuf, errlen, "the kernel has no %s "
				 "generic netlink family: is it built with "
				 "CONFIG_NETLABEL?", family_name[i]);
			rc = -ENOENT;
			goto out_sock;
		}
	}
	/* test hook: make the Nth configuration change fail (smacknl(8)) */
	if (getenv("SMACKNL_FAIL_AFTER"))
		nl->fail_in = atoi(getenv("SMACKNL_FAIL_AFTER"));
	*out = nl;
	return 0;

out_sock:
	nl_socket_free(nl->sk);
out_free:
	free(nl);
	return rc;
}

void sf_nl_close(struct sf_nl *nl)
{
	if (!nl)
		return;
	nl_socket_free(nl->sk);
	free(nl);
}

/* Commands that change the configuration (the others only read). */
static bool changes(enum sf_nl_family fam, int cmd)
{
	switch (fam) {
	case NLF_MGMT:
		return cmd == MGMT_C_ADD || cmd == MGMT_C_REMOVE ||
		       cmd == MGMT_C_ADDDEF || cmd == MGMT_C_REMOVEDEF;
	case NLF_CIPSOV4:
		return cmd == CIPSOV4_C_ADD || cmd == CIPSOV4_C_REMOVE;
	default:
		return cmd == UNLBL_C_ACCEPT || cmd == UNLBL_C_STATICADD ||
		       cmd == UNLBL_C_STATICREMOVE ||
		       cmd == UNLBL_C_STATICADDDEF ||
		       cmd == UNLBL_C_STATICREMOVEDEF;
	}
}

struct nl_msg *sf_nl_msg(struct sf_nl *nl, enum sf_nl_family fam, int cmd,
			 int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	nl->is_change = changes(fam, cmd);
	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ,
				 nl->family[fam], 0, flags, cmd,
				 NLBL_PROTO_VERSION)) {
		nlmsg_free(msg);
		sf_nl_fail(nl, -ENOMEM, "out of memory");
		return NULL;
	}
	return msg;
}

/* nla_put_u8/u16/u32/string put exactly these bytes: one helper does. */
struct nl_msg *sf_nl_msg_attr(struct sf_nl *nl, enum sf_nl_family fam,
			      int cmd, int attr, const void *data, int len)
{
	struct nl_msg *msg = sf_nl_msg(nl, fam, cmd, 0);

	if (msg && data && nla_put(msg, attr, len, data)) {
		sf_nl_nomem(nl, msg);
		return NULL;
	}
	return msg;
}

int sf_nl_nomem(struct sf_nl *nl, struct nl_msg *msg)
{
	nlmsg_free(msg);
	return sf_nl_fail(nl, -ENOMEM, "out of memory");
}

/* State of one request while its answer is read. */
struct call {
	int maxattr;
	int (*parse)(void *arg, struct nlattr **tb);
	void *arg;
	int rc;
	bool done;
};

static int on_valid(struct nl_msg *msg, void *data)
{
	struct call *c = data;
	struct nlattr *tb[32];
	int rc;

	if (!c->parse)
		return NL_OK;
	rc = genlmsg_parse(nlmsg_hdr(msg), 0, tb, c->maxattr, NULL);
	if (rc < 0) {
		c->rc = -EPROTO;
		return NL_SKIP;
	}
	rc = c->parse(c->arg, tb);
	if (rc && !c->rc)
		c->rc = rc;
	return NL_OK;
}

static int on_error(struct sockaddr_nl *who, struct nlmsgerr *err, void *data)
{
	struct call *c = data;

	(void)who;
	c->rc = err->error ? err->error : -EIO;
	c->done = true;
	return NL_STOP;
}

/*
 * NLBL_MGMT dumps number their messages seq, seq + 1, ... (the kernel's
 * netlbl_mgmt_listall_cb increments it), so libnl's sequence check would
 * reject the second entry.  One request is in flight at a time and every
 * answer is read to its end, so nothing stale can be mistaken for ours.
 */
static int no_seq_check(struct nl_msg *msg, void *data)
{
	(void)msg;
	(void)data;
	return NL_OK;
}

static int on_finish(struct nl_msg *msg, void *data)
{
	struct call *c = data;

	(void)msg;
	c->done = true;
	return NL_STOP;
}

int sf_nl_call(struct sf_nl *nl, struct nl_msg *msg, int maxattr,
	       int (*parse)(void *arg, struct nlattr **tb), void *arg)
{
	struct call c = { maxattr, parse, arg, 0, false };
	struct nl_cb *cb;
	int rc;

	if (nl->is_change && nl->fail_in > 0 && --nl->fail_in == 0) {
		nlmsg_free(msg);
		return -EIO;	/* injected: "Input/output error" */
	}
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, &c);
	nl_cb_set(cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, no_seq_check, NULL);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_finish, &c);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_finish, &c);
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, &c);
	rc = nl_send_auto(nl->sk, msg);
	nlmsg_free(msg);
	if (rc < 0) {
		c.rc = -EIO;
		goto out;
	}
	while (!c.done) {
		rc = nl_recvmsgs(nl->sk, cb);
		if (rc < 0 && !c.done) {
			c.rc = c.rc ? c.rc : -EIO;
			break;
		}
	}
out:
	nl_cb_put(cb);
	return c.rc;
}

int sf_nl_ask(struct sf_nl *nl, struct nl_msg *msg, int maxattr,
	      int (*parse)(void *arg, struct nlattr **tb), void *arg,
	      const char *what)
{
	int rc;

	if (!msg)
		return -ENOMEM;
	rc = sf_nl_call(nl, msg, maxattr, parse, arg);
	return rc ? sf_nl_generic(nl, rc, what) : 0;
}

static int version_parse(void *arg, struct nlattr **tb)
{
	if (tb[MGMT_A_VERSION])
		*(uint32_t *)arg = nla_get_u32(tb[MGMT_A_VERSION]);
	return 0;
}

int sf_nl_version(struct sf_nl *nl, uint32_t *version)
{
	*version = 0;
	return sf_nl_ask(nl, sf_nl_msg(nl, NLF_MGMT, MGMT_C_VERSION, 0),
			 MGMT_A_MAX, version_parse, version,
			 "NetLabel version");
}
