#!/usr/bin/env bats
# balance: plans come from the counts the tree adds between two reads of
# proc/interrupts, taken from saved copies (--sample-from) -i 1 apart, so
# plans and rates are exact and nothing waits on the clock.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	load ../test_helper/balance
	load ../test_helper/queues
}

# plan_lines: the plan's lines without their RATE column.
plan_lines() {
	awk '/^$/ { exit } { $2 = ""; print }' "$out"
}

@test "balance puts the heaviest IRQs on the least-loaded CPUs, heaviest first" {
	make_root --cpus 4 --irq 24=a --affinity 0 --irq 25=b --affinity 0 \
		--irq 26=c --affinity 0 --irq 27=d --affinity 1
	measure "24 1 4000 25 1 3000 26 1 2000 27 2 1000"
	assert_equal "$rc" 0
	assert_equal "$(<"$err")" ''
	# off CPU 0 the move that lowers it most: a to the idle CPU 2, then
	# of b and c (equal gains) the lighter to CPU 3
	run plan_lines
	assert_output 'IRQ  OLD NEW NAME
24  0 2 a
26  0 3 c'
	run lists 24 25 26 27
	assert_output $'2\n0\n3\n1'
	# rates: the counts over the second
	run awk '$1 == 24 { print $2 }' "$out"
	assert_output '4000.0'
	run grep '^imbalance' "$out"
	assert_output 'imbalance: 3.60 -> 1.60 (the busiest of CPUs 0-3 over their mean)'
}

@test "a second run with the same counts writes nothing, nor does a small change" {
	make_root --cpus 4 --irq 24=a --affinity 0 --irq 25=b --affinity 0 \
		--irq 26=c --affinity 0 --irq 27=d --affinity 0 --irq 28=e \
		--affinity 0
	measure "24 1 5000 25 1 4000 26 1 3000 27 1 2000 28 1 1500"
	assert_equal "$rc" 0
	# three moves, where longest processing time afresh made four
	run lists 24 25 26 27 28
	assert_output $'1\n2\n3\n0\n0'
	settle_effective
	local sum
	sum=$(tree_sum "$ROOT/proc/irq")
	measure "24 2 5000 25 3 4000 26 4 3000 27 1 2000 28 1 1500"
	assert_equal "$rc" 0
	run cat "$out"
	assert_line --index 0 'no IRQ to move: the busiest CPU, 1, holds irq 24 (a) at 5000.0/s, above the mean of the CPUs alone; one IRQ cannot be split'
	assert_line 'imbalance: 1.29 -> 1.29 (the busiest of CPUs 0-3 over their mean)'
	assert_equal "$(tree_sum "$ROOT/proc/irq")" "$sum"
	# 28 onto CPU 3 would lower CPU 0 by 100, not a tenth of it
	measure "24 2 5000 25 3 4000 26 4 2000 27 1 2100 28 1 1500"
	assert_equal "$rc" 0
	assert_equal "$(head -n 1 "$out")" 'no IRQ to move: the busiest CPU, 1, holds irq 24 (a) at 5000.0/s, above the mean of the CPUs alone; one IRQ cannot be split'
	assert_equal "$(tree_sum "$ROOT/proc/irq")" "$sum"
}

@test "an IRQ moves only when that lowers the busier CPU by more than a tenth" {
	# CPU 0: 9000 + 1000, CPU 1: 7000; moving b ends CPU 0 at 9000: a
	# tenth lower, kept
	make_root --cpus 2 --irq 24=a --affinity 0 --irq 25=b --affinity 0 \
		--irq 26=c --affinity 1
	measure "24 1 9000 25 1 1000 26 2 7000"
	assert_equal "$rc" 0
	assert_equal "$(head -n 1 "$out")" 'no IRQ to move: already even (no move lowers the busiest CPU beyond the noise)'
	run lists 24 25 26
	assert_output $'0\n0\n1'
	# 8999 + 1001: moving b lowers it by 1001, more than a tenth: moved
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 2 --irq 24=a --affinity 0 \
		--irq 25=b --affinity 0 --irq 26=c --affinity 1
	measure "24 1 8999 25 1 1001 26 2 7000"
	assert_equal "$rc" 0
	run lists 24 25 26
	assert_output $'0\n1\n1'
}

@test "an IRQ moves only when the gain exceeds three standard deviations of the counts" {
	# 1000 + 124 beside 600: moving b ends CPU 0 at 1000, a gain of 124,
	# over a tenth; but 124^2 = 15376 < 9 x (1124 + 600) = 15516: kept
	make_root --cpus 2 --irq 24=a --affinity 0 --irq 25=b --affinity 0 \
		--irq 26=c --affinity 1
	measure "24 1 1000 25 1 124 26 2 600"
	run lists 24 25 26
	assert_output $'0\n0\n1'
	# 1000 + 125: 125^2 = 15625 > 9 x (1125 + 600) = 15525: moved
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 2 --irq 24=a --affinity 0 \
		--irq 25=b --affinity 0 --irq 26=c --affinity 1
	measure "24 1 1000 25 1 125 26 2 600"
	run lists 24 25 26
	assert_output $'0\n1\n1'
}

@test "no CPU stays idle beside one with two busy IRQs, though a tenth would keep them" {
	# 1000 + x on CPU 0, CPU 1 counted nothing: a tenth would keep x up
	# to 111, onto an idle CPU only the noise counts: 99^2 = 9801 <
	# 9 x 1099 = 9891, kept
	make_root --cpus 2 --irq 24=a --affinity 0 --irq 25=b --affinity 0
	measure "24 1 1000 25 1 99"
	run lists 24 25
	assert_output $'0\n0'
	# 100^2 = 10000 > 9 x 1100 = 9900: moved
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 2 --irq 24=a --affinity 0 \
		--irq 25=b --affinity 0
	measure "24 1 1000 25 1 100"
	run lists 24 25
	assert_output $'0\n1'
}

