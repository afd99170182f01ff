#!/bin/bash
# mkinitramfs.sh - build a guest initramfs (newc cpio, uncompressed).
#
#   mkinitramfs.sh -o OUT.cpio [options] [TEST.sh...]
#     TEST.sh        guest test script, installed as /tests/<basename>
#     -b FILE        program for /bin (link it -static)
#     -l FILE        dynamically linked program: installed at its own path
#                    with the libraries ldd lists (e.g. /usr/sbin/netlabelctl)
#     -m FILE.ko     kernel module for /lib/modules/ (insmod /lib/modules/x.ko)
#     -f SRC:DST     any file or directory, copied to DST in the guest
#     --fuse         Debian's fuse.ko as /lib/modules/fuse.ko (none where
#                    it is built in; SF_KERNEL_RELEASE picks the kernel)
#     -K NAME        the Debian kernel's module NAME (e.g. ext4, loop) and
#                    those it depends on (modules.dep), uncompressed under
#                    /lib/modules/deb/, in load order in .../order (none
#                    where built in); the guest loads them with load_kmods
#
# The image holds busybox-static (all applets linked), the harness /init,
# /lib/sfq/tap.sh (guest TAP helpers), /etc/passwd with root and nobody,
# and what the options add.  Building takes well under a second.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)

die() { echo "mkinitramfs: $*" >&2; exit 2; }
usage() { sed -n '2,16s/^# \{0,1\}//p' "$0" >&2; exit 2; }

OUT=
TESTS=()
BINS=()
LIBBINS=()
MODS=()
FILES=()
KMODS=()
FUSE=0
while [ $# -gt 0 ]; do
	case "$1" in
	-o) OUT=$2; shift 2 ;;
	-b) BINS+=("$2"); shift 2 ;;
	-l) LIBBINS+=("$2"); shift 2 ;;
	-m) MODS+=("$2"); shift 2 ;;
	-f) FILES+=("$2"); shift 2 ;;
	--fuse) FUSE=1; shift ;;
	-K) KMODS+=("$2"); shift 2 ;;
	-h|--help) usage ;;
	-*) die "unknown option $1" ;;
	*) TESTS+=("$1"); shift ;;
	esac
done
[ -n "$OUT" ] || usage
BB=$(command -v busybox) || die "busybox missing (apt-get install busybox-static)"
file -L "$BB" 2>/dev/null | grep -q 'statically linked' ||
	[ "$(ldd "$BB" 2>&1 | grep -c 'not a dynamic')" = 1 ] ||
	die "$BB is not static (apt-get install busybox-static)"
command -v cpio >/dev/null || die "cpio missing (apt-get install cpio)"

R=$(mktemp -d "${TMPDIR:-/tmp}/sfq-root.XXXXXX")
trap 'rm -rf "$R"' EXIT
chmod 0755 "$R"	# the guest / (mktemp made it 0700)
mkdir -p "$R"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,etc,root,tests} \
	"$R"/{lib/modules,lib/sfq,mnt,run,var/tmp}
cp "$BB" "$R/bin/busybox"
ln -s busybox "$R/bin/sh"	# /init links the other applets at boot
install -m 0755 "$HERE/init" "$R/init"
install -m 0644 "$HERE/guest-tap.sh" "$R/lib/sfq/tap.sh"
printf '%s\n' 'root:x:0:0:root:/root:/bin/sh' \
	'nobody:x:65534:65534:nobody:/nonexistent:/bin/sh' >"$R/etc/passwd"
printf '%s\n' 'root:x:0:' 'nogroup:x:65534:' >"$R/etc/group"

for t in ${TESTS[@]+"${TESTS[@]}"}; do
	[ -f "$t" ] || die "no guest test $t"
	install -m 0755 "$t" "$R/tests/$(basename "$t")"
done
for b in ${BINS[@]+"${BINS[@]}"}; do
	[ -f "$b" ] || die "no program $b"
	install -m 0755 "$b" "$R/bin/$(basename "$b")"
