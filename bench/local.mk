# bench: fragment of the top-level Makefile.am (paths relative to the top).

# Reliability benchmarks (issue 7; owner: reliab): daemon memory per cached
# inode and the denial storm.  Run as root from the build tree, e.g.
#   bench/rss.sh 1000000    bench/storm.sh 1000000
EXTRA_DIST += bench/rss.sh bench/storm.sh

# Access-core decision benchmark (issue 2; owner: core): decisions/s at
# 10, 1,000 and 100,000 rules vs mainline's list walk, load time, bytes
# per rule.  `make bench` builds and runs it.
noinst_PROGRAMS += bench/decide
bench_decide_SOURCES = bench/decide.c
bench_decide_CFLAGS = $(AM_CFLAGS) $(URCU_CFLAGS) -O2
bench_decide_LDADD = src/common/libsfcore.a $(URCU_LIBS) -lpthread
.PHONY: bench
bench: bench/decide$(EXEEXT)
	bench/decide$(EXEEXT)

# Filesystem benchmark (issue 3; owner: fusetest): native vs smackfuse
# (enforcing, checks=off) vs bindfs; `make bench-fs` (also run by `make
# bench`).  Quick run: BENCH_FILES=2000 BENCH_SEQ_MIB=128 make bench-fs.
noinst_PROGRAMS += bench/fsbench
bench_fsbench_SOURCES = bench/fsbench.c
bench_fsbench_CFLAGS = $(AM_CFLAGS) -O2
EXTRA_DIST += bench/fs.sh bench/fs-results.txt bench/getattr.sh bench/acl.sh \
	bench/requests.sh
.PHONY: bench-fs
bench-fs: bench/fsbench$(EXEEXT) smackfuse$(EXEEXT)
	$(SHELL) $(top_srcdir)/bench/fs.sh $(abs_top_builddir)
bench: bench-fs

# FUSE requests per operation, by type, for one label, a label per user,
# bindfs and (BENCH_PTHP) passthrough_hp (issue 29); fs.sh runs it too.
# `make bench-requests`.
.PHONY: bench-requests
bench-requests: bench/fsbench$(EXEEXT) smackfuse$(EXEEXT)
	$(SHELL) $(top_srcdir)/bench/requests.sh $(abs_top_builddir)

# The same in qemu guests, side by side with bindfs, without and with
# smackfuse.ko (issue 29): `make bench-requests-guest` (after make
# kmod-lanes; guest programs are static).
EXTRA_PROGRAMS = bench/fsbench-static
bench_fsbench_static_SOURCES = bench/fsbench.c
bench_fsbench_static_CFLAGS = $(AM_CFLAGS) -O2
bench_fsbench_static_LDFLAGS = -static
EXTRA_DIST += bench/requests-guest.sh bench/guest-requests.sh
.PHONY: bench-requests-guest
bench-requests-guest: bench/fsbench-static$(EXEEXT) \
		tests/kmod/smackfuse-static$(EXEEXT) \
		tests/kmod/smackrun-static$(EXEEXT)
	$(SHELL) $(top_srcdir)/bench/requests-guest.sh $(abs_top_builddir)

# What getattr.c's stack and syscall reads cost: stat(2) by a subject with
# every access vs one with rx only, side by side.  `make bench-getattr`.
.PHONY: bench-getattr
bench-getattr: bench/fsbench$(EXEEXT) smackfuse$(EXEEXT)
	$(SHELL) $(top_srcdir)/bench/getattr.sh $(abs_top_builddir)
bench: bench-getattr

# What the kernel's evaluation of POSIX ACLs costs a caller who owns no
# file (FUSE_POSIX_ACL): stat and open, with and without ACLs, side by
# side with BENCH_ALT.  `make bench-acl`.
.PHONY: bench-acl
bench-acl: bench/fsbench$(EXEEXT) smackfuse$(EXEEXT)
	$(SHELL) $(top_srcdir)/bench/acl.sh $(abs_top_builddir)

# One request's round trip over io_uring, /dev/fuse and bindfs, quiet and
# next to CPU hogs (issue 19).
# `make bench-uring-load`.
noinst_PROGRAMS += bench/rtlat
bench_rtlat_SOURCES = bench/rtlat.c
bench_rtlat_CFLAGS = $(AM_CFLAGS) -O2
EXTRA_DIST += bench/uring-load.sh
.PHONY: bench-uring-load
bench-uring-load: bench/rtlat$(EXEEXT) smackfuse$(EXEEXT)
	$(SHELL) $(top_srcdir)/bench/uring-load.sh $(abs_top_builddir)
bench: bench-uring-load

# What smackfuse.ko costs a path walk (its probe on security_inode_permission
# runs for every path component): stat(2) with and without the module in
# qemu, on each kernel the module lanes boot.  `make bench-kmod`; not part
# of `make bench` (it needs the module and the qemu kernels).
noinst_PROGRAMS += bench/pathwalk
bench_pathwalk_SOURCES = bench/pathwalk.c
bench_pathwalk_CFLAGS = $(AM_CFLAGS) -O2
bench_pathwalk_LDFLAGS = -static
EXTRA_DIST += bench/kmod-path.sh bench/guest-kmod-path.sh \
	bench/kmod-path-results.txt
.PHONY: bench-kmod
bench-kmod: bench/pathwalk$(EXEEXT) kmod-lanes
	$(SHELL) $(top_srcdir)/bench/kmod-path.sh $(abs_top_builddir)

# The caller's label with many users (issue 32): 30 vs 300 users stat one
# file, under "* %u" and "* _", in a private account database; BENCH_ALT
# adds another binary's rows.  `make bench-users`.
noinst_PROGRAMS += bench/userstat
bench_userstat_SOURCES = bench/userstat.c
bench_userstat_CFLAGS = $(AM_CFLAGS) -O2
EXTRA_DIST += bench/users.sh bench/users-results.txt
.PHONY: bench-users
bench-users: bench/userstat$(EXEEXT) smackfuse$(EXEEXT)
	$(SHELL) $(top_srcdir)/bench/users.sh $(abs_top_builddir)
bench: bench-users
