# tests/pkg: the Debian packages and the install paths (issue 18).
# debs.test builds the packages from the committed tree (build-debs.sh)
# into tests/pkg/debs/ of the build tree; debs-trixie.test the Debian 13
# ones, in a clean trixie build root, into tests/pkg/debs-trixie/;
# paths.test configures and installs into a private prefix.
PKG_TESTS = tests/pkg/paths.test tests/pkg/debs.test tests/pkg/debs-trixie.test
TESTS += $(PKG_TESTS)
EXTRA_DIST += $(PKG_TESTS) tests/pkg/lib.sh tests/pkg/build-debs.sh

clean-local: clean-pkg-debs
clean-pkg-debs:
	-rm -rf tests/pkg/debs tests/pkg/debs-trixie
.PHONY: clean-pkg-debs
