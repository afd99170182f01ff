# guest-requests.sh - guest half of bench/requests-guest.sh: bench/fs.sh's
# small-file workloads (fsbench's phases, N files in 100 directories on
# the guest's tmpfs) through smackfuse and bindfs side by side in one boot,
# timed and counted.  Configurations, as root:
#   one      smackfuse, users map "* _" (one label for every caller)
#   peruser  smackfuse, users map "* %u" (root is labelled "root")
#   bindfs   bindfs -o allow_other
# then, with smackfuse.ko loaded:
#   kmod     smackfuse -o subject=kmod, the bench labelled "root" by the
#            module (smackrun): the per-user case with the module
#   kmod-uring the same over FUSE's io_uring, on a kernel that has it
#            (6.14+: the fuse module's enable_uring is set to Y)
#   bindfs-k bindfs again, next to it under the module's probes
# Each round runs every phase on every configuration of its group in turn.
# Prints "@req ROUND CONFIG PHASE SECONDS" and, from the last round,
# "@cnt CONFIG PHASE TYPE N" (smackfuse's status file; bindfs's requests
# from a separate pass with -d, whose lines are counted per phase).
. /lib/sfq/tap.sh
N=$(sed -n 's/.*sfq_req_n=\([0-9]*\).*/\1/p' /proc/cmdline)
N=${N:-500}
R=$(sed -n 's/.*sfq_req_rounds=\([0-9]*\).*/\1/p' /proc/cmdline)
R=${R:-3}
FSB=$(command -v fsbench)
PHASES="create stat stat-again unlink small-setup read-cold read-warm"

echo "@kernel $(uname -r)"
check "fuse.ko loads" load_fuse
mkdir -p /tmp/rules
: >/tmp/rules/empty
echo '* _' >/tmp/users.one
echo '* %u' >/tmp/users.pu
RUNAS=

mount_cfg() {	# CONFIG
	mkdir -p /tmp/src-$1 /mnt/$1 /tmp/ctl-$1
	case $1 in
	one|peruser)
		map=pu
		[ $1 = one ] && map=one
		smackfuse --rules /tmp/rules -o subject=users -o uring=off \
			-o users=/tmp/users.$map -o control=/tmp/ctl-$1 \
			/tmp/src-$1 /mnt/$1 2>/dev/null ;;
	kmod)
		smackfuse --rules /tmp/rules -o subject=kmod -o uring=off \
			-o control=/tmp/ctl-$1 /tmp/src-$1 /mnt/$1 2>/dev/null ;;
	kmod-uring)
		smackfuse --rules /tmp/rules -o subject=kmod -o uring=auto \
			-o control=/tmp/ctl-$1 /tmp/src-$1 /mnt/$1 2>/dev/null &&
		wait_ctl $1 &&
		grep -q '^transport: io_uring' /tmp/ctl-$1/status ;;
	bindfs*)
		bindfs -o allow_other /tmp/src-$1 /mnt/$1 ;;
	esac
}

# The status file appears a moment after the mount.
wait_ctl() {
	i=0
	while [ ! -e /tmp/ctl-$1/status ] && [ $i -lt 100 ]; do
		sleep 0.1; i=$((i + 1))
	done
}

counts() {	# CONFIG: "TYPE N" lines so far
	sed -n 's/^requests: //p' /tmp/ctl-$1/status |
		awk '{ for (i = 1; i < NF; i += 2) print $i, $(i + 1) }'
}

# phase CONFIG NAME: one of fs.sh's workloads, timed ("SECONDS").
phase() {
	case $2 in
	create) a="create $N" ;;
	stat|stat-again) a="stat $N" ;;
	unlink) a="unlink $N" ;;
	small-setup) a="small-setup $N" ;;
	read-*) a="small-read $N" ;;
	esac
	case $2 in
	stat|unlink) sleep 1.2 ;;	# the 1 s caches run out
	read-cold) echo 3 >/proc/sys/vm/drop_caches ;;
	esac
	$RUNAS $FSB /mnt/$1 $a | awk '{ print $2 }'
}

