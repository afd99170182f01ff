# guest-fail.sh - a guest test that fails on purpose: boot.test proves the
# harness turns a failing guest check into "not ok".
. /lib/sfq/tap.sh
not_ok "deliberate failure"
done_testing
