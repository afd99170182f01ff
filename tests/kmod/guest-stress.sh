# guest-stress.sh - fail closed under load: 8 labelled non-root processes
# in parallel (4 sending signals, 4 sending SysV messages), each N calls
# that the policy denies.  Every call must be denied, and the probes must
# report no miss.  N is the first argument of sfq_kmod_n= on the kernel
# command line (default 100000).
. /lib/sfq/tap.sh
SF=/sys/kernel/security/smackfuse
U=1000
N=100000
for a in $(cat /proc/cmdline); do
	case "$a" in sfq_kmod_n=*) N=${a#sfq_kmod_n=} ;; esac
done

check "smackfuse.ko loads" insmod /lib/modules/smackfuse.ko
smackrun -u $U B sleep 600 &
T=$!
smackrun -u $U B kact msg-create 0x5eed >/dev/null
sleep 0.5
check "load2 takes an unrelated rule" sh -c "echo 'A C rwx' >$SF/load2"
# r lets A get the queue's id (msgget with flags 0 is a check too); the
# signals and msgsnd need w, which A does not have.
check "load2 takes A B r (the get, not the send)" \
	sh -c "echo 'A B r' >$SF/load2"
diag "8 processes x $N denied calls"
t0=$(cut -d' ' -f1 /proc/uptime)
i=0
pids=
while [ $i -lt 8 ]; do
	if [ $((i % 2)) = 0 ]; then
		smackrun -u $U A kact kill-loop $T $N >/tmp/stress.$i &
	else
		smackrun -u $U A kact msgsnd-loop 0x5eed $N >/tmp/stress.$i &
	fi
	pids="$pids $!"
	i=$((i + 1))
done
wait $pids
t1=$(cut -d' ' -f1 /proc/uptime)
diag "took $(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }') s"
i=0
while [ $i -lt 8 ]; do
	check_out "process $i: all $N calls denied, none got through" \
		"denied=$N allowed=0 other=0" cat /tmp/stress.$i
	i=$((i + 1))
done
S=$(cat $SF/status)
diag "$(echo $S)"
check_out "miss counter is 0" "misses 0" sh -c "echo '$S' | grep '^misses'"
check "denials counted: at least 8 x N" sh -c \
	"echo '$S' | awk '/^denials/ { exit !(\$2 >= 8 * $N) }'"
kill $T
done_testing
