#!/bin/bash
# fs.sh [BUILD_DIR] - the filesystem benchmark of issue 3, side by side.
#
# Workloads (bench/fsbench): create, stat and unlink of N files in 100
# directories; open, read 4 KiB and close of N files, cold and warm;
# sequential write (with fsync) and read of one file, cold and warm;
# small writes (BENCH_WRITES writes of 4 and of 512 bytes into one file,
# in place and with O_APPEND, as logs and mailboxes write, issue 30).
# One label: the users map "* _" (every caller "_", whose objects the
# kernel may cache); per user (issue 29): "* %u", one label per user (the
# bench runs as root, labelled "root": its own files under a "_" root, on
# which no other caller's decision may be cached).
# Each runs on native (the backing ext4/tmpfs under /tmp), smackfuse with
# enforcement over /dev/fuse (-o uring=off), the same over io_uring
# (-o uring=auto, the "uring" column), smackfuse -o checks=off, and bindfs,
# and, for the small writes only, smackfuse -o passthrough=off (the "nopt"
# column: every write a request over /dev/fuse); all mounted at once;
# each workload runs on every configuration back to back, in an order that
# rotates with the run.  Medians of RUNS runs and ratios are printed in one
# table.  Cold = sync + drop_caches just before the configuration's turn.
# Per-user columns (a second table, issue 29): "peruser" (/dev/fuse),
# "pu-nopt" (/dev/fuse, -o passthrough=off: every read a request),
# "pu-uring" (io_uring) and, with BENCH_ALT, "pu-alt" (that binary, per
# user, /dev/fuse: before and after side by side) against bindfs and, with BENCH_PTHP, libfuse's
# passthrough_hp example (writeback cache, long timeouts: the "pthp"
# column).  Then bench/requests.sh counts the FUSE requests each workload
# makes per operation, by type (BENCH_REQUESTS=off: not).
#
# Environment: BENCH_FILES (10000), BENCH_SEQ_MIB (1024), BENCH_RUNS (3),
# BENCH_WRITES (50000), BENCH_ONLY (small-write: only the small writes),
# BENCH_DIR (a directory on the filesystem to test, default /var/tmp),
# BENCH_ALT (another smackfuse binary: adds an "alt" column, enforcing
# over /dev/fuse as the enforce column is,
# and alt/enf, to compare a change side by side), BENCH_URING (off: no
# uring column), BENCH_PERUSER (off: no per-user columns), BENCH_PTHP
# (the path of a passthrough_hp binary; none is built here).  The uring column needs a kernel with FUSE over io_uring
# (6.14+): the fuse module's enable_uring is turned on for the run and
# put back as it was on exit; without it the column is left out.
# Run as root.  `make bench` runs it.
set -u
BUILD=$(cd "${1:-.}" && pwd)
FILES=${BENCH_FILES:-10000}
MIB=${BENCH_SEQ_MIB:-1024}
RUNS=${BENCH_RUNS:-3}
WRITES=${BENCH_WRITES:-50000}
ONLY=${BENCH_ONLY:-}
BASE=${BENCH_DIR:-/var/tmp}
SMACKFUSE=$BUILD/smackfuse
ALT=${BENCH_ALT:-}
[ -x "$SMACKFUSE" ] || SMACKFUSE=$BUILD/src/fuse/smackfuse
FSB=$BUILD/bench/fsbench
[ "$(id -u)" = 0 ] || { echo "fs.sh: run as root" >&2; exit 1; }
[ -x "$SMACKFUSE" ] && [ -x "$FSB" ] || { echo "fs.sh: build first" >&2; exit 1; }
command -v bindfs >/dev/null || { echo "fs.sh: apt-get install bindfs" >&2; exit 1; }

UR_PARAM=/sys/module/fuse/parameters/enable_uring
UR_ORIG=
URING=
if [ "${BENCH_URING:-auto}" != off ] && [ -w "$UR_PARAM" ]; then
	UR_ORIG=$(cat "$UR_PARAM")
	echo Y >"$UR_PARAM" && URING=uring
fi
T=$(mktemp -d "$BASE/smackfuse-bench.XXXXXX")
PERUSER=
[ "${BENCH_PERUSER:-on}" = off ] ||
	PERUSER="peruser pu-nopt${URING:+ pu-uring}${ALT:+ pu-alt}"
