# guest-control.sh - the control files doi, ambient, netlabel and cipso2 of
# a smackfuse mount, as the kernel's NetLabel sees them (netlabelctl), in
# the qemu guest on Debian's kernel; see control.test.
. /lib/sfq/tap.sh
ip link set lo up
N=netlabelctl
C=/run/smackfuse/mnt-n
C2=/run/smackfuse/mnt-f

# The kernel's whole NetLabel configuration, one line per listing.
state() {
	echo "map: $($N map list)"
	echo "cipsov4: $($N cipsov4 list)"
	echo "unlbl: $($N unlbl list)"
}
check_state() {	# DESC MAP CIPSOV4 [UNLBL]
	_want="map: $2
cipsov4: $3
unlbl: ${4:-accept:on}"
	_now=$(state 2>&1)
	if [ "$_now" = "$_want" ]; then ok "$1"
	else not_ok "$1"; diag "want: $_want"; diag "got:  $_now"; fi
}
check_same() {	# DESC BEFORE
	_now=$(state 2>&1)
	if [ "$_now" = "$2" ]; then ok "$1"
	else not_ok "$1"; diag "before: $2"; diag "after:  $_now"; fi
}
put() { printf '%s' "$2" >"$1"; }
# mount_sf SRC MNT CONTROLDIR LOG: smackfuse -f in the background, until
# its control directory answers
mount_sf() {
	mkdir -p "$1" "$2"
	smackfuse -f "$1" "$2" 2>"$4" &
	for _i in $(seq 100); do
		[ -e "$3/load2" ] && return 0
		sleep 0.1
	done
	return 1
}

check "fuse.ko loads" load_fuse
check_state "before the mount: NetLabel as the kernel boots it" \
	"domain:DEFAULT,UNLABELED" ""
check "smackfuse mounts with its control directory" mount_sf /tmp/src /mnt/n $C /tmp/n.log
check_state "at mount start: Smack's boot configuration (DOI 3, default IPv4 -> 3, \"_\" unlabeled)" \
	'domain:"_",UNLABELED,4 domain:DEFAULT,CIPSOv4,3 domain:DEFAULT,UNLABELED,6' \
	"3,PASS_THROUGH"
check_out "... doi reads the kernel's DOI 3" 3 cat $C/doi
check "... the log says it was set up as Smack does at boot" \
	grep -q "NetLabel: set up as Smack does at boot: DOI 3" /tmp/n.log
check "... status shows it, with nothing missing" sh -c \
	"grep -qx 'netlabel: kernel (DOI 3, ambient \"_\", 0 host entries)' $C/status"
echo "@before $(state | tr '\n' '|')"

# ---- accepted writes: the kernel holds exactly what the files show ----
check "write doi 5" put $C/doi 5
check_state "doi 5: pass-through DOI 5, default IPv4 -> 5, \"_\" unlabeled" \
	'domain:"_",UNLABELED,4 domain:DEFAULT,CIPSOv4,5 domain:DEFAULT,UNLABELED,6' \
	"5,PASS_THROUGH"
check_out "... doi reads 5" 5 cat $C/doi
check_out "netlabelctl: DOI 5 has only the restricted bitmap tag" "tags:1" \
	$N cipsov4 list doi:5
check "write ambient Amb" put $C/ambient Amb
check_state "ambient Amb: \"Amb\" unlabeled, \"_\" no longer mapped" \
	'domain:"Amb",UNLABELED,4 domain:DEFAULT,CIPSOv4,5 domain:DEFAULT,UNLABELED,6' \
	"5,PASS_THROUGH"
check "write netlabel 10.0.0.0/8 @ (a single-label network)" \
	put $C/netlabel "10.0.0.0/8 @"
check "write netlabel 192.0.2.20 -CIPSO" put $C/netlabel "192.0.2.20 -CIPSO"
check_state "netlabel: selectors of the default, longest prefix first" \
	'domain:"Amb",UNLABELED,4 domain:DEFAULT,address:192.0.2.20/32,protocol:CIPSOv4,5,address:10.0.0.0/8,protocol:UNLABELED,address:0.0.0.0/0,protocol:CIPSOv4,5 domain:DEFAULT,UNLABELED,6' \
	"5,PASS_THROUGH"
