#!/bin/bash
# uring-load.sh [BUILD_DIR] - one request's round trip (bench/rtlat: a
# GETXATTR the kernel never caches) through smackfuse over io_uring,
# smackfuse over /dev/fuse and bindfs, all mounted at once, on a quiet
# host and next to CPU hogs.
#
# Why: a reply wakes its caller while the daemon's thread still runs, and
# the scheduler may move the caller to an idle CPU (the "moved" column:
# the caller's migrations), whose wake-up every next request then pays
# for.  The "hogs" rows show how each transport fares next to busy CPUs
# (bench/fs-results.txt, section 0000: queue threads run SCHED_IDLE kept
# callers in place, and starved next to busy CPUs).
#
# Scenarios: quiet; quiet with the caller bound to CPU 0; 1 and 3 busy
# loops bound to every CPU.  Each config runs in every round, in an order
# that rotates; medians over LOAD_ROUNDS rounds (5) of LOAD_N calls
# (20,000; 5,000 under load).  Needs root, bindfs and a kernel with FUSE
# over io_uring (enable_uring is set for the run and put back).
set -u
BUILD=$(cd "${1:-.}" && pwd)
ROUNDS=${LOAD_ROUNDS:-5}
N=${LOAD_N:-20000}
SMACKFUSE=$BUILD/smackfuse
[ -x "$SMACKFUSE" ] || SMACKFUSE=$BUILD/src/fuse/smackfuse
RTLAT=$BUILD/bench/rtlat
UR_PARAM=/sys/module/fuse/parameters/enable_uring
[ "$(id -u)" = 0 ] || { echo "uring-load.sh: run as root" >&2; exit 1; }
[ -x "$SMACKFUSE" ] && [ -x "$RTLAT" ] ||
	{ echo "uring-load.sh: build first" >&2; exit 1; }
command -v bindfs >/dev/null ||
	{ echo "uring-load.sh: apt-get install bindfs" >&2; exit 1; }
[ -w "$UR_PARAM" ] ||
	{ echo "uring-load.sh: this kernel has no FUSE over io_uring" >&2; exit 1; }

UR_ORIG=$(cat "$UR_PARAM")
T=$(mktemp -d /tmp/smackfuse-uload.XXXXXX)
CONFIGS="uring devfuse bindfs"
HOGS=""
cleanup() {
	local c
	stop_hogs
	for c in $CONFIGS; do fusermount3 -u "$T/mnt-$c" 2>/dev/null; done
	rm -rf "$T"
	echo "$UR_ORIG" >"$UR_PARAM"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
echo Y >"$UR_PARAM"
echo '* _' >"$T/users"
mkdir -p "$T/rules"
: >"$T/rules/empty"

sf() {
	"$SMACKFUSE" --rules "$T/rules" -o subject=users -o users="$T/users" \
		"$@"
}
for c in $CONFIGS; do
	mkdir -p "$T/src-$c" "$T/mnt-$c" "$T/res"
	: >"$T/src-$c/f"
	case $c in
	uring) sf -o uring=auto -o control="$T/ctl" "$T/src-$c" "$T/mnt-$c" ;;
	devfuse) sf -o uring=off "$T/src-$c" "$T/mnt-$c" ;;
	bindfs) bindfs "$T/src-$c" "$T/mnt-$c" ;;
	esac || { echo "uring-load.sh: $c did not mount" >&2; exit 1; }
done
stat "$T/mnt-uring" >/dev/null
grep -q '^transport: io_uring' "$T/ctl/status" || {
	echo "uring-load.sh: not on io_uring: $(grep transport "$T/ctl/status")" >&2
	exit 1
}

# start_hogs K: K busy loops bound to each CPU.
start_hogs() {
	local cpu k
	for cpu in $(seq 0 $(($(nproc) - 1))); do
		for k in $(seq "$1"); do
			taskset -c "$cpu" sh -c 'while :; do :; done' &
			HOGS="$HOGS $!"
		done
	done
}
stop_hogs() {
	[ -z "$HOGS" ] && return
	kill $HOGS 2>/dev/null
	wait $HOGS 2>/dev/null
	HOGS=""
}

# scenario NAME HOGS N [CPU]: every config, ROUNDS rounds, rotating.
scenario() {
	local name=$1 hogs=$2 n=$3 cpu=${4:-} round c
	set -- $CONFIGS
	[ "$hogs" = 0 ] || start_hogs "$hogs"
	sleep 0.5
	for round in $(seq "$ROUNDS"); do
		for c in "$@"; do
			"$RTLAT" "$T/mnt-$c/f" "$n" $cpu >>"$T/res/$name.$c"
		done
		set -- "${@:2}" "$1"
	done
	stop_hogs
}
scenario quiet 0 "$N"
scenario quiet-cpu0 0 "$N" 0
scenario hogs-1 1 $((N / 4))
scenario hogs-3 3 $((N / 4))

# col FILE FIELD: the median over the rounds of rtlat's FIELD.
col() {
	awk -v f="$2" '{ for (i = 1; i < NF; i += 2) if ($i == f) print $(i + 1) }' \
		"$1" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
printf '\nround trip of one request, microseconds: median of %d rounds\n' "$ROUNDS"
printf '%-11s %-8s %8s %8s %8s %8s %8s %7s %9s\n' scenario config p50 p99 \
	p999 max mean moved mean/bind
for s in quiet quiet-cpu0 hogs-1 hogs-3; do
	b=$(col "$T/res/$s.bindfs" mean)
	for c in $CONFIGS; do
		f=$T/res/$s.$c
		printf '%-11s %-8s %8s %8s %8s %8s %8s %7s %9s\n' "$s" "$c" \
			"$(col "$f" p50)" "$(col "$f" p99)" "$(col "$f" p999)" \
			"$(col "$f" max)" "$(col "$f" mean)" "$(col "$f" moved)" \
			"$(awk -v m="$(col "$f" mean)" -v b="$b" \
				'BEGIN { printf "%.2f", m / b }')"
	done
done
