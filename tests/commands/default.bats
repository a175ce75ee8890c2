#!/usr/bin/env bats
# irqaff default: prints default_smp_affinity as a list (a mask with -m);
# writes a CPU set to it as a kernel mask of the possible CPUs' width.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	DEFAULT=
}

# Forty CPUs on two nodes: node 0 is 0-19, node 1 is 20-39.
tree() {
	make_root --cpus 40 --nodes 2 --irq 24=a "$@"
	DEFAULT=$ROOT/proc/irq/default_smp_affinity
}

@test "default prints default_smp_affinity as a CPU list" {
	tree
	printf 'f0,0000ff00\n' >"$DEFAULT"
	run --separate-stderr irqaff default
	assert_success
	assert_output "8-15,36-39"
	assert_equal "$stderr" ""
}

@test "default -m prints default_smp_affinity as a kernel mask" {
	tree
	printf 'f0,0000ff00\n' >"$DEFAULT"
	run --separate-stderr irqaff default -m
	assert_success
	assert_output "f0,0000ff00"
}

@test "default -m prints the mask at the machine's width" {
	tree
	printf '0000000f\n' >"$DEFAULT"
	run --separate-stderr irqaff default --mask
	assert_success
	assert_output "00,0000000f"
}

@test "default prints the set a fresh tree starts with" {
	tree
	run --separate-stderr irqaff default
	assert_success
	assert_output "0-39"
	run --separate-stderr irqaff default -m
	assert_success
	assert_output "ff,ffffffff"
}

@test "default CPUS writes a kernel mask of the right width" {
	tree
	run --separate-stderr irqaff default 32-39
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	assert_file "$DEFAULT" $'ff,00000000\n'
	assert_file "$DEFAULT" "$(kmask 40 32-39)"$'\n'
}

@test "default writes a mask one word wide on a small machine" {
	make_root --cpus 4 --irq 24=a
	run --separate-stderr irqaff default 1,3
	assert_success
	assert_file "$ROOT/proc/irq/default_smp_affinity" $'a\n'
}

@test "default writes a mask of several words for 100 possible CPUs" {
	make_root --cpus 100 --irq 24=a
	run --separate-stderr irqaff default 0,99
	assert_success
	assert_file "$ROOT/proc/irq/default_smp_affinity" \
		$'8,00000000,00000000,00000001\n'
	assert_file "$ROOT/proc/irq/default_smp_affinity" \
		"$(kmask 100 0,99)"$'\n'
	run --separate-stderr irqaff default
	assert_success
	assert_output "0,99"
}

@test "default -m reads CPUS as a kernel mask" {
	tree
	run --separate-stderr irqaff default -m ff,00000000
	assert_success
	assert_file "$DEFAULT" $'ff,00000000\n'
	run --separate-stderr irqaff default
	assert_output "32-39"
}

@test "default takes a 0x mask without -m" {
	tree
	run --separate-stderr irqaff default 0x30
	assert_success
	assert_file "$DEFAULT" $'00,00000030\n'
}

@test "default takes node:K" {
	tree
	run --separate-stderr irqaff default node:1,0
	assert_success
	assert_file "$DEFAULT" "$(kmask 40 0,20-39)"$'\n'
}

@test "default -v prints the change" {
	tree
	run --separate-stderr irqaff default -v 0-3
	assert_success
	assert_output "default: 0-39 -> 0-3"
	assert_equal "$stderr" ""
	assert_file "$DEFAULT" $'00,0000000f\n'
}

@test "default a second time writes nothing and -v says unchanged" {
	tree
	run irqaff default 0-3
	assert_success
	local before
	before=$(tree_sum)
	run --separate-stderr irqaff default -v 0-3
	assert_success
	assert_output "default: 0-3 unchanged"
	assert_equal "$(tree_sum)" "$before"
}

@test "default leaves a mask that names the same CPUs another way alone" {
	tree
	printf '0000000f\n' >"$DEFAULT"
	run --separate-stderr irqaff default 0-3
	assert_success
	assert_output ""
	assert_file "$DEFAULT" $'0000000f\n'
}

@test "default -n prints what would change and writes nothing" {
	tree
	local before
	before=$(tree_sum)
	run --separate-stderr irqaff default -n 0-3
	assert_success
	assert_output "default: 0-39 -> 0-3"
	assert_equal "$stderr" ""
	assert_equal "$(tree_sum)" "$before"
}

@test "default --dry-run with nothing to change prints nothing" {
	tree
	local before
	before=$(tree_sum)
	run --separate-stderr irqaff default --dry-run all
	assert_success
	assert_output ""
	assert_equal "$(tree_sum)" "$before"
}

@test "default refuses a CPU beyond the last possible one and writes nothing" {
	tree
	local before
	before=$(tree_sum)
	run --separate-stderr irqaff default 39-40
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" 'irqaff: CPU list "39-40": CPU 40 is beyond the last possible CPU 39'
	assert_equal "$(tree_sum)" "$before"
}

@test "default refuses a mask wider than the possible CPUs" {
	tree
	local before
	before=$(tree_sum)
	run --separate-stderr irqaff default -m 100,00000000
	assert_failure 2
	assert_equal "$stderr" 'irqaff: CPU mask "100,00000000": CPU 40 is beyond the last possible CPU 39'
	assert_equal "$(tree_sum)" "$before"
}

@test "default refuses a set with no online CPU and writes nothing" {
	tree --offline 38-39
	local before
	before=$(tree_sum)
	run --separate-stderr irqaff default 38-39
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" 'irqaff: CPU list "38-39": selects no online CPU'
	assert_equal "$(tree_sum)" "$before"
}

