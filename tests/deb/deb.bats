#!/usr/bin/env bats
# The Debian package: built from a clean clone, clean under lintian,
# installed with dpkg -i on this machine, checked, then purged leaving
# nothing behind. Runs as root where dpkg-buildpackage is (make check-deb).

bats_require_minimum_version 1.5.0

setup_file() {
	command -v dpkg-buildpackage >/dev/null || return 0
	REPO=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	SRC=$BATS_FILE_TMPDIR/irqaff
	if [ -d "$REPO/.git" ]; then
		git clone -q "$REPO" "$SRC"
	else
		mkdir "$SRC" && cp -R "$REPO"/. "$SRC"/
	fi
	make -s -C "$SRC" deb >"$BATS_FILE_TMPDIR/build.log" 2>&1 || {
		tail -n 30 "$BATS_FILE_TMPDIR/build.log" >&3
		return 1
	}
}

setup() {
	bats_load_library bats-support
	bats_load_library bats-assert
	command -v dpkg-buildpackage >/dev/null ||
		skip "dpkg-buildpackage is not installed (Debian: dpkg-dev, debhelper)"
	SRC=$BATS_FILE_TMPDIR/irqaff
	VERSION=$(sed -n 's/^VERSION = //p' "$SRC/Makefile")
	ARCH=$(dpkg --print-architecture)
	DEB=$SRC/build/deb/irqaff_${VERSION}_$ARCH.deb
}

# What the package can leave on the machine, one path a line.
machine_files() {
	find /etc /usr /lib /var/lib/systemd /var/lib/dpkg/info -xdev \
		-path /var/lib/dpkg/info/format -prune -o -print 2>/dev/null |
		grep -v '^/usr/lib/python3' | sort
}

@test "the package builds from a clean clone as irqaff_VERSION_ARCH.deb" {
	assert [ -f "$DEB" ]
	run -0 dpkg-deb -f "$DEB" Package Version Architecture Section
	assert_output "Package: irqaff
Version: $VERSION
Architecture: $ARCH
Section: admin"
}

@test "the package depends on the libraries it links and nothing more" {
	run -0 dpkg-deb -f "$DEB" Depends
	assert_output --regexp '^libbsd0 \(>= [0-9.]+\), libc6 \(>= [0-9.]+\)$'
}

@test "lintian reports no errors and no warnings" {
	command -v lintian >/dev/null || skip "lintian is not installed"
	run -0 lintian --allow-root --fail-on error,warning \
		"$SRC/build/deb/irqaff_${VERSION}_$ARCH.changes"
	refute_output --regexp '^[EW]: '
}

@test "dpkg -i installs every file in place, and dpkg --purge leaves nothing" {
	[ "$(id -u)" = 0 ] || skip "installing a package needs root"
	if dpkg-query -W -f='${Status}' irqaff 2>/dev/null | grep -q installed; then
		skip "irqaff is already installed on this machine"
	fi
	machine_files >"$BATS_TEST_TMPDIR/before"

	run -0 dpkg -i "$DEB"
	run -0 /usr/sbin/irqaff --version
	assert_output "irqaff $VERSION"
	if command -v man >/dev/null; then
		run -0 man -w irqaff
		assert_output /usr/share/man/man8/irqaff.8.gz
	fi
	assert [ -f /usr/share/bash-completion/completions/irqaff ]
	assert [ -f /usr/share/zsh/vendor-completions/_irqaff ]
	assert [ -f /usr/share/fish/vendor_completions.d/irqaff.fish ]
	run -0 grep -x 'ExecStart=/usr/sbin/irqaff restore ${IRQAFF_CONF}' \
		/lib/systemd/system/irqaff-restore.service
	# Enabled the Debian way (deb-systemd-helper), not started.
	assert [ -L /etc/systemd/system/multi-user.target.wants/irqaff-restore.service ]
	for h in /etc/network/if-up.d/irqaff \
	    /etc/networkd-dispatcher/configured.d/irqaff \
	    /etc/NetworkManager/dispatcher.d/90-irqaff; do
		assert [ -x "$h" ]
		run -0 grep -c /usr/sbin/irqaff "$h"
	done
	run -0 dpkg-query -W -f='${Conffiles}\n' irqaff
	assert_line --regexp '^ /etc/default/irqaff [0-9a-f]{32}$'
	assert_line --regexp '^ /etc/network/if-up.d/irqaff [0-9a-f]{32}$'

	run -0 dpkg --purge irqaff
	machine_files >"$BATS_TEST_TMPDIR/after"
	run diff "$BATS_TEST_TMPDIR/before" "$BATS_TEST_TMPDIR/after"
	assert_success
	assert_output ""
}
