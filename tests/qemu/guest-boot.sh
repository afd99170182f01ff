# guest-boot.sh - guest half of boot.test: the environment every guest test
# relies on is there.
. /lib/sfq/tap.sh
check_out "the guest runs the kernel the host asked for" "$(cat /etc/sfq-want-k)" uname -r
check "/proc, /sys and devtmpfs are mounted" \
	test -r /proc/self/status -a -d /sys/kernel -a -c /dev/null
check "securityfs is mounted (lsm list readable)" grep -q . /sys/kernel/security/lsm
diag "lsm=$(cat /sys/kernel/security/lsm)"
check "/tmp is a writable tmpfs" sh -c 'echo x >/tmp/w && grep -q " /tmp tmpfs" /proc/mounts'
check "Debian's fuse.ko loads with insmod" load_fuse
check "/dev/fuse exists once fuse.ko is loaded" test -c /dev/fuse
check_out "a guest test can run a command as nobody" 65534 \
	su -s /bin/sh nobody -c 'id -u'
done_testing
