# src/tools: fragment of the top-level Makefile.am (paths relative to the top).

# smackrun (kmod): run a command under a smackfuse.ko label.
sbin_PROGRAMS += src/tools/smackrun
src_tools_smackrun_SOURCES = src/tools/smackrun.c
