# tests/common: fragment of the top-level Makefile.am (paths relative to the top).
# Unit tests of the access core (TAP).
SF_CORE_TESTS = \
	tests/common/test_decision \
	tests/common/test_parse \
	tests/common/test_concurrency \
	tests/common/test_policy \
	tests/common/test_status

check_PROGRAMS += $(SF_CORE_TESTS)
TESTS += $(SF_CORE_TESTS)

SF_CORE_TEST_LDADD = src/common/libsfcore.a $(URCU_LIBS) -lpthread
SF_CORE_TEST_CFLAGS = $(AM_CFLAGS) $(URCU_CFLAGS)
SF_CORE_TEST_HDRS = tests/common/tap.h tests/common/helpers.h

tests_common_test_decision_SOURCES = tests/common/test_decision.c $(SF_CORE_TEST_HDRS)
tests_common_test_decision_LDADD = $(SF_CORE_TEST_LDADD)
tests_common_test_decision_CFLAGS = $(SF_CORE_TEST_CFLAGS)

tests_common_test_parse_SOURCES = tests/common/test_parse.c $(SF_CORE_TEST_HDRS)
tests_common_test_parse_LDADD = $(SF_CORE_TEST_LDADD)
tests_common_test_parse_CFLAGS = $(SF_CORE_TEST_CFLAGS)

tests_common_test_concurrency_SOURCES = tests/common/test_concurrency.c $(SF_CORE_TEST_HDRS)
tests_common_test_concurrency_LDADD = $(SF_CORE_TEST_LDADD)
tests_common_test_concurrency_CFLAGS = $(SF_CORE_TEST_CFLAGS)

tests_common_test_policy_SOURCES = tests/common/test_policy.c $(SF_CORE_TEST_HDRS)
tests_common_test_policy_LDADD = $(SF_CORE_TEST_LDADD)
tests_common_test_policy_CFLAGS = $(SF_CORE_TEST_CFLAGS)

# The /proc/PID/status parser of src/common/user (libsfuser).
tests_common_test_status_SOURCES = tests/common/test_status.c tests/common/tap.h
tests_common_test_status_LDADD = $(SF_USER_LIBS)

# liburcu-bp's own reader registry is not 128-byte aligned as its type
# says, so UBSan's alignment check is off (it fires inside urcu-bp.h).
# libFuzzer targets, one per parser, built with clang and run for a bounded
# time by tests/common/fuzz.test (when configure found clang).
SF_FUZZ_NAMES = load2 load change_rule revoke_subject onlycap rule_file \
	access2 access
SF_CORE_C = \
	$(top_srcdir)/src/common/out.c \
	$(top_srcdir)/src/common/label.c \
	$(top_srcdir)/src/common/access.c \
	$(top_srcdir)/src/common/mmap.c \
	$(top_srcdir)/src/common/policy.c \
	$(top_srcdir)/src/common/parse.c \
	$(top_srcdir)/src/common/print.c \
	$(top_srcdir)/src/common/audit.c
SF_CORE_H = \
	$(top_srcdir)/src/common/smack.h \
	$(top_srcdir)/src/common/core.h \
	$(top_srcdir)/src/common/caps.h \
	$(top_srcdir)/src/common/user/sf_env.h \
	$(top_srcdir)/src/common/user/sf_env_libc.h
EXTRA_DIST += tests/common/fuzz.test tests/common/fuzz_common.h \
	$(SF_FUZZ_NAMES:%=tests/common/fuzz_%.c)

if HAVE_CLANG
SF_FUZZ_BINS = $(SF_FUZZ_NAMES:%=tests/common/fuzz_%)
SF_FUZZ_CC = $(CLANG) -g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined -fno-sanitize=alignment \
	-I$(top_srcdir)/src/common \
	-I$(top_srcdir)/src/common/user $(URCU_CFLAGS)
SF_FUZZ_BUILD = $(AM_V_CC)$(MKDIR_P) tests/common && \
	$(SF_FUZZ_CC) -o $@ $(top_srcdir)/$@.c $(SF_CORE_C) $(URCU_LIBS) -lpthread
SF_FUZZ_DEPS = $(SF_CORE_C) $(SF_CORE_H) $(top_srcdir)/tests/common/fuzz_common.h

tests/common/fuzz_load2: $(top_srcdir)/tests/common/fuzz_load2.c $(SF_FUZZ_DEPS)
	$(SF_FUZZ_BUILD)
tests/common/fuzz_load: $(top_srcdir)/tests/common/fuzz_load.c $(SF_FUZZ_DEPS)
	$(SF_FUZZ_BUILD)
tests/common/fuzz_change_rule: $(top_srcdir)/tests/common/fuzz_change_rule.c $(SF_FUZZ_DEPS)
	$(SF_FUZZ_BUILD)
tests/common/fuzz_revoke_subject: $(top_srcdir)/tests/common/fuzz_revoke_subject.c $(SF_FUZZ_DEPS)
	$(SF_FUZZ_BUILD)
tests/common/fuzz_onlycap: $(top_srcdir)/tests/common/fuzz_onlycap.c $(SF_FUZZ_DEPS)
	$(SF_FUZZ_BUILD)
tests/common/fuzz_rule_file: $(top_srcdir)/tests/common/fuzz_rule_file.c $(SF_FUZZ_DEPS)
	$(SF_FUZZ_BUILD)
tests/common/fuzz_access2: $(top_srcdir)/tests/common/fuzz_access2.c $(SF_FUZZ_DEPS)
	$(SF_FUZZ_BUILD)
tests/common/fuzz_access: $(top_srcdir)/tests/common/fuzz_access.c $(SF_FUZZ_DEPS)
	$(SF_FUZZ_BUILD)

tests/common/fuzz.log: $(SF_FUZZ_BINS)
CLEANFILES += $(SF_FUZZ_BINS)
fuzz: $(SF_FUZZ_BINS)
endif
# Always in TESTS: without clang fuzz.test says SKIP, and why.
TESTS += tests/common/fuzz.test

# make check-asan: the core's unit tests again, built with gcc's
# AddressSanitizer and UBSan (heavier than make check; not part of it).
SF_ASAN_TESTS = test_decision test_parse test_concurrency test_policy
SF_ASAN_CC = $(CC) -g -O1 -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-fno-sanitize=alignment $(AM_CPPFLAGS) -I$(top_srcdir)/tests/common \
	$(URCU_CFLAGS)
check-asan: $(SF_CORE_C) $(SF_CORE_H)
	@$(MKDIR_P) tests/common; fail=0; \
	for t in $(SF_ASAN_TESTS); do \
	  $(SF_ASAN_CC) -o tests/common/asan-$$t \
	    $(top_srcdir)/tests/common/$$t.c $(SF_CORE_C) \
	    $(URCU_LIBS) -lpthread || exit 1; \
	  if tests/common/asan-$$t > tests/common/asan-$$t.log 2>&1; then \
	    echo "PASS: asan $$t ($$(grep -c '^ok' tests/common/asan-$$t.log) ok)"; \
	  else \
	    echo "FAIL: asan $$t"; tail -n 30 tests/common/asan-$$t.log; \
	    fail=1; \
	  fi; \
	done; exit $$fail

CLEANFILES += $(SF_ASAN_TESTS:%=tests/common/asan-%) \
	$(SF_ASAN_TESTS:%=tests/common/asan-%.log)
