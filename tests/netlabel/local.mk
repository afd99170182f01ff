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

# nlapi: a guest helper calling the library as the control filesystem does
check_PROGRAMS += tests/netlabel/nlapi
tests_netlabel_nlapi_SOURCES = tests/netlabel/nlapi.c
tests_netlabel_nlapi_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/netlabel
tests_netlabel_nlapi_LDADD = $(SF_NETLABEL_LIBS)

TESTS += tests/netlabel/cipso_roundtrip tests/netlabel/smacknl-cli.test \
	tests/netlabel/netlabel.test
EXTRA_DIST += tests/netlabel/netlabel.test tests/netlabel/guest-netlabel.sh \
	tests/netlabel/smacknl-cli.test

# control.test: a smackfuse mount's doi/ambient/netlabel control files
# configure the kernel's NetLabel; smackfusectl apply reaches a mount,
# smackfuse.ko and NetLabel (qemu; the static daemon, kact and smackrun
# are tests/kmod's, built when the kernel module is).
EXTRA_DIST += tests/netlabel/control.test tests/netlabel/guest-control.sh \
	tests/netlabel/guest-apply.sh
TESTS += tests/netlabel/control.test

# smackhost.test: on the Smack reference kernel, smacknl and a mount's
# netlabel files go through smackfs and leave Smack's labelled traffic
# as it was (smackpeer: the label a loopback datagram arrives with).
check_PROGRAMS += tests/netlabel/smackpeer
tests_netlabel_smackpeer_SOURCES = tests/netlabel/smackpeer.c
tests_netlabel_smackpeer_LDFLAGS = -static
EXTRA_DIST += tests/netlabel/smackhost.test tests/netlabel/guest-smackhost.sh
# ctldiff.test: the differential test of the NetLabel control files, the
# Smack reference kernel's smackfs against a smackfuse mount on Debian's
# kernel, after every step of one sequence (ctldiff-known.txt: the
# documented differences).
EXTRA_DIST += tests/netlabel/ctldiff.test tests/netlabel/guest-ctldiff.sh \
	tests/netlabel/ctldiff-known.txt tests/netlabel/ctldiff-cmp.awk
# Always in TESTS: without the static daemon (no kernel headers) they say
# SKIP, and why.
TESTS += tests/netlabel/smackhost.test tests/netlabel/ctldiff.test
