#!/bin/bash
# users.sh [BUILD_DIR] - the caller's label with many users (issue 32),
# side by side: 30 and 300 users stat one file labelled _ at once, 30,000
# stat(2)s in all, under the users map "* %u" (a label per user; every
# stat reaches the daemon) and under "* _" (one label; the kernel caches
# the attributes).  Forks are included in "all"; "stats" starts at the
# barrier the children wait at.  Each configuration runs once unmeasured
# (the daemon learns the users), then RUNS times, in turn; the table has
# the medians and the 300/30 ratios, then `uptime`.
#
# The users are made in a private account database (tests/fuse/userdb.sh:
# a private mount namespace with an overlay over /etc); the host's
# accounts are not touched.
#
# Environment: BENCH_RUNS (7), BENCH_STATS (30000), BENCH_USERS ("30
# 300"), BENCH_ALT (another smackfuse binary: adds its rows, to compare a
# change side by side), BENCH_DIR (/var/tmp).  Run as root.
# `make bench-users`.
set -u
BUILD=$(cd "${1:-.}" && pwd)
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/tests/fuse/userdb.sh"
userdb_enter "$0" "$BUILD"
RUNS=${BENCH_RUNS:-7}
STATS=${BENCH_STATS:-30000}
COUNTS=${BENCH_USERS:-30 300}
ALT=${BENCH_ALT:-}
BASE=${BENCH_DIR:-/var/tmp}
SMACKFUSE=$BUILD/smackfuse
[ -x "$SMACKFUSE" ] || SMACKFUSE=$BUILD/src/fuse/smackfuse
US=$BUILD/bench/userstat
FIRST=71000
[ "$(id -u)" = 0 ] || { echo "users.sh: run as root" >&2; exit 1; }
[ -x "$SMACKFUSE" ] && [ -x "$US" ] || { echo "users.sh: build first" >&2; exit 1; }

T=$(mktemp -d "$BASE/smackfuse-users.XXXXXX")
cleanup() {
	local m
	for m in "$T"/m.*; do fusermount3 -u "$m" 2>/dev/null; done
	userdb_teardown "$T/db"
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
chmod 0755 "$T"
userdb_setup "$T/db" || { echo "users.sh: no private /etc" >&2; exit 1; }
max=0
for n in $COUNTS; do [ "$n" -gt "$max" ] && max=$n; done
userdb_bulk sfb "$FIRST" "$max" || exit 1
mkdir -p "$T/src"
chmod 0755 "$T/src"
echo x >"$T/src/f" && chmod 0644 "$T/src/f"
setfattr -n security.SMACK64 -v _ "$T/src" "$T/src/f"
echo '* %u' >"$T/users.u"
echo '* _' >"$T/users._"

# Mounts: NAME BINARY MAP.
confs="new:u new:_"
[ -n "$ALT" ] && confs="$confs alt:u alt:_"
for c in $confs; do
	bin=$SMACKFUSE
	[ "${c%%:*}" = alt ] && bin=$ALT
	mkdir -p "$T/m.$c"
	"$bin" -o subject=users,users="$T/users.${c#*:}",control=none \
		"$T/src" "$T/m.$c" || { echo "users.sh: mount $c failed" >&2; exit 1; }
done

one() {	# CONF N: print "all stats"
	"$US" "$T/m.$1/f" "$2" "$FIRST" "$STATS" | awk '{ printf "%s ", $2 } END { print "" }'
}
for c in $confs; do for n in $COUNTS; do one "$c" "$n" >/dev/null; done; done
for run in $(seq "$RUNS"); do
	for c in $confs; do
		for n in $COUNTS; do
			one "$c" "$n" >>"$T/r.$c.$n" ||
				echo "users.sh: $c $n users: errors" >&2
		done
	done
done

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
printf '%-22s' "map (binary)"
for n in $COUNTS; do printf '%12s' "$n all" "$n stats"; done
printf '%12s%12s\n' "ratio all" "ratio stats"
for c in $confs; do
	printf '%-22s' "* $([ "${c#*:}" = u ] && echo %u || echo _) (${c%%:*})"
	first= last=
	for n in $COUNTS; do
		a=$(awk '{ print $1 }' "$T/r.$c.$n" | median)
		s=$(awk '{ print $2 }' "$T/r.$c.$n" | median)
		printf '%12s%12s' "$a" "$s"
		[ -z "$first" ] && first="$a $s"
		last="$a $s"
	done
	echo "$first $last" | awk '{ printf "%12.2f%12.2f\n", $3 / $1, $4 / $2 }'
done
echo "$STATS stat(2)s per cell, medians of $RUNS runs; ratio = last/first column"
uptime
