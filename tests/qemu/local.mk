# tests/qemu: fragment of the top-level Makefile.am (paths relative to the top).
# The qemu harness (see tests/qemu/README) and its smoke test.  Other
# fragments use the harness from $(top_srcdir)/tests/qemu/ at test time.
QEMU_HARNESS = \
	tests/qemu/README \
	tests/qemu/debian-kernel.sh \
	tests/qemu/smack-kernel.sh \
	tests/qemu/smack.config \
	tests/qemu/mkinitramfs.sh \
	tests/qemu/init \
	tests/qemu/guest-tap.sh \
	tests/qemu/qemu-run.sh \
	tests/qemu/tap-extract.awk \
	tests/qemu/tap.sh \
	tests/qemu/guest-boot.sh \
	tests/qemu/guest-fail.sh

TESTS += tests/qemu/boot.test
EXTRA_DIST += $(QEMU_HARNESS) tests/qemu/boot.test

# The differential test against kernel Smack (issue 2): smackdiff (host,
# linked with the access core) and smackq (guest, static).
check_PROGRAMS += tests/qemu/smackdiff tests/qemu/smackq
tests_qemu_smackdiff_SOURCES = tests/qemu/smackdiff.c
tests_qemu_smackdiff_CFLAGS = $(AM_CFLAGS) $(URCU_CFLAGS)
tests_qemu_smackdiff_LDADD = src/common/libsfcore.a $(URCU_LIBS)
tests_qemu_smackq_SOURCES = tests/qemu/smackq.c
tests_qemu_smackq_LDFLAGS = -static
TESTS += tests/qemu/smack-diff.test
EXTRA_DIST += tests/qemu/smack-diff.test tests/qemu/guest-smackq.sh

# Build (or find in the cache) the Smack reference kernel ahead of make check.
smack-kernel:
	$(top_srcdir)/tests/qemu/smack-kernel.sh
.PHONY: smack-kernel
