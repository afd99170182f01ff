# tests/parity/fs.mk: the file-operation differential harness (issue 16):
# the same matrix in the Smack reference kernel and through a smackfuse mount.
# fs-matrix is static: the same binary runs in the qemu guest.
check_PROGRAMS += tests/parity/fs-matrix
tests_parity_fs_matrix_SOURCES = tests/parity/fs-matrix.c \
	tests/parity/casediff.c tests/parity/casediff.h
tests_parity_fs_matrix_LDFLAGS = -static
TESTS += tests/parity/fs.test
EXTRA_DIST += tests/parity/fs.test tests/parity/fs-guest.sh \
	tests/parity/fs-guest-debian.sh \
	tests/parity/fs-allow.txt tests/parity/fs-bugs.txt
