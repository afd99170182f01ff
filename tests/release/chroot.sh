#!/bin/bash
# chroot.sh - a Debian release's build root, made once and cached, and a
# command run inside it.
#
#   chroot.sh SUITE                 print the root's path, building it once
#   chroot.sh SUITE run [CMD...]    run CMD (default: a shell) inside it, as
#                                   root, with the source tree at /src
#
# SUITE is a Debian suite the host's registry serves: trixie (Debian 13;
# trixie-backports is in its apt sources, for the newest kernels' headers),
# or testing.  The root is a debootstrap of SUITE with the packages smackfuse
# builds and tests with (PKGS below, installed with apt inside it: debootstrap's
# --include cannot resolve -dev packages of another release), cached as a
# tarball under $SMACKFUSE_CACHE/release/ (default /var/cache/smackfuse) keyed
# by the suite, the mirror and the package list, and unpacked once into
# $SMACKFUSE_CACHE/release/SUITE-KEY/root.  A lock serialises builders.
#
# "run" works in a private mount namespace, so nothing it mounts (the source
# tree, /proc, /sys, /dev, FUSE mounts made by tests) shows on the host or
# outlives the command.  SF_CHROOT_SRC names the tree bound at /src (default:
# the top of this source tree); SF_CHROOT_EXTRA adds packages to the root
# (a different key, so a different cached root).
# Exit 2 with a message when a prerequisite is missing, 1 when the build fails.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
CACHE=${SMACKFUSE_CACHE:-/var/cache/smackfuse}

die() { echo "chroot.sh: $*" >&2; exit 2; }

# What smackfuse's build and its host-side tests need (quickstart.sh's list,
# less what only the qemu lanes and packaging use).
PKGS="build-essential autoconf automake libtool pkg-config
 libfuse3-dev fuse3 libnl-3-dev libnl-genl-3-dev libattr1-dev attr liburcu-dev
 liburing-dev libpam0g-dev pamtester
 bindfs valgrind cppcheck man-db groff-base python3 util-linux passwd
 iproute2 procps psmisc kmod e2fsprogs ca-certificates git
 ${SF_CHROOT_EXTRA:-}"

[ $# -ge 1 ] || { sed -n '2,11p' "$0" >&2; exit 2; }
SUITE=$1
shift
case "$SUITE" in
trixie) EXTRA_SUITES="trixie-backports" ;;
testing) EXTRA_SUITES="" ;;
*) die "unknown suite '$SUITE' (trixie or testing)" ;;
esac
[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot, mount namespaces)"
for t in debootstrap unshare chroot; do
	command -v $t >/dev/null || die "$t missing (apt-get install debootstrap util-linux)"
done

MIRROR=${SMACKFUSE_DEBIAN_MIRROR:-}
if [ -z "$MIRROR" ]; then
	MIRROR=$(find /etc/apt/sources.list /etc/apt/sources.list.d \
		-maxdepth 1 -type f \( -name '*.list' -o -name '*.sources' \) \
		-exec cat {} + 2>/dev/null |
		sed -nE 's#^(deb +(\[[^]]*\] +)?|URIs: *)(https?://[^ ]*/debian)/? .*#\3#p;
			s#^URIs: *(https?://[^ ]*/debian)/?$#\1#p' | head -n 1 || true)
fi
[ -n "$MIRROR" ] || die "no Debian mirror in the apt sources (set SMACKFUSE_DEBIAN_MIRROR)"

KEY=$(echo "$SUITE $EXTRA_SUITES $MIRROR" $PKGS | sha1sum | cut -c1-10)
D=$CACHE/release/$SUITE-$KEY
R=$D/root

build_root() {
	local log=$D/build.log tar=$D/root.tar s
	: >"$log"
	fail() { tail -n 30 "$log" >&2; echo "chroot.sh: $* (log: $log)" >&2; exit 1; }
	rm -rf "$R"
	if [ ! -s "$tar" ]; then
		echo "chroot.sh: debootstrap $SUITE from $MIRROR (log: $log)" >&2
		debootstrap --variant=minbase "$SUITE" "$R.new" "$MIRROR" \
			>>"$log" 2>&1 || fail "debootstrap $SUITE failed"
		{
			echo "deb $MIRROR $SUITE main"
			for s in $EXTRA_SUITES; do echo "deb $MIRROR $s main"; done
		} >"$R.new/etc/apt/sources.list"
		cp /etc/resolv.conf "$R.new/etc/resolv.conf" 2>/dev/null || true
		# testing's Release file says Valid-Until a week ahead; a
		# registry that serves a snapshot older than that would make
		# apt refuse the whole suite ("is expired").
		echo 'Acquire::Check-Valid-Until "false";' \
			>"$R.new/etc/apt/apt.conf.d/99smackfuse-snapshot"
		# policy-rc.d: no service starts inside a build root.
		printf '#!/bin/sh\nexit 101\n' >"$R.new/usr/sbin/policy-rc.d"
		chmod 755 "$R.new/usr/sbin/policy-rc.d"
		echo "chroot.sh: apt-get install in the $SUITE root" >&2
		unshare -m --propagation private sh -c '
			mount -t proc proc "$1/proc" &&
			chroot "$1" apt-get update &&
			DEBIAN_FRONTEND=noninteractive chroot "$1" \
				apt-get install -y --no-install-recommends $2' \
			sh "$R.new" "$PKGS" >>"$log" 2>&1 ||
			fail "apt-get install in the $SUITE root failed"
		rm -f "$R.new/var/cache/apt/archives/"*.deb
		tar -C "$R.new" --numeric-owner --xattrs -cf "$tar.tmp" . &&
			mv "$tar.tmp" "$tar"
		mv "$R.new" "$R"
	else
		mkdir -p "$R.new"
		tar -C "$R.new" --numeric-owner --xattrs -xf "$tar"
		mv "$R.new" "$R"
	fi
	touch "$D/ready"
}

mkdir -p "$D"
if [ ! -e "$D/ready" ]; then
	exec 9>"$D/lock"
	flock 9
	[ -e "$D/ready" ] || { rm -rf "$R.new"; build_root; }
	exec 9>&-
fi

[ $# -eq 0 ] && { echo "$R"; exit 0; }
[ "$1" = run ] || die "unknown command '$1' (run)"
shift
SRC=${SF_CHROOT_SRC:-$TOP}
[ -d "$SRC" ] || die "SF_CHROOT_SRC=$SRC is not a directory"
[ $# -gt 0 ] || set -- /bin/bash
# /etc/resolv.conf: the registry by name, for apt inside the root.
cp /etc/resolv.conf "$R/etc/resolv.conf" 2>/dev/null || true
mkdir -p "$R/src"
exec unshare -m --propagation private bash -c '
	set -e
	R=$1; SRC=$2; shift 2
	# The root a mount of its own, so that tests inside may make their
	# own namespaces (unshare --propagation private remounts /).
	mount --bind "$R" "$R"
	mount --rbind "$SRC" "$R/src"
	mount -t proc proc "$R/proc"
	mount --rbind /sys "$R/sys"
	mount --rbind /dev "$R/dev"
	mount -t tmpfs tmpfs "$R/tmp"
	mount -t tmpfs tmpfs "$R/run"
	cd "$R/src"
	exec chroot "$R" /usr/bin/env -C /src "$@"' \
	sh "$R" "$SRC" "$@"
