# guest-host.sh - the shared-host scenario on a booted Debian 12 (issue 18)
# or 13 (issue 27), run by guest-run.sh as root under systemd.  smackfuse was installed from
# its Debian package (guest-install.sh ran `dpkg -i` just before: /usr/sbin,
# /lib/systemd/system, /etc/smackfuse) or, when no package could be built,
# with `make install` (the host test copied its DESTDIR into /: /usr/local);
# the paths below come from what is installed.  smackfuse.ko is under
# /lib/modules/$(uname -r)/extra and /etc/modules-load.d names it.
# Users alice, bob and carol get per-user compartments (* %u); their
# processes are labelled as a login would label them (smackrun -u UID
# LABEL, until pam_smackfuse does it at login).
. /usr/local/lib/sfhost/tap.sh
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
SF=/sys/kernel/security/smackfuse
T=/srv/data
U=smackfuse@$(systemd-escape --path $T).service

diag "booted: $(systemd-analyze time 2>/dev/null | head -n 1)"
systemd-analyze blame 2>/dev/null | head -n 5 | while read -r l; do diag "blame: $l"; done

# --- the module loads at boot (modules-load.d), before the unit starts
check "systemd-modules-load.service succeeded at boot" \
	sh -c 'systemctl show -p Result --value systemd-modules-load.service | grep -qx success'
check "smackfuse.ko was loaded by modules-load.d at boot" \
	grep -q '^smackfuse ' /proc/modules
check "$SF/current exists (the module runs)" test -r $SF/current
check "$U starts after systemd-modules-load.service" \
	sh -c "systemctl show -p After $U | grep -q systemd-modules-load.service"
if dpkg-query -W -f '${Status}' smackfuse-dkms 2>/dev/null | grep -q 'ok installed'; then
	# The module has no version, so /sys/module tells no srcversion:
	# DKMS's must be the only smackfuse.ko there is to load.
	K=$(uname -r)
	# (compressed as the kernel's own modules are, by DKMS 3.2 on Debian 13)
	check "the module loaded at boot is DKMS's, the only one for $K" \
		sh -c "find /lib/modules/$K -name 'smackfuse.ko*' >/tmp/kos; sed 's/^/# /' /tmp/kos
			[ \$(wc -l </tmp/kos) = 1 ] || exit 1
			case \$(cat /tmp/kos) in
			/lib/modules/$K/updates/dkms/smackfuse.ko|/lib/modules/$K/updates/dkms/smackfuse.ko.?z*) ;;
			*) exit 1 ;; esac"
fi

# --- users and the tree, as an administrator sets them up
for u in alice bob carol; do useradd -m -s /bin/sh $u; done
uid() { id -u "$1"; }
as() {	# as USER CMD...: run CMD as USER, labelled with the user's name
	_u=$1; shift
	smackrun -u "$(uid $_u):$(id -g $_u)" "$_u" "$@"
}
mkdir -p $T/pub
for u in alice bob carol; do
	mkdir -p $T/$u
	echo "secret of $u" >$T/$u/secret
	chown -R $u:$u $T/$u
	chmod 755 $T/$u; chmod 644 $T/$u/secret
	setfattr -n security.SMACK64 -v $u $T/$u
	setfattr -n security.SMACK64 -v $u $T/$u/secret
done
echo "for everyone" >$T/pub/readme
chmod 755 $T/pub; chmod 644 $T/pub/readme
# The policy directory the installed daemon reads ($(sysconfdir)/smackfuse).
E=$(smackfuse --help 2>&1 | sed -n 's/^.*users map (default \(.*\)\/users).*$/\1/p')
check "smackfuse --help names its policy directory ($E)" test -n "$E"
: "${E:=/etc/smackfuse}"
mkdir -p $E/accesses.d
echo '* %u' >$E/users
echo '# per-user compartments: no sharing' >$E/accesses.d/site
check "without smackfuse, carol reads alice's file (DAC allows it)" \
	as carol cat $T/alice/secret

# --- enable --now: mounted over itself, policy applied
T0=$(cut -d' ' -f1 /proc/uptime)
check "systemctl enable --now $U" systemctl enable --now $U
T1=$(cut -d' ' -f1 /proc/uptime)
diag "enable --now took $(awk -v a="$T0" -v b="$T1" 'BEGIN { print b - a }') s"
check "$U is active" systemctl is-active -q $U
SFBIN=$(command -v smackfuse)
check_out "the unit's daemon is the installed $SFBIN" "$SFBIN" \
	readlink /proc/"$(systemctl show -p MainPID --value $U)"/exe
