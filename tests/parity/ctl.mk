# tests/parity/ctl.mk: the control-file differential harness (issue 16):
# the same writes to smackfs in the Smack reference kernel and to
# smackfuse's control directory.
check_PROGRAMS += tests/parity/ctl-run
tests_parity_ctl_run_SOURCES = tests/parity/ctl-run.c
tests_parity_ctl_run_LDFLAGS = -static
CTL_PARITY_TESTS = tests/parity/ctl-parity.test
TESTS += $(CTL_PARITY_TESTS)
EXTRA_DIST += $(CTL_PARITY_TESTS) tests/parity/ctl-steps.txt \
	tests/parity/guest-ctl.sh tests/parity/ctl-diff.awk tests/parity/ctl-kinds.awk \
	tests/parity/ctl-allow.txt tests/parity/ctl-bugs.txt \
	tests/parity/ctl-kernel.txt