PTHP=${BENCH_PTHP:-}
CONFIGS="native enforce${URING:+ uring} checks-off bindfs nopt${ALT:+ alt}${PERUSER:+ $PERUSER}${PTHP:+ pthp}"
cleanup() {
	local c
	for c in $CONFIGS; do
		fusermount3 -u "$T/mnt-$c" 2>/dev/null
		fusermount3 -u "$T/ctl-$c" 2>/dev/null
	done
	rm -rf "$T"
	[ -z "$UR_ORIG" ] || echo "$UR_ORIG" >"$UR_PARAM"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
mkdir -p "$T/rules" "$T/res"
: >"$T/rules/empty"
echo '* _' >"$T/users"
echo '* %u' >"$T/users.pu"

drop() { sync; echo 3 >/proc/sys/vm/drop_caches; }

# sf BINARY SRC MNT [OPTION...]: smackfuse as every column runs it (the
# users map: $MAP, "* _" unless a per-user column sets it).
sf() {
	"$1" --rules "$T/rules" -o subject=users -o users="${MAP:-$T/users}" \
		"${@:4}" "$2" "$3"
}

# mount_cfg CONFIG SRC MNT: mount SRC on MNT as CONFIG wants.
mount_cfg() {
	case $1 in
	native) return 0 ;;
	enforce) sf "$SMACKFUSE" "$2" "$3" -o uring=off ;;
	uring|pu-uring) MAP=$([ "$1" = uring ] || echo "$T/users.pu") \
		sf "$SMACKFUSE" "$2" "$3" -o uring=auto \
		-o control="$T/ctl-$1" && uring_check "$3" "$1" ;;
	peruser) MAP=$T/users.pu sf "$SMACKFUSE" "$2" "$3" -o uring=off ;;
	pu-nopt) MAP=$T/users.pu sf "$SMACKFUSE" "$2" "$3" -o uring=off \
		-o passthrough=off ;;
	pu-alt) MAP=$T/users.pu sf "$ALT" "$2" "$3" -o uring=off ;;
	pthp) "$PTHP" "$2" "$3" ;;
	checks-off) sf "$SMACKFUSE" "$2" "$3" -o checks=off -o uring=off ;;
	nopt) sf "$SMACKFUSE" "$2" "$3" -o passthrough=off -o uring=off ;;
	alt) sf "$ALT" "$2" "$3" -o uring=off ;;
	bindfs) bindfs -o allow_other "$2" "$3" ;;
	esac
}
# The uring column must really use it (status: transport).  A request
# to MNT waits for the kernel's INIT, which chooses the transport.
uring_check() {	# MNT CONFIG
	local tr
	stat "$1" >/dev/null
	tr=$(sed -n 's/^transport: //p' "$T/ctl-$2/status")
	case $tr in
	io_uring*) return 0 ;;
	esac
	echo "fs.sh: the uring column is not on io_uring: $tr" >&2
	return 1
}
# dir CONFIG: the directory its workloads run in.
dir() { [ "$1" = native ] && echo "$T/src-$1" || echo "$T/mnt-$1"; }

# rec CONFIG [NAME]: append fsbench's "phase seconds" lines to the
# results (under NAME instead of the phase's own name, if given).
rec() {
	local cfg=$1 phase secs
	while read -r phase secs; do
		echo "$secs" >>"$T/res/$cfg.${2:-$phase}"
	done
}

