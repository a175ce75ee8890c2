#!/usr/bin/env bats
# Each x86 CPU's interrupt vectors (core/vectors.c): every writer checks
# its layout against them before the first write, -n and -J alike, and
# refuses whole one that cannot fit; exact from irq debugfs's VECTOR
# domain, else estimated from the IRQs /proc shows, less a margin.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
}

# The estimate: 201 vectors a CPU for devices, 2 kept aside, 199.
# nvme0:N has N + 1 IRQs from 24, the even ones on CPU 0, the odd on 1.
OUT='give more CPUs, or fewer queues with ethtool -L'

# the refusal's sentence, as stderr and JSON say it
why() {
	printf 'CPU %s: %s IRQs need an interrupt vector there, %s free (%s)' \
		"$@"
}

@test "set all onto one CPU that has exactly the vectors estimated applies" {
	make_root --cpus 2 --nvme nvme0:198
	run --separate-stderr -0 irqaff set all 0
	assert_output ""
	assert_equal "$stderr" ""
	assert_file "$(list_of 25)" $'0\n'
	assert_file "$(list_of 222)" $'0\n'
}

@test "set all onto one CPU one vector short of the estimate writes nothing and exits 1" {
	make_root --cpus 2 --nvme nvme0:199
	before=$(tree_sum)
	run --separate-stderr -1 irqaff set all 0
	assert_output ""
	assert_equal "$stderr" "irqaff: $(why 0 100 99 estimated): nothing written; $OUT"
	assert_equal "$(tree_sum)" "$before"
	run --separate-stderr -1 irqaff set -n all 0
	assert_output ""
	assert_equal "$stderr" "irqaff: $(why 0 100 99 estimated): nothing written; $OUT"
}

@test "the exact count comes from irq debugfs's VECTOR domain: both sides" {
	make_root --cpus 2 --nvme nvme0:9 --vectors 10
	run --separate-stderr -0 irqaff set -n all 0
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 2 --nvme nvme0:9 --vectors 9
	before=$(tree_sum)
	run --separate-stderr -1 irqaff set all 0
	assert_equal "$stderr" "irqaff: $(why 0 5 4 'irq debugfs'): nothing written; $OUT"
	assert_equal "$(tree_sum)" "$before"
}

@test "set -J and -n -J give the same failed IRQs and the vectors member" {
	make_root --cpus 2 --nvme nvme0:9 --vectors 9
	failed='' sep=''
	for irq in 25 27 29 31 33; do
		failed+="$sep{\"irq\":$irq,\"name\":\"nvme0q$((irq - 24))\",\"new\":\"0\",\"errno\":\"ENOSPC\",\"error\":\"$(why 0 5 4 'irq debugfs')\"}"
		sep=,
	done
	tail="\"changed\":[],\"unchanged\":0,\"failed\":[$failed],\"managed\":[],\"unmovable\":[],\"vectors\":{\"cpus\":\"0\",\"irqs\":5,\"free\":4,\"exact\":true}}"
	run --separate-stderr -1 irqaff set -J all 0
	assert_output "{\"dry_run\":false,$tail"
	run --separate-stderr -1 irqaff set -n -J all 0
	assert_output "{\"dry_run\":true,$tail"
}

@test "the estimate places moves onto a set over its CPUs' free vectors" {
	# 100 IRQs on each of three CPUs: CPU 2's fit in 0-1, not in 0 alone
	make_root --cpus 3 --nvme nvme0:299
	run --separate-stderr -1 irqaff set -n all 0
	assert_equal "$stderr" "irqaff: $(why 0 200 99 estimated): nothing written; $OUT"
	run --separate-stderr -0 irqaff set all 0-1
	assert_equal "$stderr" ""
	assert_file "$(list_of 323)" $'0-1\n'
}

@test "a move onto a set of CPUs needs a free vector on one of them" {
	# three IRQs on each CPU; CPU 2's three move to 0-1
	make_root --cpus 3 --nvme nvme0:8 --vectors 5
	run --separate-stderr -0 irqaff set -n all 0-1
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 3 --nvme nvme0:8 --vectors 4
	run --separate-stderr -1 irqaff set -n all 0-1
	assert_equal "$stderr" "irqaff: $(why 0-1 3 2 'irq debugfs'): nothing written; $OUT"
}

