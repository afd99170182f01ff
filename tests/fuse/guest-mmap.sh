# guest-mmap.sh - the SMACK64MMAP rule at exec through a smackfuse mount
# whose caller labels come from smackfuse.ko (-o subject=kmod): the
# program is mapped under the label the exec gives the task (its
# SMACK64EXEC, if any), so that label's rules are compared with the
# SMACK64MMAP label's, as mainline's smack_mmap_file does after
# smack_bprm_creds_for_exec.
. /lib/sfq/tap.sh
U=1000

check "fuse.ko loads" insmod /lib/modules/fuse.ko
check "smackfuse.ko loads" insmod /lib/modules/smackfuse.ko
# prog DIR MMAP [EXEC]: busybox as DIR/true, carrying the labels.
prog() {
	mkdir -p /tmp/src/$1
	cp /bin/busybox /tmp/src/$1/true
	chmod 755 /tmp/src/$1/true
	kact setxattr /tmp/src/$1/true security.SMACK64MMAP $2 >/dev/null
	[ -z "$3" ] || kact setxattr /tmp/src/$1/true security.SMACK64EXEC $3 \
		>/dev/null
}
prog plain M
prog toE M E
prog toF M F
# E and C read Q; M has no rule for Q; F has no rules.
printf 'E Q r\nC Q r\n' >/tmp/rules
mkdir -p /mnt/k
if smackfuse --rules /tmp/rules -o subject=kmod /tmp/src /mnt/k; then
	ok "smackfuse mounts (subject=kmod)"
	check "A (no rules) runs a program carrying SMACK64MMAP M" \
		smackrun -u $U A /mnt/k/plain/true
	check_fails "C (C Q r, M has none) may not run it" \
		smackrun -u $U C /mnt/k/plain/true
	check_fails "A may not run it when its SMACK64EXEC E has E Q r" \
		smackrun -u $U A /mnt/k/toE/true
	check "C runs it when its SMACK64EXEC F has no rules" \
		smackrun -u $U C /mnt/k/toF/true
	check "unmounts" umount /mnt/k
else
	not_ok "smackfuse mounts (subject=kmod)"
fi
done_testing
