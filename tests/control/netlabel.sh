#!/bin/bash
# The control files doi, ambient and netlabel go to the kernel's NetLabel
# (libsfnetlabel) and are all-or-nothing: when the kernel refuses, the
# write fails, the log says why, and the stored value is unchanged.  On
# the host only refusals are provoked (NetLabel is global to the kernel):
# a daemon without CAP_NET_ADMIN, and one in a network namespace, where
# NetLabel does not exist.  tests/netlabel/control.test checks in qemu
# that accepted writes reach the kernel.
. "$(dirname "$0")/lib.sh"
PLAN=12
echo "1..$PLAN"
NLCTL=$(command -v netlabelctl)
export SF_TEST_NETLABEL=kernel
host_state() { [ -z "$NLCTL" ] || { $NLCTL -p map list; $NLCTL -p cipsov4 list; $NLCTL -p unlbl list; } 2>&1; }
BEFORE=$(host_state)

# writes NAME: one rejected write of each NetLabel file, values unchanged
rejected() {
	local why=$1 errno=$2
	check "$why: doi write fails ($errno)" put doi "5" "$errno"
	check "$why: ... doi still reads 0 (the kernel has no Smack DOI)" readback doi "0"
	check "$why: ambient write fails ($errno)" put ambient "Outside" "$errno"
	check "$why: ... ambient still reads _" readback ambient "_\0"
	check "$why: netlabel write fails ($errno)" put netlabel "10.0.0.0/8 @" "$errno"
	check "$why: ... netlabel still empty" readback netlabel ""
}

HWRAP=(setpriv --bounding-set -net_admin)
start_harness nlcap || { echo "Bail out! control filesystem did not start"; exit 1; }
rejected "without CAP_NET_ADMIN" EPERM
grep -q "rejected write: doi: the kernel's NetLabel configuration was not changed: .*permission denied: needs CAP_NET_ADMIN" "$TMPD/hlog"
check "the log names the file, says nothing changed, and why" [ $? -eq 0 ]
stop_harness

HWRAP=(unshare -n)
start_harness nlns || { echo "Bail out! control filesystem did not start"; exit 1; }
check "no NetLabel (network namespace): doi write fails (EOPNOTSUPP)" put doi "5" EOPNOTSUPP
check "... doi still reads 0 (no NetLabel, so no DOI)" readback doi "0"
grep -q "rejected write: doi: .*no NLBL_MGMT generic netlink family" "$TMPD/hlog"
check "... the log says the kernel has no NetLabel" [ $? -eq 0 ]
put cipso2 "Secret 3   1   5" && $SFIO read "$CD/cipso2" | grep -qx "Secret   3/5"
check "cipso2 (translation only) still works without NetLabel" [ $? -eq 0 ]
stop_harness

check "the host's NetLabel configuration is untouched" [ "$(host_state)" = "$BEFORE" ]
finish
