#!/usr/bin/env bats
# balance's plans: reviewed with -n --plan FILE, applied as they are by
# restore FILE whatever the counts do in between, refused whole when they
# no longer fit; idle IRQs, queue pairs, freed IRQs and the JSON of a
# refusal. Reads come from saved copies (--sample-from): no sleeping.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	load ../test_helper/balance
}

four_on_cpu0() {
	make_root --cpus 4 --irq 24=a --affinity 0 --irq 25=b --affinity 0 \
		--irq 26=c --affinity 0 --irq 27=d --affinity 1
}

@test "balance -n --plan writes the plan it shows, and restore applies exactly it after the counts change" {
	four_on_cpu0
	local before
	before=$(tree_sum "$ROOT/proc/irq")
	measure "24 1 4000 25 1 3000 26 1 2000 27 2 1000" -n \
		--plan "$BATS_TEST_TMPDIR/plan"
	assert_equal "$rc" 0
	assert_equal "$(<"$err")" ''
	assert_equal "$(tree_sum "$ROOT/proc/irq")" "$before"
	assert_file "$BATS_TEST_TMPDIR/plan" '# irqaff balance plan, rates over 1.000 s
# restore applies it as it is; see irqaff.conf(5)
plan 0-3
24 2 "a" # 4000.0/s, was 0
25 0 "b" # 3000.0/s, was 0
26 3 "c" # 2000.0/s, was 0
27 1 "d" # 1000.0/s, was 1
# CPU 0: 9000.0/s -> 3000.0/s
# CPU 1: 1000.0/s -> 1000.0/s
# CPU 2: 0.0/s -> 4000.0/s
# CPU 3: 0.0/s -> 2000.0/s
'
	run -0 sed -n 's/^ *\([0-9][0-9]*\) .* \([0-9][0-9]*\) [a-z]$/\1 \2/p' \
		"$out"
	assert_output $'24 2\n26 3'
	# the load turns around; a new plan would differ, the reviewed one
	# is what restore applies
	add_count 27 2 90000 26 1 50000
	run -0 --separate-stderr irqaff restore -v "$BATS_TEST_TMPDIR/plan"
	assert_output 'irq 24: 0 -> 2
irq 25: 0 unchanged
irq 26: 0 -> 3
irq 27: 1 unchanged'
	assert_equal "$(lists 24 25 26 27)" $'2\n0\n3\n1'
	run -0 irqaff check "$BATS_TEST_TMPDIR/plan"
	assert_output ''
}

@test "--plan - prints the plan instead of the table; -J keeps its JSON" {
	four_on_cpu0
	measure "24 1 4000 25 1 3000" -n --plan -
	assert_equal "$rc" 0
	assert_equal "$(sed -n 3,5p "$out")" 'plan 0-3
24 0 "a" # 4000.0/s, was 0
25 1 "b" # 3000.0/s, was 0'
	run grep -c '^CPU\|^imbalance\|^IRQ' "$out"
	assert_output 0
}

@test "restore refuses a plan whole when an IRQ of it is gone or renamed, and writes nothing" {
	four_on_cpu0
	measure "24 1 4000 25 1 3000 26 1 2000" -n --plan "$BATS_TEST_TMPDIR/plan"
	mv "$ROOT/proc/irq/26/c" "$ROOT/proc/irq/26/c2"
	local before
	before=$(tree_sum "$ROOT/proc/irq")
	run -1 --separate-stderr irqaff restore "$BATS_TEST_TMPDIR/plan"
	assert_output ''
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/plan:6: \"c\" matches no IRQ
irqaff: $BATS_TEST_TMPDIR/plan: a plan is applied whole or not at all: nothing written; make a new one"
	assert_equal "$(tree_sum "$ROOT/proc/irq")" "$before"
	run -1 --separate-stderr irqaff restore -J "$BATS_TEST_TMPDIR/plan"
	assert_output '{"dry_run":false,"changed":[],"unchanged":0,"failed":[],"managed":[],"unmovable":[],"problems":[{"line":6,"error":"\"c\" matches no IRQ"}]}'
	# the same lines without a plan line: the rest is applied, status 3
	grep -v '^plan' "$BATS_TEST_TMPDIR/plan" >"$BATS_TEST_TMPDIR/snap"
	run -3 --separate-stderr irqaff restore "$BATS_TEST_TMPDIR/snap"
	assert_equal "$(lists 24 25)" $'1\n0'
}

