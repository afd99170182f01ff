# userdb.sh - a private account database for tests and benchmarks.
#
# Sourced.  The caller re-runs itself in a private mount namespace
# (userdb_enter), where an overlay over /etc takes every change: bulk
# users, useradd, usermod, userdel and a test's own /etc/nsswitch.conf.
# The host's /etc is never written, and the accounts vanish with the
# namespace, so a test neither leaves nor depends on accounts it did not
# make.  Everything the daemon and the clients of the test run inside the
# namespace sees the same database (and the test's FUSE mounts, which the
# host does not).

# userdb_enter "$0" "$@": re-run the script in a private mount namespace
# (once); returns in the copy.
userdb_enter() {
	[ -n "${SF_USERDB_NS:-}" ] && return 0
	command -v unshare >/dev/null || { echo "1..0 # SKIP no unshare"; exit 0; }
	SF_USERDB_NS=1 exec unshare --mount --propagation private \
		/bin/bash "$@"
}

# userdb_setup DIR: the overlay over /etc, its layers under DIR (a fresh
# tmpfs: an overlay's upper layer needs xattrs the scratch filesystem may
# lack).  nscd, if the host runs it, would answer from the host's files:
# its socket directory is hidden.  Useradd and friends skip lastlog and
# faillog (-l) so that /var/log is not written either.
userdb_setup() {
	local d=$1
	[ -n "${SF_USERDB_NS:-}" ] || { echo "userdb_setup: not in a private namespace" >&2; return 1; }
	mkdir -p "$d" && mount -t tmpfs -o mode=0700 userdb "$d" || return 1
	mkdir -p "$d/upper" "$d/work" || return 1
	mount -t overlay userdb -o "lowerdir=/etc,upperdir=$d/upper,workdir=$d/work" /etc ||
		return 1
	if [ -d /run/nscd ]; then mount -t tmpfs -o mode=0755 none /run/nscd || return 1; fi
	return 0
}

# userdb_teardown DIR: undo userdb_setup (the namespace's end would too,
# but the caller may want to remove DIR first).
userdb_teardown() {
	umount -l /etc 2>/dev/null
	[ -d /run/nscd ] && umount -l /run/nscd 2>/dev/null
	umount -l "$1" 2>/dev/null
	return 0
}

# userdb_free_uids FIRST N: are FIRST..FIRST+N-1 free as uids and gids?
userdb_free_uids() {
	awk -F: -v a="$1" -v b="$(($1 + $2 - 1))" \
		'$3 >= a && $3 <= b { bad = 1 } END { exit bad }' /etc/passwd /etc/group
}

# userdb_bulk PREFIX FIRST N [GROUP]: users PREFIX$i (i = 0..N-1) with uid
# and a private group FIRST + i, appended to passwd, group and shadow at
# once (useradd takes seconds per thousand).  With GROUP (an existing
# group), every one is also a member of it.
userdb_bulk() {
	local p=$1 first=$2 n=$3 grp=${4:-}
	userdb_free_uids "$first" "$n" || { echo "userdb_bulk: uids $first+$n taken" >&2; return 1; }
	awk -v p="$p" -v f="$first" -v n="$n" 'BEGIN { for (i = 0; i < n; i++)
		printf "%s%d:x:%d:%d::/nonexistent:/usr/sbin/nologin\n", p, i, f + i, f + i }' \
		>>/etc/passwd || return 1
	awk -v p="$p" -v f="$first" -v n="$n" 'BEGIN { for (i = 0; i < n; i++)
		printf "%s%d:x:%d:\n", p, i, f + i }' >>/etc/group || return 1
	awk -v p="$p" -v n="$n" 'BEGIN { for (i = 0; i < n; i++)
		printf "%s%d:!:19000::::::\n", p, i }' >>/etc/shadow || return 1
	[ -z "$grp" ] && return 0
	local members
	members=$(awk -v p="$p" -v n="$n" 'BEGIN { for (i = 0; i < n; i++)
		printf "%s%s%d", i ? "," : "", p, i }')
	awk -F: -v g="$grp" -v m="$members" 'BEGIN { OFS = ":" }
		$1 == g { $4 = $4 ? $4 "," m : m } { print }' /etc/group >/etc/group.new &&
		cat /etc/group.new >/etc/group && rm -f /etc/group.new
}
