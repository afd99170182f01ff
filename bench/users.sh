#!/bin/bash
# users.sh [BUILD_DIR] - the caller's label with many users (issue 32),
# side by side.  Two tables, 30,000 stat(2)s of one file labelled _ per
# cell, medians of RUNS runs taken in turn (each configuration first runs
# once unmeasured: the daemon learns the users):
#
# 1. The issue's measure: N users in N processes at once (30 vs 300),
#    under "* %u" (a label per user: every stat reaches the daemon) and
#    "* _" (one label: the kernel caches the attributes).  "all" includes
#    the forks, "stats" starts at the barrier the children wait at.  The
#    users and the processes grow together here.
# 2. The label alone: 300 processes, each stat made as the next uid of a
#    pool of U users (setfsuid), U = 1, 30, 300, 3,000, 10,000: the same
#    processes and stats, only the number of users changes.  The new
#    daemon runs with -o users_ttl=3600 here, so that the 10,000 answers
#    are not looked up again during the runs (that background cost is
#    printed apart: the time the daemon took to learn the pool).
#
# The users live in a private account database (tests/fuse/userdb.sh: a
# private mount namespace with an overlay over /etc, bulk lines in
# /etc/passwd and /etc/group); the host's accounts are not touched.
#
# Environment: BENCH_RUNS (7), BENCH_STATS (30000), BENCH_USERS ("30
# 300"), BENCH_POOL ("1 30 300 3000 10000"), BENCH_ALT (another smackfuse
# binary: adds its rows, to compare a change side by side), BENCH_DIR
# (/var/tmp).  Run as root.  `make bench-users`.
set -u
BUILD=$(cd "${1:-.}" && pwd)
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/tests/fuse/userdb.sh"
userdb_enter "$0" "$BUILD"
RUNS=${BENCH_RUNS:-7}
STATS=${BENCH_STATS:-30000}
COUNTS=${BENCH_USERS:-30 300}
POOL=${BENCH_POOL:-1 30 300 3000 10000}
ALT=${BENCH_ALT:-}
BASE=${BENCH_DIR:-/var/tmp}
SMACKFUSE=$BUILD/smackfuse
[ -x "$SMACKFUSE" ] || SMACKFUSE=$BUILD/src/fuse/smackfuse
US=$BUILD/bench/userstat
FIRST=71000
PROCS=300
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
for n in $COUNTS $POOL; do [ "$n" -gt "$max" ] && max=$n; done
userdb_bulk sfb "$FIRST" "$max" || exit 1
mkdir -p "$T/src"
chmod 0755 "$T/src"
echo x >"$T/src/f" && chmod 0644 "$T/src/f"
setfattr -n security.SMACK64 -v _ "$T/src" "$T/src/f"
echo '* %u' >"$T/users.u"
echo '* _' >"$T/users._"

# mount NAME BINARY MAP [OPTIONS]
mnt() {
	mkdir -p "$T/m.$1"
	"$2" -o subject=users,users="$T/users.$3"${4:+,$4} "$T/src" "$T/m.$1" ||
		{ echo "users.sh: mount $1 failed" >&2; exit 1; }
}
confs="new:u new:_"
mnt new:u "$SMACKFUSE" u control="$T/c.new"
mnt new:_ "$SMACKFUSE" _ control=none
mnt pool:new "$SMACKFUSE" u control="$T/c.pool",users_ttl=3600
pools="pool:new"
if [ -n "$ALT" ]; then
	confs="$confs alt:u alt:_"
	mnt alt:u "$ALT" u control=none
	mnt alt:_ "$ALT" _ control=none
	mnt pool:alt "$ALT" u control=none
	pools="$pools pool:alt"
fi

one() {	# CONF N: "all stats"
	"$US" "$T/m.$1/f" "$2" "$FIRST" "$STATS" | awk '{ printf "%s ", $2 } END { print "" }'
}
pool() { # CONF U: "all stats"
	"$US" -f "$T/m.$1/f" "$2" "$FIRST" "$STATS" "$PROCS" | awk '{ printf "%s ", $2 } END { print "" }'
}
for c in $confs; do for n in $COUNTS; do one "$c" "$n" >/dev/null; done; done
for c in $pools; do
	for u in $POOL; do
		t0=$(date +%s.%N)
		pool "$c" "$u" >/dev/null
		[ "$c" = pool:new ] && [ "$u" = "${POOL##* }" ] &&
			learnt=$(awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $t0 }")
	done
done
for run in $(seq "$RUNS"); do
	for c in $confs; do
		for n in $COUNTS; do
			one "$c" "$n" >>"$T/r.$c.$n" ||
				echo "users.sh: $c $n users: errors" >&2
		done
	done
	for c in $pools; do
		for u in $POOL; do
			pool "$c" "$u" >>"$T/r.$c.$u" ||
				echo "users.sh: $c $u users: errors" >&2
		done
	done
done

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
col() { awk -v c="$2" '{ print $c }' "$1" | median; }
echo "1. N users in N processes, $STATS stat(2)s; seconds, medians of $RUNS"
printf '%-16s' "map (binary)"
for n in $COUNTS; do printf '%10s' "$n all" "$n stats"; done
printf '%10s%10s\n' "ratio all" "stats"
for c in $confs; do
	printf '%-16s' "* $([ "${c#*:}" = u ] && echo %u || echo _) (${c%%:*})"
	row=
	for n in $COUNTS; do
		a=$(col "$T/r.$c.$n" 1) s=$(col "$T/r.$c.$n" 2)
		printf '%10s%10s' "$a" "$s"
		row="$row $a $s"
	done
	echo "$row" | awk '{ printf "%10.2f%10.2f\n", $(NF - 1) / $1, $NF / $2 }'
done
echo
echo "2. $PROCS processes, each stat as the next of U users (setfsuid), \"* %u\";"
echo "   seconds from the barrier, medians of $RUNS; ratio to U = ${POOL%% *}"
printf '%-16s' "U users"
for u in $POOL; do printf '%9s' "$u"; done
echo
for c in $pools; do
	printf '%-16s' "${c#pool:}"
	base=
	for u in $POOL; do
		s=$(col "$T/r.$c.$u" 2)
		[ -z "$base" ] && base=$s
		printf '%9s' "$s"
	done
	echo
	printf '%-16s' "  ratio"
	for u in $POOL; do
		echo "$(col "$T/r.$c.$u" 2) $base" | awk '{ printf "%9.2f", $1 / $2 }'
	done
	echo
done
echo
sed -n 's/^user lookups: /new daemon, table 2: user lookups: /p' "$T/c.pool/status"
sed -n 's/^users known: /new daemon, table 2: users known: /p' "$T/c.pool/status"
echo "new daemon: learning the ${POOL##* } users' labels (${POOL##* } lookups, and $STATS stats) took ${learnt:-?} s"
sed -n 's/^user lookups: /new daemon, table 1 (* %u): user lookups: /p' "$T/c.new/status"
# What can refuse a stat(2) of the _ file (userstat counts those): a
# GETATTR whose site could not be told fails unless every site passes,
# and a caller whose uid's lookup failed or timed out gets no label.
for c in new pool; do
	sed -n -e "s/^\(getattr sites unknown.*\)/new daemon, $c: \1/p" \
		-e "s/^\(user lookups \(failed\|timed out\).*\)/new daemon, $c: \1/p" \
		-e "s/^\(user requests refused.*\)/new daemon, $c: \1/p" \
		"$T/c.$c/status"
done
uptime
