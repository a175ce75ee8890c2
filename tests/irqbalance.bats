#!/usr/bin/env bats
# The irqbalance warning: set, restore and spread warn once on standard
# error when irqbalance is running, unless -q (or --quiet, or for spread
# -n); show and check only read, and never warn; bad input is refused
# first.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper/common-setup
	_common_setup
	# tree is the snapshot tests' machine, nic the spread tests'
	load test_helper/snapshot
	load test_helper/spread
	WARN='irqaff: warning: irqbalance is running and may move these IRQs again; keep it off them with IRQBALANCE_BANNED_CPULIST or its --banirq option, or stop it (systemctl disable --now irqbalance)'
}

@test "with irqbalance running, set and restore warn once on stderr, show does not" {
	tree 40 50 --irqbalance
	run --separate-stderr irqaff set 41 1
	assert_success
	assert_equal "$stderr" "$WARN"
	irqaff save -o "$SNAP"
	irqaff set -q 41 2
	run --separate-stderr irqaff restore "$SNAP"
	assert_success
	assert_equal "$stderr" "$WARN"
	assert_file "$(list_of 41)" $'1\n'
	run --separate-stderr irqaff show 41
	assert_success
	assert_equal "$stderr" ""
}

@test "-q and --quiet silence the irqbalance warning" {
	tree 40 50 --irqbalance
	irqaff save -o "$SNAP"
	local cmd
	for cmd in "set -q 41 1" "set --quiet 41 2" "restore -q $SNAP" \
		"restore --quiet $SNAP" "show -q" "show --quiet 41"; do
		# shellcheck disable=SC2086
		run --separate-stderr irqaff $cmd
		assert_success
		assert_equal "$stderr" ""
	done
}

@test "without irqbalance there is no warning, and check never warns" {
	tree
	irqaff save -o "$SNAP"
	run --separate-stderr irqaff set 41 1
	assert_equal "$stderr" ""
	run --separate-stderr irqaff show
	assert_equal "$stderr" ""
	make_root --dir "$BATS_TEST_TMPDIR/b" --cpus 8 --nic eth0:3:0:40 \
		--nvme nvme0:2:0:50 --irqbalance
	run --separate-stderr irqaff check "$SNAP"
	assert_success
	assert_equal "$stderr" ""
}

@test "the irqbalance warning waits for valid input" {
	tree 40 50 --irqbalance
	run --separate-stderr irqaff set 41 99
	assert_failure 2
	assert_equal "$stderr" 'irqaff: CPU list "99": CPU 99 is beyond the last possible CPU 7'
	printf 'eth0 99\n' >"$SNAP"
	run --separate-stderr irqaff restore "$SNAP"
	assert_failure 2
	assert_equal "$stderr" "irqaff: $SNAP:1: CPU list \"99\": CPU 99 is beyond the last possible CPU 7"
}

@test "spread warns that irqbalance is running unless -q or -n" {
	nic --irqbalance
	run --separate-stderr irqaff spread -c 1 24
	assert_success
	[[ $stderr == "irqaff: warning: irqbalance is running"* ]] ||
		fail "no irqbalance warning: $stderr"
	run --separate-stderr irqaff spread -q -c 1 24
	assert_success
	assert_equal "$stderr" ""
	run --separate-stderr irqaff spread -n -c 1 24
	assert_success
	assert_equal "$stderr" ""
	assert_file "$(list_of 24)" $'1\n'
}
