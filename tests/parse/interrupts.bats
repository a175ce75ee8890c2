#!/usr/bin/env bats
# The /proc/interrupts rows of real machines: show splits every dump of
# tests/fixtures/interrupts/ into CHIP, HWIRQ, TYPE, FLOW and NAME exactly
# as the dump's .expected file says (see that directory's README).

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	FIXTURES=$BATS_TEST_DIRNAME/../fixtures/interrupts
}

# load_dump KIND: a tree with as many CPUs as KIND.txt's header names and
# that dump as its proc/interrupts; no sys/kernel/irq, so that everything
# show prints comes from the dump (tests/core/sysirq.bats checks the other).
load_dump() {
	local dump=$FIXTURES/$1.txt ncpus
	ncpus=$(grep -v -m 1 '^# ' "$dump" | wc -w)
	make_root --cpus "$ncpus" --no-sysirq
	install_interrupts "$dump"
}

# row_totals NCPUS: each numbered row of proc/interrupts as "IRQ TOTAL",
# the sum of the numbers in its first NCPUS count fields.
row_totals() {
	awk -v n="$1" '$1 ~ /^[0-9]+:$/ {
		s = 0
		for (i = 2; i <= n + 1 && $i ~ /^[0-9]+$/; i++)
			s += $i
		printf "%d %.0f\n", $1, s
	}' "$ROOT/proc/interrupts"
}

