# src/kmod: smackfuse.ko, built by kbuild against $(KDIR) (configure finds
# the headers; --with-kernel-headers=DIR|no).  kbuild builds an external
# module in its own directory, so the rule links the module's sources and
# the shared core's (minus its user-space env header) into
# src/kmod/kbuild/ of the build tree and runs kbuild there.  Any warning
# fails the build.  `make install` puts the module in
# /lib/modules/<release of KDIR>/extra/.
SF_KMOD_FILES = \
	src/kmod/Kbuild \
	src/kmod/sf_env.h \
	src/kmod/smackfuse.h \
	src/kmod/release.h \
	src/kmod/release-6.1.h \
	src/kmod/release-6.12.h \
	src/kmod/release-7.3.h \
	src/kmod/main.c \
	src/kmod/release.c \
	src/kmod/check.c \
	src/kmod/ltab.c \
	src/kmod/probe.c \
	src/kmod/fs.c \
	src/kmod/hooks_task.c \
	src/kmod/hooks_ipc.c \
	src/kmod/hooks_net.c \
	src/kmod/hooks_file.c \
	src/kmod/hooks_mqueue.c \
	src/kmod/hooks_key.c \
	src/kmod/net4.c \
	src/kmod/net6.c
EXTRA_DIST += $(SF_KMOD_FILES)

# The module's source as kbuild wants it, in the directory $$d (shell
# variable), each file put there by the command $$put (a link for the
# build, a copy for the DKMS source, debian/dkms-source.mk): the module's
# files and the core's (minus its user-space env headers) side by side,
# and core.mk, the list of the core's objects that Kbuild includes.
SF_KMOD_STAGE = core=; \
	for f in $(SF_KMOD_FILES); do \
		$$put "$(abs_top_srcdir)/$$f" "$$d/"; done; \
	for f in $(src_common_libsfcore_a_SOURCES); do \
		case $$f in \
		*/user/*) ;; \
		*.c) $$put "$(abs_top_srcdir)/$$f" "$$d/"; \
		     core="$$core `basename $$f .c`.o" ;; \
		*) $$put "$(abs_top_srcdir)/$$f" "$$d/" ;; \
		esac; \
	done; \
	echo "smackfuse-y += $$core" >"$$d/core.mk"

if BUILD_KMOD
kmoddir = /lib/modules/$(KVER)/extra
kmod_DATA = src/kmod/smackfuse.ko
CLEANFILES += src/kmod/smackfuse.ko src/kmod/kbuild/build.log

src/kmod/smackfuse.ko: $(SF_KMOD_FILES) $(src_common_libsfcore_a_SOURCES)
	$(AM_V_GEN)set -e; d=src/kmod/kbuild; $(MKDIR_P) $$d; \
	put="ln -sf"; $(SF_KMOD_STAGE); \
	if ! $(MAKE) -C "$(KDIR)" M="$(abs_builddir)/$$d" modules \
		>$$d/build.log 2>&1; then cat $$d/build.log; exit 1; fi; \
	if grep -i 'warning' $$d/build.log; then \
		echo "smackfuse.ko: kbuild warnings (above)"; exit 1; fi; \
	cp $$d/smackfuse.ko $@
endif

# kbuild leaves objects, .cmd files and symlinks in src/kmod/kbuild/.
clean-local: clean-kmod-kbuild
clean-kmod-kbuild:
	-rm -rf src/kmod/kbuild
.PHONY: clean-kmod-kbuild
