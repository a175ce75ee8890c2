#!/usr/bin/env bats
# Kernel-managed IRQs (NVMe and virtio-blk queues): known from debugfs or
# from the kernel's refusal, left to the kernel by selectors that pick
# many IRQs, an error only when named by number alone, never drift.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	# 24-26 eth0, 27-29 nvme0q0-2
	make_root --cpus 4 --nic eth0:2 --nvme nvme0:2
}

# mark_managed IRQ...: debugfs says each IRQ is managed, as
# kernel/irq/debugfs.c irq_debug_show() prints an NVMe queue's state; the
# other IRQs get a state without the flag.
mark_managed() {
	local dir=$ROOT/sys/kernel/debug/irq/irqs irq
	mkdir -p "$dir"
	for irq in 24 25 26 27 28 29; do
		{
			printf 'handler:  handle_edge_irq\ndevice:   0000:3b:00.0\n'
			printf 'status:   0x00000000\nistate:   0x00000000\n'
			printf 'ddepth:   0\nwake_depth: 0\ndstate:   0x3740a200\n'
			printf '            IRQD_ACTIVATED\n            IRQD_IRQ_STARTED\n'
			printf '            IRQD_SINGLE_TARGET\n            IRQD_AFFINITY_SET\n'
			if [[ " $* " == *" $irq "* ]]; then
				printf '            IRQD_AFFINITY_MANAGED\n'
				printf '            IRQD_AFFINITY_ON_ACTIVATE\n'
			fi
			printf 'node:     0\naffinity: 0-3\neffectiv: 0\n'
		} >"$dir/$irq"
	done
}

@test "set all leaves the IRQs debugfs calls managed to the kernel and exits 0" {
	mark_managed 28 29
	run --separate-stderr -0 irqaff set all 1
	assert_output ''
	assert_equal "$stderr" 'irqaff: note: 2 kernel-managed IRQs left to the kernel'
	assert_equal "$(lists 24 25 26 27 28 29)" $'1\n1\n1\n1\n0-3\n0-3'
}

@test "set -v and -n name each managed IRQ" {
	mark_managed 28
	run --separate-stderr -0 irqaff set -n 27-29 1
	assert_output $'irq 27: 0-3 -> 1\nirq 28: managed by the kernel, left alone\nirq 29: 0-3 -> 1'
	assert_equal "$stderr" ''
	run --separate-stderr -0 irqaff set -v 27-29 1
	assert_output $'irq 27: 0-3 -> 1\nirq 28: managed by the kernel, left alone\nirq 29: 0-3 -> 1'
}

@test "without debugfs the kernel's refusal marks a managed IRQ" {
	local e
	for e in EIO EPERM; do
		run --separate-stderr -0 faulty "$(irq_dir 28)/smp_affinity_list:$e" \
			irqaff set dev:nvme0 2
		assert_equal "$stderr" 'irqaff: note: 1 IRQ that user space cannot move left alone'
		irqaff set 27,29 0-3
	done
}

@test "a managed IRQ named by its number alone is an error" {
	mark_managed 28
	local before
	before=$(tree_sum)
	run --separate-stderr -1 irqaff set 28 1
	assert_equal "$stderr" 'irqaff: irq 28: cannot set 1: managed by the kernel, it cannot be moved by user space (debugfs)'
	assert_equal "$(tree_sum)" "$before"
	run --separate-stderr -1 faulty "$(irq_dir 27)/smp_affinity_list:EIO" \
		irqaff set 27 1
	assert_equal "$stderr" 'irqaff: irq 27: cannot set 1: it cannot be moved by user space (kernel-managed, per-CPU or no-balancing) (Input/output error)'
}

@test "show -o MANAGED says yes, no, or - without debugfs" {
	run -0 irqaff show -o irq,managed 27-28
	assert_output $'IRQ MANAGED\n 27 -\n 28 -'
	mark_managed 28
	run -0 irqaff show -o irq,managed 27-28
	assert_output $'IRQ MANAGED\n 27 no\n 28 yes'
	# a flag is a whole word: a longer name that starts with it is not it
	sed -i 's/IRQD_AFFINITY_SET/IRQD_AFFINITY_MANAGED_SET/' \
		"$ROOT/sys/kernel/debug/irq/irqs/27"
	run -0 irqaff show -o irq,managed 27-28
	assert_output $'IRQ MANAGED\n 27 no\n 28 yes'
	run -0 irqaff show -J -o irq,managed 27-28
	run jq -c '[.interrupts[].managed]' <<<"$output"
	assert_output '[false,true]'
	rm -r "$ROOT/sys/kernel/debug"
	run -0 irqaff show -J -o irq,managed 27
	run jq -c '[.interrupts[].managed]' <<<"$output"
	assert_output '[null]'
}