@test "restore refuses a plan whose CPUs went offline or were isolated since, and takes it again once they are back" {
	four_on_cpu0
	measure "24 1 4000 25 1 3000" -n --plan "$BATS_TEST_TMPDIR/plan"
	local before
	before=$(tree_sum "$ROOT/proc/irq")
	set_online 0-2
	run -1 --separate-stderr irqaff restore "$BATS_TEST_TMPDIR/plan"
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/plan:3: CPU 3 of the plan is offline now
irqaff: $BATS_TEST_TMPDIR/plan: a plan is applied whole or not at all: nothing written; make a new one"
	assert_equal "$(tree_sum "$ROOT/proc/irq")" "$before"
	set_online 0-3
	echo 2 >"$ROOT/sys/devices/system/cpu/isolated"
	run -1 --separate-stderr irqaff restore "$BATS_TEST_TMPDIR/plan"
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/plan:3: CPU 2 of the plan is isolated now (isolcpus=)
irqaff: $BATS_TEST_TMPDIR/plan: a plan is applied whole or not at all: nothing written; make a new one"
	assert_equal "$(tree_sum "$ROOT/proc/irq")" "$before"
	echo >"$ROOT/sys/devices/system/cpu/isolated"
	run -0 irqaff restore "$BATS_TEST_TMPDIR/plan"
	assert_equal "$(lists 24 25)" $'0\n1'
}

@test "restore refuses a plan whose IRQ file no longer holds a CPU list, listing it in JSON" {
	four_on_cpu0
	measure "24 1 4000 25 1 3000" -n --plan "$BATS_TEST_TMPDIR/plan"
	printf 'garbage\n' >"$(list_of 25)"
	local before
	before=$(tree_sum "$ROOT/proc/irq")
	run -1 --separate-stderr irqaff restore -J "$BATS_TEST_TMPDIR/plan"
	run jq -c '[.changed, [.failed[] | .irq]]' <<<"$output"
	assert_output '[[],[25]]'
	assert_equal "$(tree_sum "$ROOT/proc/irq")" "$before"
}

@test "a plan line is a keyword: no optional plan, and an IRQ named plan is quoted" {
	four_on_cpu0
	printf '?plan 0-3\n24 1\n' >"$BATS_TEST_TMPDIR/p"
	run -2 --separate-stderr irqaff restore -t "$BATS_TEST_TMPDIR/p"
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/p:1: a plan line cannot be optional"
	printf 'plan 0-3\n"plan" 1\n' >"$BATS_TEST_TMPDIR/p"
	run -1 --separate-stderr irqaff restore "$BATS_TEST_TMPDIR/p"
	assert_equal "${stderr_lines[0]}" "irqaff: $BATS_TEST_TMPDIR/p:2: \"plan\" matches no IRQ"
}

@test "balance refuses before the first write, lists each refused IRQ, and writes nothing" {
	four_on_cpu0
	printf 'garbage\n' >"$(list_of 26)"
	local before
	before=$(tree_sum "$ROOT/proc/irq")
	measure "24 1 4000 25 1 3000 26 1 2000" -J
	assert_equal "$rc" 1
	run jq -c '[.dry_run, .changed, [.failed[] | .irq]]' "$out"
	assert_output '[false,[],[26]]'
	assert_equal "$(tree_sum "$ROOT/proc/irq")" "$before"
	measure "24 1 4000" -q
	assert_equal "$rc" 1
	assert_equal "$(tail -n 1 "$err")" 'irqaff: balance: nothing written'
	assert_equal "$(tree_sum "$ROOT/proc/irq")" "$before"
}