@test "balance -n prints the plan and leaves the tree byte for byte as it was" {
	make_root --cpus 4 --irq 24=a --affinity 0 --irq 25=b --affinity 0
	cp -a "$ROOT" "$BATS_TEST_TMPDIR/copy"
	measure "24 1 100 25 1 100" -n
	assert_equal "$rc" 0
	run plan_lines
	assert_output 'IRQ  OLD NEW NAME
24  0 1 a'
	# the counts the test added are the only difference
	run diff -r "$BATS_TEST_TMPDIR/copy" "$ROOT"
	assert_failure
	run diff -r -x interrupts -x per_cpu_count "$BATS_TEST_TMPDIR/copy" "$ROOT"
	assert_success
	run diff "$BATS_TEST_TMPDIR/copy/proc/interrupts" "$ROOT/proc/interrupts"
	assert_line --index 0 '2,3c2,3'
}

@test "each IRQ stays in its NUMA node, and falls back to every CPU when its node has none to use" {
	make_root --cpus 8 --nodes 2 --isolated 4-7 \
		--irq 24=a --irq-node 1 --affinity 0 --irq 25=b --irq-node 0 \
		--affinity 0 --irq 26=c --irq-node 0 --affinity 0
	# node 1 (CPUs 4-7) is all isolated: 24 may go anywhere in 0-3
	measure "24 1 3000 25 1 2000 26 1 1000"
	assert_equal "$rc" 0
	run lists 24 25 26
	assert_output $'1\n0\n2'
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 8 --nodes 2 \
		--irq 24=a --irq-node 1 --affinity 0 --irq 25=b --irq-node 1 \
		--affinity 0 --irq 26=c --irq-node 0 --affinity 4
	measure "24 1 3000 25 1 2000 26 5 1000"
	run lists 24 25 26
	assert_output $'4\n5\n0'
}

@test "isolated, nohz_full and offline CPUs get nothing; --cpus names the CPUs" {
	make_root --cpus 6 --isolated 1 --nohz-full 2 --offline 3 \
		--irq 24=a --affinity 0 --irq 25=b --affinity 0 \
		--irq 26=c --affinity 0
	measure "24 1 3000 25 1 2000 26 1 1000"
	assert_equal "$rc" 0
	run lists 24 25 26
	assert_output $'4\n0\n5'
	assert_equal "$(grep '^imbalance' "$out")" \
		'imbalance: 3.00 -> 1.50 (the busiest of CPUs 0,4-5 over their mean)'
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 6 --isolated 1 --offline 3 \
		--irq 24=a --affinity 0 --irq 25=b --affinity 0
	measure "24 1 3000 25 1 2000" --cpus 1-3
	assert_equal "$rc" 0
	assert_equal "$(<"$err")" 'irqaff: note: CPU 3 is offline'
	run lists 24 25
	assert_output $'1\n2'
}

@test "managed IRQs and IRQs outside the selection stay, and their load counts where they run" {
	make_root --cpus 3 --irq 24=a --affinity 1 --irq 25=b --affinity 2 \
		--irq 26=c --affinity 0 --irq 27=d --affinity 0 --managed 24
	# 24 (managed) loads CPU 1, 25 (not selected) CPU 2
	measure "24 2 5000 25 3 4000 26 1 3000 27 1 1000" 24,26-27
	assert_equal "$rc" 0
	assert_equal "$(<"$err")" 'irqaff: note: 1 kernel-managed IRQ left out of the plan'
	run lists 24 25 26 27
	assert_output $'1\n2\n0\n0'
	measure "24 2 5000 25 3 4000 26 1 3000 27 1 1000" -J 24,26-27
	run jq -c '[.managed, .changed, [.loads[] | [.cpu, .before.count, .after.count]]]' "$out"
	assert_output '[[{"irq":24,"name":"a"}],[],[[0,4000,4000],[1,5000,5000],[2,4000,4000]]]'
}

@test "a quiet IRQ's interrupts stay in its CPU's load, before and after" {
	# 26 is quiet (9 in the interval): not placed, its count kept on CPU 1
	make_root --cpus 2 --irq 24=a --affinity 0 --irq 25=b --affinity 0 \
		--irq 26=c --affinity 1
	measure "24 1 3000 25 1 1000 26 2 9" -n -J
	assert_equal "$rc" 0
	run jq -c '[[.plan[] | [.irq, .reason]], [.loads[] | [.cpu, .before.count, .after.count]]]' "$out"
	assert_output '[[[24,"keep"],[25,"move"],[26,"keep"]],[[0,4000,3000],[1,9,1009]]]'
}

@test "an IRQ asking for two CPUs is at home on the one it ran on, on none when it ran on both" {
	make_root --cpus 2 --irq 24=a --affinity 0-1 --effective 1
	measure "24 2 2000" -n -J
	run jq -c '[.changed, .plan[].reason]' "$out"
	assert_output '[[],"keep"]'
	# ran on both (an APIC in logical mode): no home, so placed on one
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 2 --irq 24=a \
		--affinity 0-1 --effective 0-1
	measure "24 1 1000 24 2 1000" -n -J
	run jq -c '[.changed, .plan[].reason]' "$out"
	assert_output '[[{"irq":24,"name":"a","old":"0-1","new":"0"}],"move"]'
}

@test "an IRQ 0 that is not selected is neither planned nor moved" {
	# the selection's end is its last entry, not the spare one after it
	# (IRQ 0, zeroed), which a loop to <= n would plan (mutant, balance.c)
	make_root --cpus 2 --irq 0=timer --affinity 0-1 --irq 24=a --affinity 0-1
	measure "24 1 10" -J 24
	assert_equal "$rc" 0
	run jq -c '[.plan[].irq]' "$out"
	assert_output '[24]'
	measure "24 1 10" 24
	run lists 0 24
	assert_output $'0-1\n0-1'
}

@test "ties go to the first threads of cores, then to lower CPUs; quiet IRQs keep what they request" {
	# 4 cores of 2 threads: CPU c and c + 4 share a core
	make_root --cpus 8 --threads 2 --irq 24=a --affinity 0 --irq 25=b \
		--affinity 0 --irq 26=c --affinity 0 --irq 27=d --affinity 0 \
		--irq 28=e --affinity 0 --irq 29=f --affinity 0-7 \
		--irq 30=g --affinity 0-7
	measure "24 1 1000 25 1 1000 26 1 1000 27 1 1000 28 1 1000"
	assert_equal "$rc" 0
	run lists 24 25 26 27 28 29 30
	assert_output $'1\n2\n3\n4\n0\n0-7\n0-7'
}

