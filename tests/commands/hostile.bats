#!/usr/bin/env bats
# Hostile input: names that would drive a terminal, files that never end,
# arguments cut short by a newline, and snapshots too big to hold. Each is
# escaped, refused whole, or read within bounds, and a refusal writes
# nothing.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	make_root --cpus 4 --irq $'24=a\e]52;c;ZXZpbA==\a' --irq $'25=b\rX' \
		--irq '26=c'
}

# limits_memory: the next commands run under ulimit -v, which a sanitizer
# build cannot (its shadow memory is terabytes of address space).
limits_memory() {
	! sanitized || skip "a sanitizer build cannot run under ulimit -v"
}

@test "show escapes names in its table and keeps the columns aligned" {
	run --separate-stderr -0 irqaff show -o irq,name,node
	assert_output "$(printf '%s\n' \
		'IRQ NAME                  NODE' \
		' 24 a\033]52;c;ZXZpbA==\a    0' \
		' 25 b\rX                     0' \
		' 26 c                        0')"
}

@test "show escapes a backslash and DEL in names, and leaves ~ and blanks as they are" {
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 2 --irq $'24=a\\b ~\x7f' \
		--irq '25=c\d' --irq $'26=e~\x7f'
	run --separate-stderr -0 irqaff show -o irq,name
	assert_output "$(printf '%s\n' 'IRQ NAME' ' 24 a\\b ~\177' ' 25 c\\d' \
		' 26 e~\177')"
}

@test "show -J keeps names as they are, in valid JSON" {
	run --separate-stderr -0 irqaff show -J -o irq,name
	run jq -r '.interrupts[0].name' <<<"$output"
	assert_output $'a\e]52;c;ZXZpbA==\a'
}

@test "a newline in a name does not split a line of spread's plan" {
	mkdir "$(irq_dir 26)/"$'evil\nirq 99: 0'
	run --separate-stderr -0 irqaff spread -n 24-26
	assert_equal "${#lines[@]}" 3
	assert_line --index 2 'irq 26 c, evil\nirq 99: 0: 2'
	assert_line --index 0 'irq 24 a\033]52;c;ZXZpbA==\a: 0'
}

@test "show -J prints only well-formed numbers as numbers, others as null" {
	printf '007\n' >"$(irq_dir 24)/node"
	printf -- '-01\n' >"$(irq_dir 25)/node"
	printf -- '-1\n' >"$(irq_dir 26)/node"
	run --separate-stderr -0 irqaff show -J -o irq,node
	run jq -c '[.interrupts[].node]' <<<"$output"
	assert_output '[null,null,-1]'
	# a point wants a digit after it
	printf '1.\n' >"$(irq_dir 24)/node"
	printf '1.5\n' >"$(irq_dir 25)/node"
	run --separate-stderr -0 irqaff show -J -o irq,node 24,25
	assert_output '{"interrupts":[{"irq":24,"node":null},{"irq":25,"node":1.5}]}'
}

@test "a path with control bytes is escaped in messages" {
	run --separate-stderr -2 irqaff restore $'/nonexistent/a\nb\e[31m'
	assert_equal "$stderr" 'irqaff: /nonexistent/a\nb\033[31m: No such file or directory'
}

@test "a root with control bytes in its name is escaped in messages naming its files" {
	make_root --dir "$BATS_TEST_TMPDIR/r"$'\n\e[1m' --cpus 4 --irq 24=a \
		--irq 25=b
	rm "$(irq_dir 25)/smp_affinity_list"
	mkdir "$(irq_dir 25)/smp_affinity_list"
	run --separate-stderr -3 irqaff set 24-25 1
	assert_equal "$stderr" "irqaff: irq 25: $BATS_TEST_TMPDIR/r\\n\\033[1m/proc/irq/25/smp_affinity_list: Is a directory"
}

@test "directories in proc/irq named 024, +25 or past INT_MAX are no IRQs; 0 and INT_MAX are" {
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 4 --irq 0=timer \
		--irq 24=a --irq 25=b
	mkdir "$ROOT/proc/irq/"{00,024,+25,' 25',2147483647,2147483648}
	run --separate-stderr -1 irqaff set -n -v all 2
	assert_output $'irq 0: 0-3 -> 2\nirq 24: 0-3 -> 2\nirq 25: 0-3 -> 2'
	assert_equal "$stderr" "irqaff: irq 2147483647: $ROOT/proc/irq/2147483647/smp_affinity_list: No such file or directory"
}

@test "a CPU argument with a newline inside is refused whole" {
	local before
	before=$(tree_sum)
	run --separate-stderr -2 irqaff set 24 $'1\n99'
	assert_equal "$stderr" 'irqaff: CPU list "1\n99": a newline before the end'
	assert_equal "$(tree_sum)" "$before"
	# at the very end, where the kernel stops too, it is no error
	run -0 irqaff set 24 $'1\n'
	assert_equal "$(lists 24)" 1
}

@test "a line of input with a NUL byte is refused whole" {
	run --separate-stderr -2 irqaff mask -b 8 < <(printf '0-1\0zzz\n')
	assert_output ''
	assert_equal "$stderr" 'irqaff: CPU list "0-1": a NUL byte'
}

