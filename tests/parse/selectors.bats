#!/usr/bin/env bats
# IRQ selectors, shared by set, spread, show and explain: numbers, ranges,
# all, globs over whole action names, dev:NAME, cpu:LIST; an item that
# matches nothing is refused with exit 1 (grep's rule; a malformed one exit
# 2) and nothing is written.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	load ../test_helper/select
	# 40 eth0, 41 eth0-TxRx-0, 42 eth0-TxRx-1 (PCI 0000:3b:00.0);
	# 50 nvme0q0, 51 nvme0q1, 52 nvme0q2 (PCI 0000:3c:00.0).
	make_root --cpus 4 --irq '24=eth1' --irq '25=eth10-TxRx-0' \
		--irq '26=name with spaces' --irq '27=a,b|c d' --irq '30=timer' \
		--nic eth0:2:0:40 --nvme nvme0:2:0:50
}

@test "a number selects that IRQ" {
	selected 24
	assert_success
	assert_output "24"
	assert_equal "$stderr" ""
}

@test "a range selects the IRQs in it that exist" {
	selected 26-41
	assert_success
	assert_output "$(printf '%s\n' 26 27 30 40 41)"
}

@test "a range of one IRQ is that IRQ" {
	selected 30-30
	assert_success
	assert_output "30"
}

@test "all selects every IRQ directory, also those without a row in interrupts" {
	mkdir "$(irq_dir 60)"
	selected all
	assert_success
	assert_output "$(printf '%s\n' 24 25 26 27 30 40 41 42 50 51 52 60)"
}

@test "a glob matches a whole action name, not a prefix" {
	selected eth1
	assert_success
	assert_output "24"
}

@test "a glob with a star matches every name it fits" {
	selected 'eth1*'
	assert_success
	assert_output "$(printf '%s\n' 24 25)"
}

@test "eth0-* picks the queues and leaves out the IRQ named eth0" {
	selected 'eth0-*'
	assert_success
	assert_output "$(printf '%s\n' 41 42)"
}

@test "a glob with a bracket expression picks what it describes" {
	selected 'nvme0q[12]'
	assert_success
	assert_output "$(printf '%s\n' 51 52)"
}

@test "a glob matches a name with spaces" {
	selected 'name with spaces'
	assert_success
	assert_output "26"
}

@test "a glob matches any one action of a shared IRQ" {
	selected 'c d'
	assert_success
	assert_output "27"
}

@test "a glob matches an action name with a comma in it" {
	selected 'a?b'
	assert_success
	assert_output "27"
}

@test "a glob does not match a piece of an action name cut at its comma" {
	refused a
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" 'irqaff: IRQ list "a": "a" matches no IRQ'
}

@test "a glob is matched against action names, not the joined NAME column" {
	refused '*b, c*'
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" 'irqaff: IRQ list "*b, c*": " c*" matches no IRQ'
}

@test "dev:NAME selects the MSI IRQs of a network interface" {
	selected dev:eth0
	assert_success
	assert_output "$(printf '%s\n' 40 41 42)"
}

@test "dev:NAME selects the MSI IRQs of a PCI address" {
	selected dev:0000:3b:00.0
	assert_success
	assert_output "$(printf '%s\n' 40 41 42)"
}

@test "dev:NAME selects the MSI IRQs of an NVMe controller" {
	selected dev:nvme0
	assert_success
	assert_output "$(printf '%s\n' 50 51 52)"
}

