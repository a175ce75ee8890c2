#!/usr/bin/env bats
# Faults while writing: one IRQ's affinity file cannot take the value.
# That IRQ gets one line on standard error, the others still get theirs,
# the exit status is 3 (1 when nothing was applied), and -v names exactly
# the IRQs that changed.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	make_root --cpus 4 --irq '24=a' --irq '25=b' --irq '26=c'
}

# applied IRQ... : each IRQ's smp_affinity_list holds "1\n", as set wrote it.
applied() {
	local irq
	for irq in "$@"; do
		assert_equal "$(od -An -c "$(irq_dir "$irq")/smp_affinity_list")" \
			"$(printf '1\n' | od -An -c)"
	done
}

@test "a file that is full (ENOSPC) fails that IRQ alone" {
	run --separate-stderr -3 faulty "$(irq_dir 25)/smp_affinity_list:ENOSPC" \
		irqaff set -v 24-26 1
	assert_output $'irq 24: 0-3 -> 1\nirq 26: 0-3 -> 1'
	assert_equal "$stderr" 'irqaff: irq 25: cannot set 1: no free interrupt vectors on the target CPUs (No space left on device)'
	applied 24 26
	assert_equal "$(cat "$(irq_dir 25)/smp_affinity_list")" 0-3
	assert_equal "$(cat "$(irq_dir 25)/smp_affinity")" "$(kmask 4 0-3)"
}

@test "a directory where the file should be fails that IRQ alone" {
	rm "$(irq_dir 25)/smp_affinity_list"
	mkdir "$(irq_dir 25)/smp_affinity_list"
	run --separate-stderr -3 irqaff set -v 24-26 1
	assert_output $'irq 24: 0-3 -> 1\nirq 26: 0-3 -> 1'
	assert_equal "$stderr" "irqaff: irq 25: $ROOT/proc/irq/25/smp_affinity_list: Is a directory"
	applied 24 26
	[ -d "$(irq_dir 25)/smp_affinity_list" ]
	assert_equal "$(cat "$(irq_dir 25)/smp_affinity")" "$(kmask 4 0-3)"
}

@test "a root given with trailing slashes names its files with one slash" {
	rm "$(irq_dir 25)/smp_affinity_list"
	mkdir "$(irq_dir 25)/smp_affinity_list"
	run --separate-stderr -3 env IRQAFF_ROOT="$ROOT//" irqaff set -v 24-26 1
	assert_output $'irq 24: 0-3 -> 1\nirq 26: 0-3 -> 1'
	assert_equal "$stderr" "irqaff: irq 25: $ROOT/proc/irq/25/smp_affinity_list: Is a directory"
}

@test "an IRQ whose files are gone (ENOENT) fails that IRQ alone, naming the list file" {
	rm "$(irq_dir 24)/smp_affinity_list" "$(irq_dir 24)/smp_affinity"
	run --separate-stderr -3 irqaff set -v 24-26 1
	assert_output $'irq 25: 0-3 -> 1\nirq 26: 0-3 -> 1'
	# the list is what set writes; the mask is only its fallback
	assert_equal "$stderr" "irqaff: irq 24: $ROOT/proc/irq/24/smp_affinity_list: No such file or directory"
	applied 25 26
	[ ! -e "$(irq_dir 24)/smp_affinity_list" ]
	[ ! -e "$(irq_dir 24)/smp_affinity" ]
}

@test "a file that reads back something else fails that IRQ alone" {
	run --separate-stderr -3 faulty "$(irq_dir 26)/smp_affinity_list:drop" \
		irqaff set -v 24-26 1
	assert_output $'irq 24: 0-3 -> 1\nirq 25: 0-3 -> 1'
	assert_equal "$stderr" "irqaff: irq 26: wrote 1, but $ROOT/proc/irq/26/smp_affinity_list reads back \"0-3\""
	applied 24 25
}

@test "every IRQ failing exits 1, one line each" {
	rm "$(irq_dir 25)/smp_affinity_list"
	mkdir "$(irq_dir 25)/smp_affinity_list"
	run --separate-stderr -1 faulty "$(irq_dir 24)/smp_affinity_list:ENOSPC,$(irq_dir 26)/smp_affinity_list:drop" \
		irqaff set -v 24-26 1
	assert_output ''
	assert_equal "${#stderr_lines[@]}" 3
	assert_equal "${stderr_lines[0]}" 'irqaff: irq 24: cannot set 1: no free interrupt vectors on the target CPUs (No space left on device)'
	assert_equal "${stderr_lines[1]}" "irqaff: irq 25: $ROOT/proc/irq/25/smp_affinity_list: Is a directory"
	assert_equal "${stderr_lines[2]}" "irqaff: irq 26: wrote 1, but $ROOT/proc/irq/26/smp_affinity_list reads back \"0-3\""
}

