#!/usr/bin/env bats
# irqaff explain: one finding a line for each reason an IRQ is not where
# it was asked, or where it should not be; each code on a tree built for
# it. Without -v only what needs attention is printed, and exit 0 says
# there is none; -v adds the detail (managed, shutdown, single-target,
# hint, idle, a pending move that waits for a first interrupt).

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	ST='the kernel delivers each interrupt to one CPU of the set'
}

@test "a healthy machine: nothing printed, exit 0; -v has the detail" {
	# unused legacy lines (no handler), default affinities over offline
	# CPUs, single-target delivery, a placement away from the driver's
	# hint, an idle IRQ, a managed queue, a virtio_net queue whose move
	# waits for its first interrupt
	make_root --cpus 4 --offline 3 --irq 3 --irq 5 --irq 30=a \
		--irq 31=b --affinity 1 --hint 2 --irq 32=c --idle 32 \
		--irq 33=q --affinity 2 --managed 33 \
		--irq 34=virtio1-input.0 --affinity 0-1 --effective 2 --idle 34 \
		--chip PCI-MSI
	run --separate-stderr -0 irqaff explain
	assert_output ''
	assert_equal "$stderr" ''
	run --separate-stderr -0 irqaff explain -v
	assert_output "irq 3: ok: 0-3 requested, runs on CPU 0, no handler
irq 5: ok: 0-3 requested, runs on CPU 2, no handler
irq 30 a: single-target: 0-3 requested, delivered to CPU 0 only: $ST
irq 31 b: hint: its driver suggests CPU 2 (affinity_hint); 1 is requested
irq 32 c: single-target: 0-3 requested, delivered to CPU 2 only: $ST
irq 32 c: idle: has not fired since boot
irq 33 q: managed: the kernel manages its affinity (a queue of a multi-queue device) and refuses to move it
irq 34 virtio1-input.0: pending: runs on CPU 2, outside the requested 0-1: its PCI-MSI controller applies a move at the next interrupt, and it has not fired since boot"
}

@test "an IRQ with nothing to explain is listed only with -v" {
	make_root --cpus 4 --irq 30=a --affinity 1 --irq 31 --affinity 2
	run --separate-stderr -0 irqaff explain
	assert_output ''
	assert_equal "$stderr" ''
	run --separate-stderr -0 irqaff explain -v
	assert_output $'irq 30 a: ok: 1 requested, runs on CPU 1\nirq 31: ok: 2 requested, runs on CPU 2, no handler'
	run --separate-stderr -0 irqaff explain -J
	assert_output '{"irqs":[{"irq":30,"name":"a","requested":"1","requested_cpus":[1],"requested_nodes":[0],"effective":"1","effective_cpus":[1],"effective_nodes":[0],"findings":[],"notes":[]},{"irq":31,"name":"","requested":"2","requested_cpus":[2],"requested_nodes":[0],"effective":"2","effective_cpus":[2],"effective_nodes":[0],"findings":[],"notes":[]}],"findings":[]}'
}

@test "single-target is said only with -v, in no controller's words" {
	make_root --cpus 4 --irq 30=a
	run --separate-stderr -0 irqaff explain
	assert_output ''
	run --separate-stderr -0 irqaff explain -v
	assert_output "irq 30 a: single-target: 0-3 requested, delivered to CPU 2 only: $ST"
}

@test "managed: debugfs says the kernel owns the IRQ; detail only" {
	make_root --cpus 4 --irq 30=nvme0q1 --affinity 1 --irq 31=a \
		--affinity 1 --managed 30
	run --separate-stderr -0 irqaff explain
	assert_output ''
	run --separate-stderr -0 irqaff explain -v 30
	assert_output 'irq 30 nvme0q1: managed: the kernel manages its affinity (a queue of a multi-queue device) and refuses to move it'
}