@test "quiet IRQs keep an allowed CPU, a busy one too: they add no load" {
	make_root --cpus 2 --irq 24=a --affinity 0 --irq 25=b --affinity 0 \
		--irq 26=c --affinity 0
	measure "24 1 1000"
	run lists 24 25 26
	assert_output $'0\n0\n0'
	assert_equal "$(head -n 1 "$out")" 'no IRQ to move: the busiest CPU, 0, holds irq 24 (a) at 1000.0/s, above the mean of the CPUs alone; one IRQ cannot be split'
}

@test "balance -J: the result of set and spread, with the plan, the loads and the imbalance" {
	make_root --cpus 2 --irq $'24=a"\033' --affinity 0 --irq 25=b --affinity 0
	measure "24 1 3000 25 1 1000" -J -n
	assert_equal "$rc" 0
	# .imbalance[] += 0: jq 1.7 would print the literal 2.000, jq 1.6 and
	# any arithmetic the number
	run jq -c 'del(.interval) | .imbalance[] += 0 | .plan[].rate |= (. > 0) | .loads[].before.rate |= (. >= 0) | .loads[].after.rate |= (. >= 0)' "$out"
	assert_output '{"dry_run":true,"changed":[{"irq":25,"name":"b","old":"0","new":"1"}],"unchanged":0,"failed":[],"managed":[],"unmovable":[],"cpus":"0-1","isolated":"","imbalance":{"before":2,"after":1.5},"no_move":null,"plan":[{"irq":24,"name":"a\"\u001b","count":3000,"rate":true,"old":"0","new":"0","reason":"keep"},{"irq":25,"name":"b","count":1000,"rate":true,"old":"0","new":"1","reason":"move"}],"loads":[{"cpu":0,"eligible":true,"before":{"count":4000,"rate":true},"after":{"count":3000,"rate":true}},{"cpu":1,"eligible":true,"before":{"count":0,"rate":true},"after":{"count":1000,"rate":true}}],"freed":[]}'
	run jq '.interval == 1' "$out"
	assert_output true
	run lists 24 25
	assert_output $'0\n0'
	# the names are escaped in the table
	measure "24 1 3000 25 1 3000" -n -v
	run plan_lines
	assert_output 'IRQ  OLD NEW NAME
24  0 1 a"\033
25  0 0 b'
}

@test "counts that wrap at 2^32 between the reads are counted, not lost" {
	make_root --cpus 2 --irq 24=a --affinity 0 --irq 25=b --affinity 0
	# 24's count on CPU 0 to 2^32 - 100, then 1000 more: it wraps
	add_count 24 1 $((4294967296 - 100 - 250000))
	measure "24 1 1000 25 1 600" -J -n
	run jq -c '[.plan[] | [.irq, .count, .new]]' "$out"
	assert_output '[[24,1000,"0"],[25,600,"1"]]'
}

@test "an IRQ whose row appears during the interval has no rate, and is placed as a quiet one" {
	make_root --cpus 2 --irq 24=a --affinity 0 --irq 25=b --affinity 0
	grep -v '^ *25:' "$ROOT/proc/interrupts" >"$BATS_TEST_TMPDIR/i"
	add_count 24 1 900
	run -0 irqaff balance -i 1 -J -n --sample-from "$BATS_TEST_TMPDIR/i" \
		--sample-from "$ROOT/proc/interrupts"
	run jq -c '[.plan[] | [.irq, .count, .rate == 900, .new]]' <<<"$output"
	assert_output '[[24,900,true,"0"],[25,null,false,"0"]]'
	# its RATE is -, in the table and in a plan file
	run -0 --separate-stderr irqaff balance -i 1 -n -v \
		--sample-from "$BATS_TEST_TMPDIR/i" \
		--sample-from "$ROOT/proc/interrupts"
	assert_line --index 1 'IRQ  RATE OLD NEW NAME'
	assert_line --index 2 ' 24 900.0   0   0 a'
	assert_line --index 3 ' 25     -   0   0 b'
	run -0 --separate-stderr irqaff balance -i 1 -n --plan - \
		--sample-from "$BATS_TEST_TMPDIR/i" \
		--sample-from "$ROOT/proc/interrupts"
	assert_line --index 3 '24 0 "a" # 900.0/s, was 0'
	assert_line --index 4 '25 0 "b" # no rate, was 0'
}

@test "balance --xps moves each transmit queue's XPS with its IRQ" {
	make_root --cpus 4 --nic eth0:2 --xps eth0:0=0-3 --xps eth0:1=0-3
	local a b
	a=$(awk '/eth0-TxRx-0/ { sub(":", "", $1); print $1 }' "$ROOT/proc/interrupts")
	b=$(awk '/eth0-TxRx-1/ { sub(":", "", $1); print $1 }' "$ROOT/proc/interrupts")
	pile_on 0 "$a" "$b"
	measure "$a 1 2000 $b 1 1000" --xps "$a,$b"
	assert_equal "$rc" 0
	local xa xb
	xa=$(lists "$a") xb=$(lists "$b")
	assert_equal "$(<"$ROOT/sys/class/net/eth0/queues/tx-0/xps_cpus")" "$(kmask 4 "$xa")"
	assert_equal "$(<"$ROOT/sys/class/net/eth0/queues/tx-1/xps_cpus")" "$(kmask 4 "$xb")"
	[[ $xa != "$xb" ]]
}