@test "a failing IRQ among unchanged ones exits 3 and -v says unchanged" {
	irqaff set 24 1
	run --separate-stderr -3 faulty "$(irq_dir 25)/smp_affinity_list:ENOSPC" \
		irqaff set -v 24-26 1
	assert_output $'irq 24: 1 unchanged\nirq 26: 0-3 -> 1'
	assert_equal "${#stderr_lines[@]}" 1
	assert_equal "${stderr_lines[0]}" 'irqaff: irq 25: cannot set 1: no free interrupt vectors on the target CPUs (No space left on device)'
	applied 24 26
}

@test "each errno the kernel gives is explained in its terms" {
	local e want
	for e in EIO EPERM EINVAL ERANGE EBUSY EACCES; do
		case $e in
		EIO) want='it cannot be moved by user space (kernel-managed, per-CPU or no-balancing) (Input/output error)' ;;
		EPERM) want='it cannot be moved by user space (kernel-managed, per-CPU or no-balancing) (Operation not permitted)' ;;
		EINVAL) want='the kernel refused the CPU set (Invalid argument)' ;;
		ERANGE) want='a CPU is beyond the possible ones (Numerical result out of range)' ;;
		EBUSY) want='a previous move of this IRQ is still pending (Device or resource busy)' ;;
		EACCES) want='permission denied; irqaff must run as root (Permission denied)' ;;
		esac
		run --separate-stderr -1 faulty "$(irq_dir 24)/smp_affinity_list:$e" \
			irqaff set 24 1
		assert_equal "$stderr" "irqaff: irq 24: cannot set 1: $want"
	done
}

@test "a dry run opens nothing for writing, so a failing file is no fault" {
	local before
	before=$(tree_sum)
	run --separate-stderr -0 faulty "$(irq_dir 25)/smp_affinity_list:ENOSPC" \
		irqaff set -n 24-26 1
	assert_equal "${#lines[@]}" 3
	assert_line --index 0 'irq 24: 0-3 -> 1'
	assert_line --index 2 'irq 26: 0-3 -> 1'
	assert_equal "$stderr" ''
	assert_equal "$(tree_sum)" "$before"
}

@test "a device node where an affinity file should be is not written" {
	rm "$(irq_dir 25)/smp_affinity_list"
	mkfifo "$(irq_dir 25)/smp_affinity_list"
	local before
	before=$(tree_sum)
	run --separate-stderr -3 irqaff set -v 24-26 1
	assert_output $'irq 24: 0-3 -> 1\nirq 26: 0-3 -> 1'
	assert_equal "$stderr" "irqaff: irq 25: $ROOT/proc/irq/25/smp_affinity_list: not a regular file; left alone"
	[ -p "$(irq_dir 25)/smp_affinity_list" ]
	assert_equal "$(cat "$(irq_dir 25)/smp_affinity")" "$(kmask 4 0-3)"
}

@test "a symlink out of the tree is resolved inside it, and nothing outside is written" {
	local outside=$BATS_TEST_TMPDIR/outside
	printf 'precious\n' >"$outside"
	rm "$(irq_dir 25)/smp_affinity_list"
	ln -s "$outside" "$(irq_dir 25)/smp_affinity_list"
	run --separate-stderr -0 irqaff set 25 1
	assert_file "$outside" $'precious\n'
	# the link's target, taken inside the root, does not exist: the
	# mask file is written instead
	assert_equal "$(cat "$(irq_dir 25)/smp_affinity")" 2
}

@test "a file that does not hold a CPU set is not written" {
	printf 'precious\n' >"$(irq_dir 25)/smp_affinity_list"
	: >"$(irq_dir 26)/smp_affinity_list"
	run --separate-stderr -3 irqaff set -v 24-26 1
	assert_output 'irq 24: 0-3 -> 1'
	assert_equal "${stderr_lines[0]}" "irqaff: irq 25: $ROOT/proc/irq/25/smp_affinity_list holds \"precious\", not a CPU list; left alone"
	assert_equal "${stderr_lines[1]}" "irqaff: irq 26: $ROOT/proc/irq/26/smp_affinity_list holds \"\", not a CPU list; left alone"
	assert_file "$(irq_dir 25)/smp_affinity_list" $'precious\n'
	assert_file "$(irq_dir 26)/smp_affinity_list" ''
}

@test "an affinity file of 1 MiB is too large to read and left alone; one byte less is read" {
	head -c 1048576 /dev/zero | tr '\0' 0 >"$(irq_dir 25)/smp_affinity_list"
	head -c 1048575 /dev/zero | tr '\0' 0 >"$(irq_dir 26)/smp_affinity_list"
	run --separate-stderr -3 irqaff set -v 25-26 1
	assert_output 'irq 26: 0 -> 1'
	assert_equal "$stderr" "irqaff: irq 25: $ROOT/proc/irq/25/smp_affinity_list: File too large"
	assert_equal "$(wc -c <"$(irq_dir 25)/smp_affinity_list")" 1048576
	applied 26
}

