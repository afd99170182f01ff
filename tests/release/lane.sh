#!/bin/bash
# lane.sh - the tree built and tested in another Debian release's build
# root (chroot.sh), as a fresh machine of that release would: TAP for
# make check, one point per point of the tests run inside.
#
#   lane.sh SUITE TEST...
#
# The committed tree (git ls-files; a copy of the source directory without
# the build directory when it is no git checkout) is copied to a scratch
# directory, bound at /src in SUITE's root, and there: autoreconf -fi,
# ./configure (its findings about libfuse as diagnostics), make, make
# install into a scratch DESTDIR, and make check TESTS="TEST...".  Each of
# those steps is a point; so is every point of the tests, named
# "SUITE: TEST N - description".  The build and its results stay in the
# root's private /tmp, gone with the command.  A root that cannot be made
# (no debootstrap, not root) makes the whole lane SKIP with the reason.
set -u
SUITE=$1
shift
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-.}
. "$top_srcdir/tests/qemu/tap.sh"
CHROOT=$top_srcdir/tests/release/chroot.sh

[ "$(id -u)" = 0 ] || { echo "1..0 # SKIP not root (chroot, mounts)"; exit 0; }
T0=$(date +%s)
ERR=$(mktemp)
"$CHROOT" "$SUITE" >/dev/null 2>"$ERR"
rc=$?
if [ $rc = 2 ]; then
	echo "1..0 # SKIP $(tail -n 1 "$ERR")"
	rm -f "$ERR"
	exit 0
fi
sed 's/^/# /' "$ERR" | tail -n 5
rm -f "$ERR"
if [ $rc != 0 ]; then
	tap_not_ok "$SUITE: the build root is made (tests/release/chroot.sh)"
	tap_done
fi
tap_diag "$SUITE: build root ready in $(($(date +%s) - T0)) s"

W=$(mktemp -d /tmp/sf-lane.XXXXXX)
trap 'rm -rf "$W" "$TAP_LOG"' EXIT
mkdir "$W/src"
if git -C "$top_srcdir" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	(cd "$top_srcdir" && git ls-files -z | xargs -0 tar -cf -) |
		tar -C "$W/src" -xf -
else
	build=$(realpath "$top_builddir")
	(cd "$top_srcdir" && tar --exclude="./${build#"$(realpath .)"/}" \
		-cf - .) | tar -C "$W/src" -xf -
fi

# Inside the root: each step's output to its own log, then the results.
cat >"$W/src/.lane-run.sh" <<'EOF'
set -u
B=/tmp/build
step() {
	local name=$1
	shift
	if "$@" >"/tmp/$name.log" 2>&1; then
		echo "@step ok $name"
	else
		echo "@step failed $name"
		tail -n 25 "/tmp/$name.log" | sed 's/^/@log /'
		return 1
	fi
}
cd /src
{ [ -x configure ] || step autoreconf autoreconf -fi; } || exit 0
mkdir -p "$B" && cd "$B"
step configure /src/configure || exit 0
sed -n 's/^configure: \(FUSE .*\)/@diag \1/p' /tmp/configure.log
grep -E '^checking whether (fuse_passthrough_open|fuse_req_is_uring) is declared|^checking whether libfuse' \
	/tmp/configure.log | sed 's/^/@diag /'
step make make -j"$(nproc)" || exit 0
# libfuse's own ring (uring_libfuse.c) is built only with a libfuse that
# carries requests over io_uring, which no Debian release has: where the
# headers declare its API, the file is at least compiled, with the
# project's flags (-Werror), so that it cannot rot unseen.
if grep -q '^DEFS = .*-DHAVE_DECL_FUSE_REQ_IS_URING=1' Makefile &&
	! grep -q '^DEFS = .*-DSF_LIBFUSE_URING=1' Makefile; then
	step compile-uring_libfuse.c \
		make src/fuse/transport/smackfuse-uring_libfuse.o || exit 0
fi
step install make install DESTDIR=/tmp/inst || exit 0
for f in /usr/local/sbin/smackfuse /usr/local/sbin/smackfusectl \
	/usr/local/share/man/man8/smackfuse.8 /etc/smackfuse/accesses.d; do
	[ -e "/tmp/inst$f" ] && echo "@have $f" || echo "@missing $f"
done
echo "@diag $(/tmp/inst/usr/local/sbin/smackfuse --version 2>&1)"
make check TESTS="$*" >/tmp/check.log 2>&1
echo "@step done check"
# make check that stopped before running the tests: say why.
grep -q '^# TOTAL:' /tmp/check.log ||
	tail -n 25 /tmp/check.log | sed 's/^/@log /'
grep -E '^# (TOTAL|PASS|SKIP|FAIL|ERROR):' /tmp/check.log | sed 's/^# /@diag make check inside: /' 
for t in "$@"; do
	log=${t%.test}.log
	[ "$log" = "$t" ] && log=$t.log
	[ -f "$log" ] || { echo "@result ERROR $t - no log"; continue; }
	sed -n 's/^\(PASS\|FAIL\|XFAIL\|XPASS\|SKIP\|ERROR\): /@result \1 /p' "$log"
	grep -E '^# (transport|passthrough|/dev/fuse hooks):' "$log" |
		sort -u | sed 's/^# /@diag '"${t##*/}"': /'
done
EOF

T1=$(date +%s)
# A clean environment: the outer make check's MAKEFLAGS (TESTS=...) and
# test variables must not reach the make inside.
env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	HOME=/root LANG=C.UTF-8 SF_CHROOT_SRC="$W/src" \
	${SMACKFUSE_CACHE:+SMACKFUSE_CACHE="$SMACKFUSE_CACHE"} \
	${SMACKFUSE_DEBIAN_MIRROR:+SMACKFUSE_DEBIAN_MIRROR="$SMACKFUSE_DEBIAN_MIRROR"} \
	"$CHROOT" "$SUITE" run bash /src/.lane-run.sh "$@" >"$W/out" 2>&1
while IFS= read -r line; do
	case $line in
	"@step ok "*) tap_ok "$SUITE: ${line#@step ok } succeeds" ;;
	"@step failed "*) tap_not_ok "$SUITE: ${line#@step failed } succeeds" ;;
	"@step done check") tap_diag "$SUITE: make check ran" ;;
	"@log "*) tap_diag "${line#@log }" ;;
	"@diag "*) tap_diag "$SUITE: ${line#@diag }" ;;
	"@have "*) tap_ok "$SUITE: make install puts ${line#@have } in place" ;;
	"@missing "*) tap_not_ok "$SUITE: make install puts ${line#@missing } in place" ;;
	"@result PASS "*)
		tap_ok "$SUITE: ${line#@result * }" ;;
	"@result XFAIL "*)	# a known bug: counted apart, never as passed
		d=${line#@result XFAIL }
		echo "not ok - $SUITE: ${d%% # TODO*} # TODO ${d#* # TODO }" | _tap ;;
	"@result SKIP "*)
		d=${line#@result SKIP }
		echo "ok - $SUITE: ${d%% # SKIP*} # SKIP ${d#* # SKIP }" | _tap ;;
	"@result "*)
		tap_not_ok "$SUITE: ${line#@result }" ;;
	esac
done <"$W/out"
grep -q '^@step' "$W/out" || {
	tail -n 20 "$W/out" | sed 's/^/# /'
	tap_not_ok "$SUITE: the build root runs the lane"
}
tap_diag "$SUITE: lane took $(($(date +%s) - T0)) s ($(($(date +%s) - T1)) s in the root)"
tap_done