check_out "... netlabel reads both entries" "192.0.2.20/32 -CIPSO
10.0.0.0/8 @" cat $C/netlabel
check "write doi 7 with hosts configured" put $C/doi 7
check_state "doi 7: DOI 5 removed, the selectors follow DOI 7" \
	'domain:"Amb",UNLABELED,4 domain:DEFAULT,address:192.0.2.20/32,protocol:CIPSOv4,7,address:10.0.0.0/8,protocol:UNLABELED,address:0.0.0.0/0,protocol:CIPSOv4,7 domain:DEFAULT,UNLABELED,6' \
	"7,PASS_THROUGH"
GOOD=$(state 2>&1)
check_fails "netlabel 192.0.2.20 -DELETE is refused (ipv6host's option, as in Smack)" \
	put $C/netlabel "192.0.2.20 -DELETE"
check_same "... its selector stays: the kernel's NetLabel is unchanged" "$GOOD"
check "... the log says to write the host with -CIPSO instead" \
	grep -q "rejected write: netlabel:1:12: -DELETE is for ipv6host; .*with -CIPSO" /tmp/n.log
echo "@after $(state | tr '\n' '|')"
check "write cipso2 Secret 3 5,9" put $C/cipso2 "Secret 3   2   5   9   "
check_out "... cipso2 shows it" "Secret   3/5,9" sh -c "grep '^Secret ' $C/cipso2"
check_same "... and the kernel's NetLabel is unchanged (a pass-through DOI keeps no table)" "$GOOD"

# ---- refused writes: nothing changes, in the kernel or in the file ----
$N cipsov4 add trans doi:9 tags:1 levels:0=0 categories:0=0
BUSY=$(state 2>&1)
check_fails "doi 9, which exists as a standard DOI, is refused" put $C/doi 9
check_same "... the kernel's NetLabel is unchanged" "$BUSY"
check_out "... doi still reads 7" 7 cat $C/doi
check "... and the log says why" grep -q "rejected write: doi: .*DOI 9 already exists with another definition" /tmp/n.log
$N cipsov4 del doi:9
check_fails "a malformed netlabel line is refused" put $C/netlabel "300.1.1.1 X"
check_same "... the kernel's NetLabel is unchanged" "$GOOD"
check_fails "without CAP_MAC_ADMIN a doi write is refused" \
	su -s /bin/sh nobody -c "printf 3 >$C/doi"
check_same "... the kernel's NetLabel is unchanged" "$GOOD"

# A second mount whose daemon fails at its 2nd NetLabel change: the
# first change (its DOI 3) must be rolled back.
mkdir -p /tmp/src2 /mnt/f
SMACKNL_FAIL_AFTER=2 smackfuse -f -o netlabel=on /tmp/src2 /mnt/f 2>/tmp/f.log &
for i in $(seq 100); do [ -e $C2/load2 ] && break; sleep 0.1; done
check_fails "a write failing at its 2nd kernel change is refused" \
	put $C2/ambient Other
check_same "... its 1st change is rolled back: the kernel is unchanged" "$GOOD"
check_out "... ambient still reads Amb (taken from the kernel at start)" "Amb" \
	sh -c "tr -d '\\000' <$C2/ambient"
check_out "... doi reads the kernel's DOI 7" 7 cat $C2/doi
check "... its status says the kernel's selectors are not its own" \
	grep -q "missing: the default IPv4 mapping has 3 address selectors that this mount did not set" $C2/status
check "... and the log says the kernel was not changed" grep -q "rejected write: ambient: the kernel's NetLabel configuration was not changed" /tmp/f.log
check "status of the first mount shows the NetLabel state" \
	grep -q '^netlabel: kernel (DOI 7, ambient "Amb", 2 host entries)' $C/status
# smackfusectl(8)'s example: the internet unlabelled, 10/8 over CIPSO
check "write netlabel 0.0.0.0/0 @ then 10.0.0.0/8 -CIPSO" sh -c \
	"printf '0.0.0.0/0 @' >$C/netlabel && printf '10.0.0.0/8 -CIPSO' >$C/netlabel"
check_state "... 10/8 (and 192.0.2.20) over CIPSO, everything else unlabeled" \
	'domain:"Amb",UNLABELED,4 domain:DEFAULT,address:192.0.2.20/32,protocol:CIPSOv4,7,address:10.0.0.0/8,protocol:CIPSOv4,7,address:0.0.0.0/0,protocol:UNLABELED domain:DEFAULT,UNLABELED,6' \
	"7,PASS_THROUGH"
umount /mnt/f
umount /mnt/n
done_testing
