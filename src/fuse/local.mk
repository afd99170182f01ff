# src/fuse: fragment of the top-level Makefile.am (paths relative to the top).
sbin_PROGRAMS += smackfuse
smackfuse_SOURCES = \
	src/fuse/smackfuse.h \
	src/fuse/clock.h \
	src/fuse/clock.c \
	src/fuse/main.c \
	src/fuse/inode.c \
	src/fuse/label.c \
	src/fuse/subject.c \
	src/fuse/uids.h \
	src/fuse/uids.c \
	src/fuse/uidtab.h \
	src/fuse/uidtab.c \
	src/fuse/uidlookup.h \
	src/fuse/uidlookup.c \
	src/fuse/check.c \
	src/fuse/getattr.c \
	src/fuse/status.c \
	src/fuse/procfd.c \
	src/fuse/policy.c \
	src/fuse/create.h \
	src/fuse/create.c \
	src/fuse/file.h \
	src/fuse/file.c \
	src/fuse/lock.c \
	src/fuse/transport.h \
	src/fuse/wire.h \
	src/fuse/wire.c \
	src/fuse/reqcount.c \
	src/fuse/loop.c \
	src/fuse/passthrough.c \
	src/fuse/caps.c \
	src/fuse/handle.c \
	src/fuse/setid.c \
	src/fuse/acl.c \
	src/fuse/remount.c \
	src/fuse/atime.c \
	src/fuse/uring_abi.h \
	src/fuse/uring.c \
	src/fuse/ops.h \
	src/fuse/ops.c \
	src/fuse/ops_check.c \
	src/fuse/ops_cache.c \
	src/fuse/ops_names.c \
	src/fuse/ops_attrs.c \
	src/fuse/ops_xattrs.c \
	src/fuse/ops_io.c \
	src/fuse/ops_dirs.c \
	src/fuse/ops_locks.c
# Where libfuse lacks a feature, the daemon's own code for it
# (configure.ac: SF_LIBFUSE_PASSTHROUGH, SF_LIBFUSE_URING).
if !SF_LIBFUSE_PASSTHROUGH
smackfuse_SOURCES += src/fuse/pt_compat.c
endif
if SF_LIBFUSE_URING
smackfuse_SOURCES += src/fuse/uring_libfuse.c
else
smackfuse_SOURCES += src/fuse/uring_own.c
endif
EXTRA_DIST += src/fuse/pt_compat.c src/fuse/uring_libfuse.c \
	src/fuse/uring_own.c
smackfuse_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/control
smackfuse_CFLAGS = $(AM_CFLAGS) $(FUSE3_CFLAGS) $(URCU_CFLAGS) $(URING_CFLAGS)
smackfuse_LDADD = $(SF_CONTROL_LIBS) src/common/libsfcore.a $(FUSE3_LIBS) $(URCU_LIBS) $(URING_LIBS) -lpthread
