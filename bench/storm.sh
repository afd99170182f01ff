#!/bin/bash
# bench/storm.sh [N] - a denial storm: one user makes N denied opens
# (default 1,000,000) in a tight loop while another user's allowed
# stat+open+read+close is timed.  Prints the other user's p50/p99 latency
# before and during the storm, the audit lines the daemon wrote (it must
# rate-limit them), and its RSS before and after.  Run as root:
#   top_builddir=/path/to/build bench/storm.sh 1000000
# The last line is machine-readable (key=value), for tests/reliability.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
. "$top_srcdir/tests/reliability/rl-lib.sh"
n=${1:-1000000}
probes=${2:-2000}
rl_scratch
rl_have_smackfuse || { echo "storm: no smackfuse at $SMACKFUSE" >&2; exit 2; }
B=$RL_TMP/b M=$RL_TMP/m
rl_tmpfs "$B" size=16m || exit 2
rl_user rl_a && rl_user rl_b || exit 2
printf 'rl_a RlA\nrl_b RlB\n' >"$RL_TMP/users"
echo "RlB RlPub r" >"$RL_TMP/rules"
setfattr -n security.SMACK64 -v _ "$B"
echo secret >"$B/secret" && chmod 666 "$B/secret"
setfattr -n security.SMACK64 -v RlSecret "$B/secret"
echo public >"$B/pub" && chmod 644 "$B/pub"
setfattr -n security.SMACK64 -v RlPub "$B/pub"
rl_mount "$B" "$M" "$RL_TMP/log" -o users="$RL_TMP/users",subject=users \
	--rules "$RL_TMP/rules" || exit 2
P=$RL_BIN/rl-storm
rl_as rl_a "$P" deny "$M/secret" 1000 >/dev/null # warm up
sleep 1
quiet=$(rl_as rl_b "$P" probe "$M/pub" "$probes")
rss0=$(rl_rss_kb "$RL_PID")
lines0=$(grep -c 'action=denied' "$RL_TMP/log")
all0=$(wc -l <"$RL_TMP/log")
rl_as rl_a "$P" deny "$M/secret" "$n" >"$RL_TMP/deny" &
dp=$!
sleep 0.2
busy=$(rl_as rl_b "$P" probe "$M/pub" "$probes")
wait $dp
deny=$(cat "$RL_TMP/deny")
sleep 1.5
rss1=$(rl_rss_kb "$RL_PID")
lines=$(( $(grep -c 'action=denied' "$RL_TMP/log") - lines0 ))
suppressed=$(grep -c 'suppressed' "$RL_TMP/log")
all=$(( $(wc -l <"$RL_TMP/log") - all0 ))
alive=0; kill -0 "$RL_PID" 2>/dev/null && alive=1
v() { echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
echo "storm: $n denied opens: $deny"
echo "storm: other user, quiet:       $quiet"
echo "storm: other user, during storm: $busy"
echo "storm: log lines during the storm: $all ($lines denial lines, $suppressed 'suppressed' notices)"
echo "storm: daemon RSS $rss0 KiB before, $rss1 KiB after"
secs=$(v seconds "$deny")
echo "n=$n denied=$(v denied "$deny") seconds=${secs%.*} audit_lines=$lines log_lines=$all suppressed_notices=$suppressed quiet_p99_us=$(v p99_us "$quiet") busy_p50_us=$(v p50_us "$busy") busy_p99_us=$(v p99_us "$busy") probe_errors=$(( $(v errors "$quiet") + $(v errors "$busy") )) rss0_kib=$rss0 rss1_kib=$rss1 alive=$alive"
rl_umount "$M"