@test "pending: the words follow the interrupt controller" {
	make_root --cpus 4 --irq 30=a --affinity 0-1 --effective 3 \
		--irq 31=b --affinity 0-1 --effective 3 --chip IR-PCI-MSI \
		--irq 32=c --affinity 0-1 --effective 3 --chip ITS-MSI \
		--irq 33=d --affinity 0-1 --effective 3 --chip PCI-MSI \
		--irq 34=e --affinity 0-1 --effective 2
	run --separate-stderr -1 irqaff explain 30-33
	assert_output 'irq 30 a: pending: runs on CPU 3, outside the requested 0-1: its IO-APIC controller applies a move at the next interrupt
irq 31 b: pending: runs on CPU 3, outside the requested 0-1: the kernel has not applied the move
irq 32 c: pending: runs on CPU 3, outside the requested 0-1: the kernel has not applied the move
irq 33 d: pending: runs on CPU 3, outside the requested 0-1: its PCI-MSI controller applies a move at the next interrupt'
	# a move waiting for the next interrupt is the kernel's normal
	# course, detail; one a controller should have applied has stayed
	run --separate-stderr -1 irqaff explain
	assert_output 'irq 31 b: pending: runs on CPU 3, outside the requested 0-1: the kernel has not applied the move
irq 32 c: pending: runs on CPU 3, outside the requested 0-1: the kernel has not applied the move'
	make_root --dir "$BATS_TEST_TMPDIR/p" --cpus 4 --irq 30=a \
		--affinity 0-1 --effective 3 --pending 30
	run --separate-stderr -0 irqaff explain 30
	assert_output 'irq 30 a: pending: runs on CPU 3, outside the requested 0-1: debugfs shows the move waiting for its next interrupt'
	run --separate-stderr -0 irqaff explain
	assert_output ''
}

@test "a move just asked for, still on the old node, is neither a finding nor remote-node" {
	# node 1 is CPUs 2-3; a PCI-MSI vector without interrupt remapping
	# moves at its next interrupt (x86)
	make_root --cpus 4 --nodes 2 --irq 40=eth0 --irq-node 1 \
		--chip PCI-MSI --effective 0
	run --separate-stderr -0 irqaff set 40 2-3
	run --separate-stderr -0 irqaff explain
	assert_output ''
	assert_equal "$stderr" ''
	run --separate-stderr -0 irqaff explain -v 40
	assert_output 'irq 40 eth0: pending: runs on CPU 0, outside the requested 2-3: its PCI-MSI controller applies a move at the next interrupt'
}

@test "pending on an IRQ that never fired: idle is its reason, not a finding" {
	make_root --cpus 4 --irq 30=a --affinity 0-1 --effective 3 --idle 30 \
		--irq 31=b --affinity 0-1 --effective 3 --idle 31 \
		--chip IR-PCI-MSI
	run --separate-stderr -1 irqaff explain
	assert_output 'irq 31 b: pending: runs on CPU 3, outside the requested 0-1: the kernel has not applied the move; it has not fired since boot'
	run --separate-stderr -1 irqaff explain -v
	assert_output 'irq 30 a: pending: runs on CPU 3, outside the requested 0-1: its IO-APIC controller applies a move at the next interrupt, and it has not fired since boot
irq 31 b: pending: runs on CPU 3, outside the requested 0-1: the kernel has not applied the move; it has not fired since boot'
}

@test "offline: detail, only for a request that leaves out an online CPU" {
	make_root --cpus 4 --offline 3 --irq 30=a --affinity 2-3 --irq 31=b \
		--irq 32=c --affinity 0-3 --irq 34=q --affinity 2-3 --managed 34
	run --separate-stderr -0 irqaff explain
	assert_output ''
	run --separate-stderr -0 irqaff explain -v 30-32
	assert_output "irq 30 a: offline: requested CPU 3 is offline; should the rest go offline too, the kernel moves it to every online CPU and leaves it there
irq 31 b: single-target: 0-3 requested, delivered to CPU 1 only: $ST
irq 32 c: single-target: 0-3 requested, delivered to CPU 2 only: $ST"
	run --separate-stderr -0 irqaff explain -v 34
	assert_line 'irq 34 q: offline: requested CPU 3 is offline; should the rest go offline too, the kernel shuts it down until one comes back'
}

