# guest-daemon.sh - smackfuse takes caller labels from smackfuse.ko: two
# tasks of the same uid with different module labels get different
# answers from one mount (-o subject=kmod, and subject=auto, which picks
# the module when it is loaded on a kernel without Smack).  Also: on this
# kernel -o uring=auto falls back to /dev/fuse, and the status says why.
. /lib/sfq/tap.sh
SF=/sys/kernel/security/smackfuse
U=1000

check "fuse.ko loads" load_fuse
check "smackfuse.ko loads" insmod /lib/modules/smackfuse.ko
mkdir -p /tmp/src /mnt/k
echo secret >/tmp/src/secret
chmod 644 /tmp/src/secret
check_out "backing file labelled B" OK \
	kact setxattr /tmp/src/secret security.SMACK64 B
printf 'A B r\n' >/tmp/rules
# A floor directory (no label) two levels deep, with a floor file.
mkdir -p /tmp/src/pub/sub
chmod 777 /tmp/src/pub /tmp/src/pub/sub
echo floor >/tmp/src/pub/sub/f
chmod 666 /tmp/src/pub/sub/f
# In pub: a directory and a file to remove the wrong way; a sticky floor
# directory with root's file in it.
mkdir -p /tmp/src/pub/d /tmp/src/pub/st
touch /tmp/src/pub/x /tmp/src/pub/st/rootfile
chmod 1777 /tmp/src/pub/st
# getattrs CONFIG: the GETATTR requests the mount has answered so far.
getattrs() {
	sed -n 's/^requests: //p' /tmp/ctl-$1/status |
		awk '{ for (i = 1; i < NF; i += 2) if ($i == "GETATTR") print $(i + 1) }'
}
mkdir -p /tmp/ctl-kmod /tmp/ctl-auto
for mode in kmod auto; do
	if ! smackfuse --rules /tmp/rules -o subject=$mode \
		-o uring=auto -o control=/tmp/ctl-$mode /tmp/src /mnt/k; then
		not_ok "subject=$mode: smackfuse mounts"
		continue
	fi
	ok "subject=$mode: smackfuse mounts"
	# -o uring=auto falls back to /dev/fuse and the status file says
	# why (the control directory is served a moment after the mount):
	# Linux 6.1 and 6.12 have no FUSE over io_uring; 6.14 and later
	# have it, off unless the fuse module's enable_uring says Y.
	i=0
	while [ ! -e /tmp/ctl-$mode/status ] && [ $i -lt 50 ]; do
		sleep 0.1; i=$((i + 1))
	done
	case $(cat /sys/module/fuse/parameters/enable_uring 2>/dev/null) in
	"") why='the kernel has none' ;;
	Y) why= ;;
	*) why='off in the kernel' ;;
	esac
	if [ -n "$why" ]; then
		check "subject=$mode: uring=auto on $(uname -r): /dev/fuse, the status says $why" \
			grep -q "^transport: /dev/fuse (io_uring: $why" /tmp/ctl-$mode/status
	else
		check "subject=$mode: uring=auto on $(uname -r), enable_uring Y: the status says io_uring" \
			grep -q "^transport: io_uring" /tmp/ctl-$mode/status
	fi
	check_out "subject=$mode: uid $U labelled A reads the B file (rule A B r)" \
		secret smackrun -u $U A cat /mnt/k/secret
	check_fails "subject=$mode: uid $U labelled C may not read it (no rule)" \
		smackrun -u $U C cat /mnt/k/secret
	check_fails "subject=$mode: uid $U labelled A may not write it (r only)" \
		smackrun -u $U A sh -c "echo x >>/mnt/k/secret"
	# smackfuse.ko sends every access(2) on the mount to the daemon
	# (hooks_fuse.c), so the daemon lets the kernel keep the attributes
	# of floor directories; an access(W_OK) answered from them would
	# pass on the mode bits, where mainline refuses a labelled caller.
	check "subject=$mode: the status says smackfuse.ko sends access(2)" \
		grep -q '^checks on held attributes sent by smackfuse.ko: yes' /tmp/ctl-$mode/status
	check_out "subject=$mode: A stats the floor directory pub" \
		OK smackrun -u $U A kact path-stat /mnt/k/pub 2
	for i in 1 2; do
		check_out "subject=$mode: A may not write pub: access(W_OK) EACCES ($i)" \
			EACCES smackrun -u $U A kact path-access /mnt/k/pub w
	done
	check_out "subject=$mode: A may search pub: access(X_OK)" \
		OK smackrun -u $U A kact path-access /mnt/k/pub x
	check_out "subject=$mode: A may read pub: access(R_OK)" \
		OK smackrun -u $U A kact path-access /mnt/k/pub r
	check_out "subject=$mode: a floor task may write pub: access(W_OK)" \
		OK smackrun -u $U _ kact path-access /mnt/k/pub w
	check_out "subject=$mode: A may not write pub/sub either" \
		EACCES smackrun -u $U A kact path-access /mnt/k/pub/sub w
	check_fails "subject=$mode: A may not create in pub" \
		smackrun -u $U A sh -c ">/mnt/k/pub/new"
	# A write to a directory whose attributes the kernel holds is sent
	# too, where the kernel's own refusal would come after Smack's:
	# mainline refuses A (no w on floor) with EACCES first.
	for d in pub pub/st; do
		check_out "subject=$mode: A stats $d (its attributes are held)" \
			OK smackrun -u $U A kact path-stat /mnt/k/$d 1
	done
	check_out "subject=$mode: A unlink(2)s the directory pub/d: EACCES (not EISDIR)" \
		EACCES smackrun -u $U A kact unlink /mnt/k/pub/d
	check_out "subject=$mode: A rmdir(2)s the file pub/x: EACCES (not ENOTDIR)" \
		EACCES smackrun -u $U A kact rmdir /mnt/k/pub/x
	check_out "subject=$mode: A removes root's file in the sticky pub/st: EACCES (not EPERM)" \
		EACCES smackrun -u $U A kact unlink /mnt/k/pub/st/rootfile
	check_out "subject=$mode: A makes a device in pub: EACCES (not EPERM)" \
		EACCES smackrun -u $U A kact mknod-chr /mnt/k/pub/dev
	check_out "subject=$mode: a floor task unlink(2)s pub/d: the kernel's EISDIR" \
		EISDIR smackrun -u $U _ kact unlink /mnt/k/pub/d
	check_out "subject=$mode: a floor task removes root's file in pub/st: the sticky bit's EPERM" \
		EPERM smackrun -u $U _ kact unlink /mnt/k/pub/st/rootfile
	# 20 stats of pub/sub/f walk the mount's root, pub and sub, whose
	# attributes the kernel keeps: the file's own GETATTR (floor files
	# are not kept) is the only one each (was four).
	check_out "subject=$mode: A stats pub/sub/f 20 times" \
		OK smackrun -u $U A kact path-stat /mnt/k/pub/sub/f 1
	before=$(getattrs $mode)
	smackrun -u $U A kact path-stat /mnt/k/pub/sub/f 20 >/dev/null
	after=$(getattrs $mode)
	check "subject=$mode: ... with one GETATTR each ($before -> $after)" \
		test "$((after - before))" -eq 20
	check "subject=$mode: unmounts" umount /mnt/k
done
done_testing
