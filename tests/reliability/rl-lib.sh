# rl-lib.sh - the reliability tests' layer over tests/fuse/lib.sh (sourced).
#
# TAP output, scratch trees, users, tmpfs and mounting smackfuse in the
# foreground come from tests/fuse/lib.sh, one-syscall operations as a
# user from tests/fuse/as (rl_op).  Added here: the CI/full counts, whole
# programs run as a user (rl_as), and the daemon's memory and fds.
#
# Counts: every scenario has a CI count and a full count; RL_HEAVY=1 (set
# by `make check-heavy`) selects the full count.

: "${top_builddir:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
: "${top_srcdir:=$top_builddir}"
. "$top_srcdir/tests/fuse/lib.sh"
RL_BIN=$top_builddir/tests/reliability
RL_HEAVY=${RL_HEAVY:-0}

rl_plan() { plan "$@"; }
rl_ok() { ok "$@"; }
rl_notok() { notok "$@"; }
rl_skip() { skip "$@"; }
rl_check() { check "$@"; }
rl_diag() { diag; }
rl_bail() { bail "$@"; }

# rl_count CI FULL: the count for this run.
rl_count() { if [ "$RL_HEAVY" = 1 ]; then echo "$2"; else echo "$1"; fi; }

# Scratch directory RL_TMP; mounts and daemons are torn down on exit,
# and so are the control mounts of daemons the test killed (kill.test's
# SIGKILLs): otherwise they stay in /run/smackfuse, dead, for good.
rl_scratch() {
	scratch
	RL_TMP=$T
	trap 'rl_forget_control; cleanup' EXIT
}

rl_forget_control() {
	local id=${RL_TMP##*.} m
	[ -n "$id" ] || return 0
	grep -F "smackfuse-control" /proc/self/mountinfo |
		awk -v id="$id" 'index($5, id) { print $5 }' |
		sed 's/\\134/\\/g; s/\\040/ /g' |
		while read -r m; do umount -l "$m" && rmdir "$m"; done 2>/dev/null
	return 0
}
rl_tmpfs() { tmpfs_mount "$@"; }
rl_user() { sf_group users && sf_user "$1"; }
rl_have_smackfuse() { [ -x "$SMACKFUSE" ]; }

# rl_op USER OP ARGS...: one system call through tests/fuse/as; prints
# "OK [data]" or the errno name on one line, status 0 only for OK.
rl_op() { as_line "$@"; }

# rl_as USER command...: run a whole program as USER (no capabilities, no
# supplementary groups beyond the user's own).
rl_as() {
	local u=$1
	shift
	setpriv --reuid="$u" --regid="$(id -g "$u")" --init-groups \
		--inh-caps=-all -- "$@"
}

# rl_mount SRC MNT LOG [options...]: mount_sf, with RL_WRAP in front of
# the daemon; sets RL_PID.
rl_mount() {
	SF_WRAP=$RL_WRAP mount_sf "$@"
	local rc=$?
	RL_PID=$SF_PID
	return $rc
}

# rl_umount MNT: unmount (lazily if busy) and wait for the daemon.
rl_umount() {
	SF_PID=$RL_PID
	umount_sf "$1" || { umount -l "$1"; wait "$RL_PID" 2>/dev/null; }
	return 0
}

rl_label() { label "$1"; }

# rl_rss_kb PID [field]: VmRSS (or VmHWM) of PID in KiB.
rl_rss_kb() {
	awk -v f="${2:-VmRSS}:" '$1 == f { print $2 }' "/proc/$1/status"
}

rl_nfds() { ls "/proc/$1/fd" | wc -l; }

rl_drop_caches() {
	sync
	echo 2 >/proc/sys/vm/drop_caches
}
