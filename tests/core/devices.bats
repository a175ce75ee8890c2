#!/usr/bin/env bats
# Devices whose interrupts hang off a parent: a virtio NIC or disk has its
# MSI-X vectors on the PCI function above its virtio device, an NVMe disk
# on the PCI function of its controller. dev:NAME, show's DEVICE column,
# spread's node and the completions find them there.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	load ../test_helper/select
	# 40-44 virtio0-config, virtio0-{input,output}.{0,1}: eth0 on
	# 0000:00:03.0, node 1 (CPUs 4-7); 50-52 virtio1-config,
	# virtio1-req.{0,1}: vda on 0000:00:04.0, node 0 (CPUs 0-3); 60-62
	# nvme0q0-2: nvme0 and its disk nvme0n1; 70-71 eth1, a plain NIC.
	make_root --cpus 8 --nodes 2 --irq '9=acpi' \
		--virtio-nic eth0:2:1:40 --virtio-blk vda:2:0:50 \
		--nvme nvme0:2:0:60 --nic eth1:1:0:70
	PCI=$ROOT/sys/devices/pci0000:00
}

@test "the tree lays out a virtio NIC as a guest's sysfs does" {
	assert_equal "$(readlink "$ROOT/sys/class/net/eth0")" \
		'../../devices/pci0000:00/0000:00:03.0/virtio0/net/eth0'
	assert_equal "$(readlink "$ROOT/sys/class/net/eth0/device")" \
		'../../../virtio0'
	assert_equal "$(readlink "$ROOT/sys/bus/virtio/devices/virtio0")" \
		'../../../devices/pci0000:00/0000:00:03.0/virtio0'
	run -0 ls "$PCI/0000:00:03.0/msi_irqs"
	assert_output "$(printf '%s\n' 40 41 42 43 44)"
	assert [ ! -e "$PCI/0000:00:03.0/virtio0/msi_irqs" ]
	assert [ ! -e "$PCI/0000:00:03.0/virtio0/numa_node" ]
	assert_equal "$(<"$PCI/0000:00:03.0/numa_node")" 1
	run -0 grep '^ 4[0-4]:' "$ROOT/proc/interrupts"
	assert_line -n 0 --regexp ' PCI-MSI 49152-edge      virtio0-config$'
	assert_line -n 1 --regexp '-edge      virtio0-input.0$'
	assert_line -n 2 --regexp '-edge      virtio0-output.0$'
	assert_line -n 3 --regexp '-edge      virtio0-input.1$'
	assert_line -n 4 --regexp ' 49156-edge      virtio0-output.1$'
}

@test "the tree lays out a virtio disk and an NVMe disk as sysfs does" {
	assert_equal "$(readlink "$ROOT/sys/block/vda")" \
		'../devices/pci0000:00/0000:00:04.0/virtio1/block/vda'
	assert_equal "$(readlink "$ROOT/sys/block/vda/device")" \
		'../../../virtio1'
	assert_equal "$(readlink "$ROOT/sys/class/block/vda")" \
		'../../devices/pci0000:00/0000:00:04.0/virtio1/block/vda'
	run -0 grep -o 'virtio1-.*' "$ROOT/proc/interrupts"
	assert_output "$(printf '%s\n' virtio1-config virtio1-req.0 \
		virtio1-req.1)"
	assert_equal "$(readlink "$ROOT/sys/block/nvme0n1/device")" \
		'../../nvme0'
	assert_equal "$(readlink -f "$ROOT/sys/block/nvme0n1/device/device")" \
		"$(readlink -f "$ROOT/sys/class/nvme/nvme0/device")"
}

@test "show dev:eth0 on a virtio NIC lists exactly its virtio IRQs" {
	run --separate-stderr -0 irqaff show -o irq,name dev:eth0
	assert_output "$(printf '%s\n' \
		'IRQ NAME' \
		' 40 virtio0-config' \
		' 41 virtio0-input.0' \
		' 42 virtio0-output.0' \
		' 43 virtio0-input.1' \
		' 44 virtio0-output.1')"
	assert_equal "$stderr" ""
}

@test "dev:eth0 and its PCI function's address select the same IRQs" {
	selected dev:0000:00:03.0
	assert_success
	assert_output "$(printf '%s\n' 40 41 42 43 44)"
}

@test "show -o irq,device names the interface of a virtio function's IRQs" {
	run --separate-stderr -0 irqaff show -o irq,device
	assert_output "$(printf '%s\n' \
		'IRQ DEVICE' \
		'  9 -' \
		' 40 eth0' ' 41 eth0' ' 42 eth0' ' 43 eth0' ' 44 eth0' \
		' 50 0000:00:04.0' ' 51 0000:00:04.0' ' 52 0000:00:04.0' \
		' 60 nvme0' ' 61 nvme0' ' 62 nvme0' \
		' 70 eth1' ' 71 eth1')"
}

