# guest-checks.sh - smackfuse.ko in the guest: each check denied without a
# rule, allowed with one, denied after revoke-subject, between two labelled
# non-root tasks (uid 1000: A acts, B is acted on); labels across fork and
# exec; privilege; the interface files.  Busybox sh, runs as root.
. /lib/sfq/tap.sh
SF=/sys/kernel/security/smackfuse
U=1000

check_fails "a probe that cannot be registered stops the load" \
	insmod /lib/modules/smackfuse.ko extra_probe=sf_no_such_function
check "... and the kernel log names it" sh -c \
	"dmesg | grep -q 'smackfuse: cannot probe sf_no_such_function'"
check_fails "... and no probe is left" \
	grep -q smackfuse /sys/kernel/debug/kprobes/list
check "smackfuse.ko loads (all probes armed)" insmod /lib/modules/smackfuse.ko
if [ ! -d $SF ]; then
	not_ok "securityfs directory $SF exists"
	done_testing
fi
echo 0 >/proc/sys/kernel/yama/ptrace_scope 2>/dev/null

# pidlabel PID: the module's answer for PID (a transaction on one fd).
pidlabel() {
	exec 4<>$SF/pidlabel || return 1
	echo "$1" >&4 || { exec 4>&-; return 1; }
	read -r _l <&4
	exec 4>&-
	echo "$_l"
}
# wait_label PID LABEL: until smackrun has set it (it execs right after).
wait_label() {
	_i=0
	while [ "$(pidlabel "$1")" != "$2" ] && [ $_i -lt 50 ]; do
		sleep 0.1; _i=$((_i + 1))
	done
}
load() { printf '%b\n' "$1" >$SF/load2; }
revoke() { echo "$1" >$SF/revoke-subject; }
act() { smackrun -u $U A kact "$@"; }
# triple NAME RULES ERRNO CMD...: denied, allowed with RULES, denied after
# revoking A's rules.
triple() {
	_n=$1 _r=$2 _e=$3
	shift 3
	check_out "$_n: denied without a rule" "$_e" "$@"
	load "$_r"
	check_out "$_n: allowed with rule \"$_r\"" OK "$@"
	revoke A
	check_out "$_n: denied again after revoke-subject A" "$_e" "$@"
}

# ---- labels of tasks ----
check_out "a task has floor \"_\" at load" "_" cat $SF/current
check_out "init has floor \"_\"" "_" pidlabel 1
check_out "smackrun sets the label, kept across exec" "A" \
	smackrun -u $U A cat $SF/current
check_out "label inherited across fork and exec" "A" \
	smackrun -u $U A sh -c "cat $SF/current & wait"
# SMACK64EXEC: a program whose file carries it runs under that label
# (busybox runs as its applet when its name is "busybox").
mkdir -p /tmp/xb && cp /bin/busybox /tmp/xb/busybox
check_out "security.SMACK64EXEC set on a copy of busybox" OK \
	kact setxattr /tmp/xb/busybox security.SMACK64EXEC C
check_out "SMACK64EXEC: A executing the file runs as C" "C" \
	smackrun -u $U A /tmp/xb/busybox cat $SF/current
check_out "SMACK64EXEC: what it forks and executes stays C" "C" \
	smackrun -u $U A /tmp/xb/busybox sh -c "cat $SF/current & wait"
check_out "SMACK64EXEC: a file without it keeps the caller's label" "A" \
	smackrun -u $U A /bin/busybox cat $SF/current
smackrun -u $U A sleep 600 &
P=$!
wait_label $P A
check_out "pidlabel answers a labelled task's label" "A" pidlabel $P
kill $P
check_fails "pidlabel refuses a pid that does not exist" pidlabel 999999
check_fails "a task without CAP_MAC_ADMIN cannot set its label" \
	smackrun -u $U A sh -c "echo B >$SF/current"
check_out "... and keeps its label" "A" \
	smackrun -u $U A sh -c "echo B >$SF/current 2>/dev/null; cat $SF/current"
check_fails "smackrun as a non-root user is refused" \
	smackrun -u $U A smackrun B true
check_fails "a non-root user cannot load rules" \
	smackrun -u $U A sh -c "echo 'A B rwx' >$SF/load2"
check_fails "\"*\" cannot be a task label" smackrun '*' true

# ---- tasks: target B sleeps ----
smackrun -u $U B sleep 600 &
T=$!
wait_label $T B
triple "kill (signal, w)" "A B w" EACCES act kill $T
check_out "kill: signal 0 (existence test) is not checked" OK act kill0 $T
triple "ptrace attach (rw)" "A B rw" EACCES act ptrace $T
check_out "ptrace attach: read alone is not enough" EACCES \
	sh -c "printf 'A B r\n' >$SF/load2; smackrun -u $U A kact ptrace $T"
revoke A
triple "getpgid (r)" "A B r" EACCES act getpgid $T
triple "getsid (r)" "A B r" EACCES act getsid $T
triple "setpriority/setnice (w)" "A B w" EACCES act setnice $T
triple "ioprio_set (w)" "A B w" EACCES act setioprio $T
triple "ioprio_get (r)" "A B r" EACCES act getioprio $T
triple "sched_setscheduler (w)" "A B w" EACCES act setsched $T
triple "sched_getscheduler (r)" "A B r" EACCES act getsched $T
triple "move_pages (ptrace r + movememory w)" "A B rw" EPERM act movemem $T
check_out "move_pages with r only: the movememory check denies" EACCES \
	sh -c "printf 'A B r\n' >$SF/load2; smackrun -u $U A kact movemem $T"
