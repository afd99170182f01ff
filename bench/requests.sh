#!/bin/bash
# requests.sh [BUILD_DIR] - FUSE requests per operation, by type (issue
# 29): what each of bench/fs.sh's workloads asks of the daemon, for
# smackfuse with one label for every caller ("one": the users map "* _"),
# with a label per user ("peruser": "* %u"; the bench runs as root, whose
# label is then "root", on files it made itself under an unlabelled "_"
# root), the same over io_uring ("pu-uring", where the kernel has it), and
# for bindfs and passthrough_hp (BENCH_PTHP: the path of libfuse's
# example, built by you; left out without it).
#
# Phases, on BENCH_REQ_FILES files (1000) in 100 directories, as fsbench
# makes them: create (open O_CREAT|O_EXCL, close), stat after the 1 s
# caches have run out, stat again at once, unlink after they ran out,
# small-setup (create and write 4 KiB), small-read cold (after
# drop_caches) and warm (open, read 4 KiB, close).
#
# Counted: smackfuse's by its status file ("requests:", reqcount.c); the
# others' by the kernel's fuse_request_send tracepoint (Linux 6.16 and
# later; tracefs is mounted if it is not), filtered on the mount's
# connection, "-" where the kernel has none.  FORGET and BATCH_FORGET
# are left out (the kernel sends them when it drops inodes, to no
# caller); RELEASE is counted, though the caller does not wait for it.
# Prints per phase and configuration the requests per operation and
# their types.  Run as root.
set -u
BUILD=$(cd "${1:-.}" && pwd)
N=${BENCH_REQ_FILES:-1000}
BASE=${BENCH_DIR:-/var/tmp}
PTHP=${BENCH_PTHP:-}
SMACKFUSE=$BUILD/smackfuse
[ -x "$SMACKFUSE" ] || SMACKFUSE=$BUILD/src/fuse/smackfuse
FSB=$BUILD/bench/fsbench
[ "$(id -u)" = 0 ] || { echo "requests.sh: run as root" >&2; exit 1; }
[ -x "$SMACKFUSE" ] && [ -x "$FSB" ] || { echo "requests.sh: build first" >&2; exit 1; }

TR=/sys/kernel/tracing
[ -d "$TR/events" ] || mount -t tracefs nodev "$TR" 2>/dev/null
TI=
if [ -d "$TR/events/fuse/fuse_request_send" ]; then
	TI=$TR/instances/smackfuse-requests.$$
	mkdir "$TI" 2>/dev/null || TI=
fi
UR_PARAM=/sys/module/fuse/parameters/enable_uring
UR_ORIG=
URING=
if [ "${BENCH_URING:-auto}" != off ] && [ -w "$UR_PARAM" ]; then
	UR_ORIG=$(cat "$UR_PARAM")
	echo Y >"$UR_PARAM" && URING=pu-uring
fi
CONFIGS="one peruser${URING:+ $URING} bindfs${PTHP:+ pthp}"
T=$(mktemp -d "$BASE/smackfuse-requests.XXXXXX")
cleanup() {
	local c
	for c in $CONFIGS; do
		fusermount3 -u "$T/mnt-$c" 2>/dev/null
		fusermount3 -u "$T/ctl-$c" 2>/dev/null
	done
	[ -z "$TI" ] || rmdir "$TI"
	[ -z "$UR_ORIG" ] || echo "$UR_ORIG" >"$UR_PARAM"
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
mkdir -p "$T/rules"
: >"$T/rules/empty"
echo '* _' >"$T/users.one"
echo '* %u' >"$T/users.pu"

mount_cfg() {	# CONFIG SRC MNT
	local map=pu ur=off
	case $1 in
	one) map=one ;;
	pu-uring) ur=auto ;;
	bindfs) bindfs -o allow_other "$2" "$3"; return ;;
	pthp) "$PTHP" "$2" "$3"; return ;;
	esac
	"$SMACKFUSE" --rules "$T/rules" -o subject=users \
		-o users="$T/users.$map" -o uring=$ur -o control="$T/ctl-$1" \
		"$2" "$3" 2>/dev/null
}

