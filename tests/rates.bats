#!/usr/bin/env bats
# Rates: show -i reads the IRQs again after the interval and prints RATE,
# the difference of TOTAL over the time measured; -c repeats the sample.
# The tree's proc/interrupts is rewritten during the interval.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper/common-setup
	_common_setup
}

@test "show -i: a count added during the interval is the IRQ's RATE" {
	local opt
	for opt in --debugfs --no-sysirq; do
		make_root --dir "$BATS_TEST_TMPDIR/r$opt" --cpus 4 --irq 24=a \
			--affinity 1 --irq 25=b --affinity 2 "$opt"
		irqaff show -n >"$BATS_TEST_TMPDIR/before"
		irqaff show -i 1 >"$BATS_TEST_TMPDIR/out" &
		sleep 0.5
		add_count 24 2 500
		wait $!
		run cat "$BATS_TEST_TMPDIR/out"
		assert_line --index 0 'IRQ AFFINITY EFFECTIVE NODE   TOTAL  RATE NAME'
		[[ ${lines[1]} =~ ^\ 24\ 1\ +1\ +0\ 1000506\ +([0-9.]+)\ a$ ]]
		within_5 "${BASH_REMATCH[1]}" 500
		assert_line --index 2 ' 25 2        2            0 1040006   0.0 b'
	done
}

@test "show -i with a selector reads only those IRQs, and -o chooses RATE" {
	make_root --cpus 4 --irq 24=a --affinity 1 --irq 25=b --affinity 2
	irqaff show -n -o irq,rate -i 1 25 >"$BATS_TEST_TMPDIR/out" &
	sleep 0.5
	add_count 25 3 2000
	wait $!
	run cat "$BATS_TEST_TMPDIR/out"
	assert_equal "${#lines[@]}" 1
	[[ ${lines[0]} =~ ^25\ ([0-9.]+)$ ]]
	within_5 "${BASH_REMATCH[1]}" 2000
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
	assert_line --index 0 --regexp '^\{"time":"20[0-9-]{8}T[0-9:]{8}Z","interval":0\.[0-9]{3},"interrupts":\[\{"irq":24,"rate":0\.0,"total":500001\}\]\}$'
	assert_line --index 1 --regexp '^\{"time":"20[0-9-]{8}T[0-9:]{8}Z","interval":0\.[0-9]{3},"interrupts":\[\{"irq":24,"rate":0\.0,"total":500001\}\]\}$'
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
	irqaff show -n -o irq,rate -i 2 >"$BATS_TEST_TMPDIR/out" &
	sleep 0.5
	add_count 24 2 1000
	wait $!
	run cat "$BATS_TEST_TMPDIR/out"
	[[ $output =~ ^24\ ([0-9.]+)$ ]]
	within_5 "${BASH_REMATCH[1]}" 500
}

@test "show -i: each CPU's count is taken modulo 2^32, so one that wrapped still counts" {
	make_root --cpus 4 --irq 24=a --affinity 1
	add_count 24 2 =4294967290
	irqaff show -n -o irq,rate -i 2 >"$BATS_TEST_TMPDIR/out" &
	sleep 0.5
	# CPU 1's count wraps (1000 more: 994); CPU 2 counts 1000 more
	add_count 24 2 1000 24 3 1000
	wait $!
	run cat "$BATS_TEST_TMPDIR/out"
	[[ $output =~ ^24\ ([0-9.]+)$ ]]
	within_5 "${BASH_REMATCH[1]}" 1000
}

@test "show -i: a count that went down on one CPU leaves the IRQ no rate, however the others grew" {
	make_root --cpus 4 --irq 24=a --affinity 1 --irq 25=b --affinity 2
	add_count 24 2 =5000
	irqaff show -n -o irq,rate -i 1 >"$BATS_TEST_TMPDIR/out" &
	irqaff show -J -o irq,rate -i 1 24 >"$BATS_TEST_TMPDIR/json" &
	sleep 0.5
	# the IRQ was freed and set up again: its counts restarted, and
	# another CPU has since counted more than CPU 1 lost
	add_count 24 2 =10 24 3 99900
	wait
	run cat "$BATS_TEST_TMPDIR/out"
	assert_output $'24   -\n25 0.0'
	run jq -c '.interrupts' "$BATS_TEST_TMPDIR/json"
	assert_output '[{"irq":24,"rate":null}]'
}

@test "show -i: an IRQ freed or requested during the interval has no rate" {
	make_root --cpus 4 --irq 24=a --affinity 1 --irq 25=b --affinity 2
	irqaff show -n -o irq,rate -i 1 >"$BATS_TEST_TMPDIR/out" &
	sleep 0.5
	# 25 freed, and 26 requested with 24's counts
	sed -i -e '/^ 25:/d' -e 's/^ 24:\(.*\) a$/ 24:\1 a\n 26:\1 c/' \
		"$ROOT/proc/interrupts"
	wait $!
	run cat "$BATS_TEST_TMPDIR/out"
	assert_output $'24 0.0\n26   -'
}

@test "show -i: a CPU that came online during the interval adds nothing to a rate" {
	make_root --cpus 4 --offline 3 --irq 24=a --affinity 1
	make_root --dir "$BATS_TEST_TMPDIR/online" --cpus 4 --irq 24=a \
		--affinity 1
	export ROOT=$BATS_TEST_TMPDIR/root IRQAFF_ROOT=$BATS_TEST_TMPDIR/root
	ROOT=$BATS_TEST_TMPDIR/online add_count 24 1 500
	irqaff show -n -o irq,total,rate -i 1 >"$BATS_TEST_TMPDIR/out" &
	sleep 0.5
	cat "$BATS_TEST_TMPDIR/online/proc/interrupts" >"$ROOT/proc/interrupts"
	wait $!
	run cat "$BATS_TEST_TMPDIR/out"
	# CPU 3's 250006 since boot are not this interval's; CPU 0's 500 are
	[[ $output =~ ^24\ 1000506\ ([0-9.]+)$ ]]
	within_5 "${BASH_REMATCH[1]}" 500
}

@test "show -s rate -i puts the busiest IRQ first" {
	make_root --cpus 4 --irq 24=a --affinity 1 --irq 25=b --affinity 2 \
		--irq 26=c --affinity 3
	irqaff show -n -o irq,rate -s rate -i 1 >"$BATS_TEST_TMPDIR/out" &
	sleep 0.5
	add_count 26 1 300 25 2 3000
	wait $!
	run cat "$BATS_TEST_TMPDIR/out"
	assert_equal "${#lines[@]}" 3
	[[ ${lines[0]} =~ ^25\ +[0-9.]+$ && ${lines[1]} =~ ^26\ +[0-9.]+$ ]]
	assert_equal "${lines[2]}" '24    0.0'
}
