# guest-install.sh - install smackfuse on the booted Debian 12 or 13 host
# from its Debian package, as an administrator does (issue 18): `dpkg -i` of the
# smackfuse_*.deb debian-host.test put in /usr/local/lib/sfhost/debs.  Run
# by guest-run.sh as root under systemd, before guest-host.sh.  The image
# has the package's dependencies (debian-image.sh's PKGS: dkms and this
# kernel's headers too).  When debian-host.test staged smackfuse-dkms as
# well, it is installed with it: DKMS installs smackfuse.ko for the running
# kernel (the build the host made in this release's root, else it builds
# it here), and the scenario runs in the next boot, which loads that module;
# else the host test put this build's smackfuse.ko in /lib/modules/$K/extra.
. /usr/local/lib/sfhost/tap.sh
# guest-host.sh's PATH: nothing under /usr/local may shadow the package.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
L=/usr/local/lib/sfhost
U=smackfuse@$(systemd-escape --path /srv/data).service
# The package's paths: under /usr/lib on both releases (/lib is a link to
# it; Debian 13 forbids package files in /lib).  systemd 252 (Debian 12)
# names the unit by its /lib path, 257 (Debian 13) by its /usr/lib one.
UNIT=/usr/lib/systemd/system/smackfuse@.service
PAMSO=/usr/lib/x86_64-linux-gnu/security/pam_smackfuse.so
diag "$(. /etc/os-release && echo "$PRETTY_NAME"), kernel $(uname -r), systemd $(systemctl --version | sed -n '1s/^systemd \([0-9]*\).*/\1/p')"
diag "booted: $(systemd-analyze time 2>/dev/null | head -n 1)"

DEB=$(ls $L/debs/smackfuse_*.deb 2>/dev/null | head -n 1)
if [ -z "$DEB" ]; then
	not_ok "a smackfuse package in $L/debs"
	done_testing
fi
DKMSDEB=$(ls $L/debs/smackfuse-dkms_*.deb 2>/dev/null | head -n 1)
diag "package: $(dpkg-deb -f "$DEB" Package Version Depends | tr '\n' ' ')"
[ -z "$DKMSDEB" ] ||
	diag "package: $(dpkg-deb -f "$DKMSDEB" Package Version Depends | tr '\n' ' ')"
# The module DKMS built in this release's root on the host
# (dkms-prebuild.sh): DKMS's own way to ship a built module is a tarball
# of `dkms mktarball` in /usr/share/PACKAGE/, which the package's postinst
# loads (dkms ldtarball) and installs for the kernels it holds a build
# for, building only for the others.
PRE=$(ls $L/dkms/smackfuse-*.dkms.tar.gz 2>/dev/null | head -n 1)
if [ -n "$PRE" ] && [ -n "$DKMSDEB" ]; then
	install -D -m 644 "$PRE" "/usr/share/smackfuse-dkms/${PRE##*/}"
	diag "DKMS's build from the host: /usr/share/smackfuse-dkms/${PRE##*/}"
fi
T0=$(cut -d' ' -f1 /proc/uptime)
# Each line of dpkg's output with the uptime it came at (where the time
# goes under TCG); the last line is dpkg's exit status.
{ dpkg -i $DEB $DKMSDEB 2>&1; echo "rc=$?"; } | while IFS= read -r l; do
	echo "$(cut -d' ' -f1 /proc/uptime) $l"
done >/tmp/dpkg-i.out
RC=$(sed -n '$s/^[0-9.]* rc=//p' /tmp/dpkg-i.out)
if [ "$RC" = 0 ]; then
	ok "dpkg -i ${DEB##*/}${DKMSDEB:+ ${DKMSDEB##*/}}"
else
	not_ok "dpkg -i ${DEB##*/}${DKMSDEB:+ ${DKMSDEB##*/}} (rc=$RC)"
fi
diag "dpkg -i took $(awk -v a="$T0" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { print b - a }') s (uptime $T0 at the start):"
sed 's/^/# dpkg: /' /tmp/dpkg-i.out
check_out "dpkg -s smackfuse: install ok installed" "install ok installed" \
	dpkg-query -W -f '${Status}' smackfuse
check_out "the installed version is the package's" "$(dpkg-deb -f "$DEB" Version)" \
	dpkg-query -W -f '${Version}' smackfuse
check_out "smackfuse on PATH is the package's /usr/sbin/smackfuse" /usr/sbin/smackfuse \
	sh -c 'command -v smackfuse'
check_out "dpkg -S /usr/sbin/smackfuse: the package's" "smackfuse: /usr/sbin/smackfuse" \
	dpkg -S /usr/sbin/smackfuse
check_fails "nothing of make install under /usr/local (sbin, etc)" \
	sh -c 'ls /usr/local/sbin/smack* /usr/local/etc/smackfuse 2>/dev/null | grep -q .'
check_out "dpkg -S $UNIT: the package's" "smackfuse: $UNIT" dpkg -S $UNIT
check_out "systemd loads $U from $UNIT" "$UNIT" \
	sh -c "readlink -f \"\$(systemctl show -p FragmentPath --value $U)\""
check "... whose ExecStart runs /usr/sbin/smackfuse" \
	sh -c "systemctl show -p ExecStart --value $U | grep -q 'path=/usr/sbin/smackfuse '"
check_out "dpkg -S pam_smackfuse.so: $PAMSO (the package's PAM directory)" \
	"smackfuse: $PAMSO" dpkg -S $PAMSO
check "$PAMSO is there" test -f $PAMSO
check_out "the package's daemon reads /etc/smackfuse" /etc/smackfuse \
	sh -c "smackfuse --help 2>&1 | sed -n 's/^.*users map (default \(.*\)\/users).*\$/\1/p'"
check "/etc/smackfuse/accesses.d is there (the package's layout)" \
	test -d /etc/smackfuse/accesses.d
if [ -n "$DKMSDEB" ]; then
	K=$(uname -r)
	check_out "dpkg -s smackfuse-dkms: install ok installed" "install ok installed" \
		dpkg-query -W -f '${Status}' smackfuse-dkms
	V=$(dpkg-deb -f "$DKMSDEB" Version)
	check "the module's source is in /usr/src/smackfuse-${V%-*}" \
		test -f "/usr/src/smackfuse-${V%-*}/dkms.conf"
	check "dkms status: smackfuse built and installed for $K" \
		sh -c "dkms status smackfuse -k $K | grep ', $K, x86_64: installed' >/dev/null"
	check "modinfo finds DKMS's smackfuse.ko (/lib/modules/$K/updates/dkms)" \
		sh -c "case \$(modinfo -n smackfuse) in
			/lib/modules/$K/updates/dkms/smackfuse.ko*) ;;
			/usr/lib/modules/$K/updates/dkms/smackfuse.ko*) ;;
			*) exit 1 ;; esac"
	check_out "... built for the running kernel" "$K" \
		sh -c "modinfo -F vermagic smackfuse | cut -d' ' -f1"
	if [ -n "$PRE" ]; then
		check "DKMS installed the build it loaded from ${PRE##*/} (dkms ldtarball; no build here)" \
			sh -c "grep -q '^[0-9.]* Loading tarball for smackfuse' /tmp/dpkg-i.out &&
				! grep -q 'Building initial module' /tmp/dpkg-i.out"
	fi
	dkms status 2>&1 | sed 's/^/# dkms: /'
fi
done_testing
