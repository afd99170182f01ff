# guest-daemon.sh - smackfuse takes caller labels from smackfuse.ko: two
# tasks of the same uid with different module labels get different
# answers from one mount (-o subject=kmod, and subject=auto, which picks
# the module when it is loaded on a kernel without Smack).
. /lib/sfq/tap.sh
SF=/sys/kernel/security/smackfuse
U=1000

check "fuse.ko loads" insmod /lib/modules/fuse.ko
check "smackfuse.ko loads" insmod /lib/modules/smackfuse.ko
mkdir -p /tmp/src /mnt/k
echo secret >/tmp/src/secret
chmod 644 /tmp/src/secret
check_out "backing file labelled B" OK \
	kact setxattr /tmp/src/secret security.SMACK64 B
printf 'A B r\n' >/tmp/rules
for mode in kmod auto; do
	if ! smackfuse --rules /tmp/rules -o subject=$mode /tmp/src /mnt/k; then
		not_ok "subject=$mode: smackfuse mounts"
		continue
	fi
	ok "subject=$mode: smackfuse mounts"
	check_out "subject=$mode: uid $U labelled A reads the B file (rule A B r)" \
		secret smackrun -u $U A cat /mnt/k/secret
	check_fails "subject=$mode: uid $U labelled C may not read it (no rule)" \
		smackrun -u $U C cat /mnt/k/secret
	check_fails "subject=$mode: uid $U labelled A may not write it (r only)" \
		smackrun -u $U A sh -c "echo x >>/mnt/k/secret"
	check "subject=$mode: unmounts" umount /mnt/k
done
done_testing
