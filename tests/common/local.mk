# tests/common: fragment of the top-level Makefile.am (paths relative to the top).
# Unit tests of the access core (TAP).
SF_CORE_TESTS = \
	tests/common/test_decision \
	tests/common/test_parse \
	tests/common/test_concurrency

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
