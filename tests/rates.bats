#!/usr/bin/env bats
# Rates: show -i reads the IRQs again after the interval and prints RATE,
# the difference of TOTAL over the time measured; -c repeats the sample.
# The tree's proc/interrupts is rewritten during the interval.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper/common-setup
	_common_setup
}

# within_5 RATE WANT: RATE is within 5 % of WANT.
within_5() {
	awk -v r="$1" -v w="$2" 'BEGIN { exit !(r >= w * 0.95 && r <= w * 1.05) }'
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
	assert_equal "${stderr%%$'\n'*}" 'irqaff: show: -c needs -i'
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
