#!/usr/bin/env bats
# Rates: show -i reads the IRQs again after the interval and prints RATE,
# the difference of TOTAL over the time measured; -c repeats the sample.
# The first read is a copy of the tree's proc/interrupts saved before the
# counts change (snapshot_interrupts), the second the tree's own, both given
# with --sample-from: nothing sleeps, and -i makes each rate exact.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
}

# rates ARGS...: irqaff show ARGS, its first read $BATS_TEST_TMPDIR/before,
# its second the tree's proc/interrupts.
rates() {
	irqaff show --sample-from "$BATS_TEST_TMPDIR/before" \
		--sample-from "$ROOT/proc/interrupts" "$@"
}

@test "show -i: a count added during the interval is the IRQ's RATE" {
	local opt
	for opt in --debugfs --no-sysirq; do
		make_root --dir "$BATS_TEST_TMPDIR/r$opt" --cpus 4 --irq 24=a \
			--affinity 1 --irq 25=b --affinity 2 "$opt"
		snapshot_interrupts "$BATS_TEST_TMPDIR/before"
		add_count 24 2 500
		run --separate-stderr -0 rates -i 1
		assert_output 'IRQ AFFINITY EFFECTIVE NODE   TOTAL  RATE NAME
 24 1        1            0 1000506 500.0 a
 25 2        2            0 1040006   0.0 b'
		assert_equal "$stderr" ''
	done
}

@test "show -i with a selector reads only those IRQs, and -o chooses RATE" {
	make_root --cpus 4 --irq 24=a --affinity 1 --irq 25=b --affinity 2
	snapshot_interrupts "$BATS_TEST_TMPDIR/before"
	add_count 25 3 2000 24 1 70
	run --separate-stderr -0 rates -n -o irq,rate -i 1 25
	assert_output '25 2000.0'
}

@test "show -i -c: a block per sample headed by its time; JSON per sample" {
	make_root --cpus 2 --irq 24=a --affinity 1
	run --separate-stderr -0 irqaff show -i 0.1 -c 2 -o irq,rate
	assert_equal "${#lines[@]}" 6
	assert_line --index 0 --regexp '^20[0-9]{2}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$'
	assert_line --index 1 'IRQ RATE'
	assert_line --index 2 ' 24  0.0'
	assert_line --index 3 --regexp '^20[0-9]{2}-'
	# JSON Lines: one object a sample, each on one line
	run --separate-stderr -0 irqaff show -J -i 0.1 -c 2 -o irq,rate,total
	assert_equal "${#lines[@]}" 2
	assert_line --index 0 --regexp '^\{"time":"20[0-9-]{8}T[0-9:]{8}Z","interval":[0-9]+\.[0-9]{3},"interrupts":\[\{"irq":24,"rate":0\.0,"total":500001\}\]\}$'
	assert_line --index 1 --regexp '^\{"time":"20[0-9-]{8}T[0-9:]{8}Z","interval":[0-9]+\.[0-9]{3},"interrupts":\[\{"irq":24,"rate":0\.0,"total":500001\}\]\}$'
	run --separate-stderr -0 irqaff show -o +rate -i 0.1 -n
	assert_output '24 1 1 0 500001 a 0.0'
}

@test "show: -c and RATE need -i; a bad interval is status 2" {
	make_root --cpus 2 --irq 24=a
	run --separate-stderr -2 irqaff show -c 2
	assert_equal "${stderr%%$'\n'*}" 'irqaff: show: --count needs -i or --sample-from'
	run --separate-stderr -2 irqaff show -o irq,rate
	assert_equal "${stderr%%$'\n'*}" 'irqaff: show: RATE needs -i'
	run --separate-stderr -2 irqaff show -i 0
	assert_equal "${stderr%%$'\n'*}" 'irqaff: show: interval "0" is not a decimal number of seconds from 0.001 to 86400'
	run --separate-stderr -2 irqaff show -i 1 -c x
	assert_equal "${stderr%%$'\n'*}" 'irqaff: show: count "x" is invalid'
}

