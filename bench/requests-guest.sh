#!/bin/bash
# requests-guest.sh [BUILD_DIR] [KERNEL...] - bench/fs.sh's small-file
# workloads through smackfuse and bindfs side by side in a qemu guest, on
# each KERNEL (debian: Debian 12's 6.1, trixie: Debian 13's 6.12,
# trixie-backports: the newest Debian kernel, 7.3; default all three),
# without smackfuse.ko (one label, a label per user) and with it (the
# per-user case with labels from the module, over /dev/fuse and, where the
# kernel has it, over io_uring), with the FUSE requests each
# operation costs, by type (issue 29).  The guest half is
# bench/guest-requests.sh.
#
# Times come from qemu's -icount clock (one "ns" per instruction): they
# do not depend on the host's load, but they count instructions, not a
# real machine's time (caches, TLBs and the like are not modelled), and
# the guest has one CPU, so daemon and caller take turns.  Read the
# ratios to bindfs in the same boot and the request counts; the seconds
# alone mean little.  The backing tree is the guest's tmpfs.
#
# Environment: BENCH_REQ_FILES (files per phase, 500), BENCH_REQ_ROUNDS
# (3; medians).  Run as root; needs the module lanes' modules (make
# kmod-lanes) and tests/kmod/smackfuse-static (make check builds them).
set -u
BUILD=$(cd "${1:-.}" && pwd)
shift $(( $# > 0 ? 1 : 0 ))
TOP=$(cd "$(dirname "$0")/.." && pwd)
KERNELS=${*:-debian trixie trixie-backports}
N=${BENCH_REQ_FILES:-500}
R=${BENCH_REQ_ROUNDS:-3}
export top_srcdir=$TOP top_builddir=$BUILD
for f in bench/fsbench-static tests/kmod/smackfuse-static tests/kmod/smackrun-static; do
	[ -x "$BUILD/$f" ] || { echo "requests-guest.sh: build $f first" >&2; exit 1; }
done
command -v bindfs >/dev/null || { echo "requests-guest.sh: apt-get install bindfs" >&2; exit 1; }
PHASES="create stat stat-again unlink small-setup read-cold read-warm"

for k in $KERNELS; do
	W=$(mktemp -d)
	( SF_KMOD_KERNEL=$k; . "$TOP/tests/kmod/lane.sh" >&2 || exit 1
	"$TOP/tests/qemu/qemu-run.sh" -k "$LANE_K" --name "$k" \
		--tcg-thread single --icount --smp 1 --mem 1G -t 3000 \
		--fuse -m "$LANE_KMOD" -f "$BUILD/bench/fsbench-static:/bin/fsbench" \
		-l "$(command -v bindfs)" \
		-f "$BUILD/tests/kmod/smackfuse-static:/bin/smackfuse" \
		-f "$BUILD/tests/kmod/smackrun-static:/bin/smackrun" \
		-a "sfq_req_n=$N sfq_req_rounds=$R" \
		--channel "$W/ch" "$TOP/bench/guest-requests.sh" >"$W/tap" )
	grep -a '@req ' "$W/ch" | sed 's/^.*@req //' >"$W/req"
	grep -a '@cnt ' "$W/ch" | sed 's/^.*@cnt //' >"$W/cnt"
	if [ ! -s "$W/req" ]; then
		echo "$k: no result"
		grep -v '^ok' "$W/tap" | head -n 20
		rm -rf "$W"
		continue
	fi
	echo "$k: Linux $(grep -a '@kernel ' "$W/ch" | sed 's/^.*@kernel //' | head -n 1)"
	echo "  ($N files, medians of $R rounds, guest seconds by -icount; uptime: $(uptime | sed 's/.*load/load/'))"
	grep '^not ok' "$W/tap" | sed 's/^/  /'
	printf '  %-12s %9s %9s %9s %9s %9s %9s | %8s %8s %8s %8s\n' \
		phase one peruser bindfs kmod kmod-ur bindfs-k one/bind \
		pu/bind kmod/bk kur/bk
	for ph in $PHASES; do
		awk -v ph="$ph" '
			$3 == ph { v[$2, ++n[$2]] = $4 }
			function med(c,   i, j, t, a, m) {
				m = n[c]; if (!m) return "-"
				for (i = 1; i <= m; i++) a[i] = v[c, i]
				for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++)
					if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
				return a[int((m + 1) / 2)] }
			function q(x, y) { return x == "-" || y == "-" || !y ? "-" : sprintf("%.2f", x / y) }
			END { o = med("one"); u = med("peruser"); b = med("bindfs")
				k = med("kmod"); ku = med("kmod-uring"); bk = med("bindfs-k")
				printf "  %-12s %9s %9s %9s %9s %9s %9s | %8s %8s %8s %8s\n",
					ph, o, u, b, k, ku, bk, q(o, b), q(u, b), q(k, bk),
					q(ku, bk) }' "$W/req"
	done
	echo "  requests per operation (FORGETs and INIT left out):"
	for ph in $PHASES; do
		for c in one peruser bindfs kmod kmod-uring bindfs-k; do
			awk -v ph="$ph" -v c="$c" -v n="$N" '
				$1 == c && $2 == ph && $3 !~ /FORGET|INIT/ {
					t += $4; if ($4 / n >= 0.005) s = s sprintf(" %s %.2f", $3, $4 / n) }
				END { if (t) printf "  %-12s %-9s %5.2f:%s\n", ph, c, t / n, s }' "$W/cnt"
		done
	done
	rm -rf "$W"
done
