#!/usr/bin/env bats
# irqaff check: each difference between a snapshot and the tree, by name
# or by number, exit 0 when they agree, and malformed files refused.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	load ../test_helper/snapshot
}

@test "irqaff save | irqaff check - exits 0 and prints nothing" {
	save_layout
	run --separate-stderr bash -c 'irqaff save | irqaff check -'
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
}

@test "check prints each difference and exits 1" {
	save_layout
	renumbered
	run --separate-stderr irqaff check "$SNAP"
	assert_failure 1
	assert_equal "$stderr" ""
	assert_output - <<'EOF'
default: 0-7 (want 0-3)
irq 40 nvme0q0: 0-7 (want 4)
irq 41 nvme0q1: 0-7 (want 5-6)
irq 61 eth0-TxRx-0: 0-7 (want 1)
irq 62 eth0-TxRx-1: 0-7 (want 2-3)
EOF
}

@test "check --by-number compares numbers and reports the missing ones" {
	save_layout
	renumbered
	run --separate-stderr irqaff check --by-number "$SNAP"
	assert_failure 1
	# the lines matched to IRQs with other names now are noted
	assert_equal "$stderr" "irqaff: note: $SNAP:4: IRQ 40 is \"nvme0q0\" here, \"eth0\" in the snapshot; matched by its number (--by-number)
irqaff: note: $SNAP:5: IRQ 41 is \"nvme0q1\" here, \"eth0-TxRx-0\" in the snapshot; matched by its number (--by-number)
irqaff: note: $SNAP:6: IRQ 42 is \"nvme0q2\" here, \"eth0-TxRx-1\" in the snapshot; matched by its number (--by-number)"
	assert_output - <<EOF
$SNAP:7: IRQ 43 does not exist
$SNAP:8: IRQ 50 does not exist
$SNAP:9: IRQ 51 does not exist
$SNAP:10: IRQ 52 does not exist
default: 0-7 (want 0-3)
irq 41 nvme0q1: 0-7 (want 1)
irq 42 nvme0q2: 0-7 (want 2-3)
EOF
}

@test "check exits 0 after a restore, and writes nothing" {
	save_layout
	renumbered
	irqaff restore "$SNAP"
	before=$(tree_sum)
	run --separate-stderr irqaff check "$SNAP"
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	assert_equal "$(tree_sum)" "$before"
}

@test "check reports one changed IRQ by number and names" {
	tree
	irqaff save -o "$SNAP"
	irqaff set 43 4
	run --separate-stderr irqaff check "$SNAP"
	assert_failure 1
	assert_output 'irq 43 eth0-TxRx-2: 4 (want 0-7)'
}

@test "check prints an IRQ with no name as irq N, no blank before the colon" {
	make_root --cpus 4 --irq 9 --affinity 1 --irq 10=eth0 --affinity 1
	printf '9 2\n10 3 "eth0"\n' >"$SNAP"
	run --separate-stderr -1 irqaff check "$SNAP"
	assert_output $'irq 9: 1 (want 2)\nirq 10 eth0: 1 (want 3)'
	assert_equal "$stderr" ""
}

@test "an IRQ or a default that check cannot read is a difference: status 1" {
	tree
	irqaff save -o "$SNAP"
	keep_tree
	rm "$(irq_dir 42)/smp_affinity_list" "$(irq_dir 42)/smp_affinity"
	run --separate-stderr -1 irqaff check "$SNAP"
	assert_output ""
	assert_equal "$stderr" "irqaff: $ROOT/proc/irq/42/smp_affinity: No such file or directory"
	# -J: its errno, and null for a file that holds no CPU list
	printf 'precious\n' >"$(irq_dir 43)/smp_affinity_list"
	run --separate-stderr -1 irqaff check -J "$SNAP"
	assert_output '{"differences":[],"matching":5,"failed":[{"irq":42,"name":"eth0-TxRx-1","errno":"ENOENT","error":"'"$ROOT"'/proc/irq/42/smp_affinity: No such file or directory"},{"irq":43,"name":"eth0-TxRx-2","errno":null,"error":"'"$ROOT"'/proc/irq/43/smp_affinity_list: region \"precious\": \"precious\" is not a number"}],"problems":[]}'
	# the default alone, every IRQ as saved
	rm -rf "$ROOT"
	cp -a "$BATS_TEST_TMPDIR/kept" "$ROOT"
	printf 'zz\n' >"$ROOT/proc/irq/default_smp_affinity"
	run --separate-stderr -1 irqaff check "$SNAP"
	assert_output ""
	assert_equal "$stderr" "irqaff: $ROOT/proc/irq/default_smp_affinity: \"z\" is not a hex digit"
	# and the other side: all readable, no difference
	cp "$BATS_TEST_TMPDIR/kept/proc/irq/default_smp_affinity" "$ROOT/proc/irq"
	run --separate-stderr -0 irqaff check "$SNAP"
	assert_output ""
}

