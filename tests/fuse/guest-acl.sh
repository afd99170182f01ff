# guest-acl.sh - the core of acl.test's part 2 on the guest's kernel
# (sourced by guest-posix.sh, after acl_cases ran there): Smack on POSIX
# ACLs with FUSE_POSIX_ACL.  getxattr(2) of an ACL asks read, also right
# after another subject's read through a name the kernel keeps (the
# daemon keeps the kernel from caching the ACL); the kernel's own read of
# a directory's ACL while a walk searches it asks nothing of a subject
# with "x" only, whether the call is stat(2) or getxattr(2) (told apart
# by the kernel stack, whose frames differ from 6.1 to 7.x); setxattr(2)
# asks write; an ACL changed behind the mount decides at once.  Labels
# from a users map by name: sfa (uid 1001, ALICE) is A, sfb (1002, BOB)
# B, sfc (1003, CAROL) C.
acl_smack() {
	for u in a:1001 b:1002 c:1003; do
		grep -q "^sf${u%%:*}:" /etc/passwd ||
			echo "sf${u%%:*}:x:${u#*:}:${u#*:}::/:/bin/sh" >>/etc/passwd
	done
	printf 'sfa A\nsfb B\nsfc C\n' >/tmp/acl.users
	printf 'B A wx\nB _ wa\nC A r\n' >/tmp/acl.rules
	S=/tmp/acl.src M=/tmp/acl.mnt
	mkdir -p $S $M
	mount -t tmpfs -o mode=755 tmpfs $S
	as root mkfile $S/r 0640 1001 1001 >/dev/null
	as root setfacl $S/r access u::rw-,u:1002:rw-,u:1003:r--,g::r--,m::rw-,o::--- >/dev/null
	as root setxattr $S/r security.SMACK64 A >/dev/null
	as root mkfile $S/pub 0640 1001 1001 >/dev/null
	as root setfacl $S/pub access u::rw-,u:1002:rw-,g::r--,m::rw-,o::--- >/dev/null
	as root mkfile $S/own 0600 1002 1002 >/dev/null
	as root setxattr $S/own security.SMACK64 C >/dev/null
	mkdir $S/dx
	chown 1001:1001 $S/dx
	as root setfacl $S/dx access u::rwx,u:1002:--x,g::---,m::--x,o::--- >/dev/null
	as root setxattr $S/dx security.SMACK64 A >/dev/null
	as root mkfile $S/dx/f 0644 1001 1001 >/dev/null
	smackfuse -f --rules /tmp/acl.rules -o subject=users \
		-o users=/tmp/acl.users -o control=/tmp/acl.c $S $M \
		2>/tmp/acl.log &
	if ! wait_mounted $M || ! wait_mounted /tmp/acl.c; then
		not_ok "smackfuse mounts (ACLs, per-user labels)"
		while read -r l; do diag "$l"; done </tmp/acl.log
		return
	fi
	ok "smackfuse mounts (ACLs, per-user labels)"
	stat $M >/dev/null	# a request waits for INIT's answer
	check_out "FUSE_POSIX_ACL negotiated" kernel \
		sed -n 's/^posix acls evaluated by: //p' /tmp/acl.c/status
	b() { errno_of as 1002:1002 "$@"; }
	c() { errno_of as 1003:1003 "$@"; }
	check_out "getxattr of an ACL asks read" EACCES b getfacl $M/r access
	check_out "a subject with read has it" OK c getfacl $M/r access
	check_out "and reads the file" OK c read $M/r
	check_out "right after: not from the kernel's cache" EACCES \
		b getfacl $M/r access
	check_out "Smack denies what a named entry grants" EACCES b read $M/r
	check_out "a named entry that grants, Smack allowing" OK \
		b append $M/pub x
	as root setfacl $S/pub access u::rw-,u:1002:---,g::r--,m::r--,o::--- >/dev/null
	check_out "an ACL changed behind the mount decides at once" EACCES \
		b append $M/pub x
	check_out "search through a named entry and Smack x: stat" OK \
		b stat $M/dx/f
	check_out "and getxattr of an ACL below it (the kernel's own read)" \
		OK b getfacl $M/dx/f access
	check_out "but not the directory's own ACL" EACCES b getfacl $M/dx access
	check_out "setxattr of an ACL asks write (the owner, no w)" EACCES \
		b setfacl $M/own access u::rw-,g::r--,o::r--
	check "smackfuse unmounts (ACLs)" umount $M
	sleep 0.2
	umount $S
}
errno_of() { "$@" 2>/dev/null | head -n 1; }
acl_smack