done
for b in ${LIBBINS[@]+"${LIBBINS[@]}"}; do
	[ -f "$b" ] || die "no program $b"
	mkdir -p "$R$(dirname "$b")"
	cp -L "$b" "$R$b"
	for l in $(ldd "$b" | grep -oE '/[^ ]+'); do
		mkdir -p "$R$(dirname "$l")"
		cp -L "$l" "$R$l"
	done
done
if [ "$FUSE" = 1 ]; then
	# The kernel of $SF_KERNEL_RELEASE (debian-kernel.sh): fuse is a
	# module on Debian 12's 6.1 and built in since 6.12 (load_fuse in
	# guest-tap.sh then finds nothing to load).
	M=$("$HERE/debian-kernel.sh" modules)
	if [ -e "$M/kernel/fs/fuse/fuse.ko" ]; then
		cp "$M/kernel/fs/fuse/fuse.ko" "$R/lib/modules/fuse.ko"
	elif [ -e "$M/kernel/fs/fuse/fuse.ko.xz" ]; then
		xz -dc "$M/kernel/fs/fuse/fuse.ko.xz" >"$R/lib/modules/fuse.ko"
	elif ! grep -qx 'kernel/fs/fuse/fuse.ko' "$M/modules.builtin"; then
		die "no fuse.ko under $M, and fuse is not built in"
	fi
fi
# unpack_ko SRC DST: a module as it is, or uncompressed (.xz, .zst).
unpack_ko() {
	case "$1" in
	*.ko) cp "$1" "$2" ;;
	*.ko.xz) xz -dc "$1" >"$2" ;;
	*.ko.zst) zstd -qdc "$1" >"$2" ;;
	*) die "cannot unpack module $1" ;;
	esac
}
# kmod_paths NAME: the files of module NAME and of the modules it needs,
# relative to $M, in load order (its own last); nothing if it has none
# there.  From modules.dep ("path: deps..." with the deps in load order
# reversed), or, in an unpacked kernel package that has none (depmod runs
# at install), from each module's own "depends" field.
kmod_paths() {
	local line p d
	if [ -f "$M/modules.dep" ]; then
		line=$(grep -E "/$1\.ko(\.xz|\.zst)?:" "$M/modules.dep" || true)
		[ -n "$line" ] || return 0
		echo "${line#*:}" | tr ' ' '\n' | tac | grep . || true
		echo "${line%%:*}"
		return 0
	fi
	p=$(cd "$M" && find kernel \( -name "$1.ko" -o -name "$1.ko.xz" \
		-o -name "$1.ko.zst" \) | head -n 1)
	[ -n "$p" ] || return 0
	for d in $(modinfo -F depends "$M/$p" | tr ',' ' '); do
		kmod_paths "$d"
	done
	echo "$p"
}
if [ ${#KMODS[@]} -gt 0 ]; then
	M=$("$HERE/debian-kernel.sh" modules)
	mkdir -p "$R/lib/modules/deb"
	: >"$R/lib/modules/deb/order"
	for k in "${KMODS[@]}"; do
		paths=$(kmod_paths "$k")
		if [ -z "$paths" ]; then
			grep -qE "/$k\.ko(\.xz|\.zst)?\$" "$M/modules.builtin" ||
				die "no module $k under $M, and it is not built in"
			continue
		fi
		for p in $paths; do
			b=$(basename "$p"); b=${b%%.ko*}
			grep -qx "$b" "$R/lib/modules/deb/order" && continue
			unpack_ko "$M/$p" "$R/lib/modules/deb/$b.ko"
			echo "$b" >>"$R/lib/modules/deb/order"
		done
	done
fi
for m in ${MODS[@]+"${MODS[@]}"}; do
	[ -f "$m" ] || die "no module $m"
	cp "$m" "$R/lib/modules/"
done
for f in ${FILES[@]+"${FILES[@]}"}; do
	src=${f%%:*}
	dst=${f#*:}
	[ -e "$src" ] && [ "$src" != "$f" ] || die "-f wants SRC:DST, got $f"
	mkdir -p "$R$(dirname "$dst")"
	cp -a "$src" "$R$dst"
done

(cd "$R" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --owner=0:0 --quiet) >"$OUT.tmp"
mv "$OUT.tmp" "$OUT"
