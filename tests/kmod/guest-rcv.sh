# guest-rcv.sh - smackfuse.ko checks arriving packets as mainline's
# smack_socket_sock_rcv_skb(): a packet reaches a socket only if the
# packet's label may write to the socket's.  A second network namespace
# joined by a veth pair stands for another host (192.0.2.2, this host
# 192.0.2.1); its root sends unlabelled packets, or packets with the CIPSO
# option a Smack host would send for a label (IP_OPTIONS; the bytes are
# smacknl's encoding, /etc/rcv-wire, which smackhost.test holds to the
# Smack kernel's).  Receivers are labelled B, uid 1000.  See rcv.test.
. /lib/sfq/tap.sh
SF=/sys/kernel/security/smackfuse
U=1000
. /etc/rcv-wire		# WIRE_A, WIRE_SECRET, WIRE_UNKNOWN: option hex

check "the Debian kernel's veth module loads" load_kmods
check "smackfuse.ko loads (probes and arrival hooks armed)" \
	insmod /lib/modules/smackfuse.ko
check "the features file offers rcv_check" grep -qx rcv_check $SF/features
check "the kernel's NetLabel knows DOI 3 (pass-through), as smacknl sets it" \
	netlabelctl cipsov4 add pass doi:3 tags:1

# ---- the other host: a network namespace behind a veth pair ----
ip link set lo up
unshare -n sleep 100000 &
PEER=$!
sleep 0.3
peer() { nsenter -t $PEER -n "$@"; }
check "a veth pair to the peer namespace" sh -c \
	"ip link add v0 type veth && ip link set veth0 netns $PEER && \
	 ip addr add 192.0.2.1/24 dev v0 && ip link set v0 up"
check "the peer's side is up (192.0.2.2)" peer sh -c \
	"ip link set lo up && ip addr add 192.0.2.2/24 dev veth0 && \
	 ip link set veth0 up"
check "the peer reaches this host" peer ping -c 1 -W 5 192.0.2.1
# One module serves both "hosts": its send checks (net4.c) would hold the
# peer's packets to this host's ambient label, which a real peer's
# kernel would not.  A -CIPSO host entry lets them leave unchecked; the
# arrival checks read no host entry (mainline's do not).
check "netlabel: 192.0.2.1 is a CIPSO host (the peer's sends unchecked)" \
	sh -c "echo '192.0.2.1/32 -CIPSO' >$SF/netlabel"

# arrive OP ADDR SENDER...: start a receiver labelled B on a new port, run
# the sender (a command prefix: "peer" is the peer's root) with option
# bytes $WIRE, print what arrived; what the sender said is in /tmp/snd.out.
PORT=7900
arrive() {
	_op=$1 _addr=$2
	shift 2
	PORT=$((PORT + 1))
	rm -f /tmp/rcv.out
	smackrun -u $U B rcvpeer "$_op" "${BIND:-0.0.0.0}" $PORT 30 \
		>/tmp/rcv.out 2>&1 &
	_r=$!
	ready
	case $_op in
	udp-recv) "$@" rcvpeer udp-send "$_addr" $PORT $WIRE >/tmp/snd.out ;;
	tcp-accept) "$@" rcvpeer tcp-send "$_addr" $PORT 2 $WIRE >/tmp/snd.out ;;
	esac
	done_with $_r
	grep -v ready /tmp/rcv.out
}
# ready: until the receiver writing /tmp/rcv.out is listening (10 s).
ready() {
	_i=0
	while ! grep -qs ready /tmp/rcv.out && [ $_i -lt 100 ]; do
		sleep 0.1; _i=$((_i + 1))
	done
}
# done_with PID: the sender is done; what it sent has arrived or was
# dropped (delivery is in the sender's own system call, or a softirq
# right after); the receiver takes a last look and reports.
done_with() {
	sleep 0.5
	kill -TERM "$1" 2>/dev/null
	wait "$1"
}
load() { printf '%b\n' "$1" >$SF/load2; }
revoke() { echo "$1" >$SF/revoke-subject; }
remote_udp() { arrive udp-recv 192.0.2.1 peer; }
remote_tcp() { arrive tcp-accept 192.0.2.1 peer; }
# A TCP peer labelled A: Linux's TCP would echo the SYN's CIPSO option
# in the SYN-ACK; the module takes it off (a Smack listener sends its own
# label, or none), so the peer's socket must accept the answer.
remote_tcp_a() { arrive tcp-accept 192.0.2.1 peer smackrun A; }
remote_tcp_a_rule() { WIRE=$WIRE_A; load "A B w"; remote_tcp_a; WIRE=; }

