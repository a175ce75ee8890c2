#!/usr/bin/env bats
# IRQ selectors, shared by set, spread and show: numbers, ranges, all,
# globs over whole action names, dev:NAME; an item that matches nothing
# is an error and nothing is written.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper/common-setup
	_common_setup
	# 40 eth0, 41 eth0-TxRx-0, 42 eth0-TxRx-1 (PCI 0000:3b:00.0);
	# 50 nvme0q0, 51 nvme0q1, 52 nvme0q2 (PCI 0000:3c:00.0).
	make_root --cpus 4 --irq '24=eth1' --irq '25=eth10-TxRx-0' \
		--irq '26=name with spaces' --irq '27=a,b|c d' --irq '30=timer' \
		--nic eth0:2:0:40 --nvme nvme0:2:0:50
}

# The IRQs that show selects, one a line.
selected() {
	run --separate-stderr irqaff show -n -o irq "$@"
}

@test "a number selects that IRQ" {
	selected 24
	assert_success
	assert_output "24"
	assert_equal "$stderr" ""
}

@test "a range selects the IRQs in it that exist" {
	selected 26-41
	assert_success
	assert_output "$(printf '%s\n' 26 27 30 40 41)"
}

@test "a range of one IRQ is that IRQ" {
	selected 30-30
	assert_success
	assert_output "30"
}

@test "all selects every IRQ directory, also those without a row in interrupts" {
	mkdir "$(irq_dir 60)"
	selected all
	assert_success
	assert_output "$(printf '%s\n' 24 25 26 27 30 40 41 42 50 51 52 60)"
}

@test "a glob matches a whole action name, not a prefix" {
	selected eth1
	assert_success
	assert_output "24"
}

@test "a glob with a star matches every name it fits" {
	selected 'eth1*'
	assert_success
	assert_output "$(printf '%s\n' 24 25)"
}

@test "eth0-* picks the queues and leaves out the IRQ named eth0" {
	selected 'eth0-*'
	assert_success
	assert_output "$(printf '%s\n' 41 42)"
}

@test "a glob with a bracket expression picks what it describes" {
	selected 'nvme0q[12]'
	assert_success
	assert_output "$(printf '%s\n' 51 52)"
}

@test "a glob matches a name with spaces" {
	selected 'name with spaces'
	assert_success
	assert_output "26"
}

@test "a glob matches any one action of a shared IRQ" {
	selected 'c d'
	assert_success
	assert_output "27"
}

@test "a glob matches an action name with a comma in it" {
	selected 'a?b'
	assert_success
	assert_output "27"
}

@test "a glob does not match a piece of an action name cut at its comma" {
	selected a
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" 'irqaff: IRQ list "a": "a" matches no IRQ'
}

@test "a glob is matched against action names, not the joined NAME column" {
	selected '*b, c*'
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" 'irqaff: IRQ list "*b, c*": " c*" matches no IRQ'
}

@test "dev:NAME selects the MSI IRQs of a network interface" {
	selected dev:eth0
	assert_success
	assert_output "$(printf '%s\n' 40 41 42)"
}

@test "dev:NAME selects the MSI IRQs of a PCI address" {
	selected dev:0000:3b:00.0
	assert_success
	assert_output "$(printf '%s\n' 40 41 42)"
}

@test "dev:NAME selects the MSI IRQs of an NVMe controller" {
	selected dev:nvme0
	assert_success
	assert_output "$(printf '%s\n' 50 51 52)"
}