# fsb CONFIG CPUNAME ARGS...: fsbench ARGS in CONFIG's directory.  The
# daemon's CPU time (user + system, clock ticks) over the run is added
# to the results as CPUNAME.cpu: a measure the host's load disturbs less.
declare -A PID
fsb() {
	local c=$1 name=$2 before after
	shift 2
	[ -n "${PID[$c]:-}" ] && before=$(cpu "${PID[$c]}")
	"$FSB" "$(dir "$c")" "$@"
	[ -n "${PID[$c]:-}" ] || return 0
	after=$(cpu "${PID[$c]}")
	echo $((after - before)) >>"$T/res/$c.$name.cpu"
}
cpu() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# Every configuration is mounted at once, and each workload runs on all of
# them back to back, in an order that rotates with the run: the host's
# load of the moment weighs on every column alike.
set -- $CONFIGS
for run in $(seq "$RUNS"); do
	order="$*"
	for c in $CONFIGS; do
		mkdir -p "$T/src-$c" "$T/mnt-$c"
		mount_cfg "$c" "$T/src-$c" "$T/mnt-$c" ||
			{ echo "fs.sh: $c did not mount" >&2; exit 1; }
		[ "$c" = native ] ||
			PID[$c]=$(pgrep -f -- " $T/mnt-$c\$" | head -n 1)
	done
	for c in $order; do
		case $c in peruser|pu-*|pthp) continue ;; esac
		for size in 4 512; do
			fsb "$c" "small-write-$size" small-write "$WRITES" \
				"$size" | rec "$c"
		done
	done
	if [ "$ONLY" = small-write ]; then
		for c in $CONFIGS; do
			[ "$c" = native ] || fusermount3 -u "$T/mnt-$c"
			rm -rf "$T/src-$c"
		done
		set -- "${@:2}" "$1"
		continue
	fi
	order=$(echo $order | tr ' ' '\n' | grep -vx nopt | tr '\n' ' ')
	for c in $order; do fsb "$c" meta meta "$FILES" 100 | rec "$c"; done
	for c in $order; do fsb "$c" setup small-setup "$FILES" >/dev/null; done
	for c in $order; do fsb "$c" seq-write seq-write "$MIB" | rec "$c"; done
	for c in $order; do
		drop
		fsb "$c" small-read-cold small-read "$FILES" |
			rec "$c" small-read-cold
		fsb "$c" small-read-warm small-read "$FILES" |
			rec "$c" small-read-warm
	done
	for c in $order; do
		drop
		fsb "$c" seq-read-cold seq-read "$MIB" | rec "$c" seq-read-cold
		fsb "$c" seq-read-warm seq-read "$MIB" | rec "$c" seq-read-warm
	done
	for c in $CONFIGS; do
		[ "$c" = native ] || fusermount3 -u "$T/mnt-$c"
		rm -rf "$T/src-$c"
	done
	set -- "${@:2}" "$1"
done

median() { sort -g "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

small_table() {
	local ph n e u p b
	printf '\nsmall writes: %d writes each, median of %d runs; seconds and ratios\n\n' \
		"$WRITES" "$RUNS"
	printf '%-16s %9s %9s %9s %9s %9s | %8s %8s %8s %8s %8s' workload \
		native enforce uring nopt bindfs enf/nat enf/bind ur/nat \
		ur/bind nopt/bind
	[ -z "$ALT" ] && echo || printf ' | %9s %8s\n' alt alt/nat
	for ph in small-write-4 small-append-4 small-write-512 \
		small-append-512; do
		n=$(median "$T/res/native.$ph")
		e=$(median "$T/res/enforce.$ph")
		u=-
		[ -z "$URING" ] || u=$(median "$T/res/uring.$ph")
		p=$(median "$T/res/nopt.$ph")
		b=$(median "$T/res/bindfs.$ph")
		awk -v ph="$ph" -v n="$n" -v e="$e" -v u="$u" -v p="$p" \
			-v b="$b" 'BEGIN {
			printf "%-16s %9.3f %9.3f %9s %9.3f %9.3f | %8.2f %8.2f",
				ph, n, e, u == "-" ? "-" : sprintf("%.3f", u),
				p, b, e / n, e / b
			if (u == "-") printf " %8s %8s", "-", "-"
			else printf " %8.2f %8.2f", u / n, u / b
			printf " %8.2f", p / b }'
		[ -z "$ALT" ] || awk -v n="$n" \
			-v a="$(median "$T/res/alt.$ph")" \
			'BEGIN { printf " | %9.3f %8.2f", a, a / n }'
		echo
	done
	echo
	echo "Issue 30 targets: enf/nat and ur/nat <= 1.50; enf/bind, ur/bind and nopt/bind <= 1.00."
}
if [ "$ONLY" = small-write ]; then
	small_table
	exit 0
fi

