# ctldiff-cmp.awk - compare the two kernels' "S<n> <what>" values for
# ctldiff.test.
#
#   awk -F'\t' -v known=ctldiff-known.txt -f ctldiff-cmp.awk SMACK.tab DEBIAN.tab
#
# Each .tab line is "S<n> <what>", a tab, the value.  Every value of both
# kernels is equal, or a documented difference: an entry of KNOWN names
# the key, its kind and reason, and both values exactly, and its kind
# fits the difference's nature; anything else fails, and so does an
# entry that takes no difference (its values no longer differ, or are no
# longer those).  Prints "#" comments and one "ok"/"not ok" line per step
# and per stale entry; the caller makes them TAP points.
#
# KNOWN: "#" lines and blank lines aside, an entry is
#   S<n> <what> KIND reason...
#     smack:  VALUE
#     debian: VALUE
# KIND: forced (what a kernel without Smack makes NetLabel do instead),
# errno-only, over-denial (smackfs takes it, smackfuse refuses, or what
# that leaves), weaker-policy (smackfs takes a write that narrows access,
# smackfuse refuses it), extension (smackfuse's own syntax: what follows
# from it), hole (smackfuse takes a write smackfs refuses: only its own
# syntax, and the reason says "smackfuse extension").
#
# The nature of a difference, as ctl-diff.awk computes it for the
# control-file harness, as far as these values allow.  A "write" value
# is 'FILE "TEXT" RESULT', RESULT 0 (taken) or the error's text:
#   hole           smackfs refused the write, smackfuse took it
#   weaker-policy  smackfs took it, smackfuse refused, and FILE is a
#                  narrowing file (load-self, load-self2, revoke-subject,
#                  onlycap: ctl-diff.awk says why; none is written here)
#   over-denial    smackfs took it, smackfuse refused (any other file)
#   errno-only     both refused, with different errors
# Any other value (a file read back, a netlabelctl listing) is "state":
# what differs cannot be ranked here.  An entry's KIND fits a nature
# equal to it; forced fits any nature but hole; over-denial and
# extension also fit state.  A computed hole is never anything else.
function value(line) {
	sub(/^[ \t]+(smack|debian):[ ]*/, "", line)
	return line
}
# The nature of the difference between the kernels' values @k and @d of
# @key (see above).
function nature(key, k, d,   file, kr, dr) {
	if (key !~ /^S[0-9]+ write$/)
		return "state"
	file = k
	sub(/ .*/, "", file)
	kr = k; sub(/^.*" /, "", kr)
	dr = d; sub(/^.*" /, "", dr)
	if (kr != "0" && dr == "0")
		return "hole"
	if (kr == "0" && dr != "0")
		return (file in narrowing) ? "weaker-policy" : "over-denial"
	if (kr != "0" && dr != "0")
		return "errno-only"
	return "state"
}
BEGIN {
	while ((getline line < known) > 0) {
		kln++
		if (line ~ /^#/ || line ~ /^[ \t]*$/)
			continue
		if (line ~ /^[ \t]+smack:/) {
			ksmack[cur] = value(line)
			continue
		}
		if (line ~ /^[ \t]+debian:/) {
			kdebian[cur] = value(line)
			continue
		}
		split(line, f, " ")
		cur = f[1] " " f[2]
		if (f[3] !~ /^(forced|errno-only|over-denial|weaker-policy|extension|hole)$/) {
			print "not ok - " known ":" kln ": " cur ": kind \"" f[3] "\" is none of forced, errno-only, over-denial, weaker-policy, extension, hole"
			continue
		}
		if (f[3] == "hole" && line !~ /smackfuse extension/) {
			print "not ok - " known ":" kln ": " cur ": an allowed hole is smackfuse's own syntax: its reason says \"smackfuse extension\""
			continue
		}
		kkind[cur] = f[3]
		kline[cur] = kln
	}
	for (k in kkind)
		if (!(k in ksmack) || !(k in kdebian))
			print "not ok - " known ":" kline[k] ": " k ": gives no smack: and debian: value"
}
FNR == NR { smack[$1] = $2; order[++n] = $1; next }
{ debian[$1] = $2; if (!($1 in smack)) order[++n] = $1 }
END {
	for (i = 1; i <= n; i++) {
		key = order[i]
		split(key, kk, " ")
		step = kk[1]
		if (!(step in seen)) { seen[step] = 1; steps[++ns] = step; bad[step] = 0 }
		total++
		if (!(key in smack) || !(key in debian)) {
			bad[step]++; undoc++
			print "# MISSING " key " (smack: " (key in smack) ", debian: " (key in debian) ")"
		} else if (smack[key] == debian[key]) {
			equal++
		} else if ((key in kkind) && ksmack[key] == smack[key] &&
			   kdebian[key] == debian[key] &&
			   !kind_fits(kkind[key], nat = nature(key, smack[key], debian[key]))) {
			used[key] = 1
			bad[step]++; undoc++
			print "# WRONG KIND " key ": the difference is " nat ", which " known ":" kline[key] " calls " kkind[key]
			print "#   smack:  " smack[key]
			print "#   debian: " debian[key]
		} else if ((key in kkind) && ksmack[key] == smack[key] &&
			   kdebian[key] == debian[key]) {
			used[key] = 1
			documented++
			kinds[kkind[key]]++
			print "# documented [" kkind[key] "] " key
			print "#   smack:  " smack[key]
			print "#   debian: " debian[key]
		} else {
			bad[step]++; undoc++
			print "# " ((key in kkind) ? "DIFFERENT FROM ITS ENTRY " : "DIFFERENT ") key \
				" (" nature(key, smack[key], debian[key]) ")"
			print "#   smack:  " smack[key]
			print "#   debian: " debian[key]
			if (key in kkind) {
				used[key] = 1
				print "#   entry (" known ":" kline[key] ") smack:  " ksmack[key]
				print "#   entry (" known ":" kline[key] ") debian: " kdebian[key]
			}
		}
	}
	for (i = 1; i <= ns; i++)
		printf "%s - step %s: every value equal or a documented difference\n", \
			bad[steps[i]] ? "not ok" : "ok", steps[i]
	for (k in kkind)
		if (!(k in used)) {
			print "not ok - " known ":" kline[k] ": " k " takes no difference: remove the entry"
			stale++
		}
	printf "# compared %d values over %d steps: %d equal, %d documented differences (%d forced, %d errno-only, %d over-denial, %d weaker-policy, %d holes (smackfuse's own syntax), %d extension), %d undocumented\n", \
		total, ns, equal, documented, kinds["forced"], \
		kinds["errno-only"], kinds["over-denial"], \
		kinds["weaker-policy"], kinds["hole"], kinds["extension"], undoc
	printf "# parity-counts harness=ctldiff lane=debian cases=%d match=%d forced=%d errno-only=%d over-denial=%d weaker-policy=%d hole=%d extension=%d known-bug=0 unexplained=%d not-run=0\n", \
		total, equal, kinds["forced"], kinds["errno-only"], \
		kinds["over-denial"], kinds["weaker-policy"], kinds["hole"], \
		kinds["extension"], undoc + stale
	if (ns < 10) print "not ok - fewer than 10 steps came back from the guests"
}
