# guest-mmap.sh - the SMACK64MMAP rule at exec through a smackfuse mount
# whose caller labels come from smackfuse.ko (-o subject=kmod): the
# program is mapped under the label the exec gives the task (its
# SMACK64EXEC, if any), so that label's rules are compared with the
# SMACK64MMAP label's, as mainline's smack_mmap_file does after
# smack_bprm_creds_for_exec.  Then the module's own check of mmap(2)
# (security_mmap_file) on a tmpfs and through a smackfuse mount, with the
# rules loaded into the module.
. /lib/sfq/tap.sh
U=1000

check "fuse.ko loads" load_fuse
check "smackfuse.ko loads" insmod /lib/modules/smackfuse.ko
# prog DIR MMAP [EXEC]: busybox as DIR/true, carrying the labels.
prog() {
	mkdir -p /tmp/src/$1
	cp /bin/busybox /tmp/src/$1/true
	chmod 755 /tmp/src/$1/true
	kact setxattr /tmp/src/$1/true security.SMACK64MMAP $2 >/dev/null
	[ -z "$3" ] || kact setxattr /tmp/src/$1/true security.SMACK64EXEC $3 \
		>/dev/null
}
prog plain M
prog toE M E
prog toF M F
# E and C read Q; M has no rule for Q; F has no rules.
printf 'E Q r\nC Q r\n' >/tmp/rules
mkdir -p /mnt/k
if smackfuse --rules /tmp/rules -o subject=kmod /tmp/src /mnt/k; then
	ok "smackfuse mounts (subject=kmod)"
	check "A (no rules) runs a program carrying SMACK64MMAP M" \
		smackrun -u $U A /mnt/k/plain/true
	check_fails "C (C Q r, M has none) may not run it" \
		smackrun -u $U C /mnt/k/plain/true
	check_fails "A may not run it when its SMACK64EXEC E has E Q r" \
		smackrun -u $U A /mnt/k/toE/true
	check "C runs it when its SMACK64EXEC F has no rules" \
		smackrun -u $U C /mnt/k/toF/true
	check "unmounts" umount /mnt/k
else
	not_ok "smackfuse mounts (subject=kmod)"
fi

# ---- smackfuse.ko's smack_mmap_file: mmap(2) of a file carrying
# SMACK64MMAP, PROT_READ|PROT_EXEC and MAP_PRIVATE unless said (as mmap).
# M is the mmap label: it covers S's rule (S O r) and, write implying
# lock, L's (L O l); not T's T P r.  N is a label no rule names; "*" is
# ignored.  The files are floor "_", which every label may read.
SF=/sys/kernel/security/smackfuse
printf 'S O r\nL O l\nT O r\nT P r\nM O rw\nM Q r\nU M rwx\nR Sec w\n' >/tmp/mrules
check "the rules load into the module" sh -c "cat /tmp/mrules >$SF/load2"
mkdir -p /tmp/m
for f in lib star none unknown; do echo data >/tmp/m/$f; done
kact setxattr /tmp/m/lib security.SMACK64MMAP M >/dev/null
kact setxattr /tmp/m/star security.SMACK64MMAP '*' >/dev/null
kact setxattr /tmp/m/unknown security.SMACK64MMAP N >/dev/null
echo data >/tmp/m/secret
chmod 666 /tmp/m/secret
kact setxattr /tmp/m/secret security.SMACK64 Sec >/dev/null
kact setxattr /tmp/m/secret security.SMACK64MMAP M >/dev/null
# mapping DIR WHERE: the points, on the files in DIR.
mapping() {
	check_out "$2: S maps a file with SMACK64MMAP M (M O rw covers S O r)" \
		OK smackrun S as $U:$U mmap $1/lib
	check_out "$2: U maps it (its only rule is to M itself)" \
		OK smackrun U as $U:$U mmap $1/lib
	check_out "$2: L maps it (M's w implies l)" \
		OK smackrun L as $U:$U mmap $1/lib
	check_out "$2: T may read the file" \
		"$(printf 'OK\ndata')" smackrun T as $U:$U read $1/lib
	check_out "$2: T may not map it (T P r, M has no rule for P)" \
		EACCES smackrun T as $U:$U mmap $1/lib
	check_out "$2: ... nor map it PROT_READ alone" \
		EACCES smackrun T as $U:$U mmap $1/lib r
	check_out "$2: A (no rules) maps it" \
		OK smackrun A as $U:$U mmap $1/lib
	check_out "$2: T maps a file with SMACK64MMAP \"*\" (ignored)" \
		OK smackrun T as $U:$U mmap $1/star
	check_out "$2: T maps a file without SMACK64MMAP" \
		OK smackrun T as $U:$U mmap $1/none
	check_out "$2: S may not map a file whose SMACK64MMAP N has no rules" \
		EACCES smackrun S as $U:$U mmap $1/unknown
	check_out "$2: A (no rules) maps that one" \
		OK smackrun A as $U:$U mmap $1/unknown
}
mapping /tmp/m tmpfs
check_out "tmpfs: privilege does not override it (root as T)" \
	EACCES smackrun T as root mmap /tmp/m/lib
