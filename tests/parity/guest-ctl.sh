# guest-ctl.sh - guest half of ctl-parity.test: run the control-file steps
# against the Smack reference kernel's smackfs (see ctl-run.c).
. /lib/sfq/tap.sh
grep -qw smack /sys/kernel/security/lsm || {
	not_ok "Smack is the active LSM"
	done_testing
}
[ -e /sys/fs/smackfs/load2 ] || mount -t smackfs smackfs /sys/fs/smackfs
check "smackfs is mounted" test -e /sys/fs/smackfs/load2
check "ctl-run ran every step" ctl-run -s -u 4242 /sys/fs/smackfs /data/ctl-steps.txt
done_testing
