#!/usr/bin/env bats
# --sample-from: show, cpus and balance read saved copies of
# /proc/interrupts, one a read, instead of sleeping between reads of the
# kernel's; the interval is -i, or the difference of the copies'
# modification times. And the boundaries of a rate: a count that moved by
# 2^31 or more went down (counts_diff()), and a CPU the first read's row
# had no count for adds nothing (counts_delta()).

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	make_root --cpus 4 --irq 24=a --affinity 1 --irq 25=b --affinity 2
	A=$BATS_TEST_TMPDIR/a B=$BATS_TEST_TMPDIR/b C=$BATS_TEST_TMPDIR/c
}

# at FILE SECONDS: FILE's modification time, seconds since the epoch (a
# fraction allowed).
at() {
	touch -d "@$2" "$1"
}

@test "two saved copies and -i give exact rates, for show, cpus and balance" {
	snapshot_interrupts "$A"
	add_count 24 2 1500 25 3 300
	snapshot_interrupts "$B"
	# the tree's own counts are not read
	add_count 24 2 999999
	run --separate-stderr -0 irqaff show -n -o irq,rate -i 3 \
		--sample-from "$A" --sample-from "$B"
	assert_output $'24 500.0\n25 100.0'
	assert_equal "$stderr" ''
	run --separate-stderr -0 irqaff cpus -n -o cpu,rate,top -i 3 \
		--sample-from "$A" --sample-from "$B"
	assert_output '0   0.0 -
1 500.0 a(24)
2 100.0 b(25)
3   0.0 -'
	run --separate-stderr -0 irqaff balance -n -J -i 3 \
		--sample-from "$A" --sample-from "$B"
	# numbers |= . + 0: jq 1.7 (Debian 13) prints a number's literal, 3.000,
	# unless arithmetic touches it; jq 1.6 prints 3 either way
	run jq -c '[.interval, [.plan[] | [.irq, .count, .rate]]] | walk(numbers |= . + 0)' <<<"$output"
	assert_output '[3,[[24,1500,500],[25,300,100]]]'
}

@test "without -i the interval is the difference of the files' modification times, to the nanosecond" {
	snapshot_interrupts "$A"
	add_count 24 2 1000
	snapshot_interrupts "$B"
	at "$A" 1700000000
	at "$B" 1700000004
	run --separate-stderr -0 irqaff show -n -o irq,rate \
		--sample-from "$A" --sample-from "$B"
	assert_output $'24 250.0\n25   0.0'
	# 0.4 s: 1000 interrupts are 2500 a second
	at "$B" 1700000000.4
	run --separate-stderr -0 irqaff show -J -o irq,rate 24 \
		--sample-from "$A" --sample-from "$B"
	assert_output '{"time":"2023-11-14T22:13:20Z","interval":0.400,"interrupts":[{"irq":24,"rate":2500.0}]}'
	run --separate-stderr -0 irqaff cpus -n -o cpu,rate 1 \
		--sample-from "$A" --sample-from "$B"
	assert_output '1 2500.0'
	run --separate-stderr -0 irqaff balance -n -J \
		--sample-from "$A" --sample-from "$B"
	run jq -c '[.interval, .plan[0].rate] | walk(numbers |= . + 0)' <<<"$output"
	assert_output '[0.4,2500]'
	# one nanosecond is an interval
	at "$A" 1700000000.000000001
	at "$B" 1700000000.000000002
	run --separate-stderr -0 irqaff show -J -o irq,rate 25 \
		--sample-from "$A" --sample-from "$B"
	assert_output '{"time":"2023-11-14T22:13:20Z","interval":0.000,"interrupts":[{"irq":25,"rate":0.0}]}'
}