@test "dev:NAME without msi_irqs entries falls back to the device's irq file" {
	rm "$ROOT"/sys/devices/pci0000:00/0000:3b:00.0/msi_irqs/*
	selected dev:eth0
	assert_success
	assert_output "40"
}

@test "items combine, in IRQ order and without repeats" {
	selected 'eth0-*,24-25,24,dev:nvme0,timer'
	assert_success
	assert_output "$(printf '%s\n' 24 25 30 41 42 50 51 52)"
}

@test "a number that is no IRQ is an error" {
	selected 99
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "irqaff: IRQ 99 does not exist"
}

@test "a range with no IRQ in it is an error" {
	selected 90-99
	assert_failure 2
	assert_equal "$stderr" 'irqaff: IRQ list "90-99": no IRQ in 90-99'
}

@test "a glob that matches nothing is an error" {
	selected 'nomatch*'
	assert_failure 2
	assert_equal "$stderr" 'irqaff: IRQ list "nomatch*": "nomatch*" matches no IRQ'
}

@test "a device that does not exist is an error" {
	selected dev:eth9
	assert_failure 2
	assert_equal "$stderr" 'irqaff: IRQ list "dev:eth9": device eth9 has no IRQs or does not exist'
}

@test "the first item that matches nothing is reported, in one line" {
	selected 24,98,99
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "irqaff: IRQ 98 does not exist"
}

@test "an empty item is an error" {
	selected 24,,25
	assert_failure 2
	assert_equal "$stderr" 'irqaff: IRQ list "24,,25": empty item'
}

@test "an empty selector is an error" {
	selected ''
	assert_failure 2
	assert_equal "$stderr" 'irqaff: IRQ list "": empty item'
}

@test "a range that runs backwards is an error" {
	selected 27-24
	assert_failure 2
	assert_equal "$stderr" 'irqaff: IRQ list "27-24": range "27-24" runs backwards'
}

@test "a range without its end is an error" {
	selected -- 24-
	assert_failure 2
	assert_equal "$stderr" 'irqaff: IRQ list "24-": "24-" is not an IRQ or range'
}

@test "a number too large for an IRQ is an error" {
	selected 99999999999
	assert_failure 2
	assert_equal "$stderr" 'irqaff: IRQ list "99999999999": IRQ "99999999999" is too large'
}

@test "dev: without a name is an error" {
	selected dev:
	assert_failure 2
	assert_equal "$stderr" 'irqaff: IRQ list "dev:": "dev:" names no device'
}

@test "dev: with a slash is an error and does not leave sys/" {
	selected dev:../../../proc
	assert_failure 2
	assert_equal "$stderr" 'irqaff: IRQ list "dev:../../../proc": "dev:../../../proc" names no device'
}

@test "a selector with a newline is quoted on one line" {
	selected $'no\nsuch'
	assert_failure 2
	assert_equal "$stderr" 'irqaff: IRQ list "no\nsuch": "no\nsuch" matches no IRQ'
}

@test "set writes only the IRQs the glob selects" {
	run --separate-stderr irqaff set eth1 1
	assert_success
	assert_equal "$(cat "$(irq_dir 24)/smp_affinity_list")" "1"
	assert_equal "$(cat "$(irq_dir 25)/smp_affinity_list")" "0-3"
}

@test "set writes every IRQ of dev:NAME" {
	run --separate-stderr irqaff set dev:eth0 2
	assert_success
	assert_equal "$(cat "$(irq_dir 40)/smp_affinity_list")" "2"
	assert_equal "$(cat "$(irq_dir 41)/smp_affinity_list")" "2"
	assert_equal "$(cat "$(irq_dir 42)/smp_affinity_list")" "2"
	assert_equal "$(cat "$(irq_dir 50)/smp_affinity_list")" "0-3"
}

@test "set writes nothing when one item of several matches nothing" {
	local before
	before=$(tree_sum)
	run --separate-stderr irqaff set 'eth0-*,24,nosuch' 1
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" 'irqaff: IRQ list "eth0-*,24,nosuch": "nosuch" matches no IRQ'
	# of several that match nothing, the first is named
	run --separate-stderr irqaff set 'nosuch,24,9999,dev:nosuch' 1
	assert_failure 2
	assert_equal "$stderr" 'irqaff: IRQ list "nosuch,24,9999,dev:nosuch": "nosuch" matches no IRQ'
	assert_equal "$(tree_sum)" "$before"
}
