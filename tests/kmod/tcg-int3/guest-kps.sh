# guest-kps.sh - run kpstress.ko kps_rounds= times (kps_iters= cycles each,
# kps_mode=0|1) while kps_forkers= shell loops fork on both vCPUs.
. /lib/sfq/tap.sh
R=5 I=300 M=0 F=3
for a in $(cat /proc/cmdline); do
	case "$a" in
	kps_rounds=*) R=${a#kps_rounds=} ;;
	kps_iters=*) I=${a#kps_iters=} ;;
	kps_mode=*) M=${a#kps_mode=} ;;
	kps_forkers=*) F=${a#kps_forkers=} ;;
	esac
done
P= n=0
while [ $n -lt $F ]; do
	(while :; do ( : ); done) &
	P="$P $!"
	n=$((n + 1))
done
r=0
while [ $r -lt $R ]; do
	r=$((r + 1))
	insmod /lib/modules/kpstress.ko iters=$I mode=$M 2>/dev/null
done
kill $P
# (busybox insmod loaded it twice per call here, the init failing: count
# what the kernel log says ran)
n=$(dmesg | grep -c 'kpstress: done')
t=$(dmesg | grep 'kpstress: done' | awk '{ s += $NF } END { print s + 0 }')
diag "$n loads x $I arm/disarm cycles, handlers entered from int3: $t"
ok "the guest survived"
done_testing
