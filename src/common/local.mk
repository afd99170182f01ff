# src/common: the access core, a freestanding static library.
# Users link src/common/libsfcore.a with $(URCU_LIBS).
noinst_LIBRARIES += src/common/libsfcore.a
src_common_libsfcore_a_SOURCES = \
	src/common/smack.h \
	src/common/core.h \
	src/common/user/sf_env.h \
	src/common/user/sf_env_libc.h \
	src/common/out.c \
	src/common/label.c \
	src/common/access.c \
	src/common/policy.c \
	src/common/parse.c \
	src/common/print.c \
	src/common/audit.c
src_common_libsfcore_a_CFLAGS = $(AM_CFLAGS) $(URCU_CFLAGS)
# netlabel (issue 6): label <-> CIPSO mapping, the cipso/cipso2 formats and
# the IPv4 CIPSO option; freestanding like the rest, so smackfuse.ko can
# build it too.  (Lines added by the netlabel engineer.)
src_common_libsfcore_a_SOURCES += src/common/cipso.h src/common/cipso.c
