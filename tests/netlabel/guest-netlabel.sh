# guest-netlabel.sh - smacknl against the real NetLabel of Debian's kernel,
# cross-checked with netlabelctl (netlabel-tools).  Runs in the qemu guest
# (busybox sh, root); see netlabel.test.
. /lib/sfq/tap.sh
ip link set lo up
N=netlabelctl
S=smacknl

# The whole NetLabel configuration, in our script format and in netlabelctl's.
state() { $S -s list; $N map list; $N cipsov4 list; $N unlbl list; }
# check_same DESC BEFORE: the configuration still equals BEFORE
check_same() {
	_now=$(state 2>&1)
	if [ "$_now" = "$2" ]; then ok "$1"
	else not_ok "$1"; diag "before: $2"; diag "after:  $_now"; fi
}
# check_err DESC WANT CMD...: CMD fails, and its stderr contains WANT
check_err() {
	_d=$1; _w=$2; shift 2
	_e=$("$@" 2>&1 >/dev/null)
	_rc=$?
	case "$_e" in
	*"$_w"*) [ $_rc = 1 ] && ok "$_d" ||
		{ not_ok "$_d (exit $_rc)"; diag "$_e"; } ;;
	*) not_ok "$_d"; diag "want: $_w"; diag "got:  $_e (exit $_rc)" ;;
	esac
}

echo "@before-netlabelctl $($N -p map list | tr '\n' '|')"
echo "@before-smacknl $($S list | tr '\n' '|')"

# ---- the standard setup, seen by netlabelctl ----
check_out "smack-setup configures a fresh kernel" \
	'configured: DOI 3 pass-through, default IPv4 mapping to it, ambient "_" unlabeled' \
	$S smack-setup
check_out "netlabelctl: DOI 3 is pass-through" "3,PASS_THROUGH" $N cipsov4 list
check_out "netlabelctl: DOI 3 has only the restricted bitmap tag" "tags:1" \
	$N cipsov4 list doi:3
check_out "netlabelctl: \"_\" unlabeled, default IPv4 -> DOI 3, IPv6 unlabeled" \
	'domain:"_",UNLABELED,4 domain:DEFAULT,CIPSOv4,3 domain:DEFAULT,UNLABELED,6' \
	$N map list
check_out "netlabelctl: unlabeled traffic still accepted" "accept:on" $N unlbl list
echo "@after-netlabelctl $($N -p map list | tr '\n' '|')"
echo "@after-smacknl $($S list | tr '\n' '|')"

BEFORE=$(state 2>&1)
check_out "smack-setup twice: second run changes nothing" unchanged \
	$S -s smack-setup
check_same "smack-setup twice: configuration identical" "$BEFORE"

$N map del default && $N map add default protocol:unlbl
check_out "smack-setup replaces an unlabeled default mapping" changed \
	$S -s smack-setup
check_same "... and the result is the standard setup again" "$BEFORE"
$N map del default
$N map add default address:10.0.0.0/8 protocol:cipsov4,3
$N map add default address:0.0.0.0/0 protocol:unlbl
check_out "smack-setup replaces a per-address default mapping" changed \
	$S -s smack-setup
check_same "... and the result is the standard setup again" "$BEFORE"

# ---- configured by netlabelctl, listed by smacknl ----
$N cipsov4 add trans doi:5 tags:1 levels:0=1,1=2 categories:0=0,5=7
$N map add domain:Secret address:10.0.0.0/8 protocol:cipsov4,5
$N map add domain:Secret address:192.168.0.0/16 protocol:unlbl
$N unlbl add interface:lo address:127.0.0.1 label:unconfined
$N unlbl add default address:10.1.0.0/16 label:unconfined
$N unlbl accept off
check_out "smacknl lists what netlabelctl configured" "doi 3 pass tags 1
doi 5 standard tags 1 levels 0=1,1=2 categories 0=0,5=7
map Secret ipv4 address 192.168.0.0/16 unlabeled
map Secret ipv4 address 10.0.0.0/8 cipso 5
map _ ipv4 unlabeled
map default ipv4 cipso 3
map default ipv6 unlabeled
accept off
static lo 127.0.0.1/32 unconfined
static default 10.1.0.0/16 unconfined" $S -s list
$N map del domain:Secret
$N cipsov4 del doi:5
$N unlbl del interface:lo address:127.0.0.1
$N unlbl del default address:10.1.0.0/16
$N unlbl accept on
check_same "netlabelctl removed it all again" "$BEFORE"

