#!/bin/bash
# bench/rss.sh [N] - memory of the smackfuse daemon while the kernel knows
# N inodes (default 1,000,000): baseline RSS, RSS and peak (VmHWM) after a
# stat walk of N files, RSS after the kernel forgets them (drop_caches 2),
# and the bytes per cached inode.  Run as root from a built tree:
#   top_builddir=/path/to/build bench/rss.sh 1000000
# The last line is machine-readable (key=value), for tests/reliability.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
. "$top_srcdir/tests/reliability/rl-lib.sh"
n=${1:-1000000}
rl_scratch
rl_have_smackfuse || { echo "rss: no smackfuse at $SMACKFUSE" >&2; exit 2; }
B=$RL_TMP/b M=$RL_TMP/m
rl_tmpfs "$B" "size=1g,nr_inodes=$((n + n / 500 + 1000))" || exit 2
setfattr -n security.SMACK64 -v _ "$B"
t0=$(date +%s.%N)
rl_op root mktree "$B" "$n" >/dev/null || exit 2
t1=$(date +%s.%N)
# One O_PATH fd per cached inode, and the daemon keeps at most half its
# fd limit as nodes (src/fuse/nodes/inode.c): give it room for all N if the hard
# limit allows, so that every inode stays cached; otherwise it makes the
# kernel forget the least recently used ones and the walk still completes
# (raising the hard limit needs CAP_SYS_RESOURCE).
nofile=$((2 * (n + n / 500 + 1000)))
hard=$(ulimit -Hn)
[ "$hard" != unlimited ] && [ $nofile -gt "$hard" ] && nofile=$hard
echo "rss: daemon RLIMIT_NOFILE $nofile"
RL_WRAP="prlimit --nofile=$nofile:$nofile" rl_mount "$B" "$M" "$RL_TMP/log" \
	-o control="$RL_TMP/ctl" || exit 2
status() { awk -F': ' -v k="$1" '$1 == k { print $2 }' "$RL_TMP/ctl/status"; }
bfds() { ls -l "/proc/$RL_PID/fd" | grep -c -- "-> $B"; }
rl_drop_caches
sleep 0.3
base=$(rl_rss_kb "$RL_PID")
fds0=$(bfds)
t2=$(date +%s.%N)
walked=$(find "$M" -printf '%s\n' 2>"$RL_TMP/find.err" | wc -l)
head -n 3 "$RL_TMP/find.err" >&2
errors=$(wc -l <"$RL_TMP/find.err")
t3=$(date +%s.%N)
walk=$(rl_rss_kb "$RL_PID")
hwm=$(rl_rss_kb "$RL_PID" VmHWM)
nodes=$(status nodes) peak=$(status "nodes peak")
evicted=$(status "nodes evicted") high=$(status "nodes high-water mark")
fds1=$(bfds)
rl_drop_caches
sleep 1
forget=$(rl_rss_kb "$RL_PID")
fds2=$(bfds)
# Peak RSS over the most nodes held at once.
bpi=$(( (hwm - base) * 1024 / (peak > 0 ? peak : 1) ))
echo "rss: setup of $n files: $(echo "$t1 - $t0" | bc) s; walk of $walked entries: $(echo "$t3 - $t2" | bc) s, $errors errors"
echo "rss: nodes held: $nodes at the end of the walk, $peak at most (high-water mark $high); $evicted names dropped to make the kernel forget"
echo "rss: daemon fds on the backing tree: $fds0 before, $fds1 after the walk, $fds2 after forget"
echo "rss: baseline $base KiB, after walk $walk KiB (peak $hwm KiB), after forget $forget KiB"
echo "rss: $bpi bytes per cached inode (peak RSS - baseline) / peak nodes"
echo "files=$n walked=$walked errors=$errors nodes_peak=$peak evicted=$evicted base_kib=$base walk_kib=$walk hwm_kib=$hwm forget_kib=$forget fds_base=$fds0 fds_forget=$fds2 bytes_per_inode=$bpi"
rl_umount "$M"
