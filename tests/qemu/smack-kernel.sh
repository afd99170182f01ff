#!/bin/bash
# smack-kernel.sh - print the path of a Smack-enabled kernel, building it once.
#
#   smack-kernel.sh [debian|trixie|trixie-backports]
#
# The Smack reference kernel of a module lane (tests/kmod/lane.sh names
# them): built from the Debian source of the kernel that lane boots, so
# that each lane's module is compared with its own kernel's Smack.
#  - debian (the default): Debian 12's linux-source-6.1, installed on the host;
#  - trixie: Debian 13's linux-source-6.12, of the version of the kernel
#    the lane boots (tests/qemu/debian-kernel.sh -r trixie);
#  - trixie-backports: linux-source-7.3 (the newest kernel Debian 13 gets),
#    of that kernel's version.
# The trixie sources are downloaded with apt in the trixie build root
# (tests/release/chroot.sh) and unpacked in the cache.  Each is configured
# with tinyconfig + smack.config and cached under
# $SMACKFUSE_CACHE/smack-kernel/<series>/<source version>-<config hash>/
# (default /var/cache/smackfuse), so repeated runs only print the path.
# Source and object trees live in the cache while it builds, never in the
# clone, and are removed once the kernel is there; so are the cached
# kernels of the same series of an older smack.config or source version.
# A lock file serialises concurrent callers: the second one waits for the
# first build and then reuses it.
#
# Output (stdout, one line): the path of the uncompressed vmlinux (PVH entry,
# boots fast under TCG).  bzImage and .config sit next to it.
# Exit 2 with a message when a prerequisite (linux-source-6.1, the build
# tools, the trixie build root's own prerequisites) is missing, 1 when a
# download, the build or the config fails.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${SMACKFUSE_CACHE:-/var/cache/smackfuse}
LANE=${1:-debian}
JOBS=${SMACK_KERNEL_JOBS:-$(nproc)}

# die: a prerequisite is missing (exit 2: the tests say SKIP and why);
# fail: a step that should have worked did not (exit 1: the tests fail).
die() { echo "smack-kernel: $*" >&2; exit 2; }
fail() { echo "smack-kernel: $*" >&2; exit 1; }

for t in make gcc flex bison bc; do
	command -v $t >/dev/null || die "$t missing (apt-get install build-essential flex bison bc)"
done

# The source: PKG at VER, its tarball at TARBALL once fetched.
case "$LANE" in
debian)
	PKG=linux-source-6.1
	VER=$(dpkg-query -W -f='${Version}' "$PKG" 2>/dev/null) ||
		die "$PKG not installed (apt-get install $PKG flex bison bc libelf-dev)"
	TARBALL=/usr/src/$PKG.tar.xz
	[ -f "$TARBALL" ] || die "$TARBALL missing (apt-get install --reinstall $PKG)"
	;;
trixie|trixie-backports)
	# debian-kernel.sh's exit status is ours: 2 missing, 1 failed.
	K=$("$HERE/debian-kernel.sh" -r "$LANE" version) || exit $?
	PKG=linux-source-$(echo "$K" | sed -nE 's/^([0-9]+\.[0-9]+).*/\1/p')
	VER=$("$HERE/../release/chroot.sh" trixie run sh -c \
		"apt-cache show linux-image-$K | sed -n 's/^Version: //p' | head -n 1") ||
		fail "cannot read the version of linux-image-$K in the trixie root"
	[ -n "$VER" ] || fail "no version for linux-image-$K in the trixie root"
	TARBALL=
	;;
