#!/usr/bin/env bats
# Every -J output validates against its schema in schemas/ (issue 50):
# each command on trees with the odd cases (managed, unmovable, offline
# CPUs, unknown sets, empty selections, failures, dry runs), so that no
# key holds two types.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	load ../test_helper/queues
}

# valid SCHEMA: $output is one or more JSON lines SCHEMA accepts.
valid() {
	local out=$output
	run --separate-stderr "$TESTS/schema-check" "$1" <<<"$out"
	if [ "$status" -ne 0 ]; then
		# shellcheck disable=SC2154 # run --separate-stderr sets it
		echo "$stderr" >&2
		echo "$out" >&2
		return 1
	fi
}

# A tree with every kind of IRQ: a managed one, an unmovable one, a
# pending one with a hint, an offline CPU and a device with queues.
odd_tree() {
	make_root --cpus 8 --nodes 2 --offline 7 --nic eth0:4 --queues \
		--xps eth0:0=0-3 --rps eth0:1=4-5 --nvme nvme0:2 \
		--irq 0=timer --unmovable 0 --irq 9=acpi --hint 1 --pending 9 \
		--managed 29 "$@"
}

ALL=irq,affinity,effective,node,total,name,hint,online,chip,hwirq,type,flow,device,managed,movable,pending,stuck,thread,thread-cpus

@test "the checker refuses a key of the wrong type, 1.0 as an integer and an extra key" {
	run -1 --separate-stderr "$TESTS/schema-check" cpus <<<'{"cpus":[{"cpu":1.0}]}'
	assert_equal "$stderr" "line 1: /cpus/0/cpu: 1.0 is not of type 'integer'"
	run -1 --separate-stderr "$TESTS/schema-check" default <<<'{"default":"0-3","x":1}'
	assert_equal "$stderr" "line 1: /: Additional properties are not allowed ('x' was unexpected)"
	run -1 --separate-stderr "$TESTS/schema-check" default <<<'{"default":3}'
	assert_equal "$stderr" "line 1: /default: 3 is not of type 'string'"
	run -0 "$TESTS/schema-check" default <<<'{"default":"0-3"}'
	run -2 "$TESTS/schema-check" default </dev/null
}