# ---- configured by smacknl, listed by netlabelctl ----
check "smacknl doi add standard (translation tables)" \
	$S doi add standard 6 levels 0=1,1=2 categories 0=0,5=7
check_out "netlabelctl sees its tags and tables" \
	"tags:1 levels:0=1,1=2 categories:0=0,5=7" $N cipsov4 list doi:6
check "smacknl map add per address (two selectors)" \
	$S map add Top address 10.2.0.0/16 cipso 6
check "smacknl map add a second selector to the same domain" \
	$S map add Top address 10.3.0.0/16 unlabeled
check_out "netlabelctl sees both selectors" \
	'domain:"Top",address:10.2.0.0/16,protocol:CIPSOv4,6,address:10.3.0.0/16,protocol:UNLABELED domain:"_",UNLABELED,4 domain:DEFAULT,CIPSOv4,3 domain:DEFAULT,UNLABELED,6' \
	$N map list
check "smacknl unlbl add a static label" \
	$S unlbl add lo address 127.0.0.2 label unconfined
check "smacknl unlbl accept off" $S unlbl accept off
check_out "netlabelctl sees the static label and accept off" \
	'accept:off interface:lo,address:127.0.0.2/32,label:"unconfined"' \
	$N unlbl list
check "smacknl doi add local" $S doi add local 9
check_out "... listed with the local tag 128" "doi 9 local tags 128" \
	$S -s doi list 9
check_err "a local tag on a pass-through DOI is refused clearly" \
	"tag 128 is not allowed for a pass-through DOI" \
	$S doi add pass 10 tags 1,128
check "smacknl removes them" sh -c "$S map del Top && $S doi del 6 &&
	$S doi del 9 &&
	$S unlbl del lo address 127.0.0.2 && $S unlbl accept on"
check_same "smacknl removed it all again" "$BEFORE"

# ---- single-label and CIPSO hosts (the smackfs "netlabel" file) ----
check "host: 10.0.0.0/8 is a single-label (unlabeled) host" \
	$S host 10.0.0.0/8 unlabeled
check "host: 192.0.2.20 speaks CIPSO" $S host 192.0.2.20 cipso
check_out "netlabelctl: the default became selectors, the rest still CIPSO" \
	'domain:"_",UNLABELED,4 domain:DEFAULT,address:192.0.2.20/32,protocol:CIPSOv4,3,address:10.0.0.0/8,protocol:UNLABELED,address:0.0.0.0/0,protocol:CIPSOv4,3 domain:DEFAULT,UNLABELED,6' \
	$N map list
HOSTS=$(state 2>&1)
check "host: 10.0.0.0/8 again, now CIPSO (replaces its selector)" \
	$S host 10.0.0.0/8 cipso
check_out "netlabelctl: 10.0.0.0/8 now CIPSO" \
	'domain:"_",UNLABELED,4 domain:DEFAULT,address:192.0.2.20/32,protocol:CIPSOv4,3,address:10.0.0.0/8,protocol:CIPSOv4,3,address:0.0.0.0/0,protocol:CIPSOv4,3 domain:DEFAULT,UNLABELED,6' \
	$N map list
check "host: back to unlabeled" $S host 10.0.0.0/8 unlabeled
for n in 2 4; do
	check_err "host failing at change $n reports it" "Input/output error" \
		env SMACKNL_FAIL_AFTER=$n $S host 198.51.100.0/24 unlabeled
	check_same "... and is rolled back completely" "$HOSTS"
done
# host ... label: as Smack, also a static label for arrivals, which needs
# an LSM that knows the label; Debian's (AppArmor) does not know "@":
# refused, nothing changed
check_err "host ... label @ without an LSM that knows @ is refused" \
	'the kernel refused the static label "@" for 10.1.0.0/16' \
	$S host 10.1.0.0/16 label @
