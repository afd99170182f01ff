# guest-smackq.sh - guest half of smack-diff.test: run smackq over the
# policies and queries the host put in /data (see smackq.c).
grep -qw smack /sys/kernel/security/lsm || {
	echo "not ok 1 - Smack is the active LSM (lsm=$(cat /sys/kernel/security/lsm))"
	exit 1
}
exec smackq /data