# counts CONFIG: "TYPE N" lines, every request of the mount so far
# (smackfuse), or since the last call (the tracepoint: read and cleared).
counts() {
	if [ -f "$T/ctl-$1/status" ]; then
		sed -n 's/^requests: //p' "$T/ctl-$1/status" | tr ' ' '\n' |
			paste -d ' ' - -
	elif [ -n "$TI" ]; then
		grep -o 'opcode [0-9]* ([A-Z_]*)' "$TI/trace" |
			sed 's/.*(FUSE_\(.*\))/\1/' | sort | uniq -c |
			awk '{ print $2, $1 }'
		echo >"$TI/trace"
	fi
}

# delta BEFORE AFTER: "TOTAL/op: TYPE n/op ..." (FORGETs left out).
delta() {
	awk -v n="$N" -v smack="$3" '
		FILENAME == ARGV[1] { b[$1] = $2; next }
		$1 !~ /FORGET|INIT/ {
			d = $2 - (smack ? b[$1] : 0)
			if (d / n >= 0.005) s = s sprintf(" %s %.2f", $1, d / n)
			if (d > 0) t += d
		}
		END { printf "%5.2f:%s\n", t / n, s }' "$1" "$2"
}

# phase CONFIG NAME ARGS...: fsbench ARGS on CONFIG's mount, counted.
phase() {
	local c=$1 name=$2 smack=0
	shift 2
	[ -f "$T/ctl-$c/status" ] && smack=1
	counts "$c" >"$T/before"
	"$FSB" "$T/mnt-$c" "$@" >/dev/null || echo "requests.sh: $c $name failed" >&2
	sleep 0.3	# the RELEASEs of the last files
	counts "$c" >"$T/after"
	if [ $smack = 0 ] && [ -z "$TI" ]; then
		echo "$c $name -"
	else
		echo "$c $name $(delta "$T/before" "$T/after" $smack)"
	fi
}

for c in $CONFIGS; do
	mkdir -p "$T/src-$c" "$T/mnt-$c"
	mount_cfg "$c" "$T/src-$c" "$T/mnt-$c" ||
		{ echo "requests.sh: $c did not mount" >&2; exit 1; }
	stat "$T/mnt-$c" >/dev/null
	if [ -n "$TI" ] && [ ! -f "$T/ctl-$c/status" ]; then
		echo "connection == $(stat -c '%Hd %Ld' "$T/mnt-$c" |
			awk '{ print $1 * 1048576 + $2 }')" \
			>"$TI/events/fuse/fuse_request_send/filter"
		echo 1 >"$TI/events/fuse/fuse_request_send/enable"
		echo >"$TI/trace"
	fi
	"$FSB" "$T/mnt-$c" create 1 >/dev/null	# the 100 directories
	"$FSB" "$T/mnt-$c" unlink 1 >/dev/null
	sleep 1.1
	{
		phase "$c" create create "$N"
		sleep 1.1
		phase "$c" stat stat "$N"
		phase "$c" stat-again stat "$N"
		sleep 1.1
		phase "$c" unlink unlink "$N"
		phase "$c" small-setup small-setup "$N"
		sync
		echo 3 >/proc/sys/vm/drop_caches
		phase "$c" read-cold small-read "$N"
		phase "$c" read-warm small-read "$N"
	} >>"$T/table"
	[ -z "$TI" ] || echo 0 >"$TI/events/fuse/fuse_request_send/enable"
	fusermount3 -u "$T/mnt-$c"
	fusermount3 -u "$T/ctl-$c" 2>/dev/null
done

printf 'FUSE requests per operation, %d files in 100 directories (kernel %s)\n' "$N" "$(uname -r)"
echo "total: requests of each type per operation (FORGETs left out)"
for ph in create stat stat-again unlink small-setup read-cold read-warm; do
	echo
	echo "$ph"
	awk -v ph="$ph" '$2 == ph { printf "  %-10s %s\n", $1, substr($0, index($0, $3)) }' "$T/table"
done