# A 4-CPU tree told it has 8192 possible CPUs: what irqaff reads of the
# machine is possible, online, isolated and nohz_full, and the IRQ's own
# files. (make_root --cpus 8192 builds the same in far more time.)
widen_to_8192() {
	local cpu=$ROOT/sys/devices/system/cpu
	printf '0-8191\n' >"$cpu/possible"
	printf '0-8191\n' >"$cpu/present"
	printf '0-8191\n' >"$cpu/online"
	printf '0-8191\n' >"$(irq_dir 24)/smp_affinity_list"
	kmask 8192 0-8191 >"$(irq_dir 24)/smp_affinity"
}

@test "a list longer than 4095 bytes is written as a mask to smp_affinity" {
	widen_to_8192
	# 4096 CPUs, every other one: a list of 19 k characters
	run -0 irqaff mask -b 8192 0-8191:1/2
	run -0 irqaff list -b 8192 "$output"
	((${#output} > 4095))
	run --separate-stderr -0 irqaff set 24 0-8191:1/2
	assert_output ''
	assert_equal "$stderr" ''
	assert_equal "$(od -An -c "$(irq_dir 24)/smp_affinity")" \
		"$(kmask 8192 0-8191:1/2 | od -An -c)"
	assert_equal "$(cat "$(irq_dir 24)/smp_affinity_list")" 0-8191
	# and once it holds that set, it is left alone
	run --separate-stderr -0 irqaff set -v 24 0-8191:1/2
	assert_output "irq 24: $(seq 0 2 8190 | paste -sd,) unchanged"
}

# evens N3 N4: N3 even 3-digit CPUs from 100, then N4 even 4-digit ones
# from 1000, as a list: 4 * N3 + 5 * N4 - 1 bytes.
evens() {
	{ seq 100 2 $((98 + 2 * $1)); seq 1000 2 $((998 + 2 * $2)); } |
		paste -sd,
}

@test "a list of 4095 bytes goes to smp_affinity_list, 4096 to smp_affinity" {
	widen_to_8192
	local fits long
	fits=$(evens 4 816)
	long=$(evens 3 817)
	assert_equal "${#fits} ${#long}" '4095 4096'
	run --separate-stderr -0 irqaff set 24 "$fits"
	assert_equal "$(cat "$(irq_dir 24)/smp_affinity_list")" "$fits"
	assert_equal "$(cat "$(irq_dir 24)/smp_affinity")" "$(kmask 8192 0-8191)"
	run --separate-stderr -0 irqaff set 24 "$long"
	assert_equal "$(cat "$(irq_dir 24)/smp_affinity_list")" "$fits"
	assert_equal "$(cat "$(irq_dir 24)/smp_affinity")" "$(kmask 8192 "$long")"
}

# writes_to LOG FILE: how many write(2) calls went to FILE, and there was
# no pwrite64 to it at all (strace -y names the file of each fd).
writes_to() {
	local log=$1 file=$2
	if grep -F "<$file>" "$log" | grep -q 'pwrite64('; then
		echo pwrite
		return
	fi
	grep -F "write(" "$log" | grep -cF "<$file>" || true
}

@test "each changed IRQ gets exactly one write(2) and unchanged ones none" {
	strace_works
	irqaff set 24 1
	local log=$BATS_TEST_TMPDIR/strace.log
	run --separate-stderr -0 strace -f -y -e trace=write,pwrite64 -o "$log" \
		irqaff set 24-26 1
	assert_equal "$(writes_to "$log" "$ROOT/proc/irq/24/smp_affinity_list")" 0
	assert_equal "$(writes_to "$log" "$ROOT/proc/irq/25/smp_affinity_list")" 1
	assert_equal "$(writes_to "$log" "$ROOT/proc/irq/26/smp_affinity_list")" 1
	assert_equal "$(grep -cF '/proc/irq/' "$log")" 2
	grep -F "<$ROOT/proc/irq/25/smp_affinity_list>, \"1\\n\", 2) = 2" "$log"
	applied 24 25 26
}

@test "a mask too long for a list is one write(2) to smp_affinity" {
	strace_works
	widen_to_8192
	local log=$BATS_TEST_TMPDIR/strace.log
	run --separate-stderr -0 strace -f -y -s 8 -e trace=write,pwrite64 \
		-o "$log" irqaff set 24 0-8191:1/2
	assert_equal "$(writes_to "$log" "$ROOT/proc/irq/24/smp_affinity")" 1
	assert_equal "$(writes_to "$log" "$ROOT/proc/irq/24/smp_affinity_list")" 0
	# the whole mask, newline included, in that one call
	grep -F "<$ROOT/proc/irq/24/smp_affinity>, \"55555555\"..., 2304) = 2304" "$log"
}

@test "default is one write(2) to default_smp_affinity" {
	strace_works
	local log=$BATS_TEST_TMPDIR/strace.log
	run --separate-stderr -0 strace -f -y -e trace=write,pwrite64 -o "$log" \
		irqaff default 0-1
	assert_equal "$(writes_to "$log" "$ROOT/proc/irq/default_smp_affinity")" 1
	grep -F "<$ROOT/proc/irq/default_smp_affinity>, \"3\\n\", 2) = 2" "$log"
	assert_equal "$(cat "$ROOT/proc/irq/default_smp_affinity")" 3
}
