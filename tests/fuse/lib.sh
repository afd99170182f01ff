# lib.sh - shared helpers of the smackfuse filesystem tests (sourced).
#
# TAP output, test users, the `as` helper, and mounting smackfuse from the
# build tree in the foreground (-f, audit lines to a log file) over a
# scratch source tree.  Everything is torn down by an EXIT trap.  The
# scratch directory holds the test's own (empty) policy directory and
# index of mounts (tests/hermetic/lib.sh): nothing reads the host's.

: "${top_builddir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_srcdir:=$top_builddir}"
. "$top_srcdir/tests/hermetic/lib.sh"
SMACKFUSE=${SMACKFUSE:-$top_builddir/smackfuse}
[ -x "$SMACKFUSE" ] || [ ! -x "$top_builddir/src/fuse/smackfuse" ] ||
	SMACKFUSE=$top_builddir/src/fuse/smackfuse
AS=${AS:-$top_builddir/tests/fuse/as}
EXAMPLES=$top_srcdir/etc/examples

tn=0
tfailed=0
plan() { echo "1..$1"; }
ok() { tn=$((tn + 1)); echo "ok $tn - $*"; }
notok() { tn=$((tn + 1)); tfailed=1; echo "not ok $tn - $*"; }
skip() { tn=$((tn + 1)); echo "ok $tn # SKIP $*"; }
diag() { sed 's/^/# /'; }
bail() { echo "Bail out! $*"; exit 1; }
done_testing() { echo "1..$tn"; exit $tfailed; }

# check "what" command...: ok if the command succeeds.
check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else notok "$what"; fi
}

# is GOT WANT "what"
is() {
	if [ "$1" = "$2" ]; then
		ok "$3"
	else
		notok "$3"
		printf 'got:  %s\nwant: %s\n' "$1" "$2" | diag
	fi
}

# as USER OP ARGS...: run one syscall as USER; prints errno name (+ data).
as() { "$AS" "$@"; }

# errno_of USER OP ARGS...: the errno name alone.
errno_of() { "$AS" "$@" 2>/dev/null | head -n 1; }

# as_line USER OP ARGS...: the outcome and its data on one line ("OK x",
# "EACCES"); the status is 0 only for OK.
as_line() {
	local out
	out=$("$AS" "$@" 2>&1)
	printf '%s\n' "$out" | paste -sd ' '
	[ "${out%%$'\n'*}" = OK ]
}

# expect_errno WANT "what" USER OP ARGS...
expect_errno() {
	local want=$1 what=$2 got
	shift 2
	got=$(errno_of "$@")
	is "$got" "$want" "$what ($want)"
}

# Test users and groups (tests/hermetic/lib.sh); idempotent.  sf_alice and
# sf_bob are in sf_staff; sf_carol in sf_ops.
TEST_USERS="sf_alice sf_bob sf_carol sf_dave sf_erin"
sf_group() { test_group "$1"; }
sf_user() { test_user "$@"; }
setup_users() {
	local u
	sf_group users
	sf_group sf_staff
	sf_group sf_ops
	for u in $TEST_USERS; do sf_user "$u" || bail "useradd $u"; done
	id -nG sf_alice | grep -qw sf_staff || usermod -aG sf_staff sf_alice
	id -nG sf_bob | grep -qw sf_staff || usermod -aG sf_staff sf_bob
	id -nG sf_carol | grep -qw sf_ops || usermod -aG sf_ops sf_carol
}

need_root() { [ "$(id -u)" = 0 ] || { echo "1..0 # SKIP not root"; exit 0; }; }
need_fuse() {
	[ -c /dev/fuse ] || { echo "1..0 # SKIP no /dev/fuse"; exit 0; }
	[ -x "$SMACKFUSE" ] || bail "no daemon at $SMACKFUSE (build it first)"
	[ -x "$AS" ] || bail "no helper at $AS"
}

# Scratch directory (ext4/tmpfs under /tmp, world-searchable), with the
# test's policy directory $T/etc and index of mounts $T/run.
scratch() {
	T=$(mktemp -d /tmp/smackfuse-t.XXXXXX)
	chmod 755 "$T"
	hermetic_dirs "$T" || bail "cannot make $T/etc and $T/run"
	SF_MOUNTS=""
	SF_PIDS=""
	trap cleanup EXIT
	trap 'exit 1' INT TERM
}

cleanup() {
	local m p
	for m in $SF_MOUNTS; do
		fusermount3 -u -z "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	for p in $SF_PIDS; do kill "$p" 2>/dev/null; done
	sleep 0.1
	for p in $SF_PIDS; do kill -9 "$p" 2>/dev/null; done
	[ -n "$T" ] && hermetic_unmount "$T" && rm -rf "$T" 2>/dev/null
	return 0
}

is_mounted() { grep -q " $1 fuse" /proc/self/mounts; }

# tmpfs_mount DIR [tmpfs options]: a tmpfs of its own (size or inode
# limits, clean xattrs), unmounted by cleanup.
tmpfs_mount() {
	mkdir -p "$1"
	mount -t tmpfs -o "mode=755${2:+,$2}" tmpfs "$1" || return 1
	SF_MOUNTS="$1 $SF_MOUNTS"
}

