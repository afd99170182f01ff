# guest-mountopts.sh - mountopts.test's cases (mountopts-cases.sh) on the
# guest's kernel, each natively on a tmpfs and through smackfuse over a
# tmpfs, with the same outcome wanted:
#  - mtime and ctime after a write through a shared mapping, with
#    passthrough where the kernel has it (6.9+) and without;
#  - -o noatime, relatime, strictatime, nodiratime;
#  - "mount -o remount,ro" and "remount,rw" through util-linux mount(8)
#    and mount.fuse3 (the host's, with their libraries), as an
#    administrator runs them, and remount,strictatime.
# The caller ALICE is 1001:1001 ("alice" in /etc/passwd for the users map).
. /lib/sfq/tap.sh
. /data/mountopts-cases.sh
check "fuse.ko loads" load_fuse
ALICE=1001:1001 A=1001
echo 'alice:x:1001:1001::/tmp:/bin/sh' >>/etc/passwd
echo 'alice:x:1001:' >>/etc/group
N=/tmp/n S=/tmp/src M=/tmp/mnt
mkdir -p $N $S $M /tmp/c /tmp/rules /tmp/rules.own
: >/tmp/rules/empty
echo 'alice root rw' >/tmp/rules.own/rules
echo '* _' >/tmp/users.floor
echo '* %u' >/tmp/users.own
diag "kernel $(uname -r)"

# sf USERS PT [OPTION...]: smackfuse over $S at $M, in the background.
sf() {
	_u=$1 _p=$2
	shift 2
	_r=/tmp/rules
	[ "$_u" = own ] && _r=/tmp/rules.own
	control_gone
	smackfuse -f -o netlabel=off --rules $_r -o subject=users \
		-o users=/tmp/users.$_u -o passthrough=$_p -o control=/tmp/c \
		"$@" $S $M 2>/tmp/sf.log &
	# the control directory is served a moment after the mount
	if wait_mounted $M && wait_mounted /tmp/c; then
		return 0
	fi
	while read -r l; do diag "$l"; done </tmp/sf.log
	return 1
}
# The previous daemon's control directory goes when that daemon exits.
control_gone() {
	_i=0
	while grep -q " /tmp/c " /proc/mounts && [ $_i -lt 100 ]; do
		sleep 0.1; _i=$((_i + 1))
	done
}
unsf() {
	umount $M || return 1
	sleep 0.2
	umount $S
}
# same DESC WANT-FILE GOT-FILE: one point, the difference as diagnostics.
same() {
	if cmp -s "$2" "$3"; then
		ok "$1"
	else
		not_ok "$1"
		diff "$2" "$3" | while read -r l; do diag "$l"; done
	fi
}

# Mapped writes.  The native probe first: tmpfs moves the times at the
# first write and keeps the page writable (no page_mkwrite), so the
# second write moves nothing.
mount -t tmpfs -o mode=777 tmpfs $N
mmap_case $N >/tmp/mmap.native
check_out "native (tmpfs): a mapped write moves mtime and ctime" \
	"OK write: mtime moved ctime moved msync: mtime moved ctime moved second write, msync, munmap: mtime same ctime same" \
	head -n 1 /tmp/mmap.native
