# tests/net: two qemu guests on one virtual wire (qemu's socket netdev on
# 127.0.0.1): a smackfuse host against a Smack host, and two smackfuse
# hosts, compared row for row with two Smack kernels.  Lanes as in
# tests/kmod (lane.sh); in TESTS whatever configure found.
SF_NET_TESTS = \
	tests/net/twohost.test \
	tests/net/twohost-trixie.test \
	tests/net/twohost-trixie-backports.test
TESTS += $(SF_NET_TESTS)
EXTRA_DIST += $(SF_NET_TESTS) \
	tests/net/twohost.sh \
	tests/net/twohost-known.txt \
	tests/net/guest-twohost.sh
