# tests/kmod: smackfuse.ko booted in qemu on Debian's kernel, through the
# tests/qemu harness.  Guest programs are linked -static: kact (does one
# checked action, prints its errno), smackrun, and the smackfuse daemon
# (for daemon.test: the mount asks the module for caller labels).
SF_KMOD_TESTS = \
	tests/kmod/checks.test \
	tests/kmod/stress.test \
	tests/kmod/daemon.test \
	tests/kmod/rcv.test \
	tests/kmod/cycle.test
# The module lanes on the other Debian kernels (tests/kmod/lane.sh; their
# modules: make kmod-lanes, src/kmod/local.mk).  In TESTS whatever
# configure found: a lane that cannot run says SKIP and why.
SF_KMOD_LANE_TESTS = \
	tests/kmod/checks-trixie.test \
	tests/kmod/checks-trixie-backports.test \
	tests/kmod/daemon-trixie.test \
	tests/kmod/daemon-trixie-backports.test \
	tests/kmod/rcv-trixie.test \
	tests/kmod/rcv-trixie-backports.test
TESTS += $(SF_KMOD_LANE_TESTS)
EXTRA_DIST += $(SF_KMOD_TESTS) $(SF_KMOD_LANE_TESTS) \
	tests/kmod/lane.sh \
	tests/kmod/kmod-build.sh \
	tests/kmod/guest-checks.sh \
	tests/kmod/guest-stress.sh \
	tests/kmod/guest-cycle.sh \
	tests/kmod/guest-daemon.sh \
	tests/kmod/guest-rcv.sh \
	tests/kmod/tcg-int3/README \
	tests/kmod/tcg-int3/Kbuild \
	tests/kmod/tcg-int3/kpstress.c \
	tests/kmod/tcg-int3/guest-kps.sh \
	tests/kmod/tcg-int3/run.sh

if BUILD_KMOD
check_PROGRAMS += tests/kmod/kact tests/kmod/smackrun-static \
	tests/kmod/smackfuse-static tests/kmod/rcvpeer
tests_kmod_kact_SOURCES = tests/kmod/kact.c tests/kmod/fdpass.c \
	tests/kmod/fdpass.h
tests_kmod_kact_LDFLAGS = -static
tests_kmod_rcvpeer_SOURCES = tests/kmod/rcvpeer.c
tests_kmod_rcvpeer_LDFLAGS = -static
tests_kmod_smackrun_static_SOURCES = src/tools/smackrun.c
tests_kmod_smackrun_static_LDFLAGS = -static
tests_kmod_smackfuse_static_SOURCES = $(smackfuse_SOURCES)
tests_kmod_smackfuse_static_CPPFLAGS = $(smackfuse_CPPFLAGS)
tests_kmod_smackfuse_static_CFLAGS = $(smackfuse_CFLAGS)
tests_kmod_smackfuse_static_LDADD = $(smackfuse_LDADD) -ldl -lrt -lurcu-common
tests_kmod_smackfuse_static_LDFLAGS = -static
endif
# Always in TESTS: without smackfuse.ko qemu-run.sh says SKIP, and why.
TESTS += $(SF_KMOD_TESTS)
