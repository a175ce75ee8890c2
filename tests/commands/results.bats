#!/usr/bin/env bats
# -J: set, spread, default, isolate and restore print one JSON object, the
# same members for every command: what changed, how many were unchanged,
# what failed (with the errno's name and the sentence of the warning) and
# what the kernel manages; check prints its differences. The warnings and
# the exit status stay as without -J.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
}

# Four CPUs and the IRQs 24 a, 25 b and 26 c, in DIR when given.
tree() {
	make_root ${1:+--dir "$1"} --cpus 4 --irq 24=a --irq 25=b --irq 26=c
}

# failed_of JSON: the failed list, one compact line, keys sorted.
failed_of() {
	jq -S -c '.failed' <<<"$1"
}

@test "each kind of failure has its errno, or null when no system call failed" {
	make_root --cpus 4 --irq 24=a --irq 25=b --irq 26=c --irq 27=
	rm "$(irq_dir 24)/smp_affinity_list" "$(irq_dir 24)/smp_affinity"
	run --separate-stderr -3 faulty "$(irq_dir 25)/smp_affinity_list:ENOSPC,$(irq_dir 26)/smp_affinity_list:drop" \
		irqaff set -J 24-27 1
	assert_equal "$(failed_of "$output")" '[{"errno":"ENOENT","error":"'"$ROOT"'/proc/irq/24/smp_affinity_list: No such file or directory","irq":24,"name":"a","new":"1"},{"errno":"ENOSPC","error":"cannot set 1: no free interrupt vectors on the target CPUs (No space left on device)","irq":25,"name":"b","new":"1"},{"errno":null,"error":"wrote 1, but '"$ROOT"'/proc/irq/26/smp_affinity_list reads back \"0-3\"","irq":26,"name":"c","new":"1"}]'
	assert_equal "$(jq -c '.changed' <<<"$output")" '[{"irq":27,"name":"","old":"0-3","new":"1"}]'
	assert_equal "${stderr_lines[0]}" "irqaff: irq 24: $ROOT/proc/irq/24/smp_affinity_list: No such file or directory"
	assert_equal "${stderr_lines[1]}" 'irqaff: irq 25: cannot set 1: no free interrupt vectors on the target CPUs (No space left on device)'
	assert_equal "${stderr_lines[2]}" "irqaff: irq 26: wrote 1, but $ROOT/proc/irq/26/smp_affinity_list reads back \"0-3\""
	assert_equal "${#stderr_lines[@]}" 3
}

@test "files that are no CPU list, a directory or a fifo fail with their own errno or null" {
	tree
	printf 'precious\n' >"$(irq_dir 24)/smp_affinity_list"
	rm "$(irq_dir 25)/smp_affinity_list"
	mkdir "$(irq_dir 25)/smp_affinity_list"
	rm "$(irq_dir 26)/smp_affinity_list"
	mkfifo "$(irq_dir 26)/smp_affinity_list"
	run --separate-stderr -1 irqaff set -J 24-26 1
	# a directory in proc/irq/25 is an action name too: not compared
	assert_equal "$(jq -c 'del(.failed[].name)' <<<"$output")" '{"dry_run":false,"changed":[],"unchanged":0,"failed":[{"irq":24,"new":"1","errno":null,"error":"'"$ROOT"'/proc/irq/24/smp_affinity_list holds \"precious\", not a CPU list; left alone"},{"irq":25,"new":"1","errno":"EISDIR","error":"'"$ROOT"'/proc/irq/25/smp_affinity_list: Is a directory"},{"irq":26,"new":"1","errno":null,"error":"'"$ROOT"'/proc/irq/26/smp_affinity_list: not a regular file; left alone"}],"managed":[],"unmovable":[]}'
	assert_equal "${#stderr_lines[@]}" 3
}

@test "without a list file, the mask file's own failure is the one named" {
	tree
	rm "$(irq_dir 25)"/smp_affinity_list "$(irq_dir 25)"/smp_affinity
	mkdir "$(irq_dir 25)/smp_affinity"
	run --separate-stderr -1 irqaff set -J 25 1
	assert_equal "$(jq -c '.failed[] | del(.name)' <<<"$output")" '{"irq":25,"new":"1","errno":"EISDIR","error":"'"$ROOT"'/proc/irq/25/smp_affinity: Is a directory"}'
	assert_equal "$stderr" "irqaff: irq 25: $ROOT/proc/irq/25/smp_affinity: Is a directory"
}

