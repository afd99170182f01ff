# tests/hermetic: what keeps a test off the host's own smackfuse state
# (lib.sh: the test's own policy directory and index of mounts, marked
# test users), and hostile.test: the filesystem and control tests again,
# in a mount namespace where the host's /etc/smackfuse, /etc/smack and
# /run/smackfuse are hostile (see the test).
TESTS += tests/hermetic/hostile.test
EXTRA_DIST += tests/hermetic/lib.sh tests/hermetic/hostile.test

# The tests hostile.test runs again.
tests/hermetic/hostile.list: Makefile
	$(AM_V_GEN)$(MKDIR_P) tests/hermetic && \
	echo $(FUSE_TESTS) $(CONTROL_TESTS) >$@
check_DATA += tests/hermetic/hostile.list
CLEANFILES += tests/hermetic/hostile.list
