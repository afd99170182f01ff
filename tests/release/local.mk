# tests/release: the tree on other Debian releases, in build roots that
# tests/release/chroot.sh makes once and caches.  lane.sh builds the
# committed tree in one (autoreconf, configure, make, make install) and
# runs tests there, each of their points a point of the lane.
#
# trixie.test: Debian 13 (libfuse 3.17), the whole FUSE suite.
# testing.test: Debian testing (gcc 16, libfuse 3.18 without custom I/O),
# the build and the tests of the transport alone, to keep CI lean.
SF_FUSE_SUITE = $(FUSE_TESTS) $(CONTROL_TESTS)
SF_TRANSPORT_SUITE = tests/fuse/enforce.test tests/fuse/passthrough.test \
	tests/fuse/loop.test tests/fuse/uring.test tests/fuse/mount.test
AM_TESTS_ENVIRONMENT += SF_FUSE_SUITE='$(SF_FUSE_SUITE)'; \
	SF_TRANSPORT_SUITE='$(SF_TRANSPORT_SUITE)'; \
	export SF_FUSE_SUITE SF_TRANSPORT_SUITE;
TESTS += tests/release/trixie.test tests/release/testing.test
EXTRA_DIST += tests/release/chroot.sh tests/release/lane.sh \
	tests/release/trixie.test tests/release/testing.test
