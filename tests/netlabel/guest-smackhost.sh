# guest-smackhost.sh - on the Smack reference kernel, smacknl and a
# smackfuse mount leave NetLabel to the kernel's Smack: a labelled task's
# loopback datagram keeps its label (SCM_SECURITY at a receiver labelled
# B, smackpeer) before and after `smacknl host` and the mount's netlabel,
# doi and ambient writes; host entries land in smackfs's own list; the
# kernel's NetLabel mappings are never turned into address selectors.
# See smackhost.test.
. /lib/sfq/tap.sh
N=netlabelctl
SF=/sys/fs/smackfs
C=/run/smackfuse/mnt-s
ip link set lo up
mkdir -p $SF
mount -t smackfs smackfs $SF

maps() { $N map list; }
put() { printf '%s' "$2" >"$1"; }
# the label A's loopback datagram arrives with at a receiver labelled B
labelled() { check_out "$1: A's loopback datagram arrives labelled A" A \
	smackpeer A B; }

check "Smack is the active LSM" grep -qw smack /sys/kernel/security/lsm
check "rule A B w" put $SF/load2 "A B w"
check "rule _ B w (an unlabelled arrival would be delivered as _)" \
	put $SF/load2 "_ B w"
labelled "at boot"
check "at boot: Smack's default IPv4 mapping to DOI 3" sh -c \
	"$N map list | grep -q 'domain:DEFAULT,CIPSOv4,3'"
BOOT=$(maps)
echo "@boot-map $BOOT"

# ---- the CIPSO option bytes: the kernel's Smack, smacknl, the core ----
# wire LABEL: the CIPSO option (hex) a datagram from LABEL to B carried
wire() { smackpeer -o "$1" B | cut -d' ' -f2; }
# ours [encode options] LABEL: what smacknl encodes for it
ours() { smacknl -s encode "$@" | awk '{print $NF}'; }
K=$(wire A)
echo "@wire A $K"
check_out "CIPSO bytes: Smack sends for A what smacknl encodes (direct)" \
	"$(ours A)" echo "$K"
check_out "... and the core decodes Smack's bytes to A" A smacknl decode "$K" A
check_out "... to * when A is not known here, as Smack decodes" "*" \
	smacknl decode "$K"
check "cipso2 rule Secret 3/5,7 in smackfs" put $SF/cipso2 "Secret 3   2   5   7"
check "rule Secret B w" put $SF/load2 "Secret B w"
K=$(wire Secret)
echo "@wire Secret $K"
check_out "CIPSO bytes: Smack sends for Secret (cipso2) what smacknl encodes" \
	"$(ours cipso2 "Secret 3   2   5   7" Secret)" echo "$K"
check_out "... and the core decodes Smack's bytes to Secret" Secret \
	smacknl decode cipso2 "Secret 3   2   5   7" "$K"
check "rule Twentythree-bytes-label B w (23 bytes, the longest direct label)" \
	put $SF/load2 "Twentythree-bytes-label B w"
K=$(wire Twentythree-bytes-label)
check_out "CIPSO bytes: a 23-byte label, direct, as smacknl encodes" \
	"$(ours Twentythree-bytes-label)" echo "$K"

# ---- smacknl ----
check_fails "smacknl host A/N unlabeled is refused (a Smack host entry has a label)" \
	smacknl host 10.0.0.0/8 unlabeled
check "... and says how" sh -c \
	'smacknl host 10.0.0.0/8 unlabeled 2>&1 | grep -q "runs Smack.*host A/N label LABEL"'
check "smacknl host 10.0.0.0/8 label @" smacknl host 10.0.0.0/8 label @
check "smacknl host 192.0.2.0/24 cipso" smacknl host 192.0.2.0/24 cipso
check_out "... both are in smackfs's host list" "10.0.0.0/8 @
192.0.2.0/24 -CIPSO" sort $SF/netlabel
check_out "... the NetLabel mappings are Smack's, no address selectors" \
	"$BOOT" maps
# (netlabelctl prints bytes after the label: Smack's secctx length has
# no NUL, which netlabelctl expects; smacknl reads the attribute's length)
echo "@unlbl $($N unlbl list | tr -c ' -~' '?')"
check "... and 10.0.0.0/8 has Smack's static label @ for arrivals" sh -c \
	"smacknl -s unlbl list | grep -qx 'static default 10.0.0.0/8 @'"
labelled "after smacknl host"
check_fails "smacknl host ... cipso doi 5 is refused (smackfs's DOI is 3)" \
	smacknl host 198.51.100.0/24 cipso doi 5
check_fails "smacknl map del default is refused without -f" \
	smacknl map del default
check_out "... the mappings are unchanged" "$BOOT" maps
check_out "smacknl smack-setup goes through smackfs" \
	'unchanged: smackfs doi 3, ambient "_" (this kernel runs Smack, which configures NetLabel itself)' \
	smacknl smack-setup
labelled "after smacknl smack-setup"

# ---- a smackfuse mount, -o netlabel=on ----
mkdir -p /tmp/src /mnt/s
smackfuse -f -o netlabel=on /tmp/src /mnt/s 2>/tmp/s.log &
for i in $(seq 100); do [ -e $C/load2 ] && break; sleep 0.1; done
check "smackfuse mounts with its control directory" test -e $C/load2
check "its status says NetLabel is smackfs's" \
	grep -q '^netlabel: smackfs (this kernel runs Smack' $C/status
check_out "its doi reads the kernel's" 3 cat $C/doi
check_out "... the mappings are unchanged by the mount" "$BOOT" maps
check "write the mount's netlabel 10.2.0.0/16 @" put $C/netlabel "10.2.0.0/16 @"
check "... it is in smackfs's host list" grep -qx "10.2.0.0/16 @" $SF/netlabel
check_out "... the mount's netlabel reads smackfs's" "$(cat $SF/netlabel)" \
	cat $C/netlabel
check_out "... the mappings are Smack's, no address selectors" "$BOOT" maps
labelled "after the mount's netlabel write"
check_fails "the mount's netlabel -DELETE is refused (Smack has none for IPv4)" \
	put $C/netlabel "10.2.0.0/16 -DELETE"
check "write the mount's doi 5" put $C/doi 5
check_out "... smackfs's doi is 5" 5 cat $SF/doi
check_out "... Smack moved its mapping to DOI 5, nothing else changed" \
	"$(echo "$BOOT" | sed 's/CIPSOv4,3/CIPSOv4,5/')" maps
labelled "after the mount's doi write"
check "write the mount's ambient Amb" put $C/ambient Amb
check_out "... smackfs's ambient is Amb" Amb sh -c "tr -d '\\000' <$SF/ambient"
labelled "after the mount's ambient write"
echo "@after-map $(maps)"
umount /mnt/s
done_testing
