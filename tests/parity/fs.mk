# tests/parity/fs.mk: the file-operation differential harness (issue 16):
# the same matrix in the Smack reference kernel and through a smackfuse mount.
# fs-matrix is static: the same binary runs in the qemu guest.
check_PROGRAMS += tests/parity/fs-matrix
tests_parity_fs_matrix_SOURCES = tests/parity/fs-matrix.c \
	tests/parity/casediff.c tests/parity/casediff.h
tests_parity_fs_matrix_LDFLAGS = -static
# fs.test: the host's lane and the module lane on Debian 12's kernel;
# fs-kmod-trixie*.test: the module lane on the other kernels
# (tests/kmod/lane.sh).
SF_FS_TESTS = tests/parity/fs.test tests/parity/fs-kmod-trixie.test \
	tests/parity/fs-kmod-trixie-backports.test
TESTS += $(SF_FS_TESTS)
EXTRA_DIST += $(SF_FS_TESTS) tests/parity/fs-guest.sh \
	tests/parity/fs-guest-debian.sh \
	tests/parity/fs-allow.txt tests/parity/fs-bugs.txt
