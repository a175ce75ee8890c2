#!/usr/bin/env bats
# Each command's --help: the grammar of the operands it takes, and its own
# exit statuses, the same as its man page's EXIT STATUS gives it; and the
# statuses themselves, as irqaff exits with them.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	load ../test_helper/commands
	MAN=$BATS_TEST_DIRNAME/../../man
	make_root --cpus 4 --virtio-nic eth0:2 --queues
}

# The statuses COMMAND --help lists, on one line: "0 1 2".
help_statuses() {
	irqaff "$1" --help | sed -n '/^Exit status:$/,$s/^  \([0-9]\)  .*/\1/p' |
		paste -sd ' '
}

# The statuses COMMAND's page gives in its EXIT STATUS, on one line: its
# "*N*" lines.
man_statuses() {
	awk '$0 == "# EXIT STATUS" { on = 1; next } /^# / { on = 0 }
		on && /^\*[0-9]\*$/ { print substr($0, 2, 1) }' \
		"$MAN/irqaff-$1.8.scd" | paste -sd ' '
}

# The usage line's operands and option values: "irqs cpus".
synopsis() {
	irqaff "$1" --help | sed -n '1s/^usage: irqaff [a-z]* //p'
}

@test "every command's --help lists exactly the exit statuses the man page gives it" {
	local cmd help man differ=
	for cmd in $(commands); do
		help=$(help_statuses "$cmd")
		man=$(man_statuses "$cmd")
		[ -n "$help" ] || differ+=$'\n'"$cmd: --help lists no status"
		[ "$help" = "$man" ] ||
			differ+=$'\n'"$cmd: --help \"$help\", man page \"$man\""
	done
	assert_equal "$differ" ""
}

@test "only the commands that write list statuses 3 and 4" {
	local cmd
	for cmd in show cpus top queues save check mask list; do
		assert_equal "$(help_statuses "$cmd")" "0 1 2"
	done
	# a finding is 1: a selection that matches nothing is told apart
	assert_equal "$(help_statuses explain)" "0 1 2 5"
	for cmd in set spread balance isolate restore xps rps; do
		assert_equal "$(help_statuses "$cmd")" "0 1 2 3 4"
	done
	# one file written: never partly
	assert_equal "$(help_statuses default)" "0 1 2 4"
}

@test "a command taking IRQs shows the IRQ grammar, one taking CPUs the CPU grammar" {
	local cmd text missing= word irqs=0 cpus=0
	for cmd in $(commands); do
		text=$(irqaff "$cmd" --help)
		if [[ " $(synopsis "$cmd") " == *[\ \[]irqs[\ \]]* ]]; then
			for word in N a-b all GLOB dev:NAME 'dev:"NAME"' \
				cpu:CPUS; do
				grep -A4 '^IRQs' <<<"$text" | grep -qF -- "$word" ||
					missing+=" $cmd:$word"
			done
			((++irqs))
		elif grep -q '^IRQs' <<<"$text"; then
			missing+=" $cmd:IRQs-without-irqs"
		fi
		if [[ " $(synopsis "$cmd") " == *[\ \[]cpus[\ \]]* ]]; then
			for word in N a-b a-b:used/group all node:K; do
				grep -A3 '^CPUs' <<<"$text" | grep -qF -- "$word" ||
					missing+=" $cmd:$word"
			done
			((++cpus))
		elif grep -q '^CPUs' <<<"$text"; then
			missing+=" $cmd:CPUs-without-cpus"
		fi
	done
	assert_equal "$missing" ""
	# show spread set balance explain save restore check cpus take IRQs;
	# set spread balance cpus default isolate xps rps mask take CPUs
	assert_equal "$irqs $cpus" "10 9"
}

