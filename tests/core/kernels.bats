#!/usr/bin/env bats
# What differs between the kernels Debian ships, each on a tree built as
# the booted kernel showed it (make_root --kernel; tests/kernel boots
# them): 6.12's chip names per device and its EPERM for a refused move,
# 5.10's missing nohz_full, and what every kernel does with a managed IRQ
# none of whose CPUs is online: x86 parks it on the first online CPU.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
}

# parked [ARGS]: 4 CPUs, 2-3 offline; nvme0q1-4 managed on one CPU each,
# q3 and q4 shut down and parked on CPU 0 as x86 leaves them
# (irq_shutdown_and_deactivate(), then the vector on the first online
# CPU); 34 movable on CPU 1. ARGS add to make_root.
parked() {
	rm -rf "$ROOT"
	make_root --cpus 4 --offline 2-3 \
		--irq 30=nvme0q1 --affinity 0 --chip PCI-MSIX \
		--irq 31=nvme0q2 --affinity 1 --chip PCI-MSIX \
		--irq 32=nvme0q3 --affinity 2 --effective 0 --chip PCI-MSIX \
		--irq 33=nvme0q4 --affinity 3 --effective 0 --chip PCI-MSIX \
		--irq 34=a --affinity 1 --managed 30-33 "$@"
}

@test "chips by family: one name for every device (6.1) or one per device (6.12)" {
	# as booted: 6.12 on x86 PCI-MSIX-BDF, on arm64 ITS-PCI-MSIX-BDF
	make_root --cpus 4 \
		--irq 30=a --affinity 0-1 --effective 3 --chip PCI-MSIX-0000:00:05.0 --hwirq 0-edge \
		--irq 31=b --affinity 0-1 --effective 3 --chip PCI-MSI-0000:00:04.0 --hwirq 0-edge \
		--irq 32=c --affinity 0-1 --effective 3 --chip PCI-MSIX \
		--irq 33=d --affinity 0-1 --effective 3 --chip IR-PCI-MSIX-0000:00:05.0 --hwirq 1-edge \
		--irq 34=e --affinity 0-1 --effective 3 --chip IR-IO-APIC \
		--irq 35=f --affinity 0-1 --effective 3 --chip ITS-PCI-MSIX-0000:00:02.0 \
		--irq 36=g --affinity 0-1 --effective 3 --chip HPET-MSI-3 \
		--irq 37=h --affinity 0-1 --effective 3 --chip PCI-MSIXY \
		--irq 38=i --affinity 0-1 --effective 3 --chip GICv3 \
		--irq 39=j --affinity 0-1 --effective 3 --chip local-APIC \
		--irq 40=k --affinity 0-1 --effective 3 --chip IO-APIC
	local at='outside the requested 0-1: its' no='outside the requested 0-1: the kernel has not applied the move'
	run --separate-stderr -1 irqaff explain 30-40
	assert_output "irq 30 a: pending: runs on CPU 3, $at PCI-MSIX controller applies a move at the next interrupt
irq 31 b: pending: runs on CPU 3, $at PCI-MSI controller applies a move at the next interrupt
irq 32 c: pending: runs on CPU 3, $at PCI-MSIX controller applies a move at the next interrupt
irq 33 d: pending: runs on CPU 3, $no
irq 34 e: pending: runs on CPU 3, $no
irq 35 f: pending: runs on CPU 3, $no
irq 36 g: pending: runs on CPU 3, $at HPET-MSI controller applies a move at the next interrupt
irq 37 h: pending: runs on CPU 3, $no
irq 38 i: pending: runs on CPU 3, $no
irq 39 j: pending: runs on CPU 3, $no
irq 40 k: pending: runs on CPU 3, $at IO-APIC controller applies a move at the next interrupt"
}

@test "6.12: idle virtio queues waiting for their first interrupt are detail, as on 6.1" {
	local pci
	for pci in PCI-MSIX PCI-MSIX-0000:00:05.0; do
		rm -rf "$ROOT"
		make_root --cpus 8 \
			--irq 40=virtio2-input.0 --affinity 0-3 --effective 7 --chip "$pci" --hwirq 1-edge \
			--irq 41=virtio2-output.0 --affinity 0-3 --effective 6 --chip "$pci" --hwirq 2-edge \
			--idle 40-41
		run --separate-stderr -0 irqaff explain
		assert_output ''
		run --separate-stderr -0 irqaff explain -v 40
		assert_output "irq 40 virtio2-input.0: pending: runs on CPU 7, outside the requested 0-3: its PCI-MSIX controller applies a move at the next interrupt, and it has not fired since boot"
	done
}

@test "managed without debugfs: EIO (5.10, 6.1) and EPERM (6.12) both say so" {
	local k before
	for k in 5.10 6.1 6.12; do
		rm -rf "$ROOT"
		make_root --kernel "$k" --cpus 4 --nvme nvme0:2 --managed 25,26 \
			--no-debugfs
		before=$(tree_sum)
		run --separate-stderr -0 irqaff show -o irq,managed
		assert_output $'IRQ MANAGED\n 24 no\n 25 yes\n 26 yes'
		run --separate-stderr -0 irqaff set -n dev:nvme0 1
		assert_output $'irq 24: 0-3 -> 1\nirq 25: managed by the kernel, left alone\nirq 26: managed by the kernel, left alone'
		assert_equal "$(tree_sum)" "$before"
	done
	# the preload refuses as the kernel does, with the errno of each
	run -1 faulty "$ROOT/proc/irq/25/smp_affinity:EPERM" \
		dd of="$ROOT/proc/irq/25/smp_affinity" conv=notrunc status=none <<<x
	assert_output --partial 'Operation not permitted'
}

