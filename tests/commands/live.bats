#!/usr/bin/env bats
# The live tier: the real /proc/irq, as root only. Every test saves the
# affinity it changes and teardown puts it back, whatever happened.

bats_require_minimum_version 1.5.0

# One machine's /proc/irq: these tests run one after another, even under
# bats --jobs.
export BATS_NO_PARALLELIZE_WITHIN_FILE=true

# An IRQ whose smp_affinity_list takes its own value back, or nothing.
writable_irq() {
	local f cur
	for f in /proc/irq/[0-9]*/smp_affinity_list; do
		[ -r "$f" ] || continue
		cur=$(cat "$f" 2>/dev/null) || continue
		[ -n "$cur" ] || continue
		if (printf '%s\n' "$cur" >"$f") 2>/dev/null; then
			f=${f%/smp_affinity_list}
			echo "${f##*/}"
			return 0
		fi
	done
	return 1
}

setup() {
	load ../test_helper/common-setup
	_common_setup
	unset IRQAFF_ROOT
	SAVED_IRQ=
	SAVED_LIST=
	SAVED_DEFAULT=
	if [ "$(id -u)" != 0 ]; then
		skip "the live tier runs as root only"
	fi
	if pgrep -x irqbalance >/dev/null; then
		skip "irqbalance runs and would move the IRQs under test"
	fi
	if ! IRQ=$(writable_irq); then
		skip "no writable /proc/irq/N/smp_affinity_list"
	fi
	LIST=/proc/irq/$IRQ/smp_affinity_list
	DEFAULT=/proc/irq/default_smp_affinity
	SAVED_LIST=$(cat "$LIST")
	SAVED_IRQ=$IRQ
	SAVED_DEFAULT=$(cat "$DEFAULT")
	LAST=$(cpu_last /sys/devices/system/cpu/possible)
	NBITS=$((LAST + 1))
	# CPU 0 unless the IRQ is already there alone; then CPU 1.
	if [ "$SAVED_LIST" = 0 ]; then
		TARGET=1
	else
		TARGET=0
	fi
	if ! cpu_in "$TARGET" "$(cat /sys/devices/system/cpu/online)"; then
		skip "CPU $TARGET is offline"
	fi
}

teardown() {
	local irq list
	if [ -f "$BATS_TEST_TMPDIR/all" ]; then
		while read -r irq list; do
			printf '%s\n' "$list" \
			    >"/proc/irq/$irq/smp_affinity_list" 2>/dev/null || :
		done <"$BATS_TEST_TMPDIR/all"
	fi
	if [ -n "$SAVED_IRQ" ]; then
		printf '%s\n' "$SAVED_LIST" \
		    >"/proc/irq/$SAVED_IRQ/smp_affinity_list"
	fi
	if [ -n "$SAVED_DEFAULT" ]; then
		printf '%s\n' "$SAVED_DEFAULT" >/proc/irq/default_smp_affinity
	fi
}

# The last CPU of a kernel CPU list file ("0-1", "0,2-5").
cpu_last() {
	local last
	last=$(tr ',' '\n' <"$1" | tail -n 1)
	echo "${last##*-}"
}