@test "a disk on a device of no class (virtio-mmio) selects its IRQ but does not name it" {
	local dev=$ROOT/sys/devices/platform/virtio-mmio.0
	mkdir -p "$dev/virtio2/block/vdb"
	printf '9\n' >"$dev/irq"
	ln -s ../../devices/platform/virtio-mmio.0/virtio2/block/vdb \
		"$ROOT/sys/class/block/vdb"
	selected dev:vdb
	assert_success
	assert_output 9
	# show's DEVICE leaves a disk's IRQs to its controller's name
	run --separate-stderr -0 irqaff show -o irq,device 9
	assert_output $'IRQ DEVICE\n  9 -'
}

@test "a legacy IRQ an interface shares with an NVMe controller is the interface's" {
	local fn
	for fn in 0000:3d:00.0 0000:3e:00.0; do
		rm -r -- "$PCI/$fn/msi_irqs"
		printf '9\n' >"$PCI/$fn/irq"
	done
	run --separate-stderr -0 irqaff show -o irq,device 9
	assert_output $'IRQ DEVICE\n  9 eth1'
}

@test "dev:vda selects the IRQs of the virtio disk's PCI function" {
	selected dev:vda
	assert_success
	assert_output "$(printf '%s\n' 50 51 52)"
	assert_equal "$stderr" ""
}

@test "dev:nvme0n1 selects the IRQs of its controller" {
	selected dev:nvme0n1
	assert_success
	assert_output "$(printf '%s\n' 60 61 62)"
	selected dev:nvme0
	assert_output "$(printf '%s\n' 60 61 62)"
}

@test "spread -n dev:eth0 uses the node of the PCI function" {
	run --separate-stderr -0 irqaff spread -n dev:eth0
	assert_output "$(printf '%s\n' \
		'irq 41 virtio0-input.0: 4' \
		'irq 42 virtio0-output.0: 4' \
		'irq 43 virtio0-input.1: 5' \
		'irq 44 virtio0-output.1: 5')"
	# a queue pair shares a CPU; the config IRQ serves no queue
	assert_equal "$stderr" "irqaff: spreading eth0's 4 IRQs over CPU 4-7: node 1 (eth0's node)
irqaff: note: irq 40 virtio0-config serves no queue; left where it is"
}

@test "spread -n of a virtio function's IRQs by name finds its node too" {
	run --separate-stderr -0 irqaff spread -n 'virtio0-*'
	assert_output "$(printf '%s\n' \
		'irq 41 virtio0-input.0: 4' \
		'irq 42 virtio0-output.0: 4' \
		'irq 43 virtio0-input.1: 5' \
		'irq 44 virtio0-output.1: 5')"
}

@test "spread -n dev:vda uses the node of its PCI function, node 0" {
	run --separate-stderr -0 irqaff spread -n dev:vda
	assert_output "$(printf '%s\n' \
		'irq 50 virtio1-config: 0' \
		'irq 51 virtio1-req.0: 1' \
		'irq 52 virtio1-req.1: 2')"
	# the device named, not the function found under it
	assert_equal "$stderr" "irqaff: spreading vda's 3 IRQs over CPU 0-3: node 0 (vda's node)"
}

@test "spread -n of a virtio disk's IRQs by name finds its function's node" {
	make_root --dir "$BATS_TEST_TMPDIR/n1" --cpus 8 --nodes 2 \
		--virtio-blk vda:2:1:50
	run --separate-stderr -0 irqaff spread -n 'virtio0-*'
	assert_output "$(printf '%s\n' \
		'irq 50 virtio0-config: 4' \
		'irq 51 virtio0-req.0: 5' \
		'irq 52 virtio0-req.1: 6')"
	# the disk's IRQs are its function's
	assert_equal "$stderr" "irqaff: spreading 0000:00:03.0's 3 IRQs over CPU 4-7: node 1 (0000:00:03.0's node)"
}

@test "a virtio function without MSI-X gives its legacy irq" {
	make_root --dir "$BATS_TEST_TMPDIR/intx" --cpus 2 --irq '11=virtio0' \
		--virtio-nic eth0:1
	local fn=$ROOT/sys/devices/pci0000:00/0000:00:03.0
	rm -r -- "$fn/msi_irqs"
	printf '11\n' >"$fn/irq"
	selected dev:eth0
	assert_success
	assert_output 11
}

