# lib.sh - pam_smackfuse through pamtester on the host (sourced by
# tests/pam/host.test and tests/sanitize/layouts.test, after
# tests/fuse/lib.sh and its scratch): a PAM service of the test's own
# (/etc/pam.d/sfpam-test-PID, removed at exit) and syslog caught on a
# private /dev/log (unshare -m), so that nothing of the host's PAM or
# syslog setup is used or changed.

# pam_setup MODULE: the service's module; starts the syslog listener.
# Sets SVC; needs root, pamtester, unshare and python3 (the caller
# checks, see pam_usable).
pam_setup() {
	PAM_MOD=$1
	SVC=sfpam-test-$$
	trap 'rm -f "/etc/pam.d/$SVC"; cleanup' EXIT
	mkdir "$T/dev" && : >"$T/dev/null"
	python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
with open(sys.argv[2], "ab", buffering=0) as f:
    while True:
        f.write(s.recv(65536) + b"\n")
' "$T/dev/log" "$T/syslog" &
	SF_PIDS="$SF_PIDS $!"
	for _ in $(seq 50); do [ -S "$T/dev/log" ] && break; sleep 0.1; done
	[ -S "$T/dev/log" ] || bail "syslog listener did not start"
}

# pam_usable: why pamtester cannot run here ("" if it can).
pam_usable() {
	command -v pamtester >/dev/null ||
		{ echo "pamtester not installed (apt-get install pamtester)"; return; }
	command -v unshare >/dev/null || { echo "no unshare"; return; }
	command -v python3 >/dev/null || { echo "no python3"; return; }
}

# service ARGS...: the test service's one session line.
# (pam_permit: a stack whose every module ignores the call fails it.)
service() {
	printf 'session required %s %s\nsession required pam_permit.so\n' \
		"$PAM_MOD" "$*" >"/etc/pam.d/$SVC"
}

# in_ns CMD...: CMD with our /dev (its log, /dev/null).
in_ns() {
	: >"$T/syslog"
	unshare -m sh -c 'mount --make-rprivate / &&
		mount --bind /dev/null "$0/dev/null" &&
		mount --bind "$0/dev" /dev && exec "$@"' "$T" "$@"
	local rc=$?
	sleep 0.2	# the listener writes what it received
	return $rc
}

# opens USER / refused USER: pamtester open_session succeeds / fails,
# run under ${PAM_RUN[@]} when set (e.g. env LD_PRELOAD=..., setpriv).
PAM_RUN=()
opens() {
	in_ns "${PAM_RUN[@]}" pamtester "$SVC" "$1" open_session \
		>"$T/out" 2>&1
}
refused() { ! opens "$1"; }
logged() { grep -q "pam_smackfuse.*$1" "$T/syslog"; }
# label_of USER: what the session wrote to the stand-in current file
# ($T/kmod/current).
label_of() {
	: >"$T/kmod/current"
	opens "$1" || { echo "(refused)"; return; }
	cat "$T/kmod/current"
}
