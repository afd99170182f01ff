# tests/netlabel: fragment of the top-level Makefile.am (paths relative to the top).
#
# cipso_roundtrip: label -> CIPSO -> label in user space (host).
# netlabel.test: smacknl against Debian's kernel in qemu, cross-checked with
# netlabelctl; the kernel validates our CIPSO option on a real socket.
check_PROGRAMS += tests/netlabel/cipso_roundtrip
tests_netlabel_cipso_roundtrip_SOURCES = tests/netlabel/cipso_roundtrip.c
tests_netlabel_cipso_roundtrip_CFLAGS = $(AM_CFLAGS) $(URCU_CFLAGS)
tests_netlabel_cipso_roundtrip_LDADD = src/common/libsfcore.a $(URCU_LIBS) \
	-lpthread

TESTS += tests/netlabel/cipso_roundtrip tests/netlabel/netlabel.test
EXTRA_DIST += tests/netlabel/netlabel.test tests/netlabel/guest-netlabel.sh
