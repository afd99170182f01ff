# fs-guest.sh - guest half of tests/parity/fs.test: the file-operation
# matrix in the Smack reference kernel.  /data holds the rules (rules) and
# the host's fs.protected_* sysctls (sysctl, "name value" lines), so both
# runs see the same kernel link/symlink/fifo policy.
. /lib/sfq/tap.sh
grep -qw smack /sys/kernel/security/lsm || {
	echo "not ok 1 - Smack is the active LSM (lsm=$(cat /sys/kernel/security/lsm))"
	exit 1
}
[ -f /sys/fs/smackfs/load2 ] || mount -t smackfs smackfs /sys/fs/smackfs
n=0
bad=0
while read -r s o a; do
	[ -n "$s" ] || continue
	n=$((n + 1))
	echo "$s $o $a" >/sys/fs/smackfs/load2 || bad=$((bad + 1))
done </data/rules
check "$n rules written to load2, none refused" test "$bad" = 0 -a "$n" -gt 0
while read -r name value; do
	echo "$value" >"/proc/sys/fs/$name"
done </data/sysctl
# A tmpfs of its own: the reference kernel's tmpfs keeps security.*
# xattrs (CONFIG_TMPFS_XATTR); its root takes our label, so the matrix
# lives in a subdirectory labelled *.  The user.* xattr cases run on
# ext2 (a loop device on a file in /tmp): tmpfs has no user.* xattrs
# before 6.6, and their answers are compared exactly.
mkdir -p /tmp/pfs /tmp/pfx
mount -t tmpfs -o mode=755 tmpfs /tmp/pfs
mkdir /tmp/pfs/root
check "an ext2 file system with user.* xattrs for the user.* cases" \
	sh -c "dd if=/dev/zero of=/tmp/pfx.img bs=1M count=24 2>/dev/null &&
	       mke2fs -F -b 1024 -i 4096 /tmp/pfx.img >/dev/null &&
	       mount -t ext2 -o loop,user_xattr /tmp/pfx.img /tmp/pfx &&
	       mkdir /tmp/pfx/root"
fs-matrix run --smack --user-xattrs /tmp/pfx/root /tmp/pfx/root \
	/tmp/pfs/root /tmp/pfs/root >/tmp/pfs.out 2>/tmp/pfs.err
rc=$?
sed 's/^/# /' /tmp/pfs.err
cat /tmp/pfs.out
check "fs-matrix ran every case (rc=$rc)" test "$rc" = 0
done_testing
