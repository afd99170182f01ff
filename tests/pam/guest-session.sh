# guest-session.sh - pam_smackfuse with smackfuse.ko loaded, on Debian's
# kernel: pam-label opens a session as login does, then prints the label
# it runs with and that of a child it forked, which exec'd (what the
# session's shell gets).  Each run starts under smackrun with the label
# Before, so that the floor is a change too.
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