@test "shutdown and no-online: a request with no online CPU" {
	# without debugfs: a movable IRQ would have been moved (migrate_one_irq())
	make_root --cpus 4 --offline 3 --irq 30=a --affinity 3
	run --separate-stderr -0 irqaff explain
	assert_output ''
	run --separate-stderr -0 irqaff explain -v
	assert_output 'irq 30 a: shutdown: all its CPUs (3) are offline: a managed IRQ is shut down then, until one of them comes back online'
	# an IRQ named is explained in full, -v or not
	run --separate-stderr -0 irqaff explain a
	assert_output 'irq 30 a: shutdown: all its CPUs (3) are offline: a managed IRQ is shut down then, until one of them comes back online'
	make_root --dir "$BATS_TEST_TMPDIR/d" --cpus 4 --offline 3 \
		--irq 30=a --affinity 3 --irq 31=q --affinity 3 --managed 31 \
		--irq 32=r --affinity 0 --managed 32
	run --separate-stderr -1 irqaff explain
	assert_output 'irq 30 a: no-online: no requested CPU (3) is online, and the kernel does not manage it'
	run --separate-stderr -0 irqaff explain -v 31
	assert_output 'irq 31 q: managed: the kernel manages its affinity (a queue of a multi-queue device) and refuses to move it
irq 31 q: shutdown: all its CPUs (3) are offline: the kernel manages it, so it is shut down until one of them comes back online'
}

