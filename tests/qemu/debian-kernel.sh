#!/bin/bash
# debian-kernel.sh - locate a Debian kernel for qemu guests.
#
#   debian-kernel.sh [-r RELEASE] [vmlinux]   path of the uncompressed vmlinux
#   debian-kernel.sh [-r RELEASE] version     the ABI name, e.g. 6.1.0-57-amd64
#   debian-kernel.sh [-r RELEASE] modules     .../lib/modules/<version>
#   debian-kernel.sh [-r RELEASE] headers     the headers' build tree (see below)
#
# RELEASE (or $SF_KERNEL_RELEASE) says which Debian kernel:
#  - bookworm (the default): the host's installed linux-image-amd64 (Debian
#    12's 6.1), so linux-headers-amd64 matches it and out-of-tree modules
#    built against it load in the guest;
#  - trixie: Debian 13's linux-image-amd64 (6.12);
#  - trixie-backports: the newest kernel Debian 13 gets (7.x).
# The trixie kernels are downloaded with apt in the trixie build root
# (tests/release/chroot.sh) and unpacked with dpkg-deb -x under
# $SMACKFUSE_CACHE/qemu/<version>/pkg/ (default /var/cache/smackfuse).  Their
# "headers" are installed in that build root (kbuild's host tools are built
# for Debian 13's libc, so modules for them are built inside it); the path
# printed is the one inside the root (/usr/src/linux-headers-<version>).
# For bookworm it is /usr/src/linux-headers-<version> on the host.
#
# vmlinux is extracted once from vmlinuz into $SMACKFUSE_CACHE/qemu/<version>/:
# qemu boots that ELF through its PVH entry, which skips ~3 s of
# decompression under TCG.  Exit 2 with a message when a prerequisite is
# missing.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${SMACKFUSE_CACHE:-/var/cache/smackfuse}
REL=${SF_KERNEL_RELEASE:-bookworm}

# die: a prerequisite is missing (exit 2: the tests say SKIP and why);
# fail: a step that should have worked did not (exit 1: the tests fail).
die() { echo "debian-kernel: $*" >&2; exit 2; }
fail() { echo "debian-kernel: $*" >&2; exit 1; }

if [ "${1:-}" = -r ]; then
	[ $# -ge 2 ] || die "-r wants a release"
	REL=$2
	shift 2
fi
WHAT=${1:-vmlinux}
case "$WHAT" in
vmlinux|version|modules|headers) ;;
*) echo "usage: $0 [-r bookworm|trixie|trixie-backports] [vmlinux|version|modules|headers]" >&2; exit 2 ;;
esac

