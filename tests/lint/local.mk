# tests/lint: static checks of the whole tree (cppcheck).
TESTS += tests/lint/cppcheck.test
EXTRA_DIST += tests/lint/cppcheck.test tests/lint/kernel.h
