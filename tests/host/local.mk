# tests/host: fragment of the top-level Makefile.am (paths relative to the top).
# The booted Debian host (issues 18, 27): a Debian 12 image (and a Debian 13
# one: debian-host-trixie.test) with systemd, built once by debian-image.sh
# and cached under /var/cache/smackfuse/debian-host/, boots in qemu,
# installs smackfuse from that release's Debian packages (tests/pkg's,
# which make check builds first: tests/host/local.mk is included after
# tests/pkg/local.mk) with dpkg -i and runs the shared-host scenario
# (guest-host.sh) under systemd.  See tests/host/README.
# debian-host-trixie-backports.test (Debian 13 on 7.x) runs when asked for
# (SFHOST_LANES); otherwise it says SKIP and why, counted as such.
TESTS += tests/host/debian-host.test tests/host/debian-host-trixie.test \
	tests/host/debian-host-trixie-backports.test
EXTRA_DIST += \
	tests/host/README \
	tests/host/debian-host.test \
	tests/host/debian-host-trixie.test \
	tests/host/debian-host-trixie-backports.test \
	tests/host/debian-image.sh \
	tests/host/dkms-prebuild.sh \
	tests/host/initramfs-init \
	tests/host/guest-run.sh \
	tests/host/guest-install.sh \
	tests/host/guest-host.sh \
	tests/host/guest-nfs.sh \
	tests/host/sfhost-test.service

# Build (or find in the cache) the Debian host image ahead of make check.
debian-host-image:
	$(top_srcdir)/tests/host/debian-image.sh
.PHONY: debian-host-image