# In the trixie build root: the ABI name of the kernel that SUITE's
# linux-image-amd64 depends on.
trixie_version() {
	local suite=$1 dep
	dep=$("$HERE/../release/chroot.sh" trixie run sh -c \
		"apt-cache show linux-image-amd64/$suite 2>/dev/null |
		 sed -n 's/^Depends: //p' | head -n 1") ||
		die "no trixie build root (tests/release/chroot.sh trixie)"
	if [ -z "$dep" ]; then
		"$HERE/../release/chroot.sh" trixie run apt-get update -qq \
			>/dev/null 2>&1 || fail "apt-get update in the trixie root failed"
		dep=$("$HERE/../release/chroot.sh" trixie run sh -c \
			"apt-cache show linux-image-amd64/$suite |
			 sed -n 's/^Depends: //p' | head -n 1")
	fi
	printf '%s\n' "$dep" | tr ',' '\n' |
		sed -nE 's/^ *linux-image-([0-9][^ ]*-amd64).*/\1/p' | head -n 1
}

# Download and unpack the kernel's image and module packages into $1.
trixie_unpack() {
	local k=$1 d=$2 dl
	dl=$d/debs
	rm -rf "$dl" "$d/pkg.new"
	mkdir -p "$dl" "$d/pkg.new"
	# linux-image-K is the whole kernel on 6.12; from 7.x it depends on
	# linux-binary-K (the image) and linux-modules-K.
	SF_CHROOT_SRC=$dl "$HERE/../release/chroot.sh" trixie run sh -c '
		set -e
		k=$1
		pk="linux-image-$k"
		for p in $(apt-cache show "$pk" | sed -n "s/^Depends: //p" |
			head -n 1 | tr "," "\n" |
			sed -nE "s/^ *(linux-(base|binary|modules)-[^ ]+).*/\1/p"); do
			pk="$pk $p"
		done
		apt-get download $pk' sh "$k" >"$d/download.log" 2>&1 ||
		{ tail -n 5 "$d/download.log" >&2; fail "apt-get download of linux-image-$k failed"; }
	for deb in "$dl"/*.deb; do
		dpkg-deb -x "$deb" "$d/pkg.new" || fail "dpkg-deb -x $deb failed"
	done
	rm -rf "$dl" "$d/pkg"
	mv "$d/pkg.new" "$d/pkg"
}

case "$REL" in
bookworm)
	DEP=$(dpkg-query -W -f='${Depends}' linux-image-amd64 2>/dev/null) ||
		die "linux-image-amd64 not installed (apt-get install linux-image-amd64 linux-headers-amd64)"
	K=$(printf '%s\n' "$DEP" | sed -nE 's/.*linux-image-([0-9][^ ,]*).*/\1/p')
	[ -n "$K" ] || die "cannot read the kernel version from linux-image-amd64 ($DEP)"
	V=/boot/vmlinuz-$K
	M=/lib/modules/$K
	HD=/usr/src/linux-headers-$K
	;;
trixie|trixie-backports)
	K=$(trixie_version "$REL")
	[ -n "$K" ] || die "cannot find linux-image-amd64 in $REL"
	D=$CACHE/qemu/$K
	mkdir -p "$D"
	if [ ! -d "$D/pkg" ]; then
		exec 8>"$D/pkg.lock"
		flock 8
		[ -d "$D/pkg" ] || trixie_unpack "$K" "$D"
		exec 8>&-
	fi
	M=$D/pkg/lib/modules/$K
	[ -d "$M" ] || M=$D/pkg/usr/lib/modules/$K
	# 6.12 ships /boot/vmlinuz-K, 7.x the image beside its modules.
	V=$D/pkg/boot/vmlinuz-$K
	[ -e "$V" ] || V=$M/vmlinuz
	HD=/usr/src/linux-headers-$K
	;;
*) die "unknown release $REL (bookworm, trixie or trixie-backports)" ;;
esac

case "$WHAT" in
version) echo "$K"; exit 0 ;;
modules)
	[ -d "$M" ] || die "$M missing"
	echo "$M"; exit 0 ;;
headers)
	if [ "$REL" = bookworm ]; then
		[ -f "$HD/Makefile" ] || die "$HD missing (apt-get install linux-headers-$K)"
	else
		R=$("$HERE/../release/chroot.sh" trixie)
		if [ ! -f "$R$HD/Makefile" ]; then
			exec 8>"$R/../headers.lock"
			flock 8
			[ -f "$R$HD/Makefile" ] ||
				DEBIAN_FRONTEND=noninteractive "$HERE/../release/chroot.sh" \
					trixie run apt-get install -y --no-install-recommends \
					"linux-headers-$K" >&2 ||
				fail "apt-get install linux-headers-$K in the trixie root failed"
			exec 8>&-
		fi
	fi
	echo "$HD"; exit 0 ;;
esac

[ -r "$V" ] || die "$V missing (apt-get install --reinstall linux-image-$K)"
D=$CACHE/qemu/$K
OUT=$D/vmlinux
if [ ! -s "$OUT" ] || [ "$OUT" -ot "$V" ]; then
	command -v python3 >/dev/null || die "python3 missing (apt-get install python3)"
	# 6.1's image is xz (python's lzma), 6.12's and 7.x's zstd.
	[ "$REL" = bookworm ] || command -v zstd >/dev/null ||
		die "zstd missing, which $K's image needs (apt-get install zstd)"
	mkdir -p "$D"
	exec 9>"$D/lock"
	flock 9
	if [ ! -s "$OUT" ] || [ "$OUT" -ot "$V" ]; then
		# bzImage = setup + a compressed stream (xz on 6.1, zstd since);
		# the stream decodes to the ELF.
		python3 - "$V" "$OUT.tmp" <<'PY' || fail "cannot extract vmlinux from $V"
import lzma, subprocess, sys
data = open(sys.argv[1], 'rb').read()
elf = None
xz = data.find(b'\xfd7zXZ\x00')
zst = data.find(b'\x28\xb5\x2f\xfd')
if xz >= 0:
    elf = lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(data[xz:])
elif zst >= 0:
    # zstd stops at the end of the frame; what follows it is the setup's.
    r = subprocess.run(['zstd', '-dcq'], input=data[zst:],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    elf = r.stdout
if not elf or elf[:4] != b'\x7fELF':
    sys.exit('no xz or zstd stream that decodes to an ELF in ' + sys.argv[1])
open(sys.argv[2], 'wb').write(elf)
PY
		mv "$OUT.tmp" "$OUT"
	fi
fi
echo "$OUT"
