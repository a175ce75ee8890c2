#!/usr/bin/env bats
# irqaff set: every IRQ and the CPU set are checked before the first
# write; the canonical list goes to smp_affinity_list, or a mask to
# smp_affinity; a second run writes nothing.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
}

# Eight CPUs on two nodes (0-3 and 4-7), three IRQs.
tree() {
	make_root --cpus 8 --nodes 2 --irq 24=a --irq 25=b --irq 26=c "$@"
}

@test "set writes the canonical kernel list and a newline" {
	tree
	run --separate-stderr irqaff set 24 '5,3,1-2'
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	assert_file "$(list_of 24)" $'1-3,5\n'
	assert_file "$(list_of 25)" $'0-7\n'
}

@test "set writes a shorter list over a longer one without leftovers" {
	tree --affinity 0-1,3-5,7
	run irqaff set 26 6
	assert_success
	assert_file "$(list_of 26)" $'6\n'
}

@test "set writes every selected IRQ" {
	tree
	run --separate-stderr irqaff set 24-26 4-5
	assert_success
	assert_file "$(list_of 24)" $'4-5\n'
	assert_file "$(list_of 25)" $'4-5\n'
	assert_file "$(list_of 26)" $'4-5\n'
}

@test "set leaves smp_affinity alone when it writes the list file" {
	tree
	run irqaff set 24 1
	assert_success
	assert_file "$(irq_dir 24)/smp_affinity" $'ff\n'
}

@test "set falls back to a kernel mask in smp_affinity without list files" {
	tree --no-list-files
	run --separate-stderr irqaff set 24 1-2
	assert_success
	assert_equal "$stderr" ""
	assert_file "$(irq_dir 24)/smp_affinity" "$(kmask 8 1-2)"$'\n'
	assert_file "$(irq_dir 24)/smp_affinity" $'06\n'
	[ ! -e "$(list_of 24)" ]
}

@test "the mask fallback has the width of the possible CPUs" {
	make_root --cpus 40 --irq 24=a --no-list-files
	run --separate-stderr irqaff set 24 32-39
	assert_success
	assert_file "$(irq_dir 24)/smp_affinity" $'ff,00000000\n'
	assert_file "$(irq_dir 24)/smp_affinity" "$(kmask 40 32-39)"$'\n'
}

@test "a list longer than 4095 characters goes to smp_affinity as a mask" {
	make_root --cpus 2048 --irq 24=a
	run --separate-stderr irqaff set 24 0-N:1/2
	assert_success
	assert_equal "$stderr" ""
	assert_file "$(irq_dir 24)/smp_affinity" "$(kmask 2048 0-N:1/2)"$'\n'
	assert_file "$(list_of 24)" $'0-2047\n'
}

@test "a second set writes nothing and -v says unchanged" {
	tree
	run irqaff set 24,25 2-3
	assert_success
	local before
	before=$(tree_sum)
	run --separate-stderr irqaff set -v 24,25 2-3
	assert_success
	assert_output "irq 24: 2-3 unchanged
irq 25: 2-3 unchanged"
	assert_equal "$stderr" ""
	assert_equal "$(tree_sum)" "$before"
}

@test "set does not rewrite a list that names the same CPUs another way" {
	tree
	printf '3,2\n' >"$(list_of 24)"
	run --separate-stderr irqaff set -v 24 2-3
	assert_success
	assert_output "irq 24: 2-3 unchanged"
	assert_file "$(list_of 24)" $'3,2\n'
}

@test "set does not rewrite a mask that names the same CPUs another way" {
	tree --no-list-files
	printf '0000000c\n' >"$(irq_dir 24)/smp_affinity"
	run --separate-stderr irqaff set -v 24 2-3
	assert_success
	assert_output "irq 24: 2-3 unchanged"
	assert_file "$(irq_dir 24)/smp_affinity" $'0000000c\n'
}

@test "set -v prints every IRQ, changed or not" {
	tree
	printf '2-3\n' >"$(list_of 25)"
	run --separate-stderr irqaff set -v 24-26 2-3
	assert_success
	assert_output "irq 24: 0-7 -> 2-3
irq 25: 2-3 unchanged
irq 26: 0-7 -> 2-3"
	assert_equal "$stderr" ""
}

