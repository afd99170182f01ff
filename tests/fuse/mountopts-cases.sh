# mountopts-cases.sh - the cases of mountopts.test, each printing what it
# saw as one line, to be run natively and through smackfuse and compared
# (sourced; POSIX sh, so that guest-mountopts.sh runs the same cases on
# other kernels).
#
# The callers are tests/fuse/as users: $ALICE (a user name, or UID:GID in
# a guest) with the uid $A, and root.

# mmap_case DIR: a file of ALICE's written through a shared mapping by
# her and by root; whether the times moved, as each saw them: after the
# write, after msync, and after a second write, msync and munmap.
mmap_case() {
	for _who in "$ALICE" root; do
		_f=$1/m.${_who%%:*}
		as root mkfile "$_f" 0666 "$A" 0 >/dev/null
		sleep 0.01
		as "$_who" mmaptimes "$_f" | paste -sd' ' -
	done
}

# mmap_after_msync: mmap_case's lines cut to the times after the first
# msync.  Without passthrough the data, and the backing file's new times,
# reach the daemon at writeback (KNOWN-GAPS 9): only those are compared.
mmap_after_msync() {
	sed 's/.*\(msync: [^s]*\) second.*/\1/'
}

# atime_case DIR: a file and a directory read twice by ALICE, the first
# time with atime before mtime, the second after the first read: did
# atime move each time?  Four words: file, file again, dir, dir again.
atime_case() {
	_n=$((${_n:-0} + 1))
	_f=$1/a.$_n
	mkdir -p "$_f.d"
	as root mkfile "$_f" 0644 0 0 >/dev/null
	as root utimens "$_f" 1000 2000 >/dev/null
	as root utimens "$_f.d" 1000 2000 >/dev/null
	for _what in "$_f read" "$_f.d readdir"; do
		set -- $_what
		_a=$(as root atime "$1" | tail -n 1)
		as "$ALICE" "$2" "$1" >/dev/null
		_b=$(as root atime "$1" | tail -n 1)
		[ "$_a" = "$_b" ] && printf 'same ' || printf 'moved '
		sleep 0.05
		as "$ALICE" "$2" "$1" >/dev/null
		_a=$(as root atime "$1" | tail -n 1)
		[ "$_a" = "$_b" ] && printf 'same ' || printf 'moved '
	done
	echo
}

# reread_case DIR: a file read by ALICE, with atime before mtime, then
# read again through the same open file: did atime move each time?
reread_case() {
	_n=$((${_n:-0} + 1))
	as root mkfile "$1/r.$_n" 0644 0 0 >/dev/null
	as root utimens "$1/r.$_n" 1000 2000 >/dev/null
	as "$ALICE" rereadatime "$1/r.$_n" | paste -sd' ' -
}

# reread_from_cache: reread_case's line as it is without passthrough: the
# second read is served from the kernel's page cache and reaches neither
# the daemon nor the backing file (KNOWN-GAPS 12).
reread_from_cache() {
	sed 's/read again: atime moved/read again: atime same/'
}

# mount_opts DIR: the mount's options as /proc/self/mounts shows them.
mount_opts() { awk -v m="$1" '$2 == m { print $4 }' /proc/self/mounts; }

# remount_case DIR REMOUNT...: the mount at DIR (mounted rw, nosuid,
# nodev, holding a file f of mode 0666) remounted read-only and back by
# "REMOUNT... OPTIONS" (a function running mount -o OPTIONS DIR, or the
# mount helper), one line a step: the remount's outcome, the mount's
# first three options, what a write, a create and a read by ALICE or
# root get; then a remount,ro while a file is open for writing, and one
# with an option the filesystem does not know.
remount_case() {
	_rd=$1
	shift
	for _step in ro:x rw:y ro-busy:z ro,foo:w; do
		_o=${_step%:*}
		if [ "$_o" = ro-busy ]; then
			_o=ro
			exec 3>>"$_rd/f"
		fi
		"$@" "remount,$_o" >/dev/null 2>&1 && _r=0 || _r=failed
		exec 3>&-
		echo "remount,${_step%:*}: $_r"
		echo "options: $(mount_opts "$_rd" | cut -d, -f1-3)"
		echo "write: $(as "$ALICE" append "$_rd/f" "${_step#*:}")"
		echo "create: $(as root create "$_rd/g.${_step#*:}" 0644)"
		echo "read: $(as "$ALICE" read "$_rd/f" | head -n 1)"
	done
}