check_same "... and nothing changed" "$HOSTS"
check_out "smack-setup puts the plain default back" changed $S -s smack-setup
check_same "... the standard setup again" "$BEFORE"

# ---- the library calls behind the smackfs "doi" and "ambient" writes ----
check "doi write: DOI 3 -> 5" nlapi doi 3 5
check_out "... DOI 5 replaced DOI 3, default follows" "doi 5 pass tags 1
map _ ipv4 unlabeled
map default ipv4 cipso 5
map default ipv6 unlabeled
accept on" $S -s list
MOVED=$(state 2>&1)
for n in 1 2 3 4 5; do
	check_err "doi write failing at change $n reports it" \
		"Input/output error" env SMACKNL_FAIL_AFTER=$n nlapi doi 5 3
	check_same "... and is rolled back completely" "$MOVED"
done
check "doi write: DOI 5 -> 3" nlapi doi 5 3
check_same "... the standard setup again" "$BEFORE"
check "ambient write: _ -> Amb" nlapi ambient _ Amb
check_out "... Amb unlabeled, _ no longer mapped" "doi 3 pass tags 1
map Amb ipv4 unlabeled
map default ipv4 cipso 3
map default ipv6 unlabeled
accept on" $S -s list
AMB=$(state 2>&1)
for n in 1 2; do
	check_err "ambient write failing at change $n reports it" \
		"Input/output error" env SMACKNL_FAIL_AFTER=$n nlapi ambient Amb _
	check_same "... and is rolled back completely" "$AMB"
done
check "ambient write: Amb -> _" nlapi ambient Amb _
check_same "... the standard setup again" "$BEFORE"

# ---- the kernel accepts our encoding on a real socket ----
LONG=$(printf 'L%.0s' $(seq 255))
check_out "probe: Secret (direct) comes back from the kernel as Secret" \
	Secret $S -s probe Secret
check_out "probe: a 24-byte label (mapped) comes back" \
	abcdefghijklmnopqrstuvwx $S -s probe abcdefghijklmnopqrstuvwx
check_out "probe: a 255-byte label (mapped) comes back" "$LONG" \
	$S -s probe "$LONG"
check_out "probe: cipso2 level 255 category 184 comes back" Top \
	$S -s probe cipso2 "Top 255 1   184" Top
check_err "probe: the kernel refuses the option for an unknown DOI" \
	"the kernel refused the CIPSO option" $S probe doi 77 Secret

# ---- bad input: a clear error, nothing changed ----
check_err "unknown DOI" "unknown DOI 9" $S map add default cipso 9
check_same "... configuration unchanged" "$BEFORE"
check_err "duplicate default mapping" \
	"the default already has a mapping" $S map add default unlabeled
check_same "... configuration unchanged" "$BEFORE"
check_err "duplicate DOI" "DOI 3 already exists" $S doi add pass 3
check_same "... configuration unchanged" "$BEFORE"
check_err "malformed cipso2 line" "cipso2:1:8: level is not one number" \
	$S encode cipso2 "Secret 3 2 5 7" Secret
check_same "... configuration unchanged" "$BEFORE"
check_err "without CAP_NET_ADMIN" \
	"permission denied: needs CAP_NET_ADMIN" \
	su -s /bin/sh nobody -c "$S smack-setup doi 7 ambient Amb"
check_same "... configuration unchanged" "$BEFORE"
for n in 1 2 3 4 5; do
	check_err "smack-setup failing at change $n reports it" \
		"Input/output error" \
		env SMACKNL_FAIL_AFTER=$n $S smack-setup doi 8 ambient Amb
	check_same "... and is rolled back completely" "$BEFORE"
done
check "smack-setup doi 8 ambient Amb with no failure (5 changes)" \
	env SMACKNL_FAIL_AFTER=6 $S smack-setup doi 8 ambient Amb
check_out "... took effect" "doi 3 pass tags 1
doi 8 pass tags 1
map Amb ipv4 unlabeled
map _ ipv4 unlabeled
map default ipv4 cipso 8
map default ipv6 unlabeled
accept on" $S -s list
done_testing
