#!/usr/bin/env bats
# The CPU hotplug hook (hooks/irqaff-cpu.in), run as irqaff-hotplug.service
# runs it, against trees; the unit (systemd/irqaff-hotplug.service.in) and
# the udev rule that starts it (udev/60-irqaff-cpu.rules).

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	SRC=$BATS_TEST_DIRNAME/../..
	BIN=$(dirname "$IRQAFF_BIN")
	HOOK=$BATS_TEST_TMPDIR/cpu-hotplug
	sed "s|@SBINDIR@|$BIN|g" "$SRC/hooks/irqaff-cpu.in" >"$HOOK"
	chmod 0755 "$HOOK"
	UNIT=$BATS_TEST_TMPDIR/irqaff-hotplug.service
	sed -e "s|@SBINDIR@|$BIN|g" -e "s|@LIBEXECDIR@/irqaff/cpu-hotplug|$HOOK|g" \
		"$SRC/systemd/irqaff-hotplug.service.in" >"$UNIT"
	make_root --cpus 8 --nic eth0:2 --nic eth1:2 --legacy 4
	CONF=$BATS_TEST_TMPDIR/irqaff.conf
	cat >"$CONF" <<-'EOF2'
		default 0-5
		eth0-TxRx-* 2-3
		eth1-TxRx-0 4
		eth1-TxRx-1 5
	EOF2
	BEFORE=$BATS_TEST_TMPDIR/before
}

# hook: run the hook as the unit does: IRQAFF_CONF=$CONF unless the test
# set IRQAFF_CONF (empty or not), no settling; PATH, IRQAFF_ROOT and the
# fault injector's variables.
hook() {
	env -i "PATH=$PATH" "IRQAFF_ROOT=$ROOT" \
		"IRQAFF_CONF=${IRQAFF_CONF-$CONF}" IRQAFF_HOTPLUG_SETTLE=0 \
		${LD_PRELOAD+"LD_PRELOAD=$LD_PRELOAD"} \
		${IRQAFF_FAULT+"IRQAFF_FAULT=$IRQAFF_FAULT"} \
		${ASAN_OPTIONS+"ASAN_OPTIONS=$ASAN_OPTIONS"} "$HOOK"
}

# respread: eth0's and eth1's queue IRQs (24 to 29) on all CPUs, as
# virtio_net leaves them after a CPU goes offline or online
# (virtnet_set_affinity()); keep a copy of the tree in $BEFORE.
respread() {
	local irq
	for irq in 24 25 26 27 28 29; do
		printf '0-7\n' >"$(list_of "$irq")"
		printf 'ff\n' >"$(irq_dir "$irq")/smp_affinity"
	done
	rm -rf "$BEFORE"
	cp -a "$ROOT" "$BEFORE"
}

# changed: the files that differ between $BEFORE and the tree.
changed() {
	diff -rq --no-dereference "$BEFORE" "$ROOT" |
		sed "s|^Files $BEFORE/\\(.*\\) and $ROOT/.* differ\$|\\1|"
}

@test "after a CPU goes offline, the hook applies the configuration and the isolation again" {
	irqaff restore -q "$CONF"
	irqaff isolate -q 6-7
	set_online 0-2,4-7
	respread
	run --separate-stderr hook
	assert_success
	assert_output ""
	assert_equal "$stderr" "irqaff: note: CPU 3 is offline"
	run lists 24 25 26 27 28 29
	assert_output $'0-5\n2-3\n2-3\n0-5\n4\n5'
	run changed
	assert_output - <<-'EOF2'
		proc/irq/24/smp_affinity_list
		proc/irq/25/smp_affinity_list
		proc/irq/26/smp_affinity_list
		proc/irq/27/smp_affinity_list
		proc/irq/28/smp_affinity_list
		proc/irq/29/smp_affinity_list
	EOF2
	run -0 irqaff isolate -q --check 6-7
	run -0 irqaff check -q "$CONF"
}

@test "after the CPU comes back online, the hook applies them again, without a note" {
	irqaff isolate -q 6-7
	set_online 0-2,4-7
	set_online 0-7
	respread
	run --separate-stderr hook
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	run lists 24 25 26 27 28 29
	assert_output $'0-5\n2-3\n2-3\n0-5\n4\n5'
	assert_file "$ROOT/proc/irq/default_smp_affinity" $'3f\n'
	run -0 irqaff isolate -q --check 6-7
	# a second run writes nothing
	rm -rf "$BEFORE"
	cp -a "$ROOT" "$BEFORE"
	run --separate-stderr hook
	assert_success
	assert_equal "$stderr" ""
	run changed
	assert_output ""
}

@test "a line whose CPUs are all offline is said once on standard error; the hook applies the others and exits 0" {
	set_online 0-3,5-7
	respread
	run -3 --separate-stderr irqaff restore -q "$CONF"
	assert_equal "$stderr" "irqaff: note: CPU 4 is offline
irqaff: $CONF:3: irq 28: CPU list \"4\": selects no online CPU"
	rm -rf "$ROOT"
	cp -a "$BEFORE" "$ROOT"
	run --separate-stderr hook
	assert_success
	assert_output ""
	assert_equal "$stderr" "irqaff: note: CPU 4 is offline
irqaff: $CONF:3: irq 28: CPU list \"4\": selects no online CPU"
	run lists 25 26 28 29
	assert_output $'2-3\n2-3\n0-7\n5'
	# once the CPU is back, the line applies
	set_online 0-7
	run --separate-stderr hook
	assert_success
	assert_equal "$stderr" ""
	run lists 28
	assert_output 4
}

