# tests/parity/ctl.mk: the control-file differential harness (issue 16):
# the same writes to smackfs in the Smack reference kernel and to
# smackfuse's control directory.
