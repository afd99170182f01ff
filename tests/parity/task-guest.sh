# task-guest.sh - guest half of tests/parity/task.test: the task/IPC/socket
# matrix (task-matrix run), in whichever kernel booted.  In the Smack
# reference kernel the rules go to smackfs' load2 and labels to
# /proc/self/attr/current; on Debian's kernel smackfuse.ko is loaded and
# takes both in /sys/kernel/security/smackfuse.  Results are "@case" lines
# (channel data for the host).
. /lib/sfq/tap.sh
SF=/sys/kernel/security/smackfuse
if grep -qw smack /sys/kernel/security/lsm 2>/dev/null; then
	mode=--smack
	[ -f /sys/fs/smackfs/load2 ] || mount -t smackfs smackfs /sys/fs/smackfs
	LOAD=/sys/fs/smackfs/load2
	check_out "ptrace rule mode is the default (0)" 0 cat /sys/fs/smackfs/ptrace
else
	mode=--kmod
	check "smackfuse.ko loads" insmod /lib/modules/smackfuse.ko
	# Labels on the wire, as the Smack kernel has them from boot: the
	# kernel's NetLabel holds DOI 3, and the module labels sockets.
	check "NetLabel: pass-through DOI 3 (what smacknl smack-setup adds)" \
		netlabelctl cipsov4 add pass doi:3 tags:1
	check "the module labels packets (doi written)" \
		sh -c "echo 3 >$SF/doi"
	LOAD=$SF/load2
	check_out "ptrace rule mode is the default (0)" 0 cat $SF/ptrace
fi
# Debian's Yama would refuse attaching to a non-child first.
[ ! -f /proc/sys/kernel/yama/ptrace_scope ] ||
	echo 0 >/proc/sys/kernel/yama/ptrace_scope
ip link set lo up
n=0
bad=0
for r in $(task-matrix rules | tr ' ' ':'); do
	n=$((n + 1))
	echo "$r" | tr ':' ' ' >$LOAD || bad=$((bad + 1))
done
check "$n rules written to $LOAD, none refused" test "$bad" = 0 -a "$n" -gt 0
t0=$(date +%s)
task-matrix run $mode >/tmp/tm.out 2>/tmp/tm.err
rc=$?
sed 's/^/# /' /tmp/tm.err
cat /tmp/tm.out
diag "task-matrix ran $(grep -c '^@case' /tmp/tm.out) cases in $(($(date +%s) - t0)) s"
check "task-matrix ran every case (rc=$rc)" test "$rc" = 0
if [ $mode = --kmod ]; then
	S=$(cat $SF/status)
	diag "$(echo "$S" | tr "\n" " ")"
	check_out "module status: no probe missed" "misses 0" \
		sh -c "echo '$S' | grep '^misses'"
	check_out "module status: every F_SETOWN label forgotten at close" \
		"file_owners 0" sh -c "echo '$S' | grep '^file_owners'"
fi
done_testing
