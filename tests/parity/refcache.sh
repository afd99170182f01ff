# refcache.sh - a run in the Smack reference kernel, made once for every
# module lane (bash; sourced by task.test and fs.test).
#
#   . "$top_srcdir/tests/parity/refcache.sh"
#   key=$(ref_key FILE...)      the contents of FILEs (the matrix program,
#                               the guest script, the kernel, the data)
#   ref_get NAME "$key" OUT     the cached "@case" lines into OUT, if any
#   ref_put NAME "$key" FILE    cache FILE (call only for a run that passed)
#
# The per-kernel lanes of one harness compare the module on each kernel
# with the same reference run: identical inputs give the same answers, so
# the first lane's run (about 30 s under TCG) serves the others.  The
# cache lives in the build tree ($top_builddir/tests/parity/refcache), one
# file per harness named by its key, replaced when the key changes.
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
	mkdir -p "$REF_CACHE" && rm -f "$REF_CACHE/$1"-*.out &&
		cp "$3" "$REF_CACHE/$1-$2.tmp" &&
		mv "$REF_CACHE/$1-$2.tmp" "$REF_CACHE/$1-$2.out"
}
