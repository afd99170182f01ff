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
