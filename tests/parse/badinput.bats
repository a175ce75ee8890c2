#!/usr/bin/env bats
# Bad input: every command that takes an IRQ list or a CPU set refuses
# each malformed value with exit 2 and one "irqaff: " line on standard
# error, prints nothing, and leaves every file of the tree as it was. A
# well-formed IRQ list that matches nothing is refused the same way but
# with exit 1, as grep exits 1 when nothing matches.
# Values go after "--", so those starting with "-" are operands too.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	make_root --cpus 4 --legacy 16 --nic eth0:2
	long_number=$(printf '9%.0s' {1..10000})
	long_word=$(printf 'x%.0s' {1..10000})
	# Bad as a CPU list, a CPU mask and an IRQ list alike.
	BAD=('99999999999999999999' '-0' '+1' '0x' '0xg' '1--2' '1-2-3'
		'3-1' '0-7:0/0' '0-7:9/8' '-v' "$long_number" "$long_word"
		$'\xff' $'caf\xc3\xa9' $'0\x01')
	# Empty and blank: bad everywhere but in mask and list, where the
	# kernel reads them as the empty set.
	BLANK=('' ' ' $'\t' '  ,  ')
	# Malformed as an IRQ list: exit 2.
	BAD_IRQS=('99999999999999999999' '-0' '1--2' '1-2-3' '3-1'
		"$long_number" '' 'dev:' '24,,25')
	# Well formed (numbers, ranges, globs, dev:) but matching nothing:
	# exit 1. (Blank items of a list would each get a line: "  ,  " is
	# left out.)
	NONE_IRQS=('+1' '0x' '0xg' '0-7:0/0' '0-7:9/8' '-v' "$long_word"
		$'\xff' $'caf\xc3\xa9' $'0\x01' ' ' $'\t' '9999' '16-23'
		'nosuch*' 'dev:nosuch' '0,9999' '24,9999')
	# an empty item or a blank, which the kernel's grammar lets pass in
	# a file, is refused in an operand as "show 24," is
	BAD_CPUS=("${BAD[@]}" "${BLANK[@]}" '4' '0-4' 'node:7' 'node:x'
		'0,node:7' '1,' ',1' '1,,2' '1 2' $'1\t2' ' 1' 'node:0,' '0x3,')
	TREE=$(tree_sum)
}

