# posix-cases.sh - the case lists of setid.test and umask.test, printed one
# case a line, and their runner (sourced; POSIX sh, so that the guests of
# guest-posix.sh run the same lists on other kernels).
#
# A case is one call of tests/fuse/as: "[-u UMASK] USER OP ARGS...", no
# argument with a space.  The lists name the directory $D, the callers
# $ALICE (owns the files), $BOB and $CAROL (user names, or UID:GID in a
# guest), the uids $A and $B of the first two, and the groups $STAFF
# (ALICE and BOB are in it) and $OPS (CAROL is; ALICE and BOB are not).
# $CASES_SMALL=1 gives the shorter lists the guests run.

# setid_one MODE GROUP CALLER OP [ARGS]: a fresh file owned by ALICE,
# one call, its mode.  The file is named after the case:
# f.MODE.GROUP.CALLER.OP[.ARGS].
setid_one() {
	_m=$1 _g=$2 _w=$3 _op=$4
	shift 4
	_f=$D/f.$_m.$_g.$_w.$_op
	for _a in "$@"; do _f=$_f.$_a; done
	echo "root mkfile $_f $_m $A $_g"
	if [ "$_op" = copyinto ]; then
		echo "$_w copyinto $D/src $_f"
	else
		echo "$_w $_op $_f $*"
	fi
	echo "root stat $_f"
}

# Set-user-ID and set-group-ID after a write, truncate, fallocate,
# copy_file_range or chown by the owner, another user and root; file
# capabilities after a write, truncate, fallocate and chown.
setid_cases() {
	_modes="06777 06666 02676"
	[ "${CASES_SMALL:-}" = 1 ] && _modes="06777 06666"
	echo "root mkfile $D/src 0644 0 0"
	for mode in $_modes; do
		for group in $STAFF $OPS; do
			for who in $ALICE $BOB root; do
				setid_one $mode $group $who append x
				setid_one $mode $group $who pwrite y 100
				setid_one $mode $group $who write z
				setid_one $mode $group $who truncate 10
				setid_one $mode $group $who ftruncate 20000
				setid_one $mode $group $who fallocate 0 16384
				setid_one $mode $group $who fallocate 0 16384 keep
				setid_one $mode $group $who fallocate 0 4096 punch
				setid_one $mode $group $who fallocate 0 4096 zero
				setid_one $mode $group $who copyinto
				setid_one $mode $group $who chown -1 -1
				setid_one $mode $group $who chown -1 $STAFF
			done
			setid_one $mode $group root chown $B -1
		done
	done
	for who in $ALICE $BOB root; do
		for op in "append x" "truncate 1" "fallocate 0 1 punch" \
			"chown -1 -1"; do
			_f=$D/cap.$who.${op%% *}
			echo "root mkfile $_f 0777 $A $STAFF"
			echo "root setcap $_f"
			echo "root getxattr $_f security.capability"
			echo "$who ${op%% *} $_f ${op#* }"
			echo "root getxattr $_f security.capability"
		done
	done
}

# umask_dir NAME MODE GROUP [DEFAULT-ACL]
umask_dir() {
	echo "root mkdir $D/$1 0755"
	echo "root chown $D/$1 0 $3"
	echo "root chmod $D/$1 $2"
	[ -z "${4:-}" ] || echo "root setfacl $D/$1 default $4"
	echo "root stat $D/$1"
}

# The mode and ACLs of new files, set-ID files, directories and FIFOs
# made by ALICE and CAROL with several umasks in a plain directory, a
# set-group-ID one of group OPS, and (with $ACL=yes) directories with
# default ACLs.
umask_cases() {
	_dirs="p sgp"
	_masks="022 0722 077 0"
	[ "${CASES_SMALL:-}" = 1 ] && _masks="022 0722"
	umask_dir p 0777 0
	umask_dir sgp 02777 $OPS
	if [ "${ACL:-no}" = yes ]; then
		_dirs="$_dirs a1 a2 sg"
		umask_dir a1 0777 0 u::rwx,g::rwx,o::rwx
		umask_dir a2 0777 0 u::rwx,u:$B:rwx,g::r-x,m::rwx,o::---
		umask_dir sg 02777 $OPS u::rwx,g::rwx,o::r-x
	fi
	for x in $_dirs; do
		for um in $_masks; do
			for who in $ALICE $CAROL; do
				_p=$D/$x/$um.$who
				echo "-u $um $who create $_p.f 0666"
				echo "root stat $_p.f"
				echo "root getfacl $_p.f access"
				echo "-u $um $who create $_p.s 06777"
				echo "root stat $_p.s"
				echo "-u $um $who mkdir $_p.d 0777"
				echo "root stat $_p.d"
				echo "root getfacl $_p.d access"
				echo "root getfacl $_p.d default"
				echo "-u $um $who mknod $_p.n fifo 0666"
				echo "root stat $_p.n"
			done
		done
		echo "-u 027 root create $D/$x/root 02777"
		echo "root stat $D/$x/root"
	done
}