@test "a CPU set that selects no CPU is malformed" {
	tree
	printf 'eth0 0x0\n' >"$SNAP"
	run --separate-stderr irqaff check "$SNAP"
	assert_failure 2
	assert_equal "$stderr" "irqaff: $SNAP:1: CPU mask \"0x0\": selects no CPU"
}

@test "check --only compares the selected IRQs and not the default" {
	tree
	irqaff save -o "$SNAP"
	irqaff set 41 5
	irqaff set 51 6
	irqaff default 1
	run --separate-stderr irqaff check --only dev:eth0 "$SNAP"
	assert_failure 1
	assert_equal "$stderr" ""
	assert_output 'irq 41 eth0-TxRx-0: 5 (want 0-7)'
	run --separate-stderr irqaff check --only 50,52 "$SNAP"
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	run --separate-stderr irqaff check "$SNAP"
	assert_failure 1
	assert_output - <<'EOF2'
default: 1 (want 0-7)
irq 41 eth0-TxRx-0: 5 (want 0-7)
irq 51 nvme0q1: 6 (want 0-7)
EOF2
}

@test "check --only reports the problems of the selected IRQs only" {
	tree
	printf 'eth9-* 1\n99 2\n40 1\n?eth2-* 3\neth0-TxRx-* 0-7\n' >"$SNAP"
	run --separate-stderr irqaff check --only eth0-TxRx-* "$SNAP"
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	run --separate-stderr irqaff check --only 40 "$SNAP"
	assert_failure 1
	assert_equal "$stderr" ""
	assert_output "$SNAP:3: IRQ 40 has no name in the snapshot but is \"eth0\" here; give its name or use --by-number"
	run --separate-stderr irqaff check "$SNAP"
	assert_failure 1
	assert_output - <<EOF2
$SNAP:1: "eth9-*" matches no IRQ
$SNAP:2: IRQ 99 does not exist
$SNAP:3: IRQ 40 has no name in the snapshot but is "eth0" here; give its name or use --by-number
EOF2
}

@test "check compares each queue line: differences before, none after restore" {
	queue_tree
	irqaff save -o "$SNAP"
	run --separate-stderr irqaff check "$SNAP"
	assert_success
	assert_output ""
	printf '3\n' >"$(qfile eth0 tx-0)"
	printf 'f\n' >"$(qfile eth0 rx-1)"
	printf '0\n' >"$(qfile eth1 rx-0)"
	keep_tree
	run --separate-stderr irqaff check "$SNAP"
	assert_failure 1
	assert_equal "$stderr" ""
	assert_output - <<'EOF2'
xps eth0 tx-0: 0-1 (want 0-3)
rps eth0 rx-1: 0-3 (want none)
rps eth1 rx-0: none (want 3)
EOF2
	run --separate-stderr irqaff check -J "$SNAP"
	assert_failure 1
	assert_output '{"differences":[],"matching":5,"failed":[],"queues":{"differences":[{"dev":"eth0","queue":"tx-0","current":"0-1","want":"0-3"},{"dev":"eth0","queue":"rx-1","current":"0-3","want":""},{"dev":"eth1","queue":"rx-0","current":"","want":"3"}],"matching":2,"failed":[]},"problems":[]}'
	run --separate-stderr irqaff check --only dev:eth1 "$SNAP"
	assert_failure 1
	assert_output 'rps eth1 rx-0: none (want 3)'
	run changed_files
	assert_output ""
	irqaff restore "$SNAP"
	run --separate-stderr irqaff check "$SNAP"
	assert_success
	assert_output ""
}

