#!/bin/bash
# demo.sh BUILD_DIR - show smackfuse at work (`./quickstart.sh demo`).
#
# For each example policy of etc/examples (the four use cases of the Smack
# posting and per-user compartments): build its sample tree with labels,
# mount it with smackfuse, let several labelled users try the accesses of
# its "checks" file, and print who was allowed and denied, and why (the
# labels and the rule that decided).  Then unmount.  Run as root.
# Exits 1 if an example did not mount or a result differs from its
# "checks" file.
set -u
BUILD=$(cd "${1:?usage: demo.sh BUILD_DIR}" && pwd)
top_srcdir=$(cd "$(dirname "$0")/../.." && pwd)
top_builddir=$BUILD
export top_srcdir top_builddir
. "$top_srcdir/tests/fuse/lib.sh"
[ "$(id -u)" = 0 ] || { echo "demo.sh: run as root" >&2; exit 1; }
[ -x "$SMACKFUSE" ] || { echo "demo.sh: no $SMACKFUSE" >&2; exit 1; }
[ -x "$AS" ] || make -C "$BUILD" tests/fuse/as >/dev/null || exit 1
setup_users
scratch

# subject_of USERSMAP USER: the label the users map gives USER.
subject_of() {
	local who label g
	while read -r who label; do
		case $who in
		''|'#'*) continue ;;
		'*') [ "$label" = %u ] && label=$2; echo "$label"; return ;;
		@*) for g in $(id -nG "$2"); do
			[ "@$g" = "$who" ] && { echo "$label"; return; }
		    done ;;
		*) [ "$who" = "$2" ] && { echo "$label"; return; } ;;
		esac
	done <"$1"
	echo _
}

# needs OP: the access the operation asks on its object.
needs() {
	case $1 in
	read|readdir) echo r ;;
	append) echo rwa ;;	# open asks r (smack_file_open), w and a
	write) echo rw ;;	# open asks r (smack_file_open), write w
	create|unlink) echo w ;;
	exec) echo x ;;
	*) echo '?' ;;
	esac
}

# why SUBJECT OBJECT ACCESS RULESDIR: the mainline reason for the decision.
why() {
	local s=$1 o=$2 a=$3 rule
	[ "$s" = '*' ] && { echo "subject * gets nothing"; return; }
	[ "$o" = '*' ] && { echo "object * : everyone"; return; }
	[ "$s" = "$o" ] && { echo "same label"; return; }
	if [ "$o" = _ ] && [ "${a#*w}" = "$a" ]; then
		echo "object _ : everyone reads"; return
	fi
	rule=$(cat "$4"/* | awk -v s="$s" -v o="$o" \
		'$1 == s && $2 == o { print $1 " " $2 " " $3 }' | tail -n 1)
	if [ -n "$rule" ]; then
		echo "rule \"$rule\""
	else
		echo "no rule $s -> $o"
	fi
}

printf '\nsmackfuse demo: %s\n' "$SMACKFUSE"
failed=0
for ex in levels categories mutual-read guard-box per-user; do
	dir=$EXAMPLES/$ex
	src=$T/$ex/src mnt=$T/$ex/mnt
	echo
	echo "== $ex =="
	grep -h '^[^#]' "$dir"/accesses.d/* | sed 's/^/   rule: /'
	if ! example_mount "$ex" "$src" "$mnt" "$T/$ex.log"; then
		echo "   (mount failed)"
		failed=1
		continue
	fi
	printf '   %-9s %-8s %-7s %-22s %-8s %s\n' USER LABEL OP PATH RESULT WHY
	while read -r want user op path arg; do
		case $want in ''|'#'*) continue ;; esac
		subj=$(subject_of "$dir/users" "$user")
		got=$(run_check "$mnt" "$user" "$op" "$path" $arg)
		obj=$path
		[ "$op" = create ] && obj=$(dirname "$path")
		olab=$(label "$src/$obj")
		acc=$(needs "$op")
		reason="$(why "$subj" "${olab:-_}" "$acc" "$dir/accesses.d") [$acc on ${olab:-_}]"
		if [ "$got" = OK ]; then res=allowed; else res="DENIED"; fi
		if [ "$got" != "$want" ]; then
			reason="$reason (expected $want: see tests/fuse/KNOWN-GAPS)"
			failed=1
		fi
		printf '   %-9s %-8s %-7s %-22s %-8s %s\n' "${user#sf_}" "$subj" \
			"$op" "$path" "$res" "$reason"
	done <"$dir/checks"
	umount_sf "$mnt" || { echo "   (unmount failed: $mnt is busy)"; failed=1; }
	echo "   audit lines of the denials:"
	sed -e 's/ dev=.*//' -e "s|path=\"$mnt|path=\"|" -e 's/^/   /' \
		"$T/$ex.log" | grep "^   lsm=SMACK" | head -n 3
done
echo
echo "All mounts are gone; the sample trees are removed."
exit $failed
