# ctl-kinds.awk - what the two control-file comparisons share
# (tests/parity/ctl-diff.awk, tests/netlabel/ctldiff-cmp.awk): which
# files narrow access, and which entry kind may explain which nature.
# Load it first: awk -f ctl-kinds.awk -f ctl-diff.awk ...
#
# The narrowing files: an accepted write only takes access away (a task's
# own rules, a subject's rules revoked, privilege confined to onlycap),
# so a write smackfuse refuses leaves the policy weaker than asked.
BEGIN {
	narrowing["load-self"] = narrowing["load-self2"] = 1
	narrowing["revoke-subject"] = narrowing["onlycap"] = 1
}
# May an entry of kind @kind explain a difference of nature @n?
function kind_fits(kind, n) {
	if (kind == n)
		return 1
	if (kind == "forced")
		return n != "hole"	# a hole is never forced
	return n == "state" && (kind == "over-denial" || kind == "extension")
}
