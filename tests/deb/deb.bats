#!/usr/bin/env bats
# The Debian package: built from a clean clone, clean under lintian,
# installed with dpkg -i on this machine, checked, then purged leaving
# nothing behind. Runs as root where dpkg-buildpackage is (make check-deb).

bats_require_minimum_version 1.5.0

setup_file() {
	command -v dpkg-buildpackage >/dev/null || return 0
	REPO=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	SRC=$BATS_FILE_TMPDIR/irqaff
	# .git is a file in a git worktree; a copy leaves build/ out (make
	# check-kernel's and check-trixie's caches, a chroot's mounts)
	if [ -e "$REPO/.git" ]; then
		git clone -q "$REPO" "$SRC"
		git -C "$SRC" checkout -q "$(git -C "$REPO" rev-parse HEAD)"
	else
		mkdir "$SRC" &&
			tar -C "$REPO" -c --exclude=./build . | tar -x -C "$SRC"
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

# not_installed: skip unless this root machine can install the package
# and remove it again without touching one the administrator installed.
not_installed() {
	[ "$(id -u)" = 0 ] || skip "installing a package needs root"
	if dpkg-query -W -f='${Status}' irqaff 2>/dev/null | grep -q installed; then
		skip "irqaff is already installed on this machine"
	fi
}

# play [OPTIONS]: contrib/ansible/irqaff.yml on localhost, reading and
# writing nothing of the caller's Ansible set-up, against the tree $ROOT.
play() {
	mkdir -p "$BATS_TEST_TMPDIR/home/tmp"
	: >"$BATS_TEST_TMPDIR/home/ansible.cfg"
	(cd "$BATS_TEST_TMPDIR" && HOME=$BATS_TEST_TMPDIR/home \
		ANSIBLE_CONFIG=$BATS_TEST_TMPDIR/home/ansible.cfg ANSIBLE_NOCOLOR=1 \
		ANSIBLE_LOCAL_TEMP=$BATS_TEST_TMPDIR/home/tmp \
		ANSIBLE_REMOTE_TEMP=$BATS_TEST_TMPDIR/home/tmp \
		ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_STDOUT_CALLBACK=default \
		ANSIBLE_PYTHON_INTERPRETER=auto_silent LC_ALL=C.UTF-8 \
		ansible-playbook -i localhost, -c local \
		"$SRC/contrib/ansible/irqaff.yml" -e "irqaff_root=$ROOT" \
		-e "irqaff_config=$BATS_TEST_TMPDIR/conf" \
		-e irqaff_command=/usr/sbin/irqaff "$@")
}

# The PLAY RECAP counts of localhost, one space apart.
recap() {
	printf '%s\n' "$output" | awk '$1 == "localhost" && $2 == ":" {
		$1 = $2 = ""; sub(/^ +/, ""); print }'
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

@test "the playbook installs the package, then changes nothing; the installed irqaff applies the layout" {
	command -v ansible-playbook >/dev/null ||
		skip "ansible-playbook is not installed (Debian: ansible-core)"
	not_installed
	load ../test_helper/tree
	machine_files >"$BATS_TEST_TMPDIR/before"
	make_root --cpus 4 --nic eth0:2:0:40
	mkdir "$ROOT/etc"
	printf 'eth0-TxRx-* 2-3\n' >"$BATS_TEST_TMPDIR/conf"
	PURGE=1

	run play --check -e "irqaff_package=$DEB"
	assert_success
	assert_equal "$(recap)" "ok=3 changed=2 unreachable=0 failed=0 skipped=7 rescued=0 ignored=0"
	assert [ ! -e /usr/sbin/irqaff ]
	assert [ ! -e /var/cache/irqaff ]

	run play -e "irqaff_package=$DEB"
	assert_success
	assert_equal "$(recap)" "ok=5 changed=4 unreachable=0 failed=0 skipped=5 rescued=0 ignored=0"
	run -0 dpkg-query -W -f='${Version}' irqaff
	assert_output "$VERSION"
	assert_equal "$(cat "$ROOT/proc/irq/41/smp_affinity_list")" 2-3
	assert_equal "$(cat "$ROOT/proc/irq/42/smp_affinity_list")" 2-3

	run play -e "irqaff_package=$DEB"
	assert_success
	assert_equal "$(recap)" "ok=5 changed=0 unreachable=0 failed=0 skipped=5 rescued=0 ignored=0"

	run -0 dpkg --purge irqaff
	rm -rf /var/cache/irqaff
	PURGE=
	machine_files >"$BATS_TEST_TMPDIR/after"
	run diff "$BATS_TEST_TMPDIR/before" "$BATS_TEST_TMPDIR/after"
	assert_output ""
}

teardown() {
	if [ -n "${PURGE:-}" ]; then
		dpkg --purge irqaff >/dev/null 2>&1
		rm -rf /var/cache/irqaff
	fi
	if [ -n "${STATE:-}" ]; then
		rm -rf /var/lib/irqaff
	fi
	return 0
}

@test "the package enables the boot units, neither enables nor starts the balance timer, and stops it on removal" {
	local dir=$BATS_TEST_TMPDIR/control
	dpkg-deb -e "$DEB" "$dir"
	# started, restarted or stopped: only a running timer restarted on
	# upgrade (try-restart, with $2 the old version), stopped on removal
	run -0 sed -n 's/^[[:space:]]*\(.*deb-systemd-invoke.*irqaff-balance.*\)/\1/p' \
		"$dir/preinst" "$dir/postinst" "$dir/prerm" "$dir/postrm"
	assert_output - <<-'EOF'
		deb-systemd-invoke try-restart 'irqaff-balance.timer' >/dev/null || true
		deb-systemd-invoke stop irqaff-balance.timer >/dev/null || true
	EOF
	run -0 grep -B 1 "try-restart 'irqaff-balance.timer'" "$dir/postinst"
	assert_line --index 0 --regexp '^[[:space:]]*if \[ -n "\$2" \]; then$'
	run -0 grep -B 2 'stop irqaff-balance.timer' "$dir/prerm"
	assert_line --index 0 --partial '[ "$1" = remove ]'
	# enabled only where the administrator had enabled it (was-enabled):
	# the line before each enable, comments left out
	run -0 awk '/^[[:space:]]*(#|$)/ { next }
		/deb-systemd-helper enable .irqaff-balance/ { print prev }
		{ prev = $0 }' "$dir/postinst"
	assert_output --regexp "^[[:space:]]*if deb-systemd-helper --quiet was-enabled 'irqaff-balance.timer'; then\$"
	# the service, started by the timer alone, in no maintainer script
	run grep -l 'irqaff-balance.service' "$dir/preinst" "$dir/postinst" \
		"$dir/prerm" "$dir/postrm"
	assert_output ""
	# the boot units enabled on first installation
	run -0 grep -c "^[[:space:]]*deb-systemd-helper enable 'irqaff-\(restore\|isolate\).service'" \
		"$dir/postinst"
	assert_output 2
}

@test "the package carries every man page, the JSON schemas, the README and the example snapshot" {
	local scd page example f
	run -0 dpkg-deb -c "$DEB"
	for scd in "$SRC"/man/irqaff*.8.scd; do
		page=${scd##*/}
		assert_line --regexp " \./usr/share/man/man8/${page%.scd}\.gz\$"
	done
	for f in "$SRC"/schemas/*.json; do
		assert_line --regexp " \./usr/share/irqaff/schemas/${f##*/}\$"
	done
	assert_line --regexp ' \./usr/share/doc/irqaff/README\.md(\.gz)?$'
	assert_line --regexp \
		' \./usr/share/doc/irqaff/examples/irqaff\.conf(\.gz)?$'
	# the snapshot as tests/commands/save.bats keeps it
	example=$(grep -o '\./usr/share/doc/irqaff/examples/irqaff\.conf.*' \
		<<<"$output")
	dpkg-deb --fsys-tarfile "$DEB" | tar -xO "$example" | zcat -f |
		cmp - "$SRC/contrib/examples/irqaff.conf"
}

@test "dpkg -i installs every file in place, and dpkg --purge leaves nothing" {
	not_installed
	machine_files >"$BATS_TEST_TMPDIR/before"
	PURGE=1

	run -0 dpkg -i "$DEB"
	run -0 /usr/sbin/irqaff --version
	assert_output "irqaff $VERSION"
	if command -v man >/dev/null; then
		run -0 man -w irqaff
		assert_output /usr/share/man/man8/irqaff.8.gz
		run -0 man -w 5 irqaff.conf
		assert_output /usr/share/man/man5/irqaff.conf.5.gz
		run -0 man -w irqaff-balance
		assert_output /usr/share/man/man8/irqaff-balance.8.gz
	fi
	assert [ -f /usr/share/bash-completion/completions/irqaff ]
	assert [ -f /usr/share/zsh/vendor-completions/_irqaff ]
	assert [ -f /usr/share/fish/vendor_completions.d/irqaff.fish ]
	# The unit is where debhelper finds it (debian/rules): /usr/lib from
	# 13.11.6 on (Debian 13), /lib before (Debian 12).
	local unitdir=/lib/systemd/system
	if dpkg --compare-versions "$(dpkg-query -W -f='${Version}' debhelper)" \
	    ge 13.11.6; then
		unitdir=/usr/lib/systemd/system
	fi
	run -0 dpkg -S irqaff-restore.service
	assert_output "irqaff: $unitdir/irqaff-restore.service"
	run -0 grep -x 'ExecStart=/usr/sbin/irqaff restore ${IRQAFF_CONF}' \
		"$unitdir/irqaff-restore.service"
	run -0 dpkg -S irqaff-isolate.service
	assert_output "irqaff: $unitdir/irqaff-isolate.service"
	run -0 grep -x 'ExecStart=/usr/sbin/irqaff isolate --again' \
		"$unitdir/irqaff-isolate.service"
	# Enabled the Debian way (deb-systemd-helper), not started.
	assert [ -L /etc/systemd/system/multi-user.target.wants/irqaff-restore.service ]
	assert [ -L /etc/systemd/system/multi-user.target.wants/irqaff-isolate.service ]
	# The balance timer and its service installed, neither enabled.
	run -0 dpkg -S irqaff-balance.timer
	assert_output "irqaff: $unitdir/irqaff-balance.timer"
	run -0 dpkg -S irqaff-balance.service
	assert_output "irqaff: $unitdir/irqaff-balance.service"
	run -0 grep -x 'ExecStart=/usr/sbin/irqaff balance -q -i ${IRQAFF_BALANCE_INTERVAL} $IRQAFF_BALANCE_OPTIONS $IRQAFF_BALANCE_IRQS' \
		"$unitdir/irqaff-balance.service"
	run find /etc/systemd -name 'irqaff-balance*'
	assert_output ""
	assert [ ! -e /var/lib/systemd/deb-systemd-helper-enabled/timers.target.wants/irqaff-balance.timer ]
	for h in /etc/network/if-up.d/irqaff \
	    /etc/networkd-dispatcher/configured.d/irqaff \
	    /etc/NetworkManager/dispatcher.d/90-irqaff; do
		assert [ -x "$h" ]
		run -0 grep -c /usr/sbin/irqaff "$h"
	done
	# CPU hotplug: the udev rule beside the units, its script, its unit
	run -0 dpkg -S 60-irqaff-cpu.rules
	assert_output "irqaff: ${unitdir%/systemd/system}/udev/rules.d/60-irqaff-cpu.rules"
	run -0 grep -c 'RUN+="/usr/bin/systemctl --no-block start irqaff-hotplug.service"' \
		"${unitdir%/systemd/system}/udev/rules.d/60-irqaff-cpu.rules"
	assert [ -x /usr/libexec/irqaff/cpu-hotplug ]
	run -0 grep -c '/usr/sbin/irqaff ' /usr/libexec/irqaff/cpu-hotplug
	assert_output 2
	run -0 grep -x 'ExecStart=/usr/libexec/irqaff/cpu-hotplug' \
		"$unitdir/irqaff-hotplug.service"
	run find /etc/systemd -name 'irqaff-hotplug*'
	assert_output ""
	run -0 dpkg-query -W -f='${Conffiles}\n' irqaff
	assert_line --regexp '^ /etc/default/irqaff [0-9a-f]{32}$'
	assert_line --regexp '^ /etc/network/if-up.d/irqaff [0-9a-f]{32}$'

	# silently: no directory of the package is left "not empty"
	run -0 dpkg --purge irqaff
	refute_output --partial warning
	PURGE=
	machine_files >"$BATS_TEST_TMPDIR/after"
	run diff "$BATS_TEST_TMPDIR/before" "$BATS_TEST_TMPDIR/after"
	assert_success
	assert_output ""
}

@test "dpkg --purge removes the CPUs isolate remembered, dpkg --remove keeps them" {
	not_installed
	[ ! -e /var/lib/irqaff ] ||
		skip "/var/lib/irqaff exists on this machine"
	PURGE=1
	run -0 dpkg -i "$DEB"
	# as "irqaff isolate 1" leaves it, without isolating this machine
	STATE=1
	mkdir /var/lib/irqaff
	printf '1\n' >/var/lib/irqaff/isolated
	run -0 dpkg --remove irqaff
	assert [ -f /var/lib/irqaff/isolated ]
	run -0 dpkg --purge irqaff
	PURGE=
	refute_output --partial warning
	assert [ ! -e /var/lib/irqaff ]
}
