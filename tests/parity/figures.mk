# tests/parity/figures.mk: `make parity-figures` runs the differential
# harnesses and writes their counts into tests/README (between its
# "parity figures" markers), so that the figures there come from the
# harness output, never from a hand.  PARITY_FIGURES_RUN=no takes the logs
# already there.  A harness that fails still gives its figures (its
# unexplained differences among them).
PARITY_FIGURE_TESTS = tests/parity/fs.test tests/parity/task.test \
	tests/parity/fs-kmod-trixie.test tests/parity/task-trixie.test \
	tests/parity/fs-kmod-trixie-backports.test \
	tests/parity/task-trixie-backports.test \
	tests/parity/ctl-parity.test tests/netlabel/ctldiff.test
EXTRA_DIST += tests/parity/figures.sh
parity-figures:
	@if [ "$(PARITY_FIGURES_RUN)" != no ]; then \
		$(MAKE) $(AM_MAKEFLAGS) check TESTS="$(PARITY_FIGURE_TESTS)" || \
		echo "parity-figures: some harness failed; its figures say how"; \
	fi
	$(SHELL) $(top_srcdir)/tests/parity/figures.sh --into \
		$(top_srcdir)/tests/README $(PARITY_FIGURE_TESTS:.test=.log)
	@echo "parity-figures: tests/README updated"
.PHONY: parity-figures
