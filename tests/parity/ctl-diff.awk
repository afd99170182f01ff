# ctl-diff.awk - compare the two sides of the control-file harness.
#
#   awk -f ctl-diff.awk ALLOW BUGS KERNEL HOST
#
# KERNEL and HOST hold ctl-run's "@C NAME RESULT" lines (KERNEL may have
# the channel's "SFQ:<script>: " prefix).  A result is a list of fields,
# open=, write=, reply=, close= and one rb=FILE:TEXT per read-back; they
# are compared field by field.  One TAP point per step, in the host's
# order:
#   same result                   ok
#   different, listed in ALLOW    ok when the fields that differ are
#                                 exactly those the entry names, each
#                                 with the value the entry gives; else
#                                 not ok, naming the fields
#   different, listed in BUGS     not ok ... # TODO bug: REASON
#   anything else                 not ok, both results as comments
# An entry whose step matches, whose step does not exist, or that names a
# field that no longer differs fails: remove or narrow it (the rule of
# casediff.c: an entry that explains nothing is stale).
# ALLOW lines: "NAME | KIND | FIELD... | REASON", FIELD as the host
# prints it (rb=FILE:TEXT for a read-back); BUGS lines: "NAME | KIND |
# REASON".  KIND: forced (by FUSE), errno-only, over-denial, extension
# (smackfuse's own files, none in smackfs); a bug may also be a hole.
# "#" starts a comment line.  Prints the counts by kind and no plan (the
# caller adds its own points).
function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
function bad_entry(what) {
	printf "not ok - %s:%d: %s\n", FILENAME, FNR, what
	nbad++
}
# Split result @r into V[key] = field (as printed); returns the count.
# Fields start at " open=", " write=", " reply=", " close=", " rb=";
# in an allow entry "-KEY" (a field the host lacks) is a field of its own.
function fields(r, V,   n, pos, f, key) {
	delete V
	n = 0
	r = " " r
	while (r != "") {
		if (!match(substr(r, 2), / (-(open|write|reply|close|rb)|(open|write|reply|close|rb)=)/))
			pos = length(r) + 1
		else
			pos = RSTART + 1
		f = substr(r, 2, pos - 2)
		r = substr(r, pos)
		key = f
		if (f ~ /^rb=/)
			sub(/:.*/, "", key)
		else if (f ~ /=/)
			sub(/=.*/, "", key)
		V[key] = f
		n++
	}
	return n
}
# Read the entry lists.
FNR == 1 { for (file = 1; file < ARGC && ARGV[file] != FILENAME; file++) ; }
/^[ \t]*(#|$)/ && file <= 2 { next }
file <= 2 {
	n = split($0, f, "|")
	name = trim(f[1]); kind = trim(f[2])
	if (file == 1 && (n != 4 || kind !~ /^(forced|errno-only|over-denial|extension)$/)) {
		bad_entry("expected NAME | forced, errno-only, over-denial or extension | FIELD... | REASON")
		next
	}
	if (file == 2 && (n != 3 || kind !~ /^(hole|errno-only|over-denial)$/)) {
		bad_entry("expected NAME | hole, errno-only or over-denial | REASON")
		next
	}
	if (name in entry_kind) {
		bad_entry(name " is listed twice")
		next
	}
	entry_kind[name] = kind
	entry_list[name] = file == 1 ? "ctl-allow.txt" : "ctl-bugs.txt"
	if (file == 1) {
		allow_fields[name] = trim(f[3]); entry_why[name] = trim(f[4])
	} else {
		entry_why[name] = trim(f[3])
	}
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
# An extension's file has no smackfs value to compare with: its entry may
# give the start of the field, ending in *.
function same_value(h, e, kind) {
	if (kind == "extension" && e ~ /\*$/)
		return substr(h, 1, length(e) - 1) == substr(e, 1, length(e) - 1)
	return h == e
}
# "" when the entry's fields are exactly the fields that differ, each
# with the host's value ("-KEY": the host has no such field); else what
# is wrong.
function check_allow(name, k, h,   K, H, E, key, real, why) {
	fields(k, K)
	fields(h, H)
	fields(allow_fields[name], E)
	why = ""
	for (key in E) {
		if (key ~ /^-/) {
			real = substr(key, 2)
			if (real in H)
				why = why sprintf(" the host has %s, the entry says none;", H[real])
			else if (!(real in K))
				why = why sprintf(" %s no longer differs (neither has it);", real)
		} else if (!(key in H) || !same_value(H[key], E[key], entry_kind[name])) {
			why = why sprintf(" %s: the host has %s, the entry says %s;", key,
				(key in H) ? H[key] : "none", E[key])
		} else if ((key in K) && K[key] == H[key]) {
			why = why sprintf(" %s no longer differs;", key)
		}
	}
	for (key in H)
		if (!(key in E) && (!(key in K) || K[key] != H[key]))
			why = why sprintf(" %s differs and the entry does not name it;", key)
	for (key in K)
		if (!(key in H) && !(("-" key) in E))
			why = why sprintf(" %s is missing on the host and the entry does not say -%s;", key, key)
	return why
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
		if (name in entry_kind)
			used[name] = 1
		if (k == h) {
			nsame++
			if (name in entry_kind) {
				printf "not ok - %s matches, but %s lists it: remove the entry\n", name, entry_list[name]
				nbad++
			} else {
				printf "ok - %s\n", name
			}
			continue
		}
		if (name in allow_fields) {
			why = check_allow(name, k, h)
			if (why == "") {
				nallow[entry_kind[name]]++
				printf "ok - %s: allowed difference [%s] (%s)\n", name, entry_kind[name], entry_why[name]
			} else {
				nbad++
				printf "not ok - %s differs otherwise than ctl-allow.txt says:%s\n", name, why
			}
		} else if (name in entry_kind) {
			nbug++
			printf "not ok - %s [%s] # TODO bug: %s\n", name, entry_kind[name], entry_why[name]
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
	for (name in entry_kind)
		if (!(name in used)) {
			printf "not ok - %s lists %s, which is no step: remove the entry\n", entry_list[name], name
			nbad++
		}
	printf "# control files: %d/%d steps match; allowed: %d forced by FUSE, %d errno-only, %d over-denial, %d smackfuse's own files; known bugs: %d; unexplained: %d\n", \
		nsame, nsteps, nallow["forced"], nallow["errno-only"], \
		nallow["over-denial"], nallow["extension"], nbug, nbad
	printf "# parity-counts harness=ctl lane=host cases=%d match=%d forced=%d errno-only=%d over-denial=%d hole=0 extension=%d known-bug=%d unexplained=%d not-run=0\n", \
		nsteps, nsame, nallow["forced"], nallow["errno-only"], \
		nallow["over-denial"], nallow["extension"], nbug, nbad
	exit (nbad > 0)
}
