# lib.sh - shared by the tests/pkg scripts (sourced, bash): TAP helpers,
# and tests/hermetic/lib.sh (test users; the test's own run directory).
set -u
S=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
B=${top_builddir:-$(pwd)}
. "$S/tests/hermetic/lib.sh"
T=0
FAILED=0
ok() { T=$((T + 1)); echo "ok $T - $*"; }
notok() { T=$((T + 1)); FAILED=1; echo "not ok $T - $*"; }
skip() { T=$((T + 1)); echo "ok $T # SKIP $*"; }
diag() { sed 's/^/# /'; }
# check DESCRIPTION COMMAND...: one test point from a command's status.
check() {
	local d=$1
	shift
	if "$@"; then ok "$d"; else notok "$d"; fi
}
# has FILE REGEX: FILE has a line matching REGEX (grep -E); says so if not.
has() {
	grep -qE -- "$2" "$1" && return 0
	echo "# $1: no line matching: $2" >&2
	return 1
}
finish() {
	[ "$T" -eq "$PLAN" ] || { echo "# planned $PLAN tests, ran $T" >&2; FAILED=1; }
	exit $FAILED
}