@test "the estimate counts a managed IRQ's reservation on each of its CPUs" {
	# 100 managed on 0-1 reserve 100 on each; 50 others on each CPU
	make_root --cpus 2 --nvme nvme0:199 --managed 24-123 --no-debugfs
	run --separate-stderr -1 irqaff set -n all 0
	assert_equal "$stderr" "irqaff: $(why 0 50 49 estimated): nothing written; $OUT"
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 2 --nvme nvme0:198 \
		--managed 24-123 --no-debugfs
	run --separate-stderr -0 irqaff set all 0
	assert_equal "$stderr" "irqaff: note: 100 kernel-managed IRQs left to the kernel"
	assert_file "$(list_of 222)" $'0\n'
}

@test "arm64 has no per-CPU vector limit" {
	make_root --cpus 2 --nvme nvme0:199 --arm64
	run --separate-stderr -0 irqaff set all 0
	assert_equal "$stderr" ""
	assert_file "$(list_of 223)" $'0\n'
}

@test "isolate onto CPUs short of vectors writes nothing, -n and -J the same" {
	make_root --cpus 2 --nvme nvme0:199
	before=$(tree_sum)
	run --separate-stderr -1 irqaff isolate 1
	assert_output ""
	assert_equal "$stderr" "irqaff: $(why 0 100 99 estimated): nothing written; $OUT"
	assert_equal "$(tree_sum)" "$before"
	run --separate-stderr -1 irqaff isolate -n 1
	assert_output ""
	assert_equal "$stderr" "irqaff: $(why 0 100 99 estimated): nothing written; $OUT"
	run --separate-stderr -1 irqaff isolate -J 1
	assert_output --partial '"vectors":{"cpus":"0","irqs":100,"free":99,"exact":false}'
	assert_output --partial '"dry_run":false'
	assert_equal "$(tree_sum)" "$before"
	run --separate-stderr -1 irqaff isolate -n -J 1
	assert_output --partial '"vectors":{"cpus":"0","irqs":100,"free":99,"exact":false}'
}

@test "isolate applies when the moves fit exactly" {
	make_root --cpus 2 --nvme nvme0:198
	run --separate-stderr -0 irqaff isolate -q 1
	assert_file "$(list_of 25)" $'0\n'
}

@test "spread onto one CPU short of vectors writes nothing" {
	make_root --cpus 2 --nvme nvme0:199
	before=$(tree_sum)
	run --separate-stderr -1 irqaff spread -q -c 0 all
	assert_output ""
	assert_equal "$stderr" "irqaff: $(why 0 100 99 estimated): nothing written; $OUT"
	assert_equal "$(tree_sum)" "$before"
	run --separate-stderr -1 irqaff spread -q -n -c 0 all
	assert_output ""
	assert_equal "$stderr" "irqaff: $(why 0 100 99 estimated): nothing written; $OUT"
}

@test "restore of a layout that cannot fit writes nothing, -n the same" {
	make_root --cpus 2 --nvme nvme0:199
	irqaff save >"$BATS_TEST_TMPDIR/snap"
	sed -i 's/^\([0-9]*\) 0-1 /\1 0 /' "$BATS_TEST_TMPDIR/snap"
	before=$(tree_sum)
	run --separate-stderr -1 irqaff restore -q "$BATS_TEST_TMPDIR/snap"
	assert_output ""
	assert_equal "$stderr" "irqaff: $(why 0 100 99 estimated): nothing written; $OUT"
	assert_equal "$(tree_sum)" "$before"
	run --separate-stderr -1 irqaff restore -q -n "$BATS_TEST_TMPDIR/snap"
	assert_output ""
	assert_equal "$stderr" "irqaff: $(why 0 100 99 estimated): nothing written; $OUT"
}

@test "spread gives a CPU out of vectors' turn to the pool's freest" {
	# CPU 0 runs 24, 27, 40 and 41, all it has; 26 (on CPU 2) is next
	make_root --cpus 3 --nvme nvme0:3 --irq 40=a --affinity 0 \
		--irq 41=b --affinity 0 --vectors 4
	run --separate-stderr -0 irqaff spread -n -c 0-1 24-26
	assert_equal "$stderr" "irqaff: spreading 3 IRQs over CPU 0-1: 0-1 as asked
irqaff: note: 1 IRQ placed on other CPUs than their turn: theirs had no free interrupt vector"
	assert_output "irq 24 nvme0q0: 0
irq 25 nvme0q1: 1
irq 26 nvme0q2: 1"
	run --separate-stderr -0 irqaff spread -q -c 0-1 24-26
	assert_file "$(list_of 26)" $'1\n'
	# one vector more on each CPU: 26 takes its turn on CPU 0
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 3 --nvme nvme0:3 \
		--irq 40=a --affinity 0 --irq 41=b --affinity 0 --vectors 5
	run --separate-stderr -0 irqaff spread -q -c 0-1 24-26
	assert_file "$(list_of 26)" $'0\n'
}

