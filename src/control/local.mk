# src/control: the control filesystem (issue 4), a room of its own: the
# smackfs-compatible files of a mount, served as a second FUSE session.
# A sibling of src/fuse, as its tests (tests/control) are of tests/fuse.
# Built as a library that the daemon links (through control.h alone) and
# the tests/control harness runs on its own.  Its files call downwards
# only: the file handlers (control_*.c) and the session (control.c) use
# the helpers buf.c, log.c and parse.c, which call nothing above them.
# doi, ambient and netlabel writes configure NetLabel through
# src/netlabel/libsfnetlabel.a.
noinst_LIBRARIES += src/control/libsfcontrol.a
src_control_libsfcontrol_a_SOURCES = \
	src/control/control.h \
	src/control/control_int.h \
	src/control/buf.h \
	src/control/buf.c \
	src/control/log.h \
	src/control/log.c \
	src/control/parse.h \
	src/control/parse.c \
	src/control/control.c \
	src/control/control_files.c \
	src/control/control_net.c \
	src/control/control_path.c \
	src/control/control_self.c \
	src/control/control_ipv6.c \
	src/control/control_priv.c
src_control_libsfcontrol_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/netlabel
src_control_libsfcontrol_a_CFLAGS = $(AM_CFLAGS) $(FUSE3_CFLAGS) $(URCU_CFLAGS)
# Whoever links libsfcontrol.a links these after it (NetLabel, libnl-3, the
# user-space helpers of src/common/user); the core comes after those.
SF_CONTROL_LIBS = src/control/libsfcontrol.a $(SF_NETLABEL_LIBS) $(SF_USER_LIBS)
