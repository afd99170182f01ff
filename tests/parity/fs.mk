# tests/parity/fs.mk: the file-operation differential harness (issue 16):
# the same matrix in the Smack reference kernel and through a smackfuse mount.