check "$T is a smackfuse mount" sh -c "findmnt -n -o FSTYPE $T | tail -n 1 | grep -q '^fuse'"
check_out "alice reads her file" "secret of alice" as alice cat $T/alice/secret
check_fails "bob cannot read alice's file" as bob cat $T/alice/secret
check_fails "carol cannot read alice's file" as carol cat $T/alice/secret
check_fails "carol cannot list bob's directory" as carol ls $T/bob
check_fails "bob cannot write into carol's directory" as bob sh -c "echo x >$T/carol/new"
check "carol creates a file in her directory" as carol sh -c "echo mine >$T/carol/new"
check_out "... which carries her label" "carol" \
	getfattr --absolute-names --only-values -n security.SMACK64 /run/smackfuse-backing/$(systemd-escape --path $T)/carol/new
check_out "everyone reads the floor file" "for everyone" as bob cat $T/pub/readme

# --- compartments between processes (smackfuse.ko): IPC and sockets that
# DAC leaves open (a 0666 queue, an abstract socket) are closed by label
KACT=/usr/local/lib/sfhost/kact
if [ -x $KACT ]; then
	check_out "alice creates a message queue of mode 0666" OK as alice $KACT msg-create 0x5f01
	check_out "alice sends to her queue" OK as alice $KACT msgsnd 0x5f01
	check_out "bob cannot send to alice's queue (EACCES: Smack, not DAC)" EACCES as bob $KACT msgsnd 0x5f01
	check_out "carol cannot read alice's queue" EACCES as carol $KACT msgrcv 0x5f01
	as alice $KACT unix-listen sfhost-alice >/dev/null 2>&1 &
	LP=$!
	i=0
	while [ $i -lt 100 ] && ! grep -q '@sfhost-alice' /proc/net/unix; do
		sleep 0.1; i=$((i + 1))
	done
	check_out "alice connects to her abstract UNIX socket" OK as alice $KACT unix-connect sfhost-alice
	check_out "bob cannot connect to alice's abstract UNIX socket" EACCES as bob $KACT unix-connect sfhost-alice
	kill $LP 2>/dev/null
else
	skip "tests/kmod/kact not built: IPC and socket points"
fi

# A real login: sshd over loopback (its PAM stack includes common-session),
# alice with a key of her own; carol's login is denied alice's file.
ssh_login_points() {
	if ! systemctl is-active -q ssh; then
		skip "sshd not running: ssh login points"
		return
	fi
	for u in alice carol; do
		ssh-keygen -q -t ed25519 -N '' -f /root/key-$u
		install -d -o $u -g $u -m 700 /home/$u/.ssh
		install -o $u -g $u -m 600 /root/key-$u.pub /home/$u/.ssh/authorized_keys
	done
	login() {	# login USER CMD: a command over ssh as USER
		ssh -i /root/key-$1 -o BatchMode=yes -o StrictHostKeyChecking=no \
			-o UserKnownHostsFile=/dev/null -o LogLevel=ERROR "$1@127.0.0.1" "$2"
	}
	check_out "ssh alice@127.0.0.1: the session has the label alice" alice \
		login alice "cat $SF/current"
	check_out "ssh alice@127.0.0.1 reads her file" "secret of alice" \
		login alice "cat $T/alice/secret"
	check_out "ssh carol@127.0.0.1: the session has the label carol" carol \
		login carol "cat $SF/current"
	check_fails "ssh carol@127.0.0.1 cannot read alice's file" \
		login carol "cat $T/alice/secret"
}

# --- logins labelled by pam_smackfuse (common-session), as smackrun did
PAMSO=$(find /lib/x86_64-linux-gnu/security /usr/lib/x86_64-linux-gnu/security \
	/usr/local/lib/security -name pam_smackfuse.so 2>/dev/null | head -n 1)