@test "an endless line of input is refused within bounds" {
	limits_memory
	run --separate-stderr -2 bash -c 'ulimit -v 200000; head -c 50000000 /dev/zero | tr "\0" 1 | irqaff mask -b 8'
	assert_output ''
	assert_equal "$stderr" 'irqaff: CPU list on line 1 of standard input: longer than any of 8 CPUs'
}

@test "check of a file that never ends is bad input, read within bounds" {
	limits_memory
	run --separate-stderr -2 bash -c 'ulimit -v 200000; irqaff check /dev/zero'
	assert_equal "$stderr" 'irqaff: /dev/zero:1: longer than 1048576 bytes; is this a snapshot file?'
}

@test "restore refuses a snapshot with a line too long before writing anything" {
	local snap=$BATS_TEST_TMPDIR/snap before
	{
		printf '24 1 "a\\033]52;c;ZXZpbA==\\007"\n'
		printf '#'
		head -c 2000000 /dev/zero | tr '\0' x
		printf '\n26 2\n'
	} >"$snap"
	before=$(tree_sum)
	run --separate-stderr -2 irqaff restore -q "$snap"
	assert_equal "$stderr" "irqaff: $snap:2: longer than 1048576 bytes; is this a snapshot file?"
	assert_equal "$(tree_sum)" "$before"
}

@test "a snapshot line of exactly 1048576 bytes is read, with its newline or at the end without" {
	local snap=$BATS_TEST_TMPDIR/snap
	{
		printf '#'
		head -c 1048575 /dev/zero | tr '\0' x
		printf '\n26 2 "c"\n'
	} >"$snap"
	run --separate-stderr -0 irqaff restore -q -v "$snap"
	assert_output 'irq 26: 0-3 -> 2'
	{
		printf '26 1 "c"\n#'
		head -c 1048575 /dev/zero | tr '\0' x
	} >"$snap"
	run --separate-stderr -0 irqaff restore -q -v "$snap"
	assert_output 'irq 26: 2 -> 1'
	# one byte more, at the end without its newline: refused whole
	printf x >>"$snap"
	run --separate-stderr -2 irqaff restore -q -v "$snap"
	assert_equal "$stderr" "irqaff: $snap:2: longer than 1048576 bytes; is this a snapshot file?"
	# a last line without its newline is a line
	printf '26 0 "c"' >"$snap"
	run --separate-stderr -0 irqaff restore -q -v "$snap"
	assert_output 'irq 26: 1 -> 0'
}

@test "a snapshot of many repeated lines is read in bounded memory" {
	limits_memory
	local snap=$BATS_TEST_TMPDIR/snap
	yes '* 1' | head -n 2000000 >"$snap"
	run --separate-stderr -0 bash -c "ulimit -v 100000; irqaff restore -q -v '$snap'"
	assert_output $'irq 24: 0-3 -> 1\nirq 25: 0-3 -> 1\nirq 26: 0-3 -> 1'
	assert_equal "$(cat "$(irq_dir 26)/smp_affinity_list")" 1
}

@test "memory running out ends the run with status 1 and one line, whatever ran out" {
	limits_memory
	local snap=$BATS_TEST_TMPDIR/snap before
	{
		printf '#'
		head -c 1000000 /dev/zero | tr '\0' x
		printf '\n26 2 "c"\n'
	} >"$snap"
	before=$(tree_sum)
	# a line too long for the memory left, or its parse: not bad input
	run --separate-stderr -1 bash -c "ulimit -d 1000; exec irqaff restore -q '$snap'"
	assert_equal "$stderr" 'irqaff: Cannot allocate memory'
	assert_equal "$(tree_sum)" "$before"
	# 3.6 MB of CPU list to print
	irqaff mask -b 1048576 0-1048575:1/2 >"$BATS_TEST_TMPDIR/evens"
	run --separate-stderr -1 bash -c "ulimit -d 3000; exec irqaff list -b 1048576 <'$BATS_TEST_TMPDIR/evens'"
	assert_output ''
	assert_equal "$stderr" 'irqaff: Cannot allocate memory'
}

@test "a snapshot with CRLF line endings is read as the same snapshot" {
	local snap=$BATS_TEST_TMPDIR/snap
	printf 'default 0-1\r\n# a comment\r\n"c" 2\r\n26 2 "c"\r\n' >"$snap"
	run --separate-stderr -0 irqaff restore -q -v "$snap"
	assert_output $'default: 0-3 -> 0-1\nirq 26: 0-3 -> 2'
	run --separate-stderr -0 irqaff check "$snap"
}

@test "a device's IRQ numbers in msi_irqs do not size memory" {
	limits_memory
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 4 --nic eth0:2
	local msi
	msi=$(find "$ROOT/sys/devices" -type d -name msi_irqs | head -n 1)
	printf 'msix\n' >"$msi/2000000000"
	run --separate-stderr -0 bash -c 'ulimit -v 100000; irqaff show -o irq,device'
}