@test "a file no newer than the one before is refused without -i, and taken with it" {
	snapshot_interrupts "$A"
	add_count 24 2 1000
	snapshot_interrupts "$B"
	at "$A" 1700000000
	at "$B" 1700000000
	local cmd
	for cmd in show cpus balance; do
		run --separate-stderr -2 irqaff "$cmd" \
			--sample-from "$A" --sample-from "$B"
		assert_equal "${stderr%%$'\n'*}" "irqaff: $cmd: --sample-from \"$B\" is not newer than \"$A\": give the interval with -i"
		assert_output ''
	done
	# older: the same
	at "$B" 1699999999.999999999
	run --separate-stderr -2 irqaff show --sample-from "$A" --sample-from "$B"
	assert_equal "${stderr%%$'\n'*}" "irqaff: show: --sample-from \"$B\" is not newer than \"$A\": give the interval with -i"
	run --separate-stderr -0 irqaff show -n -o irq,rate -i 2 \
		--sample-from "$A" --sample-from "$B"
	assert_output $'24 500.0\n25   0.0'
}

@test "--count N takes exactly N + 1 files, and without --count 2; others refused before anything is read" {
	local f
	snapshot_interrupts "$A"
	snapshot_interrupts "$B"
	snapshot_interrupts "$C"
	local -a none=()
	for f in 1 2 3 4; do
		none+=(--sample-from "$BATS_TEST_TMPDIR/none$f")
	done
	# files that do not exist: the count is refused before any is opened
	run --separate-stderr -2 irqaff show -i 1 "${none[@]:0:2}"
	assert_equal "${stderr%%$'\n'*}" 'irqaff: show: --sample-from needs 2 files, one for each read; 1 given'
	assert_output ''
	run --separate-stderr -2 irqaff cpus -i 1 "${none[@]:0:6}"
	assert_equal "${stderr%%$'\n'*}" 'irqaff: cpus: --sample-from needs 2 files, one for each read; 3 given'
	run --separate-stderr -2 irqaff balance -i 1 "${none[@]:0:6}"
	assert_equal "${stderr%%$'\n'*}" 'irqaff: balance: --sample-from needs 2 files, one for each read; 3 given'
	run --separate-stderr -2 irqaff show -i 1 --count 2 "${none[@]:0:4}"
	assert_equal "${stderr%%$'\n'*}" 'irqaff: show: --count 2 needs 3 files from --sample-from, 2 given'
	run --separate-stderr -2 irqaff cpus -i 1 --count 2 "${none[@]}"
	assert_equal "${stderr%%$'\n'*}" 'irqaff: cpus: --count 2 needs 3 files from --sample-from, 4 given'
	assert_output ''
	# N + 1 is taken: 2, and 3 with --count 2
	run --separate-stderr -0 irqaff show -n -o irq -i 1 \
		--sample-from "$A" --sample-from "$B"
	assert_output $'24\n25'
	run --separate-stderr -0 irqaff cpus -n -o cpu -i 1 --count 2 0 \
		--sample-from "$A" --sample-from "$B" --sample-from "$C"
	assert_output $'0\n0'
	# --count without -i is taken with the files
	run --separate-stderr -0 irqaff show -n -o irq --count 2 24 \
		--sample-from "$A" --sample-from "$B" --sample-from "$C" -i 1
	assert_output $'24\n24'
}

@test "--count 2 and three files: two tables, each headed by its file's time" {
	snapshot_interrupts "$A"
	add_count 24 2 100
	snapshot_interrupts "$B"
	add_count 24 2 600
	snapshot_interrupts "$C"
	at "$A" 1700000000
	at "$B" 1700000001
	at "$C" 1700000003
	TZ=UTC run --separate-stderr -0 irqaff show -o irq,rate --count 2 \
		--sample-from "$A" --sample-from "$B" --sample-from "$C"
	assert_output '2023-11-14 22:13:21
IRQ  RATE
 24 100.0
 25   0.0

2023-11-14 22:13:23
IRQ  RATE
 24 300.0
 25   0.0'
	run --separate-stderr -0 irqaff cpus -J -o cpu,rate --count 2 1 \
		--sample-from "$A" --sample-from "$B" --sample-from "$C"
	assert_output '{"time":"2023-11-14T22:13:21Z","interval":1.000,"cpus":[{"cpu":1,"rate":100.0}]}
{"time":"2023-11-14T22:13:23Z","interval":2.000,"cpus":[{"cpu":1,"rate":300.0}]}'
}

