#!/usr/bin/env bats
# Near misses: an IRQ glob that matches nothing but names a device whose
# IRQs are named otherwise says what would match (an error for commands
# that write, a note for show and explain; exit 1 either way).

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
}

@test "a glob for a virtio NIC's name says how its IRQs are named and to try dev:" {
	make_root --cpus 4 --virtio-nic eth0:2 --virtio-blk vda:2
	local before
	before=$(tree_sum)
	run -1 --separate-stderr irqaff show -n 'eth0-*'
	assert_output ""
	assert_equal "$stderr" 'irqaff: note: IRQ list "eth0-*": "eth0-*" matches no IRQ; eth0'"'"'s IRQs are named virtio0-*: try dev:eth0'
	run -1 --separate-stderr irqaff set eth0 1
	assert_equal "$stderr" 'irqaff: IRQ list "eth0": "eth0" matches no IRQ; eth0'"'"'s IRQs are named virtio0-*: try dev:eth0'
	# an igb-style queue name on a virtio NIC
	run -1 --separate-stderr irqaff spread -n 'eth0-TxRx-*'
	assert_equal "$stderr" 'irqaff: IRQ list "eth0-TxRx-*": "eth0-TxRx-*" matches no IRQ; eth0'"'"'s IRQs are named virtio0-*: try dev:eth0'
	run -5 --separate-stderr irqaff explain 'vda*'
	assert_equal "$stderr" 'irqaff: note: IRQ list "vda*": "vda*" matches no IRQ; vda'"'"'s IRQs are named virtio1-*: try dev:vda'
	assert_equal "$(tree_sum)" "$before"
	# and what it says to try works
	run -0 irqaff show -n -o IRQ,NAME dev:eth0
	assert_output $'24 virtio0-config\n25 virtio0-input.0\n26 virtio0-output.0\n27 virtio0-input.1\n28 virtio0-output.1'
}

@test "a disk's name points to its NVMe controller's IRQs" {
	make_root --cpus 4 --nvme nvme0:2
	run -1 --separate-stderr irqaff show -n nvme0n1
	assert_equal "$stderr" 'irqaff: note: IRQ list "nvme0n1": "nvme0n1" matches no IRQ; nvme0n1'"'"'s IRQs are named nvme0q*: try dev:nvme0n1'
	run -0 irqaff show -n -o NAME dev:nvme0n1
	assert_output $'nvme0q0\nnvme0q1\nnvme0q2'
}

@test "a driver's own IRQ names are what it says" {
	make_root --cpus 4 --nic eth0:2 --driver mlx5
	run -1 --separate-stderr irqaff show -n 'eth0*'
	assert_equal "$stderr" 'irqaff: note: IRQ list "eth0*": "eth0*" matches no IRQ; eth0'"'"'s IRQs are named mlx5_*: try dev:eth0'
}

@test "no hint where the device's IRQs carry its name or no device is named" {
	make_root --cpus 4 --nic eth0:2
	# an igb-style NIC: a queue it lacks is only a miss
	run -1 --separate-stderr irqaff show -n 'eth0-TxRx-9'
	assert_equal "$stderr" 'irqaff: note: IRQ list "eth0-TxRx-9": "eth0-TxRx-9" matches no IRQ'
	run -1 --separate-stderr irqaff show -n 'eth1-*'
	assert_equal "$stderr" 'irqaff: note: IRQ list "eth1-*": "eth1-*" matches no IRQ'
	run -1 --separate-stderr irqaff show -n '..'
	assert_equal "$stderr" 'irqaff: note: IRQ list "..": ".." matches no IRQ'
	run -1 --separate-stderr irqaff show -n 'x/../eth0'
	assert_equal "$stderr" 'irqaff: note: IRQ list "x/../eth0": "x/../eth0" matches no IRQ'
}
