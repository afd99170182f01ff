# guest-kmod-path.sh - guest half of bench/kmod-path.sh: stat(2) of a few
# paths without smackfuse.ko and with it, in 5 alternating rounds (the
# module loaded and unloaded between them), as root.  Prints
# "@bench ROUND none|kmod PATH NS" lines (channel data for the host).
. /lib/sfq/tap.sh
N=$(sed -n 's/.*sfq_bench_n=\([0-9]*\).*/\1/p' /proc/cmdline)
N=${N:-20000}
mkdir -p /tmp/a/b/c/d/e/f && : >/tmp/a/b/c/d/e/f/x
P="/tmp/a/b/c/d/e/f/x /proc/meminfo /proc/self/status /proc/1/status"
ok=1
for r in 1 2 3 4 5; do
	pathwalk $N $P | sed "s/^/@bench $r none /"
	insmod /lib/modules/smackfuse.ko || ok=0
	pathwalk $N $P | sed "s/^/@bench $r kmod /"
	grep '^misses\|^checks' /sys/kernel/security/smackfuse/status |
		tr '\n' ' ' | sed 's/^/# /'
	echo
	rmmod smackfuse || ok=0
done
check "smackfuse.ko loaded and unloaded in every round" test $ok = 1
done_testing
