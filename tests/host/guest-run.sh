#!/bin/sh
# guest-run.sh - the booted Debian host's test runner (/usr/local/lib/sfhost/run,
# started by sfhost-test.service once multi-user.target is reached).
# Runs each test named in /usr/local/lib/sfhost/list and reports on the
# second serial port with the channel lines of tests/qemu/init (SFQ-BOOT,
# SFQ-BEGIN, "SFQ:<name>: <line>", SFQ-END rc=, SFQ-DONE), which
# tests/qemu/tap-extract.awk turns into host TAP points; then ends the
# guest at once (reboot -ff; qemu runs with -no-reboot).
L=/usr/local/lib/sfhost
up() { cut -d' ' -f1 /proc/uptime; }
if [ -c /dev/ttyS1 ] && (: >/dev/ttyS1) 2>/dev/null; then
	exec 3>/dev/ttyS1
	stty -F /dev/ttyS1 raw -echo 2>/dev/null
else
	exec 3>/dev/console
fi
TMO=$(cat $L/timeout 2>/dev/null || echo 600)
echo "SFQ-BOOT kernel=$(uname -r) uptime=$(up) systemd=$(systemctl is-system-running 2>&1)" >&3
# The kernel command line may name the tests of this boot
# (sfhost.tests=a,b: debian-host.test boots twice when DKMS builds the
# module), else the list the host staged.
LIST=$(sed -n 's/.*sfhost\.tests=\([^ ]*\).*/\1/p' /proc/cmdline | tr , ' ')
[ -n "$LIST" ] || LIST=$(cat $L/list)
for t in $LIST; do
	echo "SFQ-BEGIN $t" >&3
	(cd /tmp && exec timeout "$TMO" sh "$L/tests/$t.sh") \
		</dev/null >"/tmp/sfq-$t.out" 2>&1 3>&-
	rc=$?
	sed "s/^/SFQ:$t: /" "/tmp/sfq-$t.out" >&3
	echo "SFQ-END $t rc=$rc" >&3
done
done_line="SFQ-DONE uptime=$(up)"
echo "$done_line" >&3
# The console too: the reboot can cut the channel's last bytes short
# (debian-host.test then reads this line there).
echo "$done_line" >/dev/console
exec 3>&-
sync
systemctl reboot -ff
