#!/bin/bash
# smackfusectl's command line, its man pages and the systemd unit.
. "$(dirname "$0")/lib.sh"
PLAN=11
echo "1..$PLAN"
"$CTL" --help >$TMPD/out
check "smackfusectl --help exits 0 and lists every command" bash -c "grep -q 'load \[-c\]' $TMPD/out && grep -q 'apply' $TMPD/out && grep -q 'access SUBJECT' $TMPD/out && grep -q 'label' $TMPD/out && grep -q 'cipso' $TMPD/out"
"$CTL" frobnicate 2>$TMPD/err
rc=$?
check "an unknown command exits 2 with a clear message" bash -c "[ $rc -eq 2 ] && grep -q 'unknown command \"frobnicate\"' $TMPD/err"
"$CTL" --rundir $TMPD/none status 2>$TMPD/err
rc=$?
check "no running mount: exit 1 and say so" bash -c "[ $rc -eq 1 ] && grep -q \"no running smackfuse mount\" $TMPD/err"
"$CTL" --mount /nonexistent rules 2>$TMPD/err
rc=$?
check "--mount of a path without smackfuse: exit 1 and say so" bash -c "[ $rc -eq 1 ] && grep -q \"no running smackfuse mount there\" $TMPD/err"
# A mount whose daemon is stopped must not hang commands that look at
# every mount: it is skipped after a short wait, and named.
mkdir -p $TMPD/run
"$HARNESS" /tmp/sfctl-stopped-$$ $TMPD/run/stopped >$TMPD/h2out 2>$TMPD/h2log &
H2=$!
for i in $(seq 200); do grep -q '^ready ' $TMPD/h2out && break; sleep 0.05; done
kill -STOP $H2
start=$SECONDS
timeout 30 "$CTL" --rundir $TMPD/run status >/dev/null 2>$TMPD/err
rc=$?
kill -CONT $H2
check "a stopped daemon's mount: status gives up on it within seconds (exit 1)" bash -c "[ $rc -eq 1 ] && [ $((SECONDS - start)) -lt 10 ]"
check "... and names it as not answering" grep -q "stopped: does not answer" $TMPD/err
kill -TERM $H2; wait $H2
"$CTL" access 'a/b' x r 2>/dev/null
check "access with an invalid label: exit 2" [ $? -eq 2 ]
for m in smackfusectl.8 smackfuse-policy.5; do
	LC_ALL=C MANWIDTH=80 man --warnings -l "$S/man/$m" >$TMPD/$m.txt 2>$TMPD/$m.err
	check "man -l renders $m without warnings" bash -c "[ -s $TMPD/$m.txt ] && [ ! -s $TMPD/$m.err ]"
done
grep -q "^ExecStart=.*/smackfuse -f .*%f$" "$B/etc/smackfuse@.service" &&
	grep -q "^ExecStartPost=.*/smackfusectl --wait 30 --mount %f apply" "$B/etc/smackfuse@.service"
check "smackfuse@.service mounts %f and applies the policy" [ $? -eq 0 ]
grep -q '@[a-z]*dir@' "$B/etc/smackfuse@.service"
check "smackfuse@.service has its paths substituted" [ $? -ne 0 ]
finish