# check_dump KIND: show's split of KIND.txt is KIND.expected, one TSV line
# per numbered row, an absent field empty; its TOTAL is each row's sum.
check_dump() {
	local ncpus
	load_dump "$1"
	run --separate-stderr irqaff show -q -J -o irq,chip,hwirq,type,flow,name
	assert_success
	assert_equal "$stderr" ""
	run jq -r '.interrupts[] | [.irq, .chip, .hwirq, .type, .flow, .name] |
		map(. // "") | @tsv' <<<"$output"
	assert_success
	assert_equal "$output" "$(<"$FIXTURES/$1.expected")"
	ncpus=$(grep -v -m 1 '^# ' "$FIXTURES/$1.txt" | wc -w)
	run --separate-stderr irqaff show -n -o irq,total
	assert_success
	assert_equal "$(awk '{ $1 = $1 } 1' <<<"$output")" "$(row_totals "$ncpus")"
}

@test "every dump in the fixtures has its test here" {
	local f kind
	for f in "$FIXTURES"/*.txt; do
		kind=$(basename "$f" .txt)
		assert [ -f "$FIXTURES/$kind.expected" ]
		run grep -c "^	check_dump $kind\$" "$BATS_TEST_FILENAME"
		assert_output 1
	done
}

@test "install_interrupts writes the dump without its comment lines" {
	local kind=x86_64-server-32cpu-rhel6-2.6.32
	load_dump "$kind"
	run cmp "$ROOT/proc/interrupts" <(grep -v '^# ' "$FIXTURES/$kind.txt")
	assert_success
	assert_equal "$(<"$ROOT/proc/irq/0/smp_affinity_list")" '0-31'
	assert_equal "$(<"$ROOT/proc/irq/0/effective_affinity_list")" '0'
}

@test "arm64 GICv3: padded chips, an irq_print_chip one, hwirq and Level" {
	check_dump arm64-rk3399-gicv3
}

@test "arm64 Xen dom0: a blank hwirq before Edge and a flow after it" {
	check_dump arm64-xen-dom0-versal-gicv3-its
}

@test "powerpc XIVE: 8-character chips and hwirqs wider than the IRQ column" {
	check_dump powerpc64-pseries-kvm-xive
}

@test "riscv PLIC: chip names with a blank in them" {
	check_dump riscv64-jh7110-sifive-plic
}

@test "riscv AIA: a long chip, a hwirq, Level and a flow on one row" {
	check_dump riscv64-qemu-virt-aia-aplic
}

@test "x86 Linux 6.6: per-device MSI chips and a row with no flow" {
	check_dump x86_64-chromebook-n100-linux6.6
}

@test "x86 Linux 6.13: one blank fewer before the chip" {
	check_dump x86_64-desktop-32cpu-linux6.13plus
}

@test "x86 Hyper-V: a chip of three words and a 13-digit hwirq" {
	check_dump x86_64-hyperv-wsl2
}

@test "x86 KVM guest: IO-APIC and PCI-MSI rows with hwirqs" {
	check_dump x86_64-kvm-qemu-guest-virtio
}

@test "x86 Linux 2.6.32: chip and flow glued, rows without an action" {
	check_dump x86_64-server-32cpu-rhel6-2.6.32
}

@test "x86 3.x: IR-PCI-MSI-edge and action names that start with digits" {
	check_dump x86_64-server-40cpu-old-ir-pci-msi-edge
}

@test "x86 Linux 3.2: 80 CPUs and plain IO-APIC-edge" {
	check_dump x86_64-server-80cpu-linux3.2
}

@test "x86 AMD server: IOMMU-MSI and hwirqs of nine digits" {
	check_dump x86_64-server-amd-48cpu-hwirq
}

@test "x86 Linux 4.13: a hwirq after IR-PCI-MSI, not part of its name" {
	check_dump x86_64-server-intel-32cpu-linux4.13
}

@test "x86 Xen HVM, old: xen-pirq with the flow ioapic-edge" {
	check_dump x86_64-xen-hvm-guest-old
}

@test "x86 Xen HVM on KVM: hwirqs glued to long flows, and blank ones" {
	check_dump x86_64-xen-hvm-guest-on-qemu-kvm
}

@test "show prints TYPE and FLOW in the table, HWIRQ to the right" {
	load_dump riscv64-qemu-virt-aia-aplic
	run --separate-stderr irqaff show -q -o irq,chip,hwirq,type,flow,name
	assert_success
	assert_equal "$stderr" ""
	assert_output "$(printf '%s\n' \
		'IRQ CHIP                    HWIRQ TYPE  FLOW    NAME' \
		' 10 RISC-V INTC                 5 Edge  -       riscv-timer' \
		' 11 APLIC-MSI-d000000.aplic     8 Level fasteoi virtio0' \
		' 12 APLIC-MSI-d000000.aplic    10 Level fasteoi ttyS0' \
		' 13 APLIC-MSI-d000000.aplic    11 Level fasteoi 101000.rtc')"
}

# with_row24 FIELDS: proc/interrupts of a 20-CPU tree (a block of 16
# fields, then 4) with row 24's count fields replaced by FIELDS.
with_row24() {
	awk -v f="$1" '$1 == "24:" { $0 = " 24:" f substr($0, 225) } { print }' \
		"$BATS_TEST_TMPDIR/interrupts" >"$ROOT/proc/interrupts"
}

# ones N: N count fields of 1, as the kernel prints them.
ones() {
	local i
	for ((i = 0; i < $1; i++)); do
		printf ' %10s' 1
	done
}

@test "a row's counts in the kernel's widths: beyond 2^32-1 in a block of 16 or after it, a stray separator, a blank field and a glued count" {
	make_root --cpus 20 --irq 24=a --no-sysirq
	cp "$ROOT/proc/interrupts" "$BATS_TEST_TMPDIR/interrupts"
	local wide="irqaff: $ROOT/proc/interrupts: IRQ 24: a count wider than 32 bits; its TOTAL is unknown"
	with_row24 "$(printf ' %10s' 4294967295)$(ones 19)"
	run --separate-stderr -0 irqaff show -o irq,total 24
	assert_output $'IRQ      TOTAL\n 24 4294967314'
	assert_equal "$stderr" ''
	with_row24 "$(printf ' %10s' 4294967296)$(ones 19)"
	run --separate-stderr -0 irqaff show -o irq,total 24
	assert_output $'IRQ TOTAL\n 24     -'
	assert_equal "$stderr" "$wide"
	with_row24 "$(ones 17)$(printf ' %10s' 4294967296)$(ones 2)"
	run --separate-stderr -0 irqaff show -o irq,total 24
	assert_output $'IRQ TOTAL\n 24     -'
	assert_equal "$stderr" "$wide"
	# '#' where the blank before CPU4's count goes: no row of counts
	with_row24 "$(ones 4)#$(printf '%10s' 1)$(ones 15)"
	run --separate-stderr -0 irqaff show -o irq,total 24
	assert_output $'IRQ TOTAL\n 24     -'
	# CPU15's field blank: the numbers are read in turn, CPU19 gets none
	with_row24 "$(ones 15)$(printf '%11s' '')$(ones 4)"
	run --separate-stderr -0 irqaff cpus -o cpu,total 15,19
	assert_output $'CPU TOTAL\n 15     1\n 19     0'
	# a digit glued to the last count is part of it
	with_row24 "$(ones 20)5"
	run --separate-stderr -0 irqaff show -o irq,total 24
	assert_output $'IRQ TOTAL\n 24    34'
}

@test "show --help describes HWIRQ, TYPE and FLOW" {
	run --separate-stderr irqaff show --help
	assert_success
	assert_line --regexp '^  HWIRQ +hardware IRQ number in its domain$'
	assert_line --regexp '^  TYPE +trigger: Level or Edge$'
	assert_line --regexp '^  FLOW +flow handler, as edge or fasteoi$'
}