@test "arm64: per-CPU IRQs are neither managed nor isolated, and GIC moves get no x86 words" {
	# the arm64-8 guest: arch_timer and arm-pmu have no effective CPU and
	# no proc/irq/N/NAME, only sys/kernel/irq/N/actions
	local irq
	make_root --cpus 8 --isolated 7 --irq 11=arch_timer --chip GICv3 \
		--hwirq '27 Level' --irq 14=arm-pmu --chip GICv3 \
		--hwirq '23 Level' \
		--irq 25=virtio1-input.0 --chip ITS-MSI --affinity 0-1 --effective 3
	for irq in 11 14; do
		rmdir "$(irq_dir $irq)"/*/
		printf '\n' >"$(irq_dir $irq)/effective_affinity_list"
		printf '00\n' >"$(irq_dir $irq)/effective_affinity"
	done
	run --separate-stderr -1 irqaff explain
	assert_output 'irq 25 virtio1-input.0: pending: runs on CPU 3, outside the requested 0-1: the kernel has not applied the move'
	run --separate-stderr -0 irqaff explain -v 11,14
	assert_output 'irq 11 arch_timer: per-cpu: a per-CPU interrupt: it fires on each CPU, and cannot be moved
irq 14 arm-pmu: per-cpu: a per-CPU interrupt: it fires on each CPU, and cannot be moved'
}

@test "a shut-down queue's stale CPU is neither isolated nor remote" {
	# kernel/irq/cpuhotplug.c: the managed queue of CPU 7 keeps 7 as its
	# effective CPU, and an offline CPU has no node
	make_root --cpus 8 --nodes 2 --offline 7 --isolated 7 \
		--irq 30=nvme0q8 --affinity 7 --managed 30 --irq-node 0
	assert_equal "$(<"$(irq_dir 30)/effective_affinity_list")" 7
	run --separate-stderr -0 irqaff explain
	assert_output ''
	# x86 parks a shut-down IRQ on CPU 0 (node 0): no remote node either
	make_root --dir "$BATS_TEST_TMPDIR/x" --cpus 8 --nodes 2 --offline 7 \
		--irq 30=nvme0q8 --affinity 7 --effective 0 --managed 30 \
		--irq-node 1
	run --separate-stderr -0 irqaff explain
	assert_output ''
	make_root --dir "$BATS_TEST_TMPDIR/j" --cpus 8 --nodes 2 --offline 7 \
		--isolated 7 --irq 30=nvme0q8 --affinity 7 --managed 30 \
		--irq-node 0
	run --separate-stderr -0 irqaff explain -J
	assert_output '{"irqs":[{"irq":30,"name":"nvme0q8","requested":"7","requested_cpus":[7],"requested_nodes":[],"effective":"7","effective_cpus":[7],"effective_nodes":[],"findings":[],"notes":[{"code":"managed","text":"the kernel manages its affinity (a queue of a multi-queue device) and refuses to move it"},{"code":"shutdown","text":"all its CPUs (7) are offline: the kernel manages it, so it is shut down until one of them comes back online"}]}],"findings":[]}'
}

@test "isolated: an IRQ on an isolated or nohz_full CPU" {
	make_root --cpus 4 --isolated 2 --nohz-full 3 --irq 30=a --affinity 2 \
		--irq 31=b --affinity 3 --irq 32=c --affinity 1 \
		--irq 33=q --affinity 2 --managed 33
	run --separate-stderr -1 irqaff explain
	assert_output 'irq 30 a: isolated: runs on CPU 2, isolated (isolcpus=)
irq 31 b: isolated: runs on CPU 3, isolated (nohz_full=)'
	run --separate-stderr -0 irqaff explain -v 33
	assert_line 'irq 33 q: isolated: runs on CPU 2, isolated (isolcpus=)'
	# and the CPUs irqaff isolate remembered, said as such
	mkdir -p "$ROOT/var/lib/irqaff"
	printf '1\n' >"$ROOT/var/lib/irqaff/isolated"
	run --separate-stderr -1 irqaff explain 32
	assert_output 'irq 32 c: isolated: runs on CPU 1, isolated (irqaff isolate)'
}

@test "remote-node: a device on node 1 served by a CPU of node 0" {
	make_root --cpus 8 --nodes 2 --irq 30=a --affinity 0 --irq-node 1 \
		--irq 31=b --affinity 5 --irq-node 1 \
		--irq 32=c --affinity 6 --irq-node 0
	run --separate-stderr -1 irqaff explain
	assert_output 'irq 30 a: remote-node: its device is on node 1, and it runs on CPU 0 (node 0): each interrupt crosses NUMA nodes
irq 32 c: remote-node: its device is on node 0, and it runs on CPU 6 (node 1): each interrupt crosses NUMA nodes'
}

@test "hint: the driver's suggestion is detail, not a problem" {
	make_root --cpus 4 --irq 30=a --affinity 1 --hint 2 --irq 31=b \
		--affinity 1 --hint 1
	run --separate-stderr -0 irqaff explain
	assert_output ''
	# named, an IRQ the user placed gets no hint line: -v only
	run --separate-stderr -0 irqaff explain 30
	assert_output ''
	run --separate-stderr -0 irqaff explain -v
	assert_output 'irq 30 a: hint: its driver suggests CPU 2 (affinity_hint); 1 is requested
irq 31 b: ok: 1 requested, runs on CPU 1'
}

@test "idle: detail from sys/kernel/irq or proc/interrupts, never for an unused line" {
	local opt
	for opt in --debugfs --no-sysirq; do
		make_root --dir "$BATS_TEST_TMPDIR/r$opt" --cpus 4 --irq 30=a \
			--affinity 1 --irq 31=b --affinity 1 --irq 32 \
			--affinity 1 --idle 30,32 "$opt"
		run --separate-stderr -0 irqaff explain
		assert_output ''
		run --separate-stderr -0 irqaff explain -v
		assert_output 'irq 30 a: idle: has not fired since boot
irq 31 b: ok: 1 requested, runs on CPU 1
irq 32: ok: 1 requested, runs on CPU 1, no handler'
	done
}

@test "irqbalance: never a line, nor --banirq, for an IRQ user space cannot move" {
	local args
	for args in --debugfs --no-debugfs; do
		rm -rf "$ROOT"
		make_root --cpus 4 --irq 0=timer --affinity 0 --unmovable 0 \
			--irq 30=q --affinity 1 --managed 30 --irqbalance "$args"
		run --separate-stderr -0 irqaff explain
		assert_output ''
		run --separate-stderr -0 irqaff explain -v
		refute_output --partial irqbalance
	done
}

@test "irqbalance: the IRQs it may move, not those it bans" {
	make_root --cpus 4 --irq 30=a --affinity 1 --irq 31=b --affinity 1 \
		--irq 32=c --affinity 1 --managed 32 \
		--irqbalance-args '--banirq=31'
	run --separate-stderr -1 irqaff explain 30-31
	assert_output 'irqbalance: runs (pid 4242) and may move 1 IRQ again; --banirq=N in IRQBALANCE_ARGS keeps IRQ N away (-v lists them)'
	run --separate-stderr -1 irqaff explain -v 30-32
	assert_output 'irq 30 a: irqbalance: runs and may move it again; --banirq=30 keeps it away
irq 31 b: ok: 1 requested, runs on CPU 1
irq 32 c: managed: the kernel manages its affinity (a queue of a multi-queue device) and refuses to move it
irqbalance: runs (pid 4242) and may move 1 IRQ again; --banirq=N in IRQBALANCE_ARGS keeps IRQ N away'
	run --separate-stderr -1 irqaff explain -J 30
	run jq -c '[.irqs[].notes[].code, .findings]' <<<"$output"
	assert_output '["irqbalance",[{"code":"irqbalance","text":"runs (pid 4242) and may move 1 IRQ again; --banirq=N in IRQBALANCE_ARGS keeps IRQ N away (-v lists them)"}]]'
	make_root --dir "$BATS_TEST_TMPDIR/i" --cpus 4 --irq 30=a --affinity 1 \
		--irqbalance-args '-i 30'
	run --separate-stderr -0 irqaff explain
	assert_output ''
}

@test "explain -J reports findings and notes, with both sets" {
	make_root --cpus 8 --nodes 2 --offline 7 --isolated 6 --irq 30=a \
		--affinity 6-7 --irq-node 0 --hint 1 --idle 30 --debugfs
	run --separate-stderr -1 irqaff explain -J
	assert_output '{"irqs":[{"irq":30,"name":"a","requested":"6-7","requested_cpus":[6,7],"requested_nodes":[1],"effective":"6","effective_cpus":[6],"effective_nodes":[1],"findings":[{"code":"isolated","text":"runs on CPU 6, isolated (isolcpus=)"},{"code":"remote-node","text":"its device is on node 0, and it runs on CPU 6 (node 1): each interrupt crosses NUMA nodes"}],"notes":[{"code":"offline","text":"requested CPU 7 is offline; should the rest go offline too, the kernel moves it to every online CPU and leaves it there"},{"code":"hint","text":"its driver suggests CPU 1 (affinity_hint); 6-7 is requested"},{"code":"idle","text":"has not fired since boot"}]}],"findings":[]}'
}

@test "names are escaped in text and valid in JSON" {
	make_root --cpus 4 --irq $'30=a\033[2Jb' --affinity 1 --isolated 1
	run --separate-stderr -1 irqaff explain
	assert_output 'irq 30 a\033[2Jb: isolated: runs on CPU 1, isolated (isolcpus=)'
	run --separate-stderr -1 irqaff explain -J
	assert_output '{"irqs":[{"irq":30,"name":"a\u001b[2Jb","requested":"1","requested_cpus":[1],"requested_nodes":[0],"effective":"1","effective_cpus":[1],"effective_nodes":[0],"findings":[{"code":"isolated","text":"runs on CPU 1, isolated (isolcpus=)"}],"notes":[]}],"findings":[]}'
}

@test "several IRQ lists are one union: explain nvme0q1 nvme0q2" {
	make_root --cpus 4 --isolated 1-3 --irq 30=nvme0q1 --affinity 1 \
		--irq 31=nvme0q2 --affinity 2 --irq 32=nvme0q3 --affinity 3
	run --separate-stderr -1 irqaff explain nvme0q2 nvme0q1 nvme0q2
	assert_output 'irq 30 nvme0q1: isolated: runs on CPU 1, isolated (isolcpus=)
irq 31 nvme0q2: isolated: runs on CPU 2, isolated (isolcpus=)'
	assert_equal "$stderr" ''
}

@test "an empty selection prints nothing, status 5, not a finding's 1, a note for a name" {
	make_root --cpus 4 --isolated 3 --irq 30=a --affinity 3
	run --separate-stderr -5 irqaff explain cpu:2
	assert_output ''
	assert_equal "$stderr" ''
	run --separate-stderr -5 irqaff explain -v 'eth9-*'
	assert_output ''
	assert_equal "$stderr" 'irqaff: note: IRQ list "eth9-*": "eth9-*" matches no IRQ'
	run --separate-stderr -5 irqaff explain -J 31
	assert_output '{"irqs":[],"findings":[]}'
	assert_equal "$stderr" 'irqaff: note: IRQ 31 does not exist'
	# the IRQs that are there are still explained
	run --separate-stderr -1 irqaff explain 31 30
	assert_output 'irq 30 a: isolated: runs on CPU 3, isolated (isolcpus=)'
}

@test "bad input is status 2" {
	make_root --cpus 4 --irq 30=a
	run --separate-stderr -2 irqaff explain 'dev:'
	run --separate-stderr -2 irqaff explain 30,,31
	run --separate-stderr -2 irqaff explain cpu:9
	assert_output ''
	assert_equal "$stderr" 'irqaff: IRQ list "cpu:9": CPU list "9": CPU 9 is beyond the last possible CPU 3'
	run --separate-stderr -2 irqaff explain -x
	assert_equal "${stderr%%$'\n'*}" 'irqaff: explain: unknown option -x'
}

@test "explain -v says so when an IRQ's effective affinity is empty" {
	make_root --cpus 4 --irq 30=a --affinity 1
	# not started: the kernel has chosen no CPU yet (irq_data_update_effective_affinity())
	printf '\n' >"$ROOT/proc/irq/30/effective_affinity_list"
	printf '0\n' >"$ROOT/proc/irq/30/effective_affinity"
	run --separate-stderr -0 irqaff explain -v
	assert_output 'irq 30 a: ok: 1 requested, runs on no CPU yet (no effective affinity: not started)'
	assert_equal "$stderr" ''
}

@test "a move pending off an isolated CPU is pending in explain and in isolate --check, status 1 in both" {
	# requested on 0-1, still running on isolated 6 (the move waits)
	make_root --cpus 8 --isolated 6-7 --irq 30=a --affinity 0-1 \
		--effective 6 --irq 31=b --affinity 0-1 --effective 6 --idle 31 \
		--irq 32=c --affinity 0-1 --effective 1
	# idle, 31 would be detail; on an isolated CPU it needs attention
	run --separate-stderr -1 irqaff explain
	assert_output 'irq 30 a: pending: runs on CPU 6, outside the requested 0-1: its IO-APIC controller applies a move at the next interrupt
irq 31 b: pending: runs on CPU 6, outside the requested 0-1: its IO-APIC controller applies a move at the next interrupt, and it has not fired since boot'
	assert_equal "$stderr" ''
	run --separate-stderr -1 irqaff isolate --check 6-7
	assert_line 'irq 30 a: movable, move pending to CPU 0-1, on CPU 6'
	assert_line 'irq 31 b: movable, move pending to CPU 0-1, on CPU 6'
	refute_line --partial 'irq 32'
	# the other side: once the move applied, neither finds anything
	printf '0\n' >"$(irq_dir 30)/effective_affinity_list"
	printf '1\n' >"$(irq_dir 31)/effective_affinity_list"
	run --separate-stderr -0 irqaff explain
	assert_output ''
}

@test "an IRQ requested entirely off its device's node is remote-node before it has moved" {
	make_root --cpus 8 --nodes 2 --irq 30=a --affinity 4-5 --effective 0 \
		--irq-node 0 --idle 30 --irq 31=b --affinity 0-1 --effective 0 \
		--irq-node 0 --idle 31 --irq 32=c --affinity 3-4 --effective 3 \
		--irq-node 0 --idle 32
	run --separate-stderr -1 irqaff explain
	assert_output 'irq 30 a: remote-node: its device is on node 0, and it is requested on CPU 4-5 (node 1): once the move applies, each interrupt crosses NUMA nodes'
	run --separate-stderr -0 irqaff explain -J 31
	run jq -c '.irqs[] | [.requested_cpus, .requested_nodes, .effective_nodes, [.findings[].code]]' <<<"$output"
	assert_output '[[0,1],[0],[0],[]]'
}

@test "an affinity file that cannot be read is said and exits 1; one missing is only unknown" {
	local f ok31='irq 31 b: ok: 2 requested, runs on CPU 2'
	for f in smp_affinity effective_affinity affinity_hint; do
		make_root --dir "$BATS_TEST_TMPDIR/$f" --cpus 4 --irq 30=a \
			--affinity 1 --hint 1 --irq 31=b --affinity 2
		printf 'zz\n' | tee "$(irq_dir 30)/${f}_list" >"$(irq_dir 30)/$f"
		# without it 30 would be "ok" and the exit status 0
		run --separate-stderr -1 irqaff explain -v
		assert_equal "$stderr" "irqaff: irq 30: $(irq_dir 30)/${f}_list: region \"zz\": \"zz\" is not a number"
		case $f in
		smp_affinity) assert_output "$ok31" ;;
		effective_affinity) assert_output "irq 30 a: ok: 1 requested
$ok31" ;;
		affinity_hint) assert_output "irq 30 a: ok: 1 requested, runs on CPU 1
$ok31" ;;
		esac
	done
	run --separate-stderr -1 irqaff explain -J
	assert_output '{"irqs":[{"irq":30,"name":"a","requested":"1","requested_cpus":[1],"requested_nodes":[0],"effective":"1","effective_cpus":[1],"effective_nodes":[0],"findings":[],"notes":[]},{"irq":31,"name":"b","requested":"2","requested_cpus":[2],"requested_nodes":[0],"effective":"2","effective_cpus":[2],"effective_nodes":[0],"findings":[],"notes":[]}],"findings":[]}'
	make_root --dir "$BATS_TEST_TMPDIR/gone" --cpus 4 --irq 30=a --affinity 1
	rm "$(irq_dir 30)"/effective_affinity* "$(irq_dir 30)"/affinity_hint*
	run --separate-stderr -0 irqaff explain -v
	assert_output 'irq 30 a: ok: 1 requested'
	assert_equal "$stderr" ''
}

# issue 52's pins: explain's rules that a plausible one-line mistake broke
# without a test noticing

@test "explain -v calls an IRQ idle only when its total is known: a count past 32 bits without sys/kernel/irq is not" {
	make_root --cpus 2 --no-sysirq --irq 30=a --affinity 1 --idle 30
	run --separate-stderr -0 irqaff explain -v
	assert_output 'irq 30 a: idle: has not fired since boot'
	# a count the kernel's unsigned int cannot hold: the total is unknown
	sed -i 's/^\( 30: \)         0/\14294967296/' "$ROOT/proc/interrupts"
	run --separate-stderr -0 irqaff explain -v
	assert_output 'irq 30 a: ok: 1 requested, runs on CPU 1'
	assert_equal "$stderr" ''
	sed -i 's/^\( 30: \)4294967296/\14294967295/' "$ROOT/proc/interrupts"
	run --separate-stderr -0 irqaff explain -v
	assert_output 'irq 30 a: ok: 1 requested, runs on CPU 1'
}

@test "explain -v takes no other row's total for an IRQ proc/interrupts has no row of" {
	# 25's per_cpu_count is cut (no newline) and its row gone: the
	# total is unknown, not idle 24's
	make_root --cpus 4 --irq 24=a --idle 24 --irq 25=b --affinity 1 --irq 26=c
	printf '1,2' >"$ROOT/sys/kernel/irq/25/per_cpu_count"
	sed -i '/^ *25:/d' "$ROOT/proc/interrupts"
	run --separate-stderr -0 irqaff explain -v 25
	assert_output 'irq 25 b: ok: 1 requested, runs on CPU 1'
	assert_equal "$stderr" ''
}

@test "a pending move says the IRQ never fired only when its total is known" {
	make_root --cpus 4 --no-sysirq --irq 31=b --affinity 0-1 --effective 3 \
		--idle 31 --chip IR-PCI-MSI
	run --separate-stderr -1 irqaff explain
	assert_output 'irq 31 b: pending: runs on CPU 3, outside the requested 0-1: the kernel has not applied the move; it has not fired since boot'
	sed -i 's/^\( 31: \)         0/\14294967296/' "$ROOT/proc/interrupts"
	run --separate-stderr -1 irqaff explain
	assert_output 'irq 31 b: pending: runs on CPU 3, outside the requested 0-1: the kernel has not applied the move'
}

@test "explain never asks to ban a managed IRQ from irqbalance, and a managed IRQ alone is no finding" {
	make_root --cpus 4 --irq 30=q --affinity 1 --managed 30 --irqbalance
	run --separate-stderr -0 irqaff explain
	assert_output ''
	assert_equal "$stderr" ''
	run --separate-stderr -0 irqaff explain -v
	assert_output 'irq 30 q: managed: the kernel manages its affinity (a queue of a multi-queue device) and refuses to move it'
	# the other side: the same IRQ not managed is irqbalance's to move
	make_root --dir "$BATS_TEST_TMPDIR/m" --cpus 4 --irq 30=q --affinity 1 \
		--irqbalance
	run --separate-stderr -1 irqaff explain
	assert_output 'irqbalance: runs (pid 4242) and may move 1 IRQ again; --banirq=N in IRQBALANCE_ARGS keeps IRQ N away (-v lists them)'
}