@test "a legacy irq file is a number alone on a line of 63 bytes at most, its newline optional" {
	make_root --dir "$BATS_TEST_TMPDIR/intx" --cpus 2 --irq '11=virtio0' \
		--virtio-nic eth0:1
	local fn=$ROOT/sys/devices/pci0000:00/0000:00:03.0
	rm -r -- "$fn/msi_irqs"
	printf '11' >"$fn/irq"
	selected dev:eth0
	assert_success
	assert_output 11
	# 62 digits and the newline: 63 bytes, read whole
	printf '%062d\n' 11 >"$fn/irq"
	selected dev:eth0
	assert_success
	assert_output 11
	# 63 digits: the line does not end within 63 bytes, no number
	printf '%063d\n' 11 >"$fn/irq"
	refused dev:eth0
	assert_failure 1
	assert_equal "$stderr" \
		'irqaff: IRQ list "dev:eth0": device eth0 has no IRQs or does not exist'
}

@test "an unknown dev: still fails with the same message" {
	refused dev:eth9
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" \
		'irqaff: IRQ list "dev:eth9": device eth9 has no IRQs or does not exist'
}

@test "dev: of a partition selects the IRQs of its disk's device" {
	mkdir "$PCI/0000:00:04.0/virtio1/block/vda/vda1"
	ln -s ../../devices/pci0000:00/0000:00:04.0/virtio1/block/vda/vda1 \
		"$ROOT/sys/class/block/vda1"
	selected dev:vda1
	assert_success
	assert_output "$(printf '%s\n' 50 51 52)"
}

@test "a device with no interrupts up to sys/devices has none" {
	mkdir -p "$ROOT/sys/devices/platform/dummy/net/dummy0"
	ln -s ../../devices/platform/dummy/net/dummy0 "$ROOT/sys/class/net/dummy0"
	refused dev:dummy0
	assert_failure 1
	assert_equal "$stderr" \
		'irqaff: IRQ list "dev:dummy0": device dummy0 has no IRQs or does not exist'
}

@test "a device with no interrupts owns none of spread's IRQs" {
	# dummy0 comes before eth1 in sys/class/net
	mkdir -p "$ROOT/sys/devices/platform/dummy/net/dummy0"
	ln -s ../../devices/platform/dummy/net/dummy0 "$ROOT/sys/class/net/dummy0"
	run --separate-stderr -0 irqaff spread -n 70-71
	assert_output $'irq 70 eth1: 0\nirq 71 eth1-TxRx-0: 1'
	assert_equal "$stderr" "irqaff: spreading eth1's 2 IRQs over CPU 0-3: node 0 (eth1's node)"
}

@test "interfaces without IRQs listed before any with some leave show's DEVICE column whole" {
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 4 --nic eth0:2
	local n
	# bond0 and br0 sort first: two devices of no IRQ in a row
	for n in bond0 br0; do
		mkdir -p "$ROOT/sys/devices/virtual/net/$n"
		ln -s "../../devices/virtual/net/$n" "$ROOT/sys/class/net/$n"
	done
	run --separate-stderr -0 irqaff show -o irq,device
	assert_output $'IRQ DEVICE\n 24 eth0\n 25 eth0\n 26 eth0'
	assert_equal "$stderr" ''
}

@test "the walk up stops at sys/devices and never leaves it" {
	# IRQ 9's irq file in sys/devices and above it, IRQ 40's outside sys
	printf '9\n' >"$ROOT/sys/devices/irq"
	printf '9\n' >"$ROOT/sys/irq"
	mkdir -p "$ROOT/elsewhere/msi_irqs/40" "$ROOT/elsewhere/net/evil0"
	ln -s ../../../elsewhere/net/evil0 "$ROOT/sys/class/net/evil0"
	mkdir -p "$ROOT/sys/devices/virtual/net/evil1"
	ln -s ../../devices/virtual/net/evil1 "$ROOT/sys/class/net/evil1"
	refused dev:evil0
	assert_failure 1
	refused dev:evil1
	assert_failure 1
}

@test "an absolute link is resolved inside the root" {
	mkdir "$PCI/0000:00:03.0/virtio0/net/abs0"
	ln -s /sys/devices/pci0000:00/0000:00:03.0/virtio0/net/abs0 \
		"$ROOT/sys/class/net/abs0"
	selected dev:abs0
	assert_success
	assert_output "$(printf '%s\n' 40 41 42 43 44)"
}

@test "bash completes disks after dev: along with interfaces and controllers" {
	# shellcheck source=../../completions/irqaff.bash
	source "$BATS_TEST_DIRNAME/../../completions/irqaff.bash"
	run -0 _irqaff_devices
	assert_output "$(printf '%s\n' eth0 eth1 nvme0 nvme0n1 vda)"
}

@test "fish completes disks after dev:" {
	command -v fish >/dev/null || skip "fish is not installed"
	run fish -N -c "source '$BATS_TEST_DIRNAME/../../completions/irqaff.fish'
		complete -C 'irqaff set dev:'"
	assert_success
	assert_output "$(printf 'dev:%s\n' eth0 eth1 nvme0 nvme0n1 vda)"
}
