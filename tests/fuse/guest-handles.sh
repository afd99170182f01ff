# guest-handles.sh - handles.test's core on the guest's kernel: handles
# of a smackfuse mount over a tmpfs, opened by root, by root keeping
# CAP_DAC_READ_SEARCH alone (label "_", no CAP_MAC_OVERRIDE) and by
# nobody (label N, the same capability alone): fresh, after the kernel
# dropped its caches, after unmount and mount (a new daemon); an
# unlinked file and forged handles give ESTALE.
. /lib/sfq/tap.sh
check "fuse.ko loads" load_fuse
S=/tmp/src M=/tmp/mnt
mkdir -p $S $M /tmp/c /tmp/rules
: >/tmp/rules/empty
printf 'nobody\tN\n*\t_\n' >/tmp/users
mount -t tmpfs -o mode=755 tmpfs $S
mkdir $S/d
chmod 0777 $S/d
for f in d/f:A:alpha pub:_:public d/u:A:gone d/n:N:nobodys; do
	p=${f%%:*} r=${f#*:}
	echo "${r#*:}" >$S/$p
	chmod 0666 $S/$p
	as root setxattr $S/$p security.SMACK64 "${r%%:*}" >/dev/null
done
as root setxattr $S/d security.SMACK64 A >/dev/null
sf() {
	smackfuse -f --rules /tmp/rules -o subject=users -o users=/tmp/users \
		-o control=/tmp/c $S $M 2>>/tmp/sf.log &
	SFPID=$!
	wait_mounted $M
}
fh() { fhandle encode "$1" | sed -n 2p; }
hopen() {
	_u=$1
	shift
	if [ "$_u" = root ]; then
		fhandle open "$@"
	else
		fhandle -u "$_u" open "$@"
	fi | paste -sd' '
}
drop() {
	sync
	echo 2 >/proc/sys/vm/drop_caches
	sleep 0.2
	echo 2 >/proc/sys/vm/drop_caches
}
cases() {
	check_out "$1: root reads A" "OK alpha" hopen root $M "$HF" r
	check_out "$1: root opens a directory" OK hopen root $M "$HD" dir
	check_out "$1: _ (no CAP_MAC_OVERRIDE) may not read A" EACCES \
		hopen root-dac $M "$HF" r
	check_out "$1: N may not read A" EACCES hopen nobody $M "$HF" r
	check_out "$1: N may not open an A directory" EACCES \
		hopen nobody $M "$HD" dir
	check_out "$1: N reads _" "OK public" hopen nobody $M "$HP" r
	check_out "$1: N reads N" "OK nobodys" hopen nobody $M "$HN" r
}
if ! sf; then
	not_ok "smackfuse mounts"
	while read -r l; do diag "$l"; done </tmp/sf.log
	done_testing
fi
ok "smackfuse mounts"
i=0
while [ ! -f /tmp/c/status ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
check_out "status: handles are tmpfs's own" \
	"file handles: backing (type 1, 12 bytes, whole filesystem)" \
	grep '^file handles:' /tmp/c/status
HF=$(fh $M/d/f) HD=$(fh $M/d) HP=$(fh $M/pub) HN=$(fh $M/d/n) HU=$(fh $M/d/u)
check_out "the node id is the backing handle" "$HF" \
	sh -c "fhandle forge \$(fhandle encode $S/d/f | sed -n 2p) | sed -n 2p"
cases fresh
drop
check_out "the daemon forgot every node" "nodes: 0" grep '^nodes:' /tmp/c/status
cases "after drop_caches"
rm $M/d/u
drop
check_out "an unlinked file" ESTALE hopen root $M "$HU" r
# the last byte with every bit turned (tmpfs draws generations at random)
last=${HF#"${HF%??}"}
check_out "another generation" ESTALE hopen root $M \
	"${HF%??}$(printf '%02x' $((0x$last ^ 255)))" r
check "smackfuse unmounts" umount $M
wait $SFPID
if ! sf; then
	not_ok "smackfuse mounts again"
	done_testing
fi
cases "after a remount"
check "smackfuse unmounts again" umount $M
done_testing
