# guest-session.sh - pam_smackfuse with smackfuse.ko loaded, on Debian's
# kernel: pam-label opens a session as login does, then prints the label
# it runs with and that of a child it forked, which exec'd (what the
# session's shell gets).  Each run starts under smackrun with the label
# Before, so that the floor is a change too.  Then the same sessions
# run commands through a smackfuse mount and against each other's
# processes, IPC and sockets: files and tasks are decided alike.
. /lib/sfq/tap.sh
SF=/sys/kernel/security/smackfuse
MOD=/lib/security/pam_smackfuse.so

check "smackfuse.ko loads" insmod /lib/modules/smackfuse.ko
cat >>/etc/passwd <<'USERS'
alice:x:1001:100:alice:/:/bin/sh
bob:x:1002:100:bob:/:/bin/sh
carol:x:1003:100:carol:/:/bin/sh
USERS
printf 'users:x:100:\nstaff:x:2000:carol\n' >>/etc/group
printf 'passwd: files\ngroup: files\n' >/etc/nsswitch.conf
mkdir -p /etc/pam.d /etc/smackfuse
printf 'alice Alice\n@staff Staff\n' >/etc/smackfuse/users
printf 'alice Alice\n* %%u\n' >/tmp/users-peruser
printf 'alice Alice\nnosuchuser X\n' >/tmp/users-bad
printf 'alice *\n' >/tmp/users-star
# service NAME ARGS...: a session stack of pam_smackfuse and pam_permit.
service() {
	_n=$1; shift
	printf 'session required %s %s\nsession required %s\n' "$MOD" "$*" \
		/lib/x86_64-linux-gnu/security/pam_permit.so >/etc/pam.d/$_n
}
service sfpam
service sfpam-debug debug
service sfpam-peruser map=/tmp/users-peruser
service sfpam-bad map=/tmp/users-bad
service sfpam-nofail map=/tmp/users-bad nofail
service sfpam-star map=/tmp/users-star
syslogd -O /tmp/syslog
# want SESSION SELF CHILD: pam-label's three lines.
want() { printf 'session: %s\nself: %s\nchild: %s' "$1" "$2" "$3"; }
opened() { smackrun Before pam-label "$@"; }

check_out "the test shell runs with the floor" _ cat $SF/current
check_out "smackrun Before labels a task Before" Before \
	smackrun Before cat $SF/current
check_out "alice: her session and its exec'd child run as Alice" \
	"$(want ok Alice Alice)" opened sfpam alice
check_out "carol (group staff): Staff" "$(want ok Staff Staff)" \
	opened sfpam carol
check_out "bob, not in the map (no * line): the floor" "$(want ok _ _)" \
	opened sfpam bob
check_out "\"* %u\": bob gets bob" "$(want ok bob bob)" \
	opened sfpam-peruser bob
check_out "\"* %u\": alice's own line comes first" \
	"$(want ok Alice Alice)" opened sfpam-peruser alice
check_out "bad map: the session is refused, the label stays" \
	"$(want 'Cannot make/remove an entry for the specified session' \
	Before Before)" opened sfpam-bad alice
check_fails "bad map: pam-label exits non-zero" opened sfpam-bad alice
check_out "bad map, nofail: the session opens unlabelled" \
	"$(want ok Before Before)" opened sfpam-nofail alice
check_out "a map giving * (no task label): refused" \
	"$(want 'Cannot make/remove an entry for the specified session' \
	Before Before)" opened sfpam-star alice
check_out "debug: alice still gets Alice" "$(want ok Alice Alice)" \
	opened sfpam-debug alice
check_out "the test shell's own label did not change" _ cat $SF/current
# ---- files and processes agree: the daemon (-o subject=auto picks the
# module) and the module decide with the label the session got ----
check "fuse.ko loads" load_fuse
printf 'alice Alice\nbob Bob\n' >/tmp/users-ab
service sfpam-ab map=/tmp/users-ab
as() { pam-label sfpam-ab "$@" 2>&1; }	# USER CMD...: in USER's session
mkdir -p /tmp/src /mnt/d
for u in alice bob; do
	echo $u-data >/tmp/src/$u
	chmod 644 /tmp/src/$u
done
kact setxattr /tmp/src/alice security.SMACK64 Alice >/dev/null
kact setxattr /tmp/src/bob security.SMACK64 Bob >/dev/null
printf 'Alice Shared r\n' >/tmp/rules
printf 'Alice Shared r\n' >$SF/load2
check "smackfuse -o subject=auto mounts" \
	smackfuse --rules /tmp/rules -o subject=auto /tmp/src /mnt/d
check_out "file: alice's session reads her file" \
	"$(printf 'session: ok\nalice-data')" as alice cat /mnt/d/alice
check_out "file: alice's session may not read bob's (no rule Alice Bob)" \
	"$(printf 'session: ok\ndenied')" \
	as alice sh -c 'cat /mnt/d/bob 2>/dev/null || echo denied'
check_out "file: bob's session reads his" \
	"$(printf 'session: ok\nbob-data')" as bob cat /mnt/d/bob
smackrun -u 1001 Bob sleep 60 &
TB=$!
smackrun -u 1001 Alice sleep 60 &
TA=$!
check_out "signal: alice's session may not signal (SIGCONT) a Bob task of her uid" \
	"$(printf 'session: ok\nEACCES')" as alice kact kill $TB
check_out "signal: ... and may signal an Alice task of her uid" \
	"$(printf 'session: ok\nOK')" as alice kact kill $TA
kill $TA $TB
check_out "IPC: bob's session makes a queue (label Bob, mode 0666)" \
	"$(printf 'session: ok\nOK')" as bob kact msg-create 0x5eed
check_out "IPC: alice's session may not send to it" \
	"$(printf 'session: ok\nEACCES')" as alice kact msgsnd 0x5eed
check_out "IPC: bob's session may" \
	"$(printf 'session: ok\nOK')" as bob kact msgsnd 0x5eed
pam-label sfpam-ab bob kact unix-listen sfpam >/dev/null 2>&1 &
_i=0
while [ $_i -lt 50 ] && ! grep -q '@sfpam' /proc/net/unix; do
	sleep 0.1
	_i=$((_i + 1))
done
check_out "UNIX socket: alice's session may not connect to bob's" \
	"$(printf 'session: ok\nEACCES')" as alice kact unix-connect sfpam
check_out "UNIX socket: bob's own session may" \
	"$(printf 'session: ok\nOK')" as bob kact unix-connect sfpam
kill $(pidof kact) 2>/dev/null
check "smackfuse unmounts" umount /mnt/d

sleep 1
check "syslog: the bad map's file, line and reason" \
	grep -q 'pam_smackfuse.*/tmp/users-bad:2: unknown user: nosuchuser' \
	/tmp/syslog
check "syslog: the refused label" \
	grep -q 'pam_smackfuse.*cannot label the session of alice "\*"' \
	/tmp/syslog
check "syslog: debug names alice's label" \
	grep -q 'pam_smackfuse.*session of alice (uid 1001) labelled "Alice"' \
	/tmp/syslog
check_fails "syslog: nothing says the module is missing" \
	grep -q 'not loaded' /tmp/syslog
grep pam_smackfuse /tmp/syslog | sed 's/^/# /'
kill $(pidof syslogd) 2>/dev/null
done_testing
