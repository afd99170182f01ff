# tap-extract.awk - turn the guest's SFQ channel into host TAP points.
# Input: the SFQ lines written by the guest /init (see init).  Variables:
# name (description prefix), tests (comma list the host asked for), qrc
# (qemu's exit status: 124 is the host timeout).
function point(ok, text) { print (ok ? "ok - " : "not ok - ") text }
/^SFQ-BOOT / {
	boot = 1
	point(1, name ": kernel booted to /init (" substr($0, 10) ")")
	next
}
/^SFQ-BEGIN / { cur = $2; begun[cur] = 1; plan[cur] = -1; n[cur] = 0; next }
/^SFQ-END / {
	t = $2; rc = $3; sub(/^rc=/, "", rc); ended[t] = 1
	if (plan[t] >= 0 && plan[t] != n[t])
		point(0, t ": planned " plan[t] " guest points, ran " n[t])
	if (rc != 0)
		point(0, t ": guest script exited " rc \
		      (rc == 124 || rc == 143 ? " (guest timeout)" : ""))
	else if (n[t] == 0)
		point(1, t ": guest script exited 0")
	next
}
/^SFQ-DONE/ { done = 1; donel = $0; next }
/^SFQ:[^:]*: / {
	s = substr($0, 5); i = index(s, ": ")
	t = substr(s, 1, i - 1); l = substr(s, i + 2)
	if (l ~ /^(not )?ok([ \t]|$)/) {
		n[t]++
		good = (l !~ /^not /)
		sub(/^(not )?ok[ \t]*/, "", l)
		sub(/^[0-9]+[ \t]*/, "", l)
		sub(/^-[ \t]*/, "", l)
		point(good, t ": " l)
	} else if (l ~ /^1\.\.[0-9]+/) {
		plan[t] = substr(l, 4) + 0
	} else if (l ~ /^@/) {
		# data for the host test (qemu-run.sh --channel), not a comment
	} else if (l ~ /^Bail out!/) {
		point(0, t ": " l)
	} else {
		print "# " t ": " l
	}
	next
}
{ print "# channel: " $0 }
END {
	if (!boot)
		point(0, name ": kernel booted to /init" \
		      (qrc == 124 ? " (host timeout)" : ""))
	k = split(tests, want, ",")
	for (j = 1; j <= k; j++) {
		t = want[j]
		if (!boot)
			continue
		if (!begun[t])
			point(0, t ": guest script started")
		else if (!ended[t])
			point(0, t ": guest script finished" \
			      (qrc == 124 ? " (host timeout)" : ""))
	}
	if (done && qrc == 0)
		point(1, name ": guest left qemu after its tests (" \
		      substr(donel, 10) ")")
	else
		point(0, name ": guest left qemu after its tests (qemu rc=" \
		      qrc ")")
}