@test "a missing file, or one that is no interrupts file, fails as /proc/interrupts would" {
	snapshot_interrupts "$A"
	local cmd
	for cmd in show cpus balance; do
		run --separate-stderr -1 irqaff "$cmd" -i 1 --sample-from "$A" \
			--sample-from "$BATS_TEST_TMPDIR/none"
		assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/none: No such file or directory"
		assert_output ''
	done
	printf 'junk\n' >"$B"
	for cmd in show cpus balance; do
		run --separate-stderr -1 irqaff "$cmd" -i 1 --sample-from "$A" \
			--sample-from "$B"
		assert_equal "$stderr" "irqaff: $B: no CPU header naming possible CPUs"
		assert_output ''
	done
	# an empty file and a directory
	: >"$B"
	run --separate-stderr -1 irqaff show -i 1 --sample-from "$B" \
		--sample-from "$A"
	assert_equal "$stderr" "irqaff: $B: no CPU header naming possible CPUs"
	run --separate-stderr -1 irqaff show -i 1 --sample-from "$A" \
		--sample-from "$BATS_TEST_TMPDIR"
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR: Is a directory"
	# the file is the user's, not the tree's
	cd "$BATS_TEST_TMPDIR"
	run --separate-stderr -1 irqaff show -i 1 --sample-from "$A" \
		--sample-from proc/interrupts
	assert_equal "$stderr" 'irqaff: proc/interrupts: No such file or directory'
}

@test "a file name with control bytes is escaped in every message" {
	local bad=$BATS_TEST_TMPDIR/$'x\033]0;y\ty'
	snapshot_interrupts "$A"
	run --separate-stderr -1 irqaff show -i 1 --sample-from "$A" \
		--sample-from "$bad"
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/x\\033]0;y\\ty: No such file or directory"
	printf 'junk\n' >"$bad"
	run --separate-stderr -1 irqaff show -i 1 --sample-from "$A" \
		--sample-from "$bad"
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/x\\033]0;y\\ty: no CPU header naming possible CPUs"
	snapshot_interrupts "$bad"
	at "$A" 1700000000
	at "$bad" 1700000000
	run --separate-stderr -2 irqaff show --sample-from "$A" \
		--sample-from "$bad"
	assert_equal "${stderr%%$'\n'*}" "irqaff: show: --sample-from \"$BATS_TEST_TMPDIR/x\\033]0;y\\ty\" is not newer than \"$A\": give the interval with -i"
}

@test "--sample-from - is refused: standard input has no time and is read once" {
	run --separate-stderr -2 irqaff show -i 1 --sample-from - \
		--sample-from - </dev/null
	assert_equal "${stderr%%$'\n'*}" 'irqaff: show: --sample-from takes a file, not standard input'
}

@test "a count that moved by 2^31 - 1 is counted, by 2^31 is a reset: no rate" {
	add_count 24 2 =100
	snapshot_interrupts "$A"
	# 2^31 - 1 more on CPU 1
	add_count 24 2 2147483647
	snapshot_interrupts "$B"
	run --separate-stderr -0 irqaff show -n -o irq,rate -i 1 24 \
		--sample-from "$A" --sample-from "$B"
	assert_output '24 2147483647.0'
	run --separate-stderr -0 irqaff cpus -n -o cpu,rate,top -i 1 1 \
		--sample-from "$A" --sample-from "$B"
	assert_output '1 2147483647.0 a(24)'
	# 2^31 more: the count went down (the IRQ set up again), not 2^31
	# interrupts in a second
	add_count 24 2 1
	snapshot_interrupts "$B"
	run --separate-stderr -0 irqaff show -n -o irq,rate -i 1 24 \
		--sample-from "$A" --sample-from "$B"
	assert_output '24 -'
	run --separate-stderr -0 irqaff cpus -n -o cpu,rate,top -i 1 1 \
		--sample-from "$A" --sample-from "$B"
	assert_output '1 0.0 -'
	run --separate-stderr -0 irqaff balance -n -J -i 1 24 \
		--sample-from "$A" --sample-from "$B"
	run jq -c '[.plan[] | [.irq, .count, .rate]] | walk(numbers |= . + 0)' <<<"$output"
	assert_output '[[24,null,null]]'
}