# run_cases LIST OUT AS: each case of LIST made with the helper AS, its
# output in OUT/N (N from 1).
run_cases() {
	_n=0
	mkdir -p "$2"
	while read -r _line; do
		_n=$((_n + 1))
		# shellcheck disable=SC2086
		"$3" $_line >"$2/$_n" 2>&1
	done <"$1"
}

# diff_cases LIST A B: the cases whose outputs differ between runs A and
# B, three lines each (the case, then each output on one line).
diff_cases() {
	_n=0
	while read -r _line; do
		_n=$((_n + 1))
		cmp -s "$2/$_n" "$3/$_n" && continue
		echo "$_line"
		echo "  $(tr '\n' ' ' <"$2/$_n")"
		echo "  $(tr '\n' ' ' <"$3/$_n")"
	done <"$1"
}

# acl_file NAME MODE GROUP ACL: a file of ALICE's with an access ACL.
acl_file() {
	echo "root mkfile $D/$1 $2 $A $3"
	echo "root setfacl $D/$1 access $4"
	echo "root stat $D/$1"
}

# acl_dir NAME MODE GROUP ACL: a directory of ALICE's with an access ACL
# and a file of hers in it.
acl_dir() {
	echo "root mkdir $D/$1 0700"
	echo "root chown $D/$1 $A $3"
	echo "root chmod $D/$1 $2"
	echo "root setfacl $D/$1 access $4"
	echo "root mkfile $D/$1/f 0666 $A $3"
}

