#!/usr/bin/env bats
# Isolated CPUs (isolcpus= with domain or managed_irq, nohz_full=, by the
# kernel command line or sysfs) are left out of the pools spread and
# balance build from node:K, all or a device's node, unless named by
# number or --include-isolated is given; set onto them warns.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	load ../test_helper/spread
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

# iso16 with no IRQ but a NIC: eth0 (24) and eth0-TxRx-0 to 7 (25-32).
nic16() {
	make_root --cpus 16 --nodes 2 --isolated 12-15 --nohz-full 12-15 \
		--cmdline 'ro isolcpus=managed_irq,domain,12-15 nohz_full=12-15' \
		--nic "eth0:8:${1:-1}" "${@:2}"
}

ISO='isolated (isolcpus=, nohz_full=)'

@test "spread -c node:1 leaves its isolated CPUs out and says so; by number they stay" {
	nic16
	run --separate-stderr -0 irqaff spread -n -c node:1 'eth0-TxRx-*'
	assert_output "$(txrx 8 9 10 11 8 9 10 11)"
	assert_equal "$stderr" "irqaff: spreading 8 IRQs over CPU 8-11: node:1 as asked, 12-15 $ISO left out"
	run --separate-stderr -0 irqaff spread -n -c node:1,14 'eth0-TxRx-*'
	assert_output "$(txrx 8 9 10 11 14 8 9 10)"
	assert_equal "$stderr" "irqaff: spreading 8 IRQs over CPU 8-11,14: node:1,14 as asked, 12-13,15 $ISO left out"
	run --separate-stderr -0 irqaff spread -n -c 8-15 'eth0-TxRx-*'
	assert_output "$(txrx 8 9 10 11 12 13 14 15)"
	assert_equal "$stderr" 'irqaff: spreading 8 IRQs over CPU 8-15: 8-15 as asked'
	run --separate-stderr -0 irqaff spread -n -c node:1 --include-isolated 'eth0-TxRx-*'
	assert_output "$(txrx 8 9 10 11 12 13 14 15)"
	assert_equal "$stderr" 'irqaff: spreading 8 IRQs over CPU 8-15: node:1 as asked'
}

@test "spread -c all leaves the isolated CPUs out; a mask names its CPUs" {
	nic16
	run --separate-stderr -0 irqaff spread -n --linear -c all 25-28
	assert_output "$(txrx 0 1 2 3)"
	assert_equal "$stderr" "irqaff: spreading 4 IRQs over CPU 0-11: all as asked, 12-15 $ISO left out"
	run --separate-stderr -0 irqaff spread -n -c 0xf000 25-28
	assert_output "$(txrx 12 13 14 15)"
}

@test "spread of a NIC leaves out CPUs isolcpus=managed_irq isolates, which sysfs does not show" {
	make_root --cpus 16 --nodes 2 --cmdline 'ro isolcpus=managed_irq,12-15' --nic eth0:8:1
	local sum
	sum=$(tree_sum)
	run --separate-stderr -0 irqaff spread -n 'eth0-TxRx-*'
	assert_output "$(txrx 8 9 10 11 8 9 10 11)"
	assert_equal "$stderr" "irqaff: spreading eth0's 8 IRQs over CPU 8-11: node 1 (eth0's node), 12-15 isolated (isolcpus=) left out"
	assert_equal "$(tree_sum)" "$sum"
}

@test "spread of a NIC with no NUMA node spreads over every node and says so" {
	nic16 -1
	run --separate-stderr -0 irqaff spread -n --linear 'eth0-TxRx-*'
	assert_output "$(txrx 0 1 2 3 4 5 6 7)"
	assert_equal "$stderr" "irqaff: spreading eth0's 8 IRQs over CPU 0-11: every node (eth0 has no NUMA node), 12-15 $ISO left out"
	run --separate-stderr -0 irqaff spread -n --include-isolated --linear -x 0-7 dev:eth0
	assert_equal "$stderr" "irqaff: spreading eth0's 9 IRQs over CPU 8-15: every node (eth0 has no NUMA node), 0-7 excluded left out"
}