# one_phase ROUND ROUNDS CONFIG PHASE: timed, and counted in the last
# round.
one_phase() {
	case $3 in bindfs*) ;; *)
		wait_ctl $3
		counts $3 >/tmp/before.$3 ;;
	esac
	echo "@req $1 $3 $4 $(phase $3 $4)"
	sleep 0.3
	case $3 in bindfs*) ;; *)
		[ $1 = $2 ] || return 0
		counts $3 | awk -v c=$3 -v ph=$4 '
			FILENAME == ARGV[1] { b[$1] = $2; next }
			$2 - b[$1] > 0 { print "@cnt", c, ph, $1, $2 - b[$1] }' \
			/tmp/before.$3 - ;;
	esac
}

# group ROUNDS CONFIG...: every phase on every config, ROUNDS times (a
# phase and the one that repeats it at once, stat-again and read-warm,
# back to back on each config); the last round counted.
group() {
	rounds=$1
	shift
	for c in "$@"; do
		mount_cfg $c || { not_ok "$c mounts"; return 1; }
		stat /mnt/$c >/dev/null
		$RUNAS $FSB /mnt/$c create 1 >/dev/null
		$RUNAS $FSB /mnt/$c unlink 1 >/dev/null
	done
	for r in $(seq $rounds); do
		for step in create stat,stat-again unlink small-setup \
			read-cold,read-warm; do
			for c in "$@"; do
				for ph in $(echo $step | tr , ' '); do
					one_phase $r $rounds $c $ph
				done
			done
		done
		# small-setup's files have create's names (O_EXCL)
		for c in "$@"; do
			$RUNAS $FSB /mnt/$c unlink $N >/dev/null
		done
	done
	for c in "$@"; do umount /mnt/$c; rm -rf /tmp/src-$c; done
}

# bindfs -d: its requests per phase, from the debug lines ("unique: N,
# opcode: NAME (n), ...") written during each phase.
bindfs_counts() {	# CONFIG
	mkdir -p /tmp/src-$1 /mnt/$1
	bindfs -d -o allow_other /tmp/src-$1 /mnt/$1 >/tmp/bindfs.log 2>&1 &
	bpid=$!
	i=0
	while ! grep -q " /mnt/$1 " /proc/mounts; do
		sleep 0.1; i=$((i + 1)); [ $i -lt 100 ] || break
	done
	$RUNAS $FSB /mnt/$1 create 1 >/dev/null
	$RUNAS $FSB /mnt/$1 unlink 1 >/dev/null
	for ph in $PHASES; do
		sleep 0.3
		before=$(wc -l </tmp/bindfs.log)
		phase $1 $ph >/dev/null
		sleep 0.3
		tail -n +$((before + 1)) /tmp/bindfs.log |
			sed -n 's/^unique: [0-9]*, opcode: \([A-Z_]*\) .*/\1/p' |
			sort | uniq -c |
			awk -v c=$1 -v ph=$ph '{ print "@cnt", c, ph, $2, $1 }'
	done
	umount /mnt/$1
	kill $bpid 2>/dev/null
	wait $bpid 2>/dev/null
	rm -rf /tmp/src-$1
}

group $R one peruser bindfs
bindfs_counts bindfs
if insmod /lib/modules/smackfuse.ko; then
	ok "smackfuse.ko loads"
	RUNAS="smackrun root"
	UR=/sys/module/fuse/parameters/enable_uring
	if [ -w $UR ] && echo Y >$UR; then
		group $R kmod kmod-uring bindfs-k
	else
		group $R kmod bindfs-k
	fi
	bindfs_counts bindfs-k
	RUNAS=
else
	not_ok "smackfuse.ko loads"
fi
ok "the workloads ran"
done_testing
