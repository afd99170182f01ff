# src/fuse: fragment of the top-level Makefile.am (paths relative to the top).
