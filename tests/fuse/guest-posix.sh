# guest-posix.sh - setid.test's, umask.test's and acl.test's case lists
# (posix-cases.sh, the shorter ones) on the guest's kernel: natively on a
# tmpfs, then through smackfuse over a tmpfs with passthrough (where the
# kernel has it) and without; every outcome must equal native's.  The
# callers are UID:GID pairs without supplementary groups: ALICE 1001 and
# BOB 1002 in group 1001 (STAFF), CAROL 1003 in 1003 (OPS).
. /lib/sfq/tap.sh
. /data/posix-cases.sh
check "fuse.ko loads" load_fuse
ALICE=1001:1001 BOB=1002:1001 CAROL=1003:1003 A=1001 B=1002 C=1003
STAFF=1001 OPS=1003 CASES_SMALL=1
N=/tmp/n S=/tmp/src M=/tmp/mnt
mkdir -p $N $S $M /tmp/c /tmp/rules
mount -t tmpfs -o mode=755 tmpfs $N
mkdir $N/probe
ACL=no
[ "$(as root setfacl $N/probe default u::rwx,g::rwx,o::rwx)" = OK ] && ACL=yes
rmdir $N/probe
diag "kernel $(uname -r), POSIX ACLs on tmpfs: $ACL"
LISTS="setid umask"
[ $ACL = yes ] && LISTS="$LISTS acl"
: >/tmp/rules/empty
echo '* _' >/tmp/users
for l in $LISTS; do
	D=D ${l}_cases >/tmp/$l.list
	mkdir -p $N/$l
	sed "s|\([ ]\)D/|\1$N/$l/|g" /tmp/$l.list >/tmp/$l.native
	run_cases /tmp/$l.native /tmp/out.$l.native as
done
# The previous daemon's control directory goes when that daemon exits.
control_gone() {
	_i=0
	while grep -q " /tmp/c " /proc/mounts && [ $_i -lt 100 ]; do
		sleep 0.1; _i=$((_i + 1))
	done
}
for pt in auto off; do
	control_gone
	mount -t tmpfs -o mode=755 tmpfs $S
	smackfuse -f --rules /tmp/rules -o subject=users -o users=/tmp/users \
		-o passthrough=$pt -o control=/tmp/c $S $M 2>/tmp/sf.log &
	# the control directory is served a moment after the mount
	if ! wait_mounted $M || ! wait_mounted /tmp/c; then
		not_ok "smackfuse mounts (passthrough=$pt)"
		while read -r l; do diag "$l"; done </tmp/sf.log
		continue
	fi
	ok "smackfuse mounts (passthrough=$pt)"
	check_out "the daemon clears set-ID bits (passthrough=$pt)" daemon \
		sed -n 's/^set-id bits cleared by: //p' /tmp/c/status
	diag "passthrough=$pt: $(grep '^passthrough:' /tmp/c/status)"
	for l in $LISTS; do
		mkdir -p $M/$l
		sed "s|\([ ]\)D/|\1$M/$l/|g" /tmp/$l.list >/tmp/$l.mount
		run_cases /tmp/$l.mount /tmp/out.$l.$pt as
		diff_cases /tmp/$l.list /tmp/out.$l.native /tmp/out.$l.$pt \
			>/tmp/diff
		n=$(grep -cv '^  ' /tmp/diff)
		check_out "$l: $(wc -l </tmp/$l.list) outcomes as native (passthrough=$pt)" \
			0 echo "$n"
		head -n 15 /tmp/diff | while read -r d; do diag "$d"; done
	done
	check "smackfuse unmounts (passthrough=$pt)" umount $M
	sleep 0.2
	umount $S
done
# Requests per write(2) (issue 30): 100 small writes into an existing
# file, the daemon in debug mode: no GETXATTR of security.capability;
# one WRITE each unless the kernel passes them through.
control_gone
mount -t tmpfs -o mode=755 tmpfs $S
smackfuse -d --rules /tmp/rules -o subject=users -o users=/tmp/users \
	-o control=/tmp/c $S $M 2>/tmp/sf.d &
if wait_mounted $M && wait_mounted /tmp/c; then
	as root mkfile $M/w 0666 0 0 >/dev/null
	as root append $M/w x >/dev/null
	sleep 0.2
	from=$(wc -l </tmp/sf.d)
	dd if=/dev/zero of=$M/w bs=4 count=100 conv=notrunc 2>/dev/null
	sleep 0.2
	tail -n +"$from" /tmp/sf.d >/tmp/reqs
	want=100
	grep -qx 'passthrough: yes' /tmp/c/status && want=0
	check_out "100 small writes ask no GETXATTR" 0 \
		grep -c 'opcode: GETXATTR' /tmp/reqs
	check_out "and $want WRITE" $want grep -c 'opcode: WRITE' /tmp/reqs
	umount $M
else
	not_ok "smackfuse -d mounts"
fi
[ $ACL = yes ] && . /data/guest-acl.sh
done_testing