@test "a move pending to an offline CPU is not one short of vectors" {
	make_root --cpus 3 --offline 2 --irq 24=a --affinity 2 --effective 0 \
		--irq 25=b --affinity 1 --pending 24 --vectors 1
	run --separate-stderr -1 irqaff isolate --check 0
	assert_line --index 0 'irq 24 a: movable, move pending to CPU 2, on CPU 0'
}

@test "explain and isolate --check say a pending move lacks a vector, and not when one is free" {
	# 24 waits to move to CPU 1, which 25 fills
	make_root --cpus 2 --irq 24=a --affinity 1 --effective 0 \
		--irq 25=b --affinity 1 --pending 24 --vectors 1
	run --separate-stderr -1 irqaff explain 24
	assert_output "irq 24 a: pending: runs on CPU 0, outside the requested 1: debugfs shows the move waiting for its next interrupt; no interrupt vector is free on CPU 1, so it cannot complete"
	run --separate-stderr -1 irqaff isolate --check 0
	assert_line --index 0 "irq 24 a: movable, move pending to CPU 1, on CPU 0; no interrupt vector is free there: it cannot complete"
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 2 --irq 24=a --affinity 1 \
		--effective 0 --irq 25=b --affinity 1 --pending 24 --vectors 2
	# a move that waits for its next interrupt is its normal course: detail
	run --separate-stderr -0 irqaff explain 24
	assert_output "irq 24 a: pending: runs on CPU 0, outside the requested 1: debugfs shows the move waiting for its next interrupt"
	run --separate-stderr -1 irqaff isolate --check 0
	assert_line --index 0 "irq 24 a: movable, move pending to CPU 1, on CPU 0"
}

@test "show's STUCK says a pending move lacks a vector, and not when one is free" {
	# 24 waits to move to CPU 1, which 25 fills; 25 is not pending
	make_root --cpus 2 --irq 24=a --affinity 1 --effective 0 \
		--irq 25=b --affinity 1 --pending 24 --vectors 1
	run --separate-stderr -0 irqaff show -o IRQ,AFFINITY,EFFECTIVE,PENDING,STUCK
	assert_equal "$stderr" ""
	assert_output "IRQ AFFINITY EFFECTIVE PENDING STUCK
 24 1        0         yes     yes
 25 1        1         no      no"
	run --separate-stderr -0 irqaff show -J -o irq,stuck
	assert_output '{"interrupts":[{"irq":24,"stuck":true},{"irq":25,"stuck":false}]}'
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 2 --irq 24=a --affinity 1 \
		--effective 0 --irq 25=b --affinity 1 --pending 24 --vectors 2
	run --separate-stderr -0 irqaff show -J -o irq,pending,stuck
	assert_output '{"interrupts":[{"irq":24,"pending":true,"stuck":false},{"irq":25,"pending":false,"stuck":false}]}'
	# no effective CPU: unknown, as PENDING
	rm "$(irq_dir 24)"/effective_affinity*
	run --separate-stderr -0 irqaff show -n -o IRQ,STUCK 24
	assert_output "24 -"
}

# CPU 0 runs three busy IRQs, CPU 1 one; CPU 2 runs three idle ones,
# CPU 3 two: with --vectors 3, CPU 2 has none free, CPU 3 one
balance_tree() {
	make_root --cpus 4 --irq 24=a --affinity 0 --irq 25=b --affinity 0 \
		--irq 26=c --affinity 0 --irq 27=d --affinity 1 \
		--irq 28=e --affinity 2 --irq 29=f --affinity 2 \
		--irq 30=g --affinity 2 --irq 31=h --affinity 3 "$@"
}

@test "balance skips a CPU with no free vector that would be the best target, and uses one with exactly enough" {
	load ../test_helper/balance
	balance_tree --irq 32=i --affinity 3 --vectors 3
	measure "24 1 4000 25 1 3000 26 1 2000 27 2 1000" -q 24-27
	assert_equal "$rc" 0
	assert_equal "$(<"$err")" ""
	assert_equal "$(sed -n 1,3p "$out")" "IRQ   RATE OLD NEW NAME
 24 4000.0   0   3 a
 26 2000.0   0   1 c"
	run lists 24 25 26 27
	assert_output $'3\n0\n1\n1'
	# a vector more on each CPU: CPU 2 has one, and takes the busiest
	balance_tree --dir "$BATS_TEST_TMPDIR/r2" --irq 32=i --affinity 3 \
		--vectors 4
	measure "24 1 4000 25 1 3000 26 1 2000 27 2 1000" -q 24-27
	assert_equal "$rc" 0
	run lists 24 25 26 27
	assert_output $'2\n0\n3\n1'
}