@test "a file that cannot be checked stops balance before its first write" {
	make_root --cpus 2 --irq 24=a --affinity 0 --irq 25=b --affinity 0 \
		--irq 26=c --affinity 0
	printf 'junk\n' >"$(list_of 26)"
	local sum
	sum=$(tree_sum "$ROOT/proc/irq")
	measure "24 1 3000 25 1 2000 26 1 1000"
	assert_equal "$rc" 1
	assert_equal "$(<"$err")" "irqaff: irq 26: $ROOT/proc/irq/26/smp_affinity_list: region \"junk\": \"junk\" is not a number
irqaff: balance: nothing written"
	# only the counts differ
	run lists 24 25
	assert_output $'0\n0'
}

@test "a failed write is status 1 when nothing changed, 3 when some did" {
	# a to CPU 1, then c (of b and c, equal gains) to CPU 2
	make_root --cpus 4 --irq 24=a --affinity 0 --irq 25=b --affinity 0 \
		--irq 26=c --affinity 0
	BALANCE_RUN="faulty $(list_of 24):ENOSPC" \
		measure "24 1 3000 25 1 2000 26 1 1000"
	assert_equal "$rc" 3
	run lists 24 25 26
	assert_output $'0\n0\n2'
	assert_equal "$(<"$err")" 'irqaff: irq 24: cannot set 1: no free interrupt vectors on the target CPUs (No space left on device)'
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 4 --irq 24=a --affinity 0 \
		--irq 25=b --affinity 0 --irq 26=c --affinity 0
	BALANCE_RUN="faulty $(list_of 24):ENOSPC,$(list_of 26):ENOSPC" \
		measure "24 1 3000 25 1 2000 26 1 1000"
	assert_equal "$rc" 1
	run lists 24 25 26
	assert_output $'0\n0\n0'
}

@test "balance refuses bad input with status 2 and writes nothing" {
	make_root --cpus 4 --isolated 0-3 --irq 24=a
	run --separate-stderr -2 irqaff balance -i 0.1
	assert_equal "$stderr" 'irqaff: balance: every online CPU (0-3) is isolated or nohz_full; name the CPUs with --cpus'
	run --separate-stderr -2 irqaff balance -i 0.1 --cpus 9
	assert_equal "$stderr" 'irqaff: CPU list "9": CPU 9 is beyond the last possible CPU 3'
	run --separate-stderr -2 irqaff balance -i 0
	assert_equal "${stderr%%$'\n'*}" 'irqaff: balance: interval "0" is not a decimal number of seconds from 0.001 to 86400'
	# one that matches nothing is status 1, as grep
	run --separate-stderr -1 irqaff balance -i 0.1 --cpus 0 99
	assert_equal "$stderr" 'irqaff: IRQ 99 does not exist'
	run --separate-stderr -2 irqaff balance 24 25
	assert_equal "${stderr%%$'\n'*}" 'irqaff: balance: expected at most one IRQ list'
}

# brute_best COUNT...: the least possible load of the busiest of 4 CPUs
# with these IRQ counts, every assignment tried (the first IRQ on CPU 0).
brute_best() {
	awk -v list="$*" '
	function place(i,   c, m, best, r) {
		if (i > n) {
			m = 0
			for (c = 0; c < 4; c++) if (load[c] > m) m = load[c]
			return m
		}
		best = -1
		for (c = 0; c < (i == 1 ? 1 : 4); c++) {
			load[c] += w[i]
			r = place(i + 1)
			load[c] -= w[i]
			if (best < 0 || r < best) best = r
		}
		return best
	}
	BEGIN { n = split(list, w, " "); print place(1) }'
}

# imbalance_of: the busiest of CPUs 0-3 over their mean, with each IRQ
# (24-31) all on the first CPU of its list, and these counts.
imbalance_of() {
	local -a w=("$@")
	local i c
	for ((i = 0; i < 8; i++)); do
		c=$(_cpus_of "$(lists $((24 + i)))" | head -n 1)
		printf '%s %s\n' "$c" "${w[i]}"
	done | awk '{ l[$1] += $2; s += $2 }
		END { m = 0; for (c in l) if (l[c] > m) m = l[c]; print m * 4 / s }'
}

@test "4 IRQs with 90 % of the interrupts on one CPU: within 4/3 of the best, and better than spread" {
	# heavy: 24, 25, 28, 29 on CPU 0; light: 26, 27, 30, 31 elsewhere
	local -a w=(36000 27000 4000 3000 18000 9000 2000 1000)
	local args=() i opt best after spread
	for ((i = 0; i < 8; i++)); do
		args+=(--irq $((24 + i))=q$i --affinity $(((i == 2 || i == 3 || i > 5) ? i % 4 : 0)))
	done
	make_root --cpus 4 "${args[@]}"
	cp -a "$ROOT" "$BATS_TEST_TMPDIR/spread"
	local counts=''
	for ((i = 0; i < 8; i++)); do
		c=$(_cpus_of "$(lists $((24 + i)))" | head -n 1)
		counts+=" $((24 + i)) $((c + 1)) ${w[i]}"
	done
	measure "$counts" -J
	assert_equal "$rc" 0
	after=$(jq '.imbalance.after' "$out")
	best=$(brute_best "${w[@]}")
	opt=$(awk -v b="$best" 'BEGIN { print b * 4 / 100000 }')
	awk -v a="$after" -v o="$opt" 'BEGIN { exit !(a <= o * 4 / 3 + 0.001) }'
	# the loads the plan predicts are where the IRQs now are
	assert_equal "$(imbalance_of "${w[@]}" | awk '{ printf "%.3f\n", $1 }')" \
		"$(awk -v a="$after" 'BEGIN { printf "%.3f\n", a }')"
	ROOT=$BATS_TEST_TMPDIR/spread IRQAFF_ROOT=$BATS_TEST_TMPDIR/spread \
		irqaff spread all
	spread=$(ROOT=$BATS_TEST_TMPDIR/spread imbalance_of "${w[@]}")
	awk -v a="$after" -v s="$spread" 'BEGIN { exit !(a < s) }'
}

