#!/bin/bash
# debian-image.sh [-k KERNEL] - print the paths of a booted-Debian-host
# image, building it once.
#
# KERNEL (or $SFHOST_KERNEL) names the host, as tests/qemu/qemu-run.sh -k
# names kernels: debian (the default: Debian 12, bookworm, on the kernel
# installed here, 6.1), trixie (Debian 13 on its 6.12) or trixie-backports
# (Debian 13 on the newest kernel it gets, 7.x); the Debian 13 kernels
# come from tests/qemu/debian-kernel.sh (downloaded and unpacked once).
#
# Builds, with debootstrap from Debian's registry (the mirror the apt sources
# of this machine name, or $SMACKFUSE_DEBIAN_MIRROR), a minimal root
# filesystem of that release with systemd as init, udev, fuse3,
# login/passwd, pamtester and the libraries smackfuse links, and makes an
# ext4 disk image of it (mkfs.ext4 -d, no loop mount).  Beside it, a small
# initramfs (static busybox + the virtio/ext4 modules of the kernel) that
# mounts the image, copies the per-run tree of a second disk into it (see
# debian-host.test) and hands over to systemd.  Both are cached under
# $SMACKFUSE_CACHE/debian-host/<suite>-<kernel>-<key>/ (default
# /var/cache/smackfuse), the key being a hash of this script, the kernel
# version, the mirror and the suite, so repeated runs only print the
# paths.  A lock serialises builders.
#
# Output (stdout, four lines): the root image, the initramfs, the kernel
# (the uncompressed vmlinux from tests/qemu/debian-kernel.sh), and the
# debootstrap tarball the image was made from (the release's userland with
# dkms, gcc and the kernel's headers: tests/host/dkms-prebuild.sh builds
# the module in it).
# Exit 2 with a message when a prerequisite is missing (not root,
# debootstrap, mkfs.ext4, busybox-static, Debian's kernel), 1 when the
# build itself fails (the log is named).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
QEMU_DIR=$(cd "$HERE/../qemu" && pwd)
CACHE=${SMACKFUSE_CACHE:-/var/cache/smackfuse}
KSEL=${SFHOST_KERNEL:-debian}
if [ "${1:-}" = -k ]; then
	[ $# -ge 2 ] || { echo "usage: $0 [-k debian|trixie|trixie-backports]" >&2; exit 2; }
	KSEL=$2
fi
die() { echo "debian-image: $*" >&2; exit 2; }
# Everything the host needs besides minbase; the libraries are those
# smackfuse, smackfusectl and the tools link (configure.ac's pkg-config
# modules), under their names in each release (what the package's
# ${shlibs:Depends} names: tests/pkg/debs.test).
# dkms and the guest kernel's headers let smackfuse-dkms build the module
# in the guest, as on an administrator's host; sshd gives real logins.
case "$KSEL" in
debian)
	SUITE=bookworm KREL=bookworm
	LIBS="libfuse3-3 liburcu8" ;;
trixie|trixie-backports)
	SUITE=trixie KREL=$KSEL
	LIBS="libfuse3-4 liburcu8t64" ;;
