# guest-nfs.sh - a smackfuse mount re-exported over NFS (issue 31, item 4:
# "how a compartment tree is shared to a second host"), on the booted
# Debian 12 or 13 host (debian-host.test runs it after guest-host.sh; the image
# has nfs-kernel-server and Debian's nfsd/nfsv4 modules, debian-image.sh),
# as root under systemd.  The second host is this one: the export is
# mounted over NFSv4.2 on loopback.
#
# The tree is a tmpfs of its own (inode32: its handles fit a node id, and
# the root of a filesystem resolves every handle: KNOWN-GAPS 11), labelled
# per user; smackfuse runs over it with the users map "* %u" and the rules
# "nfsbob nfsalice rx" (bob may read alice's files, nothing else crosses).
# knfsd exports the smackfuse mount (fsid=, no_subtree_check, sec=sys,
# root_squash: root on the client is nobody, whose label "nobody" has no
# rule, as a second host's root must not override the compartments of
# this one), and every access is made as each user twice, through the NFS
# mount and through the smackfuse mount directly, with the same outcome.
#
# What label nfsd's requests get: nfsd serves a client's request in a
# kernel thread with override credentials (nfsd_setuser(): the client's
# uid as fsuid, its groups; CAP_MAC_OVERRIDE and the other file
# capabilities dropped for any fsuid but 0); FUSE sends that fsuid, and
# the users map labels the request by it: alice's NFS requests are
# decided as "nfsalice", exactly as her processes on the smackfuse mount.
# /proc shows the thread's own credentials, not the override: CapEff is
# the kernel's full set, so a daemon that took privilege from it let
# every NFS client override every rule (CAP_MAC_OVERRIDE): the hole this
# test found, closed in src/fuse/subject.c (a kernel thread has no
# capability there; the daemon says so once in the log, asserted below).
# Mainline Smack on an exporting host decides every NFS request as the
# nfsd thread's own task label, the floor "_" (smack_init() gives it to
# the kernel's tasks, kthreadd's children inherit it), whatever the
# client's user: an NFS client then reads only "_" (and "*", "^"-readable)
# objects, writes nothing labelled otherwise, and its creates are
# labelled "_"; only fsuid 0 (no_root_squash) overrides everything, with
# the CAP_MAC_OVERRIDE nfsd raises for it.  smackfuse with subject=users
# is finer (per client user, as on this host), never wider: no NFS
# request carries privilege.  With subject=smack or kmod the label is the
# thread's, as in mainline.
#
# Directory search: knfsd reaches an object by its handle, and the search
# of the directories above it is not checked as a local walk checks it
# (open_by_handle_at(2) semantics; smackfuse(8)).  carol, with "r" but no
# "x" on alice's label, is refused alice's file through the smackfuse
# mount (the walk's search) and, through NFS, refused it or not depending
# on what the NFS client and nfsd hold (measured: refused on a fresh
# mount, allowed right after alice opened the file through NFS); said in
# a diag line, not asserted: the object's own label is what every NFS
# point here asserts.
#
# File handles: the NFS client keeps the handles it got (no remount) while
# the daemon is stopped and started again on the same tree and mount
# point and the tree is exported again; its next stat and read go by
# those handles (nfsd decodes them: LOOKUP of "." in the node id, which
# is the backing tmpfs handle, src/fuse/handle.c) and must work, as the
# issue promises; a handle of a file removed meanwhile is ENOENT (the
# client's retry by name after ESTALE) or ESTALE.  The client mounts with
# actimeo=0, so that each stat goes to the server by handle.  NFSv4
# delegations are off (fs.leases-enable=0): one may keep a file of the
# mount open in nfsd across exportfs -u.
#
# Measured (TCG): guest-nfs.sh 11-24 s; passes on Debian 12 (6.1) and 13
# (6.12, 7.3).  With the daemon of
# before the fix (5763bc5's subject.c) 12 points fail: every NFS user,
# root squashed to nobody too, read, wrote and created what the rules
# refuse, and through the smackfuse mount the same users were refused.
. /usr/local/lib/sfhost/tap.sh
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
B=/srv/nfsback		# the backing tree (tmpfs)
M=/srv/nfsmnt		# the smackfuse mount (exported)
N=/mnt/nfs		# the NFS mount of it
E=/etc/sfnfs		# the daemon's policy directory
LOG=/tmp/sfnfs.log
up() { cut -d' ' -f1 /proc/uptime; }
T0=$(up)

if ! command -v exportfs >/dev/null || ! modprobe -n nfsd 2>/dev/null; then
	skip "no NFS server in this image (nfs-kernel-server and nfsd: debian-image.sh)"
	done_testing
