# bench: fragment of the top-level Makefile.am (paths relative to the top).

# Reliability benchmarks (issue 7; owner: reliab): daemon memory per cached
# inode and the denial storm.  Run as root from the build tree, e.g.
#   bench/rss.sh 1000000    bench/storm.sh 1000000
EXTRA_DIST += bench/rss.sh bench/storm.sh
