#!/bin/bash
# smackfusectl's kernel-module target, against a stand-in for the
# module's securityfs directory (regular files load2 and onlycap): the
# batch it writes takes the module from its old rules to exactly the new
# ones in one load2 write, computed with the core (change lines folded),
# onlycap after it; a bad file sends nothing; --mount and --target keep
# the module out.  tests/kmod-side: tests/netlabel/control.test applies to
# the real module in qemu.
. "$(dirname "$0")/lib.sh"
PLAN=12
echo "1..$PLAN"
K=$TMPD/kmod E=$TMPD/etc
mkdir -p $K $E/accesses.d $TMPD/smack $TMPD/run
printf 'Old Obj rw\nX Y r\n' >$K/load2
: >$K/onlycap
printf 'A B rwx\nA B - w\n# comment\nC D r\n' >$E/accesses.d/10-r
echo Admin >$E/onlycap
ctl() { "$CTL" --kmod-dir $K --etc $E --smack-etc $TMPD/smack --rundir $TMPD/run "$@"; }

ctl apply >$TMPD/out 2>$TMPD/err
check "apply with only the module present exits 0" [ $? -eq 0 ]
check "... and says what it did to the module" grep -qx "kmod $K: rules replaced (2 rules), onlycap \"Admin\"" $TMPD/out
check "load2 got one batch: old rules to '-', then the result (change line folded)" same $K/load2 'Old Obj -\nX Y -\nA B rx\nC D r\n'
check "onlycap got the policy's onlycap" same $K/onlycap 'Admin'

printf 'A B rx\nC D r\n' >$K/load2
printf 'C D w\nE F - r\n' >$TMPD/more
ctl load $TMPD/more >$TMPD/out 2>$TMPD/err
check "load (no -c) keeps the module's rules and adds the file's" same $K/load2 'A B -\nC D -\nA B rx\nC D w\n'
printf 'A B rx\n' >$K/load2
printf 'A B r\nbad/label X r\n' >$TMPD/bad
ctl load $TMPD/bad 2>$TMPD/err
rc=$?
check "a bad rule file: exit 1, file:line named" bash -c "[ $rc -eq 1 ] && grep -q 'bad:2' $TMPD/err"
check "... and nothing was written to the module" same $K/load2 'A B rx\n'
ctl --mount /nonexistent apply >/dev/null 2>&1
check "apply --mount (no such mount) leaves the module alone" same $K/load2 'A B rx\n'
"$CTL" --kmod-dir $TMPD/none --target kmod --etc $E --rundir $TMPD/run apply 2>$TMPD/err
rc=$?
check "--target kmod without the module: exit 1, said clearly" bash -c "[ $rc -eq 1 ] && grep -q 'smackfuse.ko is not loaded' $TMPD/err"
"$CTL" --kmod-dir $TMPD/none --etc $E --rundir $TMPD/run apply 2>$TMPD/err
rc=$?
check "no mount and no module: exit 1, both named" bash -c "[ $rc -eq 1 ] && grep -q 'no running smackfuse mount' $TMPD/err && grep -q 'smackfuse.ko is not loaded' $TMPD/err"
ctl --target netlabel load 2>$TMPD/err
rc=$?
check "load --target netlabel (no such part): exit 1, nothing to act on" bash -c "[ $rc -eq 1 ] && grep -q 'nothing to act on' $TMPD/err"
"$CTL" --target mounts,bogus apply 2>$TMPD/err
check "--target with an unknown name: exit 2" [ $? -eq 2 ]
finish
