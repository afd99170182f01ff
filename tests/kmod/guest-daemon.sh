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
# The ABI (src/common/kmod_abi.h): the module states its version on the
# first line of features; a verdicts writer announces its own on the
# mount line, and one of another version, or of none (a daemon older
# than the versions), is refused with EPROTO and a kernel warning.
check_out "ABI: the features file's first line states ABI 1" "abi 1" \
	head -n 1 $SF/features
check_out "ABI: verdicts: a writer that states no version is refused: EPROTO" \
	EPROTO kact write $SF/verdicts "mount 0"
check_out "ABI: verdicts: a writer of ABI 2 is refused: EPROTO" \
	EPROTO kact write $SF/verdicts "mount 0 2"
check "ABI: ... and the kernel log names both versions" sh -c \
	"dmesg | grep -q 'smackfuse: verdicts: smackfuse.ko speaks ABI 1, the writer (pid [0-9]*, kact) speaks ABI 2: refused'"
# The verdicts file takes a daemon's own /dev/fuse only, and a verdict
# only after that binding; opening it needs CAP_MAC_ADMIN.
check_fails "verdicts: a descriptor that is not /dev/fuse binds no mount" \
	sh -c "echo 'mount 0 1' >$SF/verdicts"
check_fails "verdicts: a verdict before any binding is refused" \
	sh -c "echo 'set 0 1 A ffff' >$SF/verdicts"
check_fails "verdicts: uid $U may not open it" \
	smackrun -u $U _ sh -c "echo 'mount 0 1' >$SF/verdicts"
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
# pub/xa and pub/xd: a floor file and directory whose Smack attributes
# a privileged subject sets through the mount; /tmp/xa-direct a file on
# the backing tmpfs itself.
mkdir -p /tmp/src/pub/xd
touch /tmp/src/pub/xa /tmp/xa-direct
chmod 666 /tmp/src/pub/xa /tmp/xa-direct
# pub/mine: a floor file of uid $U's own.
touch /tmp/src/pub/mine
chown $U /tmp/src/pub/mine
chmod 666 /tmp/src/pub/mine
# A's directory a, with A's files f and g.
mkdir -p /tmp/src/a
touch /tmp/src/a/f /tmp/src/a/g
chmod 777 /tmp/src/a
chmod 666 /tmp/src/a/f /tmp/src/a/g
touch /tmp/src/a/acl /tmp/src/a/p
chmod 660 /tmp/src/a/acl
chmod 666 /tmp/src/a/p
for o in a a/f a/g a/acl; do
	kact setxattr /tmp/src/$o security.SMACK64 A >/dev/null
done
# a/acl: root's, 660, and its ACL lets uid $U read and write it.
check_out "backing file a/acl gets an ACL for uid $U" OK \
	kact acl-user /tmp/src/a/acl $U
# A daemon refuses a module that speaks another ABI version, or states
# none (an older module): a features file that says so is bind-mounted
# over the module's.  subject=kmod and subject=auto (which picks the
# module) alike; the message names both versions, and nothing mounts.
sed 's/^abi 1$/abi 2/' $SF/features >/tmp/features-abi2
sed 1d $SF/features >/tmp/features-none
for c in "abi2 kmod" "abi2 auto" "none kmod"; do
	set -- $c
	case $1 in
	abi2) says="smackfuse.ko speaks ABI 2, this smackfuse speaks ABI 1: subject=$2 refused" ;;
	none) says="smackfuse.ko states no ABI version in $SF/features (it is older than ABI 1), this smackfuse speaks ABI 1: subject=$2 refused" ;;
	esac
	if ! mount --bind /tmp/features-$1 $SF/features; then
		not_ok "ABI: a features file of $1 bind-mounted over the module's"
		continue
	fi
	if smackfuse --rules /tmp/rules -o subject=$2 /tmp/src /mnt/k \
		2>/tmp/abi.err; then
		not_ok "ABI: subject=$2, a module of $1: smackfuse refuses to mount"
		umount /mnt/k
	else
		ok "ABI: subject=$2, a module of $1: smackfuse refuses to mount"
	fi
	check "ABI: ... and says: $says" grep -qF "$says" /tmp/abi.err
	umount $SF/features
done
check_out "ABI: the module's own features file is back" "abi 1" \
	head -n 1 $SF/features