@test "a row the first read had shorter counts only the CPUs it had" {
	snapshot_interrupts "$B"
	# the first read's row 24 has the counts of CPUs 0 and 1 only
	sed 's/^\( 24: *[0-9]* *[0-9]*\) *[0-9]* *[0-9]*/\1/' "$B" >"$A"
	assert_equal "$(grep '^ 24:' "$A")" ' 24:     250000     250001   IO-APIC  24-edge      a'
	# the second read: 100 more on CPU 1, the last the first row had
	add_count 24 2 100
	snapshot_interrupts "$B"
	run --separate-stderr -0 irqaff show -n -o irq,rate -i 1 24 \
		--sample-from "$A" --sample-from "$B"
	assert_output '24 100.0'
	run --separate-stderr -0 irqaff cpus -n -o cpu,rate,top -i 1 \
		--sample-from "$A" --sample-from "$B"
	assert_output '0   0.0 -
1 100.0 a(24)
2   0.0 -
3   0.0 -'
	# CPU 2, the first the row lacked, adds nothing however much it counts
	add_count 24 3 7000
	snapshot_interrupts "$B"
	run --separate-stderr -0 irqaff show -n -o irq,rate -i 1 24 \
		--sample-from "$A" --sample-from "$B"
	assert_output '24 100.0'
}

@test "an IRQ followed on a CPU its first row lacked has no count there: cpus' TOP, balance's plan" {
	# cpus -i and balance follow each IRQ on its effective CPU: 24's is 2
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 4 --irq 24=a --affinity 2 \
		--irq 25=b --affinity 1
	snapshot_interrupts "$B"
	sed 's/^\( 24: *[0-9]* *[0-9]*\) *[0-9]* *[0-9]*/\1/' "$B" >"$A"
	add_count 24 3 7000 25 2 100
	snapshot_interrupts "$B"
	run --separate-stderr -0 irqaff cpus -n -o cpu,rate,top -i 1 \
		--sample-from "$A" --sample-from "$B"
	assert_output '0   0.0 -
1 100.0 b(25)
2   0.0 -
3   0.0 -'
	run --separate-stderr -0 irqaff balance -n -J -i 1 \
		--sample-from "$A" --sample-from "$B"
	run jq -c '[.plan[] | [.irq, .count, .rate]] | walk(numbers |= . + 0)' <<<"$output"
	assert_output '[[24,null,null],[25,100,100]]'
}

@test "cpus -i and balance follow no IRQ gone from proc/irq, balance in silence, and say why of one whose CPUs do not read" {
	snapshot_interrupts "$A"
	add_count 24 2 1500 25 3 300
	snapshot_interrupts "$B"
	# its affinity files gone as if the IRQ went between the reads
	rm -- "$ROOT"/proc/irq/25/smp_affinity* "$ROOT"/proc/irq/25/effective_affinity*
	run --separate-stderr -0 irqaff cpus -n -o cpu,rate,top -i 3 \
		--sample-from "$A" --sample-from "$B"
	# CPU 2's rate is its column's; no IRQ followed there
	assert_output '0   0.0 -
1 500.0 a(24)
2 100.0 -
3   0.0 -'
	# said once, by cpus' own count of IRQs, not again by the cells
	assert_equal "$stderr" "irqaff: irq 25: $ROOT/proc/irq/25/smp_affinity: No such file or directory"
	run --separate-stderr -0 irqaff balance -n -J -i 3 \
		--sample-from "$A" --sample-from "$B"
	assert_equal "$stderr" ''
	run jq -c '[.plan[].irq]' <<<"$output"
	assert_output '[24]'
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 4 --irq 24=a --affinity 1 \
		--irq 25=b --affinity 2
	printf 'garbage\n' >"$ROOT/proc/irq/25/effective_affinity_list"
	run --separate-stderr -0 irqaff balance -n -J -i 3 \
		--sample-from "$A" --sample-from "$B"
	assert_equal "$stderr" "irqaff: irq 25: $ROOT/proc/irq/25/effective_affinity_list: region \"garbage\": \"garbage\" is not a number"
	# without effective_affinity nor smp_affinity_list, smp_affinity's
	# own failure
	make_root --dir "$BATS_TEST_TMPDIR/r3" --cpus 4 --no-effective \
		--irq 24=a --affinity 1 --irq 25=b --affinity 2
	rm -- "$ROOT"/proc/irq/25/smp_affinity*
	mkdir -- "$ROOT/proc/irq/25/smp_affinity"
	# a dry run that finds a failure exits 1
	run --separate-stderr -1 irqaff balance -n -J -i 3 \
		--sample-from "$A" --sample-from "$B"
	run jq -c '.failed[] | [.irq, .errno]' <<<"$output"
	assert_output '[25,"EISDIR"]'
	assert_equal "$stderr" "irqaff: irq 25: $ROOT/proc/irq/25/smp_affinity: Is a directory"
}