@test "balance -J begins with the members of every result; irqbalance is warned of unless -q" {
	make_root --cpus 2 --irq 24=a --affinity 0 --irq 25=b --affinity 0 \
		--irqbalance
	measure "24 1 300 25 1 200" -J
	assert_equal "$rc" 0
	run jq -c 'keys_unsorted' "$out"
	assert_output '["dry_run","changed","unchanged","failed","managed","unmovable","interval","cpus","isolated","imbalance","no_move","plan","loads","freed"]'
	[[ $(<"$err") == 'irqaff: warning: irqbalance is running and may move'* ]]
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 2 --irq 24=a --affinity 0 \
		--irq 25=b --affinity 0 --irqbalance
	# as spread --xps: a warning, and the IRQs are balanced
	measure "24 1 300 25 1 200" -q --xps -n
	assert_equal "$rc" 0
	assert_equal "$(<"$err")" 'irqaff: balance: --xps: no transmit queue with XPS is served by these IRQs'
	measure "24 1 300 25 1 200" -q
	assert_equal "$rc" 0
	assert_equal "$(<"$err")" ''
	run lists 24 25
	assert_output $'0\n1'
}

@test "a CPU that comes online during the interval has no count for it" {
	# 24 runs on CPU 3, offline at the first read: no count, a quiet IRQ
	# that keeps what it requests; the plan's CPUs are those online at
	# the start
	make_root --cpus 4 --offline 3 --irq 24=a --affinity 3 --effective 3 \
		--irq 25=b --affinity 0 --irq 26=c --affinity 1
	cp "$ROOT/proc/interrupts" "$BATS_TEST_TMPDIR/first"
	set_online 0-3
	add_count 25 1 500 26 2 400
	cp "$ROOT/proc/interrupts" "$BATS_TEST_TMPDIR/second"
	set_online 0-2
	run -0 irqaff balance -n -J -i 1 --sample-from "$BATS_TEST_TMPDIR/first" \
		--sample-from "$BATS_TEST_TMPDIR/second"
	run jq -c '[.plan[] | [.irq, .count, .new]], [.loads[] | [.cpu, .before.count]]' <<<"$output"
	assert_output '[[24,null,"3"],[25,500,"0"],[26,400,"1"]]
[[0,500],[1,400],[2,0]]'
}

@test "what balance applied is kept by save and brought back by restore" {
	make_root --cpus 4 --irq 24=a --affinity 0 --irq 25=b --affinity 0 \
		--irq 26=c --affinity 0
	measure "24 1 3000 25 1 2000 26 1 1000"
	assert_equal "$rc" 0
	run lists 24 25 26
	assert_output $'1\n0\n2'
	irqaff save -o "$BATS_TEST_TMPDIR/snap"
	irqaff set -q all 0-3
	run --separate-stderr -0 irqaff restore -q "$BATS_TEST_TMPDIR/snap"
	run lists 24 25 26
	assert_output $'1\n0\n2'
}

@test "an IRQ with no row in either read has no handler, and is left alone" {
	make_root --cpus 2 --irq 24=a --affinity 0 --irq 25=b --affinity 0 \
		--irq 26=c --affinity 0-1
	grep -v '^ *26:' "$ROOT/proc/interrupts" >"$BATS_TEST_TMPDIR/i"
	cp "$BATS_TEST_TMPDIR/i" "$ROOT/proc/interrupts"
	measure "24 1 300 25 1 200" -J
	run jq -c '[.plan[].irq], .unchanged, [.changed[].irq]' "$out"
	assert_output $'[24,25]\n0\n[25]'
	run lists 24 25 26
	assert_output $'0\n1\n0-1'
}

@test "an IRQ whose row vanishes during the interval was freed: left out, the rest applied" {
	make_root --cpus 2 --irq 24=a --affinity 0 --irq 25=b --affinity 0
	cp "$ROOT/proc/interrupts" "$BATS_TEST_TMPDIR/first"
	add_count 24 1 700
	sed -i '/^ *25:/d' "$ROOT/proc/interrupts"
	run -0 --separate-stderr irqaff balance -i 1 -J \
		--sample-from "$BATS_TEST_TMPDIR/first" \
		--sample-from "$ROOT/proc/interrupts"
	assert_equal "$stderr" 'irqaff: note: irq 25 was freed during the interval; left out of the plan'
	run jq -c '[.plan[] | [.irq, .count, .rate == 700, .new]], .freed' <<<"$output"
	assert_output $'[[24,700,true,"0"]]\n[25]'
}

@test "an empty nohz_full padded as the kernel pads it is no CPU, and no warning" {
	# lib/vsprintf.c right-aligns "(null)" in nr_cpu_ids columns
	make_root --cpus 16 --irq 24=a --affinity 0 --irq 25=b --affinity 0
	assert_equal "$(<"$ROOT/sys/devices/system/cpu/nohz_full")" '          (null)'
	measure "24 1 300 25 1 200"
	assert_equal "$rc" 0
	assert_equal "$(<"$err")" ''
	run lists 24 25
	assert_output $'0\n1'
}

@test "the load table shows the eligible CPUs and the others only where they have a load" {
	# shown(): an online CPU outside --cpus is listed when it counted
	# something before or after: 3 is, 2 (nothing either way) is not
	make_root --cpus 4 --irq 24=a --affinity 0 --irq 25=b --affinity 0 \
		--irq 26=c --affinity 3
	measure "24 1 3000 25 1 2000 26 4 700" -n -J --cpus 0-1 24-25
	assert_equal "$rc" 0
	run jq -c '[.loads[] | [.cpu, .before.count, .after.count]]' "$out"
	assert_output '[[0,5000,3000],[1,0,2000],[3,700,700]]'
}

