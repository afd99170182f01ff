#!/bin/bash
# quickstart.sh - one command from a fresh Debian 12 or 13 machine to a
# result.
#
#   ./quickstart.sh test    install what is missing, build, run the whole suite
#   ./quickstart.sh demo    install, build, mount a sample tree and show who may
#                           do what (added with the filesystem)
#   ./quickstart.sh deps    only install the Debian packages
#   ./quickstart.sh build   only build (into ./build)
#
# Must run as root (apt-get, FUSE mounts, test users).  The last line of
# "test" is "N passed, N failed, N skipped, N known bugs" (tests/README says
# what each counts); the exit status is non-zero if anything failed.
set -euo pipefail
cd "$(dirname "$0")"
TOP=$PWD
BUILD=${BUILD:-$TOP/build}

# Every Debian package the build and the tests need, on every release.
DEBS="build-essential autoconf automake libtool pkg-config
 libfuse3-dev fuse3 libnl-3-dev libnl-genl-3-dev libattr1-dev attr liburcu-dev
 liburing-dev
 clang libclang-rt-dev llvm
 qemu-system-x86 qemu-utils busybox-static cpio kmod netlabel-tools
 linux-image-amd64 linux-headers-amd64 flex bison bc
 libelf-dev libssl-dev dwarves
 bindfs valgrind cppcheck man-db groff-base python3 util-linux passwd
 iproute2 procps psmisc libpam0g-dev pamtester debootstrap e2fsprogs zstd
 debhelper dh-dkms dkms dpkg-dev fakeroot lintian"

# What only some releases have.  The Smack reference kernel
# (tests/qemu/smack-kernel.sh) is built from Debian 12's linux-source-6.1;
# Debian 13 has none, and the tests that compare with it say SKIP there.
release_debs() {
	local codename
	codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
	case "$codename" in
	bookworm) echo "linux-source-6.1" ;;
	trixie)
		echo "quickstart: Debian 13 has no linux-source-6.1: the tests" \
			"against the Smack reference kernel built from it" \
			"will SKIP" >&2 ;;
	*)
		echo "quickstart: ${codename:-this system} is neither Debian 12" \
			"(bookworm) nor 13 (trixie): trying Debian 13's" \
			"package list" >&2 ;;
	esac
}

deps() {
	local missing="" p
	for p in $DEBS $(release_debs); do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q "install ok installed" || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	echo "quickstart: installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update
	apt-get install -y --no-install-recommends $missing
}

build() {
	autoreconf -fi
	mkdir -p "$BUILD"
	cd "$BUILD"
	[ -f Makefile ] || "$TOP/configure"
	make -j"$(nproc)"
	cd "$TOP"
}

# The cases that the parity harnesses' lanes without smackfuse.ko allow as
# holes (their "# parity-counts ... module=no ... hole=N" lines: what a
# daemon alone cannot see, each an entry of the lane's allow list).
holes() {
	find "$BUILD" -name '*.trs' | sed 's/\.trs$/.log/' |
		xargs -r grep -h '^# parity-counts .* module=no ' 2>/dev/null |
		awk '{ for (i = 3; i <= NF; i++) if ($i ~ /^hole=/) n += substr($i, 6) }
		     END { print n + 0 }'
}

# Count TAP results from every .trs file automake wrote (tests/README,
# "The final line", says what each word means).  A known bug is a
# "not ok ... # TODO" point (automake's XFAIL): listed in a bug list, it
# neither passes nor fails the run; an unexpected pass (XPASS) fails.
summary() {
	local res pass fail skip bugs
	res=$(find "$BUILD" -name '*.trs' -exec grep -h '^:test-result:' {} + ||
		true)
	pass=$(printf '%s\n' "$res" | grep -cE ': PASS$' || true)
	fail=$(printf '%s\n' "$res" | grep -cE ': (FAIL|XPASS|ERROR)$' || true)
	skip=$(printf '%s\n' "$res" | grep -cE ': SKIP$' || true)
	bugs=$(printf '%s\n' "$res" | grep -cE ': XFAIL$' || true)
	echo "$pass passed, $fail failed, $skip skipped, $bugs known bugs, $(holes) holes without the module"
	[ "$fail" -eq 0 ]
}

run_tests() {
	local rc=0
	find "$BUILD" -name '*.trs' -delete 2>/dev/null || true
	make -C "$BUILD" -j1 check || rc=$?
	if [ $rc -ne 0 ]; then
		find "$BUILD" -name '*.log' -path '*tests*' -newer "$BUILD/Makefile" \
			-exec grep -l -E '^(not ok|ERROR|FAIL)' {} + 2>/dev/null |
			while read -r f; do echo "==== $f"; tail -n 40 "$f"; done
	fi
	if ! summary; then return 1; fi
	if [ $rc -ne 0 ]; then
		echo "make check failed (rc=$rc) outside the counted tests"
		echo "0 passed, 1 failed, 0 skipped, 0 known bugs, 0 holes without the module"
		return 1
	fi
}

case "${1:-test}" in
deps) deps ;;
build) deps; build ;;
test) deps; build; run_tests ;;
demo)
	deps; build
	exec "$TOP/tests/fuse/demo.sh" "$BUILD"
	;;
*) echo "usage: $0 test|demo|deps|build" >&2; exit 2 ;;
esac