@test "set --verbose is -v" {
	tree
	run --separate-stderr irqaff set --verbose 24 1
	assert_success
	assert_output "irq 24: 0-7 -> 1"
}

@test "set -n prints the IRQs that would change and writes nothing" {
	tree
	printf '2-3\n' >"$(list_of 25)"
	local before
	before=$(tree_sum)
	run --separate-stderr irqaff set -n 24-26 2-3
	assert_success
	assert_output "irq 24: 0-7 -> 2-3
irq 26: 0-7 -> 2-3"
	assert_equal "$stderr" ""
	assert_equal "$(tree_sum)" "$before"
}

@test "set -n and -v print an empty affinity as -, as show does" {
	tree
	printf '\n' >"$(list_of 25)"
	local before
	before=$(tree_sum)
	run --separate-stderr irqaff set -n 25 1
	assert_success
	assert_output "irq 25: - -> 1"
	assert_equal "$(tree_sum)" "$before"
	run --separate-stderr irqaff set -v 25 1
	assert_success
	assert_output "irq 25: - -> 1"
	assert_file "$(list_of 25)" $'1\n'
}

@test "set --dry-run with nothing to change prints nothing" {
	tree
	local before
	before=$(tree_sum)
	run --separate-stderr irqaff set --dry-run 24 all
	assert_success
	assert_output ""
	assert_equal "$(tree_sum)" "$before"
}

@test "set without a command-line root writes the tree of IRQAFF_ROOT" {
	tree
	run irqaff set 24 7
	assert_success
	assert_file "$ROOT/proc/irq/24/smp_affinity_list" $'7\n'
}

@test "a CPU set starting with 0x is a mask" {
	tree
	run --separate-stderr irqaff set 24 0xf0
	assert_success
	assert_file "$(list_of 24)" $'4-7\n'
}

@test "set -m reads a plain hex mask" {
	make_root --cpus 40 --irq 24=a
	run --separate-stderr irqaff set -m 24 ff,00000000
	assert_success
	assert_equal "$stderr" ""
	assert_file "$(list_of 24)" $'32-39\n'
}

@test "set --mask reads a mask without 0x" {
	tree
	run --separate-stderr irqaff set --mask 24 11
	assert_success
	assert_file "$(list_of 24)" $'0,4\n'
}

@test "N is the last possible CPU" {
	tree
	run --separate-stderr irqaff set 24,25 N
	assert_success
	assert_file "$(list_of 24)" $'7\n'
	run --separate-stderr irqaff set 25 0-N:1/2
	assert_success
	assert_file "$(list_of 25)" $'0,2,4,6\n'
}

@test "all is every possible CPU" {
	tree --affinity 1
	run --separate-stderr irqaff set 26 all
	assert_success
	assert_file "$(list_of 26)" $'0-7\n'
}

@test "node:K is the CPUs of NUMA node K" {
	tree
	run --separate-stderr irqaff set 24 node:1
	assert_success
	assert_file "$(list_of 24)" $'4-7\n'
}

@test "node:K combines with CPUs and other nodes" {
	tree
	run --separate-stderr irqaff set 24 node:0,6-7
	assert_success
	assert_file "$(list_of 24)" $'0-3,6-7\n'
	run --separate-stderr irqaff set 25 node:1,node:0
	assert_success
	assert_file "$(list_of 25)" $'0-7\n'
}

@test "an offline CPU that is possible is taken, with a note" {
	tree --offline 6-7
	run --separate-stderr irqaff set 24 5-6
	assert_success
	assert_output ""
	assert_equal "$stderr" "irqaff: note: CPU 6 is offline"
	assert_file "$(list_of 24)" $'5-6\n'
}

@test "the note names every offline CPU of the set" {
	tree --offline 6-7
	run --separate-stderr irqaff set 24 all
	assert_success
	assert_equal "$stderr" "irqaff: note: CPU 6-7 are offline"
	assert_file "$(list_of 24)" $'0-7\n'
}

@test "a CPU beyond the last possible one is refused and nothing is written" {
	tree
	local before
	before=$(tree_sum)
	run --separate-stderr irqaff set 24 6-8
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" 'irqaff: CPU list "6-8": CPU 8 is beyond the last possible CPU 7'
	assert_equal "$(tree_sum)" "$before"
}