# getattrs CONFIG: the GETATTR requests the mount has answered so far.
getattrs() {
	sed -n 's/^requests: //p' /tmp/ctl-$1/status |
		awk '{ for (i = 1; i < NF; i += 2) if ($i == "GETATTR") print $(i + 1) }'
}
mkdir -p /tmp/ctl-kmod /tmp/ctl-auto /tmp/ctl-uring
# A kernel with FUSE over io_uring (6.14+) runs the points a third time,
# "uring": subject=kmod with the fuse module's enable_uring Y, so that
# the daemon serves its requests (and hands its verdicts) over the ring.
UR=/sys/module/fuse/parameters/enable_uring
passes="kmod auto"
[ -w $UR ] && passes="kmod auto uring"
for mode in $passes; do
	subj=$mode
	if [ $mode = uring ]; then
		subj=kmod
		echo Y >$UR
	fi
	if ! smackfuse --rules /tmp/rules -o subject=$subj \
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
		# The ring starts once INIT is answered, a moment after
		# the status file appears.
		i=0
		until grep -q "^transport: io_uring" /tmp/ctl-$mode/status ||
			[ $i -ge 50 ]; do
			sleep 0.1; i=$((i + 1))
		done
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
	# setattr: a change of attributes is sent to the daemon before the
	# FUSE driver's owner check (KNOWN-GAPS 6), as mainline's
	# smack_inode_setattr (w) comes before the filesystem's: EACCES
	# without w, where the driver alone would say EPERM.
	check "subject=$mode: setattr: the features file says setattr_refresh" \
		grep -qx setattr_refresh $SF/features
	for op in chmod fchmod chown fchown utimens futimens; do
		check_out "subject=$mode: setattr: A (r on B) $op root's secret: EACCES (not EPERM)" \
			EACCES smackrun -u $U A kact $op /mnt/k/secret
	done
	check_out "subject=$mode: setattr: a floor task chmods root's B secret: EACCES (floor has no w on B)" \
		EACCES smackrun -u $U _ kact chmod /mnt/k/secret
	check_out "subject=$mode: setattr: A chmods its own floor file pub/mine: EACCES (no w on floor)" \
		EACCES smackrun -u $U A kact chmod /mnt/k/pub/mine
	for op in chmod utimens; do
		check_out "subject=$mode: setattr: A (w on A) $op root's a/f: the owner check's EPERM" \
			EPERM smackrun -u $U A kact $op /mnt/k/a/f
	done
	for op in chmod chown utimens; do
		check_out "subject=$mode: setattr: a floor task $op its own pub/mine" \
			OK smackrun -u $U _ kact $op /mnt/k/pub/mine
	done
	# Smack's own attributes (KNOWN-GAPS 14): uid $U holding
	# CAP_MAC_ADMIN and CAP_MAC_OVERRIDE only sets and removes them
	# through the mount, as in mainline: the module leaves out the
	# capability module's CAP_SYS_ADMIN check (6.12 and later ask it of
	# every security.* name, as smack_inode_xattr_skipcap leaves it out
	# for Smack's), and the daemon asks CAP_MAC_ADMIN.  Another
	# security.* name, or a Smack name on another filesystem, is still
	# the capability module's: what it answers on the backing tmpfs
	# (EPERM; on 6.1 the BPF LSM keeps it from running: OK).
	for a in SMACK64 SMACK64EXEC SMACK64MMAP SMACK64IPIN SMACK64IPOUT; do
		check_out "subject=$mode: xattr: uid $U with CAP_MAC_ADMIN sets $a through the mount" \
			OK kact mac-admin $U setxattr /mnt/k/pub/xa security.$a A
		check_out "subject=$mode: xattr: ... and removes it" \
			OK kact mac-admin $U removexattr /mnt/k/pub/xa security.$a
	done
	check_out "subject=$mode: xattr: uid $U with CAP_MAC_ADMIN sets SMACK64TRANSMUTE on pub/xd" \
		OK kact mac-admin $U setxattr /mnt/k/pub/xd security.SMACK64TRANSMUTE TRUE
	check_out "subject=$mode: xattr: ... and removes it" \
		OK kact mac-admin $U removexattr /mnt/k/pub/xd security.SMACK64TRANSMUTE
	check_out "subject=$mode: xattr: uid $U without CAP_MAC_ADMIN may not set SMACK64: EPERM" \
		EPERM smackrun -u $U _ kact setxattr /mnt/k/pub/xa security.SMACK64 A
	capans=$(kact mac-admin $U setxattr /tmp/xa-direct security.selinux x)
	check_out "subject=$mode: xattr: uid $U with CAP_MAC_ADMIN sets security.selinux through the mount: $capans, as on tmpfs" \
		"$capans" kact mac-admin $U setxattr /mnt/k/pub/xa security.selinux x
	check_out "subject=$mode: xattr: ... removes it: $capans, as it sets it on tmpfs" \
		"$capans" kact mac-admin $U removexattr /mnt/k/pub/xa security.selinux
	check_out "subject=$mode: xattr: ... sets SMACK64 on tmpfs: $capans, as security.selinux" \
		"$capans" kact mac-admin $U setxattr /tmp/xa-direct security.SMACK64 A
	# The module takes the daemon's verdicts (verdicts.c): the kernel
	# holds every directory's and file's attributes, and the module
	# decides each check from the caller's verdict or sends it on.
	check "subject=$mode: the status says the kernel holds attributes under verdicts" \
		grep -q '^checks on held attributes sent by smackfuse.ko: yes (verdicts' /tmp/ctl-$mode/status
	check_out "subject=$mode: A stats pub/sub/f" \
		OK smackrun -u $U A kact path-stat /mnt/k/pub/sub/f 1
	before=$(getattrs $mode)
	smackrun -u $U A kact path-stat /mnt/k/pub/sub/f 20 >/dev/null
	after=$(getattrs $mode)
	check "subject=$mode: 20 more stats of pub/sub/f send no GETATTR ($before -> $after)" \
		test "$((after - before))" -eq 0
	# A's own directory and file: held for A; C, and a floor task, have
	# no rule on A, and each of their checks is sent to the daemon.
	check_out "subject=$mode: A stats its own a/f" \
		OK smackrun -u $U A kact path-stat /mnt/k/a/f 1
	before=$(getattrs $mode)
	check_out "subject=$mode: A stats a/f 20 times more" \
		OK smackrun -u $U A kact path-stat /mnt/k/a/f 20
	check_out "subject=$mode: A may write a/f: access(W_OK)" \
		OK smackrun -u $U A kact path-access /mnt/k/a/f w
	after=$(getattrs $mode)
	check "subject=$mode: ... with no GETATTR ($before -> $after)" \
		test "$((after - before))" -eq 0
	# a/p's name is then kept: C's walk to it sends no LOOKUP, and
	# only the search check of a refuses it.
	check_out "subject=$mode: A stats a/p" \
		OK smackrun -u $U A kact path-stat /mnt/k/a/p 1
	for who in C _; do
		for i in 1 2; do
			check_out "subject=$mode: $who may not walk into A's a ($i)" \
				EACCES smackrun -u $U $who kact path-stat /mnt/k/a/f 1
		done
		check_out "subject=$mode: $who may not walk through a to its floor file a/p" \
			EACCES smackrun -u $U $who kact path-stat /mnt/k/a/p 1
		check_out "subject=$mode: $who may not stat a" \
			EACCES smackrun -u $U $who kact path-stat /mnt/k/a 1
		check_out "subject=$mode: $who may not search a: access(X_OK)" \
			EACCES smackrun -u $U $who kact path-access /mnt/k/a x
	done
	# A rule change reaches the module's verdicts before the write
	# returns.  A task of A's stays in a, so that a's inode (and the
	# daemon's node, and its verdicts) outlive the names the rule
	# change makes the kernel drop.
	smackrun -u $U A sh -c 'cd /mnt/k/a && exec sleep 60' &
	pin=$!
	echo "C A x" >/tmp/ctl-$mode/load2
	check_out "subject=$mode: with C A x, C walks into a but may not stat a/f" \
		EACCES smackrun -u $U C kact path-stat /mnt/k/a/f 1
	check_out "subject=$mode: ... and may search a: access(X_OK)" \
		OK smackrun -u $U C kact path-access /mnt/k/a x
	echo "C A rx" >/tmp/ctl-$mode/load2
	check_out "subject=$mode: with C A rx, C stats a/f" \
		OK smackrun -u $U C kact path-stat /mnt/k/a/f 3
	check_out "subject=$mode: ... and may not write it: access(W_OK)" \
		EACCES smackrun -u $U C kact path-access /mnt/k/a/f w
	echo "C A -" >/tmp/ctl-$mode/load2
	check_out "subject=$mode: with C A -, C may not walk into a again" \
		EACCES smackrun -u $U C kact path-stat /mnt/k/a/f 1
	check_out "subject=$mode: ... nor stat a" \
		EACCES smackrun -u $U C kact path-stat /mnt/k/a 1
	check_out "subject=$mode: ... nor search it: access(X_OK)" \
		EACCES smackrun -u $U C kact path-access /mnt/k/a x
	kill $pin
	wait $pin 2>/dev/null
	# A relabel through the mount drops the verdicts at once.
	check_out "subject=$mode: A stats a/g" \
		OK smackrun -u $U A kact path-stat /mnt/k/a/g 2
	check_out "subject=$mode: a/g relabelled D through the mount" \
		OK kact setxattr /mnt/k/a/g security.SMACK64 D
	check_out "subject=$mode: A may not stat a/g now (no rule A D)" \
		EACCES smackrun -u $U A kact path-stat /mnt/k/a/g 1
	check_out "subject=$mode: a/g relabelled A again" \
		OK kact setxattr /mnt/k/a/g security.SMACK64 A
	check_out "subject=$mode: A stats a/g again" \
		OK smackrun -u $U A kact path-stat /mnt/k/a/g 1
	# The kernel keeps the ACL it read for A's check of a/acl; C's
	# getxattr(2) of it is then answered from that cache, past the
	# daemon, unless the module decides it: mainline's
	# smack_inode_get_acl asks read, which C lacks.
	echo "C A x" >/tmp/ctl-$mode/load2
	check_out "subject=$mode: A may read a/acl through its ACL: access(R_OK)" \
		OK smackrun -u $U A kact path-access /mnt/k/a/acl r
	for i in 1 2; do
		check_out "subject=$mode: C may not read a/acl's ACL ($i)" \
			EACCES smackrun -u $U C kact getxattr /mnt/k/a/acl system.posix_acl_access
	done
	check_out "subject=$mode: A reads a/acl's ACL" \
		OK smackrun -u $U A kact getxattr /mnt/k/a/acl system.posix_acl_access
	echo "C A -" >/tmp/ctl-$mode/load2
	# The daemon keeps the module's files open: the module cannot go
	# while the kernel holds what only the module makes safe.
	check_fails "subject=$mode: rmmod smackfuse is refused while mounted" \
		rmmod smackfuse
	check "subject=$mode: unmounts" umount /mnt/k
	[ $mode = uring ] && echo N >$UR
