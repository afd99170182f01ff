#!/bin/bash
# build-debs.sh [--from DIR] OUTDIR - build smackfuse's Debian packages.
#
# Takes a clean copy of the committed tree (git archive HEAD of the checkout
# this script is in, or of $top_srcdir), runs `dpkg-buildpackage -b -us -uc`
# on it (the project's tests are not run: debian/rules), and leaves the
# .deb, .changes and .buildinfo files in OUTDIR.  On success it prints the
# absolute path of each .deb, one a line, and nothing else on stdout; the
# build's output is in OUTDIR/build.log.  With --from DIR it copies DIR
# instead (a clean tree, e.g. an unpacked `git archive`).
#
# Needs: git, and the build dependencies of debian/control plus
# dpkg-dev, debhelper and dh-dkms (dpkg-buildpackage names what is missing).
set -euo pipefail
usage() { echo "usage: $0 [--from DIR] OUTDIR" >&2; exit 2; }
FROM=
while [ $# -gt 0 ]; do
	case $1 in
	--from) [ $# -ge 2 ] || usage; FROM=$2; shift 2 ;;
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
for t in dpkg-buildpackage dpkg-parsechangelog; do
	command -v $t >/dev/null || die "$t not found (apt-get install dpkg-dev debhelper dh-dkms)"
done

# The copy: OUT/src/smackfuse-VERSION, removed again after a good build.
rm -rf "$OUT/src"
rm -f "$OUT"/smackfuse*.deb "$OUT"/smackfuse*.changes "$OUT"/smackfuse*.buildinfo
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
V=$(dpkg-parsechangelog -l "$OUT/src/tree/debian/changelog" -S Version)
mv "$OUT/src/tree" "$OUT/src/smackfuse-$V"

cd "$OUT/src/smackfuse-$V"
if ! DEB_BUILD_OPTIONS="nocheck noautodbgsym parallel=$(nproc)" \
	dpkg-buildpackage -b -us -uc >"$OUT/build.log" 2>&1; then
	tail -n 40 "$OUT/build.log" >&2
	die "dpkg-buildpackage failed (whole log: $OUT/build.log)"
fi
cd "$OUT"
mv src/smackfuse*.deb src/smackfuse*.changes src/smackfuse*.buildinfo "$OUT/"
rm -rf "$OUT/src"
ls -1 "$OUT"/smackfuse*.deb
