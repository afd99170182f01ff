#!/bin/bash
# The control filesystem of a real smackfuse mount: a revoked rule holds
# for the very next open; bad and unprivileged writes change nothing;
# smackfusectl end to end; rules replaced 1,000 times under 4 openers.
. "$(dirname "$0")/lib.sh"
PLAN=36
echo "1..$PLAN"
SMACKFUSE=${SMACKFUSE:-$B/smackfuse}
U=sfctl1
need_user $U || { echo "Bail out! cannot create user $U"; exit 1; }
UID1=$(id -u $U)
W=$TMPD/w
mkdir -p $W/src $W/mnt $W/etc/accesses.d $W/etc/cipso.d $W/smack/accesses.d
chmod 755 $TMPD $W
for f in f A B C D E; do
	echo "data $f" >$W/src/$f
	chmod 644 $W/src/$f
	setfattr -n security.SMACK64 -v ${f/f/Obj} $W/src/$f
done
# (root, whom no line names: Admin; no account but the test's is named)
printf '%s Subj\n* Admin\n' $U >$W/users
"$SMACKFUSE" -f -o subject=users,users=$W/users,netlabel=off $W/src $W/mnt 2>$TMPD/dlog &
DPID=$!
CD=
for i in $(seq 100); do
	CD=$("$CTL" --mount $W/mnt status 2>/dev/null | sed -n 's/^control: //p')
	[ -n "$CD" ] && break
	sleep 0.1
done
stop_daemon() {
	[ -n "${DPID:-}" ] || return 0
	kill -TERM $DPID 2>/dev/null
	wait $DPID
	local rc=$?
	DPID=
	return $rc
}
trap 'stop_daemon; umount -l $W/mnt 2>/dev/null; cleanup' EXIT
[ -n "$CD" ] || { echo "Bail out! smackfuse did not serve its control files"; cat $TMPD/dlog; exit 1; }
ok "smackfuse serves its control directory at $CD"
as_user() { runuser -u $U -- "$@"; }
can_read() { as_user cat "$W/mnt/$1" >/dev/null 2>&1; }

# Revoke: the very next open is decided by the new policy.
put load2 "Subj Obj r\n"
check "rule 'Subj Obj r' loaded: the user reads f" can_read f
put revoke-subject "Subj"
check "after revoke-subject the very next open is denied" bash -c "! runuser -u $U -- cat $W/mnt/f 2>/dev/null"
as_user cat $W/mnt/f 2>$TMPD/err; grep -q "Permission denied" $TMPD/err
check "the denial is EACCES" [ $? -eq 0 ]
put load2 "Subj Obj r\n"
check "loading the rule again allows the next open" can_read f
put load2 "Subj Obj -\n"
check "setting access '-' denies the next open" bash -c "! runuser -u $U -- cat $W/mnt/f 2>/dev/null"
put change-rule "Subj Obj r -\n"
check "change-rule grants the next open" can_read f

# Bad writes: EINVAL, logged, policy unchanged.
$SFIO read $CD/load2 >$TMPD/before
check "load2 with a bad access letter gets EINVAL" put load2 "Subj Obj rq\n" EINVAL
check "a good line before a bad one is not applied either" put load2 "New1 Obj r\nbad/label Obj r\n" EINVAL
check "load with a short record gets EINVAL" put load "short" EINVAL
check "change-rule with 3 fields gets EINVAL" put change-rule "Subj Obj r\n" EINVAL
check "logging 4 gets EINVAL" put logging "4" EINVAL
check "cipso2 with level 300 gets EINVAL" put cipso2 "Lab 300 0" EINVAL
$SFIO read $CD/load2 >$TMPD/after
check "policy unchanged after the bad writes" cmp -s $TMPD/before $TMPD/after
grep -q "rejected write: load2:2" $TMPD/dlog
check "the log names the bad line (load2:2)" [ $? -eq 0 ]

# Unprivileged writes: refused, policy unchanged; queries still allowed.
got=$(printf 'Subj Obj rwx\n' | as_user $SFIO write $CD/load2)
check "an unprivileged user's open of load2 for writing fails with EACCES (smackfs' mode)" [ "$got" = EACCES ]
got=$(printf 'Subj\n' | setpriv --inh-caps=-mac_admin --bounding-set=-mac_admin $SFIO write $CD/revoke-subject)
check "root without CAP_MAC_ADMIN gets EPERM" [ "$got" = EPERM ]
$SFIO read $CD/load2 >$TMPD/after
check "policy unchanged after the refused writes" cmp -s $TMPD/before $TMPD/after
check "an unprivileged user may still query access2" [ "$(as_user $SFIO txn $CD/access2 'Subj Obj r' | tr -d '\0')" = 1 ]

