# src/common: the access core, a freestanding static library.
# Users link src/common/libsfcore.a with $(URCU_LIBS).
noinst_LIBRARIES += src/common/libsfcore.a
src_common_libsfcore_a_SOURCES = \
	src/common/smack.h \
	src/common/core.h \
	src/common/user/sf_env.h \
	src/common/out.c \
	src/common/label.c \
	src/common/access.c \
	src/common/policy.c \
	src/common/parse.c \
	src/common/print.c \
	src/common/audit.c
src_common_libsfcore_a_CFLAGS = $(AM_CFLAGS) $(URCU_CFLAGS)