@test "show -i 2: a rate is the count over the interval, not the count" {
	make_root --cpus 4 --irq 24=a --affinity 1
	snapshot_interrupts "$BATS_TEST_TMPDIR/before"
	add_count 24 2 1000
	run --separate-stderr -0 rates -n -o irq,rate -i 2
	assert_output '24 500.0'
	run --separate-stderr -0 rates -n -o irq,rate -i 0.3
	assert_output '24 3333.3'
}

@test "show -i: each CPU's count is taken modulo 2^32, so one that wrapped still counts" {
	make_root --cpus 4 --irq 24=a --affinity 1
	add_count 24 2 =4294967290
	snapshot_interrupts "$BATS_TEST_TMPDIR/before"
	# CPU 1's count wraps (1000 more: 994); CPU 2 counts 1000 more
	add_count 24 2 1000 24 3 1000
	run --separate-stderr -0 rates -n -o irq,rate -i 2
	assert_output '24 1000.0'
}

@test "show -i: a count that went down on one CPU leaves the IRQ no rate, however the others grew" {
	make_root --cpus 4 --irq 24=a --affinity 1 --irq 25=b --affinity 2
	add_count 24 2 =5000
	snapshot_interrupts "$BATS_TEST_TMPDIR/before"
	# the IRQ was freed and set up again: its counts restarted, and
	# another CPU has since counted more than CPU 1 lost
	add_count 24 2 =10 24 3 99900
	run --separate-stderr -0 rates -n -o irq,rate -i 1
	assert_output $'24   -\n25 0.0'
	run --separate-stderr -0 rates -J -o irq,rate -i 1 24
	run jq -c '.interrupts' <<<"$output"
	assert_output '[{"irq":24,"rate":null}]'
}

@test "show -i: an IRQ freed or requested during the interval has no rate" {
	make_root --cpus 4 --irq 24=a --affinity 1 --irq 25=b --affinity 2
	snapshot_interrupts "$BATS_TEST_TMPDIR/before"
	# 25 freed, and 26 requested with 24's counts
	sed -i -e '/^ 25:/d' -e 's/^ 24:\(.*\) a$/ 24:\1 a\n 26:\1 c/' \
		"$ROOT/proc/interrupts"
	run --separate-stderr -0 rates -n -o irq,rate -i 1
	assert_output $'24 0.0\n26   -'
}

@test "show -i: a CPU that came online during the interval adds nothing to a rate" {
	make_root --cpus 4 --offline 3 --irq 24=a --affinity 1
	make_root --dir "$BATS_TEST_TMPDIR/online" --cpus 4 --irq 24=a \
		--affinity 1
	export ROOT=$BATS_TEST_TMPDIR/root IRQAFF_ROOT=$BATS_TEST_TMPDIR/root
	ROOT=$BATS_TEST_TMPDIR/online add_count 24 1 500
	snapshot_interrupts "$BATS_TEST_TMPDIR/before"
	cat "$BATS_TEST_TMPDIR/online/proc/interrupts" >"$ROOT/proc/interrupts"
	# CPU 3's 250006 since boot are not this interval's; CPU 0's 500 are
	run --separate-stderr -0 rates -n -o irq,total,rate -i 1
	assert_output '24 1000506 500.0'
}

@test "show -s rate -i puts the busiest IRQ first" {
	make_root --cpus 4 --irq 24=a --affinity 1 --irq 25=b --affinity 2 \
		--irq 26=c --affinity 3
	snapshot_interrupts "$BATS_TEST_TMPDIR/before"
	add_count 26 1 300 25 2 3000
	run --separate-stderr -0 rates -n -o irq,rate -s rate -i 1
	assert_output '25 3000.0
26  300.0
24    0.0'
}
