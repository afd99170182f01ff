#!/bin/bash
# build-debs.sh [--from DIR] [--suite SUITE] OUTDIR - build smackfuse's
# Debian packages.
#
# Takes a clean copy of the committed tree (git archive HEAD of the checkout
# this script is in, or of $top_srcdir), runs `dpkg-buildpackage -b -us -uc`
# on it (the project's tests are not run: debian/rules), and leaves the
# .deb, .changes and .buildinfo files in OUTDIR.  On success it prints the
# absolute path of each .deb, one a line, and nothing else on stdout; the
# build's output is in OUTDIR/build.log.  With --from DIR it copies DIR
# instead (a clean tree, e.g. an unpacked `git archive`).
#
# Without --suite the build runs on this machine (its release: Debian 12
# in CI).  With --suite SUITE (trixie: Debian 13) it runs in a clean build
# root of that release, as sbuild would: minbase, build-essential and the
# Build-Depends of the tree's debian/control, nothing else
# (tests/release/chroot.sh with SF_CHROOT_PKGS; cached, keyed by that
# list, so a changed Build-Depends makes a new root), mounted read-only
# while the package builds, so no build leaves anything in it.
#
# Needs: git, and (without --suite) the build dependencies of
# debian/control plus dpkg-dev, debhelper and dh-dkms (dpkg-buildpackage
# names what is missing); with --suite, root and debootstrap.  With --suite,
# OUTDIR/build-root.pkgs holds the root's package list (SF_CHROOT_PKGS
# names the root: `SF_CHROOT_PKGS=$(cat OUTDIR/build-root.pkgs) chroot.sh
# SUITE run CMD` runs CMD there).
set -euo pipefail
usage() { echo "usage: $0 [--from DIR] [--suite SUITE] OUTDIR" >&2; exit 2; }
FROM=
SUITE=
while [ $# -gt 0 ]; do
	case $1 in
	--from) [ $# -ge 2 ] || usage; FROM=$2; shift 2 ;;
	--suite) [ $# -ge 2 ] || usage; SUITE=$2; shift 2 ;;
	--) shift; break ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || usage
die() { echo "build-debs.sh: $*" >&2; exit 1; }

TOP=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
mkdir -p "$1"
OUT=$(cd "$1" && pwd)
if [ -z "$SUITE" ]; then
	for t in dpkg-buildpackage dpkg-parsechangelog; do
		command -v $t >/dev/null || die "$t not found (apt-get install dpkg-dev debhelper dh-dkms)"
	done
fi

# The copy: OUT/src/smackfuse-VERSION, removed again after a good build.
rm -rf "$OUT/src"
rm -f "$OUT"/smackfuse*.deb "$OUT"/smackfuse*.changes "$OUT"/smackfuse*.buildinfo \
	"$OUT/build-root.pkgs"
mkdir -p "$OUT/src/tree"
if [ -n "$FROM" ]; then
	[ -d "$FROM" ] || die "--from $FROM: not a directory"
	cp -a "$FROM/." "$OUT/src/tree/"
else
	git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1 ||
		die "$TOP is not a git checkout (use --from DIR)"
	git -C "$TOP" archive --format=tar HEAD | tar -x -C "$OUT/src/tree"
fi
[ -f "$OUT/src/tree/debian/control" ] || die "no debian/control in the tree"
# The version from the changelog's first line (dpkg-parsechangelog may not
# be on this machine when the build runs in a root).
V=$(sed -n '1s/^[^ ]* (\([^)]*\)).*/\1/p' "$OUT/src/tree/debian/changelog")
[ -n "$V" ] || die "no version in debian/changelog"
mv "$OUT/src/tree" "$OUT/src/smackfuse-$V"

# build_depends CONTROL: the source's Build-Depends as package names for
# apt-get install (first of alternatives, no versions, architectures or
# profiles: dpkg-buildpackage checks the versions in the root).
build_depends() {
	awk '/^Build-Depends:/ { f = 1; sub(/^Build-Depends:/, ""); print; next }
		f && /^[ \t]/ { print; next } { f = 0 }' "$1" |
		tr '\n' ' ' | tr ',' '\n' |
		sed -E 's/\|.*//; s/\([^)]*\)//g; s/\[[^]]*\]//g; s/<[^>]*>//g; s/ //g' |
		grep -v '^$' | tr '\n' ' '
}

BUILD="dpkg-buildpackage -b -us -uc"
OPTS="nocheck noautodbgsym parallel=$(nproc)"
if [ -z "$SUITE" ]; then
	(cd "$OUT/src/smackfuse-$V" && DEB_BUILD_OPTIONS="$OPTS" $BUILD) \
		>"$OUT/build.log" 2>&1 || rc=$?
else
	CHROOT=$TOP/tests/release/chroot.sh
	[ -x "$CHROOT" ] || CHROOT=$(cd "$(dirname "$0")/../release" && pwd)/chroot.sh
	PK="build-essential $(build_depends "$OUT/src/smackfuse-$V/debian/control")"
	echo "build-debs.sh: in the clean $SUITE root: $PK" >"$OUT/build.log"
	# The root's package list, which names it (SF_CHROOT_PKGS), for
	# whoever runs the packages' programs there (tests/pkg/debs.test).
	echo "$PK" >"$OUT/build-root.pkgs"
	SF_CHROOT_PKGS=$PK "$CHROOT" "$SUITE" >>"$OUT/build.log" 2>&1 || {
		rc=$?
		tail -n 20 "$OUT/build.log" >&2
		[ $rc = 2 ] && exit 2
		die "the clean $SUITE build root was not made (log: $OUT/build.log)"
	}
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp LANG=C.UTF-8 \
		${SMACKFUSE_CACHE:+SMACKFUSE_CACHE="$SMACKFUSE_CACHE"} \
		${SMACKFUSE_DEBIAN_MIRROR:+SMACKFUSE_DEBIAN_MIRROR="$SMACKFUSE_DEBIAN_MIRROR"} \
		SF_CHROOT_PKGS="$PK" SF_CHROOT_RO=yes SF_CHROOT_SRC="$OUT/src" \
		"$CHROOT" "$SUITE" run sh -c 'cd "$1" && DEB_BUILD_OPTIONS="$2" $3' \
		sh "smackfuse-$V" "$OPTS" "$BUILD" >>"$OUT/build.log" 2>&1 || rc=$?
fi
if [ "${rc:-0}" != 0 ]; then
	tail -n 40 "$OUT/build.log" >&2
	die "dpkg-buildpackage${SUITE:+ in the $SUITE root} failed (whole log: $OUT/build.log)"
fi
cd "$OUT"
mv src/smackfuse*.deb src/smackfuse*.changes src/smackfuse*.buildinfo "$OUT/"
rm -rf "$OUT/src"
ls -1 "$OUT"/smackfuse*.deb