fi
# Three users; their names are their labels (* %u).
for u in nfsalice nfsbob nfscarol; do id $u >/dev/null 2>&1 || useradd -M -s /bin/sh $u; done
# as USER CMD...: CMD with USER's uid, gid and groups (no login session).
as() { _u=$1; shift; setpriv --reuid "$_u" --regid "$_u" --init-groups "$@"; }
# errno_of USER CMD...: "ok", or the error CMD's stderr names.
errno_of() {
	_o=$(as "$@" 2>&1 >/dev/null) && { echo ok; return; }
	case $_o in
	*"Permission denied"*) echo EACCES ;;
	*"Stale file handle"*) echo ESTALE ;;
	*"No such file"*) echo ENOENT ;;
	*) echo "other: $_o" ;;
	esac
}
label() { getfattr --absolute-names --only-values -n security.SMACK64 "$1" 2>&1; }

mkdir -p $B $M $N $E/accesses.d
mount -t tmpfs -o size=16m,inode32,mode=755 sfnfsback $B ||
	{ not_ok "tmpfs mounted on $B"; done_testing; }
for u in nfsalice nfsbob; do
	mkdir $B/$u
	echo "secret of $u" >$B/$u/secret
	echo "kept by $u" >$B/$u/kept
	chown -R $u:$u $B/$u
	chmod 755 $B/$u; chmod 644 $B/$u/secret $B/$u/kept
	for f in $B/$u $B/$u/secret $B/$u/kept; do setfattr -n security.SMACK64 -v $u $f; done
done
# DAC lets bob write there: only the rule stops him
chmod 777 $B/nfsalice; chmod 666 $B/nfsalice/secret
echo '* %u' >$E/users
printf 'nfsbob nfsalice rx\nnfscarol nfsalice r\n' >$E/accesses.d/nfs

start_daemon() {
	smackfuse -f -o subject=users --etc $E $B $M >>$LOG 2>&1 &
	SFPID=$!
	wait_mounted $M
}
start_daemon || { not_ok "smackfuse mounted $B on $M"; sed 's/^/# /' $LOG; done_testing; }
ok "smackfuse mounted $B on $M (subject=users, * %u)"
check "the mount's handles are the backing tree's (status: file handles: backing ...)" \
	sh -c "smackfusectl --mount $M status | grep -q '^file handles: backing'"

# The NFS server: no delegations (a delegation keeps a file of the mount
# open in nfsd across the daemon's restart), short lease and grace (the
# client's state after the restart is not waited for).
echo 0 >/proc/sys/fs/leases-enable
mkdir -p /etc/exports.d
echo "$M 127.0.0.1(rw,fsid=4711,no_subtree_check,sec=sys,root_squash)" >/etc/exports.d/sfnfs.exports
mkdir -p /etc/nfs.conf.d
printf '[nfsd]\nvers3=n\nlease-time=10\ngrace-time=10\nthreads=4\n' >/etc/nfs.conf.d/sfnfs.conf
T1=$(up)
check "systemctl start nfs-server" systemctl start nfs-server
check_out "exportfs lists the smackfuse mount" "$M" sh -c "exportfs | awk 'NR == 1 { print \$1 }'"
check "mount -t nfs4 127.0.0.1:$M $N" mount -t nfs4 -o vers=4.2,sec=sys,actimeo=0 127.0.0.1:$M $N
diag "nfs-server and the NFS mount took $(awk -v a="$T1" -v b="$(up)" 'BEGIN { print b - a }') s"

# --- the same accesses through NFS and through the smackfuse mount
# same DESC WANT USER CMD-WITH-@: CMD run with @ as $N, then as $M: both
# must give WANT.
same() {
	_sd=$1 _sw=$2 _su=$3; shift 3
	for _via in nfs fuse; do
		[ $_via = nfs ] && _r=$N || _r=$M
		_c=$(echo "$*" | sed "s#@#$_r#g")
		check_out "$_sd ($_via)" "$_sw" errno_of "$_su" sh -c "$_c"
	done
}
same "alice reads her file" ok nfsalice 'cat @/nfsalice/secret'
same "bob reads alice's file (rule: nfsbob nfsalice rx)" ok nfsbob 'cat @/nfsalice/secret'
same "alice is refused bob's file: EACCES (no rule)" EACCES nfsalice 'cat @/nfsbob/secret'
same "bob is refused a write to alice's file (mode 666): EACCES (rx only)" EACCES nfsbob 'echo x >>@/nfsalice/secret'
same "bob is refused a create in alice's directory (mode 777): EACCES" EACCES nfsbob 'echo x >@/nfsalice/bob-was-here'
same "alice is refused a listing of bob's directory: EACCES" EACCES nfsalice 'ls @/nfsbob'
check_out "alice's file is unchanged on the backing tree" "secret of nfsalice" cat $B/nfsalice/secret
check_fails "bob left nothing in alice's directory" test -e $B/nfsalice/bob-was-here
# root on the client is nobody (root_squash): no label of its own, no
# privilege; root on the smackfuse mount directly has CAP_MAC_OVERRIDE.
check_out "root through NFS (squashed to nobody) is refused alice's file: EACCES" EACCES \
	errno_of root sh -c "cat $N/nfsalice/secret"
check_out "root through the smackfuse mount reads it (CAP_MAC_OVERRIDE)" ok \
	errno_of root sh -c "cat $M/nfsalice/secret"