@test "dev:NAME without msi_irqs entries falls back to the device's irq file" {
	rm "$ROOT"/sys/devices/pci0000:00/0000:3b:00.0/msi_irqs/*
	selected dev:eth0
	assert_success
	assert_output "40"
}

@test "items combine, in IRQ order and without repeats" {
	selected 'eth0-*,24-25,24,dev:nvme0,timer'
	assert_success
	assert_output "$(printf '%s\n' 24 25 30 41 42 50 51 52)"
}

@test "a number that is no IRQ is refused with exit 1" {
	refused 99
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" "irqaff: IRQ 99 does not exist"
}

@test "a range with no IRQ in it is refused with exit 1" {
	refused 90-99
	assert_failure 1
	assert_equal "$stderr" 'irqaff: IRQ list "90-99": no IRQ in 90-99'
	# two numbers are a range, one is an IRQ
	refused 90-91
	assert_equal "$stderr" 'irqaff: IRQ list "90-91": no IRQ in 90-91'
	refused 90-90
	assert_equal "$stderr" 'irqaff: IRQ 90 does not exist'
}

@test "a glob that matches nothing is refused with exit 1" {
	refused 'nomatch*'
	assert_failure 1
	assert_equal "$stderr" 'irqaff: IRQ list "nomatch*": "nomatch*" matches no IRQ'
}

@test "a device that does not exist is refused with exit 1" {
	refused dev:eth9
	assert_failure 1
	assert_equal "$stderr" 'irqaff: IRQ list "dev:eth9": device eth9 has no IRQs or does not exist'
}

@test "the first item that matches nothing is reported, in one line" {
	refused 24,98,99
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" "irqaff: IRQ 98 does not exist"
}

@test "an empty item is an error" {
	selected 24,,25
	assert_failure 2
	assert_equal "$stderr" 'irqaff: IRQ list "24,,25": empty item'
}

@test "an empty selector is an error" {
	selected ''
	assert_failure 2
	assert_equal "$stderr" 'irqaff: IRQ list "": empty item'
}

@test "a range that runs backwards is an error" {
	selected 27-24
	assert_failure 2
	assert_equal "$stderr" 'irqaff: IRQ list "27-24": range "27-24" runs backwards'
	# by one: still backwards, not an empty range
	selected 25-24
	assert_failure 2
	assert_equal "$stderr" 'irqaff: IRQ list "25-24": range "25-24" runs backwards'
}

@test "a range without its end is an error" {
	selected -- 24-
	assert_failure 2
	assert_equal "$stderr" 'irqaff: IRQ list "24-": "24-" is not an IRQ or range'
}

@test "a number too large for an IRQ is an error" {
	selected 99999999999
	assert_failure 2
	assert_equal "$stderr" 'irqaff: IRQ list "99999999999": IRQ "99999999999" is too large'
}

@test "dev: without a name is an error" {
	selected dev:
	assert_failure 2
	assert_equal "$stderr" 'irqaff: IRQ list "dev:": "dev:" names no device'
}

@test "dev: with a slash is an error and does not leave sys/" {
	selected dev:../../../proc
	assert_failure 2
	assert_equal "$stderr" 'irqaff: IRQ list "dev:../../../proc": "dev:../../../proc" names no device'
}

@test "dev:. and dev:.. name no device: bad input, where dev:.x only matches nothing" {
	local sel
	for sel in dev:. dev:.. 'dev:"."' 'dev:".."'; do
		selected "$sel"
		assert_failure 2
		assert_equal "$stderr" "irqaff: IRQ list \"$sel\": \"$sel\" names no device"
	done
	selected dev:.x
	assert_failure 1
	assert_equal "$stderr" 'irqaff: note: IRQ list "dev:.x": device .x has no IRQs or does not exist'
}

@test "a selector with a newline is quoted on one line" {
	refused $'no\nsuch'
	assert_failure 1
	assert_equal "$stderr" 'irqaff: IRQ list "no\nsuch": "no\nsuch" matches no IRQ'
}

@test "set writes only the IRQs the glob selects" {
	run --separate-stderr irqaff set eth1 1
	assert_success
	assert_equal "$(cat "$(irq_dir 24)/smp_affinity_list")" "1"
	assert_equal "$(cat "$(irq_dir 25)/smp_affinity_list")" "0-3"
}

@test "set writes every IRQ of dev:NAME" {
	run --separate-stderr irqaff set dev:eth0 2
	assert_success
	assert_equal "$(cat "$(irq_dir 40)/smp_affinity_list")" "2"
	assert_equal "$(cat "$(irq_dir 41)/smp_affinity_list")" "2"
	assert_equal "$(cat "$(irq_dir 42)/smp_affinity_list")" "2"
	assert_equal "$(cat "$(irq_dir 50)/smp_affinity_list")" "0-3"
}

@test "set writes nothing when one item of several matches nothing" {
	local before
	before=$(tree_sum)
	run --separate-stderr irqaff set 'eth0-*,24,nosuch' 1
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" 'irqaff: IRQ list "eth0-*,24,nosuch": "nosuch" matches no IRQ'
	# of several that match nothing, the first is named
	run --separate-stderr irqaff set 'nosuch,24,9999,dev:nosuch' 1
	assert_failure 1
	assert_equal "$stderr" 'irqaff: IRQ list "nosuch,24,9999,dev:nosuch": "nosuch" matches no IRQ'
	assert_equal "$(tree_sum)" "$before"
}

# For cpu:LIST. 8 CPUs, node 0 0-3 and node 1 4-7; each IRQ requests
# (AFFINITY) and runs on (EFFECTIVE):
#   24 a  0-3  1    25 b  2-5  3    26 c  3  3    27 d  4-7  6    28 e  0-7  0
cpu_root() {
	make_root --dir "$BATS_TEST_TMPDIR/cpu" --cpus 8 --nodes 2 \
		--irq 24=a --affinity 0-3 --effective 1 \
		--irq 25=b --affinity 2-5 --effective 3 \
		--irq 26=c --affinity 3 --effective 3 \
		--irq 27=d --affinity 4-7 --effective 6 \
		--irq 28=e --effective 0 "$@"
}

@test "cpu:N selects the IRQs that run on CPU N" {
	cpu_root
	selected cpu:3
	assert_success
	assert_output "$(printf '%s\n' 25 26)"
	assert_equal "$stderr" ""
	selected cpu:6
	assert_success
	assert_output "27"
}

@test "cpu: takes a CPU list with ranges and commas" {
	cpu_root
	selected cpu:0-1
	assert_success
	assert_output "$(printf '%s\n' 24 28)"
	selected cpu:1,6
	assert_success
	assert_output "$(printf '%s\n' 24 27)"
	selected cpu:1-7:2/4
	assert_success
	assert_output "$(printf '%s\n' 24 27)"
}

@test "show cpu:3 -J lists exactly the IRQs whose effective CPUs include 3" {
	cpu_root
	run --separate-stderr irqaff show cpu:3 -J -o irq,affinity,effective
	assert_success
	assert_output '{"interrupts":[{"irq":25,"affinity":"2-5","affinity_cpus":[2,3,4,5],"affinity_nodes":[0,1],"effective":"3","effective_cpus":[3],"effective_nodes":[0]},{"irq":26,"affinity":"3","affinity_cpus":[3],"affinity_nodes":[0],"effective":"3","effective_cpus":[3],"effective_nodes":[0]}]}'
	assert_equal "$stderr" ""
}

@test "cpu: reads the requested CPUs where there are no effective files" {
	cpu_root --no-effective
	selected cpu:3
	assert_success
	assert_output "$(printf '%s\n' 24 25 26 28)"
	selected cpu:7
	assert_success
	assert_output "$(printf '%s\n' 27 28)"
	run --separate-stderr irqaff show -J -o irq,affinity,effective cpu:6-7
	assert_success
	assert_output '{"interrupts":[{"irq":27,"affinity":"4-7","affinity_cpus":[4,5,6,7],"affinity_nodes":[1],"effective":null,"effective_cpus":null,"effective_nodes":null},{"irq":28,"affinity":"0-7","affinity_cpus":[0,1,2,3,4,5,6,7],"affinity_nodes":[0,1],"effective":null,"effective_cpus":null,"effective_nodes":null}]}'
}

@test "cpu: reads the effective mask file where there is no list file" {
	cpu_root --no-list-files
	selected cpu:3
	assert_success
	assert_output "$(printf '%s\n' 25 26)"
	rm -rf "$BATS_TEST_TMPDIR/cpu"
	cpu_root --no-list-files --no-effective
	selected cpu:7
	assert_success
	assert_output "$(printf '%s\n' 27 28)"
}

@test "cpu: falls back to the requested CPUs IRQ by IRQ" {
	cpu_root
	rm "$(irq_dir 24)"/effective_affinity*
	selected cpu:3
	assert_success
	assert_output "$(printf '%s\n' 24 25 26)"
}

@test "cpu: combines with the items before it, without repeats" {
	cpu_root
	selected 24,cpu:3
	assert_success
	assert_output "$(printf '%s\n' 24 25 26)"
	selected 'e,25,cpu:3,6'
	assert_success
	assert_output "$(printf '%s\n' 25 26 27 28)"
}

@test "cpu: takes the rest of the argument: an item after it is a CPU" {
	cpu_root
	selected cpu:3,24
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" 'irqaff: IRQ list "cpu:3,24": CPU list "3,24": CPU 24 is beyond the last possible CPU 7'
	# an item no CPU set has: an IRQ item after the last
	local item
	for item in a dev:eth0 'eth0-*' cpu:1 '*'; do
		selected "cpu:3,$item"
		assert_failure 2
		assert_output ''
		assert_equal "$stderr" "irqaff: IRQ list \"cpu:3,$item\": \"cpu:\" must be the last item: \"$item\" follows it"
	done
	# the words of a CPU set are still its own
	selected cpu:3,N
	assert_success
	selected cpu:x
	assert_failure 2
	assert_equal "$stderr" 'irqaff: IRQ list "cpu:x": CPU list "x": region "x": "x" is not a number'
}

@test "cpu:node:K selects the IRQs that run on node K's CPUs" {
	cpu_root
	selected cpu:node:1
	assert_success
	assert_output "27"
	selected cpu:node:0
	assert_success
	assert_output "$(printf '%s\n' 24 25 26 28)"
	selected 26,cpu:1,node:1
	assert_success
	assert_output "$(printf '%s\n' 24 26 27)"
}

@test "cpu:0x is a CPU mask" {
	cpu_root
	selected cpu:0x48
	assert_success
	assert_output "$(printf '%s\n' 25 26 27)"
	selected cpu:0X2
	assert_success
	assert_output "24"
}

@test "cpu:0x takes a mask with commas whole" {
	make_root --dir "$BATS_TEST_TMPDIR/wide" --cpus 40 \
		--irq 24=a --effective 33 --irq 25=b --effective 1
	selected cpu:0x2,00000000
	assert_success
	assert_output "24"
	selected cpu:0x2,00000002
	assert_success
	assert_output "$(printf '%s\n' 24 25)"
}

@test "an IRQ whose effective CPUs cannot be read is said and not picked" {
	cpu_root
	printf 'x\n' >"$(irq_dir 25)/effective_affinity_list"
	selected cpu:3
	assert_success
	assert_output "26"
	assert_equal "$stderr" "irqaff: irq 25: $ROOT/proc/irq/25/effective_affinity_list: region \"x\": \"x\" is not a number"
}

@test "explain cpu: explains the IRQs that run there" {
	cpu_root
	run --separate-stderr irqaff explain -v cpu:3
	assert_success
	assert_output - <<-'EOF'
		irq 25 b: single-target: 2-5 requested, delivered to CPU 3 only: the kernel delivers each interrupt to one CPU of the set
		irq 26 c: ok: 3 requested, runs on CPU 3
	EOF
}

@test "spread cpu: spreads the IRQs that run there" {
	cpu_root
	run --separate-stderr irqaff spread -n -c 4-5 cpu:3
	assert_success
	assert_output "$(printf '%s\n' 'irq 25 b: 4' 'irq 26 c: 5')"
}

@test "set cpu: writes exactly the IRQs that run there" {
	cpu_root
	run --separate-stderr irqaff set cpu:3 1
	assert_success
	assert_equal "$stderr" ""
	assert_equal "$(lists 24 25 26 27 28)" "$(printf '%s\n' 0-3 1 1 4-7 0-7)"
	run --separate-stderr irqaff set -v 24,cpu:node:1 0-1
	assert_success
	assert_output "$(printf '%s\n' 'irq 24: 0-3 -> 0-1' 'irq 27: 4-7 -> 0-1')"
	assert_equal "$(lists 24 25 26 27 28)" "$(printf '%s\n' 0-1 1 1 0-1 0-7)"
}

@test "set cpu: leaves a managed IRQ to the kernel, unless it is named" {
	cpu_root --managed 26
	run --separate-stderr irqaff set cpu:3 1
	assert_success
	assert_equal "$stderr" "irqaff: note: 1 kernel-managed IRQ left to the kernel"
	assert_equal "$(lists 25 26)" "$(printf '%s\n' 1 3)"
	run --separate-stderr irqaff set 26,cpu:3 2
	assert_failure 3
	assert_equal "$stderr" "irqaff: irq 26: cannot set 2: managed by the kernel, it cannot be moved by user space (debugfs)"
	assert_equal "$(lists 25 26)" "$(printf '%s\n' 2 3)"
}

@test "cpu: with no CPUs after it is an error" {
	cpu_root
	selected cpu:
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" 'irqaff: IRQ list "cpu:": "cpu:" names no CPUs'
	selected 24,cpu:
	assert_failure 2
	assert_equal "$stderr" 'irqaff: IRQ list "24,cpu:": "cpu:" names no CPUs'
}

@test "cpu: with a bad CPU set is an error, named before items that match nothing" {
	cpu_root
	selected cpu:x
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" 'irqaff: IRQ list "cpu:x": CPU list "x": region "x": "x" is not a number'
	selected 99,cpu:9
	assert_failure 2
	assert_equal "$stderr" 'irqaff: IRQ list "99,cpu:9": CPU list "9": CPU 9 is beyond the last possible CPU 7'
	selected cpu:node:2
	assert_failure 2
	assert_equal "$stderr" 'irqaff: IRQ list "cpu:node:2": CPU list "node:2": NUMA node 2 does not exist'
	selected cpu:0x0
	assert_failure 2
	assert_equal "$stderr" 'irqaff: IRQ list "cpu:0x0": CPU mask "0x0": selects no CPU'
	selected $'cpu:1\n2'
	assert_failure 2
	assert_equal "$stderr" 'irqaff: IRQ list "cpu:1\n2": CPU list "1\n2": a newline before the end'
}

@test "cpu: that picks no IRQ is refused with exit 1" {
	cpu_root
	refused cpu:7
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" 'irqaff: IRQ list "cpu:7": no IRQ runs on CPU 7'
	refused 24,cpu:5,7
	assert_failure 1
	assert_equal "$stderr" 'irqaff: IRQ list "24,cpu:5,7": no IRQ runs on CPU 5,7'
	# an item before it that matches nothing is named first
	refused 99,cpu:7
	assert_failure 1
	assert_equal "$stderr" "irqaff: IRQ 99 does not exist"
}

@test "set writes nothing when cpu: is empty, bad or picks no IRQ" {
	local before arg
	cpu_root
	before=$(tree_sum)
	for arg in cpu: 24,cpu:x; do
		run --separate-stderr irqaff set "$arg" 1
		assert_failure 2
		assert_output ""
	done
	for arg in cpu:7 24,cpu:5,7; do
		run --separate-stderr irqaff set "$arg" 1
		assert_failure 1
		assert_output ""
	done
	assert_equal "$stderr" 'irqaff: IRQ list "24,cpu:5,7": no IRQ runs on CPU 5,7'
	assert_equal "$(tree_sum)" "$before"
}

@test "dev:\"NAME\" selects an interface whose name has a comma, a quote or a backslash" {
	rm -rf "$ROOT"
	make_root --cpus 4 --nic 'lan,1:1:0:40' --nic 'x,all:1:0:50' \
		--nic 'a"b\c:1:0:60' --nic 'lan:1:0:70' --irq '1=i8042'
	selected 'dev:"lan,1"'
	assert_success
	assert_output $'40\n41'
	assert_equal "$stderr" ""
	# the unquoted form is dev:lan and IRQ 1, as before
	selected 'dev:lan,1'
	assert_success
	assert_output $' 1\n70\n71'
	selected 'dev:"x,all"'
	assert_output $'50\n51'
	selected 'dev:"a\"b\\c",dev:"l\141n"'
	assert_output $'60\n61\n70\n71'
	selected 'dev:"lan"'
	assert_output $'70\n71'
}

@test "a quoted dev: name must be closed, followed by a comma, and escaped as in snapshot files" {
	local sel want
	while IFS='|' read -r sel want; do
		refused "$sel"
		assert_failure 2
		assert_output ""
		assert_equal "$stderr" "irqaff: IRQ list \"$(sed 's/\\/\\\\/g' <<<"$sel")\": $want"
	done <<-'EOF'
		dev:"lan|"dev:"lan": a string has no closing quote
		dev:"lan\"|"dev:"lan\\"": a string has no closing quote
		dev:"lan"x,1|"dev:"lan"x": no comma after the closing quote
		dev:"a\8"|"dev:"a\\8"": unknown escape in a string
		dev:"a\000"|"dev:"a\\000"": unknown escape in a string
		dev:"a\400"|"dev:"a\\400"": unknown escape in a string
		dev:""|"dev:""" names no device
		dev:"a/b"|"dev:"a/b"" names no device
	EOF
	# well formed, but it matches nothing
	refused 'dev:"eth9"'
	assert_failure 1
	assert_equal "$stderr" 'irqaff: IRQ list "dev:"eth9"": device eth9 has no IRQs or does not exist'
	# \377 is the last byte an octal escape can name, \400 (above) is not
	refused 'dev:"a\377"'
	assert_failure 1
	assert_equal "$stderr" 'irqaff: IRQ list "dev:"a\\377"": device a\377 has no IRQs or does not exist'
	# three digits at most: \1011 is A then 1
	refused 'dev:"\1011"'
	assert_failure 1
	assert_equal "$stderr" 'irqaff: IRQ list "dev:"\\1011"": device A1 has no IRQs or does not exist'
}

@test "a trailing comma is an empty item, after cpu: as after any other item" {
	local sel
	for sel in 'dev:eth0,' '24,' 'cpu:1,' 'cpu:0-1,3,' 'eth0-*,cpu:1,'; do
		selected "$sel"
		assert_failure 2
		assert_equal "$stderr" "irqaff: IRQ list \"$sel\": empty item"
	done
}

@test "ALL and All are all, in any case, as documented; not a glob" {
	local sel
	run -0 irqaff show -n -o irq all
	want=$output
	for sel in ALL All aLl; do
		selected "$sel"
		assert_success
		assert_output "$want"
	done
}
