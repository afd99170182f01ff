#!/bin/bash
# run.sh - build kpstress.ko and run it in qemu (see README).
#   run.sh [multi|single] [mode 0|1] [rounds]   (KDIR: guest kernel headers)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
K=${KDIR:-/usr/src/linux-headers-$("$HERE/../../qemu/debian-kernel.sh" version)}
B=$(mktemp -d)
trap 'rm -rf "$B"' EXIT
cp "$HERE/kpstress.c" "$HERE/Kbuild" "$B/"
make -s -C "$K" M="$B" modules 2>&1 | grep -v "Skipping BTF" || true
[ -f "$B/kpstress.ko" ]
"$HERE/../../qemu/qemu-run.sh" --name kpstress -t 3000 \
	--tcg-thread "${1:-multi}" \
	-a "loglevel=4 kps_mode=${2:-0} kps_rounds=${3:-5}" \
	-m "$B/kpstress.ko" "$HERE/guest-kps.sh"