@test "balance fills CPUs with exactly the vectors its moves need" {
	load ../test_helper/balance
	# the four must leave CPUs 0-1 for 2-3, which have 1 and 3 free
	balance_tree --vectors 4
	measure "24 1 4000 25 1 3000 26 1 2000 27 2 1000" -q -c 2-3 24-27
	assert_equal "$rc" 0
	assert_equal "$(<"$err")" ""
	run lists 24 25 26 27
	assert_output $'2\n3\n3\n3'
}

@test "balance refuses when no placement fits in the vectors, and writes nothing" {
	load ../test_helper/balance
	# the four must leave CPUs 0-1 for 2-3, which have 0 and 2 free
	balance_tree --vectors 3
	measure "24 1 4000 25 1 3000 26 1 2000 27 2 1000" -q -c 2-3 24-27
	assert_equal "$rc" 1
	assert_equal "$(<"$err")" "irqaff: $(why 2 2 0 'irq debugfs'): nothing written; $OUT
irqaff: balance: nothing written"
	run lists 24 25 26 27
	assert_output $'0\n0\n0\n1'
	measure "24 1 4000 25 1 3000 26 1 2000 27 2 1000" -q -n -c 2-3 24-27
	assert_equal "$rc" 1
	assert_equal "$(<"$err")" "irqaff: $(why 2 2 0 'irq debugfs'): nothing written; $OUT
irqaff: balance: nothing written"
	measure "24 1 4000 25 1 3000 26 1 2000 27 2 1000" -q -J -c 2-3 24-27
	assert_equal "$rc" 1
	run jq -c .vectors "$out"
	assert_output '{"cpus":"2","irqs":2,"free":0,"exact":true}'
	run lists 24 25 26 27
	assert_output $'0\n0\n0\n1'
}

@test "proc/interrupts read a page at a time, as the kernel's seq_file gives it, still ends in the LOC row" {
	# a booted guest's 330 rows came to 35 kB; a read(2) stops at 4 kB
	make_root --cpus 2 --nvme nvme0:199
	[ "$(stat -c %s "$ROOT/proc/interrupts")" -gt 8192 ]
	before=$(tree_sum)
	IRQAFF_KERNEL=1 run --separate-stderr -1 faulty '' irqaff set all 0
	assert_equal "$stderr" "irqaff: $(why 0 100 99 estimated): nothing written; $OUT"
	assert_equal "$(tree_sum)" "$before"
	IRQAFF_KERNEL=1 run --separate-stderr -1 faulty '' irqaff set -n all 0
	assert_equal "$stderr" "irqaff: $(why 0 100 99 estimated): nothing written; $OUT"
}

@test "the VECTOR domain read a page at a time is read to its last CPU" {
	# 128 CPUs' rows: CPU 127's is past the first page
	make_root --cpus 128 --nvme nvme0:9 --vectors 9
	[ "$(stat -c %s "$ROOT/sys/kernel/debug/irq/domains/VECTOR")" -gt 4096 ]
	before=$(tree_sum)
	IRQAFF_KERNEL=1 run --separate-stderr -1 faulty '' irqaff set all 127
	assert_equal "$stderr" "irqaff: $(why 127 10 9 'irq debugfs'): nothing written; $OUT"
	assert_equal "$(tree_sum)" "$before"
}

@test "an IRQ without a handler holds no vector: the estimate counts none for it" {
	# 100 IRQs on CPU 0, 99 on CPU 1: they fit on CPU 0 alone (199);
	# ten IO-APIC pins without a handler read as on CPU 0 too
	args=()
	for irq in 3 5 6 7 10 11 13 14 15 16; do
		args+=(--irq "$irq=" --effective 0)
	done
	make_root --cpus 2 --nvme nvme0:198 "${args[@]}"
	run --separate-stderr -0 irqaff set all 0
	assert_equal "$stderr" ""
	assert_file "$(list_of 25)" $'0\n'
	# one IRQ more with a handler does not fit
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 2 --nvme nvme0:199 "${args[@]}"
	before=$(tree_sum)
	run --separate-stderr -1 irqaff set all 0
	assert_equal "$stderr" "irqaff: $(why 0 100 99 estimated): nothing written; $OUT"
	assert_equal "$(tree_sum)" "$before"
}

