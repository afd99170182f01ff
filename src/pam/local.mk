# src/pam: fragment of the top-level Makefile.am (paths relative to the top).
#
# pam_smackfuse.so, the login-label session module.  It compiles the
# daemon's users map parser and the core's label table itself, with an
# environment of its own (src/pam/sf_env.h, found before the user one):
# no liburcu inside sshd, login and su.  Only pam_sm_* are exported.
# -z nodelete: pam_end() dlcloses the module, and "smackfuse.ko not
# loaded" is said once per process, so the flag must outlive it.
if BUILD_PAM
pam_LTLIBRARIES = src/pam/pam_smackfuse.la
src_pam_pam_smackfuse_la_SOURCES = \
	src/pam/pam_smackfuse.c \
	src/pam/sf_env.h \
	src/fuse/users.h \
	src/fuse/users.c \
	src/common/label.c \
	src/common/out.c
src_pam_pam_smackfuse_la_CPPFLAGS = -I$(top_srcdir)/src/pam $(AM_CPPFLAGS) \
	-I$(top_srcdir)/src/fuse
src_pam_pam_smackfuse_la_LDFLAGS = -module -avoid-version -shared \
	-export-symbols-regex '^pam_sm_' -Wl,-z,nodelete
src_pam_pam_smackfuse_la_LIBADD = -lpam
endif
EXTRA_DIST += src/pam/sf_env.h
