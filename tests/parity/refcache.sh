# refcache.sh - a run in a Smack reference kernel, kept for the next run
# with the same inputs (bash; sourced by task.test and fs.test).
#
#   . "$top_srcdir/tests/parity/refcache.sh"
#   key=$(ref_key FILE...)      the contents of FILEs (the matrix program,
#                               the guest script, the kernel, the data)
#   ref_get NAME "$key" OUT     the cached "@case" lines into OUT, if any
#   ref_put NAME "$key" FILE    cache FILE (call only for a run that passed)
#   ref_diff BASE LANE OUT      how LANE's Smack differs from BASE's run
#
# NAME is the harness and its lane (task-trixie): each lane's module is
# compared with its own kernel's Smack.  Identical inputs give the same
# answers, so a rerun of make check (or fs.test's host and debian lanes)
# reuses a run (about 30 s under TCG).  The cache lives in the build tree
# ($top_builddir/tests/parity/refcache), one file per NAME named by its
# key, replaced when the key changes.
REF_CACHE=${top_builddir:-.}/tests/parity/refcache

ref_key() {
	local f
	for f; do
		if [ -f "$f" ]; then sha1sum <"$f"; else echo "missing $f"; fi
	done | sha1sum | cut -c1-16
}

ref_get() {
	[ -s "$REF_CACHE/$1-$2.out" ] && cp "$REF_CACHE/$1-$2.out" "$3"
}

ref_put() {
	mkdir -p "$REF_CACHE" && rm -f "$REF_CACHE/$1"-????????????????.out &&
		cp "$3" "$REF_CACHE/$1-$2.tmp" &&
		mv "$REF_CACHE/$1-$2.tmp" "$REF_CACHE/$1-$2.out"
}

# ref_diff BASE LANE OUT: where LANE's Smack (the run in OUT) answers
# otherwise than BASE's cached run (task-debian: 6.1's Smack), as
# comments: "# smack-release LANE: N of M cases differ from BASE" and one
# "# smack-differs LANE CASE: BASE-ANSWER -> LANE-ANSWER" per case.  The
# figures (figures.sh) list them; a kernel's Smack that changed is shown,
# never hidden in the module lane's comparison.
ref_diff() {
	local base
	base=$(ls "$REF_CACHE/$1"-????????????????.out 2>/dev/null | head -n 1)
	if [ -z "$base" ] || [ ! -s "$3" ]; then
		echo "# smack-release $2: not compared with $1 (no run of it cached)"
		return 0
	fi
	awk -v lane="$2" -v base="$1" '
		{ c = $2; a = $0; sub(/^@case [^ ]* /, "", a) }
		FNR == NR { b[c] = a; next }
		{ n++ }
		(c in b) && b[c] != a { d++; print "# smack-differs " lane " " c ": " b[c] " -> " a }
		!(c in b) { d++; print "# smack-differs " lane " " c ": (none) -> " a }
		END { printf "# smack-release %s: %d of %d cases differ from %s\n", lane, d, n, base }' \
		"$base" "$3"
}