*) echo "usage: $0 [debian|trixie|trixie-backports]" >&2; exit 2 ;;
esac
SERIES=${PKG#linux-source-}
CFGHASH=$(sha1sum "$HERE/smack.config" | cut -c1-8)
D=$CACHE/smack-kernel/$SERIES/$VER-$CFGHASH
mkdir -p "$D"

if [ -f "$D/vmlinux" ] && [ -f "$D/bzImage" ]; then
	echo "$D/vmlinux"
	exit 0
fi

exec 9>"$D/lock"
if ! flock -n 9; then
	echo "smack-kernel: another build holds $D/lock; waiting" >&2
	flock 9
fi
if [ -f "$D/vmlinux" ] && [ -f "$D/bzImage" ]; then
	echo "$D/vmlinux"
	exit 0
fi

T0=$(date +%s)
# fetch_source DIR: linux-source-SERIES at VER from the trixie root's apt
# (trixie or trixie-backports), its tarball into DIR.
fetch_source() {
	local dl=$1/deb
	rm -rf "$dl"; mkdir -p "$dl"
	echo "smack-kernel: downloading $PKG $VER in the trixie root" >&2
	SF_CHROOT_SRC=$dl "$HERE/../release/chroot.sh" trixie run \
		apt-get download "$PKG=$VER" >"$1/download.log" 2>&1 ||
		{ tail -n 5 "$1/download.log" >&2; fail "apt-get download $PKG=$VER failed"; }
	dpkg-deb --fsys-tarfile "$dl"/*.deb |
		tar -xO --wildcards "*/$PKG.tar.xz" >"$1/$PKG.tar.xz" ||
		fail "no $PKG.tar.xz in the downloaded $PKG"
	rm -rf "$dl"
}

S=$D/src
if [ ! -f "$S/.extracted" ]; then
	if [ -z "$TARBALL" ]; then
		fetch_source "$D"
		TARBALL=$D/$PKG.tar.xz
	fi
	echo "smack-kernel: extracting $TARBALL" >&2
	rm -rf "$S"; mkdir -p "$S"
	tar -C "$S" --strip-components=1 -xf "$TARBALL" ||
		fail "cannot extract $TARBALL"
	[ "$TARBALL" = "$D/$PKG.tar.xz" ] && rm -f "$TARBALL"
	touch "$S/.extracted"
fi
B=$D/build
if [ ! -f "$B/.config" ] || [ "$B/.config" -ot "$HERE/smack.config" ]; then
	mkdir -p "$B"
	make -s -C "$S" O="$B" tinyconfig >&2
	KCONFIG_CONFIG=$B/.config "$S/scripts/kconfig/merge_config.sh" \
		-m -O "$B" "$B/.config" "$HERE/smack.config" >/dev/null
	make -s -C "$S" O="$B" olddefconfig >&2
fi
# A fragment line the kernel dropped means the guest would lack something.
for want in CONFIG_SECURITY_SMACK=y CONFIG_SECURITYFS=y CONFIG_DEVTMPFS=y \
	CONFIG_BLK_DEV_INITRD=y CONFIG_SERIAL_8250_CONSOLE=y CONFIG_PVH=y \
	CONFIG_TMPFS_XATTR=y CONFIG_SYSVIPC=y CONFIG_NETLABEL=y \
	CONFIG_BLOCK=y CONFIG_IPV6=y CONFIG_KEYS=y CONFIG_BLK_DEV_LOOP=y \
	CONFIG_EXT2_FS_XATTR=y CONFIG_EXT2_FS_SECURITY=y CONFIG_FHANDLE=y \
	CONFIG_VIRTIO_NET=y CONFIG_PCI_MSI=y CONFIG_PACKET=y; do
	grep -qx "$want" "$B/.config" || fail "$want did not survive olddefconfig"
done
echo "smack-kernel: building $PKG $VER in $B (-j$JOBS)" >&2
make -C "$B" -j"$JOBS" bzImage >"$D/build.log" 2>&1 ||
	{ tail -n 30 "$D/build.log" >&2
	  echo "smack-kernel: build failed (log: $D/build.log)" >&2; exit 1; }
cp "$B/.config" "$D/config"
cp "$B/arch/x86/boot/bzImage" "$D/bzImage.tmp" && mv "$D/bzImage.tmp" "$D/bzImage"
cp "$B/vmlinux" "$D/vmlinux.tmp" && mv "$D/vmlinux.tmp" "$D/vmlinux"
echo "smack-kernel: built in $(( $(date +%s) - T0 )) s" >&2
# The harnesses boot the kernel and nothing else: the source and object
# trees (1.5 GB) go, and so do the kernels of other configs or versions
# that no build is using (their lock is free).
rm -rf "$S" "$B"
for old in "$CACHE"/smack-kernel/"$SERIES"/*/; do
	old=${old%/}
	[ "$old" != "$D" ] || continue
	if ( flock -n 9 ) 9>"$old/lock"; then
		rm -rf "$old"
		echo "smack-kernel: removed the stale $old" >&2
	fi
done
echo "$D/vmlinux"