# ---- unlabelled packets: the ambient label ----
WIRE=
check_out "UDP from an unlabelled host to B: dropped (ambient _ may not write B)" \
	none remote_udp
load "_ B w"
check_out "... delivered with rule _ B w" got remote_udp
check_out "TCP from an unlabelled host to B's listener, with _ B w: accepted" \
	got remote_tcp
revoke _
check_out "... without it: the SYN is dropped, nothing accepted" none remote_tcp
check_out "... and the peer's connect(2) times out (no RST: the SYN was dropped)" \
	ETIMEDOUT cat /tmp/snd.out
echo C >$SF/ambient
load "_ B w"
check_out "ambient C: an unlabelled packet is C's (_ B w does not let it in)" \
	none remote_udp
load "C B w"
check_out "... and C B w does" got remote_udp
echo _ >$SF/ambient
revoke _
revoke C

# ---- IPv6: from anywhere but ::1, the ambient label ----
echo 0 >/proc/sys/net/ipv6/conf/v0/accept_dad
peer sh -c "echo 0 >/proc/sys/net/ipv6/conf/veth0/accept_dad"
check "IPv6 on the veth pair (2001:db8:9::1, the peer ::2)" sh -c \
	"ip -6 addr add 2001:db8:9::1/64 dev v0 && \
	 nsenter -t $PEER -n ip -6 addr add 2001:db8:9::2/64 dev veth0"
BIND=::
remote_udp6() { arrive udp-recv 2001:db8:9::1 peer; }
remote_tcp6() { arrive tcp-accept 2001:db8:9::1 peer; }
check_out "IPv6 UDP from the peer to B: dropped (ambient _ may not write B)" \
	none remote_udp6
check_out "IPv6 TCP from the peer to B's listener: nothing accepted" \
	none remote_tcp6
load "_ B w"
check_out "... UDP delivered with _ B w" got remote_udp6
check_out "... TCP accepted with _ B w" got remote_tcp6
revoke _
load "A B w"
check_out "IPv6 over ::1 from A to B with A B w: delivered (::1 is not checked on arrival)" \
	got arrive udp-recv ::1 smackrun -u $U A
revoke A
BIND=

# ---- CIPSO-labelled packets: the label they carry ----
WIRE=$WIRE_A
check_out "UDP labelled A (direct) from the peer to B: dropped without A B w" \
	none remote_udp
load "_ B w"
check_out "... the ambient label's rule does not let A in" none remote_udp
load "A B w"
check_out "... delivered with A B w" got remote_udp
load "_ A w"
check_out "TCP labelled A to B's listener with A B w: accepted (the SYN-ACK leaves unlabelled, the peer's A reads it as _)" \
	got remote_tcp_a
revoke A
revoke _
check_out "... dropped again after revoke-subject A" none remote_udp
check_out "TCP labelled A without A B w: nothing accepted" none remote_tcp_a
check_out "... the peer's connect(2) fails: ICMP host prohibited, as Smack answers a refused CIPSO packet" \
	EHOSTUNREACH cat /tmp/snd.out
WIRE=$WIRE_UNKNOWN
check_out "a label no rule here names (decodes to *): dropped" none remote_udp
WIRE=$WIRE_SECRET
check "cipso2 takes Secret as level 3, categories 5 and 7" \
	sh -c "printf 'Secret 3   2   5   7' >$SF/cipso2"
check "cipso2 reads it back" grep -qE '^Secret +3/5,7$' $SF/cipso2
check_fails "cipso2 refuses a record cut short" \
	sh -c "printf 'Secret 3   4   5' >$SF/cipso2"
check_out "level 3, categories 5,7 arrives as Secret: dropped without Secret B w" \
	none remote_udp
load "Secret B w"
check_out "... delivered with Secret B w" got remote_udp
revoke Secret
revoke _

