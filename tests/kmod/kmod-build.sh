#!/bin/bash
# kmod-build.sh - smackfuse.ko for a Debian kernel that a module lane boots
# besides the host's own (tests/kmod/lane.sh), built in the trixie build
# root.  src/kmod/local.mk runs it before the tests (make kmod-lanes).
#
#   kmod-build.sh RELEASE DIR
#
# RELEASE is trixie (Debian 13's kernel) or trixie-backports (the newest
# Debian kernel), as tests/qemu/debian-kernel.sh names them; DIR/src holds
# the module's source as kbuild wants it (SF_KMOD_STAGE, copies keeping
# their times).  The kernel's headers are installed into the trixie build
# root (debian-kernel.sh headers) and kbuild runs there: Debian's kbuild
# tools for these kernels are built for trixie's libc and gcc 14.
#
# DIR ends with exactly one of:
#   smackfuse.ko (and version, the kernel it was built for)
#   SKIP    one line: why it cannot be built here (no build root, no
#           download, a kernel series release.h does not serve)
#   FAILED  the build's log: the module does not build for a kernel it
#           serves (the lanes report it as a failure)
# Nothing is rebuilt when smackfuse.ko is newer than every source file and
# was built for the kernel that RELEASE names now.  Exit 0 in all three
# cases (the lanes turn them into TAP), 2 on usage.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
[ $# = 2 ] || { sed -n '2,22p' "$0" >&2; exit 2; }
REL=$1
DIR=$2
case "$REL" in trixie|trixie-backports) ;; *) echo "kmod-build: unknown release $REL" >&2; exit 2 ;; esac
[ -f "$DIR/src/Kbuild" ] || { echo "kmod-build: no staged source in $DIR/src" >&2; exit 2; }

skip() {
	rm -f "$DIR/smackfuse.ko" "$DIR/version" "$DIR/FAILED"
	echo "$*" >"$DIR/SKIP"
	echo "kmod-build: $REL: SKIP: $*" >&2
	exit 0
}

# failed WHAT: a step that should have worked did not (debian-kernel.sh
# exit 1: a download or an extraction); the lanes fail, with the reason.
failed() {
	rm -f "$DIR/smackfuse.ko" "$DIR/version" "$DIR/SKIP"
	{ cat "$ERR"; echo "$*"; } >"$DIR/FAILED"
	echo "kmod-build: $REL: FAILED: $*" >&2
	exit 0
}

ERR=$(mktemp)
trap 'rm -f "$ERR"' EXIT
K=$("$HERE/../qemu/debian-kernel.sh" -r "$REL" version 2>"$ERR")
case $? in
0) ;;
2) skip "no $REL kernel: $(tail -n 1 "$ERR")" ;;
*) failed "the $REL kernel could not be fetched" ;;
esac
[ -n "$K" ] || skip "no $REL kernel (debian-kernel.sh printed no version)"

if [ -f "$DIR/smackfuse.ko" ] && [ "$(cat "$DIR/version" 2>/dev/null)" = "$K" ] &&
	[ -z "$(find "$DIR/src" -type f -newer "$DIR/smackfuse.ko" -print -quit)" ]; then
	exit 0
fi

HD=$("$HERE/../qemu/debian-kernel.sh" -r "$REL" headers 2>"$ERR")
case $? in
0) ;;
2) skip "no headers for $K: $(tail -n 1 "$ERR")" ;;
*) failed "the headers of $K could not be installed" ;;
esac

echo "kmod-build: smackfuse.ko for $K ($REL) in the trixie build root" >&2
rm -f "$DIR/smackfuse.ko" "$DIR/version" "$DIR/SKIP" "$DIR/FAILED"
LOG=$DIR/build.log
if ! SF_CHROOT_SRC=$DIR/src "$HERE/../release/chroot.sh" trixie run \
	make -C "$HD" M=/src modules >"$LOG" 2>&1; then
	# release.h refuses a series it was not written for: not ours to fail.
	if grep -q 'smackfuse.ko serves Linux' "$LOG"; then
		skip "smackfuse.ko does not serve $K, the kernel $REL has now: $(grep -o 'serves Linux [^:]*' "$LOG" | head -n 1)"
	fi
	mv "$LOG" "$DIR/FAILED"
	echo "kmod-build: $REL: the build for $K FAILED (log: $DIR/FAILED)" >&2
	exit 0
fi
if grep -qi 'warning' "$LOG"; then
	mv "$LOG" "$DIR/FAILED"
	echo "kbuild warnings (above)" >>"$DIR/FAILED"
	echo "kmod-build: $REL: kbuild warnings for $K (log: $DIR/FAILED)" >&2
	exit 0
fi
echo "$K" >"$DIR/version"
cp "$DIR/src/smackfuse.ko" "$DIR/smackfuse.ko"