@test "spread leaves managed IRQs out of its plan" {
	mark_managed 28 29
	run --separate-stderr -0 irqaff spread -n --linear dev:nvme0
	assert_output 'irq 27 nvme0q0: 0'
	assert_equal "$stderr" "irqaff: spreading nvme0's 1 IRQ over CPU 0-3: node 0 (nvme0's node)
irqaff: note: 2 kernel-managed IRQs left out of the plan"
}

@test "save marks managed IRQs; restore and check of it, and of '* 0', exit 0" {
	mark_managed 28 29
	local snap=$BATS_TEST_TMPDIR/snap
	run -0 irqaff save -o "$snap"
	grep -qx '# managed by the kernel: 28 0-3 "nvme0q1"' "$snap"
	# --optional marks the entries, never a comment
	run -0 irqaff save --optional
	assert_line '?27 0-3 "nvme0q0"'
	assert_line '# managed by the kernel: 28 0-3 "nvme0q1"'
	irqaff set -q dev:eth0 2
	run --separate-stderr -0 irqaff restore -q "$snap"
	assert_equal "$stderr" ''
	run --separate-stderr -0 irqaff check "$snap"
	printf '* 0\n' >"$snap"
	run --separate-stderr -0 irqaff restore -q "$snap"
	assert_equal "$stderr" 'irqaff: note: 2 kernel-managed IRQs left to the kernel'
	assert_equal "$(lists 24 27 28)" $'0\n0\n0-3'
	run --separate-stderr -0 irqaff check "$snap"
	assert_output $'irq 28 nvme0q1: 0-3 (want 0; managed by the kernel, not drift)\nirq 29 nvme0q2: 0-3 (want 0; managed by the kernel, not drift)'
}

@test "nothing changed and one failed is status 1, not 3" {
	irqaff set -q 24 1
	run --separate-stderr -1 faulty "$(irq_dir 25)/smp_affinity_list:ENOSPC" \
		irqaff set 24-25 1
}

@test "a file that cannot be opened for writing stops the run with one line" {
	command -v setpriv >/dev/null || skip "setpriv is not installed"
	[[ $(id -u) == 0 ]] || skip "needs root to drop to another user"
	local d
	chmod -R a+rX "$BATS_TEST_TMPDIR"
	for d in "$BATS_TEST_TMPDIR/.." "$BATS_TEST_TMPDIR/../.." \
		"$BATS_RUN_TMPDIR"; do
		chmod a+x "$d"
	done
	run --separate-stderr -1 setpriv --reuid=65534 --regid=65534 \
		--clear-groups "$IRQAFF_BIN" --root "$ROOT" set all 1
	assert_equal "${#stderr_lines[@]}" 1
	assert_equal "$stderr" "irqaff: irq 24: cannot write $ROOT/proc/irq/24/smp_affinity_list: Permission denied; changing affinity needs root"
}

# debian: the tree of a kernel without irq debugfs (Debian's 6.1) whose
# NVMe queues 28 and 29 are managed: only the kernel's refusal of a write
# says so, each command asks it with a value it cannot parse, and the
# refused IRQs are PCI MSI vectors, which only managed affinity refuses.
debian() {
	rm -rf "$ROOT"
	make_root --cpus 4 --nic eth0:2 --nvme nvme0:2 --managed 28,29 \
		--no-debugfs
}

@test "without debugfs the kernel's refusal of \"x\" fills MANAGED and changes nothing" {
	debian
	local before
	before=$(tree_sum)
	run --separate-stderr -0 irqaff show -o irq,managed 26-29
	assert_output $'IRQ MANAGED\n 26 no\n 27 no\n 28 yes\n 29 yes'
	assert_equal "$(tree_sum)" "$before"
	# a file with contents is not the kernel's: it is never probed
	run --separate-stderr -0 command irqaff show -o irq,managed 28
	assert_output $'IRQ MANAGED\n 28 -'
	assert_equal "$(tree_sum)" "$before"
}

@test "an empty affinity file that is not on procfs is never probed" {
	# no debugfs: MANAGED would come from the kernel's refusal
	: >"$(irq_dir 27)/smp_affinity"
	local before
	before=$(tree_sum)
	run --separate-stderr -0 irqaff show -o irq,managed 27
	assert_output $'IRQ MANAGED\n 27 -'
	assert_file "$(irq_dir 27)/smp_affinity" ''
	assert_equal "$(tree_sum)" "$before"
}

