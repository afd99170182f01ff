# guest-parity-ops.sh - parity-ops.test's cases in the Smack reference
# kernel: what mainline answers, which parity-ops.test expects of the
# mount (the two differences KNOWN-GAPS 6 and 7 name are marked).
. /lib/sfq/tap.sh
grep -qw smack /sys/kernel/security/lsm || {
	echo "not ok 1 - Smack is the active LSM (lsm=$(cat /sys/kernel/security/lsm))"
	exit 1
}
[ -f /sys/fs/smackfs/load2 ] || mount -t smackfs smackfs /sys/fs/smackfs
AS=/bin/as
for r in "A _ w" "^ X w" "C Q rx" "M Q rwx" "N Q r" "E Q rw" "E _ r"; do
	echo "$r" >/sys/fs/smackfs/load2 || not_ok "load2 takes $r"
done
mkdir -p /tmp/p && mount -t tmpfs -o mode=755 tmpfs /tmp/p
X=/tmp/p/x
mkdir -p $X/mm $X/nn $X/adir && chmod -R 777 $X
lab() { "$AS" root setxattr "$1" "security.${3:-SMACK64}" "$2" >/dev/null; }
lab $X _
for d in mm nn; do
	cp /bin/busybox $X/$d/true
	chmod 755 $X/$d/true
	lab $X/$d _
	lab $X/$d/true _
done
lab $X/mm/true M SMACK64MMAP
lab $X/nn/true N SMACK64MMAP
printf '#!/bin/sh\nexit 3\n' >$X/script
chmod 755 $X/script
lab $X/script _
lab $X/script M SMACK64MMAP
for f in hat:X other:Y floorf:_ b:B q:Q; do
	echo x >$X/${f%%:*}
	chmod 666 $X/${f%%:*}
	lab $X/${f%%:*} ${f#*:}
done
echo target >$X/adir/t
chmod 666 $X/adir/t
lab $X/adir A
lab $X/adir/t A
ln -s adir/t $X/lnk
lab $X/lnk B
ln -s adir $X/dlnk
lab $X/dlnk B
# is DESC WANT LABEL OP ARGS...: as uid 1001 under LABEL, the outcome
# (and its data) on one line.
is() {
	_d=$1 _w=$2 _l=$3
	shift 3
	check_out "$_d" "$_w" sh -c 'echo "$1" >/proc/self/attr/current &&
		shift && exec "$@"' - "$_l" "$AS" 1001:1001 "$@"
}
one() { tr '\n' ' ' | sed 's/ $//'; }
isl() {
	_d=$1 _w=$2 _l=$3
	shift 3
	_g=$(sh -c 'echo "$1" >/proc/self/attr/current && shift &&
		exec "$@"' - "$_l" "$AS" 1001:1001 "$@" 2>&1 | one)
	if [ "$_g" = "$_w" ]; then ok "$_d"
	else not_ok "$_d"; diag "want: $_w"; diag "got:  $_g"; fi
}
# 1. SMACK64MMAP at exec (smackfuse: EACCES where mainline kills, KNOWN-GAPS 7)
isl "A runs mm: killed at the mapping" "OK signal SIGSEGV" A run $X/mm/true
isl "D (no rules) runs mm" "OK exit 0" D run $X/mm/true
isl "C (C Q rx within M Q rwx) runs mm" "OK exit 0" C run $X/mm/true
isl "C runs nn (N Q r): killed" "OK signal SIGSEGV" C run $X/nn/true
isl "E runs mm (M has no rule for _): killed" "OK signal SIGSEGV" E run $X/mm/true
isl "A runs a script carrying SMACK64MMAP M" "OK exit 3" A run $X/script
# 2. opening for writing
is "the hat with ^ X w opens O_WRONLY" OK '^' open $X/hat O_WRONLY
is "the hat opens O_WRONLY|O_TRUNC" OK '^' open $X/hat O_WRONLY,O_TRUNC
is "the hat cannot open O_RDWR" EACCES '^' open $X/hat O_RDWR
is "the hat cannot open O_RDONLY|O_TRUNC" EACCES '^' open $X/hat O_RDONLY,O_TRUNC
is "the hat cannot open Y's file O_WRONLY" EACCES '^' open $X/other O_WRONLY
is "A with A _ w opens a floor file O_WRONLY" OK A open $X/floorf O_WRONLY
is "A opens it O_WRONLY|O_TRUNC" OK A open $X/floorf O_WRONLY,O_TRUNC
is "A cannot open it O_WRONLY|O_APPEND" EACCES A open $X/floorf O_WRONLY,O_APPEND
is "D cannot open it O_WRONLY" EACCES D open $X/floorf O_WRONLY
# 3. readlink, listxattr, following links
isl "A reads the B link" "OK adir/t" A readlink $X/lnk
isl "A reads through the B link" "OK target" A read $X/lnk
isl "A lists a B directory's entries through a B link" "OK t" A readdir $X/dlnk
is "D cannot read through it" EACCES D read $X/lnk
isl "A lists a B file's attributes" "OK security.SMACK64" A listxattr $X/b
# 4. setattr of another's file (smackfuse: EPERM without w, KNOWN-GAPS 6)
is "A chmod of root's Y file without w" EACCES A chmod $X/other 0600
is "A utimens of root's Y file without w" EACCES A utimens $X/other 5 5
is "A chown of root's Y file to itself without r or w" EACCES A chown $X/other 1001 1001
is "C chown of root's Q file to itself with r, without w" EACCES C chown $X/q 1001 1001
is "the hat chmod of root's X file with w" EPERM '^' chmod $X/hat 0600
done_testing
