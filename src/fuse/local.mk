# src/fuse: fragment of the top-level Makefile.am (paths relative to the top).
sbin_PROGRAMS += smackfuse
smackfuse_SOURCES = \
	src/fuse/smackfuse.h \
	src/fuse/main.c \
	src/fuse/inode.c \
	src/fuse/label.c \
	src/fuse/subject.c \
	src/fuse/users.h \
	src/fuse/users.c \
	src/fuse/uids.h \
	src/fuse/uids.c \
	src/fuse/uidtab.h \
	src/fuse/uidtab.c \
	src/fuse/uidlookup.h \
	src/fuse/uidlookup.c \
	src/fuse/check.c \
	src/fuse/getattr.c \
	src/fuse/policy.c \
	src/fuse/create.h \
	src/fuse/create.c \
	src/fuse/file.h \
	src/fuse/file.c \
	src/fuse/lock.c \
	src/fuse/loop.c \
	src/fuse/passthrough.c \
	src/fuse/uring_abi.h \
	src/fuse/uring.h \
	src/fuse/uring.c \
	src/fuse/ops.c
smackfuse_CFLAGS = $(AM_CFLAGS) $(FUSE3_CFLAGS) $(URCU_CFLAGS) $(URING_CFLAGS)
smackfuse_LDADD = $(SF_CONTROL_LIBS) src/common/libsfcore.a $(FUSE3_LIBS) $(URCU_LIBS) $(URING_LIBS) -lpthread