# The per-user columns (issue 29) against one label ("enforce"), bindfs
# and passthrough_hp; "-" for a column not run.
peruser_table() {
	local ph e b p u r x a
	[ -n "$PERUSER" ] || return 0
	printf '\nper user ("* %%u"), median of %d runs; seconds and ratios\n\n' "$RUNS"
	printf '%-16s %9s %9s %9s %9s %9s | %8s %8s %8s %8s %8s | %9s %8s | %9s %8s\n' \
		workload enforce peruser pu-uring bindfs pthp pu/enf pu/bind \
		pu/pthp pur/bind pur/pthp pu-nopt pun/bind pu-alt pu/alt
	for ph in create stat unlink small-read-cold small-read-warm \
		seq-write seq-read-cold seq-read-warm; do
		e=$(median "$T/res/enforce.$ph")
		u=$(median "$T/res/peruser.$ph")
		b=$(median "$T/res/bindfs.$ph")
		r=-
		[ -z "$URING" ] || r=$(median "$T/res/pu-uring.$ph")
		p=-
		[ -z "$PTHP" ] || p=$(median "$T/res/pthp.$ph")
		x=$(median "$T/res/pu-nopt.$ph")
		a=-
		[ -z "$ALT" ] || a=$(median "$T/res/pu-alt.$ph")
		awk -v ph="$ph" -v e="$e" -v u="$u" -v r="$r" -v b="$b" \
			-v p="$p" -v x="$x" -v a="$a" '
			function f(x) { return x == "-" ? "-" : sprintf("%.3f", x) }
			function q(x, y) { return x == "-" || y == "-" ? "-" : sprintf("%.2f", x / y) }
			BEGIN { printf "%-16s %9.3f %9.3f %9s %9.3f %9s | %8.2f %8.2f %8s %8s %8s | %9.3f %8.2f | %9s %8s\n",
				ph, e, u, f(r), b, f(p), u / e, u / b, q(u, p),
				q(r, b), q(r, p), x, x / b, f(a), q(u, a) }'
	done
	echo
	echo "Issue 29 targets, per user: without the module stat <= 2.00 and every other row <= 1.30 (pu/bind); over io_uring every row <= 1.00 (pur/bind)."
}

printf '\nsmackfuse filesystem benchmark: %d files, %d MiB sequential, median of %d runs\n' \
	"$FILES" "$MIB" "$RUNS"
printf 'backing: %s (%s); seconds (lower is better) and ratios\n\n' "$BASE" \
	"$(df -T "$BASE" | awk 'NR == 2 { print $2 }')"
printf '%-16s %9s %9s %9s %9s | %8s %8s %8s' workload native enforce \
	checks-off bindfs enf/off enf/bind enf/nat
[ -z "$URING" ] || printf ' | %9s %8s %8s %8s' uring ur/bind ur/enf ur/nat
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
	[ -z "$URING" ] || awk -v e="$e" -v b="$b" -v n="$n" \
		-v u="$(median "$T/res/uring.$ph")" 'BEGIN {
		printf " | %9.3f %8.2f %8.2f %8.2f", u, u / b, u / e, u / n }'
	[ -z "$ALT" ] || awk -v e="$e" -v a="$(median "$T/res/alt.$ph")" \
		'BEGIN { printf " | %9.3f %8.2f", a, a / e }'
	echo
done
echo
echo "Targets: enf/off <= 1.10; enf/bind <= 1.00; for seq-*, native/enforce >= 0.80 (enf/nat <= 1.25)."
peruser_table
small_table
[ -n "$URING" ] || echo "(no uring column: BENCH_URING=off, or the kernel has no FUSE over io_uring)"
[ -z "$URING" ] || echo "Issue 19 targets: ur/bind <= 0.80 on create, stat, unlink, small-read-*; enf/bind <= 1.00 (create <= 1.20)."

hz=$(getconf CLK_TCK)
printf '\ndaemon CPU time (user + system, seconds), median of %d runs\n\n' "$RUNS"
printf '%-16s %9s %9s %9s | %8s %8s' workload enforce checks-off bindfs \
	enf/off enf/bind
[ -z "$URING" ] || printf ' | %9s %8s' uring ur/enf
echo
for ph in meta setup seq-write small-read-cold small-read-warm \
	seq-read-cold seq-read-warm; do
	e=$(median "$T/res/enforce.$ph.cpu")
	o=$(median "$T/res/checks-off.$ph.cpu")
	b=$(median "$T/res/bindfs.$ph.cpu")
	awk -v ph="$ph" -v e="$e" -v o="$o" -v b="$b" -v hz="$hz" 'BEGIN {
		printf "%-16s %9.2f %9.2f %9.2f | %8s %8s", ph, e / hz,
			o / hz, b / hz, o ? sprintf("%.2f", e / o) : "-",
			b ? sprintf("%.2f", e / b) : "-" }'
	[ -z "$URING" ] || awk -v e="$e" -v u="$(median "$T/res/uring.$ph.cpu")" \
		-v hz="$hz" 'BEGIN { printf " | %9.2f %8s", u / hz,
			e ? sprintf("%.2f", u / e) : "-" }'
	echo
done
echo "(meta = create + stat + unlink; setup = small-setup.  With passthrough"
echo "(status: passthrough: yes) no READ or WRITE reaches smackfuse; without"
echo "it, a warm pass is served from its kept page cache.)"

if [ "${BENCH_REQUESTS:-on}" != off ]; then
	echo
	BENCH_DIR=$BASE BENCH_PTHP=$PTHP bash "$(dirname "$0")/requests.sh" "$BUILD"
fi
