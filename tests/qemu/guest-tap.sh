# guest-tap.sh - TAP helpers for guest test scripts (busybox sh).
# In the guest it is /lib/sfq/tap.sh:  . /lib/sfq/tap.sh
#
#   ok DESC / not_ok DESC        one result
#   check DESC CMD...            ok when CMD exits 0
#   check_fails DESC CMD...      ok when CMD exits non-zero
#   check_out DESC WANT CMD...   ok when CMD's stdout equals WANT
#   skip DESC                    ok # SKIP DESC (a missing prerequisite)
#   diag TEXT                    "# TEXT"
#   wait_mounted DIR             0 once DIR is in /proc/mounts (10 s at most)
#   load_fuse                    FUSE ready: insmod fuse.ko (a module on 6.1),
#                                or nothing to do where it is built in (6.12+)
#   load_kmods                   insmod the Debian modules mkinitramfs -K put
#                                in /lib/modules/deb, in order (none: nothing)
#   done_testing                 prints the plan and exits (1 if any failed)
# The host renumbers the points, so numbers here are only for reading.
_sfq_n=0
_sfq_fail=0
ok() { _sfq_n=$((_sfq_n + 1)); echo "ok $_sfq_n - $*"; }
not_ok() { _sfq_n=$((_sfq_n + 1)); _sfq_fail=1; echo "not ok $_sfq_n - $*"; }
skip() { _sfq_n=$((_sfq_n + 1)); echo "ok $_sfq_n # SKIP $*"; }
diag() { echo "# $*"; }
check() {
	_d=$1; shift
	if "$@"; then ok "$_d"; else not_ok "$_d (rc=$?: $*)"; fi
}
check_fails() {
	_d=$1; shift
	if "$@"; then not_ok "$_d (unexpected success: $*)"; else ok "$_d"; fi
}
check_out() {
	_d=$1; _w=$2; shift 2
	_g=$("$@" 2>&1)
	if [ "$_g" = "$_w" ]; then ok "$_d"
	else not_ok "$_d"; diag "want: $_w"; diag "got:  $_g"; fi
}
load_fuse() {
	if [ -e /lib/modules/fuse.ko ]; then
		insmod /lib/modules/fuse.ko
	else
		grep -qw fuse /proc/filesystems && [ -c /dev/fuse ]
	fi
}
load_kmods() {
	[ -f /lib/modules/deb/order ] || return 0
	while read -r _m; do
		insmod "/lib/modules/deb/$_m.ko" || return 1
	done </lib/modules/deb/order
}
# A daemon started in the background mounts a moment later.
wait_mounted() {
	_i=0
	while ! grep -q " $1 " /proc/mounts && [ $_i -lt 100 ]; do
		sleep 0.1; _i=$((_i + 1))
	done
	grep -q " $1 " /proc/mounts
}
done_testing() { echo "1..$_sfq_n"; exit $_sfq_fail; }