# smackfusectl end to end.
printf '# teams\nSubj A r\nSubj B rw\n' >$W/etc/accesses.d/10-team
printf 'Subj C rx\n' >$W/smack/accesses.d/legacy
printf 'Secret 3 5 9\n' >$W/etc/cipso.d/levels
"$CTL" --mount $W/mnt load -c $W/etc/accesses.d >/dev/null
check "smackfusectl load -c DIR replaces the rules" [ "$("$CTL" --mount $W/mnt rules | sort | tr '\n' ';')" = "Subj A r;Subj B rw;" ]
"$CTL" --mount $W/mnt access Subj B w >$TMPD/out
check "smackfusectl access prints 1 and exits 0 when allowed" [ $? -eq 0 -a "$(cat $TMPD/out)" = 1 ]
"$CTL" --mount $W/mnt access Subj A w >$TMPD/out
check "smackfusectl access prints 0 and exits 1 when denied" [ $? -eq 1 -a "$(cat $TMPD/out)" = 0 ]
check "the loaded rules decide opens through the mount" can_read A
printf 'Subj A r\nSubj Obj rx x\nSubj D zz\n' >$TMPD/bad.rules
"$CTL" --mount $W/mnt load $TMPD/bad.rules 2>$TMPD/err
rc=$?
check "smackfusectl load of a bad file fails with file:line" bash -c "[ $rc -ne 0 ] && grep -q \"bad.rules:3\" $TMPD/err"
check "and nothing of that file is loaded" [ "$("$CTL" --mount $W/mnt rules | sort | tr '\n' ';')" = "Subj A r;Subj B rw;" ]
"$CTL" --mount $W/mnt --etc $W/etc --smack-etc $W/smack apply
check "smackfusectl apply loads /etc/smackfuse and /etc/smack layouts" [ "$("$CTL" --mount $W/mnt rules | sort | tr '\n' ';')" = "Subj A r;Subj B rw;Subj C rx;" ]
check "apply loaded cipso.d into cipso2" bash -c "\"$CTL\" --mount $W/mnt cipso | grep -qx 'Secret   3/5,9'"
"$CTL" status >$TMPD/st
check "smackfusectl status (every mount) shows this mount and its counters" grep -q "mountpoint: $W/mnt" $TMPD/st
check "status shows rules, checks and denials" bash -c "grep -q '^rules: 3' $TMPD/st && grep -q '^checks: ' $TMPD/st && grep -q '^denials: ' $TMPD/st"
"$CTL" label -a Newlab $W/src/E && "$CTL" label $W/src/E >$TMPD/out
check "smackfusectl label -a sets SMACK64 and shows it" [ "$(cat $TMPD/out)" = "$W/src/E access=\"Newlab\"" ]
mkdir -p $W/src/tree/sub && touch $W/src/tree/sub/x
"$CTL" label -r -a Tree $W/src/tree && "$CTL" label -t $W/src/tree/sub
check "label -r labels a whole tree, -t marks a directory transmuting" bash -c "[ \"\$(getfattr --absolute-names --only-values -n security.SMACK64 $W/src/tree/sub/x)\" = Tree ] && [ \"\$(getfattr --absolute-names --only-values -n security.SMACK64TRANSMUTE $W/src/tree/sub)\" = TRUE ]"
"$CTL" label -d $W/src/E && "$CTL" label $W/src/E >$TMPD/out
check "label -d removes the labels" [ "$(cat $TMPD/out)" = "$W/src/E" ]
"$CTL" label -a 'bad/label' $W/src/E 2>/dev/null
check "label refuses an invalid label with exit 2" [ $? -eq 2 ]

# A policy change under load: 4 openers, 1,000 replacements.
$B/tests/control/ctl-stress $W/mnt $CD $UID1 1000 >$TMPD/stress
grep -c '^ok' $TMPD/stress >$TMPD/nok
sed 's/^/# /' $TMPD/stress
check "policy replaced 1,000 times under 4 openers: every decision fits old or new" [ "$(cat $TMPD/nok)" = 6 ]

# onlycap narrows CAP_MAC_ADMIN (root is Admin in the users map).
put onlycap "Other"
check "with onlycap 'Other', root labelled Admin gets EPERM" put load2 "Subj A rwx\n" EPERM
stop_daemon
check "on SIGTERM both mounts go and the index entry is removed" bash -c "! mountpoint -q $W/mnt && [ ! -e '$CD' ]"
finish
