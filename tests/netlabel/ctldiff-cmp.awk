# ctldiff-cmp.awk - compare the two kernels' "S<n> <what>" values for
# ctldiff.test.
#
#   awk -F'\t' -v known=ctldiff-known.txt -f ctldiff-cmp.awk SMACK.tab DEBIAN.tab
#
# Each .tab line is "S<n> <what>", a tab, the value.  Every value of both
# kernels is equal, or a documented difference: an entry of KNOWN names
# the key, its kind and reason, and both values exactly; anything else
# fails, and so does an entry that takes no difference (its values no
# longer differ, or are no longer those).  Prints "#" comments and one
# "ok"/"not ok" line per step and per stale entry; the caller makes them
# TAP points.
#
# KNOWN: "#" lines and blank lines aside, an entry is
#   S<n> <what> KIND reason...
#     smack:  VALUE
#     debian: VALUE
# KIND: forced (what a kernel without Smack makes NetLabel do instead),
# errno-only, over-denial (smackfs takes it, smackfuse refuses, or what
# that leaves), extension (smackfuse takes what smackfs refuses, its own
# syntax).
function value(line) {
	sub(/^[ \t]+(smack|debian):[ ]*/, "", line)
	return line
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
		if (f[3] !~ /^(forced|errno-only|over-denial|extension)$/) {
			print "not ok - " known ":" kln ": " cur ": kind \"" f[3] "\" is none of forced, errno-only, over-denial, extension"
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
			   kdebian[key] == debian[key]) {
			used[key] = 1
			documented++
			kinds[kkind[key]]++
			print "# documented [" kkind[key] "] " key
			print "#   smack:  " smack[key]
			print "#   debian: " debian[key]
		} else {
			bad[step]++; undoc++
			print "# " ((key in kkind) ? "DIFFERENT FROM ITS ENTRY " : "DIFFERENT ") key
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
	printf "# compared %d values over %d steps: %d equal, %d documented differences (%d forced, %d errno-only, %d over-denial, %d extension), %d undocumented\n", \
		total, ns, equal, documented, kinds["forced"], \
		kinds["errno-only"], kinds["over-denial"], kinds["extension"], undoc
	printf "# parity-counts harness=ctldiff lane=debian cases=%d match=%d forced=%d errno-only=%d over-denial=%d hole=0 extension=%d known-bug=0 unexplained=%d not-run=0\n", \
		total, equal, kinds["forced"], kinds["errno-only"], \
		kinds["over-denial"], kinds["extension"], undoc + stale
	if (ns < 10) print "not ok - fewer than 10 steps came back from the guests"
}