@test "a mask with a CPU beyond the last possible one is refused" {
	tree
	local before
	before=$(tree_sum)
	run --separate-stderr irqaff set -m 24 100
	assert_failure 2
	assert_equal "$stderr" 'irqaff: CPU mask "100": CPU 8 is beyond the last possible CPU 7'
	assert_equal "$(tree_sum)" "$before"
}

@test "a mask with more words than the possible CPUs need is refused" {
	tree
	local before
	before=$(tree_sum)
	run --separate-stderr irqaff set 24 0x1,00000000
	assert_failure 2
	assert_equal "$stderr" 'irqaff: CPU mask "0x1,00000000": more than the 1 32-bit word that 8 CPUs need'
	assert_equal "$(tree_sum)" "$before"
}

@test "a set with no online CPU is refused and nothing is written" {
	tree --offline 6-7
	local before
	before=$(tree_sum)
	run --separate-stderr irqaff set 24 6-7
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" 'irqaff: CPU list "6-7": selects no online CPU'
	assert_equal "$(tree_sum)" "$before"
}

@test "a mask with no online CPU is refused with the word mask" {
	tree --offline 6-7
	local before
	before=$(tree_sum)
	run --separate-stderr irqaff set 24 0xc0
	assert_failure 2
	assert_equal "$stderr" 'irqaff: CPU mask "0xc0": selects no online CPU'
	assert_equal "$(tree_sum)" "$before"
}

@test "without an online file every possible CPU counts as online" {
	tree
	rm "$ROOT/sys/devices/system/cpu/online"
	run --separate-stderr -0 irqaff set 24 6-7
	assert_equal "$stderr" ''
	assert_equal "$(lists 24)" 6-7
}

@test "an empty CPU set is refused" {
	tree
	local before
	before=$(tree_sum)
	run --separate-stderr irqaff set 24 ''
	assert_failure 2
	assert_equal "$stderr" 'irqaff: CPU list "": selects no CPU'
	run --separate-stderr irqaff set -m 24 0
	assert_failure 2
	assert_equal "$stderr" 'irqaff: CPU mask "0": selects no CPU'
	# "none", which clears XPS and RPS masks, is no set for an IRQ
	run --separate-stderr irqaff set 24 none
	assert_failure 2
	assert_equal "$stderr" 'irqaff: CPU list "none": selects no CPU'
	assert_equal "$(tree_sum)" "$before"
}

@test "a CPU list that does not parse is refused" {
	tree
	local before
	before=$(tree_sum)
	run --separate-stderr irqaff set 24 1-x
	assert_failure 2
	assert_equal "$stderr" 'irqaff: CPU list "1-x": region "1-x": "x" is not a number'
	run --separate-stderr irqaff set 24 4-2
	assert_failure 2
	assert_equal "$stderr" 'irqaff: CPU list "4-2": region "4-2" runs backwards'
	run --separate-stderr irqaff set 24 0-3:5/2
	assert_failure 2
	assert_equal "$stderr" 'irqaff: CPU list "0-3:5/2": region "0-3:5/2" uses 5 CPUs out of groups of 2'
	assert_equal "$(tree_sum)" "$before"
}

@test "a mask that does not parse is refused" {
	tree
	run --separate-stderr irqaff set -m 24 zz
	assert_failure 2
	assert_equal "$stderr" 'irqaff: CPU mask "zz": "z" is not a hex digit'
	run --separate-stderr irqaff set 24 0x
	assert_failure 2
	assert_equal "$stderr" 'irqaff: CPU mask "0x": "0x" has no hex digits'
}

@test "a NUMA node that does not exist is refused" {
	tree
	local before
	before=$(tree_sum)
	run --separate-stderr irqaff set 24 node:0,node:2
	assert_failure 2
	assert_equal "$stderr" 'irqaff: CPU list "node:0,node:2": NUMA node 2 does not exist'
	run --separate-stderr irqaff set 24 node:x
	assert_failure 2
	assert_equal "$stderr" 'irqaff: CPU list "node:x": "node:x" is not a NUMA node'
	assert_equal "$(tree_sum)" "$before"
}

