# guest-apply.sh - smackfusectl apply on every target at once, in the qemu
# guest: a smackfuse mount, smackfuse.ko (its load2 and onlycap) and the
# kernel's NetLabel (for cipso.d).  The module then denies what the rules
# deny (a signal between two labelled tasks), the mount too (a read), and
# a refused apply leaves the module's rules as they were.  See control.test.
. /lib/sfq/tap.sh
SF=/sys/kernel/security/smackfuse
N=netlabelctl
U=1000
P=/tmp/pol
CTL="smackfusectl --etc $P --smack-etc /tmp/nosmack"

lsmod | grep -q "^fuse" || load_fuse
check "smackfuse.ko loads" insmod /lib/modules/smackfuse.ko
# NetLabel as a fresh kernel has it (an earlier script may have set it)
$N map del default 2>/dev/null; $N map add default protocol:unlbl
for d in $($N cipsov4 list | tr ' ' '\n' | cut -d, -f1); do
	$N cipsov4 del doi:$d
done
for m in $($N map list | tr ' ' '\n' | sed -n 's/^domain:"\(.*\)",.*/\1/p'); do
	$N map del domain:$m
done

mkdir -p /tmp/s /mnt/a $P/accesses.d $P/cipso.d /tmp/nosmack
echo secret >/tmp/s/f
chmod 644 /tmp/s/f
kact setxattr /tmp/s/f security.SMACK64 B >/dev/null
smackfuse -o subject=kmod,netlabel=off /tmp/s /mnt/a
smackrun -u $U B sleep 600 &
VICTIM=$!
sleep 0.5
sig() { smackrun -u $U A kact kill $VICTIM; }	# SIGCONT
rd() { smackrun -u $U A cat /mnt/a/f; }

check_out "before apply: the module denies A signalling B" EACCES sig
check_fails "before apply: the mount denies A reading B" rd

printf '# A may read and signal B\nA B rw\n' >$P/accesses.d/10-ab
printf 'Secret 3 5 9\n' >$P/cipso.d/levels
echo "_ Admin" >$P/onlycap	# "_": this root shell stays privileged
$CTL apply >/tmp/apply.out 2>/tmp/apply.err
check "apply on every target exits 0" [ $? -eq 0 ]
diag "apply said: $(cat /tmp/apply.out /tmp/apply.err)"
check "... says the mount's rules were replaced" grep -q "^mount /run/smackfuse/mnt-a: rules replaced" /tmp/apply.out
check "... says the module's rules were replaced" grep -qx "kmod $SF: rules replaced (1 rules), onlycap \"_ Admin\"" /tmp/apply.out
check "... says NetLabel was set up for CIPSO" grep -qx 'netlabel: DOI 3 pass-through, default IPv4 mapping to it, "_" unlabeled: configured' /tmp/apply.out
check_out "the module now holds the rule" "A B rw" cat $SF/load2
check "... and onlycap" grep -qw Admin $SF/onlycap
check_out "the module now allows A to signal B" OK sig
check_out "the mount now lets A read B" secret rd
check_out "netlabelctl: DOI 3 pass-through" "3,PASS_THROUGH" $N cipsov4 list
check_out "netlabelctl: default IPv4 -> DOI 3, \"_\" unlabeled" \
	'domain:"_",UNLABELED,4 domain:DEFAULT,CIPSOv4,3 domain:DEFAULT,UNLABELED,6' \
	$N map list
check "the mount has the CIPSO mapping" sh -c \
	"grep -qx 'Secret   3/5,9' /run/smackfuse/mnt-a/cipso2"

# a refused apply: nothing changes in the module
BEFORE=$(cat $SF/load2)
printf 'A B r\nX Y rw\n' >$P/accesses.d/10-ab
su -s /bin/sh nobody -c "$CTL apply" >/dev/null 2>/tmp/apply.err
check "apply without CAP_MAC_ADMIN fails" [ $? -eq 1 ]
check "... naming the module's refusal" grep -q "kmod $SF/load2: permission denied" /tmp/apply.err
check_out "... and the module's rules are unchanged" "$BEFORE" cat $SF/load2

# clear first: a policy without the rule takes it away everywhere
printf 'X Y r\n' >$P/accesses.d/10-ab
rm $P/onlycap
$CTL apply >/tmp/apply.out 2>&1
check "apply again (rule gone, onlycap gone) exits 0" [ $? -eq 0 ]
check "... NetLabel already set up: unchanged" grep -q "^netlabel: default IPv4 traffic already carries CIPSO DOI 3 (pass-through): unchanged" /tmp/apply.out
check_out "the module holds only the new rule" "X Y r" cat $SF/load2
check_out "... onlycap cleared" "" sh -c "cat $SF/onlycap | tr -d ' \n'"
check_out "the module denies A signalling B again" EACCES sig
check_fails "the mount denies A reading B again" rd
kill $VICTIM
umount /mnt/a

# Mixed DOIs: the default IPv4 mapping sends 10/8 to DOI 5 and the rest to
# DOI 3, both pass-through.  Smack has one DOI, so this is not its
# configuration, and the daemon and smackfusectl must read it alike: a
# mount starting reads doi 0, and apply sets Smack's configuration up
# (it used to say "already carries CIPSO DOI 5", the first selector's).
$N map del default
$N cipsov4 add pass doi:5 tags:1
$N map add default address:10.0.0.0/8 protocol:cipsov4,5
$N map add default address:0.0.0.0/0 protocol:cipsov4,3
mkdir -p /tmp/s2 /mnt/m
smackfuse -o netlabel=on /tmp/s2 /mnt/m
for i in $(seq 100); do [ -e /run/smackfuse/mnt-m/doi ] && break; sleep 0.1; done
check_out "mixed DOIs: a mount starting reads doi 0 (no Smack DOI)" 0 \
	cat /run/smackfuse/mnt-m/doi
$CTL --target netlabel apply >/tmp/apply.out 2>&1
check "... smackfusectl apply agrees: no Smack DOI, so it sets one up" \
	grep -qx 'netlabel: DOI 3 pass-through, default IPv4 mapping to it, "_" unlabeled: configured' /tmp/apply.out
diag "apply said: $(cat /tmp/apply.out)"
check_out "... netlabelctl: the whole default IPv4 mapping now goes to DOI 3" \
	'domain:"_",UNLABELED,4 domain:DEFAULT,CIPSOv4,3 domain:DEFAULT,UNLABELED,6' \
	$N map list
umount /mnt/m
done_testing
