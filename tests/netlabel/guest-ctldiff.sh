# guest-ctldiff.sh - one sequence of NetLabel control writes, for
# ctldiff.test: on the Smack reference kernel to /sys/fs/smackfs, on
# Debian's kernel to a smackfuse mount's control files (-o netlabel=on).
# After every step, "@S<n> <what> <value>" lines: the write's result, the
# files read back, and the kernel's NetLabel as netlabelctl lists it.
# The host compares the two kernels' lines (ctldiff-known.txt lists the
# documented differences).
. /lib/sfq/tap.sh
ip link set lo up
N=netlabelctl
if grep -qw smack /sys/kernel/security/lsm; then
	T=/sys/fs/smackfs
	mkdir -p $T
	check "smackfs mounts" mount -t smackfs smackfs $T
else
	T=/run/smackfuse/mnt-d
	check "fuse.ko loads" load_fuse
	mkdir -p /tmp/src /mnt/d
	smackfuse -f -o netlabel=on /tmp/src /mnt/d 2>/tmp/d.log &
	for i in $(seq 100); do [ -e $T/load2 ] && break; sleep 0.1; done
	check "smackfuse mounts with its control directory" test -e $T/load2
fi

one() { tr '\n\000' '| ' | sed 's/[| ]*$//'; }
# netlabelctl's terse listings, IPv6 mappings too (both kernels have IPv6)
map() { $N map list; }
n=0
bad=0	# listings that could not be read
# step FILE TEXT: write TEXT to FILE in one write, then report everything
step() {
	n=$((n + 1))
	# one write(2) (dd, as the shell's printf hides the errno); the
	# result is 0, or the errno's text at the end of dd's message
	_m=$(printf '%s' "$2" |
		dd of="$T/$1" bs=4096 conv=notrunc 2>&1 >/dev/null)
	_rc=$?
	_m=$(echo "$_m" | grep 'error writing')
	[ $_rc = 0 ] && _m=0 || _m=${_m##*: }
	echo "@S$n write $1 \"$2\" $_m"
	report
}
report() {
	for f in doi ambient netlabel; do
		[ -r "$T/$f" ] || bad=$((bad + 1))
		echo "@S$n read-$f $(one <"$T/$f")"
	done
	map >/dev/null 2>&1 || bad=$((bad + 1))
	$N cipsov4 list >/dev/null 2>&1 || bad=$((bad + 1))
	echo "@S$n read-cipso2-Secret $(grep '^Secret ' "$T/cipso2" | one)"
	echo "@S$n map $(map | one)"
	echo "@S$n cipsov4 $($N cipsov4 list | one)"
	# netlabelctl prints a static label's text unterminated (what follows
	# it in memory comes too, different every run, a quote among it at
	# times): its text, to the end of the entry, is not compared, its
	# address is
	echo "@S$n unlbl $($N unlbl list | one | sed 's/label:"[^"]*"[^ ]*/label:?/g')"
}

echo "@S0 start"
report
step doi "5"
step ambient "Amb"
step cipso2 "Secret 3   2   5   7"
step cipso2 "Secret 3 2 5 7"
step cipso2 "Secret 3   9   5"
step ambient "_"
step netlabel "10.0.0.0/8 @"
step netlabel "192.0.2.20 -CIPSO"
step netlabel "10.1.2.3/16 Amb"
step netlabel "10.0.0.0/8 -FOO"
step doi "7"
step netlabel "300.1.1.1 X"
step netlabel "192.0.2.20 -DELETE"
check "the sequence ran ($n steps of 13, $bad listings unread)" \
	test "$n" = 13 -a "$bad" = 0
[ "$T" = /sys/fs/smackfs ] || umount /mnt/d
done_testing
