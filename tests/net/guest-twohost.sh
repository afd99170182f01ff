# guest-twohost.sh - one of two hosts on a virtual wire (tests/net/
# twohost.sh): a Smack kernel (sfnet.kind=smack) or a Debian kernel with
# smackfuse.ko (sfnet.kind=kmod), host 1 or 2 (sfnet.me).  Both hosts load
# the same policy; each in turn receives while the other sends the same
# rows.  A row's outcome is data for the host ("@row DIR NAME send=..."
# from the sender, "@row DIR NAME recv=..." from the receiver, DIR as
# 1to2; "h1" and "h2" for SO_PEERSEC on a host's own UNIX streams),
# compared there with two Smack kernels' rows.  Setup and the barriers
# are points of their own.
. /lib/sfq/tap.sh
U=1000
ME=$(sed -n 's/.*sfnet\.me=\([12]\).*/\1/p' /proc/cmdline)
KIND=$(sed -n 's/.*sfnet\.kind=\([a-z]*\).*/\1/p' /proc/cmdline)
OTHER=$((3 - ME))

# ---- the host: its control files, its NIC, the shared policy ----
case $KIND in
smack)
	C=/sys/fs/smackfs
	mkdir -p $C
	check "host $ME: Smack is the kernel's LSM" grep -qw smack /sys/kernel/security/lsm
	check "host $ME: smackfs mounted" mount -t smackfs smackfs $C
	;;
kmod)
	C=/sys/kernel/security/smackfuse
	check "host $ME: the virtio NIC's modules load" load_kmods
	check "host $ME: smackfuse.ko loads" insmod /lib/modules/smackfuse.ko
	check "host $ME: the module checks arriving packets" grep -qx rcv_check $C/features
	;;
*)
	not_ok "sfnet.kind=smack or kmod on the command line (got '$KIND')"
	done_testing
	;;
esac
check "host $ME: smacknl smack-setup (DOI 3, ambient _)" smacknl smack-setup
put() { printf '%s' "$2" >"$C/$1"; }
check "host $ME: rules A B w, A Unl w, C D w, D C w" sh -c \
	"printf 'A B w\n' >$C/load2 && printf 'A Unl w\n' >$C/load2 && \
	 printf 'C D w\n' >$C/load2 && printf 'D C w\n' >$C/load2"
check "host $ME: cipso2 maps Secret to level 3, categories 5 and 7" \
	put cipso2 "Secret 3   2   5   7"
# the other host's second address is an unlabelled host labelled Unl
check "host $ME: netlabel 10.0.9.1$OTHER/32 Unl" put netlabel "10.0.9.1$OTHER/32 Unl"
ip link set lo up
echo 0 >/proc/sys/net/ipv6/conf/eth0/accept_dad
check "host $ME: eth0 up as 10.0.9.$ME, 10.0.9.1$ME and fd00:9::$ME" sh -c \
	"ip addr add 10.0.9.$ME/24 dev eth0 && ip addr add 10.0.9.1$ME/24 dev eth0 && \
	 ip -6 addr add fd00:9::$ME/64 dev eth0 && ip link set eth0 up"

# barrier N: both hosts got here.  Host 1 accepts on port 7000+N, host 2
# connects until it is let in (as root, label _: unlabelled both ways).
barrier() {
	if [ "$ME" = 1 ]; then
		check_out "barrier $1: host 2 arrived" got sh -c \
			"rcvpeer tcp-accept 0.0.0.0 $((7000 + $1)) 240 | grep -vx ready"
	else
		_i=0 _o=
		while [ $_i -lt 600 ]; do
			_o=$(rcvpeer tcp-send 10.0.9.1 $((7000 + $1)) 2)
			[ "$_o" = OK ] && break
			sleep 0.2; _i=$((_i + 1))
		done
		check_out "barrier $1: host 1 arrived" OK echo "$_o"
	fi
}