# nfsd's requests are kernel threads': said once in the log, with no
# privilege taken from them.
check "the daemon said it gives nfsd's kernel threads no capability" \
	sh -c "{ cat $LOG; journalctl -b -q --no-pager -t smackfuse; } 2>/dev/null |
		grep -q 'request from kernel thread .*no capability'"

diag "carol (r on alice's files, no x on her directory), not asserted: nfs $(errno_of nfscarol cat $N/nfsalice/secret), fuse $(errno_of nfscarol cat $M/nfsalice/secret)"
# The audit lines name the subject of nfsd's requests: the client
# user's label, not the thread's.
check "the audit line of alice's refusal through NFS: subject nfsalice, comm nfsd" \
	grep -q 'action=denied subject="nfsalice" object="nfsbob" .*comm="nfsd"' $LOG

# --- creates through NFS carry the creator's label on the backing tree
check "alice creates a file through NFS" as nfsalice sh -c "echo new >$N/nfsalice/via-nfs"
check_out "... labelled nfsalice on the backing tree" nfsalice label $B/nfsalice/via-nfs
check "bob creates a directory through NFS" as nfsbob mkdir $N/nfsbob/dir-nfs
check_out "... labelled nfsbob on the backing tree" nfsbob label $B/nfsbob/dir-nfs
check_out "... owned by bob" "$(id -u nfsbob)" stat -c %u $B/nfsbob/dir-nfs
check_out "bob's new directory is closed to alice through NFS: EACCES" EACCES \
	errno_of nfsalice ls $N/nfsbob/dir-nfs

# --- the daemon restarts; the client's handles are kept
# The client has looked up and read these; it keeps their handles.
as nfsalice stat $N/nfsalice/kept $N/nfsalice/via-nfs >/dev/null
as nfsbob stat $N/nfsbob/kept >/dev/null
as nfsalice sh -c "echo doomed >$N/nfsalice/doomed"
# alice holds her directory open on the client across the restart, and
# lists it by that descriptor (its handle) once told to.
rm -f /tmp/sfnfs.go /tmp/sfnfs.ls
as nfsalice sh -c "exec 7<$N/nfsalice || exit 1
	while [ ! -e /tmp/sfnfs.go ]; do sleep 0.2; done
	ls /proc/self/fd/7/ >/tmp/sfnfs.ls 2>&1; echo rc=\$? >>/tmp/sfnfs.ls" &
HOLDER=$!
INO=$(as nfsalice stat -c %i $N/nfsalice/kept)
T2=$(up)
exportfs -ua
# nfsd lets go of the mount's files when it is no longer exported;
# SIGTERM: the daemon unmounts and exits 0.
kill -TERM $SFPID
wait $SFPID
check_out "the daemon stopped (SIGTERM: exit 0)" 0 echo $?
rm $B/nfsalice/doomed	# removed while no daemon ran
i=0
while grep -q " $M " /proc/mounts && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
check_fails "$M is unmounted" grep -q " $M " /proc/mounts
start_daemon
check "a new daemon mounted the same tree on $M" grep -q " $M fuse" /proc/mounts
check "exportfs -a exports it again" exportfs -a
diag "stop, start and export took $(awk -v a="$T2" -v b="$(up)" 'BEGIN { print b - a }') s"
# Through the handles the client kept (no new lookup by name of these:
# the client revalidates its cached entries by handle).
check_out "after the restart: the client stats alice's file by its old handle (same inode)" \
	"$INO" as nfsalice stat -c %i $N/nfsalice/kept
check_out "... alice reads it" ok errno_of nfsalice cat $N/nfsalice/kept
check_out "... bob reads it (his rule)" ok errno_of nfsbob cat $N/nfsalice/kept
check_out "... alice is still refused bob's file: EACCES" EACCES errno_of nfsalice cat $N/nfsbob/kept
check_out "... alice reads the file she created through NFS" ok errno_of nfsalice cat $N/nfsalice/via-nfs
touch /tmp/sfnfs.go
wait $HOLDER
check_out "... the directory alice held open on the client lists by its handle" \
	"$(ls $B/nfsalice | sort | tr '\n' ' ')rc=0 " sh -c "tr '\n' ' ' </tmp/sfnfs.ls"
R=$(errno_of nfsalice cat $N/nfsalice/doomed)
diag "the file removed while no daemon ran, by its old handle: $R"
check_out "... the file removed meanwhile: ESTALE or ENOENT, never another file" ok \
	sh -c "case $R in ESTALE|ENOENT) echo ok ;; *) echo '$R' ;; esac"
check "... alice creates through NFS again" as nfsalice sh -c "echo again >$N/nfsalice/after"
check_out "... labelled nfsalice" nfsalice label $B/nfsalice/after

umount $N
systemctl stop nfs-server
exportfs -ua 2>/dev/null
kill -TERM $SFPID; wait $SFPID
umount $B 2>/dev/null
{ cat $LOG; journalctl -b -q --no-pager -t smackfuse; } 2>/dev/null |
	sed -n '/kernel thread/s/^/# daemon: /p' | head -n 3
diag "guest-nfs.sh took $(awk -v a="$T0" -v b="$(up)" 'BEGIN { print b - a }') s"
done_testing
