#!/bin/bash
# qemu-run.sh - boot a kernel in qemu (TCG) with guest tests; print TAP.
#
#   qemu-run.sh [options] TEST.sh...
#     -k debian|trixie|trixie-backports|smack|PATH
#                           kernel: Debian 12's installed kernel (default),
#                           Debian 13's, the newest Debian kernel (7.x from
#                           trixie-backports; both see debian-kernel.sh), the
#                           Smack reference kernel (built once and cached,
#                           see smack-kernel.sh), or a vmlinux/bzImage path
#     -b/-l/-m/-f/-K/--fuse files for the guest, as in mkinitramfs.sh
#     -a ARGS               extra kernel command line
#     -t SECS               whole-run timeout (default 300, env SFQ_TIMEOUT)
#     --mem SIZE --smp N    guest memory (512M) and CPUs (2)
#     --tcg-thread single|multi  TCG threading (default multi: one host
#                           thread per vCPU).  single runs the vCPUs in
#                           turn on one thread; use it for guests that
#                           patch kernel text at run time (kprobes, ftrace):
#                           with multi, qemu 7.2 can translate code that
#                           another vCPU is rewriting and keep running that
#                           stale translation (see tests/kmod/cycle.test)
#     --icount              guest time counts instructions (qemu -icount
#                           shift=0, single-threaded TCG only): a guest's
#                           timings no longer depend on the host's load
#                           (for benchmarks: bench/kmod-path.sh; with
#                           --smp 1: Debian's 6.1 hangs bringing up a
#                           second CPU under it)
#     --net SOCKOPTS,MAC    one virtio NIC (eth0) with MAC on qemu's socket
#                           netdev SOCKOPTS: listen=127.0.0.1:PORT or
#                           connect=127.0.0.1:PORT, the wire between two
#                           guests (tests/net/twohost.sh)
#     --name NAME           prefix of the TAP descriptions (default: kernel)
#     --no-plan             omit the trailing "1..N" (the caller adds its own
#                           points and plan; see tap.sh)
#     --channel FILE        save the guest's channel lines ("SFQ:<name>: <line>"
#                           and markers) to FILE; guest lines starting with
#                           "@" are data for the caller and are not echoed
#
# Each TEST.sh runs in the guest as /tests/<name>.sh, in order, under
# busybox sh with /proc, /sys, /dev, securityfs, debugfs and /tmp mounted.
# Its ok/not ok lines become host TAP points "<name>: ..." (renumbered);
# other lines become "#" comments.  Besides the guest's own points the
# runner reports: the kernel reached /init; each script exited 0 (and ran
# as many points as its plan said); the guest left qemu after the last
# script.  A boot that fails, hangs or loses a marker is "not ok", never a
# pass.  Exit status: 0 if every point passed, 1 otherwise, 2 on usage.
#
# Logs (console.log = ttyS0 with kernel messages, tap.log = ttyS1 channel)
# and the initramfs live in a temporary directory that is removed on
# success; on failure it is kept and named, and the console tail is shown.
# SFQ_KEEP=1 keeps it always, SFQ_KEEP=0 never.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)

KSEL=debian
TMO=${SFQ_TIMEOUT:-300}
MEM=512M
SMP=2
TCGT=multi
ICOUNT=()
NIC=()
APPEND=
PLAN=1
NAME=
CHANNEL=
MK=()
NAMES=()
usage() { sed -n '2,37s/^# \{0,1\}//p' "$0" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case "$1" in
	-k) KSEL=$2; shift 2 ;;
	-a) APPEND="$APPEND $2"; shift 2 ;;
	-t) TMO=$2; shift 2 ;;
	--mem) MEM=$2; shift 2 ;;
	--smp) SMP=$2; shift 2 ;;
	--tcg-thread) TCGT=$2; shift 2 ;;
	--icount) ICOUNT=(-icount shift=0); shift ;;
	--net) NIC=(-netdev "socket,id=n0,${2%,*}" -device "virtio-net-pci,netdev=n0,mac=${2##*,}")
		shift 2 ;;
	--name) NAME=$2; shift 2 ;;
	--no-plan) PLAN=0; shift ;;
	--channel) CHANNEL=$2; shift 2 ;;
	-b|-l|-m|-f|-K) MK+=("$1" "$2"); shift 2 ;;
	--fuse) MK+=("$1"); shift ;;
	-h|--help) usage ;;
	-*) echo "qemu-run: unknown option $1" >&2; usage ;;
	*) MK+=("$1"); NAMES+=("$(basename "$1" .sh)"); shift ;;
	esac
done
[ ${#NAMES[@]} -gt 0 ] || usage
case "$TCGT" in single|multi) ;; *) usage ;; esac
[ -n "$NAME" ] || NAME=$KSEL
case "$NAME" in */*) NAME=$(basename "$NAME") ;; esac

# Every point goes through emit, which also records it, so the plan and
# the exit status add up (emit runs in pipelines, i.e. in subshells).
PTS=$(mktemp)
emit() { tee -a "$PTS"; }
finish() {
	local n f
	n=$(grep -cE '^(not )?ok' "$PTS")
	f=$(grep -c '^not ok' "$PTS")
	rm -f "$PTS"
	[ "$PLAN" = 1 ] && echo "1..$n"
	[ "$f" = 0 ]
	exit $?
}
skip_all() {
	if [ "$PLAN" = 1 ]; then echo "1..0 # SKIP $*"; exit 0; fi
	echo "ok - $NAME: # SKIP $*" | emit
	finish
}

command -v qemu-system-x86_64 >/dev/null ||
	skip_all "qemu-system-x86_64 missing (apt-get install qemu-system-x86)"
# A kernel module for the guest that was not built: configure found no
# kernel headers it can build smackfuse.ko for (then neither are the
# static helpers that go with it).  The test says so instead of failing.
for ((i = 0; i < ${#MK[@]}; i++)); do
	if [ "${MK[i]}" = -m ] && [ ! -e "${MK[i + 1]}" ]; then
		skip_all "${MK[i + 1]##*/} not built (configure found no kernel headers it can build for)"
	fi
