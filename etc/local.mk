# etc: fragment of the top-level Makefile.am (paths relative to the top).

# Example policies (tests/fuse and the demo use them too); installed under
# $(docdir)/examples/NAME/ as documentation, never into /etc.
examplesdir = $(docdir)/examples
dist_examples_DATA = etc/examples/README
ex_levelsdir = $(examplesdir)/levels
dist_ex_levels_DATA = etc/examples/levels/users etc/examples/levels/layout etc/examples/levels/checks
ex_levels_rulesdir = $(examplesdir)/levels/accesses.d
dist_ex_levels_rules_DATA = etc/examples/levels/accesses.d/levels
ex_categoriesdir = $(examplesdir)/categories
dist_ex_categories_DATA = etc/examples/categories/users etc/examples/categories/layout etc/examples/categories/checks
ex_categories_rulesdir = $(examplesdir)/categories/accesses.d
dist_ex_categories_rules_DATA = etc/examples/categories/accesses.d/categories
ex_mutual_readdir = $(examplesdir)/mutual-read
dist_ex_mutual_read_DATA = etc/examples/mutual-read/users etc/examples/mutual-read/layout etc/examples/mutual-read/checks
ex_mutual_read_rulesdir = $(examplesdir)/mutual-read/accesses.d
dist_ex_mutual_read_rules_DATA = etc/examples/mutual-read/accesses.d/mutual-read
ex_guard_boxdir = $(examplesdir)/guard-box
dist_ex_guard_box_DATA = etc/examples/guard-box/users etc/examples/guard-box/layout etc/examples/guard-box/checks
ex_guard_box_rulesdir = $(examplesdir)/guard-box/accesses.d
dist_ex_guard_box_rules_DATA = etc/examples/guard-box/accesses.d/guard-box
ex_per_userdir = $(examplesdir)/per-user
dist_ex_per_user_DATA = etc/examples/per-user/users etc/examples/per-user/layout etc/examples/per-user/checks
ex_per_user_rulesdir = $(examplesdir)/per-user/accesses.d
dist_ex_per_user_rules_DATA = etc/examples/per-user/accesses.d/per-user

# Policy layout and the systemd unit (issue 4, control).
systemdsystemunit_DATA = etc/smackfuse@.service
CLEANFILES += etc/smackfuse@.service
EXTRA_DIST += etc/smackfuse@.service.in
etc/smackfuse@.service: $(top_srcdir)/etc/smackfuse@.service.in Makefile
	$(MKDIR_P) etc
	$(SED) -e 's|@sbindir[@]|$(sbindir)|g' -e 's|@bindir[@]|$(bindir)|g' \
		$(top_srcdir)/etc/smackfuse@.service.in >$@
smackfusepolicydir = $(sysconfdir)/smackfuse
dist_smackfusepolicy_DATA = etc/policy/README
install-data-local: install-smackfuse-policy-dirs
install-smackfuse-policy-dirs:
	$(MKDIR_P) $(DESTDIR)$(smackfusepolicydir)/accesses.d \
		$(DESTDIR)$(smackfusepolicydir)/cipso.d
.PHONY: install-smackfuse-policy-dirs