# Whether CPU $1 is in the plain kernel list $2.
cpu_in() {
	local item lo hi
	for item in ${2//,/ }; do
		lo=${item%-*}
		hi=${item#*-}
		if [ "$1" -ge "$lo" ] && [ "$1" -le "$hi" ]; then
			return 0
		fi
	done
	return 1
}

@test "set moves a real IRQ and the kernel reports the new list" {
	run --separate-stderr irqaff set -v "$IRQ" "$TARGET"
	assert_success
	assert_output "irq $IRQ: $SAVED_LIST -> $TARGET"
	assert_equal "$stderr" ""
	assert_equal "$(cat "$LIST")" "$TARGET"
	assert_equal "$(cat "/proc/irq/$IRQ/smp_affinity")" \
	    "$(kmask "$NBITS" "$TARGET")"
}

@test "set a second time finds the real IRQ unchanged" {
	run irqaff set "$IRQ" "$TARGET"
	assert_success
	run --separate-stderr irqaff set -v "$IRQ" "$TARGET"
	assert_success
	assert_output "irq $IRQ: $TARGET unchanged"
	assert_equal "$stderr" ""
	assert_equal "$(cat "$LIST")" "$TARGET"
}

@test "set -n on a real IRQ prints the change and leaves it alone" {
	run --separate-stderr irqaff set -n "$IRQ" "$TARGET"
	assert_success
	assert_output "irq $IRQ: $SAVED_LIST -> $TARGET"
	assert_equal "$(cat "$LIST")" "$SAVED_LIST"
}

@test "set refuses a CPU beyond the possible ones and writes nothing" {
	local beyond=$((LAST + 1))
	run --separate-stderr irqaff set "$IRQ" "$beyond"
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "irqaff: CPU list \"$beyond\": CPU $beyond is beyond the last possible CPU $LAST"
	assert_equal "$(cat "$LIST")" "$SAVED_LIST"
}

@test "default writes a real default_smp_affinity the kernel reads back" {
	run --separate-stderr irqaff default -v "$TARGET"
	assert_success
	assert_equal "$stderr" ""
	assert_equal "$(cat "$DEFAULT")" "$(kmask "$NBITS" "$TARGET")"
	run --separate-stderr irqaff default
	assert_success
	assert_output "$TARGET"
	run --separate-stderr irqaff default -m
	assert_success
	assert_output "$(kmask "$NBITS" "$TARGET")"
}

@test "default refuses a CPU beyond the possible ones and writes nothing" {
	local beyond=$((LAST + 1))
	run --separate-stderr irqaff default "$beyond"
	assert_failure 2
	assert_equal "$stderr" "irqaff: CPU list \"$beyond\": CPU $beyond is beyond the last possible CPU $LAST"
	assert_equal "$(cat "$DEFAULT")" "$SAVED_DEFAULT"
}

@test "show lists every IRQ of /proc/interrupts with the kernel's affinity" {
	local irq want=
	while read -r irq; do
		want+="$irq $(cat "/proc/irq/$irq/smp_affinity_list" \
		    2>/dev/null || echo null)"$'\n'
	done < <(awk '$1 ~ /^[0-9]+:$/ { sub(":", "", $1); print $1 }' \
	    /proc/interrupts | sort -n)
	[ -n "$want" ]
	run --separate-stderr irqaff show -J -o irq,affinity
	assert_success
	assert_equal "$stderr" ""
	run jq -r '.interrupts[] | "\(.irq) \(.affinity // "null")"' \
	    <<<"$output"
	assert_success
	assert_output "${want%$'\n'}"
}

@test "show prints the new affinity of a real IRQ after set" {
	run irqaff set "$IRQ" "$TARGET"
	assert_success
	run --separate-stderr irqaff show -n -o irq,affinity "$IRQ"
	assert_success
	assert_output "$(printf '%s %s' "$IRQ" "$TARGET")"
}

# save_all: every IRQ's list, for teardown to put back.
save_all() {
	local f
	for f in /proc/irq/[0-9]*/smp_affinity_list; do
		f=${f%/smp_affinity_list}
		printf '%s %s\n' "${f##*/}" "$(cat "$f/smp_affinity_list")"
	done >"$BATS_TEST_TMPDIR/all"
}

@test "isolate keeps the last online CPU free of every movable IRQ" {
	local online last irq list second
	online=$(cat /sys/devices/system/cpu/online)
	last=$(cpu_last /sys/devices/system/cpu/online)
	if [ "$online" = "$last" ]; then
		skip "one online CPU"
	fi
	save_all
	run --separate-stderr irqaff isolate -q "$last"
	assert_success
	assert_output ""
	run irqaff list -b "$NBITS" "$(cat "$DEFAULT")"
	refute cpu_in "$last" "$output"
	# a second run changes nothing; what stays is what the kernel
	# refused (IRQD_NO_BALANCING, kernel-managed)
	run --separate-stderr irqaff isolate -J "$last"
	assert_success
	second=$output
	run jq -r '(.changed + .failed)[] | .irq' <<<"$second"
	assert_success
	assert_output ""
	while read -r irq list; do
		list=$(cat "/proc/irq/$irq/smp_affinity_list")
		if cpu_in "$last" "$list"; then
			run jq -e ".managed[] | select(.irq == $irq)" <<<"$second"
			assert_success
		fi
	done <"$BATS_TEST_TMPDIR/all"
}
