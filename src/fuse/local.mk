# src/fuse: fragment of the top-level Makefile.am (paths relative to the top).
#
# The daemon, in rooms (doc/ARCHITECTURE.md): the program itself here
# (options, start, the status file, the start-up policy), the request
# handlers by family (handlers/), the decision for a request: who asks,
# where a GETATTR comes from, the check (decision/), what the daemon holds
# of the backing tree: nodes, labels, handles, locks (nodes/), and the
# transport below them all (transport/).  A room calls only rooms listed
# after it; smackfuse.h is the state they share.
sbin_PROGRAMS += smackfuse
smackfuse_SOURCES = \
	src/fuse/smackfuse.h \
	src/fuse/options.h \
	src/fuse/main.c \
	src/fuse/status.c \
	src/fuse/policy.c \
	src/fuse/remount.c \
	src/fuse/handlers/ops.h \
	src/fuse/handlers/ops.c \
	src/fuse/handlers/ops_names.c \
	src/fuse/handlers/ops_attrs.c \
	src/fuse/handlers/ops_xattrs.c \
	src/fuse/handlers/ops_io.c \
	src/fuse/handlers/ops_dirs.c \
	src/fuse/handlers/ops_locks.c \
	src/fuse/handlers/ops_check.c \
	src/fuse/handlers/ops_cache.c \
	src/fuse/handlers/create.h \
	src/fuse/handlers/create.c \
	src/fuse/handlers/file.h \
	src/fuse/handlers/file.c \
	src/fuse/handlers/setid.c \
	src/fuse/handlers/acl.c \
	src/fuse/handlers/atime.c \
	src/fuse/decision/check.c \
	src/fuse/decision/getattr.c \
	src/fuse/decision/subject.c \
	src/fuse/decision/procfd.c \
	src/fuse/decision/uids.h \
	src/fuse/decision/uids.c \
	src/fuse/decision/uidtab.h \
	src/fuse/decision/uidtab.c \
	src/fuse/decision/uidlookup.h \
	src/fuse/decision/uidlookup.c \
	src/fuse/nodes/inode.c \
	src/fuse/nodes/label.c \
	src/fuse/nodes/verdicts.c \
	src/fuse/nodes/handle.c \
	src/fuse/nodes/lock.c \
	src/fuse/transport/transport.h \
	src/fuse/transport/wire.h \
	src/fuse/transport/wire.c \
	src/fuse/transport/loop.c \
	src/fuse/transport/uring_abi.h \
	src/fuse/transport/uring.c \
	src/fuse/transport/passthrough.c \
	src/fuse/transport/reqcount.c \
	src/fuse/transport/caps.c \
	src/fuse/transport/clock.h \
	src/fuse/transport/clock.c
# Where libfuse lacks a feature, the daemon's own code for it
# (configure.ac: SF_LIBFUSE_PASSTHROUGH, SF_LIBFUSE_URING).
if !SF_LIBFUSE_PASSTHROUGH
smackfuse_SOURCES += src/fuse/transport/pt_compat.c
endif
if SF_LIBFUSE_URING
smackfuse_SOURCES += src/fuse/transport/uring_libfuse.c
else
smackfuse_SOURCES += src/fuse/transport/uring_own.c
endif
EXTRA_DIST += src/fuse/transport/pt_compat.c \
	src/fuse/transport/uring_libfuse.c src/fuse/transport/uring_own.c
# Each room's headers by name, as the files have always included them.
SF_DAEMON_INCLUDES = -I$(top_srcdir)/src/fuse \
	-I$(top_srcdir)/src/fuse/handlers -I$(top_srcdir)/src/fuse/decision \
	-I$(top_srcdir)/src/fuse/nodes -I$(top_srcdir)/src/fuse/transport \
	-I$(top_srcdir)/src/control
smackfuse_CPPFLAGS = $(AM_CPPFLAGS) $(SF_DAEMON_INCLUDES)
smackfuse_CFLAGS = $(AM_CFLAGS) $(FUSE3_CFLAGS) $(URCU_CFLAGS) $(URING_CFLAGS)
smackfuse_LDADD = $(SF_CONTROL_LIBS) src/common/libsfcore.a $(FUSE3_LIBS) $(URCU_LIBS) $(URING_LIBS) -lpthread