@test "balance -n -J refused before planning says dry_run true, and has no plan members" {
	four_on_cpu0
	printf 'garbage\n' >"$(list_of 26)"
	measure "24 1 4000" -J -n
	assert_equal "$rc" 1
	run jq -c '[.dry_run, [.failed[] | .irq], has("plan"), has("interval")]' "$out"
	assert_output '[true,[26],false,false]'
}

@test "an IRQ freed during the interval is left out with a note, and the rest is applied" {
	four_on_cpu0
	cp "$ROOT/proc/interrupts" "$BATS_TEST_TMPDIR/first"
	add_count 24 1 4000 25 1 3000 26 1 2000
	# 26's row is gone from the second read: its handler was freed
	sed -i '/^ *26:/d' "$ROOT/proc/interrupts"
	run -0 --separate-stderr irqaff balance -J -i 1 \
		--sample-from "$BATS_TEST_TMPDIR/first" \
		--sample-from "$ROOT/proc/interrupts"
	assert_equal "$stderr" 'irqaff: note: irq 26 was freed during the interval; left out of the plan'
	run jq -c '[.freed, [.plan[] | .irq], [.changed[] | [.irq, .new]]]' <<<"$output"
	assert_output '[[26],[24,25,27],[[25,"1"]]]'
	assert_equal "$(lists 24 25 26 27)" $'0\n1\n0\n1'
}

@test "quiet IRQs keep what they request, one CPU or many; a second run on the same load moves nothing" {
	make_root --cpus 4 --irq 24=a --affinity 0 --irq 25=b --affinity 0 \
		--irq 26=c --affinity 0 --irq 27=d --affinity 0 \
		--irq 28=e --affinity 0-3 --effective 3
	measure "24 1 3000 25 1 3000"
	assert_equal "$rc" 0
	assert_equal "$(lists 24 25 26 27 28)" $'1\n0\n0\n0\n0-3'
	settle_effective
	local before
	before=$(tree_sum "$ROOT/proc/irq")
	measure "24 2 3000 25 1 3000"
	assert_equal "$rc" 0
	assert_equal "$(head -n 1 "$out")" 'no IRQ to move: the busiest CPU, 0, holds irq 25 (b) at 3000.0/s, above the mean of the CPUs alone; one IRQ cannot be split'
	assert_equal "$(tree_sum "$ROOT/proc/irq")" "$before"
}

@test "quiet IRQs keep even CPUs balance may not use: isolation is isolate's to apply" {
	make_root --cpus 3 --isolated 2 --irq 24=a --affinity 2 \
		--irq 25=b --affinity 2 --irq 26=c --affinity 2 \
		--irq 27=d --affinity 2 --irq 28=e --affinity 0
	measure "28 1 1000"
	assert_equal "$rc" 0
	assert_equal "$(lists 24 25 26 27 28)" $'2\n2\n2\n2\n0'
	assert_equal "$(head -n 1 "$out")" 'no IRQ to move: the busiest CPU, 0, holds irq 28 (e) at 1000.0/s, above the mean of the CPUs alone; one IRQ cannot be split'
	# a busy one does not: it goes to a CPU balance may use
	measure "24 3 1000 28 1 1000"
	assert_equal "$rc" 0
	assert_equal "$(lists 24 25 26 27 28)" $'1\n2\n2\n2\n0'
}