check "tmpfs: the denial is audited (fn=smack_mmap_file)" sh -c \
	"dmesg | grep -q 'fn=smack_mmap_file action=denied subject=\"T\" object=\"M\"'"
# At exec the program is mapped under its SMACK64EXEC label, if any.
mkdir -p /tmp/m/x /tmp/m/xF
cp /bin/busybox /tmp/m/x/true
cp /bin/busybox /tmp/m/xF/true
chmod 755 /tmp/m/x/true /tmp/m/xF/true
kact setxattr /tmp/m/x/true security.SMACK64MMAP M >/dev/null
kact setxattr /tmp/m/xF/true security.SMACK64MMAP M >/dev/null
kact setxattr /tmp/m/xF/true security.SMACK64EXEC F >/dev/null
check "tmpfs: S runs a program carrying SMACK64MMAP M" \
	smackrun -u $U S /tmp/m/x/true
check_fails "tmpfs: T may not run it (the ELF mapping is refused)" \
	smackrun -u $U T /tmp/m/x/true
check "tmpfs: T runs it when its SMACK64EXEC F has no rules" \
	smackrun -u $U T /tmp/m/xF/true
mkdir -p /mnt/m
if smackfuse --rules /tmp/mrules -o subject=kmod /tmp/m /mnt/m; then
	ok "smackfuse mounts the tmpfs directory (subject=kmod)"
	mapping /mnt/m smackfuse
	# The module's read of SMACK64MMAP is the kernel's: mainline checks
	# no read at the mapping, so a descriptor opened with privilege maps
	# for a subject that may not read the file.
	check_out "smackfuse: S may not read a file labelled Sec" \
		EACCES smackrun S as $U:$U read /mnt/m/secret
	check_out "smackfuse: S maps it from a descriptor root opened (M covers S)" \
		OK smackrun S sh -c "exec as $U:$U mmap fd:3 3</mnt/m/secret"
	check_out "smackfuse: T may not map it from such a descriptor" \
		EACCES smackrun T sh -c "exec as $U:$U mmap fd:3 3</mnt/m/secret"
	# Receiving an open file: the module reads the file's SMACK64
	# through the daemon, which is the kernel's read (mainline needs
	# no read for it), so w alone receives a write-only descriptor.
	check_out "smackfuse: R (R Sec w, no r) receives a write-only fd of the Sec file" \
		OK kact fd-pass R Sec $U /mnt/m/secret w
	check_out "smackfuse: ... and not a read-only one (r)" \
		EACCES kact fd-pass R Sec $U /mnt/m/secret r
	check "smackfuse: unmounts" umount /mnt/m
else
	not_ok "smackfuse mounts the tmpfs directory (subject=kmod)"
fi
# unload: the daemons that kept its files open exit after the unmounts.
unload() {
	_i=0
	until rmmod smackfuse 2>/dev/null; do
		[ $_i -lt 50 ] || return 1
		sleep 0.1; _i=$((_i + 1))
	done
}
check "smackfuse.ko unloads" unload
check_out "without the module the file maps" OK as $U:$U mmap /tmp/m/lib
done_testing
