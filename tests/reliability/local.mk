# tests/reliability: fragment of the top-level Makefile.am (paths relative to the top).
#
# Faults, load and hostile input (issue 7).  Every scenario runs at a
# reduced count in `make check`; `make check-heavy` runs the same scripts
# at full count (RL_HEAVY=1).  Outcomes are listed in tests/README.

check_PROGRAMS += \
	tests/reliability/fsx \
	tests/reliability/rl-race \
	tests/reliability/rl-storm
tests_reliability_rl_race_LDADD = -lpthread

# Scenarios that pass on main, run by `make check`.
RL_TESTS = \
	tests/reliability/fuzz.test \
	tests/reliability/fsx-native.test \
	tests/reliability/fsx-mount.test \
	tests/reliability/writers.test \
	tests/reliability/enospc.test \
	tests/reliability/kill.test \
	tests/reliability/fdlimit.test \
	tests/reliability/storm.test \
	tests/reliability/attack.test \
	tests/reliability/rss.test \
	tests/reliability/walk.test

# Written, not yet passing on main (see tests/reliability/FINDINGS).
RL_PENDING =

TESTS += $(RL_TESTS)

EXTRA_DIST += \
	tests/reliability/rl-lib.sh \
	tests/reliability/fuzz/fuzz_stubs.c \
	$(RL_FUZZ_NAMES:%=tests/reliability/fuzz/fuzz_%.c) \
	tests/reliability/FINDINGS \
	$(RL_TESTS) $(RL_PENDING)

# libFuzzer targets on the daemon's input parsers, run by fuzz.test: the
# users map, the command line and -o list, the Smack xattr values of
# setxattr, and the control-file writes.  The daemon's and the core's
# sources are compiled once, instrumented, into one archive; a target that
# includes a daemon file itself (main.c, ops.c, control.c, to reach its
# static functions) simply does not pull that member.  syslog() is
# renamed to a silent stub (fuzz_stubs.c): rejected inputs are logged.
RL_FUZZ_NAMES = users options xattr control
# The daemon's and the control library's sources as the build lists them
# (a file added there is fuzzed here too); main.c and headers are skipped
# when compiling.
RL_FUZZ_SRC = $(smackfuse_SOURCES) $(src_control_libsfcontrol_a_SOURCES) \
	$(src_common_user_libsfuser_a_SOURCES) \
	src/common/cipso.c src/common/net4addr.c \
	tests/reliability/fuzz/fuzz_stubs.c
RL_FUZZ_H = $(SF_CORE_H) $(top_srcdir)/src/fuse/smackfuse.h \
	$(top_srcdir)/src/fuse/options.h \
	$(top_srcdir)/src/fuse/handlers/create.h $(top_srcdir)/src/control/control.h \
	$(top_srcdir)/src/control/control_int.h $(top_srcdir)/src/common/cipso.h \
	$(top_srcdir)/src/common/net4addr.h

if HAVE_CLANG
RL_FUZZ_BINS = $(RL_FUZZ_NAMES:%=tests/reliability/fuzz/fuzz_%)
RL_FUZZ_CFLAGS = -g -O1 -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined -fno-sanitize=alignment \
	-Dsyslog=sf_fuzz_syslog -I$(top_srcdir)/src/common \
	-I$(top_srcdir)/src/common/user $(SF_DAEMON_INCLUDES) \
	-I$(top_srcdir)/src/netlabel $(FUSE3_CFLAGS) $(URCU_CFLAGS)
RL_FUZZ_LIB = tests/reliability/fuzz/libsffuzz.a
# NetLabel (not instrumented): the control fuzzer never lets the control
# files reach the kernel (ctl_net_init(..., false)).
RL_FUZZ_LIBS = $(RL_FUZZ_LIB) $(SF_NETLABEL_LIBS) $(FUSE3_LIBS) \
	$(URCU_LIBS) -lpthread

$(RL_FUZZ_LIB): $(SF_CORE_C) $(RL_FUZZ_SRC:%=$(top_srcdir)/%) $(RL_FUZZ_H) \
		src/netlabel/libsfnetlabel.a
	$(AM_V_GEN)rm -rf $@.d && $(MKDIR_P) $@.d && \
	for f in $(SF_CORE_C) $(RL_FUZZ_SRC:%=$(top_srcdir)/%); do \
	  case $$f in */src/fuse/main.c|*.h) continue ;; esac; \
	  o=$@.d/$$(basename $$(dirname $$f))_$$(basename $$f .c).o; \
	  $(CLANG) $(RL_FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $$o $$f \
	    || exit 1; \
	done && rm -f $@ && $(AR) rcs $@ $@.d/*.o && rm -rf $@.d
RL_FUZZ_BUILD = $(AM_V_CC)$(CLANG) $(RL_FUZZ_CFLAGS) -fsanitize=fuzzer \
	-o $@ $(top_srcdir)/$@.c $(RL_FUZZ_LIBS)

tests/reliability/fuzz/fuzz_users: $(top_srcdir)/tests/reliability/fuzz/fuzz_users.c $(RL_FUZZ_LIB)
	$(RL_FUZZ_BUILD)
tests/reliability/fuzz/fuzz_options: $(top_srcdir)/tests/reliability/fuzz/fuzz_options.c $(top_srcdir)/src/fuse/main.c $(RL_FUZZ_LIB)
	$(RL_FUZZ_BUILD)
tests/reliability/fuzz/fuzz_xattr: $(top_srcdir)/tests/reliability/fuzz/fuzz_xattr.c $(RL_FUZZ_LIB)
	$(RL_FUZZ_BUILD)
tests/reliability/fuzz/fuzz_control: $(top_srcdir)/tests/reliability/fuzz/fuzz_control.c $(RL_FUZZ_LIB)
	$(RL_FUZZ_BUILD)

tests/reliability/fuzz.log: $(RL_FUZZ_BINS)
CLEANFILES += $(RL_FUZZ_BINS) $(RL_FUZZ_LIB)
endif

# Full counts: 1,000,000-op fsx, 1,000,000-file walk (rss), 200,000-file
# walk under a 4096-fd limit (walk), 1,000,000-op denial
# storm, 100,000-iteration races.
check-heavy:
	$(MAKE) $(AM_MAKEFLAGS) $(check_PROGRAMS) $(sbin_PROGRAMS) $(bin_PROGRAMS)
	RL_HEAVY=1 $(MAKE) $(AM_MAKEFLAGS) check TESTS='$(RL_TESTS) $(RL_PENDING)'
.PHONY: check-heavy