@test "each errno the kernel gives is named" {
	tree
	local e
	for e in EIO EPERM EINVAL ERANGE EBUSY EACCES ENOSPC; do
		run --separate-stderr -1 faulty "$(irq_dir 24)/smp_affinity_list:$e" \
			irqaff set -J 24 1
		assert_equal "$(jq -r '.failed[0].errno' <<<"$output")" "$e"
		assert_equal "irqaff: irq 24: $(jq -r '.failed[0].error' <<<"$output")" "$stderr"
	done
}

@test "a refusal with EIO of an IRQ not named by number is unmovable, not a failure" {
	tree
	run --separate-stderr -0 faulty "$(irq_dir 25)/smp_affinity_list:EIO" \
		irqaff set -J 'a,b' 1
	assert_output '{"dry_run":false,"changed":[{"irq":24,"name":"a","old":"0-3","new":"1"}],"unchanged":0,"failed":[],"managed":[],"unmovable":[{"irq":25,"name":"b"}]}'
	assert_equal "$stderr" 'irqaff: note: 1 IRQ that user space cannot move left alone'
}

@test "when no write can succeed, the IRQs never tried fail for the same reason" {
	command -v setpriv >/dev/null || skip "setpriv is not installed"
	[[ $(id -u) == 0 ]] || skip "needs root to drop to another user"
	local d why
	tree
	chmod -R a+rX "$BATS_TEST_TMPDIR"
	for d in "$BATS_TEST_TMPDIR/.." "$BATS_TEST_TMPDIR/../.." \
		"$BATS_RUN_TMPDIR"; do
		chmod a+x "$d"
	done
	why="cannot write $ROOT/proc/irq/24/smp_affinity_list: Permission denied; changing affinity needs root"
	run --separate-stderr -1 setpriv --reuid=65534 --regid=65534 \
		--clear-groups "$IRQAFF_BIN" --root "$ROOT" set -J all 1
	assert_output '{"dry_run":false,"changed":[],"unchanged":0,"failed":[{"irq":24,"name":"a","new":"1","errno":"EACCES","error":"'"$why"'"},{"irq":25,"name":"b","new":"1","errno":"EACCES","error":"'"$why"'"},{"irq":26,"name":"c","new":"1","errno":"EACCES","error":"'"$why"'"}],"managed":[],"unmovable":[]}'
	assert_equal "$stderr" "irqaff: irq 24: $why"
}

@test "names are JSON strings: control bytes escaped, bad UTF-8 replaced" {
	make_root --cpus 2 --irq $'24=a\033[2Jb' --irq $'25=\xffz' --irq 26=
	run --separate-stderr -0 irqaff set -J 24-26 1
	assert_output '{"dry_run":false,"changed":[{"irq":24,"name":"a\u001b[2Jb","old":"0-1","new":"1"},{"irq":25,"name":"\ufffdz","old":"0-1","new":"1"},{"irq":26,"name":"","old":"0-1","new":"1"}],"unchanged":0,"failed":[],"managed":[],"unmovable":[]}'
	run -0 jq -r '.changed[1].name' <<<"$output"
	assert_output $'\uFFFDz'
}

@test "JSON names: a backslash and 0x1f escaped; overlong forms, surrogates and code points past U+10FFFF replaced, their neighbours kept" {
	make_root --cpus 2 --irq $'24=a\\b\x1f ~\x7f' \
		--irq $'25=\xc0\xaf\xc2\xa0\xed\xa0\x80\xed\x9f\xbf' \
		--irq $'26=\xf4\x90\x80\x80\xf4\x8f\xbf\xbf\xe0\x9f\xbf\xe0\xa0\x80\xf0\x8f\xbf\xbf\xf0\x90\x80\x80'
	run --separate-stderr -0 irqaff set -J 24-26 1
	assert_output '{"dry_run":false,"changed":[{"irq":24,"name":"a\\b\u001f ~'$'\x7f''","old":"0-1","new":"1"},{"irq":25,"name":"\ufffd\ufffd'$'\xc2\xa0''\ufffd\ufffd\ufffd'$'\xed\x9f\xbf''","old":"0-1","new":"1"},{"irq":26,"name":"\ufffd\ufffd\ufffd\ufffd'$'\xf4\x8f\xbf\xbf''\ufffd\ufffd\ufffd'$'\xe0\xa0\x80''\ufffd\ufffd\ufffd\ufffd'$'\xf0\x90\x80\x80''","old":"0-1","new":"1"}],"unchanged":0,"failed":[],"managed":[],"unmovable":[]}'
	run -0 jq -r '.changed[0].name' <<<"$output"
	assert_output $'a\\b\x1f ~\x7f'
}

