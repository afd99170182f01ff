# ctl-diff.awk - compare the two sides of the control-file harness.
#
#   awk -f ctl-diff.awk ALLOW BUGS KERNEL HOST
#
# KERNEL and HOST hold ctl-run's "@C NAME RESULT" lines (KERNEL may have
# the channel's "SFQ:<script>: " prefix).  One TAP point per step, in the
# host's order:
#   same result                          ok
#   different, listed in ALLOW           ok when the host's result holds
#                                        every token the entry asserts
#   different, listed in BUGS            not ok ... # TODO bug: REASON
#   anything else                        not ok, both results as comments
# An entry of ALLOW or BUGS whose step now matches is reported as
# "ok ... # TODO" (an unexpected pass: remove the entry).
# ALLOW lines: "NAME | TOKEN... | REASON"; BUGS lines: "NAME | REASON";
# "#" starts a comment line.  Prints "# N/M steps match" at the end and
# no plan (the caller adds its own points).
function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
# Which argument this line comes from (an empty ALLOW or BUGS has none).
FNR == 1 { for (file = 1; file < ARGC && ARGV[file] != FILENAME; file++) ; }
/^[ \t]*(#|$)/ && file <= 2 { next }
file == 1 {
	n = split($0, f, "|")
	name = trim(f[1]); allow_tok[name] = trim(f[2]); allow_why[name] = trim(f[3])
	next
}
file == 2 {
	n = split($0, f, "|")
	name = trim(f[1]); bug_why[name] = trim(f[2])
	next
}
{
	line = $0
	sub(/^SFQ:[^:]*: /, "", line)
	if (line !~ /^@C /)
		next
	sub(/^@C /, "", line)
	name = line
	sub(/ .*/, "", name)
	res = substr(line, length(name) + 2)
	if (file == 3) {
		kern[name] = res
	} else {
		host[name] = res
		order[++nsteps] = name
	}
}
function holds(res, toks,   t, k, i) {
	k = split(toks, t, " ")
	for (i = 1; i <= k; i++)
		if (index(res, t[i]) == 0)
			return 0
	return 1
}
END {
	for (i = 1; i <= nsteps; i++) {
		name = order[i]
		h = host[name]
		if (!(name in kern)) {
			printf "not ok - %s: no kernel result\n", name
			nbad++
			continue
		}
		k = kern[name]
		if (k == h) {
			nsame++
			if (name in bug_why)
				printf "ok - %s matches # TODO listed in ctl-bugs.txt but fixed: remove the entry\n", name
			else if (name in allow_tok)
				printf "ok - %s matches # TODO listed in ctl-allow.txt but matches: remove the entry\n", name
			else
				printf "ok - %s\n", name
			continue
		}
		if (name in allow_tok && holds(h, allow_tok[name])) {
			nallow++
			printf "ok - %s: allowed difference (%s)\n", name, allow_why[name]
		} else if (name in bug_why) {
			nbug++
			printf "not ok - %s # TODO bug: %s\n", name, bug_why[name]
		} else {
			nbad++
			printf "not ok - %s differs\n", name
		}
		printf "#   kernel: %s\n#   host:   %s\n", k, h
	}
	for (name in kern)
		if (!(name in host)) {
			printf "not ok - %s: no host result\n", name
			nbad++
		}
	printf "# control files: %d/%d steps match (%d allowed differences, %d known bugs, %d unexplained)\n", \
		nsame, nsteps, nallow, nbug, nbad
}
