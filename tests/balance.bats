#!/usr/bin/env bats
# balance: its first read of proc/interrupts is a copy saved before the
# tree's counts grow (add_count), its second the tree's, both given with
# --sample-from and -i 1: nothing sleeps, and plans and rates are exact.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper/common-setup
	_common_setup
}

# measure "IRQ COL N ..." ARGS...: irqaff balance -i 1 ARGS, the counts
# added between its two reads (a copy of the tree's proc/interrupts, then
# the tree's after add_count); stdout in $out, stderr in $err, the exit
# status in $rc.
measure() {
	local -a counts
	read -ra counts <<<"$1"
	shift
	out=$BATS_TEST_TMPDIR/out err=$BATS_TEST_TMPDIR/err
	snapshot_interrupts "$BATS_TEST_TMPDIR/before"
	add_count "${counts[@]}"
	rc=0
	irqaff balance -i 1 --sample-from "$BATS_TEST_TMPDIR/before" \
		--sample-from "$ROOT/proc/interrupts" "$@" >"$out" 2>"$err" ||
		rc=$?
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
	# 27 stays with 25: CPU 1 then carries no more than CPU 0
	run plan_lines
	assert_output 'IRQ  OLD NEW NAME
25  0 1 b
26  0 2 c'
	run lists 24 25 26 27
	assert_output $'0\n1\n2\n1'
	# rates: the counts over a second
	run awk '$1 == 25 { print $2 }' "$out"
	assert_output '3000.0'
	run grep '^imbalance' "$out"
	assert_output 'imbalance: 3.60 -> 1.60 (the busiest of CPUs 0-3 over their mean)'
}

@test "a second run with the same counts writes nothing, nor does a small change" {
	make_root --cpus 4 --irq 24=a --affinity 0 --irq 25=b --affinity 0 \
		--irq 26=c --affinity 0 --irq 27=d --affinity 0 --irq 28=e \
		--affinity 0
	measure "24 1 5000 25 1 4000 26 1 3000 27 1 2000 28 1 1500"
	assert_equal "$rc" 0
	run lists 24 25 26 27 28
	assert_output $'0\n1\n2\n3\n3'
	settle_effective
	local sum
	sum=$(tree_sum "$ROOT/proc/irq")
	measure "24 1 5000 25 2 4000 26 3 3000 27 4 2000 28 4 1500"
	assert_equal "$rc" 0
	run cat "$out"
	assert_line --index 0 'no IRQ to move'
	assert_line 'imbalance: 1.29 -> 1.29 (the busiest of CPUs 0-3 over their mean)'
	assert_equal "$(tree_sum "$ROOT/proc/irq")" "$sum"
	# 27 now a little busier than 26: LPT afresh would swap their CPUs
	measure "24 1 5000 25 2 4000 26 3 2000 27 4 2100 28 4 1500"
	assert_equal "$rc" 0
	assert_equal "$(head -n 1 "$out")" 'no IRQ to move'
	assert_equal "$(tree_sum "$ROOT/proc/irq")" "$sum"
}

