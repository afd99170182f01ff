# ctl-diff.awk - compare the two sides of the control-file harness.
#
#   awk -v steps=STEPS -f ctl-diff.awk ALLOW BUGS KERNEL HOST
#
# KERNEL and HOST hold ctl-run's "@C NAME RESULT" lines (KERNEL may have
# the channel's "SFQ:<script>: " prefix); STEPS is ctl-steps.txt, which
# says the file each step writes.  A result is a list of fields, open=,
# write=, reply=, close= and one rb=FILE:TEXT per read-back; they are
# compared field by field.  One TAP point per step, in the host's order:
#   same result                   ok
#   different, listed in ALLOW    ok when the fields that differ are
#                                 exactly those the entry names, each
#                                 with the value the entry gives, and
#                                 the entry's kind fits the difference's
#                                 nature; else not ok, saying why
#   different, listed in BUGS     not ok ... # TODO bug: REASON (when the
#                                 kind fits; else not ok)
#   anything else                 not ok, with the nature, both results
#                                 as comments
# An entry whose step matches, whose step does not exist, or that names a
# field that no longer differs fails: remove or narrow it (the rule of
# casediff.c: an entry that explains nothing is stale).
#
# The nature of a difference is computed from the two results, field by
# field, and the step takes the gravest (the first of this list) of its
# fields' natures:
#   hole          smackfuse took what smackfs refused: open= or close=
#                 an error in the kernel and OK on the host; write= an
#                 error in the kernel and a byte count above 0 on the
#                 host; a transaction's reply= "1" (access granted) on
#                 the host only
#   weaker-policy a write to a narrowing file (ctl-kinds.awk) that smackfs took
#                 (a byte count, 0 included) and smackfuse refused (an
#                 error), unless the file's read-back shows the host the
#                 stricter (onlycap cleared by smackfs only); or a
#                 read-back of a narrowing file in which the host keeps
#                 less restriction than smackfs
#   over-denial   smackfs took it and smackfuse refused: open= or close=
#                 OK in the kernel and an error on the host, write= a
#                 byte count in the kernel and an error on the host (any
#                 other file), reply= "1" in the kernel only; or a
#                 read-back of a narrowing file in which the host keeps
#                 more restriction than smackfs
#   extension     smackfs has no such file (open=ENOENT, or rb=FILE:ENOENT)
#                 and smackfuse has: one of smackfuse's own files
#   state         both took it, and what differs cannot be ranked by the
#                 harness: two byte counts, a read-back of any other file,
#                 a field one side does not print
#   errno-only    both refused, with different errors; or a write smackfs
#                 refused and the host took 0 bytes of (a 0-byte write:
#                 FUSE never sends it, nothing is taken)
# An entry's KIND fits a nature equal to it; "forced" fits any nature but
# hole (a hole is never forced); over-denial and extension also fit
# "state" (a read-back the harness cannot rank: the entry's reason says
# what it is).  hole, weaker-policy and errno-only must be computed, and
# a computed hole is never anything else: an allowed hole is smackfuse's
# own syntax and its reason says "smackfuse extension"; any other hole is
# a bug.
#
# Narrowing files: those whose accepted writes only take access away, so
# that refusing one leaves a weaker policy in force than the writer asked:
#   load-self, load-self2  the writer's own rules, checked after the
#                          global ones (smk_tskacc): they can only refuse
#                          more; a read-back with fewer of them is weaker
#   revoke-subject         drops every rule of a subject; without a rule,
#                          access between two labels is refused
#   onlycap                takes CAP_MAC_ADMIN and CAP_MAC_OVERRIDE from
#                          every label it does not name; an empty list
#                          restricts nobody, so a write that clears it
#                          widens: the read-back tells (an empty host
#                          list where smackfs has one, or a longer one,
#                          is weaker)
#
# ALLOW lines: "NAME | KIND | FIELD... | REASON", FIELD as the host
# prints it (rb=FILE:TEXT for a read-back); BUGS lines: "NAME | KIND |
# REASON".  ALLOW KIND: forced (by FUSE), errno-only, over-denial,
# weaker-policy, extension (smackfuse's own files), hole (smackfuse's own
# syntax only); BUGS KIND: hole, weaker-policy, over-denial, errno-only.
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
BEGIN {
	# the natures, gravest first (see above)
	nnat = split("hole weaker-policy over-denial extension state errno-only", nat_name, " ")
	for (i = 1; i <= nnat; i++)
		grave[nat_name[i]] = nnat - i + 1
	# ctl-steps.txt: "NAME WHO FILE HOW DATA [READBACK...]"
	if (steps == "" || (getline line < steps) < 0) {
		print "not ok - ctl-diff.awk: no steps file (-v steps=ctl-steps.txt)"
		nbad++
	} else {
		do {
			if (line !~ /^[ \t]*(#|$)/ && split(line, w, " ") >= 4)
				step_file[w[1]] = w[3]
		} while ((getline line < steps) > 0)
		close(steps)
	}
}
# Read the entry lists.
FNR == 1 { for (file = 1; file < ARGC && ARGV[file] != FILENAME; file++) ; }
/^[ \t]*(#|$)/ && file <= 2 { next }
file <= 2 {
	n = split($0, f, "|")
	name = trim(f[1]); kind = trim(f[2])
	if (file == 1 && (n != 4 || kind !~ /^(forced|errno-only|over-denial|weaker-policy|extension|hole)$/)) {
		bad_entry("expected NAME | forced, errno-only, over-denial, weaker-policy, extension or hole | FIELD... | REASON")
		next
	}
	if (file == 1 && kind == "hole" && f[4] !~ /smackfuse extension/) {
		bad_entry("an allowed hole is smackfuse's own syntax: its reason says \"smackfuse extension\"")
		next
	}
	if (file == 2 && (n != 3 || kind !~ /^(hole|weaker-policy|over-denial|errno-only)$/)) {
		bad_entry("expected NAME | hole, weaker-policy, over-denial or errno-only | REASON")
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
# ---- the nature of a difference ----
function is_err(v) { return v ~ /^E[A-Z0-9]+$/ }
function is_count(v) { return v ~ /^[0-9]+$/ }
# The value of field @f (as printed): what follows "KEY=" or "rb=FILE:".
function value_of(f) {
	if (f ~ /^rb=/)
		return substr(f, index(f, ":") + 1)
	return substr(f, index(f, "=") + 1)
}
# The items of a read-back "TEXT" into I (lines, or onlycap's words);
# returns their count.
function items(v, sep, I,   n, all, i, m) {
	delete I
	v = substr(v, 2, length(v) - 2)
	n = split(v, all, sep)
	m = 0
	for (i = 1; i <= n; i++)
		if (all[i] != "")
			I[all[i]] = ++m
	return m
}
function subset(A, B,   x) {
	for (x in A)
		if (!(x in B))
			return 0
	return 1
}
# How the host's read-back @h of narrowing file @file compares with the
# kernel's @k: "weaker" (the host keeps less restriction), "stricter",
# or "" (equal, not comparable, or a file with no rules to compare).
function policy(file, k, h,   K, H, nk, nh, hk, kh) {
	if (file !~ /^(load-self|load-self2|onlycap)$/ || k !~ /^".*"$/ || h !~ /^".*"$/)
		return ""
	nk = items(k, file == "onlycap" ? " " : "\\\\n", K)
	nh = items(h, file == "onlycap" ? " " : "\\\\n", H)
	hk = subset(H, K)
	kh = subset(K, H)
	if (hk && kh)
		return ""
	if (file == "onlycap") {
		# an empty list restricts nobody; each label it names is one
		# more that may administer
		if (nk == 0 || nh == 0)
			return nh == 0 ? "weaker" : "stricter"
		return kh ? "weaker" : hk ? "stricter" : ""
	}
	return hk ? "weaker" : kh ? "stricter" : ""
}
# The nature of step @name's difference in field @key (kernel field @kf,
# host field @hf, "" when a side does not print it); K and H are the
# two results' fields.
function field_nature(name, key, kf, hf, K, H,   k, h, file, how) {
	k = value_of(kf); h = value_of(hf)
	if (kf == "" || hf == "") {
		if (key == "reply" && h ~ /^1/)
			return "hole"
		if (key == "reply" && k ~ /^1/)
			return "over-denial"
		return "state"
	}
	if (key ~ /^rb=/) {
		file = substr(key, 4)
		if (k == "ENOENT" && !is_err(h))
			return "extension"
		how = policy(file, k, h)
		return how == "weaker" ? "weaker-policy" : how == "stricter" ? "over-denial" : "state"
	}
	if (key == "reply") {
		if (h ~ /^1/ && k !~ /^1/)
			return "hole"
		if (k ~ /^1/ && h !~ /^1/)
			return "over-denial"
		return "state"
	}
	if (key == "open" && k == "ENOENT" && h == "OK")
		return "extension"
	if (is_err(k) && is_err(h))
		return "errno-only"
	if (key == "write") {
		if (is_err(k) && is_count(h))
			return h + 0 > 0 ? "hole" : "errno-only"
		if (is_count(k) && is_err(h)) {
			file = step_file[name]
			if (!(file in narrowing))
				return "over-denial"
			if (("rb=" file) in K && ("rb=" file) in H &&
			    policy(file, value_of(K["rb=" file]), value_of(H["rb=" file])) == "stricter")
				return "over-denial"
			return "weaker-policy"
		}
		return "state"
	}
	# open, close: OK or an error
	if (is_err(k) && h == "OK")
		return "hole"
	if (k == "OK" && is_err(h))
		return "over-denial"
	return "state"
}
# The nature of the difference between results @k and @h: the gravest
# of its fields'.
function nature(name, k, h,   K, H, key, n, best) {
	fields(k, K)
	fields(h, H)
	best = ""
	for (key in K)
		if (!(key in H) || K[key] != H[key]) {
			n = field_nature(name, key, K[key], (key in H) ? H[key] : "", K, H)
			if (best == "" || grave[n] > grave[best])
				best = n
		}
	for (key in H)
		if (!(key in K)) {
			n = field_nature(name, key, "", H[key], K, H)
			if (best == "" || grave[n] > grave[best])
				best = n
		}
	return best
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
		n = nature(name, k, h)
		if ((name in entry_kind) && !kind_fits(entry_kind[name], n)) {
			nbad++
			nbad_nat[n]++
			printf "not ok - %s differs (%s), which %s calls %s\n", name, n, entry_list[name], entry_kind[name]
		} else if (name in allow_fields) {
			why = check_allow(name, k, h)
			if (why == "") {
				nallow[entry_kind[name]]++
				printf "ok - %s: allowed difference [%s] (%s)\n", name, entry_kind[name], entry_why[name]
			} else {
				nbad++
				nbad_nat[n]++
				printf "not ok - %s differs otherwise than ctl-allow.txt says:%s\n", name, why
			}
		} else if (name in entry_kind) {
			nbug++
			printf "not ok - %s [%s] # TODO bug: %s\n", name, entry_kind[name], entry_why[name]
		} else {
			nbad++
			nbad_nat[n]++
			printf "not ok - %s differs (%s)\n", name, n
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
	printf "# control files: %d/%d steps match; allowed: %d forced by FUSE, %d errno-only, %d over-denial, %d weaker-policy, %d holes (smackfuse's own syntax), %d smackfuse's own files; known bugs: %d; unexplained: %d (%d holes)\n", \
		nsame, nsteps, nallow["forced"], nallow["errno-only"], \
		nallow["over-denial"], nallow["weaker-policy"], nallow["hole"], \
		nallow["extension"], nbug, nbad, nbad_nat["hole"]
	printf "# parity-counts harness=ctl lane=host cases=%d match=%d forced=%d errno-only=%d over-denial=%d weaker-policy=%d hole=%d extension=%d known-bug=%d unexplained=%d not-run=0\n", \
		nsteps, nsame, nallow["forced"], nallow["errno-only"], \
		nallow["over-denial"], nallow["weaker-policy"], nallow["hole"], \
		nallow["extension"], nbug, nbad
	exit (nbad > 0)
}
