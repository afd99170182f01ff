# src/netlabel: fragment of the top-level Makefile.am (paths relative to the top).
#
# libsfnetlabel.a: NetLabel configuration over generic netlink (libnl-3),
# for smacknl and the control filesystem.  smacknl: the command.
noinst_LIBRARIES += src/netlabel/libsfnetlabel.a
src_netlabel_libsfnetlabel_a_SOURCES = \
	src/netlabel/netlabel.h \
	src/netlabel/nl_int.h \
	src/netlabel/nlbl_proto.h \
	src/netlabel/nl.c \
	src/netlabel/doi.c \
	src/netlabel/map.c \
	src/netlabel/unlbl.c \
	src/netlabel/smack.c \
	src/netlabel/smackfs.c
src_netlabel_libsfnetlabel_a_CFLAGS = $(AM_CFLAGS) $(LIBNL_CFLAGS)

# Link users of the library with these.
SF_NETLABEL_LIBS = src/netlabel/libsfnetlabel.a $(LIBNL_LIBS)

sbin_PROGRAMS += src/netlabel/smacknl
src_netlabel_smacknl_SOURCES = \
	src/netlabel/smacknl.c \
	src/netlabel/show.c \
	src/netlabel/show.h \
	src/netlabel/probe.c \
	src/netlabel/probe.h
src_netlabel_smacknl_CFLAGS = $(AM_CFLAGS) $(LIBNL_CFLAGS) $(URCU_CFLAGS)
src_netlabel_smacknl_LDADD = $(SF_NETLABEL_LIBS) src/common/libsfcore.a \
	$(URCU_LIBS) -lpthread