# ---- the numbers ----
check_out "doi reads 3 by default" 3 cat $SF/doi
check_out "direct reads 250 by default" 250 cat $SF/direct
check_fails "direct may not take the mapped level" sh -c "echo 251 >$SF/direct"
check_fails "doi 0 is refused" sh -c "echo 0 >$SF/doi"
check_fails "doi reads its first 34 bytes only, as smackfs (34 zeros, then 5: DOI 0)" \
	sh -c "printf '%034d5' 0 >$SF/doi"
check_out "... doi still reads 3" 3 cat $SF/doi
check_fails "non-root may not write doi" smackrun -u $U _ sh -c "echo 5 >$SF/doi"
check "direct takes 200" sh -c "echo 200 >$SF/direct"
WIRE=$WIRE_A
load "A B w"
check_out "A's bytes at level 250 no longer decode to A (direct is 200): dropped" \
	none remote_udp
echo 250 >$SF/direct
check_out "... direct back at 250: delivered" got remote_udp
revoke A

# ---- loopback ----
WIRE=
check_out "loopback UDP from A to B without a rule: not delivered" \
	none arrive udp-recv 127.0.0.1 smackrun -u $U A
check_out "... refused at send, as before (net4.c)" EACCES cat /tmp/snd.out
load "A B w"
check_out "loopback UDP from A to B with A B w: delivered (no CIPSO: not checked again)" \
	got arrive udp-recv 127.0.0.1 smackrun -u $U A
revoke A
WIRE=$WIRE_A
check_out "loopback UDP labelled A by IP_OPTIONS from root labelled B: dropped" \
	none arrive udp-recv 127.0.0.1 smackrun B
load "A B w"
check_out "... delivered with A B w" got arrive udp-recv 127.0.0.1 smackrun B
revoke A

# ---- labels on the wire: sockets of labelled tasks send CIPSO ----
# to_peer LABEL [HOST]: a UDP datagram from a task labelled LABEL (uid
# 1000) to the peer, received there by a socket labelled P (rules let
# the labels sent write to it: the peer's arrival check); prints "got OPTION-HEX" ("-": unlabelled) or "none",
# the sender's errno in /tmp/snd.out.
to_peer() {
	PORT=$((PORT + 1))
	rm -f /tmp/rcv.out
	# not through peer(): $! must be the receiver, for done_with's signal
	nsenter -t $PEER -n smackrun P rcvpeer udp-opts 0.0.0.0 $PORT 30 \
		>/tmp/rcv.out 2>&1 &
	_r=$!
	ready
	smackrun -u $U "$1" rcvpeer udp-send "${2:-192.0.2.2}" $PORT >/tmp/snd.out
	done_with $_r
	grep -v ready /tmp/rcv.out
}
load "A P w\nSecret P w\n_ P w\nA _ w"
check_out "status: labelling 0 before doi is written" "labelling 0" \
	grep '^labelling ' $SF/status
check_out "labelling off (doi never written): A's datagram leaves unlabelled" \
	"got -" to_peer A
load "A _ -"
check_out "... and needs w to the ambient label" none to_peer A
check_out "... refused at send" EACCES cat /tmp/snd.out
# A socket made while labelling is off sends no CIPSO option after it is
# on: its packets would arrive as the ambient label, so it is still
# checked at send against its receiver.
PORT=$((PORT + 1))
rm -f /tmp/rcv.out /tmp/go
smackrun -u $U B rcvpeer udp-recv 0.0.0.0 $PORT 60 >/tmp/rcv.out 2>&1 &
LATE_R=$!
ready
smackrun -u $U A rcvpeer udp-send-when 127.0.0.1 $PORT /tmp/go \
	>/tmp/late.snd 2>&1 &
LATE_S=$!
load "_ B w"
check "smacknl smack-setup: NetLabel set up, and the module told (labelling on)" \
	smacknl smack-setup
check_out "... the module's doi reads 3" 3 cat $SF/doi
check_out "... and status says labelling 1" "labelling 1" \
	grep '^labelling ' $SF/status
touch /tmp/go
wait $LATE_S
done_with $LATE_R
check_out "A's socket made before labelling, sending after it: refused at send (no A B w)" \
	EACCES cat /tmp/late.snd
