#!/bin/bash
# debian-kernel.sh - locate Debian's installed kernel for qemu guests.
#
#   debian-kernel.sh [vmlinux]   path of the uncompressed vmlinux (default)
#   debian-kernel.sh version     the ABI name, e.g. 6.1.0-57-amd64
#   debian-kernel.sh modules     /lib/modules/<version> (fuse.ko, build/)
#
# The version follows the linux-image-amd64 metapackage, so it matches
# linux-headers-amd64 and out-of-tree modules built against it load in the
# guest.  vmlinux is extracted once from /boot/vmlinuz-<version> into
# $SMACKFUSE_CACHE/qemu/<version>/ (default /var/cache/smackfuse): qemu boots
# that ELF through its PVH entry, which skips ~3 s of xz decompression under
# TCG.  Exit 2 with a message when a prerequisite is missing.
set -euo pipefail
CACHE=${SMACKFUSE_CACHE:-/var/cache/smackfuse}

die() { echo "debian-kernel: $*" >&2; exit 2; }

DEP=$(dpkg-query -W -f='${Depends}' linux-image-amd64 2>/dev/null) ||
	die "linux-image-amd64 not installed (apt-get install linux-image-amd64 linux-headers-amd64)"
K=$(printf '%s\n' "$DEP" | sed -nE 's/.*linux-image-([0-9][^ ,]*).*/\1/p')
[ -n "$K" ] || die "cannot read the kernel version from linux-image-amd64 ($DEP)"

case "${1:-vmlinux}" in
version) echo "$K"; exit 0 ;;
modules)
	[ -d "/lib/modules/$K" ] || die "/lib/modules/$K missing"
	echo "/lib/modules/$K"; exit 0 ;;
vmlinux) ;;
*) echo "usage: $0 [vmlinux|version|modules]" >&2; exit 2 ;;
esac

V=/boot/vmlinuz-$K
[ -r "$V" ] || die "$V missing (apt-get install --reinstall linux-image-$K)"
D=$CACHE/qemu/$K
OUT=$D/vmlinux
if [ ! -s "$OUT" ] || [ "$OUT" -ot "$V" ]; then
	command -v python3 >/dev/null || die "python3 missing (apt-get install python3)"
	mkdir -p "$D"
	exec 9>"$D/lock"
	flock 9
	if [ ! -s "$OUT" ] || [ "$OUT" -ot "$V" ]; then
		# bzImage = setup + xz stream; the stream decodes to the ELF.
		python3 - "$V" "$OUT.tmp" <<'PY' || die "cannot extract vmlinux from $V"
import lzma, sys
data = open(sys.argv[1], 'rb').read()
at = data.find(b'\xfd7zXZ\x00')
if at < 0:
    sys.exit('no xz stream in ' + sys.argv[1])
elf = lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(data[at:])
if elf[:4] != b'\x7fELF':
    sys.exit('decompressed payload is not an ELF')
open(sys.argv[2], 'wb').write(elf)
PY
		mv "$OUT.tmp" "$OUT"
	fi
fi
echo "$OUT"