@test "an rx/tx pair moves as one, its quiet partner with it; a pair that stays keeps what each requests" {
	make_root --cpus 4 --virtio-nic eth0:2 --queues
	# input.0 (25) and input.1 (27) busy on CPU 1; output.0 (26) and
	# output.1 (28) quiet, on CPUs of their own: the pair of 25 moves
	# whole, and 28 is not pinned where 27, which stays, runs
	pile_on 1 25 27
	measure "25 2 3000 27 2 3000"
	assert_equal "$rc" 0
	assert_equal "$(lists 24 25 26 27 28)" $'0-3\n0\n0\n0-3\n0-3'
	run jq -c '[.plan[] | [.irq, .reason]]' <(irqaff balance -n -J -i 1 \
		--sample-from "$BATS_TEST_TMPDIR/first" \
		--sample-from "$BATS_TEST_TMPDIR/first")
	assert_output '[[24,"keep"],[25,"keep"],[26,"keep"],[27,"keep"],[28,"keep"]]'
	# e1000e's tx-0 (28) goes with rx-0 (27); igb's combined TxRx vectors
	# and the link IRQs have no partner and stay where they run
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 4 --nic eth1:2 \
		--nic eth2:1 --driver e1000e
	pile_on 3 25 27
	measure "25 4 4000 27 4 3000"
	assert_equal "$rc" 0
	assert_equal "$(lists 24 25 26 27 28 29)" $'0-3\n0-3\n0-3\n0\n0\n0-3'
}

@test "balance calls a PCI MSI vector the kernel refuses managed, as show and spread do" {
	make_root --cpus 2 --irq 24=a --affinity 0 --chip PCI-MSI \
		--irq 25=b --affinity 0 --managed 24 --no-debugfs
	measure "24 1 1000 25 1 1000" -n -J
	assert_equal "$rc" 0
	run jq -c '[.managed, .unmovable]' "$out"
	assert_output '[[{"irq":24,"name":"a"}],[]]'
	assert_equal "$(<"$err")" 'irqaff: note: 1 kernel-managed IRQ left out of the plan'
}

@test "balance -n -J --xps shows the XPS that would follow" {
	make_root --cpus 4 --virtio-nic eth0:2 --queues
	pile_on 1 25 27
	measure "25 2 3000 27 2 3000" -n -J --xps
	assert_equal "$rc" 0
	run jq -c '[.xps[] | [.queue, .new, .result]]' "$out"
	# the pair of input.0 moves to CPU 0, and tx-0's XPS follows; tx-1's
	# IRQ is not written, nor is its XPS
	assert_output '[["tx-0","0","changed"]]'
}

# a plan by hand: its IRQ lines named as balance writes them
hand_plan() {
	printf '%s\n' "$@" >"$BATS_TEST_TMPDIR/plan"
}

refused_whole() {
	printf 'irqaff: %s/plan: a plan is applied whole or not at all: nothing written; make a new one' "$BATS_TEST_TMPDIR"
}

@test "restore checks a plan's xps lines before its first write: an unreadable xps_cpus refuses it whole, for -n and -t too" {
	make_root --cpus 4 --nic eth0:2 --xps eth0:0=0-3 --xps eth0:1=0-3
	hand_plan 'plan 0-3' '25 1 "eth0-TxRx-0"' '26 2 "eth0-TxRx-1"' \
		'xps eth0 tx-0 1' 'xps eth0 tx-1 2'
	local xps=$ROOT/sys/class/net/eth0/queues/tx-1/xps_cpus before opt
	printf 'zz\n' >"$xps"
	before=$(tree_sum)
	for opt in '' -n -t; do
		run -1 --separate-stderr irqaff restore $opt "$BATS_TEST_TMPDIR/plan"
		assert_output ''
		assert_equal "$stderr" "irqaff: xps eth0 tx-1: $xps holds \"zz\", not a CPU mask; left alone
$(refused_whole)"
		assert_equal "$(tree_sum)" "$before"
	done
	run -1 --separate-stderr irqaff restore -J "$BATS_TEST_TMPDIR/plan"
	assert_output '{"dry_run":false,"changed":[],"unchanged":0,"failed":[],"managed":[],"unmovable":[],"queues":{"changed":[],"unchanged":0,"failed":[{"dev":"eth0","queue":"tx-1","new":"2","errno":null,"error":"'"$xps"' holds \"zz\", not a CPU mask; left alone"}]},"problems":[]}'
	assert_equal "$(tree_sum)" "$before"
	# readable again: the IRQs, then the queues
	printf '0\n' >"$xps"
	run -0 --separate-stderr irqaff restore "$BATS_TEST_TMPDIR/plan"
	assert_equal "$(lists 25 26)" $'1\n2'
	assert_file "$xps" $'4\n'
}

