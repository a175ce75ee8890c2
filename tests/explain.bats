#!/usr/bin/env bats
# irqaff explain: one finding a line for each reason an IRQ is not where
# it was asked, or where it should not be; each code on a tree built for
# it; exit 0 when nothing but single-target is found.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper/common-setup
	_common_setup
	ST='x86 interrupt controllers in physical mode deliver to one CPU of the set; this is normal'
}

@test "an IRQ with nothing to explain is listed only with -v" {
	make_root --cpus 4 --irq 30=a --affinity 1 --irq 31 --affinity 2
	run --separate-stderr -0 irqaff explain
	assert_output ''
	assert_equal "$stderr" ''
	run --separate-stderr -0 irqaff explain -v
	assert_output $'irq 30 a: ok: 1 requested, runs on CPU 1\nirq 31: ok: 2 requested, runs on CPU 2'
	run --separate-stderr -0 irqaff explain -J
	assert_output '{"irqs":[{"irq":30,"name":"a","requested":"1","effective":"1","findings":[]},{"irq":31,"name":"","requested":"2","effective":"2","findings":[]}]}'
}

@test "single-target is said, so nobody fixes it, and exits 0" {
	make_root --cpus 4 --irq 30=a
	run --separate-stderr -0 irqaff explain
	assert_output "irq 30 a: single-target: 0-3 requested, delivered to CPU 2 only: $ST"
}

@test "managed: debugfs says the kernel owns the IRQ" {
	make_root --cpus 4 --irq 30=nvme0q1 --affinity 1 --irq 31=a \
		--affinity 1 --managed 30
	run --separate-stderr -1 irqaff explain
	assert_output 'irq 30 nvme0q1: managed: the kernel manages its affinity (a queue of a multi-queue device) and refuses to move it'
}

@test "pending: effective outside the request, confirmed by debugfs" {
	make_root --cpus 4 --irq 30=a --affinity 0-1 --effective 3 \
		--irq 31=b --affinity 0-1 --effective 2
	run --separate-stderr -1 irqaff explain 30
	assert_output 'irq 30 a: pending: runs on CPU 3, outside the requested 0-1; on x86 a move waits for the next interrupt, or the kernel found no free vector there'
	make_root --dir "$BATS_TEST_TMPDIR/p" --cpus 4 --irq 30=a \
		--affinity 0-1 --effective 3 --pending 30
	run --separate-stderr -1 irqaff explain 30
	assert_output 'irq 30 a: pending: runs on CPU 3, outside the requested 0-1; debugfs shows the move waiting for its next interrupt'
}

@test "offline and no-online: requested CPUs that are not online" {
	make_root --cpus 4 --offline 3 --irq 30=a --affinity 2-3 --irq 31=b \
		--affinity 3
	run --separate-stderr -1 irqaff explain
	assert_output 'irq 30 a: offline: requested CPU 3 is offline
irq 31 b: no-online: no requested CPU (3) is online: the kernel uses its default affinity'
}

@test "isolated: an IRQ on an isolated or nohz_full CPU" {
	make_root --cpus 4 --isolated 2 --nohz-full 3 --irq 30=a --affinity 2 \
		--irq 31=b --affinity 3 --irq 32=c --affinity 1
	run --separate-stderr -1 irqaff explain
	assert_output 'irq 30 a: isolated: runs on CPU 2, isolated (isolcpus or nohz_full)
irq 31 b: isolated: runs on CPU 3, isolated (isolcpus or nohz_full)'
}

@test "remote-node: a device on node 1 served by a CPU of node 0" {
	make_root --cpus 8 --nodes 2 --irq 30=a --affinity 0 --irq-node 1 \
		--irq 31=b --affinity 5 --irq-node 1
	run --separate-stderr -1 irqaff explain
	assert_output 'irq 30 a: remote-node: its device is on node 1, and it runs on CPU 0 (node 0): each interrupt crosses NUMA nodes'
}

@test "hint: the driver suggests other CPUs than the request" {
	make_root --cpus 4 --irq 30=a --affinity 1 --hint 2 --irq 31=b \
		--affinity 1 --hint 1
	run --separate-stderr -1 irqaff explain
	assert_output 'irq 30 a: hint: its driver suggests CPU 2 (affinity_hint); 1 is requested'
}

@test "idle: never fired, from sys/kernel/irq or proc/interrupts" {
	local opt
	for opt in --debugfs --no-sysirq; do
		make_root --dir "$BATS_TEST_TMPDIR/r$opt" --cpus 4 --irq 30=a \
			--affinity 1 --irq 31=b --affinity 1 --idle 30 "$opt"
		run --separate-stderr -1 irqaff explain
		assert_output 'irq 30 a: idle: has not fired since boot: where a move waits for the next interrupt, its affinity is not applied yet'
	done
}

@test "irqbalance: the IRQs it may move, not those it bans" {
	make_root --cpus 4 --irq 30=a --affinity 1 --irq 31=b --affinity 1 \
		--irq 32=c --affinity 1 --managed 32 \
		--irqbalance-args '--banirq=31'
	run --separate-stderr -1 irqaff explain 30-31
	assert_output 'irq 30 a: irqbalance: runs and may move it again; --banirq=30 keeps it away'
	make_root --dir "$BATS_TEST_TMPDIR/i" --cpus 4 --irq 30=a --affinity 1 \
		--irqbalance-args '-i 30'
	run --separate-stderr -0 irqaff explain
	assert_output ''
}

@test "explain -J reports each code found, with both sets" {
	make_root --cpus 8 --nodes 2 --offline 7 --isolated 6 --irq 30=a \
		--affinity 6-7 --irq-node 0 --hint 1 --idle 30 --debugfs
	run --separate-stderr -1 irqaff explain -J
	assert_output '{"irqs":[{"irq":30,"name":"a","requested":"6-7","effective":"6","findings":[{"code":"offline","text":"requested CPU 7 is offline"},{"code":"isolated","text":"runs on CPU 6, isolated (isolcpus or nohz_full)"},{"code":"remote-node","text":"its device is on node 0, and it runs on CPU 6 (node 1): each interrupt crosses NUMA nodes"},{"code":"hint","text":"its driver suggests CPU 1 (affinity_hint); 6-7 is requested"},{"code":"idle","text":"has not fired since boot: where a move waits for the next interrupt, its affinity is not applied yet"}]}]}'
}

@test "names are escaped in text and valid in JSON" {
	make_root --cpus 4 --irq $'30=a\033[2Jb' --affinity 1 --hint 2
	run --separate-stderr -1 irqaff explain
	assert_output 'irq 30 a\033[2Jb: hint: its driver suggests CPU 2 (affinity_hint); 1 is requested'
	run --separate-stderr -1 irqaff explain -J
	assert_output '{"irqs":[{"irq":30,"name":"a\u001b[2Jb","requested":"1","effective":"1","findings":[{"code":"hint","text":"its driver suggests CPU 2 (affinity_hint); 1 is requested"}]}]}'
}

@test "bad input is status 2" {
	make_root --cpus 4 --irq 30=a
	run --separate-stderr -2 irqaff explain 'dev:'
	run --separate-stderr -2 irqaff explain 30 31
	assert_equal "${stderr%%$'\n'*}" 'irqaff: explain: expected at most one IRQ list'
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