for m in floor:auto floor:off own:auto; do
	users=${m%:*} pt=${m#*:}
	mount -t tmpfs -o mode=755 tmpfs $S
	if ! sf "$users" "$pt"; then
		not_ok "smackfuse mounts ($m)"
		umount $S
		continue
	fi
	chmod 777 $M
	served=$(sed -n 's/^passthrough: //p' /tmp/c/status)
	mmap_case $M >/tmp/mmap.$users.$pt
	unsf
	# Without passthrough only the times after the first msync are
	# compared (KNOWN-GAPS 9).
	if [ "$served" = yes ]; then
		cp /tmp/mmap.native /tmp/want
	else
		# What the rest is (KNOWN-GAPS 9): the old times until
		# the data reaches the daemon, and a second write moves
		# them again at its msync (FUSE write-protects the page).
		check_out "tmpfs $users.$pt: without passthrough, new times from the first msync on (KNOWN-GAPS 9)" \
			"OK write: mtime same ctime same msync: mtime moved ctime moved second write, msync, munmap: mtime moved ctime moved" \
			sort -u /tmp/mmap.$users.$pt
		mmap_after_msync </tmp/mmap.native >/tmp/want
		mmap_after_msync </tmp/mmap.$users.$pt >/tmp/got
		cp /tmp/got /tmp/mmap.$users.$pt
	fi
	same "tmpfs $users.$pt (passthrough served: $served): times after a mapped write as native" \
		/tmp/want /tmp/mmap.$users.$pt
done
umount $N

# atime: natively on a tmpfs mounted with the option; through smackfuse
# mounted with it over a tmpfs mounted with the default (relatime), with
# passthrough where the kernel has it and without (reads through the
# daemon, or from the kernel's page cache).
for opt in noatime relatime strictatime nodiratime strictatime,nodiratime; do
	mount -t tmpfs -o "mode=777,$opt" tmpfs $N
	atime_case $N >/tmp/want
	reread_case $N >/tmp/reread.native
	umount $N
	for pt in auto off; do
		mount -t tmpfs -o mode=777 tmpfs $S
		if ! sf floor $pt -o "$opt"; then
			not_ok "smackfuse mounts (-o $opt, passthrough=$pt)"
			umount $S
			continue
		fi
		served=$(sed -n 's/^passthrough: //p' /tmp/c/status)
		atime_case $M >/tmp/got
		reread_case $M >/tmp/reread.got
		unsf
		same "-o $opt, passthrough=$pt (served: $served): atime as native ($(cat /tmp/want))" \
			/tmp/want /tmp/got
		# Read again through the same open: as native with
		# passthrough; without, from the page cache (KNOWN-GAPS 12).
		if [ "$served" = yes ]; then
			cp /tmp/reread.native /tmp/reread.want
			d="as native"
		else
			reread_from_cache </tmp/reread.native >/tmp/reread.want
			d="from the page cache (KNOWN-GAPS 12)"
			cmp -s /tmp/reread.native /tmp/reread.want &&
				d="as native, the second from the page cache"
		fi
		same "-o $opt, passthrough=$pt: read twice in one open: $d ($(cat /tmp/reread.want))" \
			/tmp/reread.want /tmp/reread.got
	done
done
check_out "native: strictatime,nodiratime: every read of a file, none of a directory" \
	"moved moved same same" cut -d' ' -f1-4 /tmp/want

# Remount.  The host's util-linux mount(8) and mount.fuse3 (as
# /sbin/mount.fuse, where libmount looks for a fuse.* type's helper),
# with their libraries; mount(8) runs the helper with PATH reset, which
# finds /bin/smackfuse.
MOUNT=/usr/bin/mount
if [ -x $MOUNT ] && [ -x /sbin/mount.fuse ] &&
	$MOUNT --version 2>&1 | grep -q util-linux; then
	diag "$($MOUNT --version)"
	how="mount(8)"
else
	skip "no util-linux mount(8) and mount.fuse3 in the guest (the host lacks util-linux or fuse3): remount through smackfuse's own remount (what mount.fuse3 runs)"
	MOUNT=
	how="smackfuse -o remount"
fi
native_remount() { ${MOUNT:-mount} -o "$1" $N; }
sf_remount() {
	if [ -n "$MOUNT" ]; then
		$MOUNT -o "$1" $M
	else
		smackfuse $S $M -o "$1"
	fi
}
setup_f() {
	chmod 777 "$1"
	as root mkfile "$1/f" 0666 0 0 >/dev/null
	as root append "$1/f" data >/dev/null
}
mount -t tmpfs -o mode=777,nosuid,nodev tmpfs $N
setup_f $N
remount_case $N native_remount >/tmp/rm.native
umount $N
mount -t tmpfs -o mode=755 tmpfs $S
if sf floor auto; then
	setup_f $M
	remount_case $M sf_remount >/tmp/rm.sf
	unsf
	i=0
	while read -r want <&4 && read -r got <&5; do
		i=$((i + 1))
		if [ "$want" = "$got" ]; then
			ok "$how: step $i: $want (as native)"
		else
			not_ok "$how: step $i: $got, native $want"
		fi
	done 4</tmp/rm.native 5</tmp/rm.sf
	check_out "$how: as many steps as native" "$(wc -l </tmp/rm.native)" \
		sh -c 'wc -l </tmp/rm.sf'
	check_out "$how: read-only keeps nosuid and nodev" \
		"options: ro,nosuid,nodev" sed -n 2p /tmp/rm.sf
else
	not_ok "smackfuse mounts (remount)"
	umount $S
fi

# remount,strictatime over a mount made with relatime: the backing tree
# follows (the daemon's private copy of the mounts).
mount -t tmpfs -o mode=777,relatime tmpfs $N
native_remount remount,strictatime
atime_case $N >/tmp/want
umount $N
mount -t tmpfs -o mode=777 tmpfs $S
if sf floor auto -o relatime; then
	check "$how: remount,strictatime" sf_remount remount,strictatime
	sleep 0.2
	atime_case $M >/tmp/got
	same "after remount,strictatime: atime as native ($(cat /tmp/want))" \
		/tmp/want /tmp/got
	# A mount that is not smackfuse's is left alone.
	mount -t tmpfs -o mode=777 tmpfs $N
	if [ -n "$MOUNT" ]; then
		/sbin/mount.fuse $S $N -t fuse.smackfuse -o remount,ro
	else
		smackfuse $S $N -o remount,ro
	fi 2>/dev/null
	check_out "a tmpfs given to smackfuse's remount is left alone" rw \
		sh -c "awk '\$2 == \"$N\" { print \$4 }' /proc/self/mounts | cut -d, -f1"
	umount $N
	unsf
else
	not_ok "smackfuse mounts (-o relatime)"
	umount $S
fi
done_testing
