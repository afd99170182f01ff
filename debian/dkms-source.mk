# debian/dkms-source.mk: read after the build tree's Makefile
# (make -f Makefile -f debian/dkms-source.mk), so the file lists are the
# ones the build uses: SF_KMOD_FILES (src/kmod/local.mk) and the shared
# core's sources (src/common/local.mk).
#
# install-dkms-source DKMS_SRCDIR=DIR lays out the module's source in DIR
# as src/kmod/local.mk does for kbuild: the module's files and the core's
# (minus its user-space env header, src/common/user/) side by side, and
# core.mk, the list of the core's objects that Kbuild includes.

install-dkms-source:
	@test -n "$(DKMS_SRCDIR)" || { \
		echo "install-dkms-source: DKMS_SRCDIR=DIR is required" >&2; \
		exit 1; }
	set -e; d="$(DKMS_SRCDIR)"; $(MKDIR_P) "$$d"; core=; \
	for f in $(SF_KMOD_FILES); do \
		$(INSTALL_DATA) "$(top_srcdir)/$$f" "$$d/"; done; \
	for f in $(src_common_libsfcore_a_SOURCES); do \
		case $$f in \
		*/user/*) ;; \
		*.c) $(INSTALL_DATA) "$(top_srcdir)/$$f" "$$d/"; \
		     core="$$core `basename $$f .c`.o" ;; \
		*) $(INSTALL_DATA) "$(top_srcdir)/$$f" "$$d/" ;; \
		esac; \
	done; \
	echo "smackfuse-y += $$core" >"$$d/core.mk"

.PHONY: install-dkms-source