# Access ACLs decide as on the backing filesystem (KNOWN-GAPS 10): named
# users and groups that grant and deny, the mask, the owning group and
# other, on files (read, write, execute) and directories (search, list,
# create and remove through ACL entries); default ACLs inherited by new
# files and directories; chmod(2) moving the mask; setfacl through the
# mount by the owner (set-group-ID cleared for one outside the group) and
# by another user.  ALICE owns everything; BOB is in STAFF, CAROL in OPS;
# $C is CAROL's uid.
acl_cases() {
	acl_file deny 0660 $STAFF u::rw-,u:$B:---,g::rw-,m::rw-,o::---
	acl_file grant 0640 $STAFF u::rw-,u:$B:rw-,g::r--,m::rw-,o::---
	acl_file mask 0600 $STAFF u::rw-,u:$B:rw-,g::rw-,m::r--,o::---
	acl_file ngrant 0640 $STAFF u::rw-,g::r--,g:$OPS:rw-,m::rw-,o::---
	acl_file ndeny 0666 $STAFF u::rw-,g::rw-,g:$OPS:---,m::rw-,o::rw-
	acl_file gdeny 0604 $STAFF u::rw-,g::---,m::---,o::r--
	acl_file exec 0750 $STAFF u::rwx,u:$B:r-x,u:$C:--x,g::---,m::r-x,o::---
	for f in deny grant mask ngrant ndeny gdeny exec; do
		for who in $ALICE $BOB $CAROL; do
			echo "$who access $D/$f r"
			echo "$who access $D/$f w"
			echo "$who access $D/$f x"
			echo "$who read $D/$f"
			echo "$who append $D/$f x"
		done
	done
	acl_dir dx 0700 $STAFF u::rwx,u:$B:--x,g::---,m::--x,o::---
	acl_dir dr 0750 $STAFF u::rwx,u:$B:r--,g::r-x,m::r-x,o::---
	acl_dir dw 0755 $STAFF u::rwx,u:$B:rwx,g::r-x,m::rwx,o::r-x
	acl_dir dm 0755 $STAFF u::rwx,u:$B:rwx,g::r-x,m::r-x,o::r-x
	acl_dir dg 0705 $STAFF u::rwx,g::---,g:$OPS:rwx,m::rwx,o::r-x
	for d in dx dr dw dm dg; do
		for who in $ALICE $BOB $CAROL; do
			echo "$who stat $D/$d/f"
			echo "$who read $D/$d/f"
			echo "$who readdir $D/$d"
			echo "$who chdir $D/$d"
			echo "$who create $D/$d/c.$who 0644"
			echo "$who mkdir $D/$d/m.$who 0755"
			echo "$who rename $D/$d/c.$who $D/$d/r.$who"
			echo "$who unlink $D/$d/r.$who"
			echo "$who rmdir $D/$d/m.$who"
			echo "$who getfacl $D/$d access"
		done
	done
	# Default ACLs: inherited, the mask from the mode asked for.
	echo "root mkdir $D/def 0770"
	echo "root chown $D/def $A $STAFF"
	echo "root setfacl $D/def default u::rwx,u:$B:rw-,u:$C:r-x,g::r-x,m::rwx,o::---"
	echo "root setfacl $D/def access u::rwx,u:$C:--x,g::rwx,m::rwx,o::---"
	echo "$ALICE create $D/def/f640 0640"
	echo "$ALICE create $D/def/f660 0660"
	echo "$ALICE mkdir $D/def/sub 0750"
	echo "$CAROL create $D/def/carol 0666"
	for p in f640 f660 sub carol; do
		echo "root stat $D/def/$p"
		echo "root getfacl $D/def/$p access"
		echo "root getfacl $D/def/$p default"
		for who in $BOB $CAROL; do
			echo "$who read $D/def/$p"
			echo "$who append $D/def/$p x"
			echo "$who readdir $D/def/$p"
		done
	done
	# chmod(2) moves the mask; only the owner may.
	acl_file ch 0660 $STAFF u::rw-,u:$B:rw-,g::r--,m::rw-,o::---
	echo "$BOB read $D/ch"
	echo "$ALICE chmod $D/ch 0600"
	echo "root getfacl $D/ch access"
	echo "$BOB read $D/ch"
	echo "$ALICE chmod $D/ch 0640"
	echo "root stat $D/ch"
	echo "$BOB read $D/ch"
	echo "$BOB append $D/ch x"
	echo "$BOB chmod $D/ch 0666"
	echo "root getfacl $D/ch access"
	# setfacl(1) through the mount.
	echo "root mkfile $D/sf 0640 $A $STAFF"
	echo "$BOB append $D/sf x"
	echo "$ALICE setfacl $D/sf access u::rw-,u:$B:rw-,g::r--,m::rw-,o::---"
	echo "root stat $D/sf"
	echo "$BOB append $D/sf x"
	echo "$BOB getfacl $D/sf access"
	echo "$BOB setfacl $D/sf access u::rw-,g::rw-,o::rw-"
	echo "$CAROL getfacl $D/sf access"
	echo "$ALICE setfacl $D/sf access u::rw-,g::r--,o::---"
	echo "root getfacl $D/sf access"
	echo "root stat $D/sf"
	echo "$BOB append $D/sf x"
	echo "$ALICE setfacl $D/sf default u::rwx,g::r-x,o::---"
	echo "$ALICE removexattr $D/sf system.posix_acl_access"
	for g in $STAFF $OPS; do
		echo "root mkfile $D/sg.$g 02670 $A $g"
		echo "$ALICE setfacl $D/sg.$g access u::rw-,u:$B:r--,g::rwx,m::rwx,o::---"
		echo "root stat $D/sg.$g"
		echo "root getfacl $D/sg.$g access"
	done
	echo "root mkdir $D/sgd 02770"
	echo "root chown $D/sgd $A $OPS"
	echo "root chmod $D/sgd 02770"
	echo "$ALICE setfacl $D/sgd access u::rwx,u:$B:r-x,g::rwx,m::rwx,o::---"
	echo "root stat $D/sgd"
}