@test "a command taking IRQs but no CPU set points at set's help for cpu:CPUS" {
	local cmd
	for cmd in show explain save restore check; do
		run -0 --separate-stderr irqaff "$cmd" --help
		assert_output --partial "
  cpu:CPUS (the IRQs running there; the last item).
  CPUS is a CPU set, as 'irqaff help set' shows.

Exit status:"
		refute_output --partial "CPUs, comma"
	done
	run -0 irqaff set --help
	refute_output --partial "CPUS is a CPU set"
}

@test "set's help gives the CPU grammar, with masks and -m, in so many words" {
	run -0 --separate-stderr irqaff set --help
	assert_output --partial "
IRQs, comma-separated: N, a-b, all, GLOB (an action name pattern:
  'eth0-*'), dev:NAME (the IRQs of an interface, NVMe controller,
  block device or PCI address; dev:\"NAME\" quoted as in a snapshot),
  cpu:CPUS (the IRQs running there; the last item).

CPUs, comma-separated as the kernel's lists: N, a-b, a-b:used/group,
  all, node:K (0-3,8 or all:1/2); or a mask: 0xff00, or
  with -m a kernel mask (ff,00000000).

Exit status:
  0  every IRQ has its CPUs, changed or not
  1  an item matched nothing (nothing written), nothing could be
     changed, or a file could not be read
  2  bad usage or bad input; nothing written
  3  some changes made and some failed, each one reported
  4  every change made, but standard output failed"
	assert_equal "$stderr" ""
}

@test "queues, xps and rps show what names interfaces and queues" {
	run -0 irqaff queues --help
	assert_output --partial "
Devs: network interfaces that have queues, comma-separated (eth0,eth1).
"
	local cmd
	for cmd in xps rps; do
		run -0 irqaff "$cmd" --help
		assert_output --partial "
Queues: numbers as a kernel list (eth0:0-3,6), or names (eth0:tx-0-3
for xps, eth0:rx-0-3 for rps); every queue without. cpus may also be none,
to clear the masks.
"
	done
	run -0 irqaff queues -n -o DEV,QUEUE eth0
	assert_output $'eth0 rx-0\neth0 tx-0\neth0 rx-1\neth0 tx-1'
}

@test "mask shows CPU lists only, list shows masks only" {
	run -0 irqaff mask --help
	assert_output --partial "
CPUs, comma-separated as the kernel's lists: N, a-b, a-b:used/group,
  all, node:K (0-3,8 or all:1/2).
"
	refute_output --partial "0x"
	run -0 irqaff list --help
	assert_output --partial "
Masks, as the kernel's: 32-bit hex words, comma-separated, the last
  one CPUs 0-31 (ff,00000000); or one number after 0x (0xff00).
"
	refute_output --partial "CPUs, comma"
}

@test "the grammar the help shows is the grammar irqaff takes" {
	run -0 irqaff show -n -o IRQ 25,26-27,all
	run -0 irqaff show -n -o IRQ 'virtio0-output.*'
	assert_output $'26\n28'
	run -0 irqaff show -n -o IRQ dev:eth0
	run -0 irqaff show -n -o IRQ 'dev:"eth0"'
	run -0 irqaff show -n -o IRQ cpu:0-1
	run -0 irqaff mask 0-3:1/2,N
	assert_output 'd'
	run -0 irqaff mask all:1/2,node:0
	assert_output 'f'
	run -0 irqaff list -b 64 0xff00
	assert_output '8-15'
	run -0 irqaff list -b 64 ff,00000000
	assert_output '32-39'
}

@test "check: 0 when the machine matches, 1 when it differs, 2 when the snapshot cannot be read" {
	irqaff save >"$BATS_TEST_TMPDIR/snap"
	run -0 irqaff check "$BATS_TEST_TMPDIR/snap"
	irqaff set 25 1 >/dev/null
	run -1 irqaff check "$BATS_TEST_TMPDIR/snap"
	run -2 --separate-stderr irqaff check "$BATS_TEST_TMPDIR/none"
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/none: No such file or directory"
	# restore reads the same file: a file that cannot be read is status 2
	run -2 --separate-stderr irqaff restore "$BATS_TEST_TMPDIR/none"
}

@test "a read-only command whose output fails exits 1, a writing one 4" {
	[ -w /dev/full ] || skip "no /dev/full"
	run -1 --separate-stderr sh -c 'irqaff show >/dev/full'
	run -1 --separate-stderr sh -c 'irqaff mask 1 >/dev/full'
	run -4 --separate-stderr sh -c 'irqaff set -v 25 1 >/dev/full'
	assert_equal "$(lists 25)" 1
	run -4 --separate-stderr sh -c 'irqaff default -v 0-1 >/dev/full'
}

@test "every command exits 2 for an unknown option, as its help says" {
	local cmd
	for cmd in $(commands); do
		run -2 --separate-stderr irqaff "$cmd" --bogus
		assert_output ""
	done
}

@test "explain exits 1 for a finding that needs attention, 0 without" {
	run -0 irqaff explain 25
	make_root --dir "$BATS_TEST_TMPDIR/iso" --cpus 4 --isolated 3 \
		--irq 24=a --affinity 3
	run -1 irqaff explain 24
	assert_output --partial isolated
	run -5 --separate-stderr irqaff explain 99
	assert_output ''
}

@test "--count, and -c as it was spelled before, take samples in show and cpus" {
	local cmd out
	for cmd in show cpus; do
		run -0 --separate-stderr irqaff "$cmd" -n -i 0.001 --count 2
		assert_equal "$stderr" ""
		out=$output
		# two samples, each headed by its time
		assert_equal "$(grep -cE '^[0-9]{4}-[0-9]{2}-[0-9]{2} ' <<<"$out")" 0
		run -0 irqaff "$cmd" -i 0.001 --count 2
		assert_equal "$(grep -cE '^[0-9]{4}-[0-9]{2}-[0-9]{2} ' <<<"$output")" 2
		run -0 irqaff "$cmd" -i 0.001 -c 2
		assert_equal "$(grep -cE '^[0-9]{4}-[0-9]{2}-[0-9]{2} ' <<<"$output")" 2
		run -2 --separate-stderr irqaff "$cmd" --count 2
		assert_equal "${stderr%%$'\n'*}" "irqaff: $cmd: --count needs -i or --sample-from"
		run -2 --separate-stderr irqaff "$cmd" -c 2
		assert_equal "${stderr%%$'\n'*}" "irqaff: $cmd: --count needs -i or --sample-from"
		# the help shows the new spelling only
		run -0 irqaff "$cmd" --help
		assert_line --regexp '^      --count COUNT +COUNT samples'
		refute_line --partial '-c, --count'
	done
}

@test "-c is a CPU set wherever a command takes one by option: spread and balance" {
	make_root --dir "$BATS_TEST_TMPDIR/plain" --cpus 4 --irq 24=a --irq 25=b
	run -0 --separate-stderr irqaff spread -n -c 2-3 24,25
	local spread=$output
	assert_line --partial '24'
	run -0 --separate-stderr irqaff spread -n --cpus 2-3 24,25
	assert_output "$spread"
	run -0 --separate-stderr irqaff balance -n -i 0.001 -c 2-3 24,25
	local balance=$output
	run -0 --separate-stderr irqaff balance -n -i 0.001 --cpus 2-3 24,25
	assert_output "$balance"
	run -0 irqaff balance -n -J -i 0.001 -c 2-3 24,25
	assert_output --partial '"cpus":"2-3"'
	run -0 irqaff balance --help
	assert_line --regexp '^  -c, --cpus CPUS '
}

@test "set: 3 when some IRQs changed and some failed, 1 when none changed" {
	run -3 --separate-stderr faulty "$(irq_dir 25)/smp_affinity_list:ENOSPC" \
		irqaff set 25,26 1
	assert_equal "$(lists 26)" 1
	run -1 --separate-stderr faulty "$(irq_dir 25)/smp_affinity_list:ENOSPC" \
		irqaff set 25 2
}