@test "an IRQ that does not exist means no IRQ is written" {
	tree
	local before
	before=$(tree_sum)
	run --separate-stderr irqaff set 24,99 1
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" "irqaff: IRQ 99 does not exist"
	assert_equal "$(tree_sum)" "$before"
}

@test "a bad CPU set with a bad IRQ list writes nothing" {
	tree
	local before
	before=$(tree_sum)
	run --separate-stderr irqaff set 99 8
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" 'irqaff: CPU list "8": CPU 8 is beyond the last possible CPU 7'
	assert_equal "$(tree_sum)" "$before"
}

@test "an IRQ whose list file is a directory is explained and the others are written" {
	tree
	rm "$(list_of 25)"
	mkdir "$(list_of 25)"
	run --separate-stderr irqaff set -v 24-26 1
	assert_failure 3
	assert_output "irq 24: 0-7 -> 1
irq 26: 0-7 -> 1"
	assert_equal "$stderr" "irqaff: irq 25: $ROOT/proc/irq/25/smp_affinity_list: Is a directory"
	assert_file "$(list_of 24)" $'1\n'
	assert_file "$(list_of 26)" $'1\n'
	assert_file "$(irq_dir 25)/smp_affinity" $'ff\n'
}

@test "ENOSPC from the kernel is explained and the others are written" {
	tree
	run --separate-stderr faulty "$(list_of 24):ENOSPC" irqaff set 24,25 2
	assert_failure 3
	assert_output ""
	assert_equal "$stderr" "irqaff: irq 24: cannot set 2: no free interrupt vectors on the target CPUs (No space left on device)"
	assert_file "$(list_of 25)" $'2\n'
}

@test "when every IRQ fails the status is 1" {
	tree
	rm "$(list_of 25)"
	mkdir "$(list_of 25)"
	run --separate-stderr faulty "$(list_of 24):ENOSPC" irqaff set 24,25 2
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" "irqaff: irq 24: cannot set 2: no free interrupt vectors on the target CPUs (No space left on device)
irqaff: irq 25: $ROOT/proc/irq/25/smp_affinity_list: Is a directory"
}

@test "a value the file does not read back is reported" {
	tree
	local was
	was=$(cat "$(list_of 24)")
	run --separate-stderr faulty "$(list_of 24):drop" irqaff set 24 2
	assert_failure 1
	assert_equal "$stderr" "irqaff: irq 24: wrote 2, but $ROOT/proc/irq/24/smp_affinity_list reads back \"$was\""
}

@test "set with no operands is a usage error" {
	tree
	run --separate-stderr irqaff set
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "irqaff: set: expected an IRQ list and a CPU set
$(usage_of set)"
}

@test "set with one operand is a usage error" {
	tree
	run --separate-stderr irqaff set 24
	assert_failure 2
	assert_equal "$stderr" "irqaff: set: expected an IRQ list and a CPU set
$(usage_of set)"
}

@test "set with three operands is a usage error and writes nothing" {
	tree
	local before
	before=$(tree_sum)
	run --separate-stderr irqaff set 24 1 2
	assert_failure 2
	assert_equal "$stderr" "irqaff: set: expected an IRQ list and a CPU set
$(usage_of set)"
	assert_equal "$(tree_sum)" "$before"
}

@test "set with an unknown option is a usage error and writes nothing" {
	tree
	local before
	before=$(tree_sum)
	run --separate-stderr irqaff set -x 24 1
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "irqaff: set: unknown option -x
$(usage_of set)"
	run --separate-stderr irqaff set --bogus 24 1
	assert_failure 2
	assert_equal "$stderr" "irqaff: set: unknown option --bogus
$(usage_of set)"
	assert_equal "$(tree_sum)" "$before"
}

@test "a value given to an option that takes none is named, not called unknown" {
	tree
	local before
	before=$(tree_sum)
	run --separate-stderr irqaff set --verbose=3 24 1
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "irqaff: set: option --verbose takes no value
$(usage_of set)"
	run --separate-stderr irqaff set --dry-r=yes 24 1
	assert_failure 2
	assert_equal "$stderr" "irqaff: set: option --dry-r takes no value
$(usage_of set)"
	run --separate-stderr irqaff set -v -Z 24 1
	assert_failure 2
	assert_equal "$stderr" "irqaff: set: unknown option -Z
$(usage_of set)"
	assert_equal "$(tree_sum)" "$before"
}

