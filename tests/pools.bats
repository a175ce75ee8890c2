#!/usr/bin/env bats
# Isolated CPUs (isolcpus= with domain or managed_irq, nohz_full=, by the
# kernel command line or sysfs) are left out of the pools spread and
# balance build from node:K, all or a device's node, unless named by
# number or --include-isolated is given; set onto them warns.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper/common-setup
	_common_setup
}

# Sixteen CPUs on two nodes (0-7, 8-15), 12-15 isolated as amd64-16-iso
# boots them (isolcpus=managed_irq,domain,12-15 nohz_full=12-15).
iso16() {
	make_root --cpus 16 --nodes 2 --isolated 12-15 --nohz-full 12-15 \
		--cmdline 'BOOT_IMAGE=/vmlinuz ro isolcpus=managed_irq,domain,12-15 nohz_full=12-15 irqaffinity=0-11' \
		--irq 24=a --irq 25=b "$@"
}

@test "set onto isolated CPUs warns with the overlap only and still writes" {
	iso16
	run --separate-stderr -0 irqaff set 24 8-13
	assert_output ''
	assert_equal "$stderr" 'irqaff: warning: CPU 12-13 of 8-13 are isolated (isolcpus=, nohz_full=): IRQs there interrupt the tasks isolated on them'
	assert_file "$(list_of 24)" $'8-13\n'
}

@test "set onto CPUs all isolated says the set once, and -q silences it" {
	iso16
	run --separate-stderr -0 irqaff set -n 24 15
	assert_equal "$stderr" 'irqaff: warning: CPU 15 is isolated (isolcpus=, nohz_full=): IRQs there interrupt the tasks isolated on them'
	run --separate-stderr -0 irqaff set -q 24 node:1
	assert_equal "$stderr" ''
	assert_file "$(list_of 24)" $'8-15\n'
}

@test "set names what isolates a CPU: isolcpus=managed_irq alone, which sysfs does not show" {
	make_root --cpus 8 --nohz-full 7 --cmdline 'ro isolcpus=managed_irq,5-6' --irq 24=a
	run --separate-stderr -0 irqaff set 24 4-5
	assert_equal "$stderr" 'irqaff: warning: CPU 5 of 4-5 is isolated (isolcpus=): IRQs there interrupt the tasks isolated on them'
	run --separate-stderr -0 irqaff set 24 7
	assert_equal "$stderr" 'irqaff: warning: CPU 7 is isolated (nohz_full=): IRQs there interrupt the tasks isolated on them'
	run --separate-stderr -0 irqaff set 24 0-4
	assert_equal "$stderr" ''
}

@test "isolcpus=nohz alone does not keep IRQs off a CPU: set says nothing" {
	make_root --cpus 8 --cmdline 'ro isolcpus=nohz,5' --irq 24=a
	run --separate-stderr -0 irqaff set 24 5
	assert_equal "$stderr" ''
	run --separate-stderr -0 irqaff set 24 0-4
	assert_equal "$stderr" ''
}
