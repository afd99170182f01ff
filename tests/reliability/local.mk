# tests/reliability: fragment of the top-level Makefile.am (paths relative to the top).
#
# Faults, load and hostile input (issue 7).  Every scenario runs at a
# reduced count in `make check`; `make check-heavy` runs the same scripts
# at full count (RL_HEAVY=1).  Outcomes are listed in tests/README.

check_PROGRAMS += \
	tests/reliability/fsx \
	tests/reliability/rl-op \
	tests/reliability/rl-race \
	tests/reliability/rl-storm
tests_reliability_rl_race_LDADD = -lpthread

# Scenarios that pass on main, run by `make check`.
RL_TESTS = \
	tests/reliability/fuzz.test \
	tests/reliability/fsx-native.test \
	tests/reliability/fsx-mount.test \
	tests/reliability/writers.test \
	tests/reliability/enospc.test \
	tests/reliability/kill.test \
	tests/reliability/fdlimit.test \
	tests/reliability/storm.test \
	tests/reliability/attack.test \
	tests/reliability/rss.test

# Written, not yet passing on main (see tests/reliability/FINDINGS).
RL_PENDING =

TESTS += $(RL_TESTS)

EXTRA_DIST += \
	tests/reliability/rl-lib.sh \
	tests/reliability/fuzz/fuzz_users.c \
	tests/reliability/fuzz/fuzz_options.c \
	tests/reliability/FINDINGS \
	$(RL_TESTS) $(RL_PENDING)

# Full counts: 1,000,000-op fsx, 1,000,000-file walk, 1,000,000-op denial
# storm, 100,000-iteration races.
check-heavy:
	$(MAKE) $(AM_MAKEFLAGS) $(check_PROGRAMS) $(sbin_PROGRAMS) $(bin_PROGRAMS)
	RL_HEAVY=1 $(MAKE) $(AM_MAKEFLAGS) check TESTS='$(RL_TESTS) $(RL_PENDING)'
.PHONY: check-heavy