# mount_sf SRC MNT LOG [options...]: smackfuse -f in the background; waits
# for the mount; sets SF_PID.  Non-zero (and the log as diagnostics) if it
# did not mount.  SF_WRAP (e.g. "prlimit --nofile=64:64"), if set, is put
# in front of the daemon; it must exec it.  SF_MOUNT_OPTS (e.g.
# "uring=auto"), if set, is given as -o before the test's own options,
# which win over it: to run a suite against another configuration.
# netlabel=off comes first of all: NetLabel is global to the host, and a
# daemon with netlabel=on sets up Smack's configuration in it where the
# kernel has none (tests/netlabel checks that in qemu).
mount_sf() {
	local src=$1 mnt=$2 log=$3 i
	shift 3
	mkdir -p "$mnt"
	${SF_WRAP:-} "$SMACKFUSE" -f -o netlabel=off \
		${SF_MOUNT_OPTS:+-o "$SF_MOUNT_OPTS"} "$@" "$src" "$mnt" \
		2>"$log" &
	SF_PID=$!
	SF_PIDS="$SF_PID $SF_PIDS"
	SF_MOUNTS="$mnt $SF_MOUNTS"
	for i in $(seq 200); do
		is_mounted "$mnt" && return 0
		kill -0 "$SF_PID" 2>/dev/null || break
		sleep 0.05
	done
	echo "smackfuse did not mount $mnt; log:" | diag
	diag <"$log"
	return 1
}

# umount_sf MNT: unmount and wait for the daemon (SF_PID) to exit; its
# exit status is left in SF_STATUS ("running" if it did not exit).
umount_sf() {
	local i
	# A process that has just closed its last file there may still be
	# exiting: retry "busy" for up to 2 s.
	for i in $(seq 20); do
		fusermount3 -u "$1" 2>/dev/null || umount "$1" 2>/dev/null &&
			break
		[ "$i" = 20 ] && return 1
		sleep 0.1
	done
	for i in $(seq 100); do
		kill -0 "$SF_PID" 2>/dev/null || break
		sleep 0.05
	done
	SF_STATUS=running
	kill -0 "$SF_PID" 2>/dev/null && return 0
	wait "$SF_PID" 2>/dev/null
	SF_STATUS=$?		# the daemon's exit status
	return 0
}

# label PATH [NAME]: an xattr of a backing object ("" if none).
label() {
	getfattr -h --absolute-names --only-values -n "security.${2:-SMACK64}" \
		"$1" 2>/dev/null
}
setlabel() { setfattr -h -n "security.${3:-SMACK64}" -v "$2" "$1"; }

# manifest DIR: every object's type, mode, owner, size, content hash and
# every xattr (names and values), sorted; equal manifests = same tree.
manifest() {
	(cd "$1" && find . -printf '%p %y %m %U %G %s %l\n' | LC_ALL=C sort &&
		find . -type f -print0 | LC_ALL=C sort -z |
			xargs -0 -r sha256sum &&
		find . -print0 | LC_ALL=C sort -z |
			xargs -0 -r getfattr -h -d -m - -e hex 2>/dev/null)
}

# policy DIR "subject object access"...: write one rules file.
policy() {
	local d=$1
	shift
	mkdir -p "$d"
	printf '%s\n' "$@" >"$d/rules"
}

# audit_has LOG PATTERN: an audit line matching the extended regex.
audit_has() { grep -Eq "$2" "$1"; }

# build_tree SRC LAYOUT: make the sample tree of an etc/examples layout
# file ("d|f PATH LABEL [transmute]") with labels on the backing objects.
# Modes are open (0777 / 0666) so that only Smack decides.
build_tree() {
	local src=$1 type path lab t
	mkdir -p "$src"
	while read -r type path lab t; do
		case $type in
		''|'#'*) continue ;;
		d) mkdir -p "$src/$path"; chmod 0777 "$src/$path" ;;
		f) echo "$path" >"$src/$path"; chmod 0666 "$src/$path" ;;
		*) echo "build_tree: bad line: $type $path" >&2; return 1 ;;
		esac
		setlabel "$src/$path" "$lab" || return 1
		if [ "$t" = transmute ]; then
			setlabel "$src/$path" TRUE SMACK64TRANSMUTE || return 1
		fi
	done <"$2"
}

# example_mount NAME SRC MNT LOG [options...]: mount the sample tree of
# etc/examples/NAME with its rules and users map.
example_mount() {
	local ex=$EXAMPLES/$1 src=$2 mnt=$3 log=$4
	shift 4
	build_tree "$src" "$ex/layout" || return 1
	mount_sf "$src" "$mnt" "$log" --rules "$ex/accesses.d" \
		-o subject=users -o users="$ex/users" "$@"
}

# run_check MNT USER OP PATH [ARG]: one line of a checks file; the errno.
run_check() {
	local mnt=$1 user=$2 op=$3 path=$4
	shift 4
	case $op in
	create) errno_of "$user" create "$mnt/$path" 0644 ;;
	*) errno_of "$user" "$op" "$mnt/$path" "$@" ;;
	esac
}