@test "one rule for managed IRQs: explain -v notes what show -o MANAGED says" {
	make_root --cpus 8 --nvme nvme0:4 --managed 25-28 --no-debugfs
	run --separate-stderr -0 irqaff show -o irq,managed 27
	assert_output $'IRQ MANAGED\n 27 yes'
	run --separate-stderr -0 irqaff explain -v 27
	assert_line 'irq 27 nvme0q3: managed: the kernel manages its affinity (a queue of a multi-queue device) and refuses to move it'
}

@test "5.10: no nohz_full file, so nohz_full= on the command line isolates nothing" {
	make_root --kernel 5.10 --cpus 8 --irq 30=a --affinity 0 \
		--cmdline 'root=/dev/vda nohz_full=6-7 irqaffinity=0-5'
	[[ ! -e $ROOT/sys/devices/system/cpu/nohz_full ]]
	run --separate-stderr -0 irqaff set 30 6-7
	assert_equal "$stderr" ''
	run --separate-stderr -0 irqaff spread -n --linear 30
	assert_output 'irq 30 a: 0'
	assert_equal "$stderr" 'irqaff: spreading 1 IRQ over CPU 0-7: every CPU'
}

@test "isolcpus= counts where the kernel has no file: managed_irq alone, as the kernel took it" {
	# managed_irq alone: no sysfs file shows it
	make_root --cpus 8 --irq 30=a --affinity 0 \
		--cmdline 'isolcpus=managed_irq,6-7'
	run --separate-stderr -0 irqaff set 30 6
	assert_equal "$stderr" 'irqaff: warning: CPU 6 is isolated (isolcpus=): IRQs there interrupt the tasks isolated on them'
	# domain: the isolated file says what the kernel took
	rm -rf "$ROOT"
	make_root --cpus 8 --irq 30=a --affinity 0 --isolated 7 \
		--cmdline 'isolcpus=domain,managed_irq,6-7'
	run --separate-stderr -0 irqaff set 30 6
	assert_equal "$stderr" ''
	# a list the kernel refused (CPU 9 of 8): nothing
	rm -rf "$ROOT"
	make_root --cpus 8 --irq 30=a --affinity 0 \
		--cmdline 'isolcpus=managed_irq,6-9'
	run --separate-stderr -0 irqaff set 30 6
	assert_equal "$stderr" ''
	# a value quoted whole: the quotes are the command line's, not the list's
	rm -rf "$ROOT"
	make_root --cpus 8 --irq 30=a --affinity 0 \
		--cmdline 'ro isolcpus="managed_irq,6-7" quiet'
	run --separate-stderr -0 irqaff set 30 6
	assert_equal "$stderr" 'irqaff: warning: CPU 6 is isolated (isolcpus=): IRQs there interrupt the tasks isolated on them'
	# nohz without CONFIG_NO_HZ_FULL (5.10): the kernel refuses all of it
	rm -rf "$ROOT"
	make_root --kernel 5.10 --cpus 8 --irq 30=a --affinity 0 \
		--cmdline 'isolcpus=nohz,managed_irq,6-7'
	run --separate-stderr -0 irqaff set 30 6
	assert_equal "$stderr" ''
}

@test "a parked managed IRQ runs nowhere: show, cpu:, cpus, isolate" {
	parked
	run --separate-stderr -0 irqaff show -o irq,affinity,effective,name
	assert_output 'IRQ AFFINITY EFFECTIVE NAME
 30 0        0         nvme0q1
 31 1        1         nvme0q2
 32 2        -         nvme0q3
 33 3        -         nvme0q4
 34 1        1         a'
	run --separate-stderr -0 irqaff show -o irq cpu:0
	assert_output $'IRQ\n 30'
	run --separate-stderr -0 irqaff cpus -o cpu,irqs
	assert_output $'CPU IRQS\n  0    1\n  1    2\n  2    0\n  3    0'
	run --separate-stderr -1 irqaff isolate --check 0
	assert_line --index 0 'irq 30 nvme0q1: managed, on CPU 0'
	refute_output --partial nvme0q3
	refute_output --partial nvme0q4
	# explain has said so all along
	run --separate-stderr -0 irqaff explain -v 32
	assert_output 'irq 32 nvme0q3: managed: the kernel manages its affinity (a queue of a multi-queue device) and refuses to move it
irq 32 nvme0q3: shutdown: all its CPUs (2) are offline: the kernel manages it, so it is shut down until one of them comes back online'
	# no debugfs, and the kernel not asked (no procfs to probe): still
	# parked, as any IRQ whose CPUs are all offline and not moved off
	parked --no-debugfs
	run --separate-stderr -0 command irqaff show -o irq,managed,effective 32-34
	assert_output $'IRQ MANAGED EFFECTIVE\n 32 -       -\n 33 -       -\n 34 -       1'
}