@test "spread -q says nothing of its pool; -J puts the pool in the result instead" {
	nic16
	run --separate-stderr -0 irqaff spread -n -q 'eth0-TxRx-*'
	assert_output "$(txrx 8 9 10 11 8 9 10 11)"
	assert_equal "$stderr" ''
	run --separate-stderr -0 irqaff spread -J 'eth0-TxRx-0'
	assert_equal "$stderr" ''
	assert_output '{"dry_run":false,"changed":[{"irq":25,"name":"eth0-TxRx-0","old":"0-15","new":"8"}],"unchanged":0,"failed":[],"managed":[],"unmovable":[],"pool":{"cpus":"8-11","from":"node","device":"eth0","node":1,"isolated":"12-15","excluded":"","offline":""}}'
	assert_file "$(list_of 25)" $'8\n'
}

# balance -n over a short interval: its stderr, and the CPUs it used.
balance_pool() {
	run --separate-stderr irqaff balance -n -i 0.05 "$@"
	cpus=$(sed -n 's/^imbalance: - (no interrupts on CPUs \(.*\))$/\1/p' <<<"$output")
}

@test "balance leaves isolated CPUs out of node:K, all and its default, and says so" {
	iso16
	balance_pool
	assert_success
	assert_equal "$cpus" 0-11
	assert_equal "$stderr" "irqaff: balance: CPU 12-15 $ISO left out"
	balance_pool --cpus node:1
	assert_equal "$cpus" 8-11
	assert_equal "$stderr" "irqaff: balance: CPU 12-15 $ISO left out"
	balance_pool --cpus all -q
	assert_equal "$cpus" 0-11
	assert_equal "$stderr" ''
	balance_pool --cpus 10-15
	assert_equal "$cpus" 10-15
	assert_equal "$stderr" ''
	balance_pool --cpus node:1 --include-isolated
	assert_equal "$cpus" 8-15
	assert_equal "$stderr" ''
	run --separate-stderr -0 irqaff balance -n -J -i 0.05 --cpus node:1
	assert_equal "$stderr" ''
	assert_output --partial '"cpus":"8-11","isolated":"12-15","imbalance"'
}

@test "balance over isolated CPUs only, named by node, fails and writes nothing" {
	make_root --cpus 8 --nodes 2 --isolated 4-7 --irq 24=a
	local sum
	sum=$(tree_sum)
	run --separate-stderr -2 irqaff balance -i 0.05 --cpus node:1
	assert_output ''
	assert_equal "$stderr" 'irqaff: balance: every CPU of "node:1" is isolated or nohz_full; name them by number or give --include-isolated'
	assert_equal "$(tree_sum)" "$sum"
}

# issue 52's pin: what isolates a CPU, each source named once, comma-joined
@test "set names both isolcpus= and irqaff isolate for a CPU isolated twice, comma included" {
	make_root --cpus 8 --isolated 3 --cmdline 'ro isolcpus=3' --irq 24=a
	run --separate-stderr -0 irqaff set -n 24 3
	assert_equal "$stderr" 'irqaff: warning: CPU 3 is isolated (isolcpus=): IRQs there interrupt the tasks isolated on them'
	mkdir -p "$ROOT/var/lib/irqaff"
	printf '2-3\n' >"$ROOT/var/lib/irqaff/isolated"
	run --separate-stderr -0 irqaff set -n 24 3
	assert_output 'irq 24: 0-7 -> 3'
	assert_equal "$stderr" 'irqaff: warning: CPU 3 is isolated (isolcpus=, irqaff isolate): IRQs there interrupt the tasks isolated on them'
	run --separate-stderr -0 irqaff set -n 24 2
	assert_equal "$stderr" 'irqaff: warning: CPU 2 is isolated (irqaff isolate): IRQs there interrupt the tasks isolated on them'
}