@test "an IRQ is moved when that lowers the busiest CPU's load by more than the margin" {
	make_root --cpus 2 --irq 24=a --affinity 0 --irq 25=b --affinity 0 \
		--irq 26=c --affinity 1
	# CPU 0 carries 24 and 25 (2000), CPU 1 26 (1000): keeping 25 on CPU 0
	# ends it at 2000, moving it at 1500 on CPU 1
	measure "24 1 1000 25 1 1000 26 2 500"
	assert_equal "$rc" 0
	run lists 24 25 26
	assert_output $'0\n1\n1'
	# 3 % apart: kept
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 2 --irq 24=a --affinity 0 \
		--irq 25=b --affinity 1
	measure "24 1 1030 25 2 1000"
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
25  0 1 b'
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
	assert_output $'0\n1\n2'
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
	assert_output $'0\n4\n5'
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

@test "ties go to the first threads of cores, then to lower CPUs; quiet IRQs spread over idle CPUs" {
	# 4 cores of 2 threads: CPU c and c + 4 share a core
	make_root --cpus 8 --threads 2 --irq 24=a --affinity 0 --irq 25=b \
		--affinity 0 --irq 26=c --affinity 0 --irq 27=d --affinity 0 \
		--irq 28=e --affinity 0 --irq 29=f --affinity 0-7 \
		--irq 30=g --affinity 0-7
	measure "24 1 1000 25 1 1000 26 1 1000 27 1 1000 28 1 1000"
	assert_equal "$rc" 0
	run lists 24 25 26 27 28 29 30
	assert_output $'0\n1\n2\n3\n4\n5\n6'
}

@test "quiet IRQs are placed after the busy ones, never onto a busy CPU" {
	make_root --cpus 2 --irq 24=a --affinity 0 --irq 25=b --affinity 0 \
		--irq 26=c --affinity 0
	measure "24 1 1000"
	run lists 24 25 26
	assert_output $'0\n1\n1'
	run plan_lines
	assert_output 'IRQ  OLD NEW NAME
25  0 1 b
26  0 1 c'
}

@test "balance -J: the result of set and spread, with the plan, the loads and the imbalance" {
	make_root --cpus 2 --irq $'24=a"\033' --affinity 0 --irq 25=b --affinity 0
	measure "24 1 3000 25 1 1000" -J -n
	assert_equal "$rc" 0
	run jq -c . "$out"
	assert_output '{"dry_run":true,"changed":[{"irq":25,"name":"b","old":"0","new":"1"}],"unchanged":1,"failed":[],"managed":[],"unmovable":[],"interval":1,"cpus":"0-1","isolated":"","imbalance":{"before":2,"after":1.5},"plan":[{"irq":24,"name":"a\"\u001b","count":3000,"rate":3000,"old":"0","new":"0"},{"irq":25,"name":"b","count":1000,"rate":1000,"old":"0","new":"1"}],"loads":[{"cpu":0,"eligible":true,"before":{"count":4000,"rate":4000},"after":{"count":3000,"rate":3000}},{"cpu":1,"eligible":true,"before":{"count":0,"rate":0},"after":{"count":1000,"rate":1000}}]}'
	run grep -o '"interval":[^,]*,' "$out"
	assert_output '"interval":1.000,'
	run lists 24 25
	assert_output $'0\n0'
	# the names are escaped in the table
	measure "24 1 3000 25 1 3000" -n -v
	run plan_lines
	assert_output 'IRQ  OLD NEW NAME
24  0 0 a"\033
25  0 1 b'
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
	# the first read without 25's row, the second with it
	grep -v '^ *25:' "$ROOT/proc/interrupts" >"$BATS_TEST_TMPDIR/before"
	sed -i 's/^\( *24: *\)250000/\1250900/' "$ROOT/proc/interrupts"
	run --separate-stderr -0 irqaff balance -i 1 -J -n \
		--sample-from "$BATS_TEST_TMPDIR/before" \
		--sample-from "$ROOT/proc/interrupts"
	run jq -c '[.plan[] | [.irq, .count, .rate, .new]]' <<<"$output"
	assert_output '[[24,900,900,"0"],[25,null,null,"1"]]'
}

@test "balance --xps moves each transmit queue's XPS with its IRQ" {
	make_root --cpus 4 --nic eth0:2 --xps eth0:0=0-3 --xps eth0:1=0-3
	local a b
	a=$(awk '/eth0-TxRx-0/ { sub(":", "", $1); print $1 }' "$ROOT/proc/interrupts")
	b=$(awk '/eth0-TxRx-1/ { sub(":", "", $1); print $1 }' "$ROOT/proc/interrupts")
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
	assert_equal "$(<"$err")" "irqaff: irq 26: $ROOT/proc/irq/26/smp_affinity_list: region \"junk\": \"junk\" is not a number"
	# only the counts differ
	run lists 24 25
	assert_output $'0\n0'
}

@test "a failed write is status 1 when nothing changed, 3 when some did" {
	make_root --cpus 2 --irq 24=a --affinity 0 --irq 25=b --affinity 0 \
		--irq 26=c --affinity 0
	out=$BATS_TEST_TMPDIR/out
	snapshot_interrupts "$BATS_TEST_TMPDIR/before"
	add_count 24 1 3000 25 1 2000 26 1 1000
	rc=0
	faulty "$(list_of 25):ENOSPC" irqaff balance -i 1 \
		--sample-from "$BATS_TEST_TMPDIR/before" \
		--sample-from "$ROOT/proc/interrupts" \
		>"$out" 2>"$BATS_TEST_TMPDIR/err" || rc=$?
	assert_equal "$rc" 3
	run lists 24 25 26
	assert_output $'0\n0\n1'
	assert_equal "$(<"$BATS_TEST_TMPDIR/err")" 'irqaff: irq 25: cannot set 1: no free interrupt vectors on the target CPUs (No space left on device)'
	# 24 stays, 25 and 26 fail: nothing changed
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 2 --irq 24=a --affinity 0 \
		--irq 25=b --affinity 0 --irq 26=c --affinity 0
	snapshot_interrupts "$BATS_TEST_TMPDIR/before"
	add_count 24 1 3000 25 1 2000 26 1 1000
	rc=0
	faulty "$(list_of 25):ENOSPC,$(list_of 26):ENOSPC" irqaff balance -i 1 \
		--sample-from "$BATS_TEST_TMPDIR/before" \
		--sample-from "$ROOT/proc/interrupts" \
		>"$out" 2>"$BATS_TEST_TMPDIR/err" || rc=$?
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
	run --separate-stderr -2 irqaff balance -i 0.1 --cpus 0 99
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
	assert_output '["dry_run","changed","unchanged","failed","managed","unmovable","interval","cpus","isolated","imbalance","plan","loads"]'
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
	# 24 runs on CPU 3, offline at the first read: no count, a quiet IRQ;
	# the plan's CPUs are those online at the start
	make_root --cpus 4 --offline 3 --irq 24=a --affinity 3 --effective 3 \
		--irq 25=b --affinity 0 --irq 26=c --affinity 1
	# the second read as the kernel would show it with CPU 3 online; the
	# machine is still as it was at the start, CPU 3 offline
	snapshot_interrupts "$BATS_TEST_TMPDIR/before"
	set_online 0-3
	add_count 25 1 500 26 2 400
	snapshot_interrupts "$BATS_TEST_TMPDIR/after"
	set_online 0-2
	run --separate-stderr -0 irqaff balance -n -J -i 2 \
		--sample-from "$BATS_TEST_TMPDIR/before" \
		--sample-from "$BATS_TEST_TMPDIR/after"
	run jq -c '[.plan[] | [.irq, .count, .rate, .new]], [.loads[] | [.cpu, .before.count, .before.rate]]' <<<"$output"
	assert_output '[[24,null,null,"2"],[25,500,250,"0"],[26,400,200,"1"]]
[[0,500,250],[1,400,200],[2,0,0]]'
}

@test "what balance applied is kept by save and brought back by restore" {
	make_root --cpus 4 --irq 24=a --affinity 0 --irq 25=b --affinity 0 \
		--irq 26=c --affinity 0
	measure "24 1 3000 25 1 2000 26 1 1000"
	assert_equal "$rc" 0
	run lists 24 25 26
	assert_output $'0\n1\n2'
	irqaff save -o "$BATS_TEST_TMPDIR/snap"
	irqaff set -q all 0-3
	run --separate-stderr -0 irqaff restore -q "$BATS_TEST_TMPDIR/snap"
	run lists 24 25 26
	assert_output $'0\n1\n2'
}

@test "an IRQ with no row in either read has no handler, and is left alone" {
	make_root --cpus 2 --irq 24=a --affinity 0 --irq 25=b --affinity 0 \
		--irq 26=c --affinity 0-1
	grep -v '^ *26:' "$ROOT/proc/interrupts" >"$BATS_TEST_TMPDIR/i"
	cp "$BATS_TEST_TMPDIR/i" "$ROOT/proc/interrupts"
	measure "24 1 300 25 1 200" -J
	run jq -c '[.plan[].irq], .unchanged, [.changed[].irq]' "$out"
	assert_output $'[24,25]\n1\n[25]'
	run lists 24 25 26
	assert_output $'0\n1\n0-1'
}

@test "an IRQ whose row vanishes during the interval has no rate" {
	make_root --cpus 2 --irq 24=a --affinity 0 --irq 25=b --affinity 0
	snapshot_interrupts "$BATS_TEST_TMPDIR/before"
	sed -i -e '/^ *25:/d' -e 's/^\( *24: *\)250000/\1250700/' \
		"$ROOT/proc/interrupts"
	run --separate-stderr -0 irqaff balance -i 1 -J -n \
		--sample-from "$BATS_TEST_TMPDIR/before" \
		--sample-from "$ROOT/proc/interrupts"
	run jq -c '[.plan[] | [.irq, .count, .rate, .new]]' <<<"$output"
	assert_output '[[24,700,700,"0"],[25,null,null,"1"]]'
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
