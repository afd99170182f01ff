# tests/pam: fragment of the top-level Makefile.am (paths relative to the top).
#
# pam_smackfuse: on the host through pamtester and a PAM service of the
# test's own (without smackfuse.ko: host.test), and in qemu on Debian's
# kernel with smackfuse.ko loaded (session.test).  pam-label opens
# sessions as login does and prints the labels of itself and of a forked,
# exec'd child.
if BUILD_PAM
check_PROGRAMS += tests/pam/pam-label
tests_pam_pam_label_SOURCES = tests/pam/pam-label.c
tests_pam_pam_label_LDADD = -lpam
endif
# Always in TESTS: without libpam's headers (no pam_smackfuse.so) both say
# SKIP, and why; without smackfuse.ko, qemu-run.sh says it for session.test
# (smackrun-static: tests/kmod/local.mk).
TESTS += tests/pam/host.test tests/pam/session.test
EXTRA_DIST += tests/pam/host.test tests/pam/session.test tests/pam/lib.sh \
	tests/pam/guest-session.sh