@test "every schema is a draft 2020-12 schema, and the checker says when one is not" {
	local f n=0
	for f in "$TESTS"/../schemas/*.json; do
		run -0 jq -r '.["$schema"]' "$f"
		assert_output https://json-schema.org/draft/2020-12/schema
		# each loads, and wants an object
		run -1 --separate-stderr "$TESTS/schema-check" "$f" <<<'"x"'
		assert_equal "$stderr" "line 1: /: 'x' is not of type 'object'"
		n=$((n + 1))
	done
	assert_equal "$n" 12
	f=$BATS_TEST_TMPDIR/bad.json
	echo '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"nosuch"}' >"$f"
	run -2 --separate-stderr "$TESTS/schema-check" "$f" <<<'{}'
	assert_equal "${stderr%%:*}" "$f"
}

@test "IRQAFF_SCHEMA_CHECK: a -J output its schema refuses is logged, the status kept" {
	local fake=$BATS_TEST_TMPDIR/fake log=$BATS_TEST_TMPDIR/log
	printf '#!/bin/sh\necho "$OUT"\nexit 3\n' >"$fake"
	chmod +x "$fake"
	export IRQAFF_SCHEMA_REAL=$fake IRQAFF_SCHEMA_CHECK=$log
	OUT='{"default":"0-1"}' run -3 "$TESTS/schema-irqaff" default -J
	assert_output '{"default":"0-1"}'
	OUT='{"dry_run":false}' run -3 "$TESTS/schema-irqaff" --root / set -J 1 0
	OUT='{"interrupts":[]}' run -3 "$TESTS/schema-irqaff" show
	assert_file "$log" "irqaff --root / set -J 1 0: result
line 1: /: 'changed' is a required property
line 1: /: 'unchanged' is a required property
line 1: /: 'failed' is a required property
line 1: /: 'managed' is a required property
line 1: /: 'unmovable' is a required property
"
}

@test "show -J: every column, unknown sets, masks, samples and no match" {
	odd_tree --no-effective
	run -0 --separate-stderr irqaff show -J
	valid show
	run -0 --separate-stderr irqaff show -J -o "$ALL"
	valid show
	run -0 --separate-stderr irqaff show -J -m -o "$ALL"
	valid show
	run -0 --separate-stderr irqaff show -J -o "+rate" -c 2 -i 0.01
	valid show
	run -1 --separate-stderr irqaff show -J nomatch
	assert_output '{"interrupts":[]}'
	valid show
}

@test "cpus -J: counts, and rates with -i; an offline CPU" {
	odd_tree
	run -0 --separate-stderr irqaff cpus -J
	valid cpus
	run -0 --separate-stderr irqaff cpus -J -c 2 -i 0.01
	valid cpus
	# a count is an integer, a rate a number: not the same schema
	run -0 --separate-stderr irqaff cpus -J
	run -1 "$TESTS/schema-check" cpus <<<"$(jq -c '.interval = 1 | .time = "2026-01-01T00:00:00Z"' <<<"$output")"
	# "system" holds counts, "system_rate" rates, each in its own mode
	run -1 "$TESTS/schema-check" cpus <<<'{"cpus":[{"system":{"LOC":1.5}}]}'
	run -1 "$TESTS/schema-check" cpus <<<'{"cpus":[{"system_rate":{"LOC":1.5}}]}'
	run -1 "$TESTS/schema-check" cpus <<<'{"time":"2026-01-01T00:00:00Z","interval":1,"cpus":[{"system":{"LOC":1}}]}'
	run -0 "$TESTS/schema-check" cpus <<<'{"time":"2026-01-01T00:00:00Z","interval":1,"cpus":[{"system_rate":{"LOC":1.5,"RES":null}}]}'
	run -0 "$TESTS/schema-check" cpus <<<'{"cpus":[{"system":{"LOC":1,"RES":null}}]}'
}

@test "queues -J and explain -J" {
	odd_tree
	run -0 --separate-stderr irqaff queues -J
	valid queues
	run --separate-stderr irqaff explain -J
	valid explain
	run --separate-stderr irqaff explain -J 9
	valid explain
}

@test "set, spread and default -J: dry runs, changes, managed and unmovable IRQs, a pool" {
	odd_tree
	run -0 --separate-stderr irqaff set -J -n all 2
	valid result
	run --separate-stderr irqaff set -J 0,9,29 1
	valid result
	run -0 --separate-stderr irqaff spread -J -n dev:eth0
	valid result
	run -0 --separate-stderr irqaff spread -J --xps dev:eth0
	valid result
	run -0 --separate-stderr irqaff default -J 0-3
	valid result
	run -0 --separate-stderr irqaff default -J
	valid default
}

@test "set -J: failures with and without an errno, and a refused layout" {
	make_root --cpus 4 --irq 24=a --irq 25=b --irq 26=c --irq 27=
	rm "$(irq_dir 24)/smp_affinity_list" "$(irq_dir 24)/smp_affinity"
	run -3 --separate-stderr faulty "$(irq_dir 25)/smp_affinity_list:ENOSPC,$(irq_dir 26)/smp_affinity_list:drop" \
		irqaff set -J 24-27 1
	valid result
	make_root --dir "$BATS_TEST_TMPDIR/two" --cpus 2 --nvme nvme0:9 --vectors 9
	run -1 --separate-stderr irqaff set -J all 0
	run jq -c '.vectors' <<<"$output"
	assert_output '{"cpus":"0","irqs":5,"free":4,"exact":true}'
	run -1 --separate-stderr irqaff set -J all 0
	valid result
}

@test "xps -J and rps -J: changes, dry runs and a failure" {
	odd_tree
	run -0 --separate-stderr irqaff xps -J -n eth0 0-3
	valid queue-result
	run -0 --separate-stderr irqaff rps -J eth0 0-1
	valid queue-result
	run -3 --separate-stderr faulty "$(realpath "$(queue_file eth0 rx-1 rps_cpus)"):EINVAL" \
		irqaff rps -J eth0 2
	valid queue-result
}

@test "balance -J: a plan, and no move" {
	make_root --cpus 2 --irq 24=a --affinity 0 --irq 25=b --affinity 0
	snapshot_interrupts "$BATS_TEST_TMPDIR/first"
	add_count 24 1 3000 25 1 1000
	run -0 --separate-stderr irqaff balance -J -n -i 1 --sample-from "$BATS_TEST_TMPDIR/first" \
		--sample-from "$ROOT/proc/interrupts"
	valid balance
	run -0 --separate-stderr irqaff balance -J -n -i 1 --sample-from "$ROOT/proc/interrupts" \
		--sample-from "$ROOT/proc/interrupts"
	valid balance
}

@test "balance -J refused before a plan has only the members of every result" {
	make_root --cpus 2 --irq 24=a --affinity 0 --irq 25=b --affinity 0
	printf 'garbage\n' >"$(list_of 25)"
	run -1 --separate-stderr irqaff balance -J -n -i 1 \
		--sample-from "$ROOT/proc/interrupts" --sample-from "$ROOT/proc/interrupts"
	local doc=$output
	valid balance
	# one plan member without the others is refused
	run -1 "$TESTS/schema-check" balance <<<"$(jq -c '.freed = []' <<<"$doc")"
}

@test "balance -J on a tree with managed, unmovable and offline CPUs" {
	odd_tree
	run -0 --separate-stderr irqaff balance -J -i 0.01
	valid balance
}

@test "isolate -J and isolate --check -J: stuck IRQs, findings, threads" {
	odd_tree --irq-thread 9
	run -0 --separate-stderr irqaff isolate -J -n 0-1
	valid isolate
	run -0 --separate-stderr irqaff isolate -J 0-1
	valid isolate
	run --separate-stderr irqaff isolate --check -J 0-1
	valid isolate-check
	run --separate-stderr irqaff isolate --check -J 6
	valid isolate-check
}

@test "check -J and restore -J: differences, the default, queues and problems" {
	odd_tree
	irqaff save >"$BATS_TEST_TMPDIR/snap"
	run -0 --separate-stderr irqaff check -J "$BATS_TEST_TMPDIR/snap"
	valid check
	printf '%s\n' 'default 2' 'xps eth0 tx-0 3' '99 1' 'xps eth2 tx-0 1' >>"$BATS_TEST_TMPDIR/snap"
	irqaff set 24 5
	run --separate-stderr irqaff check -J "$BATS_TEST_TMPDIR/snap"
	valid check
	run --separate-stderr irqaff restore -J -n "$BATS_TEST_TMPDIR/snap"
	valid restore
	run --separate-stderr irqaff restore -J "$BATS_TEST_TMPDIR/snap"
	valid restore
	rm "$(irq_dir 25)/smp_affinity_list" "$(irq_dir 25)/smp_affinity"
	run --separate-stderr irqaff check -J "$BATS_TEST_TMPDIR/snap"
	assert_equal "$(jq -c '.failed[0].errno' <<<"$output")" '"ENOENT"'

	valid check
}
