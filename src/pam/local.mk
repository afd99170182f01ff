# src/pam: fragment of the top-level Makefile.am (paths relative to the top).
#
# pam_smackfuse.so, the login-label session module.  It compiles the
# users map parser (src/common/user, shared with the daemon) and the core's label table itself, with an
# environment of its own (src/pam/sf_env.h, found before the user one):
# no liburcu inside sshd, login and su.
#
# Linked as a -shared, -fPIC "program" rather than with libtool, which
# would take over the link of every program in the tree.  The version
# script exports pam_sm_* alone.  -z nodelete: pam_end() dlcloses the
# module, and "smackfuse.ko not loaded" is said once per process, so the
# flag must outlive it.
if BUILD_PAM
pam_PROGRAMS = src/pam/pam_smackfuse.so
src_pam_pam_smackfuse_so_SOURCES = \
	src/pam/pam_smackfuse.c \
	src/pam/sf_env.h \
	src/common/user/sf_env_libc.h \
	src/common/user/users.h \
	src/common/user/users.c \
	src/common/label.c \
	src/common/out.c
src_pam_pam_smackfuse_so_CPPFLAGS = -I$(top_srcdir)/src/pam $(AM_CPPFLAGS)
src_pam_pam_smackfuse_so_CFLAGS = $(AM_CFLAGS) -fPIC
src_pam_pam_smackfuse_so_LDFLAGS = -shared -Wl,-z,nodelete \
	-Wl,--version-script=$(top_srcdir)/src/pam/pam_smackfuse.map
src_pam_pam_smackfuse_so_LDADD = -lpam
EXTRA_src_pam_pam_smackfuse_so_DEPENDENCIES = $(top_srcdir)/src/pam/pam_smackfuse.map
endif
EXTRA_DIST += src/pam/sf_env.h src/pam/pam_smackfuse.map
