# src/ctlfs: the control filesystem (issue 4), a room of its own: the
# smackfs-compatible files of a mount, served as a second FUSE session.
# Built as a library that the daemon links (through control.h alone) and
# the tests/control harness runs on its own.  Its files call downwards
# only: the file handlers (control_*.c) and the session (control.c) use
# the helpers buf.c, log.c and parse.c, which call nothing above them.
# doi, ambient and netlabel writes configure NetLabel through
# src/netlabel/libsfnetlabel.a.
noinst_LIBRARIES += src/ctlfs/libsfctlfs.a
src_ctlfs_libsfctlfs_a_SOURCES = \
	src/ctlfs/control.h \
	src/ctlfs/control_int.h \
	src/ctlfs/buf.h \
	src/ctlfs/buf.c \
	src/ctlfs/log.h \
	src/ctlfs/log.c \
	src/ctlfs/parse.h \
	src/ctlfs/parse.c \
	src/ctlfs/control.c \
	src/ctlfs/control_files.c \
	src/ctlfs/control_net.c \
	src/ctlfs/control_path.c \
	src/ctlfs/control_self.c \
	src/ctlfs/control_ipv6.c \
	src/ctlfs/control_priv.c
src_ctlfs_libsfctlfs_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/netlabel
src_ctlfs_libsfctlfs_a_CFLAGS = $(AM_CFLAGS) $(FUSE3_CFLAGS) $(URCU_CFLAGS)
# Whoever links libsfctlfs.a links these after it (NetLabel, libnl-3, the
# user-space helpers of src/common/user); the core comes after those.
SF_CONTROL_LIBS = src/ctlfs/libsfctlfs.a $(SF_NETLABEL_LIBS) $(SF_USER_LIBS)
