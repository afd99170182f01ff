# guest-cycle.sh - load, use and unload smackfuse.ko many times (count: the
# sfq_kmod_cycles= kernel argument, default 100), while a shell sends
# signal 0 in a loop (kill is probed: calls race with arming/disarming;
# throttled, so that it does not take a whole guest CPU under TCG).
# Each cycle labels tasks, an IPC object and sockets, sees a denial, frees
# them, and checks that the label tables are back to zero before
# unloading.  After the last unload no probe is left and no denial lingers.
. /lib/sfq/tap.sh
SF=/sys/kernel/security/smackfuse
U=1000
C=100 F=0
for a in $(cat /proc/cmdline); do
	case "$a" in
	sfq_kmod_cycles=*) C=${a#sfq_kmod_cycles=} ;;
	sfq_kmod_forkers=*) F=${a#sfq_kmod_forkers=} ;;
	esac
done

# zero: until the status shows no labelled task, IPC object or socket
# (tasks are freed after an RCU grace period).
zero() {
	_i=0
	while [ $_i -lt 50 ]; do
		grep -q '^labelled_tasks 0$' $SF/status &&
			grep -q '^ipc_objects 0$' $SF/status &&
			grep -q '^sockets 0$' $SF/status && return 0
		sleep 0.1; _i=$((_i + 1))
	done
	cat $SF/status
	return 1
}

# Signals race with every probe being armed and disarmed.
(while :; do kill -0 1; kill -0 1; kill -0 1; usleep 2000; done) 2>/dev/null &
H=$!
# More fork pressure on demand (sfq_kmod_forkers=N): each loop forks a
# subshell without pause, so security_task_alloc runs on both CPUs while
# its call site is being patched.
n=0
while [ $n -lt $F ]; do
	(while :; do ( : ); done) &
	H="$H $!"
	n=$((n + 1))
done
# Open files passed all along, loaded or not: a call diverted into the
# module (smack_file_receive) must finish before its text goes away.
echo data >/tmp/cf
(while :; do
	[ "$(kact fd-pass - - 0 /tmp/cf r)" = OK ] || echo x >>/tmp/cf.bad
done) 2>/dev/null &
H="$H $!"
bad_load=0 bad_use=0 bad_zero=0 bad_unload=0 traps=0
i=0
t0=$(cut -d' ' -f1 /proc/uptime)
while [ $i -lt $C ]; do
	i=$((i + 1))
	[ $i = 1 ] && diag "$(time -f 'insmod %e s' insmod /lib/modules/smackfuse.ko 2>&1)" && rmmod smackfuse
	if ! insmod /lib/modules/smackfuse.ko; then
		bad_load=$((bad_load + 1)); continue
	fi
	smackrun -u $U B sleep 600 &
	P=$!
	smackrun -u $U B kact unix-listen sfc >/dev/null &
	L=$!
	smackrun -u $U B kact msg-create 0x77 >/dev/null
	sleep 0.1
	r=$(smackrun -u $U A kact kill $P)
	[ "$r" = EACCES ] || bad_use=$((bad_use + 1))
	r=$(smackrun -u $U A kact msgsnd 0x77)
	[ "$r" = EACCES ] || bad_use=$((bad_use + 1))
	[ "$(kact msgrm 0x77)" = OK ] || bad_use=$((bad_use + 1))
	kill $P $L
	wait $P $L 2>/dev/null
	zero || bad_zero=$((bad_zero + 1))
	t=$(sed -n 's/^traps //p' $SF/status)
	traps=$((traps + ${t:-0}))
	[ $i = 1 ] && diag "$(time -f 'rmmod %e s' rmmod smackfuse 2>&1)" ||
		rmmod smackfuse || bad_unload=$((bad_unload + 1))
done
t1=$(cut -d' ' -f1 /proc/uptime)
kill $H
diag "$C cycles in $(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }') s"
diag "handlers entered from an int3 at a probed call site: $traps"
check_out "$C loads succeeded" 0 echo $bad_load
check_out "$C uses saw their denials (signal, msgsnd)" 0 echo $bad_use
check_out "labels back to zero (tasks, IPC, sockets) before each unload" 0 \
	echo $bad_zero
check_out "$C unloads succeeded" 0 echo $bad_unload
check_fails "the module is gone" grep -q '^smackfuse ' /proc/modules
check_fails "every fd passed during the cycles arrived" test -e /tmp/cf.bad
check_fails "no smackfuse probe is left" \
	grep -q smackfuse /sys/kernel/debug/kprobes/list
check "each unload reported zero labels freed" sh -c \
	"dmesg | grep 'smackfuse: unloaded' | grep -v 'unloaded: 0 task, 0 ipc, 0 socket' | grep -q . && exit 1 || exit 0"

# No denial lingers: an A task may signal a B task once the module is gone.
insmod /lib/modules/smackfuse.ko
smackrun -u $U B sleep 600 &
P=$!
mkfifo /tmp/go
smackrun -u $U A sh -c "read x </tmp/go; kact kill $P >/tmp/res" &
Q=$!
sleep 0.2
check_out "while loaded, A may not signal B" EACCES \
	smackrun -u $U A kact kill $P
rmmod smackfuse
echo go >/tmp/go
wait $Q
check_out "after unload, the same A task signals B" OK cat /tmp/res
kill $P
done_testing
