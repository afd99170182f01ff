# src/common: the access core, a freestanding static library.
# Users link src/common/libsfcore.a with $(URCU_LIBS).
noinst_LIBRARIES += src/common/libsfcore.a
src_common_libsfcore_a_SOURCES = \
	src/common/smack.h \
	src/common/core.h \
	src/common/caps.h \
	src/common/kmod_abi.h \
	src/common/user/sf_env.h \
	src/common/user/sf_env_libc.h \
	src/common/out.c \
	src/common/label.c \
	src/common/access.c \
	src/common/mmap.c \
	src/common/policy.c \
	src/common/parse.c \
	src/common/print.c \
	src/common/audit.c
src_common_libsfcore_a_CFLAGS = $(AM_CFLAGS) $(URCU_CFLAGS)
# netlabel (issue 6): label <-> CIPSO mapping, the cipso/cipso2 formats and
# the IPv4 CIPSO option; freestanding like the rest, so smackfuse.ko can
# build it too.  (Lines added by the netlabel engineer.)
src_common_libsfcore_a_SOURCES += src/common/cipso.h src/common/cipso.c
# The smackfs netlabel line, read by a mount's control file and by
# smackfuse.ko's netlabel file alike (issue 45).
src_common_libsfcore_a_SOURCES += src/common/net4addr.h src/common/net4addr.c

# src/common/user: what the user-space programs share besides the core
# (the daemon, its control filesystem, smackfusectl, pam_smackfuse): the
# users map, the run directory's names, the policy directory's files,
# /proc/self/mountinfo.  Plain libc, never built into smackfuse.ko (the
# kmod staging skips */user/*).  pam_smackfuse compiles users.c itself,
# with its own environment and -fPIC.
noinst_LIBRARIES += src/common/user/libsfuser.a
src_common_user_libsfuser_a_SOURCES = \
	src/common/user/users.h \
	src/common/user/users.c \
	src/common/user/escape.h \
	src/common/user/escape.c \
	src/common/user/paths.h \
	src/common/user/paths.c \
	src/common/user/policy_dir.h \
	src/common/user/policy_dir.c \
	src/common/user/mountinfo.h \
	src/common/user/mountinfo.c \
	src/common/user/procstatus.h \
	src/common/user/procstatus.c \
	src/common/user/smallfile.h \
	src/common/user/smallfile.c
src_common_user_libsfuser_a_CFLAGS = $(AM_CFLAGS) $(URCU_CFLAGS)
SF_USER_LIBS = src/common/user/libsfuser.a
