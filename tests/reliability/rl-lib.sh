# rl-lib.sh - shared shell helpers of the reliability tests (sourced).
#
# TAP output, scratch tmpfs trees, test users, and mounting smackfuse in the
# foreground (-f) so that the test knows the daemon's pid and reads its
# audit lines from a log file.
#
# Counts: every scenario has a CI count and a full count; RL_HEAVY=1 (set
# by `make check-heavy`) selects the full count.

: "${top_builddir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_srcdir:=$top_builddir}"
RL_BIN=$top_builddir/tests/reliability
SMACKFUSE=${SMACKFUSE:-$top_builddir/smackfuse}
RL_HEAVY=${RL_HEAVY:-0}

rl_n=0
rl_failed=0
rl_plan() { echo "1..$1"; }
rl_ok() { rl_n=$((rl_n + 1)); echo "ok $rl_n - $*"; }
rl_notok() { rl_n=$((rl_n + 1)); rl_failed=1; echo "not ok $rl_n - $*"; }
rl_skip() { rl_n=$((rl_n + 1)); echo "ok $rl_n # SKIP $*"; }
# rl_check "what it proves" command...: ok if the command succeeds.
rl_check() {
	local what=$1
	shift
	if "$@"; then rl_ok "$what"; else rl_notok "$what"; fi
}
rl_diag() { sed 's/^/# /'; }
rl_bail() { echo "Bail out! $*"; exit 1; }

# rl_count CI FULL: the count for this run.
rl_count() { if [ "$RL_HEAVY" = 1 ]; then echo "$2"; else echo "$1"; fi; }

# Scratch directory; everything under it is torn down on exit.
rl_scratch() {
	RL_TMP=$(mktemp -d /tmp/smackfuse-rl.XXXXXX)
	chmod 755 "$RL_TMP"
	RL_MOUNTS=""
	RL_PIDS=""
	trap rl_cleanup EXIT
}

rl_cleanup() {
	local m p
	for p in $RL_PIDS; do kill -9 "$p" 2>/dev/null; done
	for m in $RL_MOUNTS; do
		fusermount3 -u -z "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	for m in $RL_MOUNTS; do umount -l "$m" 2>/dev/null; done
	rm -rf "$RL_TMP" 2>/dev/null || true
}

# rl_tmpfs DIR [tmpfs options]: a tmpfs of its own (limits, clean xattrs).
rl_tmpfs() {
	mkdir -p "$1"
	mount -t tmpfs -o "mode=755${2:+,$2}" tmpfs "$1" || return 1
	RL_MOUNTS="$1 $RL_MOUNTS"
}

# rl_user NAME: create a system user (and its group) if missing.
rl_user() {
	id -u "$1" >/dev/null 2>&1 ||
		useradd -M -N -s /usr/sbin/nologin -d /nonexistent "$1" 2>/dev/null ||
		id -u "$1" >/dev/null 2>&1
}

# rl_as USER command...: run as USER (no capabilities, no supplementary
# groups beyond the user's own).
rl_as() {
	local u=$1
	shift
	setpriv --reuid="$u" --regid="$(id -g "$u")" --init-groups \
		--inh-caps=-all -- "$@"
}

rl_have_smackfuse() { [ -x "$SMACKFUSE" ]; }

# rl_mount SRC MNT LOG [options...]: start smackfuse -f in the background,
# wait for the mount; sets RL_PID.  Returns non-zero if it did not mount.
# RL_WRAP (e.g. "prlimit --nofile=64:64") is put in front; it must exec.
rl_mount() {
	local src=$1 mnt=$2 log=$3 i
	shift 3
	mkdir -p "$mnt"
	$RL_WRAP "$SMACKFUSE" -f "$@" "$src" "$mnt" 2>"$log" &
	RL_PID=$!
	RL_PIDS="$RL_PID $RL_PIDS"
	RL_MOUNTS="$mnt $RL_MOUNTS"
	for i in $(seq 100); do
		if grep -q " $mnt fuse" /proc/self/mounts; then
			return 0
		fi
		kill -0 "$RL_PID" 2>/dev/null || break
		sleep 0.1
	done
	echo "# smackfuse did not mount $mnt; log:"
	rl_diag <"$log"
	return 1
}

# rl_umount MNT: unmount and wait for the daemon to exit.
rl_umount() {
	fusermount3 -u "$1" 2>/dev/null || umount "$1" 2>/dev/null ||
		umount -l "$1"
	[ -n "$RL_PID" ] && wait "$RL_PID" 2>/dev/null
	return 0
}

# rl_label PATH: the security.SMACK64 value of a backing object ("" if none).
rl_label() {
	getfattr -h --absolute-names --only-values -n security.SMACK64 "$1" \
		2>/dev/null
}

# rl_rss_kb PID [field]: VmRSS (or VmHWM) of PID in KiB.
rl_rss_kb() {
	awk -v f="${2:-VmRSS}:" '$1 == f { print $2 }' "/proc/$1/status"
}

rl_nfds() { ls "/proc/$1/fd" | wc -l; }

rl_drop_caches() {
	sync
	echo 2 >/proc/sys/vm/drop_caches
}