@test "every command's result has the common members, and jq reads it" {
	local cmd keys
	tree
	for cmd in 'set -J all 1' 'set -nJ all 2' 'spread -J all' \
		'spread -n -J all' 'default -J 1-3' 'isolate -J 0'; do
		# shellcheck disable=SC2086
		run --separate-stderr -0 irqaff $cmd
		assert_equal "${#lines[@]}" 1
		keys=$(jq -c '[keys_unsorted[] | select(. != "cpus" and . != "default" and . != "stuck" and . != "findings" and . != "pool" and . != "queues")]' <<<"$output")
		assert_equal "$keys" '["dry_run","changed","unchanged","failed","managed","unmovable"]'
	done
}

@test "-J leaves the exit status as it is without it" {
	local args want n=0 spec seen=
	for args in 'set 24-26 1' 'set 25 1' 'set 24-26 9' 'spread 24-26' \
		'isolate 3' 'spread -c 1 25' 'default 1' 'set -n 24-26 2'; do
		n=$((n + 1))
		tree "$BATS_TEST_TMPDIR/plain$n"
		spec=$(irq_dir 25)/smp_affinity_list:ENOSPC
		# shellcheck disable=SC2086
		run faulty "$spec" irqaff $args
		want=$status
		tree "$BATS_TEST_TMPDIR/json$n"
		spec=$(irq_dir 25)/smp_affinity_list:ENOSPC
		# shellcheck disable=SC2086
		run faulty "$spec" irqaff ${args%% *} -J ${args#* }
		assert_equal "$args: $status" "$args: $want"
		seen+=" $want"
	done
	assert_equal "$seen" ' 3 1 2 3 3 1 0 0'
}

@test "a lost standard output with -J is status 4 after the writes" {
	tree
	run --separate-stderr -4 bash -c 'irqaff set -J 24-26 1 >/dev/full'
	assert_equal "$stderr" 'irqaff: standard output: No space left on device'
	assert_equal "$(lists 24 25 26)" $'1\n1\n1'
}

# restore and check: eth0 (IRQ 40 "eth0", 41-43 eth0-TxRx-0..2) on 8 CPUs,
# CPU 7 offline, and a snapshot for it with a line that picks nothing.
snap_tree() {
	make_root --cpus 8 --offline 7 --nic eth0:3:0:40
	SNAP=$BATS_TEST_TMPDIR/snap
	printf '%s\n' 'default 0-3' 'eth0-TxRx-* 2' '?eth9-* 3' 'nosuch* 4' \
		'"eth0" 7' >"$SNAP"
}

@test "restore -J: the default, the changes, an offline-only set and the lines that pick nothing" {
	snap_tree
	run --separate-stderr -3 irqaff restore -J "$SNAP"
	assert_equal "$output" '{"dry_run":false,"default":{"old":"0-7","new":"0-3","result":"changed"},"changed":[{"irq":41,"name":"eth0-TxRx-0","old":"0-7","new":"2"},{"irq":42,"name":"eth0-TxRx-1","old":"0-7","new":"2"},{"irq":43,"name":"eth0-TxRx-2","old":"0-7","new":"2"}],"unchanged":0,"failed":[{"irq":40,"name":"eth0","new":"7","errno":null,"error":"CPU list \"7\": selects no online CPU"}],"managed":[],"unmovable":[],"problems":[{"line":4,"error":"\"nosuch*\" matches no IRQ"}]}'
	assert_equal "$stderr" "irqaff: $SNAP:4: \"nosuch*\" matches no IRQ
irqaff: $SNAP:5: irq 40: CPU list \"7\": selects no online CPU"
	assert_equal "$(cat "$(irq_dir 41)/smp_affinity_list")" 2
	# the second run: nothing left to change; the same two failures
	run --separate-stderr -1 irqaff restore -J "$SNAP"
	assert_equal "$(jq -c '[.default.result, .changed, .unchanged, (.failed | length), (.problems | length)]' <<<"$output")" '["unchanged",[],3,1,1]'
}

@test "restore -nJ lists what would change and writes nothing" {
	snap_tree
	sed -i '/nosuch/d; /"eth0"/d' "$SNAP"
	keep=$BATS_TEST_TMPDIR/keep
	cp -a "$ROOT" "$keep"
	run --separate-stderr -0 irqaff restore -nJ --only dev:eth0 "$SNAP"
	assert_equal "$output" '{"dry_run":true,"changed":[{"irq":41,"name":"eth0-TxRx-0","old":"0-7","new":"2"},{"irq":42,"name":"eth0-TxRx-1","old":"0-7","new":"2"},{"irq":43,"name":"eth0-TxRx-2","old":"0-7","new":"2"}],"unchanged":0,"failed":[],"managed":[],"unmovable":[],"problems":[]}'
	diff -r --no-dereference "$keep" "$ROOT"
}

@test "restore -J: a refused write is failed with its errno" {
	snap_tree
	sed -i '/nosuch/d; /"eth0"/d; /default/d' "$SNAP"
	run --separate-stderr -3 faulty "$(irq_dir 42)/smp_affinity_list:EINVAL" \
		irqaff restore -J "$SNAP"
	assert_equal "$(jq -c '.failed' <<<"$output")" '[{"irq":42,"name":"eth0-TxRx-1","new":"2","errno":"EINVAL","error":"cannot set 2: the kernel refused the CPU set (Invalid argument)"}]'
	assert_equal "$(jq -c '[.changed[].irq]' <<<"$output")" '[41,43]'
}

@test "check -J: differences, the default, what matches, and the lines that pick nothing on stderr" {
	snap_tree
	echo 1 >"$(irq_dir 43)/smp_affinity_list"
	sed -i 's/^eth0-TxRx-\* 2$/eth0-TxRx-* 0-7/' "$SNAP"
	run --separate-stderr -1 irqaff check -J "$SNAP"
	assert_equal "$output" '{"differences":[{"irq":40,"name":"eth0","current":"0-7","want":"7","managed":false,"unmovable":false},{"irq":43,"name":"eth0-TxRx-2","current":"1","want":"0-7","managed":false,"unmovable":false}],"default":{"current":"0-7","want":"0-3"},"matching":2,"failed":[],"problems":[{"line":4,"error":"\"nosuch*\" matches no IRQ"}]}'
	assert_equal "$stderr" "irqaff: $SNAP:4: \"nosuch*\" matches no IRQ"
	# and the same check as text, for comparison: problems on stdout
	run --separate-stderr -1 irqaff check "$SNAP"
	assert_equal "$output" "$SNAP:4: \"nosuch*\" matches no IRQ
default: 0-7 (want 0-3)
irq 40 eth0: 0-7 (want 7)
irq 43 eth0-TxRx-2: 1 (want 0-7)"
}

@test "check -J on a machine that matches" {
	snap_tree
	printf '%s\n' 'eth0-TxRx-* 0-7' >"$SNAP"
	run --separate-stderr -0 irqaff check -J "$SNAP"
	assert_equal "$output" '{"differences":[],"matching":3,"failed":[],"problems":[]}'
	assert_equal "$stderr" ""
}

@test "every -J prints one JSON object a line: JSON Lines, one a sample with -c" {
	local snap=$BATS_TEST_TMPDIR/snap cmd n bad=
	make_root --cpus 8 --nodes 2 --nic eth0:4 --nvme nvme0:2 --queues \
		--xps eth0:0=1 --rps eth0:0=2
	irqaff save -o "$snap"
	# COMMAND|OBJECTS: in an order in which each has something to say
	while IFS='|' read -r cmd n; do
		# shellcheck disable=SC2086 # cmd is a command and its options
		run --separate-stderr irqaff $cmd
		if ((status > 1)) || ((${#lines[@]} != n)) ||
			! python3 -c 'import json,sys
objs = [json.loads(l) for l in sys.stdin]
assert all(isinstance(o, dict) for o in objs)' <<<"$output"; then
			bad+=$'\n'"$cmd: status $status, ${#lines[@]} lines: $output"
		fi
	done <<-EOF
		show -J|1
		show -J -i 0.01 -c 3|3
		show -J cpu:7|1
		cpus -J|1
		cpus -J -i 0.01 -c 2|2
		queues -J|1
		explain -J|1
		explain -J -v|1
		isolate -J -n 3|1
		isolate -J 3|1
		isolate -J --check 3|1
		set -J -n 24 1|1
		set -J 24 1|1
		default -J -n 0-2|1
		default -J 0-3|1
		spread -J -n eth0-*|1
		spread -J eth0-*|1
		spread -J --xps eth0-*|1
		balance -J -n -i 0.01|1
		balance -J -i 0.01|1
		check -J $snap|1
		restore -J -n $snap|1
		restore -J $snap|1
		check -J $snap|1
	EOF
	assert_equal "$bad" ""
}
