# tests/parity/task.mk: the task/IPC/socket differential harness (issue 17):
# one matrix in the Smack reference kernel and under smackfuse.ko on
# Debian's kernel, both in qemu.  task-matrix is static: it runs in the
# guests, and compares the two runs on the host.  task.test runs on
# Debian 12's kernel, task-trixie*.test on the others (tests/kmod/lane.sh);
# all are always in TESTS: each says SKIP, and why, where it cannot run.
SF_TASK_TESTS = tests/parity/task.test tests/parity/task-trixie.test \
	tests/parity/task-trixie-backports.test
TESTS += $(SF_TASK_TESTS)
EXTRA_DIST += $(SF_TASK_TESTS) tests/parity/task-guest.sh \
	tests/parity/refcache.sh \
	tests/parity/task-allow.txt tests/parity/task-bugs.txt
check_PROGRAMS += tests/parity/task-matrix
tests_parity_task_matrix_SOURCES = tests/parity/task-matrix.c \
	tests/parity/casediff.c tests/parity/casediff.h \
	tests/kmod/fdpass.c tests/kmod/fdpass.h
tests_parity_task_matrix_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/kmod
tests_parity_task_matrix_LDFLAGS = -static