@test "restore refuses a plan whose IRQ line would give a CPU offline or isolated outside the plan's CPUs" {
	four_on_cpu0
	# 27 holds 1,3 already: its line writes nothing, and CPU 3 is no reason
	irqaff set 27 1,3
	set_online 0-2
	hand_plan 'plan 0-2' '24 1 "a"' '25 3 "b"' '26 2-3 "c"' '27 1,3 "d"'
	local before
	before=$(tree_sum)
	run -1 --separate-stderr irqaff restore "$BATS_TEST_TMPDIR/plan"
	assert_output ''
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/plan:3: irq 25: CPU 3 is offline now
irqaff: $BATS_TEST_TMPDIR/plan:4: irq 26: CPU 3 is offline now
$(refused_whole)"
	assert_equal "$(tree_sum)" "$before"
	run -1 --separate-stderr irqaff restore -J "$BATS_TEST_TMPDIR/plan"
	assert_output '{"dry_run":false,"changed":[],"unchanged":0,"failed":[{"irq":25,"name":"b","new":"3","errno":null,"error":"CPU 3 is offline now"},{"irq":26,"name":"c","new":"2-3","errno":null,"error":"CPU 3 is offline now"}],"managed":[],"unmovable":[],"problems":[]}'
	assert_equal "$(tree_sum)" "$before"
	# online, and isolated since
	set_online 0-3
	echo 3 >"$ROOT/sys/devices/system/cpu/isolated"
	before=$(tree_sum)
	run -1 --separate-stderr irqaff restore -n "$BATS_TEST_TMPDIR/plan"
	assert_output ''
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/plan:3: irq 25: CPU 3 is isolated now (isolcpus=)
irqaff: $BATS_TEST_TMPDIR/plan:4: irq 26: CPU 3 is isolated now (isolcpus=)
$(refused_whole)"
	assert_equal "$(tree_sum)" "$before"
	# the other side: CPU 3 free again, the plan is taken
	echo >"$ROOT/sys/devices/system/cpu/isolated"
	run -0 --separate-stderr irqaff restore "$BATS_TEST_TMPDIR/plan"
	assert_equal "$(lists 24 25 26 27)" $'1\n3\n2-3\n1,3'
}

@test "restore refuses a plan whole when an IRQ of it became unmovable (EIO, EPERM), for -n and -t too" {
	four_on_cpu0
	hand_plan 'plan 0-3' '24 1 "a"' '25 2 "b"'
	local before err opt spec
	before=$(tree_sum)
	for err in EIO EPERM; do
		spec=$ROOT/proc/irq/25/smp_affinity:$err,$ROOT/proc/irq/25/smp_affinity_list:$err
		for opt in '' -n -t; do
			IRQAFF_KERNEL=1 run -1 --separate-stderr faulty "$spec" \
				irqaff restore $opt "$BATS_TEST_TMPDIR/plan"
			assert_output ''
			assert_equal "$stderr" "irqaff: irq 25: cannot set 2: it cannot be moved by user space (per-CPU or no-balancing) (refused by the kernel)
$(refused_whole)"
			assert_equal "$(tree_sum)" "$before"
		done
	done
	IRQAFF_KERNEL=1 run -1 --separate-stderr faulty "$spec" \
		irqaff restore -J "$BATS_TEST_TMPDIR/plan"
	assert_output '{"dry_run":false,"changed":[],"unchanged":0,"failed":[{"irq":25,"name":"b","new":"2","errno":null,"error":"cannot set 2: it cannot be moved by user space (per-CPU or no-balancing) (refused by the kernel)"}],"managed":[],"unmovable":[],"problems":[]}'
	assert_equal "$(tree_sum)" "$before"
}

