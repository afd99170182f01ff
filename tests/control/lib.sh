# lib.sh - shared by the tests/control scripts (sourced, bash).
# TAP helpers, and a control filesystem run alone by ctl-harness.  TMPD
# holds the test's own (empty) policy directory and index of mounts
# (tests/hermetic/lib.sh): no daemon, harness or smackfusectl started here
# reads the host's /etc/smackfuse or lists the host's /run/smackfuse.
set -u
B=${top_builddir:-$(pwd)}
S=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$S/tests/hermetic/lib.sh"
HARNESS=$B/tests/control/ctl-harness
CTL=$B/src/tools/smackfusectl
SFIO=$B/tests/control/sfio
T=0
FAILED=0
HPID=
TMPD=$(mktemp -d /tmp/sfctl-test.XXXXXX)
hermetic_dirs "$TMPD" || { echo "Bail out! cannot make $TMPD/etc and $TMPD/run"; exit 1; }

ok() { T=$((T + 1)); echo "ok $T - $*"; }
notok() { T=$((T + 1)); echo "not ok $T - $*"; FAILED=1; }
# check DESCRIPTION COMMAND...: one test point from a command's status.
check() {
	local d=$1
	shift
	if "$@"; then ok "$d"; else notok "$d"; fi
}
# same FILE EXPECTED-PRINTF-FORMAT: FILE holds exactly those bytes.
same() {
	printf "$2" >"$TMPD/expect"
	if cmp -s "$TMPD/expect" "$1"; then return 0; fi
	echo "# expected: $(od -An -c "$TMPD/expect" | tr -s ' ')" >&2
	echo "# got:      $(od -An -c "$1" | tr -s ' ')" >&2
	return 1
}
# readback NAME EXPECTED: read control file NAME, compare bytes.
readback() {
	$SFIO read "$CD/$1" >"$TMPD/got" && same "$TMPD/got" "$2"
}
# put NAME DATA [WANT]: one write of DATA (printf format) to NAME, expect
# WANT ("OK" by default, else an errno name).
put() {
	local got
	got=$(printf "$2" | $SFIO write "$CD/$1")
	[ "$got" = "${3:-OK}" ] || { echo "# $1: wrote '$2': got $got, want ${3:-OK}" >&2; return 1; }
}

# start_harness NAME [RULEFILE]: sets CD (control dir) and HPID.  The
# harness runs under ${HWRAP[@]} when set (e.g. setpriv, unshare).
HWRAP=()
start_harness() {
	local i
	"${HWRAP[@]}" "$HARNESS" "/tmp/sfctl-$1-$$" "" ${2:+"$2"} >"$TMPD/hout" 2>"$TMPD/hlog" &
	HPID=$!
	for i in $(seq 1200); do	# up to 60 s: a loaded CI host
		grep -q '^ready ' "$TMPD/hout" 2>/dev/null && break
		kill -0 "$HPID" 2>/dev/null || break
		sleep 0.05
	done
	CD=$(sed -n 's/^ready //p' "$TMPD/hout")
	[ -n "$CD" ] || { cat "$TMPD/hlog" >&2; return 1; }
}
stop_harness() {
	local rc=0
	if [ -n "$HPID" ]; then
		kill -TERM "$HPID" 2>/dev/null
		wait "$HPID" || rc=$?
		HPID=
	fi
	return $rc
}
cleanup() {
	stop_harness || true
	hermetic_unmount "$TMPD"
	rm -rf "$TMPD"
}
trap cleanup EXIT

# need_user NAME: a test user with a shell (tests/hermetic/lib.sh; idempotent).
need_user() { test_user "$1" -s /bin/sh; }
finish() {
	[ "$T" -eq "$PLAN" ] || { echo "# planned $PLAN tests, ran $T" >&2; FAILED=1; }
	exit $FAILED
}
