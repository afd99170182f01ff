# twohost.sh - two qemu guests on one virtual wire (bash; sourced by the
# tests/net tests after tests/qemu/tap.sh).
#
#   twohost_pair NAME KIND1 KIND2 ROWS
#
# boots host 1 (KIND1) and host 2 (KIND2) at once, joined by qemu's socket
# netdev on 127.0.0.1 (host 1 listens, host 2 connects; no other network),
# each running guest-twohost.sh.  KIND is "smack" (the Smack reference
# kernel at $TWOHOST_SMACK_K, the lane's own: tests/qemu/smack-kernel.sh) or a module lane's kernel as qemu-run.sh -k names it (debian,
# trixie, trixie-backports: smackfuse.ko from $top_builddir).  The guests'
# setup and barrier points join the test's TAP ("NAME host1: ..."); their
# rows go to ROWS, one per line: "DIR ROW send=... recv=...", DIR as 1to2.
# Returns 1 when a guest's run failed.
TWOHOST_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# twohost_kmod KIND: the smackfuse.ko for a lane's kernel.
twohost_kmod() {
	case $1 in
	debian) echo "$top_builddir/src/kmod/smackfuse.ko" ;;
	*) echo "$top_builddir/src/kmod/$1/smackfuse.ko" ;;
	esac
}

# twohost_args N KIND SOCKOPTS: qemu-run.sh's arguments for host N.
twohost_args() {
	local n=$1 kind=$2 sock=$3 nl l
	nl=$top_builddir/src/netlabel/smacknl
	printf '%s\0' --name "$NAME host$n" -t 400 --tcg-thread single \
		--net "$sock,52:54:00:00:09:0$n" \
		-b "$top_builddir/tests/kmod/rcvpeer" \
		-f "$top_builddir/tests/kmod/smackrun-static:/bin/smackrun" \
		-f "$nl:/usr/sbin/smacknl"
	for l in $(ldd "$nl" | grep -oE '/[^ ]+' | sort -u); do
		printf '%s\0' -f "$(readlink -f "$l"):$l"
	done
	if [ "$kind" = smack ]; then
		printf '%s\0' -k "${TWOHOST_SMACK_K:-smack}" -a "sfnet.me=$n sfnet.kind=smack"
	else
		printf '%s\0' -k "$kind" -a "sfnet.me=$n sfnet.kind=kmod" \
			-m "$(twohost_kmod "$kind")" -K virtio_net -K virtio_pci
	fi
	printf '%s\0' "$TWOHOST_DIR/guest-twohost.sh"
}

# twohost_listening PORT: a qemu listens on 127.0.0.1:PORT.
twohost_listening() {
	ss -Hltn "sport = :$1" 2>/dev/null | grep -q .
}

twohost_pair() {
	local NAME=$1 k1=$2 k2=$3 rows=$4 port wd a1 a2 i rc=0
	wd=$(mktemp -d "${TMPDIR:-/tmp}/sfnet.XXXXXX")
	port=$((20000 + RANDOM % 20000))
	while twohost_listening $port; do port=$((port + 1)); done
	mapfile -d '' a1 < <(twohost_args 1 "$k1" "listen=127.0.0.1:$port")
	mapfile -d '' a2 < <(twohost_args 2 "$k2" "connect=127.0.0.1:$port")
	"$QEMU_DIR/qemu-run.sh" --no-plan --channel "$wd/ch1" "${a1[@]}" \
		>"$wd/tap1" 2>&1 &
	local p1=$!
	# host 2's qemu connects when it starts: host 1's must listen by then
	for ((i = 0; i < 600; i++)); do
		twohost_listening $port && break
		kill -0 $p1 2>/dev/null || break
		sleep 0.2
	done
	"$QEMU_DIR/qemu-run.sh" --no-plan --channel "$wd/ch2" "${a2[@]}" \
		>"$wd/tap2" 2>&1 || rc=1
	wait $p1 || rc=1
	_tap <"$wd/tap1"
	_tap <"$wd/tap2"
	cat "$wd/ch1" "$wd/ch2" 2>/dev/null | sed -n 's/^SFQ:[^:]*: @row //p' |
		awk '{ k = $1 " " $2; if ($3 ~ /^send=/) s[k] = $3; else r[k] = $3 }
		     END { for (k in s) print k, s[k], (k in r ? r[k] : "recv=?")
			   for (k in r) if (!(k in s)) print k, "send=?", r[k] }' |
		sort >"$rows"
	rm -rf "$wd"
	return $rc
}

# twohost_row FILE DIR ROW: the row's answer in FILE (rows, or the known
# differences with LANE first: twohost_row FILE "LANE DIR" ROW).
twohost_row() {
	awk -v k="$2 $3" '/^#/ { next }
		{ n = split(k, w, " "); m = 1
		  for (i = 1; i <= n; i++) if ($i != w[i]) m = 0
		  if (m) { for (i = 1; i <= n; i++) $i = ""; sub(/^ +/, ""); print } }' "$1"
}

# twohost_compare LANE PAIR ROWS ORACLE: one point per oracle row: PAIR's
# row equals the two Smack kernels' (send and receive outcomes, the CIPSO
# option bytes that arrived, SO_PEERSEC), or, for a row twohost-known.txt
# lists for LANE, exactly the answer listed there.
twohost_compare() {
	local lane=$1 pair=$2 rows=$3 oracle=$4 dir row want got known
	while read -r dir row want; do
		got=$(twohost_row "$rows" "$dir" "$row")
		known=$(twohost_row "$TWOHOST_DIR/twohost-known.txt" "$lane $dir" "$row")
		if [ -n "$known" ] && [ "$got" = "$known" ]; then
			tap_ok "$pair: $dir $row: $got, the known difference from Smack's $want (twohost-known.txt)"
		elif [ -z "$known" ] && [ "$got" = "$want" ]; then
			tap_ok "$pair: $dir $row: $got, as Smack to Smack"
		else
			tap_not_ok "$pair: $dir $row: ${got:-no row}, where Smack to Smack is $want${known:+ and twohost-known.txt says $known}"
		fi
	done <"$oracle"
}