@test "restore -t gives the answer restore gives: a plan whose file holds no CPU list is refused by both" {
	four_on_cpu0
	hand_plan 'plan 0-3' '24 1 "a"' '25 2 "b"'
	printf 'garbage\n' >"$(list_of 25)"
	local before opt
	before=$(tree_sum)
	for opt in -t -n ''; do
		run -1 --separate-stderr irqaff restore $opt "$BATS_TEST_TMPDIR/plan"
		assert_output ''
		assert_equal "$stderr" "irqaff: irq 25: $(list_of 25) holds \"garbage\", not a CPU list; left alone
$(refused_whole)"
		assert_equal "$(tree_sum)" "$before"
	done
}

@test "balance --plan warns once of a state isolate cannot use, and its plan line names no CPU for it" {
	make_root --cpus 4 --irq 24=a --affinity 0 --irq 25=b --affinity 0
	mkdir -p "$ROOT/var/lib/irqaff"
	printf '3-4\n' >"$ROOT/var/lib/irqaff/isolated"
	measure "24 1 4000 25 1 3000" -n -q --plan "$BATS_TEST_TMPDIR/plan"
	assert_equal "$rc" 0
	assert_equal "$(<"$err")" "irqaff: warning: $ROOT/var/lib/irqaff/isolated: CPU 4 is beyond the last possible CPU 3; taken as no CPU isolated by irqaff isolate"
	assert_equal "$(sed -n 3p "$BATS_TEST_TMPDIR/plan")" 'plan 0-3'
}

@test "a plan records the isolated CPUs it chose, and restore takes it while they are still isolated" {
	make_root --cpus 4 --isolated 3 --irq 24=a --affinity 0 \
		--irq 25=b --affinity 0 --irq 26=c --affinity 0
	measure "24 1 4000 25 1 3000 26 1 2000" -n -q --include-isolated \
		--plan "$BATS_TEST_TMPDIR/plan"
	assert_equal "$rc" 0
	assert_equal "$(sed -n 3p "$BATS_TEST_TMPDIR/plan")" 'plan 0-3 isolated 3'
	run -0 --separate-stderr irqaff restore -t "$BATS_TEST_TMPDIR/plan"
	run -0 --separate-stderr irqaff restore "$BATS_TEST_TMPDIR/plan"
	assert_equal "$stderr" ''
	# --cpus naming an isolated CPU by number chooses it too
	measure "24 1 4000 25 1 3000" -n -q -c 2-3 --plan "$BATS_TEST_TMPDIR/plan"
	assert_equal "$rc" 0
	assert_equal "$(sed -n 3p "$BATS_TEST_TMPDIR/plan")" 'plan 2-3 isolated 3'
	run -0 --separate-stderr irqaff restore -t "$BATS_TEST_TMPDIR/plan"
	# a CPU isolated since that the plan did not choose is refused as before
	echo 2-3 >"$ROOT/sys/devices/system/cpu/isolated"
	local before
	before=$(tree_sum)
	run -1 --separate-stderr irqaff restore "$BATS_TEST_TMPDIR/plan"
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/plan:3: CPU 2 of the plan is isolated now (isolcpus=)
$(refused_whole)"
	assert_equal "$(tree_sum)" "$before"
	# without the isolated CPUs: no field, as before
	measure "24 1 4000 25 1 3000" -n -q -c 0-1 --plan "$BATS_TEST_TMPDIR/plan"
	assert_equal "$(sed -n 3p "$BATS_TEST_TMPDIR/plan")" 'plan 0-1'
}

