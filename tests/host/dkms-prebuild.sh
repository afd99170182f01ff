#!/bin/bash
# dkms-prebuild.sh ROOTTAR KERNEL DKMSDEB - smackfuse.ko built by DKMS for
# KERNEL from the package DKMSDEB (smackfuse-dkms_*.deb) in the release's
# own userland, natively, and kept as a DKMS tarball (dkms mktarball).
#
# ROOTTAR is debian-image.sh's debootstrap tarball: the guest's root before
# the per-image touches, with that release's dkms, gcc and the headers of
# KERNEL.  It is unpacked into a scratch directory, and `dpkg -i DKMSDEB`
# runs in a chroot of it, as an administrator's dpkg does on the host:
# smackfuse-dkms's postinst has DKMS build and install smackfuse.ko for the
# kernels whose headers are there (KERNEL; the chroot's uname is this
# machine's).  Under TCG that build takes minutes of the booted guest's
# time; here, tens of seconds.  The guest then gets the result the way
# DKMS ships prebuilt modules: the tarball in /usr/share/smackfuse-dkms/,
# which the same postinst loads (dkms ldtarball) and installs without a
# build (tests/host/guest-install.sh).
#
# The tarball is cached under $SMACKFUSE_CACHE/debian-host/dkms/ (default
# /var/cache/smackfuse), keyed by ROOTTAR's name (its release, packages and
# mirror), KERNEL, FORMAT below and the contents of DKMSDEB: a changed
# module source is built again.  A lock serialises builders.
#
# Output: stdout the tarball's path; stderr "dkms-prebuild: built in N s
# (...)" or "dkms-prebuild: cached (built DATE ...)".  Exit 2 with a message
# when a prerequisite is missing (not root, ROOTTAR gone), 1 when DKMS
# fails (its log on stderr).
set -euo pipefail
CACHE=${SMACKFUSE_CACHE:-/var/cache/smackfuse}
# Part of the cache key: raise it when a change here changes the tarball.
FORMAT=1
die() { echo "dkms-prebuild: $*" >&2; exit 2; }
[ $# = 3 ] || die "usage: $0 ROOTTAR KERNEL DKMSDEB"
TAR=$1 K=$2 DEB=$3
[ "$(id -u)" = 0 ] || die "needs root (chroot, mount namespace)"
[ -s "$TAR" ] || die "no release root $TAR (debian-image.sh builds it)"
[ -s "$DEB" ] || die "no package $DEB"
for t in dpkg-deb unshare chroot flock; do
	command -v $t >/dev/null || die "$t missing"
done
V=$(dpkg-deb -f "$DEB" Version)
V=${V%-*}
SKEY=$({ echo "$FORMAT $V"; dpkg-deb --fsys-tarfile "$DEB" | tar -xOf -; } |
	sha1sum | cut -c1-10)
RKEY=$(basename "$TAR" .tar)
D=$CACHE/debian-host/dkms/$RKEY-$K-$SKEY
OUT=$D/smackfuse-$V.dkms.tar.gz
mkdir -p "$D"
cached() {
	echo "dkms-prebuild: cached ($(cat "$D/info"))" >&2
	echo "$OUT"
	exit 0
}
[ -s "$OUT" ] && cached
exec 9>"$D/lock"
flock 9
[ -s "$OUT" ] && cached

T0=$(date +%s)
W=$(mktemp -d "${TMPDIR:-/var/tmp}/sfdkms.XXXXXX")
trap 'rm -rf "$W"' EXIT
R=$W/root
mkdir -p "$R"
tar -C "$R" --numeric-owner -xf "$TAR"
cp "$DEB" "$R/root/smackfuse-dkms.deb"
T1=$(date +%s)
# The chroot's own /proc, /dev, /tmp and /run, in a private mount
# namespace: nothing is left mounted when it ends.
if ! unshare -m --propagation private sh -c '
	R=$1 K=$2 V=$3
	mount -t proc proc "$R/proc" && mount --rbind /dev "$R/dev" &&
	mount -t tmpfs tmpfs "$R/tmp" && mount -t tmpfs tmpfs "$R/run" || exit 1
	exec chroot "$R" /bin/sh -ec "
		export PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8
		\$(ls /usr/bin/*gcc-[0-9]* | grep -Ev -e \"-(ar|nm|ranlib)-\" | sort -V | tail -n 1) --version | head -n 1 >/root/gcc
		dpkg -i /root/smackfuse-dkms.deb
		dkms status smackfuse
		dkms status smackfuse -k $K | grep -q \": installed\"
		dkms mktarball -m smackfuse -v $V -k $K"' \
	sh "$R" "$K" "$V" >"$W/log" 2>&1; then
	tail -n 40 "$W/log" >&2
	cat "$R/var/lib/dkms/smackfuse/$V/build/make.log" 2>/dev/null | tail -n 20 >&2
	echo "dkms-prebuild: DKMS did not build smackfuse $V for $K in $RKEY" >&2
	exit 1
fi
t=$(find "$R/var/lib/dkms/smackfuse/$V/tarball" -name '*.dkms.tar.gz' | head -n 1)
[ -n "$t" ] || { tail -n 20 "$W/log" >&2; die "dkms mktarball left no tarball"; }
T2=$(date +%s)
echo "$(date -u +%FT%TZ) in $RKEY with $(cat "$R/root/gcc"): unpack $((T1 - T0)) s, dpkg -i and DKMS $((T2 - T1)) s" >"$D/info"
grep -E '^(Building for|Building initial|Loading|dkms|smackfuse/)' "$W/log" |
	sed 's/^/dkms-prebuild:   /' >&2 || true
cp "$t" "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
echo "dkms-prebuild: built ($(cat "$D/info"))" >&2
echo "$OUT"
