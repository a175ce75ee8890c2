#!/usr/bin/env bats
# Standard output that fails (a full disk, a closed pipe) never stops a
# command half-way through changing the machine: every change is made,
# the output error is reported once at the end, and the status says the
# machine was changed (4). A command that only reads exits 1.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	make_root --cpus 4 --irq '24=a' --irq '25=b' --irq '26=c'
}

@test "set -v to a full disk makes every change and exits 4" {
	run --separate-stderr -4 bash -c 'irqaff set -v 24-26 2 >/dev/full'
	assert_equal "$stderr" 'irqaff: standard output: No space left on device'
	assert_equal "$(lists 24 25 26)" $'2\n2\n2'
}

@test "set -v with standard output closed makes every change and exits 4" {
	run --separate-stderr -4 bash -c 'irqaff set -v 24-26 2 >&-'
	assert_equal "$stderr" 'irqaff: standard output: Bad file descriptor'
	assert_equal "$(lists 24 25 26)" $'2\n2\n2'
}

@test "set -v into a closed pipe is not killed half-way" {
	# arm64: 5016 IRQs on one CPU are beyond an x86 CPU's vectors
	make_root --dir "$BATS_TEST_TMPDIR/big" --cpus 4 --legacy 16 \
		--nic eth0:5000 --arm64
	run --separate-stderr bash -c \
		'irqaff set -v all 3 | head -n 1; echo "${PIPESTATUS[0]}"'
	assert_equal "${lines[0]}" "irq 0: 0-3 -> 3"
	assert_equal "${lines[1]}" 4
	assert_equal "$stderr" 'irqaff: standard output: Broken pipe'
	run -0 bash -c 'cat "$ROOT"/proc/irq/*/smp_affinity_list | sort -u'
	assert_output 3
}

@test "restore -v to a full disk applies the whole snapshot and exits 4" {
	local snap=$BATS_TEST_TMPDIR/snap
	printf 'default 0-1\n24 1 "a"\n25 2 "b"\n26 3 "c"\n' >"$snap"
	run --separate-stderr -4 bash -c "irqaff restore -q -v '$snap' >/dev/full"
	assert_equal "$stderr" 'irqaff: standard output: No space left on device'
	assert_equal "$(lists 24 25 26)" $'1\n2\n3'
	assert_equal "$(cat "$ROOT/proc/irq/default_smp_affinity")" 3
}

@test "spread -v to a full disk spreads every IRQ and exits 4" {
	run --separate-stderr -4 bash -c 'irqaff spread -q -v --linear 24-26 >/dev/full'
	assert_equal "$stderr" 'irqaff: standard output: No space left on device'
	assert_equal "$(lists 24 25 26)" $'0\n1\n2'
}

@test "a dry run whose output fails changed nothing and exits 1" {
	local before
	before=$(tree_sum)
	run --separate-stderr -1 bash -c 'irqaff set -n 24-26 2 >/dev/full'
	assert_equal "$stderr" 'irqaff: standard output: No space left on device'
	assert_equal "$(tree_sum)" "$before"
}

@test "default, a read-only command, exits 1 when its output fails" {
	run --separate-stderr -1 bash -c 'irqaff default >/dev/full'
	assert_equal "$stderr" 'irqaff: standard output: No space left on device'
	run --separate-stderr -1 bash -c 'irqaff mask -b 8 1 >/dev/full'
	assert_equal "$stderr" 'irqaff: standard output: No space left on device'
	run --separate-stderr -1 bash -c 'irqaff --version >/dev/full'
}

@test "an empty root is a usage error and never the live machine" {
	local before
	before=$(tree_sum)
	run --separate-stderr -2 irqaff --root '' set all 0
	assert_equal "${stderr_lines[0]}" 'irqaff: the root directory is empty; give one, or / for this machine'
	run --separate-stderr -2 irqaff --root= show
	run --separate-stderr -2 env IRQAFF_ROOT= irqaff set all 0
	assert_equal "$(tree_sum)" "$before"
}
