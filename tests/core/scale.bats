#!/usr/bin/env bats
# Scale: irqaff at the kernel's largest width (8192 CPUs), and the number
# of system calls each IRQ costs. Functional only: nothing here is timed.
# The trees come from bench/mktree (tree.bash's layout, written in C:
# make_root would take minutes at 8192 CPUs); -C leaves out the cpuN
# directories, which show and set do not read.

bats_require_minimum_version 1.5.0

setup_file() {
	export MKTREE=$BATS_FILE_TMPDIR/mktree
	if command -v cc >/dev/null; then
		cc -O2 -o "$MKTREE" "$BATS_TEST_DIRNAME/../../bench/mktree.c"
	fi
}

setup() {
	load ../test_helper/common-setup
	_common_setup
	[[ -x $MKTREE ]] || skip "no C compiler to build bench/mktree"
}

# big_tree CPUS IRQS: a mktree tree in $ROOT, exported as IRQAFF_ROOT.
big_tree() {
	export ROOT=$BATS_TEST_TMPDIR/t$1x$2 IRQAFF_ROOT=$BATS_TEST_TMPDIR/t$1x$2
	"$MKTREE" -C "$ROOT" "$1" "$2"
}

# The IRQ directories of $ROOT, ascending.
irq_numbers() {
	find "$ROOT/proc/irq" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' |
		sort -n
}

@test "show prints 0-8191 affinities on an 8192-CPU tree with 50 IRQs" {
	big_tree 8192 50
	local expected='' irq line
	for irq in $(irq_numbers); do
		# each IRQ is delivered to CPU IRQ mod 8192 (mktree, tree.bash)
		printf -v line '%2d 0-8191 %d\n' "$irq" "$irq"
		expected+=$line
	done
	run --separate-stderr irqaff show -n -o IRQ,AFFINITY,EFFECTIVE
	assert_success
	assert_equal "$stderr" ''
	assert_equal "$output"$'\n' "$expected"
	assert_equal "$(irq_numbers | wc -l)" 50
}

@test "show -m prints each affinity as one 8192-bit kernel mask" {
	big_tree 8192 50
	local mask
	mask=$(kmask 8192 0-8191)
	run --separate-stderr irqaff show -m -n -o AFFINITY 24
	assert_success
	assert_equal "$output" "$mask"
	assert_equal "${#output}" $((8192 / 4 + 8192 / 32 - 1))
}

@test "show -m of 8192 CPUs keeps lists in memory and prints full masks" {
	big_tree 8192 30
	printf '8191\n' >"$ROOT/proc/irq/24/smp_affinity_list"
	kmask 8192 8191 >"$ROOT/proc/irq/24/smp_affinity"
	run --separate-stderr -0 irqaff show -m -o irq,affinity 24-25
	local zeros
	zeros=$(printf '00000000,%.0s' {1..255})
	assert_line --index 1 " 24 80000000,${zeros%,}"
	assert_line --index 2 " 25 $(printf 'ffffffff,%.0s' {1..255})ffffffff"
	assert_equal "$stderr" ''
}

