#!/bin/bash
# acl.sh [BUILD_DIR] - what the kernel's evaluation of POSIX ACLs costs a
# caller who does not own the files (FUSE_POSIX_ACL, src/fuse/handlers/acl.c):
# stat(2), and open, read 4 KiB and close, of N files in 100 directories,
# natively and through smackfuse, in a tree without ACLs and in one where
# every directory and file has an access ACL naming the caller.
#
# Everything is root's, mode 0755/0644 and labelled "_" (the users map
# gives every caller "_"): the caller, the system account daemon, is in
# neither the owner nor the group class, so each permission check of a
# directory or file evaluates its ACL, which the kernel reads with a
# GETXATTR (the ACL of a "_" object is not left cached).  With
# BENCH_ALT=BINARY (e.g. a smackfuse built before FUSE_POSIX_ACL) that
# binary is mounted too, an "alt" column.  Prints the medians of RUNS
# passes, in us per file, and smackfuse/native.
#
# Environment: BENCH_FILES (5000), BENCH_RUNS (5), BENCH_DIR (/var/tmp),
# BENCH_ALT.  Run as root.
set -u
BUILD=$(cd "${1:-.}" && pwd)
FILES=${BENCH_FILES:-5000}
RUNS=${BENCH_RUNS:-5}
BASE=${BENCH_DIR:-/var/tmp}
ALT=${BENCH_ALT:-}
SMACKFUSE=$BUILD/smackfuse
[ -x "$SMACKFUSE" ] || SMACKFUSE=$BUILD/src/fuse/smackfuse
FSB=$BUILD/bench/fsbench
[ "$(id -u)" = 0 ] || { echo "acl.sh: run as root" >&2; exit 1; }
[ -x "$SMACKFUSE" ] && [ -x "$FSB" ] || { echo "acl.sh: build first" >&2; exit 1; }
U=$(id -u daemon) || { echo "acl.sh: needs the user daemon" >&2; exit 1; }

T=$(mktemp -d "$BASE/smackfuse-acl.XXXXXX")
CONFIGS="native new${ALT:+ alt}"
cleanup() {
	local c
	for c in $CONFIGS; do
		fusermount3 -u "$T/mnt-$c" 2>/dev/null
	done
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
chmod 0755 "$T"
mkdir -p "$T/src/plain" "$T/src/acl" "$T/rules"
: >"$T/rules/empty"
echo '* _' >"$T/users"
for t in plain acl; do
	"$FSB" "$T/src/$t" small-setup "$FILES" >/dev/null
done
# u::rwx/rw-, u:daemon:r-x/r--, g::r-x/r--, m::r-x/r--, o::r-x/r--, in
# the xattr's little-endian form.
le32() { printf '%02x%02x%02x%02x' $(($1 & 255)) $(($1 >> 8 & 255)) \
	$(($1 >> 16 & 255)) $(($1 >> 24 & 255)); }
acl() {	# acl OWNER-PERM OTHER-PERM
	printf '0x02000000''0100%02x00ffffffff''0200%02x00%s''0400%02x00ffffffff''1000%02x00ffffffff''2000%02x00ffffffff' \
		"$1" "$2" "$(le32 "$U")" "$2" "$2" "$2"
}
find "$T/src/acl" -mindepth 1 -type d -exec setfattr \
	-n system.posix_acl_access -v "$(acl 7 5)" {} + &&
find "$T/src/acl" -type f -exec setfattr \
	-n system.posix_acl_access -v "$(acl 6 4)" {} + ||
	{ echo "acl.sh: no POSIX ACLs in $BASE" >&2; exit 1; }
dir() { [ "$1" = native ] && echo "$T/src" || echo "$T/mnt-$1"; }
for c in new ${ALT:+alt}; do
	mkdir -p "$T/mnt-$c"
	bin=$SMACKFUSE
	[ $c = alt ] && bin=$ALT
	"$bin" --rules "$T/rules" -o subject=users -o users="$T/users" \
		"$T/src" "$T/mnt-$c" || { echo "acl.sh: mount failed" >&2; exit 1; }
done

as() { setpriv --reuid="$U" --regid="$U" --clear-groups "$FSB" "$@"; }
for run in $(seq "$RUNS"); do
	for t in plain acl; do
		for c in $CONFIGS; do
			as "$(dir $c)/$t" stat "$FILES" |
				awk '{ print $2 }' >>"$T/$c.$t.stat"
			as "$(dir $c)/$t" small-read "$FILES" |
				awk '{ print $2 }' >>"$T/$c.$t.read"
		done
	done
done
median() { sort -g "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
printf '\n%d files in 100 directories, a caller who owns none, median of %d passes (us/file)\n' \
	"$FILES" "$RUNS"
printf '%-12s %9s %9s %9s' workload native new new/nat
[ -z "$ALT" ] && echo || printf ' %9s %9s %9s\n' alt alt/nat new/alt
for t in plain acl; do
	for w in stat read; do
		n=$(median "$T/native.$t.$w")
		e=$(median "$T/new.$t.$w")
		a=
		[ -z "$ALT" ] || a=$(median "$T/alt.$t.$w")
		awk -v l="$w-$t" -v n="$n" -v e="$e" -v a="$a" -v f="$FILES" \
			'BEGIN { printf "%-12s %9.1f %9.1f %9.2f", l, n / f * 1e6,
				e / f * 1e6, e / n
			if (a == "") { print ""; exit }
			printf " %9.1f %9.2f %9.2f\n", a / f * 1e6, a / n, e / a }'
	done
done
