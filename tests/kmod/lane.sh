# lane.sh - the kernel a module lane boots, and the smackfuse.ko for it
# (bash; sourced by checks.test, mmap-kmod.test, task.test and fs.test).
#
#   . "$top_srcdir/tests/kmod/lane.sh"
#
# SF_KMOD_KERNEL picks the kernel, as tests/qemu/qemu-run.sh -k names it:
#   debian            the host's installed kernel (Debian 12's 6.1), with
#                     the module configure built (src/kmod/smackfuse.ko);
#                     the default
#   trixie            Debian 13's kernel (6.12)          } src/kmod/RELEASE/,
#   trixie-backports  the newest Debian kernel (7.3)     } make kmod-lanes
# The per-kernel TESTS entries (checks-trixie.test, ...) set it.
# SF_KMOD_KERNELS (default: all three) lists the kernels whose lanes run;
# the others say SKIP (to shorten a run: each of the two other kernels
# costs make check about 2 minutes under TCG).
#
# Sets LANE_K (for qemu-run.sh -k), LANE_NAME (the TAP prefix) and
# LANE_KMOD (the module).  A lane that cannot run prints "1..0 # SKIP"
# with the reason and exits 0; a module that did not build for a kernel
# it serves is a failure ("not ok", the build's log, exit 1).
LANE_K=${SF_KMOD_KERNEL:-debian}
LANE_NAME=$LANE_K
case " ${SF_KMOD_KERNELS:-debian trixie trixie-backports} " in
*" $LANE_K "*) ;;
*)
	echo "1..0 # SKIP SF_KMOD_KERNELS=\"${SF_KMOD_KERNELS:-}\" leaves the $LANE_K lane out"
	exit 0
	;;
esac
case "$LANE_K" in
debian)
	LANE_KMOD=${top_builddir:-.}/src/kmod/smackfuse.ko
	if [ ! -f "$LANE_KMOD" ]; then
		echo "1..0 # SKIP smackfuse.ko not built (configure found no kernel headers it can build for)"
		exit 0
	fi
	;;
trixie|trixie-backports)
	_lane_d=${top_builddir:-.}/src/kmod/$LANE_K
	LANE_KMOD=$_lane_d/smackfuse.ko
	if [ -f "$_lane_d/FAILED" ]; then
		echo "not ok - $LANE_NAME: smackfuse.ko builds for the $LANE_K kernel (tests/kmod/kmod-build.sh)"
		tail -n 30 "$_lane_d/FAILED" | sed 's/^/# /'
		echo "1..1"
		exit 1
	elif [ -f "$_lane_d/SKIP" ]; then
		echo "1..0 # SKIP $LANE_K: $(cat "$_lane_d/SKIP")"
		exit 0
	elif [ ! -f "$LANE_KMOD" ]; then
		echo "1..0 # SKIP smackfuse.ko for $LANE_K not built (make kmod-lanes; make check builds it when configure built the module)"
		exit 0
	fi
	;;
*)
	echo "Bail out! SF_KMOD_KERNEL=$LANE_K: debian, trixie or trixie-backports"
	exit 1
	;;
esac