@test "balance -n --xps prints each XPS it would change, whichever way the lists compare" {
	# "xps eth0 tx-K: OLD -> NEW" for every OLD unlike NEW: strcmp() not
	# 0, below or above it ("2" against "1" is 1 with glibc)
	make_root --cpus 4 --nic eth0:2 --xps eth0:0=1 --xps eth0:1=2
	irqaff set -q 25,26 1
	settle_effective
	measure "25 2 2000 26 2 1000" -n --xps --cpus 1,3 25,26
	assert_equal "$rc" 0
	run grep '^xps ' "$out"
	assert_output 'xps eth0 tx-1: 2 -> 3'
	measure "25 2 2000 26 2 1000" -n --xps --cpus 0-1 25,26
	assert_equal "$rc" 0
	run grep '^xps ' "$out"
	assert_output 'xps eth0 tx-1: 2 -> 0'
	# an XPS already on the new CPU: said with -v only
	printf '1\n' >"$ROOT/sys/class/net/eth0/queues/tx-1/xps_cpus"
	measure "25 2 2000 26 2 1000" -n --xps --cpus 0-1 25,26
	assert_equal "$rc" 0
	run grep -c '^xps ' "$out"
	assert_output 0
	measure "25 2 2000 26 2 1000" -n -v --xps --cpus 0-1 25,26
	assert_equal "$rc" 0
	run grep '^xps ' "$out"
	assert_output 'xps eth0 tx-1: 0 -> 0'
}

# eth0 24-28, eth1 29-31, each IRQ asking for CPU 0-3 and all running
# on CPU 0; the plan of STALE_COUNTS moves 25 to CPU 2, 26 to 3 and 30
# to 1, and keeps the others (28 stays at home on 0, 27 and 31 are
# quiet). Apart from their IRQ's new CPU: eth0 tx-0 (a superset) and
# tx-1 (another CPU), eth1 tx-0; XPS off (empty): eth0 tx-2, eth1 tx-1.
stale_nics() {
	make_root --cpus 4 --queues \
		--nic eth0:4 --xps eth0:0=0-3 --xps eth0:1=2 --xps eth0:3=2 \
		--nic eth1:2 --xps eth1:0=3
	pile_on 0 25 26 27 28 30 31
}
STALE_COUNTS="25 1 1000 26 1 1000 27 1 1000 28 1 1000 30 1 2000 31 1 5"
STALE_XPS='eth0 tx-0 f
eth0 tx-1 4
eth0 tx-2 0
eth0 tx-3 4
eth1 tx-0 8
eth1 tx-1 0'
STALE_NOTES="irqaff: note: eth0: the XPS of 2 tx queues is left where it is, not on their IRQs' new CPUs; add --xps to move it too
irqaff: note: eth1: the XPS of 1 tx queue is left where it is, not on its IRQ's new CPU; add --xps to move it too"

@test "balance without --xps notes once per interface the tx queues whose XPS it leaves apart from their IRQs" {
	stale_nics
	assert_equal "$(xps_masks eth0 eth1)" "$STALE_XPS"
	# a dry run says it too: it tells what the run would do
	measure "$STALE_COUNTS" -n 25-28,30,31
	assert_equal "$rc" 0
	assert_equal "$(<"$err")" "$STALE_NOTES"
	run plan_lines
	assert_output 'IRQ  OLD NEW NAME
25  0-3 2 eth0-TxRx-0
26  0-3 3 eth0-TxRx-1
30  0-3 1 eth1-TxRx-0'
	# -J: on standard error only, the object as without the note
	measure "$STALE_COUNTS" -J -n 25-28,30,31
	assert_equal "$rc" 0
	assert_equal "$(<"$err")" "$STALE_NOTES"
	run -0 jq -c 'keys' "$out"
	assert_output '["changed","cpus","dry_run","failed","freed","imbalance","interval","isolated","loads","managed","no_move","plan","unchanged","unmovable"]'
	measure "$STALE_COUNTS" 25-28,30,31
	assert_equal "$rc" 0
	assert_equal "$(<"$err")" "$STALE_NOTES"
	assert_equal "$(lists 25 26 27 28 30 31)" $'2\n3\n0-3\n0-3\n1\n0-3'
	# the note only: no xps_cpus written
	assert_equal "$(xps_masks eth0 eth1)" "$STALE_XPS"
	# the IRQs stay where they are now: balance writes nothing, and the
	# XPS it did not move is no longer its to speak of
	settle_effective
	measure "25 3 1000 26 4 1000 27 1 1000 28 1 1000 30 2 2000 31 1 5" 25-28,30,31
	assert_equal "$rc" 0
	assert_equal "$(head -n 1 "$out")" 'no IRQ to move: already even (no move lowers the busiest CPU beyond the noise)'
	assert_equal "$(<"$err")" ''
}

@test "balance's XPS note: not with --xps, nor -q, nor once the XPS follows" {
	stale_nics
	measure "$STALE_COUNTS" -q -n 25-28,30,31
	assert_equal "$rc" 0
	assert_equal "$(<"$err")" ''
	measure "$STALE_COUNTS" -q -J -n 25-28,30,31
	assert_equal "$rc" 0
	assert_equal "$(<"$err")" ''
	measure "$STALE_COUNTS" --xps 25-28,30,31
	assert_equal "$rc" 0
	assert_equal "$(<"$err")" ''
	assert_equal "$(xps_masks eth0 eth1)" 'eth0 tx-0 4
eth0 tx-1 8
eth0 tx-2 0
eth0 tx-3 4
eth1 tx-0 2
eth1 tx-1 0'
	# every queue on its IRQ's CPU now: nothing to say
	settle_effective
	measure "$STALE_COUNTS" 25-28,30,31
	assert_equal "$rc" 0
	assert_equal "$(<"$err")" ''
	# one IRQ moved apart from its queue's XPS: one queue said
	measure "26 4 5000" -n --cpus 2 26
	assert_equal "$rc" 0
	run plan_lines
	assert_output $'IRQ  OLD NEW NAME\n26  3 2 eth0-TxRx-1'
	assert_equal "$(<"$err")" "irqaff: note: eth0: the XPS of 1 tx queue is left where it is, not on its IRQ's new CPU; add --xps to move it too"
}

@test "balance's XPS note: none when XPS is off (every xps_cpus empty) or the tree has no queues" {
	make_root --cpus 4 --queues --nic eth0:4
	pile_on 0 25 26 27 28
	measure "25 1 1000 26 1 1000 27 1 1000 28 1 1000" 25-28
	assert_equal "$rc" 0
	assert_equal "$(<"$err")" ''
	assert_equal "$(lists 25 26 27 28)" $'1\n2\n3\n0-3'
	assert_equal "$(xps_masks eth0)" "$(printf 'eth0 tx-%d 0\n' 0 1 2 3)"
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 4 --nic eth0:4
	pile_on 0 25 26 27 28
	measure "25 1 1000 26 1 1000 27 1 1000 28 1 1000" 25-28
	assert_equal "$rc" 0
	assert_equal "$(<"$err")" ''
}