@test "a plan line takes \"isolated CPUS\" after its CPUs and nothing else" {
	four_on_cpu0
	local line
	for line in 'plan 0-3 isolated' 'plan 0-3 isolate 3' 'plan 0-3 "isolated" 3' \
		'plan 0-3 isolated 3 4'; do
		hand_plan "$line" '24 1 "a"'
		run -2 --separate-stderr irqaff restore -t "$BATS_TEST_TMPDIR/plan"
		assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/plan:1: a plan line is \"plan CPUS\" or \"plan CPUS isolated CPUS\""
	done
	hand_plan 'plan 0-3 isolated 9' '24 1 "a"'
	run -2 --separate-stderr irqaff restore -t "$BATS_TEST_TMPDIR/plan"
	hand_plan 'plan 0-3 isolated 3' '24 1 "a"'
	run -0 --separate-stderr irqaff restore "$BATS_TEST_TMPDIR/plan"
	assert_equal "$(lists 24)" 1
}

@test "balance exits 1 with a JSON result when the --plan file cannot be written, and writes nothing" {
	four_on_cpu0
	local before dest
	before=$(tree_sum "$ROOT/proc/irq")
	for dest in "$BATS_TEST_TMPDIR/no/such/plan" /dev/full; do
		measure "24 1 4000 25 1 3000" --plan "$dest"
		assert_equal "$rc" 1
		assert_equal "$(tail -n 1 "$err")" 'irqaff: balance: nothing written'
		assert_equal "$(tree_sum "$ROOT/proc/irq")" "$before"
		measure "24 1 4000 25 1 3000" -J --plan "$dest"
		assert_equal "$rc" 1
		run jq -c '[.dry_run, .changed, .failed, [.plan[] | .irq]]' "$out"
		assert_output '[false,[],[],[24,25,26,27]]'
		assert_equal "$(tree_sum "$ROOT/proc/irq")" "$before"
	done
}

@test "balance --xps exits 1 with a JSON result when a queue's xps_cpus cannot be read, as spread --xps does" {
	make_root --cpus 4 --nic eth0:2 --xps eth0:0=0-3 --xps eth0:1=0-3
	local xps=$ROOT/sys/class/net/eth0/queues/tx-1/xps_cpus before queues
	queues=$(realpath "$ROOT/sys/class/net/eth0/queues")
	printf 'zz\n' >"$xps"
	pile_on 0 25 26
	before=$(tree_sum "$ROOT/proc/irq")$(tree_sum "$queues")
	measure "25 1 2000 26 1 1000" --xps 25,26
	assert_equal "$rc" 1
	assert_equal "$(<"$err")" "irqaff: $xps: \"z\" is not a hex digit
irqaff: balance: nothing written"
	assert_equal "$(tree_sum "$ROOT/proc/irq")$(tree_sum "$queues")" "$before"
	measure "25 1 2000 26 1 1000" -J --xps 25,26
	assert_equal "$rc" 1
	run jq -c '[.changed, .failed, .xps]' "$out"
	assert_output '[[],[],[]]'
	assert_equal "$(tree_sum "$ROOT/proc/irq")$(tree_sum "$queues")" "$before"
	run -1 irqaff spread -q --xps 25,26
}

@test "balance -J --plan - is refused before measuring: both would be standard output" {
	four_on_cpu0
	local before
	before=$(tree_sum)
	run -2 --separate-stderr irqaff balance -J --plan - -i 1 \
		--sample-from /nonexistent --sample-from /nonexistent
	assert_output ''
	assert_equal "$stderr" 'irqaff: balance: -J and --plan - cannot share standard output; give --plan a file
usage: irqaff balance [-nvqJ] [-i seconds] [--sample-from file ...] [-c cpus] [--include-isolated] [--xps] [--plan file] [irqs]'
	assert_equal "$(tree_sum)" "$before"
	run -0 irqaff balance -n -J --plan "$BATS_TEST_TMPDIR/plan" -i 1 \
		--sample-from "$ROOT/proc/interrupts" --sample-from "$ROOT/proc/interrupts"
}

