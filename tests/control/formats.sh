#!/bin/bash
# Every control file: what is written in smackfs's format reads back byte
# for byte in smackfs's format (security/smack/smackfs.c).
. "$(dirname "$0")/lib.sh"
PLAN=47
echo "1..$PLAN"
export SF_TEST_SUBJECTS=0=Admin
start_harness formats || { echo "Bail out! control filesystem did not start"; exit 1; }

# The directory lists smackfs's files.
ls "$CD" >"$TMPD/ls"
want="access access2 ambient change-rule cipso cipso2 direct doi ipv6host load load-rules load-self load-self2 load2 logging mapped netlabel onlycap ptrace relabel-self replace-rules revoke-subject status syslog"
check "directory lists every smackfs file" [ "$(sort "$TMPD/ls" | tr '\n' ' ')" = "$want " ]

# load2: "subject object access\n", letters in rwxatlb order.
check "load2 starts empty" readback load2 ""
put load2 "Alpha Beta rwxa\n" && readback load2 "Alpha Beta rwxa\n"
check "load2 round trip of one rule" [ $? -eq 0 ]
put load2 "Alpha Beta BLTAXWR\n" && readback load2 "Alpha Beta rwxatlb\n"
check "load2 replaces the access and prints letters in mainline order" [ $? -eq 0 ]
put load2 "Alpha Beta -\n" && readback load2 ""
check "load2: access '-' leaves no rule to show (as smackfs)" [ $? -eq 0 ]
put load2 "A1 O1 r\nA2 O2 w\n" && $SFIO read "$CD/load2" | sort >"$TMPD/got" &&
	same "$TMPD/got" "A1 O1 r\nA2 O2 w\n"
check "load2: one write of two lines loads both" [ $? -eq 0 ]
put load2 "Short  Obj\trx" && $SFIO read "$CD/load2" | grep -qx "Short Obj rx"
check "load2: any whitespace separates fields, the newline is optional" [ $? -eq 0 ]

# load: the 2007 fixed-width record (24-byte labels, access field), and
# its read side: the long format for labels under 24 bytes only.
rec=$(printf '%-24s%-24s%s' Fixed FixObj rwxa)
check "load: 52-byte SMK_OLOADLEN record accepted" put load "$rec"
$SFIO read "$CD/load2" | grep -qx "Fixed FixObj rwxa"
check "load: fixed-width record became rule 'Fixed FixObj rwxa'" [ $? -eq 0 ]
rec=$(printf '%-24s%-24s%s' Fixed FixObj r-x-t)
check "load: 53-byte record with transmute accepted" put load "$rec"
$SFIO read "$CD/load2" | grep -qx "Fixed FixObj rxt"
check "load: dashes are placeholders ('r-x-t' is rxt)" [ $? -eq 0 ]
long=ThisLabelIsLongerThan24Bytes
put load2 "$long Beta r\n"
$SFIO read "$CD/load" >"$TMPD/load"
check "load hides rules with labels of 24 bytes or more" bash -c "! grep -q '^$long ' '$TMPD/load' && grep -qx 'Fixed FixObj rxt' '$TMPD/load'"
$SFIO read "$CD/load2" | grep -qx "$long Beta r"
check "load2 shows the long-label rule" [ $? -eq 0 ]

# change-rule: "subject object allow deny".
put load2 "Cs Co rw\n" && put change-rule "Cs Co x w\n" &&
	$SFIO read "$CD/load2" | grep -qx "Cs Co rx"
check "change-rule adds x and removes w (rw -> rx)" [ $? -eq 0 ]
put change-rule "Cn Cnew rl -\n" && $SFIO read "$CD/load2" | grep -qx "Cn Cnew rl"
check "change-rule creates a missing rule" [ $? -eq 0 ]

# revoke-subject: every rule of the subject loses all access.
put load2 "Rv O1 rwx\nRv O2 r\n" && put revoke-subject "Rv" &&
	! $SFIO read "$CD/load2" | grep -q "^Rv "
check "revoke-subject removes every access of the subject" [ $? -eq 0 ]

# access2 / access: transactions; the reply is '1' or '0' and its NUL.
$SFIO txn "$CD/access2" "Cs Co rx" >"$TMPD/got"
check "access2 answers \"1\\\\0\" for an allowed request" same "$TMPD/got" '1\0'
$SFIO txn "$CD/access2" "Cs Co w" >"$TMPD/got"
check "access2 answers \"0\\\\0\" for a denied request" same "$TMPD/got" '0\0'
$SFIO txn "$CD/access2" "Nobody Nothing r" >"$TMPD/got"
check "access2 answers 0 for unknown labels" same "$TMPD/got" '0\0'
$SFIO txn "$CD/access" "$(printf '%-24s%-24s%s' Cs Co r-----)" >"$TMPD/got"
check "access (fixed-width query) answers 1" same "$TMPD/got" '1\0'
got=$($SFIO txn "$CD/access" "$(printf '%-24s%-24s%s' Cs Co r----)")
check "access refuses a 53-byte query (smackfs wants 54)" [ "$got" = EINVAL ]

