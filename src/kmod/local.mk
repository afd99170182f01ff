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
	src/kmod/state.c \
	src/kmod/ltab.c \
	src/kmod/check.c \
	src/kmod/deny.c \
	src/kmod/probe.c \
	src/kmod/fs.c \
	src/kmod/hooks_task.c \
	src/kmod/hooks_ipc.c \
	src/kmod/hooks_net.c \
	src/kmod/peersec.c \
	src/kmod/hooks_file.c \
	src/kmod/hooks_fuse.c \
	src/kmod/verdicts.c \
	src/kmod/pidlabels.c \
	src/kmod/hooks_mqueue.c \
	src/kmod/hooks_key.c \
	src/kmod/net4.c \
	src/kmod/net6.c \
	src/kmod/cipso4.c \
	src/kmod/rcv.c
EXTRA_DIST += $(SF_KMOD_FILES)

# The module's source as kbuild wants it, in the directory $$d (shell
# variable), each file put there by the command $$put (a link for the
# build, a copy for the DKMS source, debian/dkms-source.mk, and for the
# other kernels' lanes below): the module's files and the core's (minus
# its user-space env headers) side by side, and core.mk, the list of the
# core's objects that Kbuild includes (rewritten only when it changes, so
# an unchanged staged copy rebuilds nothing).
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
	echo "smackfuse-y += $$core" >"$$d/core.mk.new"; \
	if cmp -s "$$d/core.mk.new" "$$d/core.mk"; then \
		rm -f "$$d/core.mk.new"; else mv "$$d/core.mk.new" "$$d/core.mk"; fi

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

# smackfuse.ko for the other Debian kernels the module lanes boot
# (tests/kmod/lane.sh): Debian 13's (trixie) and the newest one
# (trixie-backports), each in src/kmod/RELEASE/, built by
# tests/kmod/kmod-build.sh in the trixie build root from a copy of the
# source (kbuild there cannot follow links to this tree).  Before the
# tests run, when the host's module is built (the lanes need its test
# programs): a few seconds when nothing changed; the first time it
# installs each kernel's headers in the build root and builds (about a
# minute each, cached).  A kernel that cannot be had leaves a SKIP, a
# failed build a FAILED, which the lanes report; neither stops make.
# SF_KMOD_KERNELS (environment, tests/kmod/lane.sh) leaves kernels out.
SF_KMOD_LANES = trixie trixie-backports
kmod-lanes:
	@set -e; for r in $(SF_KMOD_LANES); do \
		case " $${SF_KMOD_KERNELS:-$$r} " in *" $$r "*) ;; *) continue ;; esac; \
		d=src/kmod/$$r/src; $(MKDIR_P) $$d; put="cp -p"; \
		$(SF_KMOD_STAGE); \
		$(top_srcdir)/tests/kmod/kmod-build.sh $$r src/kmod/$$r; \
	done
.PHONY: kmod-lanes
if BUILD_KMOD
check_DATA += kmod-lanes
endif

# kbuild leaves objects, .cmd files and symlinks in src/kmod/kbuild/.
clean-local: clean-kmod-kbuild
clean-kmod-kbuild:
	-rm -rf src/kmod/kbuild $(SF_KMOD_LANES:%=src/kmod/%)
.PHONY: clean-kmod-kbuild
