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
# wait_sock FILE PATTERN...: until /proc/net/FILE lists every PATTERN (a
# socket a background kact has bound), 5 s at most.
wait_sock() {
	_f=/proc/net/$1 _i=0
	shift
	for _p; do
		while [ $_i -lt 50 ] && ! grep -q "$_p" $_f; do
			sleep 0.1; _i=$((_i + 1))
		done
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
# A value is read as smk_parse_smack() reads it: up to the first byte no
# label may hold (mainline: smk_fetch() at instantiation), so "C/x" is C.
mkdir -p /tmp/xb/cut && cp /bin/busybox /tmp/xb/cut/busybox
kact setxattr /tmp/xb/cut/busybox security.SMACK64EXEC C/x >/dev/null
check_out "SMACK64EXEC \"C/x\": the label stops at the '/', A runs it as C" \
	"C" smackrun -u $U A /tmp/xb/cut/busybox cat $SF/current
smackrun -u $U A sleep 600 &
P=$!
wait_label $P A
check_out "pidlabel answers a labelled task's label" "A" pidlabel $P
check_out "pidlabels: a pread at offset PID answers its label" "A" \
	kact pread $SF/pidlabels $P 256
check_out "... and at offset 1, init's" "_" kact pread $SF/pidlabels 1 256
check_out "... for an unprivileged reader too" "A" \
	smackrun -u $U B kact pread $SF/pidlabels $P 256
check_out "... never half a label: EOVERFLOW into 1 byte" EOVERFLOW \
	kact pread $SF/pidlabels $P 1
check_out "... offset 0 asks nothing: EINVAL (cat(1) reads there)" EINVAL \
	kact pread $SF/pidlabels 0 256
kill $P
check_fails "pidlabel refuses a pid that does not exist" pidlabel 999999
check_out "pidlabels too: ESRCH" ESRCH kact pread $SF/pidlabels 999999 256
check_out "the features file offers pidlabels" pidlabels \
	grep -x pidlabels $SF/features
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
# A control file that holds one number (smackfs' logging, ptrace): FILE
# reads AT_LOAD at load; root may write GOOD, which reads back; a non-root
# task may not; BAD1 and BAD2 are refused.
number_file() {	# FILE AT_LOAD BAD1 BAD2 GOOD
	check_out "$1 reads $2 at load" "$2" cat $SF/$1
	check_fails "a non-root task cannot set $1" \
		smackrun -u $U A sh -c "echo $5 >$SF/$1"
	check_fails "$1 $3 is refused" sh -c "echo $3 >$SF/$1"
	check_fails "$1 $4 is refused" sh -c "echo $4 >$SF/$1"
	check "$1 $5 is taken" sh -c "echo $5 >$SF/$1"
	check_out "$1: ... and reads back" "$5" cat $SF/$1
}
# logging: 0 none, 1 denials (the default), 2 grants, 3 both.
number_file logging 1 4 -1 3
check "logging 1 again" sh -c "echo 1 >$SF/logging"
# The ptrace file (smackfs' ptrace): 1 exact, 2 draconian decide attach by
# label, not by rule.
number_file ptrace 0 3 x 1
check_out "exact: attach with rule A B rw is still denied (labels differ)" \
	EACCES sh -c "printf 'A B rw\n' >$SF/load2; smackrun -u $U A kact ptrace $T"
check_out "exact: PTRACE_TRACEME, parent A, child B, rule A B rw: denied" \
	EACCES kact pair A B $U traceme
revoke A
check_out "exact: same label attaches" OK smackrun -u $U B kact ptrace $T
check_out "exact: root (CAP_SYS_PTRACE) attaches to B" OK kact ptrace $T
echo 2 >$SF/ptrace
check_out "draconian: root (CAP_SYS_PTRACE) is denied too" EACCES \
	kact ptrace $T
check_out "draconian: same label attaches" OK smackrun -u $U B kact ptrace $T
check_out "draconian: read mode (/proc/PID/environ) follows the rules: denied without" \
	EACCES act environ $T
check_out "... and not allowed with A B r alone (walking into /proc/PID needs x)" \
	EACCES sh -c "printf 'A B r\n' >$SF/load2; smackrun -u $U A kact environ $T"
check_out "... and allowed with A B rx" OK \
	sh -c "printf 'A B rx\n' >$SF/load2; smackrun -u $U A kact environ $T"
revoke A
echo 0 >$SF/ptrace
check_out "back to default: the rule A B rw lets A attach" OK \
	sh -c "printf 'A B rw\n' >$SF/load2; smackrun -u $U A kact ptrace $T"
revoke A
# /proc/PID carries the task's label (mainline smack_task_to_inode): x to
# walk into it, r to list it.
triple "/proc/PID/status of a B task (x on B to walk /proc/PID, r)" "A B rx" \
	EACCES act status $T
check_out "/proc/PID/status: r alone does not walk into /proc/PID" EACCES \
	sh -c "printf 'A B r\n' >$SF/load2; smackrun -u $U A kact status $T"
revoke A
triple "listing /proc/PID of a B task (r)" "A B rx" EACCES act procls $T
check_out "listing /proc/PID: x alone walks in but does not list" EACCES \
	sh -c "printf 'A B x\n' >$SF/load2; smackrun -u $U A kact procls $T"
revoke A
# ... and each file below carries it too: r to read one (smack_file_open
# and the open's own check), w and r to open one for writing, w and a
# with O_APPEND (mainline's may_open asks both, and w does not grant a).
check_out "/proc/PID/status: x alone walks in but does not read" EACCES \
	sh -c "printf 'A B x\n' >$SF/load2; smackrun -u $U A kact status $T"
revoke A
check_out "/proc/PID/comm: opening it for writing needs w (A B rx: denied)" EACCES \
	sh -c "printf 'A B rx\n' >$SF/load2; smackrun -u $U A kact comm-w $T"
check_out "... and r as well (A B wx: denied)" EACCES \
	sh -c "printf 'A B wx\n' >$SF/load2; smackrun -u $U A kact comm-w $T"
check_out "... A B rwx: opened" OK \
	sh -c "printf 'A B rwx\n' >$SF/load2; smackrun -u $U A kact comm-w $T"
check_out "... O_APPEND with A B rwx: denied (no a)" EACCES \
	smackrun -u $U A kact comm-a $T
check_out "... O_APPEND with A B rwxa: opened" OK \
	sh -c "printf 'A B rwxa\n' >$SF/load2; smackrun -u $U A kact comm-a $T"
revoke A
check_out "... O_APPEND with A B rxa: denied (the open asks w and a)" EACCES \
	sh -c "printf 'A B rxa\n' >$SF/load2; smackrun -u $U A kact comm-a $T"
check_out "... O_WRONLY with A B rxa: denied (a is not w)" EACCES \
	smackrun -u $U A kact comm-w $T
revoke A
# stat and utimes: r and w on the inode (smack_inode_getattr, _setattr).
triple "stat /proc/PID of a B task (r, no walk)" "A B r" EACCES act pidstat $T
check_out "stat /proc/PID/status: x alone walks in but does not stat" EACCES \
	sh -c "printf 'A B x\n' >$SF/load2; smackrun -u $U A kact stat $T"
check_out "... A B rx: stat allowed" OK \
	sh -c "printf 'A B rx\n' >$SF/load2; smackrun -u $U A kact stat $T"
check_out "utimes /proc/PID/status: A B rx: denied (w)" EACCES \
	smackrun -u $U A kact utimes $T
check_out "... A B rwx: allowed" OK \
	sh -c "printf 'A B rwx\n' >$SF/load2; smackrun -u $U A kact utimes $T"
revoke A
# access(2) opens nothing: smack_inode_permission asks the mode's access.
triple "access(2) R_OK on /proc/PID/status of a B task (x to walk, r)" \
	"A B rx" EACCES act access-r $T
check_out "access(2) R_OK on /proc/PID/status: x alone walks in, no r" EACCES \
	sh -c "printf 'A B x\n' >$SF/load2; smackrun -u $U A kact access-r $T"
check_out "access(2) W_OK on /proc/PID/comm: A B rx: denied (w)" EACCES \
	sh -c "printf 'A B rx\n' >$SF/load2; smackrun -u $U A kact access-w $T"
check_out "... A B wx: allowed" OK \
	sh -c "printf 'A B wx\n' >$SF/load2; smackrun -u $U A kact access-w $T"
revoke A
check_out "access(2) R_OK on its own /proc/PID/status without a rule" OK \
	smackrun -u $U A sh -c 'kact access-r $$'
check_out "stat /proc/PID/status: a task stats its own without a rule" OK \
	smackrun -u $U A sh -c 'kact stat $$'
check_out "/proc/PID: a task reads its own without a rule" OK \
	smackrun -u $U A sh -c 'kact status $$'
check_out "/proc/PID: floor (root's label) is read without a rule" OK \
	act status 1
check_out "/proc/PID: root (CAP_MAC_OVERRIDE) reads B's" OK kact status $T
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
# The ops above get the id first (flags 0); with a rule that lets the get
# through, the operation's own check must still deny.
check_out "msgsnd with r only: the msgsnd check denies" EACCES \
	sh -c "printf 'A B r\n' >$SF/load2; smackrun -u $U A kact msgsnd 0x5eed"
check_out "semop with r only: the semop check denies" EACCES \
	act semop 0x5eed
check_out "msgrcv with w only: the msgrcv check denies" EACCES \
	sh -c "printf 'A B w\n' >$SF/load2; smackrun -u $U A kact msgrcv 0x5eed"
revoke A
# A get with flags 0 asks for no access bits and is still a check:
# mainline smk_access() grants it only by same label, floor/star object,
# hat subject or a rule with some access.
for k in msg shm sem; do
	triple "${k}get(key, 0): no access bits, still checked" "A B r" EACCES \
		act $k-get 0x5eed
	check_out "${k}get(key, 0) from the same label" OK \
		smackrun -u $U B kact $k-get 0x5eed
done
check_out "msgget(key, 0): a rule with no access (A B -) grants nothing" \
	EACCES sh -c "printf 'A B -\n' >$SF/load2; smackrun -u $U A kact msg-get 0x5eed"
revoke A
check_out "msgget(key, 0) of a floor object (made by root, "_"): allowed" \
	OK sh -c "kact msg-create 0xf100 >/dev/null; smackrun -u $U A kact msg-get 0xf100"
# The INFO commands name no object (the kernel passes a NULL perm).
for k in msg shm sem; do
	check_out "${k}ctl IPC_INFO and $(echo $k | tr a-z A-Z)_INFO: not about an object, allowed" \
		OK act $k-info 0
done

# ---- UNIX sockets: B listens ----
smackrun -u $U B kact unix-listen sfs >/dev/null &
L=$!
smackrun -u $U B kact dgram-bind sfd >/dev/null &
D=$!
wait_sock unix @sfs @sfd
triple "unix stream connect (w both ways)" "A B w\nB A w" EACCES \
	act unix-connect sfs
check_out "unix stream connect: A B w without B A w is denied" EACCES \
	sh -c "echo B >$SF/revoke-subject; printf 'A B w\n' >$SF/load2; smackrun -u $U A kact unix-connect sfs"
revoke A
triple "unix datagram send (w)" "A B w" EACCES act dgram-send sfd
kill $L $D

# ---- open files received over a UNIX socket (smack_file_receive) ----
# B opens the file and sends the fd to A over a socketpair.
echo data >/tmp/fx && chmod 666 /tmp/fx
echo data >/tmp/fu && chmod 666 /tmp/fu
kact setxattr /tmp/fx security.SMACK64 X >/dev/null
fdp() { kact fd-pass "$1" B $U "$2" "$3"; }
triple "fd passing: a read-only fd of a file labelled X (r)" "A X r" \
	EACCES fdp A /tmp/fx r
check_out "fd passing: a read-write fd with A X r only is refused" EACCES \
	sh -c "printf 'A X r\n' >$SF/load2; kact fd-pass A B $U /tmp/fx rw"
check_out "... and received with A X rw" OK \
	sh -c "printf 'A X rw\n' >$SF/load2; kact fd-pass A B $U /tmp/fx rw"
revoke A
check_out "fd passing: a write-only fd needs w (A X w absent)" EACCES \
	fdp A /tmp/fx w
check_out "fd passing: the file's own label (X) needs no rule" OK \
	fdp X /tmp/fx rw
check_out "fd passing: an unlabeled (floor) file read-only needs no rule" \
	OK fdp A /tmp/fu r
check_out "fd passing: an unlabeled file read-write needs A _ w" EACCES \
	fdp A /tmp/fu rw
kact setxattr /tmp/fu security.SMACK64 NeverSeen >/dev/null
check_out "fd passing: a label no rule names is refused" EACCES \
	fdp A /tmp/fu r
# smk_fetch(): a value that starts with no label ("-X", empty) or is
# longer than SMK_LONGLABEL gives the filesystem's default, floor; one of
# 256 bytes is read whole, and its prefix counts.
for v in -X ''; do
	kact setxattr /tmp/fu security.SMACK64 "$v" >/dev/null
	check_out "fd passing: SMACK64 \"$v\" is floor: read-only needs no rule" \
		OK fdp A /tmp/fu r
	check_out "fd passing: SMACK64 \"$v\" is floor: read-write needs A _ w" \
		EACCES fdp A /tmp/fu rw
done
long=X/$(printf '%0254d' 0)
kact setxattr /tmp/fu security.SMACK64 "$long" >/dev/null
triple "fd passing: a 256-byte SMACK64 \"X/0...\" is X (r)" "A X r" \
	EACCES fdp A /tmp/fu r
kact setxattr /tmp/fu security.SMACK64 "$long/" >/dev/null
check_out "fd passing: a 257-byte SMACK64 is floor (ERANGE): read-only" OK \
	fdp A /tmp/fu r
triple "fd passing: a socket labelled B needs w both ways" "A B w\nB A w" \
	EACCES fdp A - sock
check_out "fd passing: a socket with A B w but not B A w is refused" \
	EACCES sh -c "echo B >$SF/revoke-subject; printf 'A B w\n' >$SF/load2; kact fd-pass A B $U - sock"
revoke A

# ---- fcntl F_SETOWN and F_SETSIG (smack_file_fcntl: w) ----
# /tmp/fx is labelled X; A opens it read-only (floor's r).
triple "fcntl(F_SETOWN) on a file labelled X (w)" "A X w" EACCES \
	act setown /tmp/fx
triple "fcntl(F_SETSIG) on a file labelled X (w)" "A X w" EACCES \
	act setsig /tmp/fx
check_out "fcntl(F_SETOWN) with A X r only is refused" EACCES \
	sh -c "printf 'A X r\n' >$SF/load2; smackrun -u $U A kact setown /tmp/fx"
revoke A
check_out "fcntl(F_SETOWN) on a pipe is not checked (mainline: its creator's label)" \
	OK smackrun -u $U A sh -c 'echo | kact setown /proc/self/fd/0'
check_out "fcntl(F_SETOWN) by root: CAP_MAC_OVERRIDE overrides" OK \
	kact setown /tmp/fx
# SMACK64 "X/y" is X, as smk_fetch() reads it (the label stops at the
# first byte no label may hold), not a label no rule can name.
echo data >/tmp/fxs && chmod 666 /tmp/fxs
kact setxattr /tmp/fxs security.SMACK64 X/y >/dev/null
triple "fcntl(F_SETOWN) on a file whose SMACK64 is \"X/y\" (X: w)" "A X w" \
	EACCES act setown /tmp/fxs

# ---- POSIX message queues: every queue is floor in mainline ----
check_out "root creates a queue (floor on floor)" OK kact mq-create /sfq1
triple "mq_open of a floor queue for writing (w on _)" "A _ w" EACCES \
	act mq-open /sfq1 w
check_out "mq_open of a floor queue for reading needs no rule" OK \
	act mq-open /sfq1 r
# Creating and removing ask w and x on the queues' directory (floor's
# implicit x does not count when w is asked with it).
check_out "mq_open(O_CREAT|O_EXCL) of a new queue without a rule" EACCES \
	act mq-create /sfq2
check_out "mq_open(O_CREAT) with A _ w alone is refused" EACCES \
	sh -c "printf 'A _ w\n' >$SF/load2; smackrun -u $U A kact mq-create /sfq2"
check_out "... allowed with A _ wx (O_RDWR: no r asked of a new queue)" OK \
	sh -c "printf 'A _ wx\n' >$SF/load2; smackrun -u $U A kact mq-create /sfq2"
revoke A
check_out "mq_unlink of A's own queue without A _ wx is refused" EACCES \
	act mq-unlink /sfq2
check_out "... and allowed with it" OK \
	sh -c "printf 'A _ wx\n' >$SF/load2; smackrun -u $U A kact mq-unlink /sfq2"
revoke A
kact mq-unlink /sfq1 >/dev/null

# ---- keys: labelled by their creator (smack_key_alloc) ----
# uid U's user keyring and a key in it made floor, then a key made by B.
check_out "a floor task makes a key in the user keyring" OK \
	smackrun -u $U _ kact key-add sfk0
check_out "B may not add to the floor keyring without B _ w" EACCES \
	smackrun -u $U B kact key-add sfk
check_out "... and may with it" OK sh -c \
	"printf 'B _ w\n' >$SF/load2; smackrun -u $U B kact key-add sfk"
revoke B
check_out "B reads its own key" OK smackrun -u $U B kact key-read sfk
triple "reading (searching) B's key (r)" "A B r" EACCES act key-read sfk
check_out "updating B's key with A B r only is refused (w)" EACCES sh -c \
	"printf 'A B r\n' >$SF/load2; smackrun -u $U A kact key-write sfk"
check_out "... allowed with A B rw" OK sh -c \
	"printf 'A B rw\n' >$SF/load2; smackrun -u $U A kact key-write sfk"
revoke A
check_out "a floor key is read without a rule" OK act key-read sfk0

# ---- IPv4 on this host: the receiving socket's label, as mainline ----
# (before any netlabel entry: an entry for an address decides instead)
ip link set lo up
ip addr add 10.200.0.1/32 dev lo
smackrun -u $U B kact inet-listen 0.0.0.0 7780 >/dev/null &
LB=$!
smackrun -u $U B kact udp-bind 0.0.0.0 7781 >/dev/null &
UB=$!
wait_sock tcp ':1E64 00000000:0000 0A'
wait_sock udp ':1E65 '
check_out "loopback TCP connect+send between two B sockets" OK \
	smackrun -u $U B kact inet-send 127.0.0.1 7780
check_out "loopback UDP send between two B sockets" OK \
	smackrun -u $U B kact udp-send 127.0.0.1 7781
triple "loopback TCP connect+send A to B's listener (w both ways)" \
	"A B w\nB A w" EACCES \
	act inet-send 127.0.0.1 7780
triple "loopback UDP send A to B's socket (w)" "A B w" EACCES \
	act udp-send 127.0.0.1 7781
triple "TCP to 0.0.0.0 (this host) is checked against B's listener" \
	"A B w\nB A w" EACCES act inet-send 0.0.0.0 7780
triple "TCP to a local address outside 127/8 (10.200.0.1 on lo)" \
	"A B w\nB A w" EACCES act inet-send 10.200.0.1 7780
check_out "UDP to a local address outside 127/8, same label" OK \
	smackrun -u $U B kact udp-send 10.200.0.1 7781
check_out "a rule the other way (B A w) does not let A in" EACCES \
	sh -c "printf 'B A w\n' >$SF/load2; smackrun -u $U A kact inet-send 127.0.0.1 7780"
revoke B
check_out "loopback TCP: A B w without B A w does not connect (the listener must write back)" \
	EACCES sh -c "printf 'A B w\n' >$SF/load2; smackrun -u $U A kact inet-send 127.0.0.1 7780"
check_out "... and connects with B A w too" OK \
	sh -c "printf 'B A w\n' >$SF/load2; smackrun -u $U A kact inet-send 127.0.0.1 7780"
check_out "... UDP needs no way back: A B w alone sends to B's socket" OK \
	sh -c "echo B >$SF/revoke-subject; smackrun -u $U A kact udp-send 127.0.0.1 7781"
revoke A
check_out "root (floor, CAP_MAC_OVERRIDE) is checked too: no override on IPv4" \
	EACCES kact inet-send 127.0.0.1 7780
check_out "TCP to a local port nobody listens on: refused by the kernel" \
	ECONNREFUSED act inet-connect 127.0.0.1 7799
# IPv6 sockets carry labels too: a dual-stack listener receives IPv4, and
# an IPv6 socket reaches IPv4 through IPv4-mapped addresses.
smackrun -u $U B kact inet6-listen 7783 >/dev/null &
L6=$!
wait_sock tcp6 ':1E67 '
check_out "IPv4 to B's dual-stack IPv6 listener, same label" OK \
	smackrun -u $U B kact inet-send 127.0.0.1 7783
triple "IPv4 to B's dual-stack IPv6 listener (w both ways)" \
	"A B w\nB A w" EACCES \
	act inet-send 127.0.0.1 7783
# An IPv6 socket to an IPv4-mapped address: mainline's IPv6 branch asks
# w to the ambient label, and the packet leaves without CIPSO, so B's
# listener reads it as the ambient label; its SYN-ACK carries B back.
check_out "IPv6 socket to ::ffff:127.0.0.1 (IPv4-mapped): A B w and B A w are not enough" \
	EACCES sh -c "printf 'A B w\nB A w\n' >$SF/load2; \
	smackrun -u $U A kact inet6-send ::ffff:127.0.0.1 7780"
check_out "... nor A _ w and B A w (the listener reads the ambient label)" \
	EACCES sh -c "printf 'A _ w\n' >$SF/load2; \
	smackrun -u $U A kact inet6-send ::ffff:127.0.0.1 7780"
revoke A
revoke B
triple "IPv6 socket to ::ffff:127.0.0.1 (IPv4-mapped): w to ambient, ambient to B, B to A" \
	"A _ w\n_ B w\nB A w" EACCES act inet6-send ::ffff:127.0.0.1 7780
revoke B
revoke _
# IPv6 as mainline's port labelling: to ::1, write to the label of the
# socket bound to the port; anywhere else (and to a port nobody bound),
# write to the ambient label.  No check back from the listener.
smackrun -u $U B kact udp6-bind 7784 >/dev/null &
U6=$!
wait_sock udp6 ':1E68 '
check_out "TCP over ::1 to B's listener, same label" OK \
	smackrun -u $U B kact inet6-send ::1 7783
triple "TCP over ::1 to B's listener (w to B only)" "A B w" EACCES \
	act inet6-send ::1 7783
check_out "UDP over ::1 to B's socket, same label" OK \
	smackrun -u $U B kact udp6-send ::1 7784
triple "UDP over ::1 to B's socket (w)" "A B w" EACCES \
	act udp6-send ::1 7784
check_out "TCP over ::1 to a port nobody bound: w to the ambient label" \
	EACCES act inet6-connect ::1 7799
check_out "... and with that w the kernel refuses the connection itself" \
	ECONNREFUSED sh -c "printf 'A _ w\n' >$SF/load2; \
	smackrun -u $U A kact inet6-connect ::1 7799"
revoke A
check_out "UDP to a remote IPv6 host: w to the ambient label" EACCES \
	act udp6-send 2001:db8::1 7784
check_out "... allowed with A _ w (then no route)" ENETUNREACH \
	sh -c "printf 'A _ w\n' >$SF/load2; \
	smackrun -u $U A kact udp6-send 2001:db8::1 7784"
revoke A
check_out "root (floor) over ::1 to B: no CAP_MAC_OVERRIDE on IPv6" \
	EACCES kact inet6-send ::1 7783
kill $LB $UB $L6 $U6

# ---- IPv4 against host labels (netlabel, ambient) ----
kact inet-listen 0.0.0.0 7777 >/dev/null &
N=$!
wait_sock tcp ':1E61 00000000:0000 0A'
check "netlabel takes host labels" \
	sh -c "printf '127.0.0.1/32 H\n127.0.0.3 -CIPSO\n' >$SF/netlabel"
check "netlabel reads them back" grep -qx '127.0.0.1/32 H' $SF/netlabel
check_fails "netlabel refuses a bad address (all or nothing)" \
	sh -c "printf '127.0.0.9/32 H\n300.1.1.1 H\n' >$SF/netlabel"
check_fails "... and added nothing" grep -q '127.0.0.9' $SF/netlabel
check_fails "netlabel refuses -DELETE (ipv6host's option, as in Smack)" \
	sh -c "printf '127.0.0.3 -DELETE\n' >$SF/netlabel"
check "... the entry stays, and the kernel log says to write -CIPSO" \
	sh -c "grep -qx '127.0.0.3/32 -CIPSO' $SF/netlabel && dmesg | grep -q 'netlabel:1:11: -DELETE is for ipv6host; .*with -CIPSO'"
triple "IPv4 connect to a labelled host (w)" "A H w" EACCES \
	act inet-connect 127.0.0.1 7777
triple "IPv4 UDP send to a labelled host (w)" "A H w" EACCES \
	act udp-send 127.0.0.1 7778
# Off this host (the guest has no route there: ENETUNREACH once allowed).
check_out "IPv4 connect to an unlabeled remote host: ambient \"_\" (w)" \
	EACCES act inet-connect 10.9.9.9 7777
check_out "... allowed with A _ w (then no route)" ENETUNREACH \
	sh -c "printf 'A _ w\n' >$SF/load2; smackrun -u $U A kact inet-connect 10.9.9.9 7777"
check "ambient can be set" sh -c "echo Amb >$SF/ambient"
check_out "unlabeled remote host now takes ambient Amb" EACCES \
	act inet-connect 10.9.9.9 7777
check_out "a local address still takes its listener's label (root: _, and _ A w back)" \
	OK sh -c "printf '_ A w\n' >$SF/load2; smackrun -u $U A kact inet-connect 127.0.0.2 7777"
revoke A
revoke _
echo _ >$SF/ambient
check "ambient takes the label a write starts with, as smackfs (\"Amb2/x\" is Amb2)" \
	sh -c "printf 'Amb2/x' >$SF/ambient && grep -qx Amb2 $SF/ambient"
check_fails "... and refuses a write that starts with none (\"/x\")" \
	sh -c "printf '/x' >$SF/ambient"
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