check_out "... nothing delivered (unlabelled, it would pass as _ with _ B w)" \
	none grep -v ready /tmp/rcv.out
load "_ B -"
check_out "A's datagram to the peer carries A's CIPSO option, as Smack's" \
	"got $WIRE_A" to_peer A
check_out "... with no rule (the receiving host decides)" OK cat /tmp/snd.out
check_out "Secret's carries its cipso2 mapping, as Smack's" \
	"got $WIRE_SECRET" to_peer Secret
check_out "the ambient label's leaves unlabelled (mapped to unlabelled)" \
	"got -" to_peer _
check "the peer answers at 192.0.2.3 too" \
	peer ip addr add 192.0.2.3/24 dev veth0
check "netlabel: 192.0.2.3 is a single-label host H" \
	sh -c "echo '192.0.2.3/32 H' >$SF/netlabel"
check_out "A to the host H without A H w: refused at send" none \
	to_peer A 192.0.2.3
load "A H w"
check_out "... with A H w: delivered unlabelled (its option is taken off)" \
	"got -" to_peer A 192.0.2.3
revoke A
revoke Secret
revoke _
WIRE=
load "A B w\nB A w"
check_out "loopback TCP A to B with A B w and B A w, labelled: accepted" \
	got arrive tcp-accept 127.0.0.1 smackrun -u $U A
load "A B -"
check_out "loopback TCP A to B with B A w only: nothing accepted (decided on arrival)" \
	none arrive tcp-accept 127.0.0.1 smackrun -u $U A
check_out "... connect(2) fails EHOSTUNREACH (ICMP for the refused CIPSO SYN), as mainline" \
	EHOSTUNREACH cat /tmp/snd.out
check_out "loopback UDP A to B without A B w: dropped on arrival" none \
	arrive udp-recv 127.0.0.1 smackrun -u $U A
check_out "... sendto(2) succeeds, as mainline (labelled: not decided at send)" \
	OK cat /tmp/snd.out
load "A B w\nB A -"
check_out "loopback TCP A to B with A B w only: nothing accepted (A drops B's SYN-ACK)" \
	none arrive tcp-accept 127.0.0.1 smackrun -u $U A
check_out "... connect(2) times out, as mainline" ETIMEDOUT cat /tmp/snd.out
revoke A
revoke B
load "B A w"
check_out "TCP labelled A from the peer: the SYN-ACK carries B's label now" \
	got remote_tcp_a_rule
revoke B
check_out "... which the peer's A drops without B A w (its connect times out)" \
	none remote_tcp_a_rule
check_out "... ETIMEDOUT" ETIMEDOUT cat /tmp/snd.out
revoke A

# ---- fail closed: a flood of refused packets while probes run ----
# flood RULES: the peer sends N unlabelled datagrams to a receiver
# labelled B while two tasks here make N denied signal checks each
# (kprobe handlers in task context, which softirqs interrupt); prints how
# many datagrams B received.
N=3000
smackrun -u $U B sleep 600 &
T=$!
flood() {
	PORT=$((PORT + 1))
	rm -f /tmp/rcv.out
	smackrun -u $U B rcvpeer udp-count 0.0.0.0 $PORT 60 >/tmp/rcv.out 2>&1 &
	_r=$!
	ready
	smackrun -u $U A kact kill-loop $T $N >/dev/null &
	smackrun -u $U A kact kill-loop $T $N >/dev/null &
	peer rcvpeer udp-flood 192.0.2.1 $PORT $N >/tmp/snd.out
	done_with $_r
	wait
	grep -v ready /tmp/rcv.out
}
check_out "a flood of $N datagrams B may not receive, beside $((2 * N)) denied signals: none delivered" \
	0 flood
check_out "... all $N were sent" $N cat /tmp/snd.out
load "_ B w"
_got=$(flood)
diag "with _ B w: $_got of $N arrived"
check "... and with _ B w they arrive (the flood reaches B)" \
	test "$_got" -gt 0
revoke _
kill $T

# ---- fail closed ----
check_out "no check was skipped (misses 0)" "misses 0" grep '^misses ' $SF/status
kill $PEER
check "smackfuse.ko unloads" rmmod smackfuse
done_testing