@test "balance's XPS note: a mask it cannot read leaves its queue out, in silence" {
	stale_nics
	# eth0 tx-1's xps_cpus a directory: one queue of eth0 said, not two
	rm "$(queue_file eth0 tx-1 xps_cpus)"
	mkdir "$(queue_file eth0 tx-1 xps_cpus)"
	measure "$STALE_COUNTS" -n 25-28,30,31
	assert_equal "$rc" 0
	assert_equal "$(<"$err")" "irqaff: note: eth0: the XPS of 1 tx queue is left where it is, not on its IRQ's new CPU; add --xps to move it too
irqaff: note: eth1: the XPS of 1 tx queue is left where it is, not on its IRQ's new CPU; add --xps to move it too"
}

@test "balance's XPS note escapes the interface's name" {
	make_root --cpus 4 --queues --nic $'e\033[2Jx:2' --xps $'e\033[2Jx:0=0-3'
	pile_on 0 25 26
	measure "25 1 1000 26 1 1000" -n 25,26
	assert_equal "$rc" 0
	assert_equal "$(<"$err")" "irqaff: note: e\\033[2Jx: the XPS of 1 tx queue is left where it is, not on its IRQ's new CPU; add --xps to move it too"
}

@test "balance --plan says the XPS it leaves apart; restore of the plan applies it as it is and says nothing of it" {
	stale_nics
	local plan=$BATS_TEST_TMPDIR/plan.conf
	measure "$STALE_COUNTS" -n --plan "$plan" 25-28,30,31
	assert_equal "$rc" 0
	assert_equal "$(<"$err")" "$STALE_NOTES"
	# no queue line without --xps
	run grep -c '^xps ' "$plan"
	assert_output 0
	# the plan on standard output, the note on standard error
	measure "$STALE_COUNTS" -n --plan - 25-28,30,31
	assert_equal "$rc" 0
	assert_equal "$(<"$err")" "$STALE_NOTES"
	assert_equal "$(sed -n 3p "$out")" 'plan 0-3'
	run -0 --separate-stderr irqaff restore "$plan"
	assert_equal "$stderr" ''
	assert_equal "$(lists 25 26 27 28 30 31)" $'2\n3\n0-3\n0-3\n1\n0-3'
	assert_equal "$(xps_masks eth0 eth1)" "$STALE_XPS"
}

@test "on an idle machine balance writes nothing and says so: no IRQ pinned where it last ran" {
	# as a freshly booted guest: sets of many CPUs, each IRQ delivered to
	# one of them, no interrupts in the interval
	make_root --cpus 8 --irq 24=i8042 --affinity 0-7 --effective 3 \
		--irq 25=ttyS0 --affinity 0-3 --effective 1 \
		--irq 26=rtc0 --affinity 0-7 --effective 0
	local sum
	sum=$(tree_sum "$ROOT/proc/irq")
	measure "24 4 9 25 2 9"
	assert_equal "$rc" 0
	assert_equal "$(<"$err")" ''
	run cat "$out"
	assert_line --index 0 'no IRQ to move: the IRQs it may move are quiet (at most 9 interrupts each in 1.0 s)'
	assert_line 'imbalance: - (fewer than 900 interrupts on the busiest of CPUs 0-7: too few to compare)'
	measure "24 4 0" -J
	assert_equal "$rc" 0
	run jq -c '[.changed, .no_move, .imbalance, [.plan[].reason]]' "$out"
	assert_output '[[],"idle",{"before":null,"after":null},["keep","keep","keep"]]'
	# too few to compare is null in JSON too, not a figure
	measure "24 4 9 25 2 9" -J
	run jq -c '.imbalance' "$out"
	assert_output '{"before":null,"after":null}'
	assert_equal "$(tree_sum "$ROOT/proc/irq")" "$sum"
	# 10 interrupts are not quiet: 24 is busy, at home on CPU 3, kept
	measure "24 4 10"
	assert_equal "$rc" 0
	assert_equal "$(head -n 1 "$out")" 'no IRQ to move: the busiest CPU, 3, holds irq 24 (i8042) at 10.0/s, above the mean of the CPUs alone; one IRQ cannot be split'
	assert_equal "$(tree_sum "$ROOT/proc/irq")" "$sum"
}

@test "a pending move is no home: the IRQ is not read as running on the CPU it is leaving" {
	# 24 asks for CPU 4-5 and still runs on 3 (moved, not yet delivered)
	make_root --cpus 8 --irq 24=a --affinity 4-5 --effective 3 \
		--irq 25=b --affinity 4 --effective 3 --irq 26=c --affinity 0
	measure "26 1 100"
	assert_equal "$rc" 0
	run lists 24 25 26
	assert_output $'4-5\n4\n0'
	# busy, it has no home: placed where the plan puts it, one CPU of
	# those balance may use; 25 asks for one CPU, and is at home there
	measure "24 4 3000 25 4 2000 26 1 100"
	assert_equal "$rc" 0
	run plan_lines
	assert_output $'IRQ  OLD NEW NAME\n24  4-5 1 a'
	run lists 24 25 26
	assert_output $'1\n4\n0'
}

