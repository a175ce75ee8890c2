#!/usr/bin/env bats
# show with a selector reads each selected IRQ's sys/kernel/irq/N
# (kernel/irq/irqdesc.c) in place of the whole /proc/interrupts matrix,
# and what it prints is what the matrix says. The matrix is read only
# for what sysfs cannot give: a per_cpu_count cut at one page, or a
# kernel without sys/kernel/irq; then only up to the last IRQ that needs
# it.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	FIXTURES=$BATS_TEST_DIRNAME/../fixtures/interrupts
	COLS=irq,affinity,effective,node,total,chip,hwirq,type,flow,name
}

# opened LOG: the paths the traced run opened under the root, one a line.
opened() {
	sed -n 's/.*openat2\{0,1\}([^"]*"\([^"]*\)".*/\1/p' "$1" |
		sed "s|^$ROOT/||"
}

# traced ARGS...: irqaff ARGS under strace; the log in $LOG.
traced() {
	LOG=$BATS_TEST_TMPDIR/strace.log
	run --separate-stderr strace -f -e trace=openat,openat2,read \
		-o "$LOG" irqaff "$@"
}

@test "for every real dump, a selection shows what the whole matrix shows" {
	local dump ncpus full
	for dump in "$FIXTURES"/*.txt; do
		rm -rf "$BATS_TEST_TMPDIR/root"
		ncpus=$(grep -v -m 1 '^# ' "$dump" | wc -w)
		make_root --cpus "$ncpus"
		install_interrupts "$dump"
		run --separate-stderr -0 irqaff show -J -o "$COLS"
		assert_equal "$stderr" ""
		full=$output
		run --separate-stderr -0 irqaff show -J -o "$COLS" 0-1000000
		assert_equal "$stderr" ""
		assert_equal "$output" "$full"
	done
}

@test "show N reads sys/kernel/irq/N and never proc/interrupts" {
	strace_works
	make_root --cpus 4 --irq 24=acpi --irq '25=a|b'
	traced show -o "$COLS" 25
	assert_success
	assert_equal "$stderr" ""
	assert_output "$(printf '%s\n' \
		'IRQ AFFINITY EFFECTIVE NODE   TOTAL CHIP    HWIRQ TYPE FLOW NAME' \
		" 25 0-3      1            0 $(irq_total 25) IO-APIC    25 Edge edge a, b")"
	run opened "$LOG"
	refute_line proc/interrupts
	assert_line sys/kernel/irq/25/per_cpu_count
	refute_line --partial sys/kernel/irq/24
}

@test "show N without counted or kernel columns opens nothing in sys/kernel/irq" {
	strace_works
	make_root --cpus 4 --irq 24=acpi
	traced show -o irq,affinity,node 24
	assert_success
	assert_output "$(printf '%s\n' 'IRQ AFFINITY NODE' ' 24 0-3         0')"
	run opened "$LOG"
	refute_line --partial sys/kernel/irq
	refute_line proc/interrupts
}

@test "a per_cpu_count cut at one page: the total comes from proc/interrupts" {
	strace_works
	# 600 CPUs count 7 digits each: 4800 bytes, cut at 4095
	make_root --cpus 600 --irq 30=first --irq 31=second --irq 90=last
	run -0 wc -c <"$ROOT/sys/kernel/irq/31/per_cpu_count"
	assert_output 4095
	traced show -o irq,total,name 31
	assert_success
	assert_equal "$stderr" ""
	assert_output "$(printf '%s\n' 'IRQ     TOTAL NAME' \
		" 31 $(irq_total 31) second")"
	run opened "$LOG"
	assert_line proc/interrupts
}

@test "a per_cpu_count not of one count for each possible CPU: the total comes from proc/interrupts" {
	make_root --cpus 4 --irq 24=acpi
	local f=$ROOT/sys/kernel/irq/24/per_cpu_count text
	for text in '1,2,3' '1,2,3,4,5' '1,2,3,4,5,1,1,1,1' '4294967296,0,0,0' \
		'1,2,,4' '1,2,3,4 '; do
		printf '%s\n' "$text" >"$f"
		run --separate-stderr -0 irqaff show -o irq,total 24
		assert_equal "$stderr" ""
		assert_output "$(printf '%s\n' 'IRQ   TOTAL' " 24 $(irq_total 24)")"
	done
}

@test "TOTAL leaves out what per_cpu_count says of an offline CPU, as proc/interrupts does" {
	make_root --cpus 4 --irq 24=acpi
	set_online 0-2
	printf '1,2,3,1000\n' >"$ROOT/sys/kernel/irq/24/per_cpu_count"
	run --separate-stderr -0 irqaff show -o irq,total 24
	assert_output "$(printf '%s\n' 'IRQ TOTAL' ' 24     6')"
	# 4294967295 is a count still
	printf '4294967295,0,0,0\n' >"$ROOT/sys/kernel/irq/24/per_cpu_count"
	run --separate-stderr -0 irqaff show -o irq,total 24
	assert_output "$(printf '%s\n' 'IRQ      TOTAL' ' 24 4294967295')"
}

@test "an IRQ without its sys/kernel/irq/N is read from the matrix" {
	make_root --cpus 4 --irq 24=acpi --irq '25=a|b'
	rm -r -- "$ROOT/sys/kernel/irq/25"
	run --separate-stderr -0 irqaff show -o "$COLS" 25
	assert_equal "$stderr" ""
	assert_output "$(printf '%s\n' \
		'IRQ AFFINITY EFFECTIVE NODE   TOTAL CHIP    HWIRQ TYPE FLOW NAME' \
		" 25 0-3      1            0 $(irq_total 25) IO-APIC    25 -    edge a, b")"
}

@test "a cut per_cpu_count of an IRQ without a row in proc/interrupts has no total" {
	make_root --cpus 4 --irq 24=a --irq 25=b --irq 26=c
	printf '1,2' >"$ROOT/sys/kernel/irq/25/per_cpu_count"
	sed -i '/^ *25:/d' "$ROOT/proc/interrupts"
	run --separate-stderr -0 irqaff show -o irq,total,name 24-26
	assert_equal "$stderr" ""
	assert_output "$(printf '%s\n' 'IRQ   TOTAL NAME' \
		" 24 $(irq_total 24) a" ' 25       - b' " 26 $(irq_total 26) c")"
}

@test "proc/interrupts is read only up to the last IRQ that needs it" {
	strace_works
	# 64 rows of 6.6 KB after IRQ 30, far more than one read
	make_root --cpus 600 --irq 30=first --nic eth0:63:0:100
	local size got
	size=$(stat -c %s "$ROOT/proc/interrupts")
	traced show -o irq,total 30
	assert_success
	assert_output "$(printf '%s\n' 'IRQ     TOTAL' " 30 $(irq_total 30)")"
	# the reads of proc/interrupts' descriptor, summed
	got=$(awk '/openat2?\(.*proc\/interrupts"/ { split($0, a, "= "); fd = a[2] }
		fd != "" && $0 ~ "read\\(" fd "," { split($0, a, "= "); n += a[2] }
		END { print n + 0 }' "$LOG")
	((got > 0 && got < size)) || fail "read $got of $size bytes"
}

@test "without sys/kernel/irq, show N reads the matrix and says the same" {
	make_root --cpus 4 --no-sysirq --irq 24=acpi --irq '25=a|b'
	run --separate-stderr -0 irqaff show -o "$COLS" 25
	assert_equal "$stderr" ""
	assert_output "$(printf '%s\n' \
		'IRQ AFFINITY EFFECTIVE NODE   TOTAL CHIP    HWIRQ TYPE FLOW NAME' \
		" 25 0-3      1            0 $(irq_total 25) IO-APIC    25 -    edge a, b")"
}

@test "a sys/kernel/irq/N without per_cpu_count: show N takes TOTAL from the matrix" {
	make_root --cpus 4 --irq 24=acpi --irq 25=kbd
	rm "$ROOT/sys/kernel/irq/25/per_cpu_count"
	run --separate-stderr -0 irqaff show -o irq,total,name 24,25
	assert_equal "$stderr" ""
	assert_output "$(printf '%s\n' 'IRQ   TOTAL NAME' \
		" 24 $(irq_total 24) acpi" " 25 $(irq_total 25) kbd")"
}

@test "TYPE comes from sys/kernel/irq when the matrix does not show it" {
	make_root --cpus 2 --irq 24=acpi --hwirq 9-fasteoi --irq 25=kbd
	run --separate-stderr -0 irqaff show -o irq,type,flow
	assert_output "$(printf '%s\n' 'IRQ TYPE  FLOW' \
		' 24 Level fasteoi' ' 25 Edge  edge')"
}