@test "the kernel's refusal of \"x\" is EIO before 6.12 and EPERM since: either fills MANAGED" {
	# write_irq_affinity() (kernel/irq/proc.c) answers EIO on 5.10 and
	# 6.1, EPERM on 6.12, before it parses: machine_irq_movable() takes
	# both, and a PCI MSI vector is then managed, another IRQ unmovable
	local kernel before
	for kernel in 6.1 6.12; do
		rm -rf "$ROOT"
		make_root --cpus 4 --nic eth0:2 --nvme nvme0:2 --managed 28,29 \
			--irq 40=timer --unmovable 40 --no-debugfs --kernel "$kernel"
		before=$(tree_sum)
		run --separate-stderr -0 irqaff show -o irq,managed,movable 26-29,40
		assert_output $'IRQ MANAGED MOVABLE\n 26 no      yes\n 27 no      yes\n 28 yes     no\n 29 yes     no\n 40 no      no'
		run --separate-stderr -0 irqaff show -J -o irq,managed,movable 27-28,40
		run jq -c '[.interrupts[] | [.irq, .managed, .movable]]' <<<"$output"
		assert_output '[[27,false,true],[28,true,false],[40,false,false]]'
		assert_equal "$stderr" ''
		assert_equal "$(tree_sum)" "$before"
		run --separate-stderr -0 irqaff set dev:nvme0 1
		assert_equal "$stderr" 'irqaff: note: 2 kernel-managed IRQs left to the kernel'
		assert_equal "$(lists 27 28 29)" $'1\n0-3\n0-3'
	done
}

@test "without debugfs a probe the file takes (no EINVAL) says nothing of the IRQ" {
	debian
	local before
	before=$(tree_sum)
	run --separate-stderr -0 faulty "$(irq_dir 26)/smp_affinity:drop" \
		irqaff show -o irq,managed,movable 26-27
	assert_output $'IRQ MANAGED MOVABLE\n 26 -       -\n 27 no      yes'
	assert_equal "$(tree_sum)" "$before"
}

@test "without debugfs a refused ARM ITS-MSI vector is managed, a refused GIC IRQ unmovable" {
	# the family says MSI where the name has no "PCI-MSI"
	rm -rf "$ROOT"
	make_root --cpus 4 --irq 24=a --irq 25=virtio1-req.0 --chip ITS-MSI \
		--irq 26=b --chip GICv3 --managed 25 --unmovable 26 --no-debugfs
	run --separate-stderr -0 irqaff show -o irq,managed,movable 24-26
	assert_output $'IRQ MANAGED MOVABLE\n 24 no      yes\n 25 yes     no\n 26 no      no'
	assert_equal "$stderr" ''
}

@test "an empty smp_affinity outside procfs is never probed" {
	debian
	: >"$ROOT/proc/irq/28/smp_affinity"
	run --separate-stderr -0 command irqaff show -o irq,managed 28
	assert_output $'IRQ MANAGED\n 28 -'
	assert_equal "$(stat -c %s "$ROOT/proc/irq/28/smp_affinity")" 0
}

@test "without debugfs save, check and restore agree on managed IRQs" {
	debian
	local snap=$BATS_TEST_TMPDIR/snap
	run -0 irqaff save -o "$snap"
	grep -qx '# managed by the kernel: 28 0-3 "nvme0q1"' "$snap"
	grep -qx '# managed by the kernel: 29 0-3 "nvme0q2"' "$snap"
	run --separate-stderr -0 bash -c 'irqaff save | irqaff check -'
	printf '* 0\n' >"$snap"
	run --separate-stderr -0 irqaff restore -n "$snap"
	assert_line 'irq 28: managed by the kernel, left alone'
	run --separate-stderr -0 irqaff restore -q "$snap"
	assert_equal "$stderr" 'irqaff: note: 2 kernel-managed IRQs left to the kernel'
	assert_equal "$(lists 27 28 29)" $'0\n0-3\n0-3'
	run --separate-stderr -0 irqaff check "$snap"
	assert_output $'irq 28 nvme0q1: 0-3 (want 0; managed by the kernel, not drift)\nirq 29 nvme0q2: 0-3 (want 0; managed by the kernel, not drift)'
}

