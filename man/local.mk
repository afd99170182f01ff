# man: fragment of the top-level Makefile.am (paths relative to the top).
dist_man_MANS += man/smackfuse.8
dist_man_MANS += man/smacknl.8
dist_man_MANS += man/smackfuse-kmod.7
dist_man_MANS += man/smackfusectl.8 man/smackfuse-policy.5
dist_man_MANS += man/pam_smackfuse.8
dist_man_MANS += man/smackrun.8
