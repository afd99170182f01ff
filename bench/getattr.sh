#!/bin/bash
# getattr.sh [BUILD_DIR] - the cost of telling stat(2), a path walk's
# search and access(2) apart (src/fuse/decision/getattr.c), side by side.
#
# One mount; N files in 100 directories, all labelled Obj (attributes not
# cached: every stat(2) sends GETATTRs).  Two subjects stat them in turn:
# "full" has rwxa on Obj (nothing is read), "reader" has rx only (each
# GETATTR reads the caller's /proc/TID/syscall; its kernel stack too when
# the call is one whose answer depends on the site, as access(2)).  Prints the medians of RUNS
# passes and reader/full.  Users: the system accounts daemon and bin.
#
# Environment: BENCH_FILES (5000), BENCH_RUNS (5), BENCH_DIR (/var/tmp).
# Run as root.
set -u
BUILD=$(cd "${1:-.}" && pwd)
FILES=${BENCH_FILES:-5000}
RUNS=${BENCH_RUNS:-5}
BASE=${BENCH_DIR:-/var/tmp}
SMACKFUSE=$BUILD/smackfuse
[ -x "$SMACKFUSE" ] || SMACKFUSE=$BUILD/src/fuse/smackfuse
FSB=$BUILD/bench/fsbench
[ "$(id -u)" = 0 ] || { echo "getattr.sh: run as root" >&2; exit 1; }
[ -x "$SMACKFUSE" ] && [ -x "$FSB" ] || { echo "getattr.sh: build first" >&2; exit 1; }
id daemon >/dev/null && id bin >/dev/null ||
	{ echo "getattr.sh: needs the users daemon and bin" >&2; exit 1; }

T=$(mktemp -d "$BASE/smackfuse-getattr.XXXXXX")
M=$T/mnt
cleanup() {
	fusermount3 -u "$M" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
chmod 0755 "$T"
mkdir -p "$T/src" "$T/rules" "$M"
"$FSB" "$T/src" small-setup "$FILES" >/dev/null
find "$T/src" -mindepth 1 -exec setfattr -n security.SMACK64 -v Obj {} +
printf 'Full Obj rwxa\nReader Obj rx\n' >"$T/rules/bench"
printf 'daemon Full\nbin Reader\n* _\n' >"$T/users"
"$SMACKFUSE" --rules "$T/rules" -o subject=users -o users="$T/users" \
	"$T/src" "$M" || { echo "getattr.sh: mount failed" >&2; exit 1; }

as() { setpriv --reuid="$1" --regid="$1" --clear-groups "$FSB" "$M" stat "$FILES"; }
for run in $(seq "$RUNS"); do
	as daemon | awk '{ print $2 }' >>"$T/full"
	as bin | awk '{ print $2 }' >>"$T/reader"
done
median() { sort -g "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
f=$(median "$T/full")
r=$(median "$T/reader")
printf '\nstat(2) of %d uncached files, median of %d passes each, one mount\n' \
	"$FILES" "$RUNS"
awk -v f="$f" -v r="$r" -v n="$FILES" 'BEGIN {
	printf "%-32s %8.3f s  %6.1f us/stat\n", "full (rwxa: nothing read)", f, f / n * 1e6
	printf "%-32s %8.3f s  %6.1f us/stat\n", "reader (rx: syscall read)", r, r / n * 1e6
	printf "reader/full %.2f\n", r / f }'