revoke A
triple "setpgid of a child (w)" "A B w" EACCES kact pair A B $U setpgid
triple "PTRACE_TRACEME, parent A traces child B (rw)" "A B rw" EACCES \
	kact pair A B $U traceme
check_out "same label needs no rule" OK smackrun -u $U B kact kill $T

# ---- System V IPC: objects created by B ----
for k in msg shm sem; do smackrun -u $U B kact $k-create 0x5eed >/dev/null; done
triple "msgsnd (w)" "A B w" EACCES act msgsnd 0x5eed
triple "msgrcv (rw)" "A B rw" EACCES act msgrcv 0x5eed
triple "msgctl IPC_STAT (r)" "A B r" EACCES act msgstat 0x5eed
triple "shmat read-only (r)" "A B r" EACCES act shmat-ro 0x5eed
triple "shmat read-write (rw)" "A B rw" EACCES act shmat 0x5eed
triple "semop (rw)" "A B rw" EACCES act semop 0x5eed
triple "semctl GETVAL (r)" "A B r" EACCES act semget-val 0x5eed

# ---- UNIX sockets: B listens ----
smackrun -u $U B kact unix-listen sfs >/dev/null &
L=$!
smackrun -u $U B kact dgram-bind sfd >/dev/null &
D=$!
_i=0
while [ $_i -lt 50 ] && ! { grep -q '@sfs' /proc/net/unix &&
	grep -q '@sfd' /proc/net/unix; }; do sleep 0.1; _i=$((_i + 1)); done
triple "unix stream connect (w both ways)" "A B w\nB A w" EACCES \
	act unix-connect sfs
check_out "unix stream connect: A B w without B A w is denied" EACCES \
	sh -c "echo B >$SF/revoke-subject; printf 'A B w\n' >$SF/load2; smackrun -u $U A kact unix-connect sfs"
revoke A
triple "unix datagram send (w)" "A B w" EACCES act dgram-send sfd
kill $L $D

# ---- IPv4 against host labels (netlabel, ambient) ----
ip link set lo up
kact inet-listen 0.0.0.0 7777 >/dev/null &
N=$!
_i=0
while [ $_i -lt 50 ] && ! grep -q ':1E61 00000000:0000 0A' /proc/net/tcp; do
	sleep 0.1; _i=$((_i + 1)); done
check "netlabel takes host labels" \
	sh -c "printf '127.0.0.1/32 H\n127.0.0.3 -CIPSO\n' >$SF/netlabel"
check "netlabel reads them back" grep -qx '127.0.0.1/32 H' $SF/netlabel
check_fails "netlabel refuses a bad address (all or nothing)" \
	sh -c "printf '127.0.0.9/32 H\n300.1.1.1 H\n' >$SF/netlabel"
check_fails "... and added nothing" grep -q '127.0.0.9' $SF/netlabel
triple "IPv4 connect to a labelled host (w)" "A H w" EACCES \
	act inet-connect 127.0.0.1 7777
triple "IPv4 UDP send to a labelled host (w)" "A H w" EACCES \
	act udp-send 127.0.0.1 7778
triple "IPv4 connect to an unlabeled host: ambient \"_\" (w)" "A _ w" EACCES \
	act inet-connect 127.0.0.2 7777
check "ambient can be set" sh -c "echo Amb >$SF/ambient"
check_out "unlabeled host now takes ambient Amb" EACCES \
	sh -c "printf 'A _ w\n' >$SF/load2; smackrun -u $U A kact inet-connect 127.0.0.2 7777"
revoke A
echo _ >$SF/ambient
check_out "a -CIPSO host is not checked locally" OK act inet-connect 127.0.0.3 7777
kill $N

# ---- the interface ----
exec 5<>$SF/access2
echo "A B r" >&5
read -r ans <&5
exec 5>&-
check_out "access2 answers a query (A B r after revoke: 0)" 0 echo "$ans"
load "A B rx"
exec 5<>$SF/access2
echo "A B r" >&5
read -r ans <&5
exec 5>&-
check_out "access2 answers a query (A B r with rule rx: 1)" 1 echo "$ans"
check "load2 reads back the rule" grep -qx 'A B rx' $SF/load2
check_fails "load2 refuses a malformed rule (all or nothing)" \
	sh -c "printf 'A C r\nA B qq\n' >$SF/load2"
check_fails "... and loaded nothing of it" grep -q '^A C' $SF/load2
check "audit line in the kernel Smack format" sh -c \
	"dmesg | grep -q 'lsm=SMACK fn=smack_task_kill action=denied subject=\"A\" object=\"B\" requested=w'"
mkfifo /tmp/oc
smackrun X sh -c "echo X >$SF/onlycap; read x </tmp/oc; echo - >$SF/onlycap" &
O=$!
_i=0
while [ $_i -lt 50 ] && ! grep -q '^X' $SF/onlycap; do sleep 0.1; _i=$((_i + 1)); done
check "onlycap reads back" grep -q '^X *$' $SF/onlycap
check_fails "onlycap X: root labelled \"_\" is not privileged" \
	sh -c "echo 'A B r' >$SF/load2"
echo go >/tmp/oc
wait $O
check "onlycap cleared by X: root may load again" \
	sh -c "echo 'A B r' >$SF/load2"
kill $T
sleep 0.3
S=$(cat $SF/status)
diag "$(echo $S)"
check "status counts checks and denials" sh -c \
	"echo '$S' | grep -q '^denials [1-9]' && echo '$S' | grep -q '^checks [1-9]'"
check_out "status: no probe missed" "misses 0" sh -c "echo '$S' | grep '^misses'"
done_testing
