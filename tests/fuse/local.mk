# tests/fuse: fragment of the top-level Makefile.am (paths relative to the top).
#
# The smackfuse filesystem tests (issue 3): real FUSE mounts, real users
# (useradd), one system call at a time through tests/fuse/as.  Tests that
# do not pass against main's daemon yet are listed in tests/fuse/KNOWN-GAPS
# and kept out of TESTS until they do.

check_PROGRAMS += tests/fuse/as
tests_fuse_as_SOURCES = tests/fuse/as.c
check_PROGRAMS += tests/fuse/access-race
check_PROGRAMS += tests/fuse/fhandle
tests_fuse_fhandle_SOURCES = tests/fuse/fhandle.c
tests_fuse_access_race_SOURCES = tests/fuse/access-race.c
check_PROGRAMS += tests/fuse/uidmany
tests_fuse_uidmany_SOURCES = tests/fuse/uidmany.c
check_PROGRAMS += tests/fuse/pidreuse
tests_fuse_pidreuse_SOURCES = tests/fuse/pidreuse.c
# A read under an io_uring personality (privilege.test); without liburing
# the test says SKIP.
if HAVE_LIBURING
check_PROGRAMS += tests/fuse/personality
tests_fuse_personality_SOURCES = tests/fuse/personality.c
tests_fuse_personality_CFLAGS = $(AM_CFLAGS) $(URING_CFLAGS)
tests_fuse_personality_LDADD = $(URING_LIBS)
endif
EXTRA_DIST += tests/fuse/personality.c
# A name service that hangs or fails on purpose (users-nss.test), linked
# as a -shared "program" as src/pam does: glibc loads it by name through
# LD_LIBRARY_PATH.
check_PROGRAMS += tests/fuse/libnss_sfhang.so.2
tests_fuse_libnss_sfhang_so_2_SOURCES = tests/fuse/nss_sfhang.c
tests_fuse_libnss_sfhang_so_2_CFLAGS = $(AM_CFLAGS) -fPIC
tests_fuse_libnss_sfhang_so_2_LDFLAGS = -shared

FUSE_TESTS = \
	tests/fuse/posix.test \
	tests/fuse/setid.test \
	tests/fuse/handles.test \
	tests/fuse/umask.test \
	tests/fuse/tmpfile.test \
	tests/fuse/acl.test \
	tests/fuse/mountopts.test \
	tests/fuse/examples.test \
	tests/fuse/enforce.test \
	tests/fuse/label-values.test \
	tests/fuse/parity-ops.test \
	tests/fuse/mount.test \
	tests/fuse/onlycap.test \
	tests/fuse/privilege.test \
	tests/fuse/access.test \
	tests/fuse/site.test \
	tests/fuse/attrcache.test \
	tests/fuse/demo.test \
	tests/fuse/options.test \
	tests/fuse/passthrough.test \
	tests/fuse/loop.test \
	tests/fuse/uring.test \
	tests/fuse/users-scale.test \
	tests/fuse/users-follow.test \
	tests/fuse/users-nss.test

TESTS += $(FUSE_TESTS)

EXTRA_DIST += \
	tests/fuse/lib.sh \
	tests/fuse/posix-cases.sh \
	tests/fuse/mountopts-cases.sh \
	tests/fuse/userdb.sh \
	tests/fuse/demo.sh \
	tests/fuse/KNOWN-GAPS \
	tests/fuse/examples.gaps \
	tests/fuse/examples-gaps.test \
	$(FUSE_TESTS)

# site-debian.test: getattr.c on Debian 12's kernel (6.1) in qemu, with the
# daemon and helpers linked -static (tests/kmod builds the daemon).
if BUILD_KMOD
check_PROGRAMS += tests/fuse/as-static tests/fuse/access-race-static
tests_fuse_as_static_SOURCES = tests/fuse/as.c
tests_fuse_as_static_LDFLAGS = -static
tests_fuse_access_race_static_SOURCES = tests/fuse/access-race.c
tests_fuse_access_race_static_LDFLAGS = -static
endif
# Always in TESTS: without smackfuse.ko (or the kernel) qemu-run.sh says
# SKIP, and why.  The same on Debian 13's kernel and the newest Debian
# kernel (7.x), with labels from a users map: a lane each.
TESTS += tests/fuse/site-debian.test
TESTS += tests/fuse/site-trixie.test tests/fuse/site-trixie-backports.test
EXTRA_DIST += tests/fuse/site-debian.test tests/fuse/guest-site.sh \
	tests/fuse/site-trixie.test tests/fuse/site-trixie-backports.test

# posix-kernels.test: setid.test's and umask.test's lists on Debian 12's
# and 13's kernels in qemu (static daemon and helper); the newest Debian
# kernel too with SF_POSIX_KERNELS="debian trixie trixie-backports".
# In TESTS whatever configure found: without the static daemon it SKIPs.
TESTS += tests/fuse/posix-kernels.test
EXTRA_DIST += tests/fuse/posix-kernels.test tests/fuse/guest-posix.sh \
	tests/fuse/guest-acl.sh

# handles-kernels.test: handles.test's core on Debian 12's and 13's
# kernels in qemu (static daemon and helpers).
if BUILD_KMOD
check_PROGRAMS += tests/fuse/fhandle-static
tests_fuse_fhandle_static_SOURCES = tests/fuse/fhandle.c
tests_fuse_fhandle_static_LDFLAGS = -static
endif
TESTS += tests/fuse/handles-kernels.test
EXTRA_DIST += tests/fuse/handles-kernels.test tests/fuse/guest-handles.sh

# mountopts-kernels.test: mountopts.test's cases (mountopts-cases.sh) on
# Debian 12's and 13's kernels in qemu (static daemon and helper; the
# host's mount(8) and mount.fuse3 with their libraries); the newest Debian
# kernel too with SF_MOUNTOPTS_KERNELS="debian trixie trixie-backports".
TESTS += tests/fuse/mountopts-kernels.test
EXTRA_DIST += tests/fuse/mountopts-kernels.test tests/fuse/guest-mountopts.sh

# mmap-kmod.test: the SMACK64MMAP rule at exec with labels from smackfuse.ko
# (the exec's SMACK64EXEC label counts), in qemu on Debian's kernel; it
# uses tests/kmod's static helpers and daemon.
# In TESTS whatever configure found: without the module it says SKIP.  The
# same on Debian 13's kernel and the newest one (tests/kmod/lane.sh).
SF_MMAP_KMOD_TESTS = tests/fuse/mmap-kmod.test \
	tests/fuse/mmap-kmod-trixie.test \
	tests/fuse/mmap-kmod-trixie-backports.test
TESTS += $(SF_MMAP_KMOD_TESTS)
EXTRA_DIST += $(SF_MMAP_KMOD_TESTS) tests/fuse/guest-mmap.sh

# parity-ops-ref.test: parity-ops.test's cases in the Smack reference
# kernel (qemu, tests/qemu/smack-kernel.sh): mainline's own answers.
TESTS += tests/fuse/parity-ops-ref.test
EXTRA_DIST += tests/fuse/parity-ops-ref.test tests/fuse/guest-parity-ops.sh
# handles-ref.test: handles.test's Smack cases in the reference kernel.
TESTS += tests/fuse/handles-ref.test
EXTRA_DIST += tests/fuse/handles-ref.test tests/fuse/guest-handles-ref.sh