@test "check: a missing queue is a problem unless ?, a mask it cannot read a failure" {
	queue_tree
	printf '?xps eth2 tx-0 1\nrps eth0 rx-9 1\nxps eth0 tx-1 1\n' >"$SNAP"
	run --separate-stderr irqaff check "$SNAP"
	assert_failure 1
	assert_equal "$stderr" ""
	assert_output "$SNAP:2: rps eth0 rx-9: no such queue"
	printf 'zz\n' >"$(qfile eth0 tx-1)"
	run --separate-stderr irqaff check -J "$SNAP"
	assert_failure 1
	assert_equal "$stderr" "irqaff: $SNAP:2: rps eth0 rx-9: no such queue
irqaff: xps eth0 tx-1: $(qfile eth0 tx-1): \"z\" is not a hex digit"
	assert_output "{\"differences\":[],\"matching\":0,\"failed\":[],\"queues\":{\"differences\":[],\"matching\":0,\"failed\":[{\"dev\":\"eth0\",\"queue\":\"tx-1\",\"errno\":\"EINVAL\",\"error\":\"xps eth0 tx-1: $(qfile eth0 tx-1): \\\"z\\\" is not a hex digit\"}]},\"problems\":[{\"line\":2,\"error\":\"rps eth0 rx-9: no such queue\"}]}"
	# the mask it cannot read alone: a difference all the same
	printf 'xps eth0 tx-1 1\n' >"$SNAP"
	run --separate-stderr -1 irqaff check "$SNAP"
	assert_output ""
	assert_equal "$stderr" "irqaff: xps eth0 tx-1: $(qfile eth0 tx-1): \"z\" is not a hex digit"
	printf '2\n' >"$(qfile eth0 tx-1)"
	run --separate-stderr -0 irqaff check "$SNAP"
	assert_output ""
}

@test "check -q prints nothing: the exit status is the answer" {
	save_layout
	run --separate-stderr -0 irqaff check -q "$SNAP"
	assert_output ""
	assert_equal "$stderr" ""
	renumbered
	printf '99 1\n' >>"$SNAP"
	# differences and a line that matches no IRQ: status 1, said by -J only
	run --separate-stderr -1 irqaff check --quiet "$SNAP"
	assert_output ""
	assert_equal "$stderr" ""
	run --separate-stderr -1 irqaff check "$SNAP"
	[ "${#lines[@]}" -ge 2 ]
	run --separate-stderr -1 irqaff check -q -J "$SNAP"
	assert_equal "$(jq -c '.problems' <<<"$output")" '[{"line":11,"error":"IRQ 99 does not exist"}]'
	# -q does nothing to -J: its warnings beside the object as well
	assert_equal "$stderr" "irqaff: $SNAP:11: IRQ 99 does not exist"
	# a queue that differs, one that cannot be read
	queue_tree --dir "$BATS_TEST_TMPDIR/q"
	printf 'xps eth0 tx-1 3\nrps eth0 rx-0 2-3\n' >"$SNAP"
	run --separate-stderr -1 irqaff check -q "$SNAP"
	assert_output ""
	assert_equal "$stderr" ""
	printf 'zz\n' >"$(qfile eth0 tx-1)"
	run --separate-stderr -1 irqaff check -q "$SNAP"
	assert_output ""
	assert_equal "$stderr" "irqaff: xps eth0 tx-1: $(qfile eth0 tx-1): \"z\" is not a hex digit"
	# bad input is still said, and status 2
	printf '41 1-\n' >"$SNAP"
	run --separate-stderr -2 irqaff check -q "$SNAP"
	assert_output ""
	assert_equal "$stderr" "irqaff: $SNAP:1: CPU list \"1-\": region \"1-\" ends where a number should be"
}

@test "check says what a queue line wants and which of its CPUs are offline" {
	rm -rf "$ROOT"
	make_root --cpus 8 --nic eth0:2 --queues --offline 5 --xps eth0:1=2-3
	printf 'xps eth0 tx-1 5\nxps eth0 tx-0 4-5\n' >"$BATS_TEST_TMPDIR/q"
	run -1 --separate-stderr irqaff check "$BATS_TEST_TMPDIR/q"
	assert_output 'xps eth0 tx-0: none (want 4-5, but CPU 5 offline: 4 kept)
xps eth0 tx-1: 2-3 (want 5, but CPU 5 offline: none kept)'
	# -J: want is what the kernel keeps, as restore writes it
	run -1 --separate-stderr irqaff check -J "$BATS_TEST_TMPDIR/q"
	assert_output '{"differences":[],"matching":0,"failed":[],"queues":{"differences":[{"dev":"eth0","queue":"tx-0","current":"","want":"4"},{"dev":"eth0","queue":"tx-1","current":"2-3","want":""}],"matching":0,"failed":[]},"problems":[]}'
	# the other side: every CPU wanted is online, the line as before
	printf 'xps eth0 tx-1 4\n' >"$BATS_TEST_TMPDIR/q"
	run -1 --separate-stderr irqaff check "$BATS_TEST_TMPDIR/q"
	assert_output 'xps eth0 tx-1: 2-3 (want 4)'
}