# The rows: NAME PROTO PORT SENDER-LABEL RECEIVER-LABEL ADDRESS, where
# ADDRESS is "l" (the receiver's labelled address), "u" (its second one,
# an unlabelled host to the sender) or "6" (its IPv6 address: Smack puts
# no label on IPv6 between hosts; it arrives as the ambient label).
ROWS="u-A-A udp 7101 A A l
u-A-B udp 7102 A B l
u-A-C udp 7103 A C l
u-Secret-Secret udp 7104 Secret Secret l
u-Secret-A udp 7105 Secret A l
u-amb-amb udp 7106 _ _ l
u-amb-B udp 7107 _ B l
u-A-unl-amb udp 7108 A _ u
u-C-unl-amb udp 7109 C _ u
u-A-unl-A udp 7110 A A u
t-A-A tcp 7201 A A l
t-A-B tcp 7202 A B l
t-A-C tcp 7203 A C l
t-Secret-Secret tcp 7204 Secret Secret l
t-amb-amb tcp 7205 _ _ l
t-C-D tcp 7206 C D l
u6-A-A udp 7301 A A 6
u6-amb-amb udp 7302 _ _ 6
t6-A-A tcp 7303 A A 6
t6-amb-amb tcp 7304 _ _ 6"
echo "$ROWS" >/tmp/rows

# receive: start every row's receiver, labelled, as uid 1000 (in this
# shell, not a pipeline's, so that collect's wait waits for them).
receive() {
	while read -r _n _p _port _s _r _a; do
		case $_p$_a in
		udp6) _op=udp-recv _b=:: ;;
		udp*) _op=udp-sec _b=0.0.0.0 ;;
		# mainline's IPv6 listener leaves the request's peer_secid
		# as the slab had it: SO_PEERSEC reads "" or "?" by chance
		tcp6) _op=tcp-accept _b=:: ;;
		tcp*) _op=tcp-peer _b=0.0.0.0 ;;
		esac
		smackrun -u $U "$_r" rcvpeer $_op $_b "$_port" 240 </dev/null \
			>/tmp/r.$_n 2>&1 &
		echo $! >/tmp/pid.$_n
	done </tmp/rows
	while read -r _n _rest; do
		_i=0
		while ! grep -qs ready /tmp/r.$_n && [ $_i -lt 200 ]; do
			sleep 0.1; _i=$((_i + 1))
		done
	done </tmp/rows
}

# collect DIR: each receiver takes a last look and says what arrived.
collect() {
	sleep 1
	while read -r _n _rest; do
		kill -TERM "$(cat /tmp/pid.$_n)" 2>/dev/null
	done </tmp/rows
	wait
	while read -r _n _rest; do
		echo "@row $1 $_n recv=$(grep -v ready /tmp/r.$_n | tr ' ' :)"
	done </tmp/rows
}

# send DIR: every row from this host, labelled, as uid 1000.
send() {
	while read -r _n _p _port _s _r _a; do
		_to=10.0.9.$OTHER
		[ "$_a" = u ] && _to=10.0.9.1$OTHER
		[ "$_a" = 6 ] && _to=fd00:9::$OTHER
		case $_p in
		udp) _o=$(smackrun -u $U "$_s" rcvpeer udp-send $_to "$_port" </dev/null 2>&1) ;;
		tcp) _o=$(smackrun -u $U "$_s" rcvpeer tcp-send-peer $_to "$_port" 3 </dev/null 2>&1) ;;
		esac
		echo "@row $1 $_n send=$(echo $_o | tr ' ' :)"
	done </tmp/rows
}

# SO_PEERSEC on this host's own UNIX streams (connect, accept, socketpair)
echo "@row h$ME unix-A send=$(smackrun -u $U A rcvpeer unix-peers h $ME 2>&1 | tr ' ' :)"
echo "@row h$ME unix-A recv=local"
barrier 1
[ "$ME" = 1 ] && receive
barrier 2
[ "$ME" = 2 ] && send 2to1
barrier 3
[ "$ME" = 1 ] && collect 2to1
[ "$ME" = 2 ] && receive
barrier 4
[ "$ME" = 1 ] && send 1to2
barrier 5
[ "$ME" = 2 ] && collect 1to2
done_testing