@test "without debugfs set -n, spread -n and isolate know the managed IRQs" {
	debian
	local before
	before=$(tree_sum)
	run --separate-stderr -0 irqaff set -n dev:nvme0 1
	assert_output $'irq 27: 0-3 -> 1\nirq 28: managed by the kernel, left alone\nirq 29: managed by the kernel, left alone'
	run --separate-stderr -1 irqaff set -n 28 1
	assert_equal "$stderr" 'irqaff: irq 28: cannot set 1: managed by the kernel, it cannot be moved by user space (refused by the kernel)'
	run --separate-stderr -0 irqaff spread -n --linear dev:nvme0
	assert_output 'irq 27 nvme0q0: 0'
	assert_equal "$stderr" "irqaff: spreading nvme0's 1 IRQ over CPU 0-3: node 0 (nvme0's node)
irqaff: note: 2 kernel-managed IRQs left out of the plan"
	assert_equal "$(tree_sum)" "$before"
	run --separate-stderr -1 irqaff isolate --check 0
	assert_line 'irq 28 nvme0q1: managed, on CPU 0'
	run --separate-stderr -0 irqaff isolate -n 0
	assert_line 'irq 28: managed by the kernel, left alone'
	assert_equal "$(tree_sum)" "$before"
}

# timer: IRQ 0, which the kernel does not let user space move though it is
# not managed (IRQF_NOBALANCING), beside eth0 (24-26) and nvme0 (27-29,
# 28-29 managed); ARGS add to make_root.
timer() {
	rm -rf "$ROOT"
	make_root --cpus 4 --legacy 3 --nic eth0:2 --nvme nvme0:2 \
		--unmovable 0 "$@"
}

@test "an IRQ refused for another reason than management is not called managed" {
	local args
	for args in --debugfs --no-debugfs; do
		timer "$args"
		run --separate-stderr -0 irqaff set 0-2,24 1
		assert_equal "$stderr" 'irqaff: note: 1 IRQ that user space cannot move left alone'
		run --separate-stderr -0 irqaff set -n 0-1 2
		assert_output $'irq 0: cannot be moved by user space, left alone\nirq 1: 1 -> 2'
		run --separate-stderr -0 irqaff set -J 0-1 3
		run jq -c '[.managed, [.unmovable[].irq]]' <<<"$output"
		assert_output '[[],[0]]'
		run -0 irqaff show -o irq,managed,movable 0-1
		assert_output $'IRQ MANAGED MOVABLE\n  0 no      no\n  1 no      yes'
		# one type a key: booleans, never a string beside them
		run -0 irqaff show -J -o irq,managed,movable 0-1
		run jq -c '[.interrupts[] | [.irq, .managed, .movable]]' <<<"$output"
		assert_output '[[0,false,false],[1,false,true]]'
	done
}

@test "save, check and spread say an unmovable IRQ cannot be moved" {
	timer --no-debugfs
	local snap=$BATS_TEST_TMPDIR/snap
	run -0 irqaff save -o "$snap"
	grep -qx '# cannot be moved by user space: 0 0-3 "timer"' "$snap"
	printf '0 1 "timer"\n' >"$snap"
	run --separate-stderr -0 irqaff check "$snap"
	assert_output 'irq 0 timer: 0-3 (want 1; cannot be moved by user space, not drift)'
	run --separate-stderr -0 irqaff check -J "$snap"
	run jq -c '[.differences[] | [.managed, .unmovable]]' <<<"$output"
	assert_output '[[false,true]]'
	run --separate-stderr -0 irqaff spread -n --linear 0-1
	assert_output 'irq 1 i8042: 0'
	assert_equal "$stderr" 'irqaff: spreading 1 IRQ over CPU 0-3: every CPU
irqaff: note: 1 IRQ that user space cannot move left out of the plan'
}

@test "isolate reports an unmovable IRQ without advising isolcpus=managed_irq" {
	timer --no-debugfs
	irqaff set -q 1,24-26 1-3
	run --separate-stderr -0 irqaff isolate -J 0
	run jq -c '[[.stuck[] | [.irq, .kind]], [.findings[].code], .managed, [.unmovable[].irq]]' <<<"$output"
	assert_output '[[[0,"unmovable"]],["unmovable"],[],[0]]'
	run --separate-stderr -0 irqaff isolate 0
	assert_equal "${stderr_lines[0]}" 'irqaff: irq 0 timer: cannot be moved by user space, runs on CPU 0'
	[[ $stderr != *managed_irq* ]]
	run --separate-stderr -1 irqaff isolate --check 0
	assert_line --index 0 'irq 0 timer: cannot be moved by user space, on CPU 0'
	refute_output --partial managed_irq
	# requested there, but it runs on CPU 0: nothing anyone can mend
	irqaff isolate -q 3
	run --separate-stderr -0 irqaff isolate --check --accept 3
	refute_line --partial 'irq 0 '
}
