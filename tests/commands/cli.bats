#!/usr/bin/env bats
# The top level: --help, --version, --root and IRQAFF_ROOT, the command
# table, and the words for mistakes before any command runs.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	make_root --cpus 4 --irq 24=a --irq 25=b
}

@test "--version prints the name and the version" {
	run --separate-stderr irqaff --version
	assert_success
	assert_output --regexp '^irqaff [0-9]+\.[0-9]+\.[0-9]+$'
	assert_equal "$stderr" ""
}

@test "--help and -h list every command of the table on standard output" {
	run --separate-stderr irqaff --help
	assert_success
	assert_equal "$stderr" ""
	assert_line --index 0 "usage: irqaff [--root dir] command [args]"
	local cmd
	for cmd in show set spread default save restore check mask list; do
		assert_line --regexp "^  $cmd +[a-z]"
	done
	local help=$output
	run irqaff -h
	assert_output "$help"
}

@test "with no command, irqaff runs show" {
	run --separate-stderr irqaff show
	assert_success
	local want=$output
	run --separate-stderr irqaff
	assert_success
	assert_output "$want"
}

@test "an unknown command is one line and the usage line, status 2" {
	local before
	before=$(tree_sum)
	run --separate-stderr irqaff bogus 24 1
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "irqaff: unknown command bogus
usage: irqaff [--root dir] command [args]"
	assert_equal "$(tree_sum)" "$before"
}

@test "a mistyped command names the nearest one" {
	run --separate-stderr irqaff shwo 24
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "irqaff: unknown command shwo; did you mean show?
usage: irqaff [--root dir] command [args]"
	run --separate-stderr irqaff restor
	assert_failure 2
	assert_equal "${stderr%%$'\n'*}" "irqaff: unknown command restor; did you mean restore?"
	# two letters swapped are one edit: list, not set (two edits)
	run --separate-stderr irqaff lsit
	assert_failure 2
	assert_equal "${stderr%%$'\n'*}" "irqaff: unknown command lsit; did you mean list?"
	# two letters two edits from list: nothing near enough to suggest
	run --separate-stderr irqaff ls
	assert_failure 2
	assert_equal "${stderr%%$'\n'*}" "irqaff: unknown command ls"
}

@test "help prints the commands, help COMMAND that command's help" {
	run -0 irqaff --help
	local main=$output
	run -0 irqaff help
	assert_output "$main"
	run -0 irqaff set --help
	local set=$output
	run -0 irqaff help set
	assert_output "$set"
	assert_line --index 0 "usage: irqaff set [-nvJmq] irqs cpus"
}

@test "help of a command that is not one is a usage error" {
	run --separate-stderr irqaff help lis
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "irqaff: unknown command lis; did you mean list?
usage: irqaff [--root dir] command [args]"
	run --separate-stderr irqaff help set show
	assert_failure 2
	assert_equal "$stderr" "irqaff: help takes one command
usage: irqaff [--root dir] command [args]"
}

@test "an unknown top-level option is one line and the usage line" {
	run --separate-stderr irqaff --bogus show
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "irqaff: unknown option --bogus
usage: irqaff [--root dir] command [args]"
}

@test "--root without a directory is a usage error" {
	run --separate-stderr irqaff --root
	assert_failure 2
	assert_equal "$stderr" "irqaff: option --root needs a directory
usage: irqaff [--root dir] command [args]"
}

@test "a root that does not exist fails with status 1" {
	run --separate-stderr irqaff --root "$BATS_TEST_TMPDIR/nowhere" show
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" "irqaff: root $BATS_TEST_TMPDIR/nowhere: No such file or directory"
}

@test "a mistyped command is a usage error even with a bad root" {
	run --separate-stderr irqaff --root "$BATS_TEST_TMPDIR/nowhere" bogus
	assert_failure 2
	assert_equal "$stderr" "irqaff: unknown command bogus
usage: irqaff [--root dir] command [args]"
}

@test "--root DIR and --root=DIR read that tree, before IRQAFF_ROOT" {
	local other=$BATS_TEST_TMPDIR/other
	cp -a "$ROOT" "$other"
	printf '3\n' >"$other/proc/irq/24/smp_affinity_list"
	run --separate-stderr irqaff --root "$other" show -n -o IRQ,AFFINITY 24
	assert_success
	assert_output "24 3"
	run --separate-stderr irqaff --root="$other" show -n -o IRQ,AFFINITY 24
	assert_output "24 3"
	run --separate-stderr irqaff show -n -o IRQ,AFFINITY 24
	assert_output "24 0-3"
	IRQAFF_ROOT=$other run --separate-stderr irqaff show -n -o IRQ,AFFINITY 24
	assert_output "24 3"
}