@test "cpus sums each of 8192 columns and counts the IRQs on each CPU" {
	big_tree 8192 50
	local want
	want=$(awk 'NR == 1 { n = NF; next }
		$1 ~ /^[0-9]+:$/ { for (i = 1; i <= n; i++) s[i] += $(i + 1) }
		END { printf "%d %d\n%d %d\n%d %d", 0, s[1], 4095, s[4096],
			8191, s[8192] }' "$ROOT/proc/interrupts")
	run --separate-stderr -0 irqaff cpus -n -o cpu,total 0,4095,8191
	assert_equal "$(tr -s ' ' <<<"$output" | sed 's/^ //')" "$want"
	# each IRQ is delivered to CPU IRQ mod 8192, so CPU k has IRQ k alone
	local first
	first=$(irq_numbers | head -n 1)
	run --separate-stderr -0 irqaff cpus -n -o cpu,irqs "$first,8191"
	assert_output "$(printf '%4d 1\n8191 0' "$first")"
}

@test "set all 0-8191:1/2 writes every IRQ's mask, the list being too long" {
	big_tree 8192 50
	local mask irq bad='' sum
	mask=$(kmask 8192 0-8191:1/2)
	run --separate-stderr irqaff set -q all 0-8191:1/2
	assert_success
	assert_equal "$stderr" ''
	for irq in $(irq_numbers); do
		# the even CPUs as a list are 19 KB, past what a list write takes
		[[ $(<"$(irq_dir "$irq")/smp_affinity") == "$mask" ]] ||
			bad+=" $irq"
	done
	assert_equal "$bad" ''
	sum=$(tree_sum)
	run --separate-stderr irqaff set -q all 0-8191:1/2
	assert_success
	assert_equal "$(tree_sum)" "$sum"
	run --separate-stderr irqaff set -v -q 24 0-8191:1/2
	assert_success
	assert_output "irq 24: $(seq -s, 0 2 8190) unchanged"
}

@test "a CPU list of 4095 characters goes to smp_affinity_list, one of 4096 as a mask" {
	big_tree 2048 2
	local list4095 list4096 mask
	# 100..996 step 2 (449 of 3 digits) and 1000..1918 (460 of 4): 4095
	list4095=$(seq -s, 100 2 996),$(seq -s, 1000 2 1918)
	list4096=$(seq -s, 100 2 994),$(seq -s, 1000 2 1920)
	assert_equal "${#list4095} ${#list4096}" '4095 4096'
	mask=$(<"$(irq_dir 1)/smp_affinity")
	run --separate-stderr -0 irqaff set 0 "$list4095"
	assert_equal "$(<"$(irq_dir 0)/smp_affinity_list")" "$list4095"
	run --separate-stderr -0 irqaff set 1 "$list4096"
	assert_equal "$(<"$(irq_dir 1)/smp_affinity_list")" 0-2047
	assert_equal "$(<"$(irq_dir 1)/smp_affinity")" "$(kmask 2048 "$list4096")"
	[[ $mask != "$(kmask 2048 "$list4096")" ]]
}

# calls CMD...: the number of system calls CMD makes (strace -c -f).
# A sanitizer build is traced with leak checking off, which LeakSanitizer
# needs under ptrace, and without the memory calls of its own allocator.
calls() {
	local -a only=()
	if sanitized; then
		only=(-e 'trace=!%memory')
		local -x ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	fi
	strace -f -c "${only[@]}" -o "$BATS_TEST_TMPDIR/strace.out" "$@" \
		>/dev/null || return
	awk '$NF == "total" { print $4 }' "$BATS_TEST_TMPDIR/strace.out"
}

@test "set costs at most 6 system calls per changed IRQ, 7 to cut a file shorter, and 4 per unchanged" {
	# changed: open, read, fstat (a regular file?), write, read back,
	# close; a shorter value also truncates (a test tree, not procfs)
	command -v strace >/dev/null || skip "strace is not installed"
	# 190 IRQs: from 200 on, all on CPU 5 is beyond an x86 CPU's
	# vectors, and each IRQ's effective CPU is read (core/vectors.c)
	local small=$BATS_TEST_TMPDIR/t8x20 large=$BATS_TEST_TMPDIR/t8x190
	"$MKTREE" -C "$small" 8 20
	"$MKTREE" -C "$large" 8 190
	local -a c=() u=() s=()
	local t extra=170
	for t in "$small" "$large"; do
		irqaff --root "$t" set -q all 0-7
		c+=("$(calls irqaff --root "$t" set -q all 0-3)")
		u+=("$(calls irqaff --root "$t" set -q all 0-3)")
		# 0-3 to 5: the regular file must also be cut to the shorter value
		s+=("$(calls irqaff --root "$t" set -q all 5)")
	done
	assert_equal "$(<"$large/proc/irq/197/smp_affinity_list")" 5
	assert [ "${c[0]}" -gt 0 ]
	# and 8 for the x86 vector check's read of a larger proc/interrupts
	# (a read(2) each time its buffer doubles)
	assert [ $((c[1] - c[0])) -le $((6 * extra + 8)) ]
	assert [ $((s[1] - s[0])) -le $((7 * extra + 8)) ]
	assert [ $((u[1] - u[0])) -le $((4 * extra + 8)) ]
	# and a changed IRQ does cost more than an unchanged one
	assert [ $((c[1] - c[0])) -gt $((u[1] - u[0])) ]
}
