# lib.sh (tests/hermetic) - what keeps a test off the host's own smackfuse state
# (sourced by tests/fuse/lib.sh, tests/control/lib.sh and the tests that
# use neither; bash).  tests/README, "Hermetic", lists what each test
# touches of the host.
#
# A host may run smackfuse for real: a policy in /etc/smackfuse, mounts
# indexed in /run/smackfuse, users of its own.  A test reads and changes
# only what it made itself.

# hermetic_dirs DIR: DIR/etc (an empty policy directory) and DIR/run (an
# empty index of mounts) become this test's.  Every daemon and tool it
# starts reads them (SMACKFUSE_ETC, SMACKFUSE_RUNDIR; src/common/user/paths.h)
# instead of the host's /etc/smackfuse and /run/smackfuse, and so do
# smackfusectl's commands (which also leave /etc/smack alone when the
# policy directory is named).  A test that wants a policy there writes it.
hermetic_dirs() {
	mkdir -p -m 755 "$1/etc" "$1/run" || return 1
	SMACKFUSE_ETC=$1/etc
	SMACKFUSE_RUNDIR=$1/run
	export SMACKFUSE_ETC SMACKFUSE_RUNDIR
}

# hermetic_unmount DIR: lazily unmount everything mounted below DIR,
# deepest first (the control filesystems in DIR/run of daemons that were
# killed), so that DIR can be removed.  Only DIR's own mounts.
hermetic_unmount() {
	local m
	[ -n "$1" ] && [ "$1" != / ] || return 0
	awk -v d="$1/" 'index($2, d) == 1 { print $2 }' /proc/self/mounts |
		sed 's/\\040/ /g' | sort -r |
		while read -r m; do umount -l "$m" 2>/dev/null; done
	return 0
}

# Test users carry this comment (GECOS field): the suite changes and
# relies on no account without it.
HERMETIC_GECOS="smackfuse test user"

# test_user NAME [useradd options...]: NAME, made by the suite (now or by
# an earlier test).  Without options a user has no home, no login shell
# and the primary group "users".  An account of that name that the suite
# did not make is left alone and the call fails, saying so.  (Accounts
# the suite made before it marked them have an empty comment: taken as
# its own, and left as they are.)
test_user() {
	local name=$1 entry
	shift
	entry=$(getent passwd "$name")
	if [ -z "$entry" ]; then
		[ $# -gt 0 ] || set -- -N -g users -s /usr/sbin/nologin \
			-d /nonexistent
		useradd -M -c "$HERMETIC_GECOS" "$@" "$name" 2>/dev/null
		entry=$(getent passwd "$name")	# or a concurrent test's
		[ -n "$entry" ] || return 1
	fi
	case $(printf '%s\n' "$entry" | cut -d: -f5) in
	"$HERMETIC_GECOS") return 0 ;;
	"") return 0 ;;
	esac
	echo "# the account $name exists and is not a smackfuse test user" \
		"(comment \"$HERMETIC_GECOS\"): not using it" >&2
	return 1
}

# test_group NAME: a group of the suite's (groupadd -r), or the one there.
test_group() {
	getent group "$1" >/dev/null || groupadd -r "$1" 2>/dev/null ||
		getent group "$1" >/dev/null
}
