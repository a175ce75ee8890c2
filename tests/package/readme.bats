#!/usr/bin/env bats
# The README's examples run as shown: on a tree with an igb-style NIC and
# on one with a virtio NIC, each example exits as the README implies and
# no selector matches nothing; on the igb-style tree, the examples of the
# first two blocks print exactly what the README shows.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	README=$BATS_TEST_DIRNAME/../../README.md
}

# The README's examples: for each "    $ irqaff ..." line of an indented
# block, "B<TAB>COMMAND" where B numbers the block, then its output lines
# as ">LINE".
examples() {
	awk '
		/^    \$ irqaff / { if (!inblock) { block++; inblock = 1 }
			print block "\t" substr($0, 7); out = 1; next }
		/^    / && out { print ">" substr($0, 5); next }
		{ out = 0 }
		/^$/ || !/^    / { inblock = 0 }
	' "$README"
}

# A tree like the README's machine: 64 CPUs on two nodes, CPUs 2-3
# isolated, an NVMe controller with kernel-managed queues; $1 the NIC.
readme_tree() {
	rm -rf "$BATS_TEST_TMPDIR/root"
	case $1 in
	igb) make_root --cpus 64 --nodes 2 --isolated 2-3 --nohz-full 2-3 \
		--nic eth0:2:1:40 --nvme nvme0:4:1:50 --managed 50-54 --queues ;;
	virtio) make_root --cpus 64 --nodes 2 --isolated 2-3 --nohz-full 2-3 \
		--virtio-nic eth0:2:1:40 --nvme nvme0:4:1:50 --managed 50-54 \
		--queues ;;
	esac
}

# Runs every example on a fresh tree of kind $1 per block; $2 "exact"
# compares the output of blocks 1 and 2 with the README.
run_examples() {
	local kind=$1 exact=$2 line block=0 b cmd='' failed='' n=0
	local -a cmds=() blocks=() wants=()
	while IFS= read -r line; do
		if [[ $line == '>'* ]]; then
			wants[${#cmds[@]} - 1]+=${line#>}$'\n'
		else
			blocks+=("${line%%$'\t'*}")
			cmds+=("${line#*$'\t'}")
			wants+=("")
		fi
	done < <(examples)
	mkdir -p "$BATS_TEST_TMPDIR/cwd"
	for ((n = 0; n < ${#cmds[@]}; n++)); do
		cmd=${cmds[n]} b=${blocks[n]}
		((b == block)) || readme_tree "$kind"
		block=$b
		local got rc=0 err=$BATS_TEST_TMPDIR/stderr
		got=$(cd "$BATS_TEST_TMPDIR/cwd" && bash -c "$cmd" 2>"$err") ||
			rc=$?
		# isolate --check answers with its status; the rest succeed
		if ((rc != 0)) && ! [[ $rc == 1 && $cmd == *'isolate --check'* ]]; then
			failed+=$'\n'"$kind: $cmd: exit $rc: $(cat "$err")"
		fi
		if grep -qE 'matches no IRQ|does not exist|has no IRQs' "$err"; then
			failed+=$'\n'"$kind: $cmd: $(cat "$err")"
		fi
		if [[ $exact == exact ]] && ((b <= 2)) &&
			[[ $got$'\n' != "${wants[n]}" ]]; then
			failed+=$'\n'"$kind: $cmd printed:"$'\n'"$got"
			failed+=$'\n'"the README shows:"$'\n'"${wants[n]}"
		fi
	done
	printf '%s\n' "${#cmds[@]}"
	[[ -z $failed ]] || printf '%s\n' "$failed"
}

@test "the README has the examples this test runs" {
	run examples
	assert_success
	# every "$ irqaff" line is one example
	assert_equal "$(grep -c $'^[0-9]*\t' <<<"$output")" \
		"$(grep -c '^    \$ irqaff ' "$README")"
	assert_line --index 0 $'1\tirqaff show dev:eth0'
	# the blocks compared exactly: the first examples, and set -J
	assert_equal "$(grep -c $'^[12]\t' <<<"$output")" 9
}

@test "the README's examples run on an igb-style NIC and print what it shows" {
	run run_examples igb exact
	assert_output "$(grep -c '^    \$ irqaff ' "$README")"
}

@test "the README's examples run on a virtio NIC" {
	run run_examples virtio -
	assert_output "$(grep -c '^    \$ irqaff ' "$README")"
}
