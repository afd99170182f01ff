#!/bin/bash
# kmod-path.sh [BUILD_DIR] [KERNEL...] - what smackfuse.ko costs a path
# walk: stat(2) of a file 8 components deep on tmpfs, of /proc/meminfo,
# of the caller's own /proc/self/status and of another task's
# /proc/1/status, without the module and with it (5 alternating rounds in
# one boot, bench/guest-kmod-path.sh), on each KERNEL (qemu-run.sh -k:
# debian, trixie, trixie-backports; default all three, each with its
# module as tests/kmod/lane.sh finds it).  The module probes
# security_inode_permission, which runs for every component of every
# path, and security_inode_getattr; the rest of a stat(2) is the kernel's.
# The guest runs with qemu's -icount: its clock counts instructions (one
# "ns" each), so the figures do not depend on the host's load, and a ratio
# is one of instructions executed (caches, TLBs and branch predictors,
# which make a real machine's, are not modelled).  Prints per kernel and
# path the best round's "ns" per stat(2) (each round the median of 5
# batches) and the ratio.
# Environment: SFQ_BENCH_N (stat calls per batch, 20000).  Run as root.
set -u
BUILD=$(cd "${1:-.}" && pwd)
shift $(( $# > 0 ? 1 : 0 ))
TOP=$(cd "$(dirname "$0")/.." && pwd)
KERNELS=${*:-debian trixie trixie-backports}
export top_srcdir=$TOP top_builddir=$BUILD
PW=$BUILD/bench/pathwalk
[ -x "$PW" ] || { echo "kmod-path.sh: build first (make bench/pathwalk)" >&2; exit 1; }
for k in $KERNELS; do
	out=$( (SF_KMOD_KERNEL=$k; . "$TOP/tests/kmod/lane.sh" >&2 || exit 1
		W=$(mktemp -d)
		"$TOP/tests/qemu/qemu-run.sh" -k "$LANE_K" --name "$k" \
			--tcg-thread single --icount --smp 1 -t 900 \
			-m "$LANE_KMOD" -b "$PW" \
			-a "sfq_bench_n=${SFQ_BENCH_N:-20000}" \
			--channel "$W/ch" "$TOP/bench/guest-kmod-path.sh" >&2
		grep -a '@bench ' "$W/ch" | sed 's/^.*@bench //'
		rm -rf "$W") )
	[ -n "$out" ] || { echo "$k: no result"; continue; }
	echo "$k (uptime: $(uptime | sed 's/.*load/load/'))"
	printf '  %-22s %9s %9s %6s\n' path none kmod ratio
	# ROUND CFG PATH NS -> the best round, per CFG and PATH
	echo "$out" | awk '{ k = $2 " " $3
		if (!(k in v) || $4 < v[k]) v[k] = $4; p[$3] = 1 }
		END { for (x in p) { a = v["none " x]; b = v["kmod " x]
			printf "  %-22s %9d %9d %6.2f\n", x, a, b, a ? b / a : 0 } }' |
		sort
done
