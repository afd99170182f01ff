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
# lives in a subdirectory labelled *.
mkdir -p /tmp/pfs
mount -t tmpfs -o mode=755 tmpfs /tmp/pfs
mkdir /tmp/pfs/root
fs-matrix run --smack /tmp/pfs/root /tmp/pfs/root >/tmp/pfs.out 2>/tmp/pfs.err
rc=$?
sed 's/^/# /' /tmp/pfs.err
cat /tmp/pfs.out
check "fs-matrix ran every case (rc=$rc)" test "$rc" = 0
done_testing
