# tests/sanitize: the daemon under AddressSanitizer + UBSan, and under
# valgrind, running the filesystem tests (heavier than make check; not part
# of it).  A report from either tool fails the run, whatever the tests said:
# both write their reports to files, one per daemon run (ASan's log_path,
# valgrind --quiet --log-file), and a report file that exists (ASan) or is
# not empty (valgrind) is a failure.
SF_SAN_DAEMON_SRC = $(smackfuse_SOURCES) \
	$(src_control_libsfcontrol_a_SOURCES) $(src_common_user_libsfuser_a_SOURCES) \
	$(src_common_libsfcore_a_SOURCES)
# The filesystem tests, the live control-fs test (1,000 policy
# replacements under 4 openers), and the reliability tests whose outcome
# does not hang on the daemon's speed, fd count or memory (fsx only under
# ASan: 100,000 operations take too long under memcheck).
SF_SAN_TESTS = $(FUSE_TESTS) tests/reliability/writers.test \
	tests/reliability/enospc.test tests/reliability/attack.test \
	tests/control/live.sh

# Over io_uring (SF_MOUNT_OPTS=uring=auto, the fuse module's enable_uring
# at Y) only ASan can run: valgrind 3.19 keeps its big lock while a thread
# waits in io_uring_enter(2), so the ring threads starve every other
# thread and the first request never completes (liburing issue #657).

# (after smackfuse: that builds the libraries it links)
tests/sanitize/asan-smackfuse: $(SF_SAN_DAEMON_SRC) smackfuse$(EXEEXT)
	@$(MKDIR_P) tests/sanitize
	$(AM_V_CCLD)c=; for f in $(SF_SAN_DAEMON_SRC); do \
	  case $$f in \
	  *.c) c="$$c $(top_srcdir)/$$f" ;; esac; done; \
	$(CC) -g -O1 -fno-omit-frame-pointer \
	  -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	  -fno-sanitize=alignment $(DEFS) $(DEFAULT_INCLUDES) $(AM_CPPFLAGS) \
	  -I$(top_srcdir)/src/netlabel $(SF_DAEMON_INCLUDES) $(FUSE3_CFLAGS) $(URCU_CFLAGS) \
	  $(URING_CFLAGS) -o $@ $$c $(SF_NETLABEL_LIBS) \
	  $(FUSE3_LIBS) $(URCU_LIBS) $(URING_LIBS) -lpthread

# smackfusectl and pam_smackfuse.so the same way, for layouts.test (the
# policy layouts: empty, missing, wrong type, unreadable).  The PAM module
# runs inside pamtester with libasan preloaded.
SF_SAN_CTL_SRC = $(src_tools_smackfusectl_SOURCES) \
	$(src_common_user_libsfuser_a_SOURCES) \
	$(src_common_libsfcore_a_SOURCES)
tests/sanitize/asan-smackfusectl: $(SF_SAN_CTL_SRC) src/tools/smackfusectl$(EXEEXT)
	@$(MKDIR_P) tests/sanitize
	$(AM_V_CCLD)c=; for f in $(SF_SAN_CTL_SRC); do \
	  case $$f in \
	  *.c) c="$$c $(top_srcdir)/$$f" ;; esac; done; \
	$(CC) $(SF_SAN_CFLAGS) $(DEFS) $(DEFAULT_INCLUDES) $(AM_CPPFLAGS) \
	  -I$(top_srcdir)/src/netlabel \
	  $(URCU_CFLAGS) -DPACKAGE_VERSION='"$(PACKAGE_VERSION)"' -o $@ $$c \
	  $(SF_NETLABEL_LIBS) $(URCU_LIBS) -lpthread
SF_SAN_CFLAGS = -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined -fno-sanitize=alignment
check_DATA += tests/sanitize/asan-smackfuse tests/sanitize/asan-smackfusectl
CLEANFILES += tests/sanitize/asan-smackfusectl
if BUILD_PAM
tests/sanitize/asan-pam_smackfuse.so: $(src_pam_pam_smackfuse_so_SOURCES) src/pam/pam_smackfuse.so
	@$(MKDIR_P) tests/sanitize
	$(AM_V_CCLD)c=; for f in $(src_pam_pam_smackfuse_so_SOURCES); do \
	  case $$f in \
	  *.c) c="$$c $(top_srcdir)/$$f" ;; esac; done; \
	$(CC) $(SF_SAN_CFLAGS) -fPIC -shared $(DEFS) $(DEFAULT_INCLUDES) \
	  -I$(top_srcdir)/src/pam $(AM_CPPFLAGS) \
	  -Wl,--version-script=$(top_srcdir)/src/pam/pam_smackfuse.map \
	  -o $@ $$c -lpam
check_DATA += tests/sanitize/asan-pam_smackfuse.so
CLEANFILES += tests/sanitize/asan-pam_smackfuse.so
endif
TESTS += tests/sanitize/layouts.test
EXTRA_DIST += tests/sanitize/layouts.test

check-daemon-asan: tests/sanitize/asan-smackfuse
	@rm -rf tests/sanitize/asan-reports; \
	$(MKDIR_P) tests/sanitize/asan-reports; \
	ASAN_OPTIONS=log_path=$(abs_builddir)/tests/sanitize/asan-reports/asan:detect_leaks=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$(abs_builddir)/tests/sanitize/asan-reports/ubsan \
	SMACKFUSE=$(abs_builddir)/tests/sanitize/asan-smackfuse \
	  $(MAKE) $(AM_MAKEFLAGS) check \
	    TESTS="$(SF_SAN_TESTS) tests/reliability/fsx-mount.test"; rc=$$?; \
	if ls tests/sanitize/asan-reports | grep -q .; then \
	  echo "FAIL: sanitizer reports in tests/sanitize/asan-reports:"; \
	  head -n 40 tests/sanitize/asan-reports/*; exit 1; fi; \
	echo "check-daemon-asan: no sanitizer report"; exit $$rc

check-daemon-valgrind: smackfuse
	@rm -rf tests/sanitize/vg-reports; \
	$(MKDIR_P) tests/sanitize/vg-reports; \
	SF_VG_REAL=$(abs_builddir)/smackfuse \
	SF_VG_DIR=$(abs_builddir)/tests/sanitize/vg-reports \
	SMACKFUSE=$(abs_top_srcdir)/tests/sanitize/vg-smackfuse \
	  $(MAKE) $(AM_MAKEFLAGS) check TESTS="$(SF_SAN_TESTS)"; rc=$$?; \
	bad=$$(find tests/sanitize/vg-reports -type f -size +0); \
	if [ -n "$$bad" ]; then \
	  echo "FAIL: valgrind reported errors (logs: $$bad):"; \
	  head -n 40 $$bad; exit 1; fi; \
	echo "check-daemon-valgrind: $$(ls tests/sanitize/vg-reports | wc -l) daemon runs, no valgrind report"; \
	exit $$rc

clean-local: clean-sanitize
clean-sanitize:
	-rm -rf tests/sanitize/asan-smackfuse tests/sanitize/asan-reports \
	  tests/sanitize/vg-reports
.PHONY: check-daemon-asan check-daemon-valgrind clean-sanitize
EXTRA_DIST += tests/sanitize/vg-smackfuse

# In make check: the live control test (policy replaced under load) with
# the ASan+UBSan daemon (check_DATA above).
TESTS += tests/sanitize/live-asan.test
EXTRA_DIST += tests/sanitize/live-asan.test
CLEANFILES += tests/sanitize/asan-smackfuse