if [ -n "$PAMSO" ]; then
	case "$PAMSO" in
	*/x86_64-linux-gnu/security/*) PAMLINE="session required pam_smackfuse.so" ;;
	*) PAMLINE="session required $PAMSO" ;;
	esac
	echo "$PAMLINE" >>/etc/pam.d/common-session
	check_out "su -l alice: the session has the label alice" alice \
		su -l alice -c "cat $SF/current"
	check_out "su -l bob: the session has the label bob" bob \
		su -l bob -c "cat $SF/current"
	check_out "su -l alice reads her file" "secret of alice" \
		su -l alice -c "cat $T/alice/secret"
	check_fails "su -l carol cannot read alice's file" \
		su -l carol -c "cat $T/alice/secret"
	check "pamtester login alice open_session succeeds" \
		pamtester login alice open_session
	ssh_login_points
	cp $E/users /tmp/users.good
	echo 'alice' >$E/users
	check_fails "a bad users map refuses the session (fail closed)" \
		su -l alice -c true
	cp /tmp/users.good $E/users
	check "... and the good map lets it in again" su -l alice -c true
else
	skip "pam_smackfuse.so not installed: login points"
fi

# --- reload applies a changed policy
echo 'bob alice rx' >>$E/accesses.d/site
check_fails "before reload bob still cannot read alice's file" as bob cat $T/alice/secret
check "systemctl reload $U" systemctl reload $U
check_out "after reload bob reads alice's file" "secret of alice" as bob cat $T/alice/secret
check_fails "... and carol still cannot" as carol cat $T/alice/secret
sed -i '/^bob alice rx$/d' $E/accesses.d/site
echo 'bob alice -' >>$E/accesses.d/site
systemctl reload $U
check_fails "a reload that removes the rule closes it again" as bob cat $T/alice/secret

# --- kill -9: restarted, enforced again, never open in between
mkdir -p /run/systemd/system/$U.d
printf '[Service]\nRestartSec=10\n' >/run/systemd/system/$U.d/slow.conf
systemctl daemon-reload
P1=$(systemctl show -p MainPID --value $U)
: >/tmp/reader.out
as carol sh -c "i=0; while [ ! -e /tmp/reader.stop ]; do
	i=\$((i + 1)); if cat $T/alice/secret >/dev/null 2>&1; then echo LEAK; else echo denied; fi
	done" >>/tmp/reader.out 2>&1 &
RP=$!
sleep 2
check "the daemon (pid $P1) is killed with SIGKILL" kill -9 "$P1"
sleep 1
check_fails "while it is dead, carol cannot read alice's file" as carol cat $T/alice/secret
check_fails "while it is dead, root cannot list the tree (dead mount)" ls $T
check_out "under the dead mount lies the guard: empty, mode 0, not the tree" "0 0" \
	unshare -m --propagation private sh -c "umount -l $T && echo \$(stat -c %a $T) \$(ls -A $T | wc -l)"
check_out "... all seen before the restart (no daemon yet)" 0 \
	systemctl show -p MainPID --value $U
i=0
while [ "$(systemctl show -p MainPID --value $U)" = "$P1" ] ||
	[ "$(systemctl show -p MainPID --value $U)" = 0 ] ||
	! systemctl is-active -q $U; do
	i=$((i + 1)); [ $i -lt 1200 ] || break; sleep 0.1
done
P2=$(systemctl show -p MainPID --value $U)
check "the unit restarted the daemon (pid $P1 -> $P2)" \
	sh -c "[ '$P2' != '$P1' ] && [ '$P2' != 0 ] && systemctl is-active -q $U"
sleep 2
touch /tmp/reader.stop; wait $RP
N=$(grep -c . /tmp/reader.out); L=$(grep -c LEAK /tmp/reader.out)
diag "reader: $N reads of alice's file by carol across the kill and restart, $L succeeded"
check "carol's reader loop ran across the kill and restart" test "$N" -gt 10
check "... and never read alice's file" test "$L" = 0
check_out "after the restart alice reads her file" "secret of alice" as alice cat $T/alice/secret
check_fails "after the restart carol cannot read alice's file" as carol cat $T/alice/secret
check_fails "after the restart bob cannot read alice's file (policy reapplied)" \
	as bob cat $T/alice/secret
rm -rf /run/systemd/system/$U.d; systemctl daemon-reload

# --- stop unmounts cleanly
check "systemctl stop $U" systemctl stop $U
check_fails "no FUSE mount is left on $T" sh -c "findmnt -n -o FSTYPE $T | grep -q ."
check_fails "no bind is left under /run/smackfuse-backing" \
	sh -c "findmnt -rn -o TARGET | grep -q '^/run/smackfuse-backing/'"
check_out "the tree is the plain directory again" "secret of alice" cat $T/alice/secret
check_out "$U is inactive, not failed" "inactive" systemctl is-active $U
done_testing
