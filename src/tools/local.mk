# src/tools: fragment of the top-level Makefile.am (paths relative to the top).

# smackrun (kmod): run a command under a smackfuse.ko label.
sbin_PROGRAMS += src/tools/smackrun
src_tools_smackrun_SOURCES = src/tools/smackrun.c

# smackfusectl (issue 4).  Other subcommands may add their own file with
# "src_tools_smackfusectl_SOURCES += src/tools/ctl_NAME.c" and define
# ctl_cmd_NAME (see ctl.h: "run" is looked up weakly).
sbin_PROGRAMS += src/tools/smackfusectl
src_tools_smackfusectl_SOURCES = \
	src/tools/ctl.h \
	src/tools/smackfusectl.c \
	src/tools/ctl_io.c \
	src/tools/ctl_targets.c \
	src/tools/ctl_policy.c \
	src/tools/ctl_kmod.c \
	src/tools/ctl_nl.c \
	src/tools/ctl_label.c
src_tools_smackfusectl_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/netlabel
src_tools_smackfusectl_CFLAGS = $(AM_CFLAGS) $(URCU_CFLAGS) \
	-DPACKAGE_VERSION='"$(PACKAGE_VERSION)"'
src_tools_smackfusectl_LDADD = $(SF_NETLABEL_LIBS) $(SF_USER_LIBS) \
	src/common/libsfcore.a \
	$(URCU_LIBS)
