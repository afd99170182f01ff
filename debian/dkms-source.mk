# debian/dkms-source.mk: read after the build tree's Makefile
# (make -f Makefile -f debian/dkms-source.mk), so the module's source is
# laid out by the build's own recipe, SF_KMOD_STAGE (src/kmod/local.mk),
# with copies instead of links.
#
# install-dkms-source DKMS_SRCDIR=DIR lays out the module's source in DIR
# as kbuild builds it: the module's files and the core's side by side,
# and core.mk, the list of the core's objects that Kbuild includes.

install-dkms-source:
	@test -n "$(DKMS_SRCDIR)" || { \
		echo "install-dkms-source: DKMS_SRCDIR=DIR is required" >&2; \
		exit 1; }
	set -e; d="$(DKMS_SRCDIR)"; $(MKDIR_P) "$$d"; \
	put="$(INSTALL_DATA)"; $(SF_KMOD_STAGE)

.PHONY: install-dkms-source