done
# debian, trixie and trixie-backports are Debian 12's, 13's and the newest
# Debian kernel (debian-kernel.sh); the initramfs takes that kernel's fuse.ko.
KCMD=("$HERE/$KSEL-kernel.sh")
case "$KSEL" in
trixie|trixie-backports)
	export SF_KERNEL_RELEASE=$KSEL
	KCMD=("$HERE/debian-kernel.sh" -r "$KSEL") ;;
debian) export SF_KERNEL_RELEASE=bookworm ;;
esac
case "$KSEL" in
debian|smack|trixie|trixie-backports)
	KERR=$(mktemp)
	KERNEL=$("${KCMD[@]}" 2>"$KERR")
	krc=$?
	if [ $krc = 2 ]; then
		skip_all "$(tail -n 1 "$KERR")"
	elif [ $krc != 0 ]; then
		sed 's/^/# /' "$KERR"
		echo "not ok - $NAME: kernel $KSEL unavailable" | emit
		rm -f "$KERR"
		finish
	fi
	rm -f "$KERR"
	;;
*) KERNEL=$KSEL ;;
esac

WD=$(mktemp -d "${TMPDIR:-/tmp}/sfq-qemu.XXXXXX")
if ! "$HERE/mkinitramfs.sh" -o "$WD/initramfs.cpio" "${MK[@]}" 2>"$WD/mk.err"; then
	sed 's/^/# /' "$WD/mk.err"
	echo "not ok - $NAME: initramfs built" | emit
	finish
fi

GTMO=$((TMO > 60 ? TMO - 20 : TMO))
LIST=$(IFS=,; echo "${NAMES[*]}")
# no_timer_check: on a loaded host TCG can miss the IO-APIC timer check
# and the kernel panics ("IO-APIC + timer doesn't work!") before /init.
boot() {
	timeout -k 5 "$TMO" qemu-system-x86_64 -accel "tcg,thread=$TCGT" -cpu max \
		-m "$MEM" -smp "$SMP" "${ICOUNT[@]}" "${NIC[@]}" -nodefaults -display none -no-reboot \
		-serial "file:$WD/console.log" -serial "file:$WD/tap.log" \
		-kernel "$KERNEL" -initrd "$WD/initramfs.cpio" \
		-append "console=ttyS0 panic=-1 loglevel=4 no_timer_check sfq_tests=$LIST sfq_timeout=$GTMO$APPEND" \
		</dev/null >"$WD/qemu.out" 2>&1
}
T0=$(date +%s.%N)
boot
QRC=$?
# A kernel that dies before /init ran none of the code under test: one
# more try, said aloud.  A second failure is reported as not ok below.
if ! grep -qa '^SFQ-BOOT' "$WD/tap.log" "$WD/console.log" 2>/dev/null; then
	echo "# $NAME: the kernel did not reach /init (qemu rc=$QRC); console tail:"
	tr -d '\r' <"$WD/console.log" | tail -n 5 | sed 's/^/#   /'
	echo "# $NAME: booting once more"
	T0=$(date +%s.%N)
	boot
	QRC=$?
fi
T1=$(date +%s.%N)
WALL=$(awk -v a="$T0" -v b="$T1" 'BEGIN { printf "%.1f", b - a }')

# The channel is ttyS1; a guest without it wrote to the console instead.
CH=$WD/tap.log
grep -q '^SFQ-BOOT' "$CH" 2>/dev/null || CH=$WD/console.log
echo "# $NAME: qemu rc=$QRC wall=${WALL}s kernel=$KERNEL"
tr -d '\r' <"$CH" | grep -a '^SFQ' >"$WD/channel"
# The guest reboots right after its last line; a UART not yet drained can
# lose it from the channel (seen once in CI), not from the console, where
# init writes it too.
if ! grep -q '^SFQ-DONE' "$WD/channel"; then
	tr -d '\r' <"$WD/console.log" | grep -a '^SFQ-DONE' | tail -n 1 >>"$WD/channel"
fi
[ -z "$CHANNEL" ] || cp "$WD/channel" "$CHANNEL"
awk -v name="$NAME" -v tests="$LIST" \
	-v qrc="$QRC" -f "$HERE/tap-extract.awk" "$WD/channel" | emit

if grep -q "^not ok" "$PTS"; then
	echo "# $NAME: last console lines:"
	sed -n '1,3p' "$WD/qemu.out" | sed 's/^/#   qemu: /'
	tr -d '\r' <"$WD/console.log" | tail -n 40 | sed 's/^/#   /'
	if [ "${SFQ_KEEP:-}" = 0 ]; then rm -rf "$WD"
	else echo "# $NAME: logs kept in $WD"; fi
elif [ "${SFQ_KEEP:-0}" = 1 ]; then
	echo "# $NAME: logs kept in $WD"
else
	rm -rf "$WD"
fi
finish
