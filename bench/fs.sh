#!/bin/bash
# fs.sh [BUILD_DIR] - the filesystem benchmark of issue 3, side by side.
#
# Workloads (bench/fsbench): create, stat and unlink of N files in 100
# directories; open, read 4 KiB and close of N files, cold and warm;
# sequential write (with fsync) and read of one file, cold and warm.
# Each runs on native (the backing ext4/tmpfs under /tmp), smackfuse with
# enforcement, smackfuse -o checks=off, and bindfs; medians of RUNS runs
# and ratios are printed in one table.  Cold = sync + drop_caches.
#
# Environment: BENCH_FILES (10000), BENCH_SEQ_MIB (1024), BENCH_RUNS (3),
# BENCH_DIR (a directory on the filesystem to test, default /var/tmp),
# BENCH_ALT (another smackfuse binary: adds an "alt" column, enforcing,
# and alt/enf, to compare a change side by side).
# Run as root.  `make bench` runs it.
set -u
BUILD=$(cd "${1:-.}" && pwd)
FILES=${BENCH_FILES:-10000}
MIB=${BENCH_SEQ_MIB:-1024}
RUNS=${BENCH_RUNS:-3}
BASE=${BENCH_DIR:-/var/tmp}
SMACKFUSE=$BUILD/smackfuse
ALT=${BENCH_ALT:-}
[ -x "$SMACKFUSE" ] || SMACKFUSE=$BUILD/src/fuse/smackfuse
FSB=$BUILD/bench/fsbench
[ "$(id -u)" = 0 ] || { echo "fs.sh: run as root" >&2; exit 1; }
[ -x "$SMACKFUSE" ] && [ -x "$FSB" ] || { echo "fs.sh: build first" >&2; exit 1; }
command -v bindfs >/dev/null || { echo "fs.sh: apt-get install bindfs" >&2; exit 1; }

T=$(mktemp -d "$BASE/smackfuse-bench.XXXXXX")
MNT=$T/mnt
cleanup() {
	fusermount3 -u "$MNT" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
mkdir -p "$T/rules" "$MNT" "$T/res"
: >"$T/rules/empty"
echo '* _' >"$T/users"

drop() { sync; echo 3 >/proc/sys/vm/drop_caches; }

# mount_cfg CONFIG SRC: the directory to benchmark for CONFIG.
mount_cfg() {
	case $1 in
	native) echo "$2"; return 0 ;;
	enforce) "$SMACKFUSE" --rules "$T/rules" -o subject=users \
		-o users="$T/users" "$2" "$MNT" ;;
	checks-off) "$SMACKFUSE" --rules "$T/rules" -o subject=users \
		-o users="$T/users" -o checks=off "$2" "$MNT" ;;
	alt) "$ALT" --rules "$T/rules" -o subject=users \
		-o users="$T/users" "$2" "$MNT" ;;
	bindfs) bindfs -o allow_other "$2" "$MNT" ;;
	esac || return 1
	echo "$MNT"
}
umount_cfg() { [ "$1" = native ] || fusermount3 -u "$MNT"; }

# rec CONFIG: append fsbench's "phase seconds" lines to the results.
rec() {
	local cfg=$1 phase secs
	while read -r phase secs; do
		echo "$secs" >>"$T/res/$cfg.$phase"
	done
}

CONFIGS="native enforce checks-off bindfs${ALT:+ alt}"
for run in $(seq "$RUNS"); do
	for cfg in $CONFIGS; do
		src=$T/src-$cfg-$run
		mkdir -p "$src"
		d=$(mount_cfg "$cfg" "$src") || { echo "fs.sh: $cfg did not mount" >&2; exit 1; }
		"$FSB" "$d" meta "$FILES" 100 | rec "$cfg"
		"$FSB" "$d" small-setup "$FILES" >/dev/null
		"$FSB" "$d" seq-write "$MIB" | rec "$cfg"
		umount_cfg "$cfg"
		drop
		d=$(mount_cfg "$cfg" "$src")
		"$FSB" "$d" small-read "$FILES" | sed 's/^small-read/small-read-cold/' | rec "$cfg"
		"$FSB" "$d" small-read "$FILES" | sed 's/^small-read/small-read-warm/' | rec "$cfg"
		drop
		"$FSB" "$d" seq-read "$MIB" | sed 's/^seq-read/seq-read-cold/' | rec "$cfg"
		"$FSB" "$d" seq-read "$MIB" | sed 's/^seq-read/seq-read-warm/' | rec "$cfg"
		umount_cfg "$cfg"
		rm -rf "$src"
	done
done

median() { sort -g "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf '\nsmackfuse filesystem benchmark: %d files, %d MiB sequential, median of %d runs\n' \
	"$FILES" "$MIB" "$RUNS"
printf 'backing: %s (%s); seconds (lower is better) and ratios\n\n' "$BASE" \
	"$(df -T "$BASE" | awk 'NR == 2 { print $2 }')"
printf '%-16s %9s %9s %9s %9s | %8s %8s %8s' workload native enforce \
	checks-off bindfs enf/off enf/bind enf/nat
[ -z "$ALT" ] || printf ' | %9s %8s' alt alt/enf
echo
for ph in create stat unlink small-read-cold small-read-warm seq-write \
	seq-read-cold seq-read-warm; do
	n=$(median "$T/res/native.$ph")
	e=$(median "$T/res/enforce.$ph")
	o=$(median "$T/res/checks-off.$ph")
	b=$(median "$T/res/bindfs.$ph")
	awk -v ph="$ph" -v n="$n" -v e="$e" -v o="$o" -v b="$b" 'BEGIN {
		printf "%-16s %9.3f %9.3f %9.3f %9.3f | %8.2f %8.2f %8.2f",
			ph, n, e, o, b, e / o, e / b, e / n }'
	[ -z "$ALT" ] || awk -v e="$e" -v a="$(median "$T/res/alt.$ph")" \
		'BEGIN { printf " | %9.3f %8.2f", a, a / e }'
	echo
done
echo
echo "Targets: enf/off <= 1.10; enf/bind <= 1.00; for seq-*, native/enforce >= 0.80 (enf/nat <= 1.25)."
