# fs-guest-debian.sh - the module lane of tests/parity/fs.test: the
# file-operation matrix through a smackfuse mount on a Debian kernel
# (Debian 12's 6.1: no FUSE passthrough; Debian 13's 6.12 and the newest,
# 7.3: fuse built in; each with its own stack frames for getattr.c), with
# the subjects' labels taken through smackfuse.ko (issue 21).  /data holds
# the rules and the host's fs.protected_* sysctls.
. /lib/sfq/tap.sh
check "fuse.ko loads" load_fuse
check "smackfuse.ko loads" insmod /lib/modules/smackfuse.ko
while read -r name value; do
	echo "$value" >"/proc/sys/fs/$name"
done </data/sysctl
# The module checks what the daemon never sees (mmap(2) of a file
# carrying SMACK64MMAP): it gets the same rules.
check "the rules load into smackfuse.ko" \
	sh -c "cat /data/rules >/sys/kernel/security/smackfuse/load2"
S=/tmp/src M=/tmp/mnt XS=/tmp/xsrc XM=/tmp/xmnt
mkdir -p $S $M $XS $XM
mount -t tmpfs -o mode=755 tmpfs $S
smackfuse -f --rules /data/rules -o subject=kmod $S $M 2>/tmp/sf.log &
if ! wait_mounted $M; then
	not_ok "smackfuse mounts"
	while read -r l; do diag "$l"; done </tmp/sf.log
	done_testing
fi
ok "smackfuse mounts"
# 6.1's tmpfs has no user.* xattrs: when the host gave us Debian's ext4
# and loop (mkinitramfs -K), the user.* cases go through a second mount
# over ext2, as in the reference kernel's run.  A kernel whose tmpfs has
# them (6.6 on) needs none: fs-matrix refuses a tree without them.
if [ -f /lib/modules/deb/order ]; then
	check "crc32c, ext4 and loop load" load_kmods
	check "an ext2 file system with user.* xattrs for the user.* cases" \
		sh -c "dd if=/dev/zero of=/tmp/x.img bs=1M count=24 2>/dev/null &&
		       mke2fs -F -b 1024 -i 4096 /tmp/x.img >/dev/null &&
		       mount -t ext2 -o loop,user_xattr /tmp/x.img $XS"
	smackfuse -f --rules /data/rules -o subject=kmod $XS $XM 2>/tmp/sfx.log &
	if ! wait_mounted $XM; then
		not_ok "smackfuse mounts the ext2 tree"
		while read -r l; do diag "$l"; done </tmp/sfx.log
		done_testing
	fi
	ok "smackfuse mounts the ext2 tree"
	mkdir $XS/root
	set -- --user-xattrs $XS/root $XM/root
fi
fs-matrix run --kmod "$@" $S $M >/tmp/pfs.out 2>/tmp/pfs.err
rc=$?
sed 's/^/# /' /tmp/pfs.err
cat /tmp/pfs.out
check "fs-matrix ran every case through smackfuse (rc=$rc)" test "$rc" = 0
check "smackfuse unmounts" umount $M
[ ! -f /lib/modules/deb/order ] || check "smackfuse unmounts the ext2 tree" umount $XM
done_testing