# load-self, load-self2: refused, never kept (the daemon could not apply
# them to the writer's children); a malformed write is EINVAL first.
got=$(printf 'Ls Lo r\n' | $SFIO write "$CD/load-self2")
check "load-self2 refuses a well-formed rule with EOPNOTSUPP" [ "$got" = EOPNOTSUPP ]
got=$(printf '%-24s%-24s%s' Ls Lo r---- | $SFIO write "$CD/load-self")
check "load-self refuses a well-formed record with EOPNOTSUPP" [ "$got" = EOPNOTSUPP ]
got=$(printf 'Ls Lo q\n' | $SFIO write "$CD/load-self2")
check "load-self2: a malformed rule is EINVAL" [ "$got" = EINVAL ]
got=$(bash -c 'printf "Ls Lo r\n" >"$1"; IFS= read -r x <"$1"; echo "[$x]"' \
	sh "$CD/load-self2" 2>/dev/null)
check "load-self2 reads empty after a refused write, to the writer too" [ "$got" = "[]" ]
check "the refusal is logged" grep -q "refused write: load-self2" "$TMPD/hlog"

# onlycap
put onlycap "Admin Other" && $SFIO read "$CD/onlycap" >"$TMPD/got"
check "onlycap reads back as smackfs: each label and a space, newest first" same "$TMPD/got" "Other Admin "
put onlycap "-" && readback onlycap ""
check "onlycap: '-' clears it" [ $? -eq 0 ]

# logging: "%d\n"
check "logging defaults to 1" readback logging "1\n"
put logging "3\n" && readback logging "3\n"
check "logging round trip" [ $? -eq 0 ]

# NetLabel-side values in smackfs's formats (this harness runs with
# netlabel=off: the host's NetLabel is global; netlabel-control.test
# checks the kernel side in qemu).  cipso2 lists every known label with
# its encoding, as mainline does.
put cipso2 "Secret 3   2   5   9   " && $SFIO read "$CD/cipso2" | grep -qx "Secret   3/5,9"
check "cipso2 round trip: 'label level/cat,cat'" [ $? -eq 0 ]
$SFIO read "$CD/cipso2" | grep -qx "Alpha 250/2,8,10,11,13,14,18,19,20,26,27,29,34,35,40"
check "cipso2 shows a label without a rule at the direct level, its bytes as categories" [ $? -eq 0 ]
rec=$(printf '%-24s%-4d%-4d%-4d' Conf 2 1 7)
put cipso "$rec" && $SFIO read "$CD/cipso" | grep -qx "Conf   2/7"
check "cipso: fixed-width record round trip" [ $? -eq 0 ]
check "cipso2 with 3 categories announced and 2 given gets EINVAL" put cipso2 "Bad 3   3   5   9   " EINVAL
grep -q "cipso2:1:.*category missing" "$TMPD/hlog"
check "... and the log names the core parser's reason" [ $? -eq 0 ]
put doi "7\n" && put direct "240" && put mapped "241" &&
	readback doi "7" && readback direct "240" && readback mapped "241"
check "doi, direct, mapped show '%d' without a newline" [ $? -eq 0 ]
check "direct may not take the mapped level" put direct "241" EINVAL
put ambient "In/side\n" && readback ambient "In\0"
check "ambient takes the label the write starts with, as smackfs" [ $? -eq 0 ]
put ambient "Outside\n" && readback ambient "Outside\0"
check "ambient shows the label and its NUL" [ $? -eq 0 ]
put netlabel "192.168.7.9/16 Outside" && put netlabel "10.1.2.3 Inside" &&
	readback netlabel "10.1.2.3/32 Inside\n192.168.0.0/16 Outside\n"
check "netlabel: host bits cleared, longest prefix first" [ $? -eq 0 ]
check "netlabel: -DELETE gets EINVAL (ipv6host's option, as in Smack)" \
	put netlabel "10.1.2.3/32 -DELETE" EINVAL
readback netlabel "10.1.2.3/32 Inside\n192.168.0.0/16 Outside\n" &&
	grep -q "netlabel:1:13: -DELETE is for ipv6host; .*with -CIPSO" "$TMPD/hlog"
check "... the entry stays, and the log says to write it with -CIPSO" [ $? -eq 0 ]
put netlabel "10.1.2.3/32 -CIPSO" &&
	readback netlabel "10.1.2.3/32 -CIPSO\n192.168.0.0/16 Outside\n"
check "netlabel: -CIPSO replaces the entry's label" [ $? -eq 0 ]
check "netlabel: octet 300 gets EINVAL (smackfs's %hhd would wrap it)" \
	put netlabel "300.1.1.1 X" EINVAL
grep -q "netlabel:1:1: address octet above 255" "$TMPD/hlog"
check "... the log names the column and the reason" [ $? -eq 0 ]
grep -q "^netlabel: off" "$CD/status" && ! grep -qi "not applied" "$CD/status" "$TMPD/hlog"
check "status says netlabel=off, nothing says 'not applied'" [ $? -eq 0 ]
check "control filesystem stops cleanly on SIGTERM" stop_harness
finish