done
# A daemon that dies leaves its mount bound, with no verdict: what the
# kernel still holds of it (attributes kept for a second) is not
# answered from the mode bits, but sent on and refused by the dead
# connection.
smackfuse -f --rules /tmp/rules -o subject=kmod -o control=/tmp/ctl-dead \
	/tmp/src /mnt/k 2>/dev/null &
dpid=$!
i=0
while [ ! -e /tmp/ctl-dead/status ] && [ $i -lt 50 ]; do
	sleep 0.1; i=$((i + 1))
done
check_out "a daemon to kill: A stats a/f (its attributes are held)" \
	OK smackrun -u $U A kact path-stat /mnt/k/a/f 1
kill -9 $dpid
wait $dpid 2>/dev/null
check_out "the daemon killed: C's stat of a/f is refused by the dead connection" \
	ENOTCONN smackrun -u $U C kact path-stat /mnt/k/a/f 1
check_out "... and A's" \
	ENOTCONN smackrun -u $U A kact path-stat /mnt/k/a/f 1
# The module may not go while it alone keeps the dead mount's held
# attributes from being answered from the mode bits.  (The earlier
# daemons, which pin it too, exit first.)
i=0
while grep -qx smackfuse /proc/[0-9]*/comm 2>/dev/null && [ $i -lt 50 ]; do
	sleep 0.1; i=$((i + 1))
done
check_fails "the daemon killed, its mount still there: rmmod smackfuse is refused" \
	rmmod smackfuse
check_out "... and C's stat of a/f is still refused" \
	ENOTCONN smackrun -u $U C kact path-stat /mnt/k/a/f 1
check "the dead mount unmounts" umount /mnt/k
# Once the daemons have exited (a moment after the unmount), it can.
i=0
until rmmod smackfuse 2>/dev/null || [ $i -ge 50 ]; do
	sleep 0.1; i=$((i + 1))
done
check "smackfuse.ko unloads once the daemons are gone" \
	sh -c '! grep -q "^smackfuse " /proc/modules'
done_testing