@test "restore checks a plan's default line before its first write too" {
	four_on_cpu0
	hand_plan 'plan 0-3' 'default 0-1' '24 1 "a"'
	printf 'zz\n' >"$ROOT/proc/irq/default_smp_affinity"
	local before
	before=$(tree_sum)
	run -1 --separate-stderr irqaff restore "$BATS_TEST_TMPDIR/plan"
	assert_output ''
	assert_equal "$stderr" "irqaff: default: $ROOT/proc/irq/default_smp_affinity holds \"zz\", not a CPU mask; left alone
$(refused_whole)"
	assert_equal "$(tree_sum)" "$before"
	run -1 --separate-stderr irqaff restore -J "$BATS_TEST_TMPDIR/plan"
	assert_output '{"dry_run":false,"default":{"old":null,"new":"0-1","result":"failed","errno":null,"error":"'"$ROOT"'/proc/irq/default_smp_affinity holds \"zz\", not a CPU mask; left alone"},"changed":[],"unchanged":0,"failed":[],"managed":[],"unmovable":[],"problems":[]}'
	assert_equal "$(tree_sum)" "$before"
	printf '0f\n' >"$ROOT/proc/irq/default_smp_affinity"
	run -0 --separate-stderr irqaff restore "$BATS_TEST_TMPDIR/plan"
	assert_file "$ROOT/proc/irq/default_smp_affinity" $'3\n'
	assert_equal "$(lists 24)" 1
}

# issue 52's pins: a stale plan, refused on every path, each CPU once

@test "a plan CPU both offline and isolated is said once, as offline; one only isolated beside it, as isolated" {
	four_on_cpu0
	measure "24 1 4000 25 1 3000" -n --plan "$BATS_TEST_TMPDIR/plan"
	local before
	before=$(tree_sum "$ROOT/proc/irq")
	set_online 0-2
	echo 3 >"$ROOT/sys/devices/system/cpu/isolated"
	run -1 --separate-stderr irqaff restore "$BATS_TEST_TMPDIR/plan"
	assert_output ''
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/plan:3: CPU 3 of the plan is offline now
irqaff: $BATS_TEST_TMPDIR/plan: a plan is applied whole or not at all: nothing written; make a new one"
	echo 2-3 >"$ROOT/sys/devices/system/cpu/isolated"
	run -1 --separate-stderr irqaff restore "$BATS_TEST_TMPDIR/plan"
	assert_output ''
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/plan:3: CPU 3 of the plan is offline now
irqaff: $BATS_TEST_TMPDIR/plan:3: CPU 2 of the plan is isolated now (isolcpus=)
irqaff: $BATS_TEST_TMPDIR/plan: a plan is applied whole or not at all: nothing written; make a new one"
	assert_equal "$(tree_sum "$ROOT/proc/irq")" "$before"
}

@test "restore --only refuses a plan whose CPU went offline, writing nothing, and applies the selected IRQ once it is back" {
	four_on_cpu0
	measure "24 1 4000 25 1 3000" -n --plan "$BATS_TEST_TMPDIR/plan"
	local before
	before=$(tree_sum "$ROOT/proc/irq")
	set_online 0-2
	run -1 --separate-stderr irqaff restore --only 25 "$BATS_TEST_TMPDIR/plan"
	assert_output ''
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/plan:3: CPU 3 of the plan is offline now
irqaff: $BATS_TEST_TMPDIR/plan: a plan is applied whole or not at all: nothing written; make a new one"
	assert_equal "$(tree_sum "$ROOT/proc/irq")" "$before"
	set_online 0-3
	run -0 --separate-stderr irqaff restore -v --only 25 "$BATS_TEST_TMPDIR/plan"
	assert_output 'irq 25: 0 -> 1'
	assert_equal "$stderr" ''
	assert_equal "$(lists 24 25 26 27)" $'0\n1\n0\n1'
}
