# tests/reliability: fragment of the top-level Makefile.am (paths relative to the top).
#
# Faults, load and hostile input (issue 7).  Every scenario runs at a
# reduced count in `make check`; `make check-heavy` runs the same scripts
# at full count (RL_HEAVY=1).  Outcomes are listed in tests/README.

check_PROGRAMS += tests/reliability/fsx

# Scenarios that pass on main, run by `make check`.
RL_TESTS = \
	tests/reliability/fsx-native.test

TESTS += $(RL_TESTS)

EXTRA_DIST += \
	tests/reliability/rl-lib.sh \
	tests/reliability/FINDINGS \
	$(RL_TESTS)

# Full counts: 1,000,000-file walk, 1,000,000-op denial storm, longer fsx.
check-heavy:
	$(MAKE) $(AM_MAKEFLAGS) $(check_PROGRAMS) $(noinst_PROGRAMS) $(sbin_PROGRAMS)
	RL_HEAVY=1 $(MAKE) $(AM_MAKEFLAGS) check TESTS='$(RL_TESTS)'
.PHONY: check-heavy