@test "isolate gives an IRQ whose own CPUs have no vector free the freest CPU left, and refuses only when none has one" {
	# CPU 0 runs 25 and 26, all it has; 24 (0-1, on 1) keeps 0 alone
	make_root --cpus 3 --irq 24=a --affinity 0-1 --effective 1 \
		--irq 25=b --affinity 0 --irq 26=c --affinity 0 \
		--irq 27=d --affinity 2 --vectors 2
	run --separate-stderr -0 irqaff isolate -n 1
	assert_output $'default: 0-2 -> 0,2\nirq 24: 0-1 -> 2'
	assert_equal "$stderr" 'irqaff: note: 1 IRQ placed on other CPUs than planned: those had no free interrupt vector'
	run --separate-stderr -0 irqaff isolate -q 1
	assert_file "$(list_of 24)" $'2\n'
	# the other side: CPU 2 has no vector free either
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 3 --irq 24=a \
		--affinity 0-1 --effective 1 --irq 25=b --affinity 0 \
		--irq 26=c --affinity 0 --irq 27=d --affinity 2 \
		--irq 28=e --affinity 2 --vectors 2
	before=$(tree_sum)
	run --separate-stderr -1 irqaff isolate 1
	assert_equal "$stderr" "irqaff: CPU 0: 1 IRQ needs an interrupt vector there, 0 free (irq debugfs): nothing written; $OUT"
	assert_equal "$(tree_sum)" "$before"
	run --separate-stderr -1 irqaff isolate -n -J 1
	assert_output --partial '"vectors":{"cpus":"0","irqs":1,"free":0,"exact":true}'
}

@test "isolate gives an IRQ out of vectors the freest CPU of its node, else of any" {
	# node 1 is CPUs 3-5: 24's new CPU 4 is full, 3 has one vector free,
	# node 0's CPUs two each
	make_root --cpus 6 --nodes 2 --irq 24=a --affinity 4-5 --effective 5 \
		--irq-node 1 --irq 25=b --affinity 4 --irq 26=c --affinity 4 \
		--irq 27=d --affinity 3 --vectors 2
	run --separate-stderr -0 irqaff isolate -n 5
	assert_output $'default: 0-5 -> 0-4\nirq 24: 4-5 -> 3'
	assert_equal "$stderr" 'irqaff: note: 1 IRQ placed on other CPUs than planned: those had no free interrupt vector'
	# the other side: CPU 3 full too, node 0's freest
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 6 --nodes 2 --irq 24=a \
		--affinity 4-5 --effective 5 --irq-node 1 --irq 25=b \
		--affinity 4 --irq 26=c --affinity 4 --irq 27=d --affinity 3 \
		--irq 28=e --affinity 3 --vectors 2
	run --separate-stderr -0 irqaff isolate -n 5
	assert_output $'default: 0-5 -> 0-4\nirq 24: 4-5 -> 0'
}

@test "isolate places a device's IRQs within the vectors: a pair apart when its CPU has one vector free, together with two" {
	# virtio_net's layout: a queue pair a CPU, 31-32 on CPU 3; CPU 0
	# also runs the config IRQ 24
	make_root --cpus 4 --virtio-nic eth1:4 --virtnet-affinity --vectors 5
	run --separate-stderr -0 irqaff isolate -n 3
	assert_output 'default: 0-3 -> 0-2
irq 24: 0-3 -> 0-2
irq 31: 3 -> 0
irq 32: 3 -> 0'
	assert_equal "$stderr" 'irqaff: note: eth1: the XPS of 1 tx queue names CPU 3, left as it is: it says where tasks there send, and interrupts no CPU (irqaff xps changes it)'
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 4 --virtio-nic eth1:4 \
		--virtnet-affinity --vectors 4
	run --separate-stderr -0 irqaff isolate -n 3
	assert_output 'default: 0-3 -> 0-2
irq 24: 0-3 -> 0-2
irq 31: 3 -> 0
irq 32: 3 -> 1'
	assert_equal "$stderr" 'irqaff: note: 1 IRQ placed on other CPUs than planned: those had no free interrupt vector
irqaff: note: eth1: the XPS of 1 tx queue names CPU 3, left as it is: it says where tasks there send, and interrupts no CPU (irqaff xps changes it)'
	run --separate-stderr -0 irqaff isolate -q 3
	assert_equal "$(lists 31 32)" $'0\n1'
}
