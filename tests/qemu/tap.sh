# tap.sh - host-side TAP helpers for tests that boot qemu guests (bash).
#
#   . "$top_srcdir/tests/qemu/tap.sh"
#   qemu_run [qemu-run.sh options] GUEST_TEST.sh...  # guest points, no plan
#   tap_ok DESC / tap_not_ok DESC / tap_skip DESC
#   tap_check DESC CMD...       ok when CMD exits 0
#   tap_diag TEXT
#   lane_skipped NAME           after qemu_run --name NAME: why the runner
#                               skipped it (its SKIP reason), or nothing
#   tap_done                    trailing plan "1..N"; exit 1 if any failed
#   smack_kernel LANE           SMACK_K: the lane's Smack reference kernel
#                               (smack-kernel.sh; LANE debian by default)
#
# Points are unnumbered ("ok - DESC"); the automake TAP driver numbers them.
# QEMU_DIR is this directory (the runner, the kernels, mkinitramfs.sh).
QEMU_DIR=${QEMU_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)}
TAP_LOG=$(mktemp "${TMPDIR:-/tmp}/sfq-tap.XXXXXX")
trap 'rm -f "$TAP_LOG"' EXIT

_tap() { tee -a "$TAP_LOG"; }
tap_ok() { echo "ok - $*" | _tap; }
tap_not_ok() { echo "not ok - $*" | _tap; }
tap_skip() { echo "ok - # SKIP $*" | _tap; }
tap_diag() { printf '%s\n' "$*" | sed 's/^/# /'; }
tap_check() {
	local d=$1
	shift
	if "$@"; then tap_ok "$d"; else tap_not_ok "$d (rc=$?)"; fi
}
# Returns the runner's status: 0 all guest points passed, 1 some failed.
qemu_run() {
	"$QEMU_DIR/qemu-run.sh" --no-plan "$@" | _tap
	return "${PIPESTATUS[0]}"
}
lane_skipped() {
	sed -n "s/^ok - $1: # SKIP //p" "$TAP_LOG" | tail -n 1
}
tap_done() {
	local n f
	n=$(grep -cE '^(not )?ok' "$TAP_LOG")
	f=$(grep -c '^not ok' "$TAP_LOG")
	echo "1..$n"
	[ "$f" = 0 ] && [ "$n" -gt 0 ]
	exit $?
}
# The Smack reference kernel of a lane (debian, trixie, trixie-backports),
# built once (smack-kernel.sh), in SMACK_K.  Call it before the first
# point: without its prerequisites the test says SKIP with the reason and
# exits; a download or build that failed is a failed point and the end.
smack_kernel() {
	local err rc
	err=$(mktemp)
	SMACK_K=$("$QEMU_DIR/smack-kernel.sh" "${1:-debian}" 2>"$err")
	rc=$?
	if [ $rc = 2 ]; then
		echo "1..0 # SKIP $(tail -n 1 "$err")"
		rm -f "$err"
		exit 0
	fi
	sed 's/^/# /' "$err" | grep -v '^# *$' | tail -n 5
	rm -f "$err"
	[ $rc = 0 ] && return 0
	tap_not_ok "the ${1:-debian} Smack reference kernel builds"
	tap_done
}