@test "default refuses an empty set" {
	tree
	local before
	before=$(tree_sum)
	run --separate-stderr irqaff default ''
	assert_failure 2
	assert_equal "$stderr" 'irqaff: CPU list "": selects no CPU'
	assert_equal "$(tree_sum)" "$before"
}

@test "default takes an offline CPU that is possible, with a note" {
	tree --offline 38-39
	run --separate-stderr irqaff default 37-38
	assert_success
	assert_output ""
	assert_equal "$stderr" "irqaff: note: CPU 38 is offline"
	assert_file "$DEFAULT" $'60,00000000\n'
}

@test "default refuses a NUMA node that does not exist" {
	tree
	local before
	before=$(tree_sum)
	run --separate-stderr irqaff default node:2
	assert_failure 2
	assert_equal "$stderr" 'irqaff: CPU list "node:2": NUMA node 2 does not exist'
	assert_equal "$(tree_sum)" "$before"
}

@test "default without default_smp_affinity fails with status 1" {
	tree
	rm "$DEFAULT"
	run --separate-stderr irqaff default
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" "irqaff: $DEFAULT: No such file or directory"
}

@test "default CPUS without default_smp_affinity fails and creates nothing" {
	tree
	rm "$DEFAULT"
	run --separate-stderr irqaff default 1
	assert_failure 1
	assert_equal "$stderr" "irqaff: default: $DEFAULT: No such file or directory"
	[ ! -e "$DEFAULT" ]
}

@test "default with an unreadable default_smp_affinity says what is wrong" {
	tree
	printf 'garbage\n' >"$DEFAULT"
	run --separate-stderr irqaff default
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" "irqaff: $DEFAULT: \"g\" is not a hex digit"
}

@test "default with two operands is a usage error" {
	tree
	local before
	before=$(tree_sum)
	run --separate-stderr irqaff default 1 2
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "irqaff: default: expected at most one CPU set
$(usage_of default)"
	assert_equal "$(tree_sum)" "$before"
}

@test "default with an unknown option is a usage error" {
	tree
	run --separate-stderr irqaff default -x 1
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "irqaff: default: unknown option -x
$(usage_of default)"
	run --separate-stderr irqaff default --bogus
	assert_failure 2
	assert_equal "$stderr" "irqaff: default: unknown option --bogus
$(usage_of default)"
}

@test "default -J prints the set as JSON, a list even with -m" {
	tree
	printf 'f0,0000ff00\n' >"$DEFAULT"
	run --separate-stderr -0 irqaff default -J
	assert_output '{"default":"8-15,36-39"}'
	assert_equal "$stderr" ""
	run --separate-stderr -0 irqaff default -J -m
	assert_output '{"default":"8-15,36-39"}'
	rm "$DEFAULT"
	run --separate-stderr -1 irqaff default -J
	assert_output ''
	assert_equal "$stderr" "irqaff: $DEFAULT: No such file or directory"
}

@test "default -J CPUS prints the result; a second run is unchanged" {
	tree
	run --separate-stderr -0 irqaff default -J 0-3
	assert_output '{"dry_run":false,"default":{"old":"0-39","new":"0-3","result":"changed"},"changed":[],"unchanged":0,"failed":[],"managed":[],"unmovable":[]}'
	assert_equal "$stderr" ""
	assert_file "$DEFAULT" $'00,0000000f\n'
	local before
	before=$(tree_sum)
	run --separate-stderr -0 irqaff default -J -v 0-3
	assert_output '{"dry_run":false,"default":{"old":"0-3","new":"0-3","result":"unchanged"},"changed":[],"unchanged":0,"failed":[],"managed":[],"unmovable":[]}'
	assert_equal "$(tree_sum)" "$before"
}

@test "default -n -J says what would change and writes nothing" {
	tree
	local before
	before=$(tree_sum)
	run --separate-stderr -0 irqaff default -n -J 20-39
	assert_output '{"dry_run":true,"default":{"old":"0-39","new":"20-39","result":"changed"},"changed":[],"unchanged":0,"failed":[],"managed":[],"unmovable":[]}'
	assert_equal "$stderr" ""
	assert_equal "$(tree_sum)" "$before"
}

@test "default -J CPUS: a failed write is in the result with its errno" {
	tree
	run --separate-stderr -1 faulty "$DEFAULT:EINVAL" irqaff default -J 1
	assert_output '{"dry_run":false,"default":{"old":"0-39","new":"1","result":"failed","errno":"EINVAL","error":"cannot set 1: the kernel refused the CPU set (Invalid argument)"},"changed":[],"unchanged":0,"failed":[],"managed":[],"unmovable":[]}'
	assert_equal "$stderr" 'irqaff: default: cannot set 1: the kernel refused the CPU set (Invalid argument)'
	rm "$DEFAULT"
	run --separate-stderr -1 irqaff default -J 1
	assert_output '{"dry_run":false,"default":{"old":null,"new":"1","result":"failed","errno":"ENOENT","error":"'"$DEFAULT"': No such file or directory"},"changed":[],"unchanged":0,"failed":[],"managed":[],"unmovable":[]}'
	assert_equal "$stderr" "irqaff: default: $DEFAULT: No such file or directory"
}

@test "a write to the default that fails with EIO is a failure, not the kernel's" {
	tree
	run --separate-stderr -1 faulty "$DEFAULT:EIO" irqaff default -v 1
	assert_output ''
	assert_equal "$stderr" "irqaff: default: cannot set 1: $DEFAULT: Input/output error"
	assert_file "$DEFAULT" $'ff,ffffffff\n'
}
