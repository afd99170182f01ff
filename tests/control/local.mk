# tests/control: the control filesystem and smackfusectl (issue 4).
check_PROGRAMS += tests/control/ctl-harness tests/control/sfio \
	tests/control/ctl-stress
tests_control_ctl_stress_SOURCES = tests/control/ctl-stress.c
tests_control_ctl_stress_LDADD = -lpthread
tests_control_sfio_SOURCES = tests/control/sfio.c
tests_control_ctl_harness_SOURCES = tests/control/ctl-harness.c
tests_control_ctl_harness_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/control
tests_control_ctl_harness_CFLAGS = $(AM_CFLAGS) $(FUSE3_CFLAGS) $(URCU_CFLAGS)
tests_control_ctl_harness_LDADD = $(SF_CONTROL_LIBS) \
	src/common/libsfcore.a $(FUSE3_LIBS) $(URCU_LIBS) -lpthread

CONTROL_TESTS = \
	tests/control/cli.sh \
	tests/control/formats.sh \
	tests/control/live.sh \
	tests/control/netlabel.sh \
	tests/control/kmod-target.sh

TESTS += $(CONTROL_TESTS)
EXTRA_DIST += $(CONTROL_TESTS) tests/control/lib.sh