@test "without the configuration and with no CPUs remembered, the hook writes nothing and says nothing" {
	local conf
	respread
	for conf in "$BATS_TEST_TMPDIR/absent.conf" ''; do
		IRQAFF_CONF=$conf run --separate-stderr hook
		assert_success
		assert_output ""
		assert_equal "$stderr" ""
		run changed
		assert_output ""
	done
	assert [ ! -e "$ROOT/var/lib/irqaff" ]
}

@test "without the configuration, the hook isolates the remembered CPUs again" {
	irqaff isolate -q 6-7
	respread
	IRQAFF_CONF='' run --separate-stderr hook
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	run lists 24 25 26 27 28 29
	assert_output $'0-5\n0-5\n0-5\n0-5\n0-5\n0-5'
	run changed
	assert_output - <<-'EOF2'
		proc/irq/24/smp_affinity_list
		proc/irq/25/smp_affinity_list
		proc/irq/26/smp_affinity_list
		proc/irq/27/smp_affinity_list
		proc/irq/28/smp_affinity_list
		proc/irq/29/smp_affinity_list
	EOF2
}

@test "the hook exits 0 when irqaff fails, with irqaff's message on standard error, and still isolates" {
	irqaff isolate -q 6-7
	printf 'eth0-TxRx-* 99\n' >>"$CONF"
	respread
	run --separate-stderr hook
	assert_success
	assert_output ""
	assert_equal "$stderr" "irqaff: $CONF:5: CPU list \"99\": CPU 99 is \
beyond the last possible CPU 7"
	run lists 24 25 26 27 28 29
	assert_output $'0-5\n0-5\n0-5\n0-5\n0-5\n0-5'
}

@test "the hook exits 0 when irqaff is not where it was installed" {
	sed 's|@SBINDIR@|/nonexistent|g' "$SRC/hooks/irqaff-cpu.in" >"$HOOK"
	respread
	run --separate-stderr hook
	assert_success
	assert_output ""
	[[ $stderr == *'/nonexistent/irqaff'* ]]
	run changed
	assert_output ""
}

# fake_irqaff [CPUS]: the hook runs a logging stand-in for irqaff, which
# writes CPUS as the online CPUs at its first call, as if CPUs went
# offline while it ran.
fake_irqaff() {
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	cat >"$BATS_TEST_TMPDIR/bin/irqaff" <<-EOF2
		#!/bin/sh
		echo "\$*" >>"$BATS_TEST_TMPDIR/calls"
		if [ -n "${1-}" ] && [ ! -e "$BATS_TEST_TMPDIR/flipped" ]; then
			: >"$BATS_TEST_TMPDIR/flipped"
			printf '%s\n' "${1-}" >"\$IRQAFF_ROOT/sys/devices/system/cpu/online"
		fi
	EOF2
	chmod 0755 "$BATS_TEST_TMPDIR/bin/irqaff"
	sed "s|@SBINDIR@|$BATS_TEST_TMPDIR/bin|g" "$SRC/hooks/irqaff-cpu.in" \
		>"$HOOK"
}

@test "the hook runs once while the online CPUs hold, and again when they change while irqaff runs" {
	fake_irqaff
	run -0 hook
	assert_output ""
	assert_file "$BATS_TEST_TMPDIR/calls" "restore -q $CONF
isolate -q --again
"
	rm "$BATS_TEST_TMPDIR/calls"
	fake_irqaff 0-5
	run -0 hook
	assert_output ""
	assert_file "$BATS_TEST_TMPDIR/calls" "restore -q $CONF
isolate -q --again
restore -q $CONF
isolate -q --again
"
}

@test "the hook source is POSIX sh and shellcheck-clean" {
	run head -n 1 "$SRC/hooks/irqaff-cpu.in"
	assert_output '#!/bin/sh'
	command -v shellcheck >/dev/null || skip "shellcheck is not installed"
	run shellcheck -s sh "$SRC/hooks/irqaff-cpu.in"
	assert_success
	assert_output ""
}

@test "the unit runs the hook once per start, with the boot units' configuration, after them" {
	run grep -E '^(Condition|Assert|Exec|After|Requires|Wants|Also|WantedBy|Type|Environment|EnvironmentFile|\[Install\])' \
		"$UNIT"
	assert_output - <<-EOF2
		After=irqaff-restore.service irqaff-isolate.service
		Type=oneshot
		Environment=IRQAFF_CONF=/etc/irqaff.conf
		EnvironmentFile=-/etc/default/irqaff
		ExecStart=$HOOK
	EOF2
}

@test "systemd-analyze verify accepts the hotplug unit" {
	command -v systemd-analyze >/dev/null ||
		skip "systemd-analyze is not installed"
	run systemd-analyze verify --man=no "$UNIT"
	assert_success
	assert_output ""
}

@test "the udev rule starts the unit without waiting at each CPU's online and offline uevent" {
	local rules=$SRC/udev/60-irqaff-cpu.rules
	run grep -v -e '^#' -e '^$' "$rules"
	assert_output 'SUBSYSTEM=="cpu", KERNEL=="cpu[0-9]*", ACTION=="online|offline", TEST=="/run/systemd/system", RUN+="/usr/bin/systemctl --no-block start irqaff-hotplug.service"'
	# every key udev knows, each ==, += or =, each value quoted
	run grep -v -e '^#' -e '^$' "$rules"
	tr ',' '\n' <<<"$output" | sed 's/^ //' | while read -r kv; do
		[[ $kv =~ ^(SUBSYSTEM|KERNEL|ACTION|TEST)==\"[^\"]+\"$ ||
			$kv =~ ^RUN\+=\"[^\"]+\"$ ]] || {
			echo "bad: $kv" >&2
			return 1
		}
	done
	if command -v udevadm >/dev/null &&
		udevadm verify --help >/dev/null 2>&1; then
		run udevadm verify --no-style "$rules"
		assert_success
	fi
}
