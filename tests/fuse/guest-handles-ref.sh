# guest-handles-ref.sh - handles.test's Smack cases in the Smack reference
# kernel: what mainline answers to open_by_handle_at(2), which
# handles.test expects of the mount.  The caller is root with
# CAP_DAC_READ_SEARCH alone (fhandle -u root-dac), under a label set
# through /proc/self/attr/current; the objects live on a tmpfs.
. /lib/sfq/tap.sh
grep -qw smack /sys/kernel/security/lsm || {
	echo "not ok 1 - Smack is the active LSM (lsm=$(cat /sys/kernel/security/lsm))"
	exit 1
}
[ -f /sys/fs/smackfs/load2 ] || mount -t smackfs smackfs /sys/fs/smackfs
for r in "B A rx" "B G r"; do
	echo "$r" >/sys/fs/smackfs/load2 || not_ok "load2 takes $r"
done
P=/tmp/p
mkdir -p $P && mount -t tmpfs -o mode=755 tmpfs $P
mkdir -p $P/d $P/e
chmod 777 $P/d $P/e
lab() { as root setxattr "$1" security.SMACK64 "$2" >/dev/null; }
lab $P/d A
lab $P/e E
for f in d/f:A:alpha d/s:S:secret pub:_:public e/g:G:gamma; do
	p=${f%%:*} r=${f#*:}
	echo "${r#*:}" >$P/$p
	chmod 666 $P/$p
	lab $P/$p "${r%%:*}"
done
fh() { fhandle encode "$1" | sed -n 2p; }
HF=$(fh $P/d/f) HS=$(fh $P/d/s) HP=$(fh $P/pub) HG=$(fh $P/e/g) HD=$(fh $P/d)
# is DESC WANT LABEL HANDLE HOW: open_by_handle_at under LABEL.
is() {
	check_out "$1" "$2" sh -c 'echo "$1" >/proc/self/attr/current &&
		shift && fhandle -u root-dac open "$@" | paste -sd" "' \
		- "$3" $P "$4" "$5"
}
cases() {
	is "$1: A reads A" "OK alpha" A "$HF" r
	is "$1: A writes A" OK A "$HF" w
	is "$1: A may not read S" EACCES A "$HS" r
	is "$1: B may not write A" EACCES B "$HF" w
	is "$1: B reads G below E that it may not search" "OK gamma" B "$HG" r
	is "$1: C may not read A" EACCES C "$HF" r
	is "$1: C may not open an A directory" EACCES C "$HD" dir
	is "$1: C reads _" "OK public" C "$HP" r
	is "$1: C's O_PATH" OK C "$HP" path
}
check_out "by path, B may not reach G below E" EACCES sh -c \
	'echo B >/proc/self/attr/current && as -c root read '$P'/e/g | head -n 1'
cases fresh
sync
echo 2 >/proc/sys/vm/drop_caches
cases "after drop_caches"
done_testing