@test "set --help prints the usage on standard output" {
	tree
	run --separate-stderr irqaff set --help
	assert_success
	assert_line --index 0 "$(usage_of set)"
	assert_equal "$stderr" ""
}

@test "set -J prints the result as one JSON line; a second run changes nothing" {
	tree --affinity 2-3
	run --separate-stderr -0 irqaff set -J 24-26 2-3
	assert_output '{"dry_run":false,"changed":[{"irq":24,"name":"a","old":"0-7","new":"2-3"},{"irq":25,"name":"b","old":"0-7","new":"2-3"}],"unchanged":1,"failed":[],"managed":[],"unmovable":[]}'
	assert_equal "$stderr" ''
	assert_equal "$(lists 24 25 26)" $'2-3\n2-3\n2-3'
	run --separate-stderr -0 irqaff set --json -v 24-26 2-3
	assert_output '{"dry_run":false,"changed":[],"unchanged":3,"failed":[],"managed":[],"unmovable":[]}'
	assert_equal "$stderr" ''
}

@test "set -n -J says what would change and writes nothing" {
	tree
	local before
	before=$(tree_sum)
	run --separate-stderr -0 irqaff set -nJ 24,26 1
	assert_output '{"dry_run":true,"changed":[{"irq":24,"name":"a","old":"0-7","new":"1"},{"irq":26,"name":"c","old":"0-7","new":"1"}],"unchanged":0,"failed":[],"managed":[],"unmovable":[]}'
	assert_equal "$stderr" ''
	assert_equal "$(tree_sum)" "$before"
}

@test "set -J lists managed IRQs, and one named by number as failed" {
	tree --managed 25
	run --separate-stderr -0 irqaff set -J 24-26 1
	assert_output '{"dry_run":false,"changed":[{"irq":24,"name":"a","old":"0-7","new":"1"},{"irq":26,"name":"c","old":"0-7","new":"1"}],"unchanged":0,"failed":[],"managed":[{"irq":25,"name":"b"}],"unmovable":[]}'
	assert_equal "$stderr" 'irqaff: note: 1 kernel-managed IRQ left to the kernel'
	run --separate-stderr -1 irqaff set -J 25 1
	assert_output '{"dry_run":false,"changed":[],"unchanged":0,"failed":[{"irq":25,"name":"b","new":"1","errno":null,"error":"cannot set 1: managed by the kernel, it cannot be moved by user space (debugfs)"}],"managed":[],"unmovable":[]}'
	assert_equal "$stderr" 'irqaff: irq 25: cannot set 1: managed by the kernel, it cannot be moved by user space (debugfs)'
}

@test "set -J prints nothing on bad input" {
	tree
	run --separate-stderr -2 irqaff set -J 24 9
	assert_output ''
	assert_equal "$stderr" 'irqaff: CPU list "9": CPU 9 is beyond the last possible CPU 7'
	run --separate-stderr -1 irqaff set -J 99 1
	assert_output ''
}

# issue 52's pin: a writer's every item must pick an IRQ; an interface
# without IRQs of its own is a selection only for the queue commands
@test "set dev:IF for an interface with no IRQs exits 1 and writes nothing, alone or beside an IRQ" {
	make_root --cpus 4 --nic eth0:2 --irq 30=a --affinity 1
	mkdir "$ROOT/sys/class/net/usb0"
	local before
	before=$(tree_sum)
	run --separate-stderr -1 irqaff set dev:usb0 2
	assert_output ''
	assert_equal "$stderr" 'irqaff: IRQ list "dev:usb0": device usb0 has no IRQs or does not exist'
	run --separate-stderr -1 irqaff set dev:usb0,30 2
	assert_output ''
	assert_equal "$stderr" 'irqaff: IRQ list "dev:usb0,30": device usb0 has no IRQs or does not exist'
	assert_equal "$(tree_sum)" "$before"
	# the other side: an interface with IRQs
	run --separate-stderr -0 irqaff set -v dev:eth0,30 2
	assert_output $'irq 24: 0-3 -> 2\nirq 25: 0-3 -> 2\nirq 26: 0-3 -> 2\nirq 30: 1 -> 2'
	assert_equal "$(lists 24 25 26 30)" $'2\n2\n2\n2'
}