@test "-- ends irqaff's own options: the command comes after it" {
	run -0 irqaff show -n -o IRQ 24
	local want=$output
	run -0 --separate-stderr irqaff -- show -n -o IRQ 24
	assert_output "$want"
	run -0 --separate-stderr irqaff --root "$ROOT" -- show -n -o IRQ 24
	assert_output "$want"
	# nothing after it: show, as with no command
	run -0 irqaff --
	assert_output "$(irqaff show)"
	# after it, --help is a command name, not the option
	run --separate-stderr -2 irqaff -- --help
	assert_output ""
	assert_equal "${stderr%%$'\n'*}" "irqaff: unknown command --help; did you mean help?"
}

@test "help help prints the commands, as help does" {
	run -0 irqaff help
	local main=$output
	run -0 --separate-stderr irqaff help help
	assert_output "$main"
	assert_equal "$stderr" ""
}

@test "a mistyped help names help, but help of it does not" {
	run --separate-stderr -2 irqaff hlep
	assert_output ""
	assert_equal "$stderr" "irqaff: unknown command hlep; did you mean help?
usage: irqaff [--root dir] command [args]"
	run --separate-stderr -2 irqaff halp set
	assert_equal "${stderr%%$'\n'*}" "irqaff: unknown command halp; did you mean help?"
	# "help hlep" asks for a command's help: help is none
	run --separate-stderr -2 irqaff help hlep
	assert_equal "${stderr%%$'\n'*}" "irqaff: unknown command hlep"
	# a command nearer than help still wins
	run --separate-stderr -2 irqaff lits
	assert_equal "${stderr%%$'\n'*}" "irqaff: unknown command lits; did you mean list?"
}

@test "a hex mask where a CPU list is expected suggests 0x, and -m where the command has it" {
	local before
	before=$(tree_sum)
	run --separate-stderr -2 irqaff set 24 ff
	assert_output ""
	assert_equal "$stderr" 'irqaff: CPU list "ff": region "ff": "ff" is not a number; for a mask, write 0xff or use -m'
	run --separate-stderr -2 irqaff set 24 1f
	assert_equal "$stderr" 'irqaff: CPU list "1f": region "1f": unexpected "f"; for a mask, write 0x1f or use -m'
	run --separate-stderr -2 irqaff set 24 ff,00000000
	assert_equal "$stderr" 'irqaff: CPU list "ff,00000000": region "ff": "ff" is not a number; for a kernel mask, use -m'
	run --separate-stderr -2 irqaff default f
	assert_equal "$stderr" 'irqaff: CPU list "f": region "f": "f" is not a number; for a mask, write 0xf or use -m'
	run --separate-stderr -2 irqaff isolate c
	assert_equal "${stderr%%$'\n'*}" 'irqaff: CPU list "c": region "c": "c" is not a number; for a mask, write 0xc or use -m'
	# taskset's upper case is a mask too
	run --separate-stderr -2 irqaff set 24 FF
	assert_equal "$stderr" 'irqaff: CPU list "FF": region "FF": "FF" is not a number; for a mask, write 0xFF or use -m'
	# no -m there
	run --separate-stderr -2 irqaff spread -c ff 24
	assert_equal "$stderr" 'irqaff: CPU list "ff": region "ff": "ff" is not a number; for a mask, write 0xff'
	run --separate-stderr -2 irqaff spread -c ff,00 24
	assert_equal "$stderr" 'irqaff: CPU list "ff,00": region "ff": "ff" is not a number'
	# not hex: no hint; a mask already: no hint
	run --separate-stderr -2 irqaff set 24 fg
	assert_equal "$stderr" 'irqaff: CPU list "fg": region "fg": "fg" is not a number'
	run --separate-stderr -2 irqaff set -m 24 fg
	assert_equal "$stderr" 'irqaff: CPU mask "fg": "g" is not a hex digit'
	run --separate-stderr -2 irqaff set -m 24 f0
	assert_equal "$stderr" 'irqaff: CPU mask "f0": CPU 4 is beyond the last possible CPU 3'
	assert_equal "$(tree_sum)" "$before"
	# as the hint says
	run -0 irqaff set 24 0x3
	run -0 irqaff set -m 24 3
}
