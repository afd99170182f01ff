# guest-site.sh - on each kernel a host runs (Debian 12's 6.1, where
# fuse_getattr and vfs_getattr_nosec leave no frame and link_path_walk is a
# renamed clone; Debian 13's 6.12; the newest Debian kernel, 7.x), smackfuse
# tells stat(2), a walk's search and access(2) apart by the caller's system
# call and kernel stack, and never lets through what it cannot place
# (issue 21, issue 27).  Labels come from smackfuse.ko (smackrun, uid 1000
# everywhere, so DAC never decides) where the host loads it (sfsite=kmod on
# the kernel command line, the default); with sfsite=users, from a users
# map by uid (1001 E, 1002 B, 1003 W; every file 0666 or 0777), for the
# kernels the module does not serve.
. /lib/sfq/tap.sh
MODE=kmod
grep -qw sfsite=users /proc/cmdline && MODE=users
U=1000
errno_of() { "$@" 2>/dev/null | head -n 1; }
uid_of() { case $1 in E) echo 1001 ;; B) echo 1002 ;; W) echo 1003 ;; esac; }
# as_l LABEL OP ARGS...: one system call by a subject of LABEL.
as_l() {
	_l=$1
	shift
	if [ $MODE = kmod ]; then
		errno_of smackrun -u $U "$_l" as root "$@"
	else
		_u=$(uid_of "$_l")
		errno_of as "$_u:$_u" "$@"
	fi
}
# race LABEL ARGS...: access-race as a subject of LABEL.
race() {
	_l=$1
	shift
	if [ $MODE = kmod ]; then
		smackrun -u $U "$_l" access-race $U:$U "$@"
	else
		_u=$(uid_of "$_l")
		access-race "$_u:$_u" "$@"
	fi
}

check "fuse.ko loads" load_fuse
if [ $MODE = kmod ]; then
	check "smackfuse.ko loads" insmod /lib/modules/smackfuse.ko
	SUBJ="-o subject=kmod"
else
	for u in e:1001 b:1002 w:1003; do
		echo "sf${u%%:*}:x:${u#*:}:${u#*:}::/:/bin/sh" >>/etc/passwd
		echo "sf${u%%:*}:x:${u#*:}:" >>/etc/group
	done
	printf 'sfe E\nsfb B\nsfw W\n' >/tmp/users
	check "the users map names the subjects (no smackfuse.ko here)" \
		grep -q '^sfw:x:1003:' /etc/passwd
	SUBJ="-o subject=users -o users=/tmp/users"
fi
S=/tmp/src M=/mnt/s
mkdir -p $S/d $S/rx $M /tmp/c
echo data >$S/d/f
echo data >$S/rx/f
echo data >$S/secret
chmod 0777 $S $S/d $S/rx
chmod 0666 $S/d/f $S/rx/f $S/secret
for p in d rx; do as root setxattr $S/$p security.SMACK64 D >/dev/null; done
as root setxattr $S/secret security.SMACK64 A >/dev/null
printf 'E D x\nB D r\nW D rx\nB A rx\nW A wx\n' >/tmp/rules
# shellcheck disable=SC2086
smackfuse -f --rules /tmp/rules $SUBJ -o control=/tmp/c $S $M \
	2>/tmp/sf.log &
wait_mounted /tmp/c
if ! grep -q " $M " /proc/mounts; then
	not_ok "smackfuse mounts"
	while read -r l; do diag "$l"; done </tmp/sf.log
	done_testing
fi
ok "smackfuse mounts"
check_out "the daemon reads kernel stacks here" yes \
	sh -c "grep '^kernel stacks:' /tmp/c/status | cut -d' ' -f3"
check_out "x on a directory: stat of it is denied (read)" EACCES \
	as_l E stat $M/d
check_out "x on a directory: stat of a file in it passes (search)" OK \
	as_l E stat $M/d/f
check_out "x on a directory: chdir passes" OK as_l E chdir $M/d
check_out "r on a directory: stat of it passes" OK as_l B stat $M/d
check_out "r on a directory: chdir is denied (search)" EACCES \
	as_l B chdir $M/d
check_out "r on a directory: a file in it is not found (search)" EACCES \
	as_l B stat $M/d/f
check_out "r on a directory: access(X_OK) is denied" EACCES \
	as_l B access $M/d x
check_out "r on a directory: access(R_OK) passes" OK as_l B access $M/d r
check_out "rx on a file: access(W_OK) is denied" EACCES \
	as_l B access $M/secret w
check_out "wx on a file: access(R_OK) is denied" EACCES \
	as_l W access $M/secret r
check_out "wx on a file: access(W_OK) passes" OK as_l W access $M/secret w
check_out "wx on a file: stat is denied (read)" EACCES \
	as_l W stat $M/secret
check_out "wx on a file: open for writing is denied (smack_file_open reads)" \
	EACCES as_l W open $M/secret O_WRONLY
# chown(2): the kernel reads security.capability for itself (killpriv)
# and refreshes the attributes from fuse_setattr; mainline asks only w.
check_out "wx on a file: chown(-1, -1) passes (smack_inode_setattr asks w)" OK \
	as_l W chown $M/secret -1 -1
check_out "rx on a file: chown(-1, -1) is denied (w)" EACCES \
	as_l B chown $M/secret -1 -1
check_out "wx on a file: getxattr(2) of security.capability is denied (read)" \
	EACCES as_l W getxattr $M/secret security.capability
# Under load: two CPU hogs, four callers each, on both vCPUs.
(while :; do :; done) & H1=$!
(while :; do :; done) & H2=$!
check_out "under load: 4 x 600 access(W_OK) without w: none granted" \
	"granted 0 denied 2400 other 0" \
	race B $M/secret w 4 600
check_out "under load: 4 x 600 access(R_OK) without r: none granted" \
	"granted 0 denied 2400 other 0" \
	race W $M/secret r 4 600
check_out "under load: 4 x 600 stat of a directory without r: none granted" \
	"granted 0 denied 2400 other 0" \
	race E $M/d stat 4 600
kill $H1 $H2
while read -r l; do diag "$l"; done </tmp/c/status
check_out "nothing was denied for want of a site" 0 \
	sh -c "grep '^getattr sites unknown, denied:' /tmp/c/status | cut -d' ' -f5"
check "unmounts" umount $M
# What cannot be placed is refused (fail closed): without the kernel
# stack (-o kstack=off) a search of d by E (x on d, no r) cannot be told
# from a stat of d, and must pass both.
# shellcheck disable=SC2086
smackfuse -f --rules /tmp/rules $SUBJ -o kstack=off -o control=/tmp/c2 \
	$S $M 2>/tmp/sf2.log &
wait_mounted /tmp/c2
if [ $MODE = kmod ]; then
	# With smackfuse.ko's verdicts the module makes the search of d
	# itself (E's verdict on d allows x): the daemon is not asked, and
	# the walk passes, as in mainline.  A check the verdict refuses
	# (stat of d: r) still comes as a GETATTR that cannot be placed.
	check_out "kstack=off, verdicts: E's stat of d/f passes (the module searches d)" \
		OK as_l E stat $M/d/f
	check_out "kstack=off, verdicts: E's stat of d is refused (no r)" \
		EACCES as_l E stat $M/d
else
	check_out "kstack=off: E's stat of d/f (search of d, or a stat?) is refused" \
		EACCES as_l E stat $M/d/f
fi
check_out "... counted as a GETATTR not placed, and denied" yes \
	sh -c "grep -q '^getattr sites unknown, denied: [1-9]' /tmp/c2/status && echo yes"
check "unmounts (kstack=off)" umount $M
done_testing