*) echo "debian-image: unknown kernel '$KSEL' (debian, trixie or trixie-backports)" >&2; exit 2 ;;
esac
# The kernel's NFS server and client: guest-nfs.sh re-exports a smackfuse
# mount (their units are disabled below; the test starts them).
NFS="nfs-kernel-server nfs-common" NFSMODS="nfsd nfsv4"
PKGS="systemd systemd-sysv udev dbus kmod fuse3 ${LIBS% *} login passwd
 pamtester libpam-runtime procps psmisc attr util-linux
 libnl-3-200 libnl-genl-3-200 libattr1 ${LIBS#* } liburing2
 dkms openssh-server openssh-client${NFS:+ $NFS}"

[ "$(id -u)" = 0 ] || die "needs root (debootstrap, device nodes in the image)"
for t in debootstrap mkfs.ext4 cpio; do
	command -v $t >/dev/null || die "$t missing (apt-get install debootstrap e2fsprogs cpio)"
done
BB=/bin/busybox
[ -x "$BB" ] && ! ldd "$BB" >/dev/null 2>&1 ||
	die "static busybox missing (apt-get install busybox-static)"
# debian-kernel.sh says why it cannot (exit 2: a SKIP).
K=$("$QEMU_DIR/debian-kernel.sh" -r "$KREL" version) || exit
VMLINUX=$("$QEMU_DIR/debian-kernel.sh" -r "$KREL" vmlinux) || exit
MODS=$("$QEMU_DIR/debian-kernel.sh" -r "$KREL" modules) || exit
[ "$KREL" != bookworm ] || [ -f "$MODS/modules.dep" ] ||
	die "$MODS/modules.dep missing (apt-get install linux-image-$K)"
# This kernel's headers come from wherever the host got the kernel (often
# bookworm-security, which debootstrap does not read): apt in the chroot,
# with the host's apt sources for Debian 12; for Debian 13 with trixie's
# and trixie-backports' (as in tests/release/chroot.sh's trixie root, where
# debian-kernel.sh found the kernel).
HDRS="linux-headers-$K"

MIRROR=${SMACKFUSE_DEBIAN_MIRROR:-}
if [ -z "$MIRROR" ]; then
	# The first "debian" archive URI of the configured apt sources.
	MIRROR=$(find /etc/apt/sources.list /etc/apt/sources.list.d \
		-maxdepth 1 -type f \( -name '*.list' -o -name '*.sources' \) \
		-exec cat {} + 2>/dev/null |
		sed -nE 's#^(deb +(\[[^]]*\] +)?|URIs: *)(https?://[^ ]*/debian)/? .*#\3#p;
			s#^URIs: *(https?://[^ ]*/debian)/?$#\1#p' | head -n 1 || true)
fi
[ -n "$MIRROR" ] || die "no Debian mirror in the apt sources (set SMACKFUSE_DEBIAN_MIRROR)"

KEY=$({ cat "$0" "$HERE/initramfs-init"; echo "$K $MIRROR $SUITE"; } |
	sha1sum | cut -c1-10)
# The debootstrap result alone is kept as a tarball keyed by what goes
# into it, so a change to the rest of this script does not fetch again.
BKEY=$(echo "$SUITE $MIRROR $PKGS $HDRS" | sha1sum | cut -c1-10)
BTAR=$CACHE/debian-host/debootstrap-$SUITE-$BKEY.tar
D=$CACHE/debian-host/$SUITE-$K-$KEY
mkdir -p "$D"
done_paths() { printf '%s\n' "$D/root.ext4" "$D/initramfs.cpio" "$VMLINUX" "$BTAR"; exit 0; }
[ -s "$D/root.ext4" ] && [ -s "$D/initramfs.cpio" ] && done_paths
exec 9>"$D/lock"
if ! flock -n 9; then
	echo "debian-image: another build holds $D/lock; waiting" >&2
	flock 9
fi
[ -s "$D/root.ext4" ] && [ -s "$D/initramfs.cpio" ] && done_paths

# apt_install PKG...: apt-get install in the root, with the host's apt
# sources (Debian 12) or SUITE's and its backports (Debian 13).
apt_install() {
	local rc=0
	echo "debian-image: apt-get install $* in the $SUITE root" >&2
	mkdir -p "$R/etc/apt/sources.list.d"
	if [ "$SUITE" = bookworm ]; then
		cp /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list \
			"$R/etc/apt/sources.list.d/" 2>/dev/null
		[ ! -f /etc/apt/sources.list ] || cp /etc/apt/sources.list "$R/etc/apt/"
	else
		printf 'deb %s %s main\ndeb %s %s-backports main\n' \
			"$MIRROR" "$SUITE" "$MIRROR" "$SUITE" >"$R/etc/apt/sources.list"
	fi
	cp /etc/resolv.conf "$R/etc/resolv.conf" 2>/dev/null
	# No service starts in the chroot (sshd's postinst would try).
	printf '#!/bin/sh\nexit 101\n' >"$R/usr/sbin/policy-rc.d"
	chmod 755 "$R/usr/sbin/policy-rc.d"
	mount -t proc proc "$R/proc" || return 1
	chroot "$R" apt-get update >>"$LOG" 2>&1 &&
		DEBIAN_FRONTEND=noninteractive chroot "$R" apt-get install -y \
		--no-install-recommends "$@" >>"$LOG" 2>&1 || rc=1
	umount "$R/proc"
	rm -f "$R/usr/sbin/policy-rc.d"
	rm -f "$R/etc/apt/sources.list.d/"* "$R/etc/resolv.conf"
	echo "deb $MIRROR $SUITE main" >"$R/etc/apt/sources.list"
	return $rc
}

LOG=$D/build.log
: >"$LOG"
fail() { tail -n 30 "$LOG" >&2; echo "debian-image: $* (log: $LOG)" >&2; exit 1; }
T0=$(date +%s)
R=$D/rootfs
rm -rf "$R"
if [ ! -s "$BTAR" ] && [ "$SUITE" = bookworm ]; then
	echo "debian-image: debootstrap $SUITE from $MIRROR into $R" >&2
	debootstrap --variant=minbase --include="$(echo $PKGS | tr ' ' ,)" \
		"$SUITE" "$R" "$MIRROR" >>"$LOG" 2>&1 || fail "debootstrap failed"
	apt_install $HDRS || fail "apt-get install $HDRS in the chroot failed"
fi
if [ ! -s "$BTAR" ] && [ "$SUITE" != bookworm ]; then
	# Debian 13: apt resolves the packages (debootstrap's --include
	# does not pick among trixie's alternatives and t64 libraries).
	echo "debian-image: debootstrap $SUITE from $MIRROR into $R" >&2
	debootstrap --variant=minbase "$SUITE" "$R" "$MIRROR" >>"$LOG" 2>&1 ||
		fail "debootstrap failed"
	apt_install $PKGS $HDRS || fail "apt-get install in the chroot failed"
fi
if [ ! -s "$BTAR" ]; then
	rm -rf "$R/var/cache/apt/archives/"*.deb "$R/var/lib/apt/lists/"*
	tar -C "$R" --numeric-owner --xattrs -cf "$BTAR.tmp" . &&
		mv "$BTAR.tmp" "$BTAR"
else
	mkdir -p "$R"
	tar -C "$R" --numeric-owner --xattrs -xf "$BTAR"
fi
T1=$(date +%s)

# The host's identity: fixed, so no boot is a "first boot".
echo sfhost >"$R/etc/hostname"
echo 5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f5f >"$R/etc/machine-id"
printf '127.0.0.1 localhost\n127.0.1.1 sfhost\n' >"$R/etc/hosts"
echo '# / is mounted read-write by the initramfs' >"$R/etc/fstab"
# Units that only cost boot time here.
for u in getty@tty1.service serial-getty@ttyS0.service console-getty.service \
	apt-daily.timer apt-daily-upgrade.timer dpkg-db-backup.timer \
	e2scrub_all.timer e2scrub_reap.service fstrim.timer \
	systemd-timesyncd.service systemd-networkd.service \
	systemd-resolved.service systemd-update-utmp.service \
	systemd-update-utmp-runlevel.service systemd-random-seed.service \
	systemd-journal-flush.service systemd-hwdb-update.service \
	systemd-pstore.service ldconfig.service \
	systemd-logind.service dbus.service dbus.socket \
	systemd-udev-trigger.service systemd-journald-audit.socket \
	sys-kernel-config.mount sys-kernel-tracing.mount \
	dev-hugepages.mount dev-mqueue.mount; do
	ln -sf /dev/null "$R/etc/systemd/system/$u"
done
ln -sf /lib/systemd/system/multi-user.target "$R/etc/systemd/system/default.target"
# The NFS server and rpcbind start when a test starts them (guest-nfs.sh),
# not at every boot.
[ -z "$NFS" ] || systemctl --root="$R" disable nfs-server.service \
	rpcbind.service rpcbind.socket nfs-client.target >>"$LOG" 2>&1 ||
	fail "systemctl disable of the NFS units failed"
mkdir -p "$R/etc/systemd/journald.conf.d"
printf '[Journal]\nStorage=volatile\nForwardToConsole=no\n' \
	>"$R/etc/systemd/journald.conf.d/sfhost.conf"

# The Debian 13 kernels are unpacked packages without modules.dep (their
# postinst makes it): depmod a scratch copy.
if [ ! -f "$MODS/modules.dep" ]; then
	rm -rf "$D/kmods"
	mkdir -p "$D/kmods/lib/modules"
	cp -a "$MODS" "$D/kmods/lib/modules/$K"
	depmod -b "$D/kmods" "$K" >>"$LOG" 2>&1 || fail "depmod of $MODS failed"
	MODS=$D/kmods/lib/modules/$K
fi
# Debian's kernel modules that the host loads after the initramfs: fuse
# (and what the initramfs already loaded, so modprobe finds them).
# mod_in FILE NAME: FILE (modules.dep, modules.builtin) lists module NAME.
mod_in() {
	awk -v m="$2" -F: '{ n = $1; sub(/.*\//, "", n); sub(/\.ko.*/, "", n);
		gsub(/-/, "_", n) } n == m { print $0; exit }' "$1"
}
# need_mods NAME...: the .ko paths of the modules NAME with their
# dependencies, in load order.  One built into the kernel (Debian 13's
# fuse and virtio_pci) needs none; ?NAME is a module this kernel may lack
# (crc32c_generic went with 6.x's crc32c library rework).
need_mods() {
	local m p opt
	for m in "$@"; do
		opt=
		case $m in \?*) opt=1 m=${m#\?} ;; esac
		p=$(mod_in "$MODS/modules.dep" "$m")
		if [ -z "$p" ]; then
			[ -z "$(mod_in "$MODS/modules.builtin" "$m")" ] || continue
			[ -n "$opt" ] && continue
			echo "debian-image: module $m not in $MODS" >&2
			return 1
		fi
		local deps=${p#*:} self=${p%%:*} d
		for d in $deps; do echo "$d"; done | tac
		echo "$self"
	done | awk '!seen[$0]++'
}
BOOTMODS="virtio_pci virtio_blk ?crc32c_generic ?crc32c_cryptoapi ext4"
TM=$R/lib/modules/$K
# Debian 13's headers pull in the kernel's package, whose thousands of
# modules the host never loads (qemu boots the kernel and initramfs given
# to it): the image keeps only those it loads, as Debian 12's, so that
# the depmod DKMS runs at each install takes a second, not 40 under TCG.
# build (the headers' link, for DKMS) stays.
rm -rf "${TM:?}/kernel"
mkdir -p "$TM"
for m in $(need_mods $BOOTMODS fuse $NFSMODS); do
	mkdir -p "$(dirname "$TM/$m")"
	cp "$MODS/$m" "$TM/$m"
done
cp "$MODS"/modules.order "$MODS"/modules.builtin* "$TM/"
depmod -b "$R" "$K" >>"$LOG" 2>&1 || fail "depmod failed"

echo "debian-image: making root.ext4" >&2
mkfs.ext4 -q -F -L sfhost -d "$R" "$D/root.ext4.tmp" 3072M >>"$LOG" 2>&1 ||
	fail "mkfs.ext4 failed"
mv "$D/root.ext4.tmp" "$D/root.ext4"
T2=$(date +%s)

# The initramfs: busybox, the modules to reach an ext4 root on virtio, and
# an /init that mounts it, copies the run's tree (second disk) in and runs
# systemd.
I=$D/initramfs
rm -rf "$I"
mkdir -p "$I/bin" "$I/mods" "$I/dev" "$I/proc" "$I/sys" "$I/newroot" "$I/inject"
cp "$BB" "$I/bin/busybox"
n=0
for m in $(need_mods $BOOTMODS); do
	n=$((n + 1))
	f=$(printf '%02d-%s' $n "$(basename "$m")")
	case "$m" in
	*.xz) xz -dc "$MODS/$m" >"$I/mods/${f%.xz}" ;;
	*.zst) zstd -qdc "$MODS/$m" >"$I/mods/${f%.zst}" ;;
	*) cp "$MODS/$m" "$I/mods/$f" ;;
	esac
done
cp "$HERE/initramfs-init" "$I/init"
chmod 755 "$I/init"
(cd "$I" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$D/initramfs.cpio.tmp"
mv "$D/initramfs.cpio.tmp" "$D/initramfs.cpio"
rm -rf "$I"
du -sh "$R" >>"$LOG"
rm -rf "$R" "$D/kmods"
echo "debian-image: debootstrap $((T1 - T0)) s, image $((T2 - T1)) s, total $(( $(date +%s) - T0 )) s" | tee -a "$LOG" >&2
done_paths
