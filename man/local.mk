# man: fragment of the top-level Makefile.am (paths relative to the top).
dist_man_MANS += man/smackfuse.8
dist_man_MANS += man/smacknl.8
dist_man_MANS += man/smackfuse-kmod.7
