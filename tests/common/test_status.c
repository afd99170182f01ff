// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_status.c - the /proc/PID/status lines the daemon and the control
 * filesystem read (src/common/user/procstatus.c): on a crafted text, and
 * on this process's own file, against what getuid()/getgroups() say.
 */
#define _GNU_SOURCE
#include <string.h>
#include <unistd.h>

#include "caps.h"
#include "procstatus.h"
#include "tap.h"

static const char text[] =
	"Name:\tcat\n"
	"Uid:\t1000\t1001\t1002\t1003\n"
	"Gid:\t100\t100\t100\t100\n"
	"Groups:\t4 24 27 \n"
	"CapInh:\t0000000000000000\n"
	"CapPrm:\t0000000300000000\n"
	"CapEff:\t0000000200000000\n";

static void crafted(void)
{
	struct sf_task_status st;
	char cut[sizeof(text)];
	size_t n;

	sf_task_status_parse(text, &st);
	ok(st.have == (SF_TASK_HAVE_CAPEFF | SF_TASK_HAVE_UID |
		       SF_TASK_HAVE_GROUPS | SF_TASK_HAVE_CAPPRM),
	   "every line found");
	ok(st.fsuid == 1003, "the fs uid is Uid's fourth number");
	ok(st.ruid == 1000, "the real uid is Uid's first (access(2)'s)");
	ok(sf_cap_in(st.capprm, SF_CAP_MAC_OVERRIDE) &&
	   sf_cap_in(st.capprm, SF_CAP_MAC_ADMIN), "CapPrm");
	ok(st.ngroups == 3 && st.groups[0] == 4 && st.groups[2] == 27,
	   "the groups");
	ok(sf_cap_in(st.capeff, SF_CAP_MAC_ADMIN) &&
	   !sf_cap_in(st.capeff, SF_CAP_MAC_OVERRIDE), "CapEff");
	/* A buffer that ends inside the CapEff line: "CapEff:\t00000002". */
	n = strlen(text) - strlen("00000000\n");
	memcpy(cut, text, n);
	cut[n] = '\0';
	sf_task_status_parse(cut, &st);
	ok(!(st.have & SF_TASK_HAVE_CAPEFF) && st.capeff == 0,
	   "a CapEff line cut short is none (not CAP_DAC_OVERRIDE, 0x2)");
	sf_task_status_parse("Uid:\t1 2 3\nCapEff:\tzz\n", &st);
	ok(st.have == 0, "a Uid line of three numbers, a CapEff of no digits");
}

static void own(void)
{
	struct sf_task_status st;
	gid_t g[SF_TASK_GROUPS];
	int n = getgroups(SF_TASK_GROUPS, g);

	ok(sf_task_status_read(getpid(), &st) == 0 &&
	   (st.have & SF_TASK_HAVE_UID) && (st.have & SF_TASK_HAVE_CAPEFF),
	   "this process's status is read");
	ok(st.fsuid == geteuid(), "its fs uid is its effective uid");
	if (n < 0)	/* more groups than the status reader keeps */
		tap_skip("getgroups() failed: no group list to compare");
	else
		ok(st.ngroups == n, "its groups (%d) are getgroups()'s (%d)",
		   st.ngroups, n);
	ok(sf_task_status_read(-1, &st) < 0, "no such pid: an error");
}

int main(void)
{
	crafted();
	own();
	return tap_done();
}