@test "a busy rx/tx pair on two CPUs is joined on one, and a pair moves together" {
	make_root --cpus 4 --virtio-nic eth0:1 --queues
	pile_on 1 25
	pile_on 2 26
	measure "25 2 3000 26 3 2000" -n -J 25,26
	assert_equal "$rc" 0
	run jq -r '.plan[] | "\(.irq) \(.old) \(.new) \(.reason)"' "$out"
	assert_output $'25 0-3 0 move\n26 0-3 0 pair'
	# the busier half is the move; at a tie, the rx half
	measure "25 2 1000 26 3 3000" -n -J 25,26
	run jq -r '.plan[] | "\(.irq) \(.reason)"' "$out"
	assert_output $'25 pair\n26 move'
	measure "25 2 2000 26 3 2000" -n -J 25,26
	run jq -r '.plan[] | "\(.irq) \(.reason)"' "$out"
	assert_output $'25 move\n26 pair'
	measure "25 2 3000 26 3 2000" 25,26
	run lists 25 26
	assert_output $'0\n0'
	# both on CPU 1 with another busy IRQ: they leave it together
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 4 --virtio-nic eth0:1 \
		--queues --irq 40=x --affinity 1
	pile_on 1 25 26
	measure "25 2 3000 26 2 1000 40 2 6000" 25,26,40
	assert_equal "$rc" 0
	run lists 25 26 40
	assert_output $'0\n0\n1'
	# a quiet rx and a busy tx: the pair is busy, and the lighter unit
	make_root --dir "$BATS_TEST_TMPDIR/r3" --cpus 4 --virtio-nic eth0:1 \
		--queues --irq 40=x --affinity 1
	pile_on 1 25 26
	measure "25 2 5 26 2 3000 40 2 6000" -n -J 25,26,40
	run jq -r '.plan[] | "\(.irq) \(.new) \(.reason)"' "$out"
	assert_output $'25 0 pair\n26 0 move\n40 1 keep'
}

@test "the imbalance figure needs 900 interrupts on the busiest CPU, before and after" {
	make_root --cpus 2 --irq 24=a --affinity 0 --irq 25=b --affinity 0
	measure "24 1 449 25 1 450" -n
	assert_equal "$rc" 0
	run grep '^imbalance' "$out"
	assert_output 'imbalance: - (fewer than 900 interrupts on the busiest of CPUs 0-1: too few to compare)'
	measure "24 1 450 25 1 450" -n -J
	run jq -c '.imbalance' "$out"
	assert_output '{"before":2,"after":1}'
}

@test "nothing to move because of one IRQ: which, and whether it can be moved at all" {
	# the busiest CPU's load is a kernel-managed IRQ
	make_root --cpus 2 --irq 24=q0 --affinity 0 --managed 24 \
		--irq 25=b --affinity 1
	measure "24 1 5000 25 2 1000" -J
	assert_equal "$rc" 0
	run jq -c '[.no_move, .busiest]' "$out"
	assert_output '["one-irq",{"cpu":0,"irq":24,"count":5000,"rate":5000,"planned":false}]'
	measure "24 1 5000 25 2 1000"
	assert_equal "$(head -n 1 "$out")" 'no IRQ to move: the busiest CPU, 0, holds irq 24 (q0) at 5000.0/s, above the mean of the CPUs alone; user space cannot move it'
	# refused (no-balancing), not managed: user space cannot move it either
	make_root --dir "$BATS_TEST_TMPDIR/r1" --cpus 2 --irq 24=q0 --affinity 0 \
		--unmovable 24 --debugfs --irq 25=b --affinity 1
	measure "24 1 5000 25 2 1000"
	assert_equal "$(head -n 1 "$out")" 'no IRQ to move: the busiest CPU, 0, holds irq 24 (q0) at 5000.0/s, above the mean of the CPUs alone; user space cannot move it'
	# one left out of the selection
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 2 --irq 24=a --affinity 0 \
		--irq 25=b --affinity 1
	measure "24 1 5000 25 2 1000" 25
	assert_equal "$(head -n 1 "$out")" 'no IRQ to move: the busiest CPU, 0, holds irq 24 (a) at 5000.0/s, above the mean of the CPUs alone; it is not selected'
	# what else the busiest CPU counted is more than noise: even, not one
	make_root --dir "$BATS_TEST_TMPDIR/r3" --cpus 2 --irq 24=a --affinity 0 \
		--irq 25=b --affinity 0 --irq 26=c --affinity 1
	measure "24 1 5000 25 1 10 26 2 1000"
	assert_equal "$(head -n 1 "$out")" 'no IRQ to move: already even (no move lowers the busiest CPU beyond the noise)'
	# one IRQ a CPU: above the mean is one IRQ's doing, at the mean even
	make_root --dir "$BATS_TEST_TMPDIR/r4" --cpus 2 --irq 24=a --affinity 0 \
		--irq 25=b --affinity 1
	measure "24 1 1001 25 2 999" -J
	run jq -c '[.no_move, .busiest.irq]' "$out"
	assert_output '["one-irq",24]'
	measure "24 1 1000 25 2 1000" -J
	run jq -c '[.no_move, .busiest]' "$out"
	assert_output '["even",null]'
}

# issue 50: balance(8)'s worked example moved kernel-managed nvme queues
# that the same page says are never moved. Its output block is what
# balance prints for the loads its text gives (over 2 s), exactly.
@test "balance(8)'s worked example is balance's own output for its loads" {
	local page=$BATS_TEST_DIRNAME/../../man/irqaff-balance.8.scd want
	want=$(awk '/^irqaff balance -n -i 2$/ { cmd = 1; next }
		cmd && /^```$/ { n++; if (n == 2) on = 1; else if (n == 3) exit
			next }
		on' "$page")
	[[ $want == 'IRQ    RATE OLD NEW NAME'* ]] || fail "no worked example: $want"
	# eth0 24, its queues 25-28 all on CPU 0; ahci on 2, i915 on 3 and
	# a quiet xhci_hcd on 1, each asking for 0-3
	make_root --cpus 4 --nic eth0:4:0:24 --irq 29=ahci --irq 30=i915 \
		--irq 31=xhci_hcd --affinity 0 --effective 0
	irqaff set -q 24-28 0 >/dev/null
	irqaff set -q 29-31 0-3 >/dev/null
	pile_on 0 24 25 26 27 28
	pile_on 2 29
	pile_on 3 30
	pile_on 1 31
	measure "24 1 10 25 1 90000 26 1 70000 27 1 30000 28 1 2000 29 3 40000 30 4 20000 31 2 4" -n -i 2
	assert_equal "$rc" 0
	assert_equal "$(<"$out")" "$want"
}