@test "a first read whose row ends in a blank count field counts only the CPUs before it: 15, 16 and 17 columns" {
	# At 16 columns the row is one block of 16 fields, read without
	# looking at the bytes one by one: nothing in the block itself says
	# that its last field holds no digit (fixed_counts() checks the byte
	# before the tail), and a blank field read as a count of 0 would make
	# the next read's count there a rate
	local n
	for n in 15 16 17; do
		make_root --dir "$BATS_TEST_TMPDIR/r$n" --cpus "$n" \
			--irq 24=a --affinity $((n - 1)) --irq 25=b --no-sysirq
		snapshot_interrupts "$B"
		awk -v n="$n" '$1 == "24:" {
			$0 = substr($0, 1, 4 + 11 * (n - 1)) "           " \
			    substr($0, 5 + 11 * n)
		} { print }' "$B" >"$A"
		add_count 24 $((n - 1)) 100 24 "$n" 7000
		snapshot_interrupts "$B"
		run --separate-stderr -0 irqaff show -n -o irq,rate -i 1 24 \
			--sample-from "$A" --sample-from "$B"
		assert_output '24 100.0'
		assert_equal "$stderr" ''
		run --separate-stderr -0 irqaff cpus -n -o cpu,rate,top -i 1 \
			--sample-from "$A" --sample-from "$B" $((n - 2))-$((n - 1))
		assert_output "$(printf '%d 100.0 -\n%d   0.0 -' $((n - 2)) $((n - 1)))"
	done
}

# issue 52's pin: the first read's counts are kept packed, each less its
# left neighbour in 7-bit groups: 64 apart is the first difference that
# takes two (zigzagged, 128), -64 the last that takes one (127)
@test "a first read whose neighbouring counts differ by 63, 64, 65, -64 or -65 gives the IRQ its rate in show, top and cpus -i" {
	local d
	for d in 63 64 65 -64 -65; do
		add_count 24 1 =1000 24 2 =$((1000 + d))
		snapshot_interrupts "$A"
		add_count 24 2 100
		snapshot_interrupts "$B"
		run --separate-stderr -0 irqaff show -n -o irq,rate -i 1 24 \
			--sample-from "$A" --sample-from "$B"
		assert_output '24 100.0'
		run --separate-stderr -0 irqaff cpus -n -o cpu,rate,top -i 1 \
			--sample-from "$A" --sample-from "$B"
		assert_output '0   0.0 -
1 100.0 a(24)
2   0.0 -
3   0.0 -'
		run --separate-stderr -0 irqaff top -i 1 \
			--sample-from "$A" --sample-from "$B"
		assert_equal "${lines[2]}" 'IRQS/s     0.0 100.0   0.0   0.0'
		assert_equal "${lines[5]}" " 24 100.0 $((502169 + d - 64)) 1        1         a"
	done
}
