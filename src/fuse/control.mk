# src/fuse/control*: the control filesystem (issue 4), built as a library
# that the daemon links and the tests/control harness runs on its own.
# doi, ambient and netlabel writes configure NetLabel through
# src/netlabel/libsfnetlabel.a.
noinst_LIBRARIES += src/fuse/libsfcontrol.a
src_fuse_libsfcontrol_a_SOURCES = \
	src/fuse/control.h \
	src/fuse/control_int.h \
	src/fuse/control.c \
	src/fuse/control_files.c \
	src/fuse/control_net.c \
	src/fuse/control_path.c \
	src/fuse/control_self.c \
	src/fuse/control_ipv6.c \
	src/fuse/control_escape.c \
	src/fuse/mountinfo.c \
	src/fuse/control_priv.c \
	src/fuse/paths.h \
	src/fuse/paths.c
src_fuse_libsfcontrol_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/netlabel
src_fuse_libsfcontrol_a_CFLAGS = $(AM_CFLAGS) $(FUSE3_CFLAGS) $(URCU_CFLAGS)
# Whoever links libsfcontrol.a links these after it (NetLabel, libnl-3).
SF_CONTROL_LIBS = src/fuse/libsfcontrol.a $(SF_NETLABEL_LIBS)