# refused VALUE ARGS...: irqaff ARGS... (which hold VALUE) exits 2,
# prints nothing on standard output and one line on standard error that
# starts "irqaff: ", names VALUE (or its last item) when it is short and
# printable ASCII, and is cut short when it is long.
refused() {
	local value=$1 why='' LC_ALL=C
	shift
	run --separate-stderr irqaff "$@"
	if ((status != ${WANT_STATUS:-2})); then
		why="exit status $status"
	elif [[ -n $output ]]; then
		why="standard output"
	elif ((${#stderr_lines[@]} != 1)) || [[ $stderr == *$'\n'* ]]; then
		why="not one line on standard error"
	elif [[ $stderr != 'irqaff: '* ]]; then
		why="no \"irqaff: \" prefix"
	elif ((${#stderr} > 400)); then
		why="a message of ${#stderr} bytes"
	elif [[ $value =~ ^[[:graph:]]{1,60}$ && $stderr != *"$value"* &&
		$stderr != *"${value##*,}"* ]]; then
		why="the message does not name the value"
	fi
	if [[ -n $why ]]; then
		printf 'irqaff %s: %s\n' "$(printf '%q ' "$@" | cut -c1-200)" "$why"
		printf 'stdout: %q\nstderr: %q\n' "$output" "${stderr:0:400}"
		return 1
	fi
}

# unchanged: every file of the tree is byte for byte as setup made it.
unchanged() {
	if [[ $(tree_sum) != "$TREE" ]]; then
		echo "the tree changed"
		return 1
	fi
}

# refuses VALUE ARGS...: refused, and the tree is unchanged.
refuses() {
	refused "$@" && unchanged
}

# refuses_each VALUES ARGS...: refused for every VALUE of the array named
# VALUES, put in place of the "@" among ARGS; then the tree is unchanged
# (one tree_sum for the lot: nothing restores a file, so any write shows).
refuses_each() {
	local -n values=$1
	local v a n=0
	local -a args
	shift
	for v in "${values[@]}"; do
		args=()
		for a in "$@"; do
			if [[ $a == @ ]]; then
				args+=("$v")
			else
				args+=("$a")
			fi
		done
		refused "$v" "${args[@]}" || return
		n=$((n + 1))
	done
	((n == ${#values[@]} && n > 0)) && unchanged
}

@test "the tree is one that set, show and default accept" {
	run -0 irqaff set 24 1
	run -0 irqaff show 24
	run -0 irqaff default 0-1
	run -0 irqaff mask 0-1
	run -0 irqaff list 3
}

@test "set refuses every bad IRQ list and writes nothing" {
	refuses_each BAD_IRQS set -- @ 0-1
}

@test "set refuses with exit 1 every IRQ list that matches nothing, writing nothing" {
	WANT_STATUS=1 refuses_each NONE_IRQS set -- @ 0-1
	# the other side: an IRQ that exists is set
	run -0 irqaff set -- 24 0-1
}

@test "set refuses every bad CPU set and writes nothing" {
	refuses_each BAD_CPUS set -- 24-26 @
	refuses_each BAD_CPUS set -n -- 24 @
}

@test "set names an empty item or a blank in a CPU set, as show does in an IRQ list" {
	run --separate-stderr -2 irqaff set -n dev:eth0 '4,'
	assert_output ''
	assert_equal "$stderr" 'irqaff: CPU list "4,": empty item'
	run --separate-stderr -2 irqaff set -n dev:eth0 '1 2'
	assert_equal "$stderr" 'irqaff: CPU list "1 2": a blank in it: separate items with commas'
	run --separate-stderr -2 irqaff set -n dev:eth0 $'1\t2'
	assert_equal "$stderr" 'irqaff: CPU list "1\t2": a blank in it: separate items with commas'
	run --separate-stderr -2 irqaff set -n dev:eth0 '1,,2'
	assert_equal "$stderr" 'irqaff: CPU list "1,,2": empty item'
	run --separate-stderr -2 irqaff show 24,
	assert_equal "$stderr" 'irqaff: IRQ list "24,": empty item'
	unchanged
}

@test "set --mask refuses every bad mask and writes nothing" {
	local -a masks=("${BAD[@]}" "${BLANK[@]}" 10 '0,1' 0x0)
	refuses_each masks set --mask -- 24 @
}

@test "spread -c and -x take a bad value as --cpus and --exclude do" {
	refuses 0-7:0/0 spread -c 0-7:0/0 -- dev:eth0
	refuses -0 spread -c -0 -- dev:eth0
	refuses 4 spread -x 4 -- dev:eth0
	refuses -v spread -x -v -- dev:eth0
}

@test "set takes what follows -- as operands, options included" {
	refuses -v set -- 24 -v
	refuses -n set -- 24 -n
	# as IRQ lists they are globs that match nothing: exit 1
	WANT_STATUS=1 refuses -v set -- -v 1
	WANT_STATUS=1 refuses -n set -- -n 1
	refuses --mask set -n -- 24 --mask
	[[ $stderr == 'irqaff: CPU list "--mask": '* ]]
}

@test "default refuses every bad CPU set and writes nothing" {
	refuses_each BAD_CPUS default -- @
}

@test "default --mask refuses every bad mask and writes nothing" {
	local -a masks=("${BAD[@]}" "${BLANK[@]}" 10 '0,1' 0x0)
	refuses_each masks default --mask -- @
}

@test "show refuses every bad IRQ list, exits 1 for one that selects nothing" {
	local -a bad=("${BAD_IRQS[@]}" 'cpu:' 'cpu:9')
	refuses_each bad show -- @
	# the rest only select nothing: show notes each, prints no rows and
	# exits 1, as grep
	local v
	for v in '+1' '0x' '9999' '16-23' 'nosuch*' 'dev:nosuch'; do
		run --separate-stderr -1 irqaff show -n -- "$v"
		assert_output ""
		[[ $stderr == "irqaff: note: "* ]]
	done
	run --separate-stderr -1 irqaff show -J -- 'nosuch*'
	assert_output '{"interrupts":[]}'
	assert_equal "$stderr" 'irqaff: note: IRQ list "nosuch*": "nosuch*" matches no IRQ'
	# of several items, one that matches is enough (the other is noted)
	run --separate-stderr -0 irqaff show -n -o irq -- 24,9999
	assert_output "24"
	assert_equal "$stderr" 'irqaff: note: IRQ 9999 does not exist'
	unchanged
}

@test "spread refuses every bad IRQ list and writes nothing" {
	refuses_each BAD_IRQS spread -- @
}

@test "spread refuses with exit 1 every IRQ list that matches nothing, writing nothing" {
	WANT_STATUS=1 refuses_each NONE_IRQS spread -- @
	# a malformed CPU list is exit 2 whatever the IRQ list picks
	local v
	for v in "${NONE_IRQS[@]}" dev:eth0; do
		run --separate-stderr -2 irqaff spread -c 0-7:0/0 -- "$v"
		assert_output ""
		assert_equal "$stderr" 'irqaff: CPU list "0-7:0/0": region "0-7:0/0" has a group size of 0'
	done
	unchanged
}

@test "spread refuses every bad --cpus set and writes nothing" {
	local v
	for v in "${BAD_CPUS[@]}"; do
		refused "$v" spread "--cpus=$v" -- dev:eth0 || return
	done
	unchanged
}

@test "spread refuses every bad --exclude set and writes nothing" {
	# excluding nothing is fine, so blanks are left out; 4 is beyond
	# the last possible CPU
	local -a bad=("${BAD[@]}" '4' '0-4' 'node:7')
	local v
	for v in "${bad[@]}"; do
		refused "$v" spread "--exclude=$v" -- dev:eth0 || return
	done
	unchanged
}

@test "mask refuses every bad CPU list and prints nothing" {
	local -a bad=("${BAD[@]}" '4' '0-4')
	refuses_each bad mask -- @
	# one bad value among good ones still prints nothing
	refuses_each bad mask -- 0 @ 1-2
}

@test "list refuses every bad mask and prints nothing" {
	local -a bad=("${BAD[@]}" '10' '0,1' 'g' 'ffffffff0')
	refuses_each bad list -- @
	refuses_each bad list -- 1 @ f
}

@test "mask and list refuse bad lines on standard input too" {
	local v
	for v in "${BAD[@]}"; do
		run --separate-stderr irqaff mask <<<"$v"
		if ((status != 2 || ${#stderr_lines[@]} != 1)) ||
			[[ -n $output || $stderr != 'irqaff: CPU list '* ]]; then
			printf 'mask <<< %q: %s %q %q\n' "$v" "$status" "$output" "$stderr"
			return 1
		fi
		run --separate-stderr irqaff list <<<"$v"
		if ((status != 2 || ${#stderr_lines[@]} != 1)) ||
			[[ -n $output || $stderr != 'irqaff: mask '* ]]; then
			printf 'list <<< %q: %s %q %q\n' "$v" "$status" "$output" "$stderr"
			return 1
		fi
	done
	unchanged
}

@test "mask and list read blank values as the empty set" {
	run -0 irqaff mask -- '' ' ' $'\t' '  ,  '
	assert_output $'0\n0\n0\n0'
	# empty lines: $(...) would drop them, hence the dot
	run -0 bash -c "irqaff list -- '' ' ' \$'\\t'; echo ."
	assert_output $'\n\n\n.'
}

@test "a bad value names its token in the message" {
	run --separate-stderr -2 irqaff set -- 24 0-7:9/8
	assert_equal "$stderr" 'irqaff: CPU list "0-7:9/8": region "0-7:9/8" uses 9 CPUs out of groups of 8'
	run --separate-stderr -1 irqaff set -- 9999 1
	assert_equal "$stderr" 'irqaff: IRQ 9999 does not exist'
	run --separate-stderr -1 irqaff set -- 'nosuch*' 1
	assert_equal "$stderr" 'irqaff: IRQ list "nosuch*": "nosuch*" matches no IRQ'
	run --separate-stderr -2 irqaff set -- 24 $'caf\xc3\xa9'
	assert_equal "$stderr" 'irqaff: CPU list "caf\303\251": region "caf\303\251": "caf\303\251" is not a number'
}

# Grep's rule, command by command: a well-formed selection that matches
# nothing is exit 1 with its note (writers: their error) and the tree
# unchanged, explain's 5 (its 1 is a finding); one item that matches is
# the other side.
@test "every command exits 1 for a selection that matches nothing (explain 5), 0 for one that matches" {
	rm -rf "$ROOT"
	make_root --cpus 4 --nic eth0:2 --queues
	irqaff save "$BATS_TEST_TMPDIR/snap"
	TREE=$(tree_sum)
	local note='irqaff: note: IRQ list "dev:eth9": device eth9 has no IRQs or does not exist'
	local error='irqaff: IRQ list "dev:eth9": device eth9 has no IRQs or does not exist'
	local -a cmd
	local line want
	while IFS='|' read -r line want; do
		read -ra cmd <<<"$line"
		run --separate-stderr irqaff "${cmd[@]}" dev:eth9
		if [ "${cmd[0]}" = explain ]; then
			assert_equal "$line: $status" "$line: 5"
		else
			assert_equal "$line: $status" "$line: 1"
		fi
		assert_equal "$stderr" "${!want}"
		run --separate-stderr irqaff "${cmd[@]}" dev:eth0
		assert_equal "$line dev:eth0: $status" "$line dev:eth0: 0"
	done <<-'EOF'
		show -n|note
		show -J|note
		explain -v|note
		cpus -J --irqs|note
		spread -n|error
		save --only|error
	EOF
	run --separate-stderr -1 irqaff set -n dev:eth9 0-1
	assert_equal "$stderr" "$error"
	run --separate-stderr -0 irqaff set -n dev:eth0 0-1
	local ints=$ROOT/proc/interrupts
	run --separate-stderr -1 irqaff balance -n --sample-from "$ints" \
		--sample-from "$ints" -i 1 dev:eth9
	assert_equal "$stderr" "$error"
	run --separate-stderr -0 irqaff balance -n --sample-from "$ints" \
		--sample-from "$ints" -i 1 dev:eth0
	run --separate-stderr -1 irqaff check --only dev:eth9 "$BATS_TEST_TMPDIR/snap"
	assert_equal "$stderr" "$error"
	run --separate-stderr -0 irqaff check --only dev:eth0 "$BATS_TEST_TMPDIR/snap"
	run --separate-stderr -1 irqaff restore --only dev:eth9 "$BATS_TEST_TMPDIR/snap"
	assert_output ''
	assert_equal "$stderr" "$error"
	run --separate-stderr -0 irqaff restore -n --only dev:eth0 "$BATS_TEST_TMPDIR/snap"
	# interfaces: queues notes, xps and rps refuse
	run --separate-stderr -1 irqaff queues eth9
	assert_equal "$stderr" 'irqaff: note: interface list "eth9": interface eth9 does not exist'
	run --separate-stderr -0 irqaff queues eth0
	run --separate-stderr -1 irqaff xps eth9 1
	assert_output ''
	assert_equal "$stderr" 'irqaff: xps: interface "eth9" does not exist'
	run --separate-stderr -1 irqaff rps eth9:0 1
	assert_equal "$stderr" 'irqaff: rps: interface "eth9" does not exist'
	run --separate-stderr -0 irqaff rps -n eth0:0 1
	unchanged
}
