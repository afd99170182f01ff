# tests/parity/task.mk: the task/IPC/socket differential harness (issue 17):
# one matrix in the Smack reference kernel and under smackfuse.ko on
# Debian's kernel, both in qemu.  task-matrix is static: it runs in the
# guests, and compares the two runs on the host.  task.test is always in
# TESTS: without smackfuse.ko it says SKIP, and why.
EXTRA_DIST += tests/parity/task.test tests/parity/task-guest.sh \
	tests/parity/task-allow.txt tests/parity/task-bugs.txt
check_PROGRAMS += tests/parity/task-matrix
tests_parity_task_matrix_SOURCES = tests/parity/task-matrix.c \
	tests/parity/casediff.c tests/parity/casediff.h \
	tests/kmod/fdpass.c tests/kmod/fdpass.h
tests_parity_task_matrix_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/kmod
tests_parity_task_matrix_LDFLAGS = -static
TESTS += tests/parity/task.test
