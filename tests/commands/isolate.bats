#!/usr/bin/env bats
# irqaff isolate: movable IRQs and the default affinity leave the CPUs,
# a device's IRQs left with no CPU spread over the rest; kernel-managed
# IRQs, irqbalance and the kernel command line are reported; --check
# answers whether the CPUs are free of interrupts.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
}

# Eight CPUs on two nodes (0-3 and 4-7). 24 anywhere, 25 on node 1's
# CPUs, 26 on 0-1, 27 on 6-7; 25 and 27 belong to a device on node 1.
tree() {
	make_root --cpus 8 --nodes 2 --irq 24=a --irq 25=b --affinity 4-7 \
		--irq-node 1 --irq 26=c --affinity 0-1 --irq 27=d \
		--affinity 6-7 --irq-node 1 "$@"
}

# settle IRQ...: the kernel's update of effective_affinity after a write,
# as on x86 with interrupt remapping (apic_set_affinity() programs the new
# vector at once): each IRQ runs on the CPU make_root would pick from its
# new list, the (IRQ mod k)th of its k CPUs (all are online here).
settle() {
	local irq d
	local -a cpus
	for irq in "$@"; do
		d=$(irq_dir "$irq")
		mapfile -t cpus < <(_cpus_of "$(<"$d/smp_affinity_list")")
		printf '%s\n' "${cpus[irq % ${#cpus[@]}]}" \
			>"$d/effective_affinity_list"
		kmask 8 "${cpus[irq % ${#cpus[@]}]}" >"$d/effective_affinity"
	done
}

@test "isolate -n prints the plan, default first, and writes nothing" {
	tree
	local before
	before=$(tree_sum)
	run --separate-stderr -0 irqaff isolate -n 4-7
	assert_output $'default: 0-7 -> 0-3\nirq 24: 0-7 -> 0-3\nirq 25: 4-7 -> 0-3\nirq 27: 6-7 -> 0-3'
	assert_equal "$stderr" ''
	assert_equal "$(tree_sum)" "$before"
}

@test "isolate takes the CPUs out of every IRQ and the default, once" {
	tree
	run --separate-stderr -0 irqaff isolate 4-7
	assert_output ''
	assert_equal "$stderr" ''
	assert_file "$ROOT/proc/irq/default_smp_affinity" $'0f\n'
	assert_equal "$(lists 24 25 26 27)" $'0-3\n0-3\n0-1\n0-3'
	local before
	before=$(tree_sum)
	run --separate-stderr -0 irqaff isolate -v 4-7
	assert_output $'default: 0-3 unchanged\nirq 24: 0-3 unchanged\nirq 25: 0-3 unchanged\nirq 26: 0-1 unchanged\nirq 27: 0-3 unchanged'
	assert_equal "$(tree_sum)" "$before"
}

@test "isolate changes those files and nothing else in the tree" {
	tree --managed 27
	cp -a "$ROOT" "$BATS_TEST_TMPDIR/before"
	run --separate-stderr -0 irqaff isolate -q 4-7
	run diff -rq "$BATS_TEST_TMPDIR/before" "$ROOT"
	assert_output "$(for f in 24/smp_affinity_list 25/smp_affinity_list \
		default_smp_affinity; do
		printf 'Files %s/before/proc/irq/%s and %s/proc/irq/%s differ\n' \
			"$BATS_TEST_TMPDIR" "$f" "$ROOT" "$f"
	done)
Only in $ROOT: var"
	# and its state file, which remembers the CPUs
	run find "$ROOT/var" -type f
	assert_output "$ROOT/var/lib/irqaff/isolated"
}

@test "an IRQ left with no online CPU goes to its node's housekeeping CPUs" {
	tree
	run --separate-stderr -0 irqaff isolate -v 6-7
	assert_output $'default: 0-7 -> 0-5\nirq 24: 0-7 -> 0-5\nirq 25: 4-7 -> 4-5\nirq 26: 0-1 unchanged\nirq 27: 6-7 -> 4-5'
	assert_equal "$(lists 24 25 26 27)" $'0-5\n4-5\n0-1\n4-5'
}

@test "offline CPUs are not what remains: the IRQ goes to housekeeping" {
	make_root --cpus 4 --offline 3 --irq 24=a --affinity 2-3 --irq 25=b \
		--affinity 1-3
	run --separate-stderr -0 irqaff isolate -v 2
	assert_output $'default: 0-3 -> 0-1,3\nirq 24: 2-3 -> 0-1\nirq 25: 1-3 -> 1,3'
	assert_equal "$(lists 24 25)" $'0-1\n1,3'
}

@test "isolate --check exits 1 before isolate and 0 after" {
	tree
	run --separate-stderr -1 irqaff isolate --check 4-7
	assert_output 'irq 24 a: movable, requested CPU 0-7, on CPU 0
irq 25 b: movable, on CPU 5
irq 27 d: movable, on CPU 7
default: default_smp_affinity 0-7 includes CPU 4-7: new IRQs start there
CPU 4-7: not isolated from interrupts'
	assert_equal "$stderr" ''
	irqaff isolate 4-7
	settle 24 25 27
	run --separate-stderr -0 irqaff isolate --check 4-7
	assert_output 'CPU 4-7: isolated from interrupts'
	run --separate-stderr -0 irqaff isolate --check -q 4-7
	assert_output ''
}

@test "isolate --check lists what still runs there after a move, by kind" {
	tree --managed 24
	irqaff isolate -q 0-1
	run --separate-stderr -1 irqaff isolate --check 0-1
	assert_output 'irq 24 a: managed, on CPU 0
irq 26 c: movable, move pending to CPU 2-3, on CPU 0
managed: kernel-managed IRQs run on CPU 0; boot with isolcpus=managed_irq,0-1 to keep them off (the kernel treats it as best effort)
CPU 0-1: not isolated from interrupts, but user space can do no more'
	run --separate-stderr -0 irqaff isolate --check --accept -q 0-1
	assert_output ''
	settle 26
	run --separate-stderr -1 irqaff isolate --check -J 0-1
	assert_output '{"cpus":"0-1","isolated":false,"accepted":true,"default":"2-7","threads":[],"irqs":[{"irq":24,"name":"a","kind":"managed","requested":"0-7","effective":"0"}],"findings":[{"code":"managed","text":"kernel-managed IRQs run on CPU 0; boot with isolcpus=managed_irq,0-1 to keep them off (the kernel treats it as best effort)"}]}'
}

@test "without effective_affinity, --check goes by the requested CPUs" {
	tree --no-effective
	run --separate-stderr -1 irqaff isolate --check 1
	assert_output 'irq 24 a: movable, may run on CPU 0-7
irq 26 c: movable, may run on CPU 0-1
default: default_smp_affinity 0-7 includes CPU 1: new IRQs start there
CPU 1: not isolated from interrupts'
	# JSON names the set it knows "requested", once
	run --separate-stderr -1 irqaff isolate --check -J 1
	assert_output '{"cpus":"1","isolated":false,"accepted":false,"default":"0-7","threads":[],"irqs":[{"irq":24,"name":"a","kind":"movable","requested":"0-7"},{"irq":26,"name":"c","kind":"movable","requested":"0-1"}],"findings":[{"code":"default","text":"default_smp_affinity 0-7 includes CPU 1: new IRQs start there"}]}'
	# of the requested CPUs only the online ones
	tree --dir "$BATS_TEST_TMPDIR/off" --no-effective --offline 7
	run --separate-stderr -1 irqaff isolate --check 1
	assert_output 'irq 24 a: movable, may run on CPU 0-6
irq 26 c: movable, may run on CPU 0-1
default: default_smp_affinity 0-7 includes CPU 1: new IRQs start there
CPU 1: not isolated from interrupts'
}

@test "kernel-managed IRQs are left alone and reported with the remedy" {
	tree --managed 25,27
	run --separate-stderr -0 irqaff isolate 4-7
	assert_output ''
	assert_equal "$stderr" 'irqaff: irq 25 b: managed by the kernel, runs on CPU 5
irqaff: irq 27 d: managed by the kernel, runs on CPU 7
irqaff: note: managed: kernel-managed IRQs run on CPU 5,7; boot with isolcpus=managed_irq,4-7 to keep them off (the kernel treats it as best effort)'
	assert_equal "$(lists 24 25 26 27)" $'0-3\n4-7\n0-1\n6-7'
	run --separate-stderr -0 irqaff isolate -n 4-7
	assert_output $'irq 25: managed by the kernel, left alone\nirq 27: managed by the kernel, left alone'
}

@test "isolate --check reads no RPS mask: one that cannot be read is isolate's to say, 1 in a dry run and 3 in a real one" {
	rm -rf "$ROOT"
	make_root --cpus 4 --nic eth0:1 --queues
	printf 'zz\n' >"$ROOT/sys/class/net/eth0/queues/rx-0/rps_cpus"
	run --separate-stderr -1 irqaff isolate --check 3
	assert_equal "$stderr" ''
	# a dry run changes nothing: a failure in it is 1, never 3
	run --separate-stderr -1 irqaff isolate -n 3
	assert_equal "$stderr" 'irqaff: eth0 rx-0: Invalid argument'
	# the real run changes the default and fails the mask: partial
	run --separate-stderr -3 irqaff isolate 3
	assert_equal "$stderr" 'irqaff: eth0 rx-0: Invalid argument'
}

@test "isolcpus=managed_irq of some of the CPUs only: the remedy names them all" {
	tree --managed 27 --cmdline 'ro isolcpus=managed_irq,7'
	run --separate-stderr -0 irqaff isolate -n 6-7
	assert_equal "$(sed -n 1,2p <<<"$stderr")" 'irqaff: irq 27 d: managed by the kernel, runs on CPU 6
irqaff: note: managed: kernel-managed IRQs run on CPU 6; boot with isolcpus=managed_irq,6-7 to keep them off (the kernel treats it as best effort)'
}

@test "the managed_irq remedy keeps the flags isolcpus= has: none given is domain" {
	tree --managed 27 --isolated 6-7 --cmdline 'ro isolcpus=6-7'
	run --separate-stderr -0 irqaff isolate -q 6-7
	run --separate-stderr -1 irqaff isolate --check 6-7
	assert_line 'managed: kernel-managed IRQs run on CPU 7; boot with isolcpus=domain,managed_irq,6-7 to keep them off (the kernel treats it as best effort)'
	rm -rf "$ROOT"
	tree --managed 27 --cmdline 'ro isolcpus=nohz,6-7'
	run --separate-stderr -1 irqaff isolate --check 6-7
	assert_line 'managed: kernel-managed IRQs run on CPU 7; boot with isolcpus=nohz,managed_irq,6-7 to keep them off (the kernel treats it as best effort)'
}

@test "a refusal without debugfs marks an IRQ user space cannot move, which stays reported" {
	tree
	run --separate-stderr -0 faulty "$(irq_dir 27)/smp_affinity_list:EIO" \
		irqaff isolate 6-7
	assert_equal "$stderr" 'irqaff: irq 27 d: cannot be moved by user space, runs on CPU 7
irqaff: note: unmovable: IRQs that user space cannot move run on CPU 7: kernel-managed, per-CPU or no-balancing, which the kernel does not say without irq debugfs'
	assert_equal "$(lists 24 25 27)" $'0-5\n4-5\n6-7'
}

@test "isolcpus=managed_irq already given: a managed IRQ of isolated CPUs only is kept there" {
	tree --managed 27 --cmdline 'BOOT_IMAGE=/vmlinuz ro isolcpus=managed_irq,domain,6-7 nohz_full=6-7'
	run --separate-stderr -0 irqaff isolate 6-7
	# 27's CPUs are all isolated: the kernel keeps it there by design
	assert_equal "$stderr" 'irqaff: irq 27 d: managed, kept on isolated CPU 7 (managed_irq)'
}

@test "the kernel command line: what contradicts the CPUs is noted" {
	tree --cmdline 'BOOT_IMAGE=/boot/vmlinuz-6.1.0-13-amd64 root=UUID=0b1e ro quiet irqaffinity=0-7 isolcpus=4-5 nohz_full=5'
	run --separate-stderr -0 irqaff isolate 4-7
	assert_equal "$stderr" "irqaff: note: irqaffinity: the kernel command line's irqaffinity=0-7 includes CPU 4-7: IRQs start there at boot; irqaffinity=0-3 would not
irqaff: note: isolcpus: the kernel command line's isolcpus=4-5 does not include CPU 6-7
irqaff: note: nohz_full: the kernel command line's nohz_full=5 does not include CPU 4,6-7"
	run --separate-stderr -0 irqaff isolate -q 4-7
	assert_equal "$stderr" ''
}

@test "a command line that agrees, or parameters after --, say nothing" {
	tree --cmdline 'ro irqaffinity=0-3 isolcpus=nohz,domain,4-7 nohz_full=4-7 -- irqaffinity=4'
	run --separate-stderr -0 irqaff isolate 4-7
	assert_equal "$stderr" ''
	settle 24 25 27
	run --separate-stderr -0 irqaff isolate --check 4-7
	assert_output 'CPU 4-7: isolated from interrupts'
}

@test "irqbalance without a banned list: the exact line to add" {
	tree --irqbalance
	run --separate-stderr -0 irqaff isolate 4-7
	assert_equal "$stderr" "irqaff: warning: irqbalance: runs and bans no CPU, as no IRQBALANCE_BANNED_CPULIST is set; add IRQBALANCE_BANNED_CPULIST=4-7 to $ROOT/etc/default/irqbalance and restart it"
	settle 24 25 27
	run --separate-stderr -1 irqaff isolate --check 4-7
	assert_output "irqbalance: runs and bans no CPU, as no IRQBALANCE_BANNED_CPULIST is set; add IRQBALANCE_BANNED_CPULIST=4-7 to $ROOT/etc/default/irqbalance and restart it
CPU 4-7: not isolated from interrupts"
}

@test "irqbalance's own ban of isolated CPUs is kept in the line" {
	tree --irqbalance --isolated 3
	mkdir -p "$ROOT/etc/sysconfig"
	printf '# irqbalance\n' >"$ROOT/etc/sysconfig/irqbalance"
	run --separate-stderr -0 irqaff isolate -q 4-7
	assert_equal "$stderr" ''
	run --separate-stderr -0 irqaff isolate 4-7
	assert_equal "$stderr" "irqaff: warning: irqbalance: runs and bans only CPU 3, the isolated and nohz_full ones, as no IRQBALANCE_BANNED_CPULIST is set; add IRQBALANCE_BANNED_CPULIST=3-7 to $ROOT/etc/sysconfig/irqbalance and restart it"
}

@test "irqbalance whose banned list covers the CPUs: nothing to say" {
	tree --irqbalance-env IRQBALANCE_BANNED_CPULIST=4-7
	run --separate-stderr -0 irqaff isolate 4-7
	assert_equal "$stderr" ''
	settle 24 25 27
	run --separate-stderr -0 irqaff isolate --check 4-7
	assert_output 'CPU 4-7: isolated from interrupts'
}

@test "irqbalance: the deprecated mask wins over the list, as in irqbalance" {
	tree --irqbalance-env IRQBALANCE_BANNED_CPULIST=4-7 \
		--irqbalance-env IRQBALANCE_BANNED_CPUS=c0
	run --separate-stderr -0 irqaff isolate 4-7
	assert_equal "$stderr" "irqaff: warning: irqbalance: runs and bans only CPU 6-7 (IRQBALANCE_BANNED_CPUS); add IRQBALANCE_BANNED_CPULIST=4-7 to $ROOT/etc/default/irqbalance and restart it, and remove IRQBALANCE_BANNED_CPUS, which overrides it"
}

@test "irqbalance: an empty mask is unset, as in irqbalance: the list is read" {
	tree --irqbalance-env IRQBALANCE_BANNED_CPULIST=4-7 \
		--irqbalance-env IRQBALANCE_BANNED_CPUS=
	run --separate-stderr -0 irqaff isolate 4-7
	assert_equal "$stderr" ''
}

@test "irqbalance's environment unreadable: its configuration file is read" {
	tree --irqbalance
	rm "$ROOT/proc/4242/environ"
	mkdir -p "$ROOT/etc/default"
	printf '#IRQBALANCE_BANNED_CPULIST=\nIRQBALANCE_BANNED_CPULIST="4-7"\n' \
		>"$ROOT/etc/default/irqbalance"
	run --separate-stderr -0 irqaff isolate 4-7
	assert_equal "$stderr" ''
	printf 'IRQBALANCE_BANNED_CPULIST=5\n' >"$ROOT/etc/default/irqbalance"
	run --separate-stderr -0 irqaff isolate 4-7
	assert_equal "$stderr" "irqaff: warning: irqbalance: runs and bans only CPU 5 (IRQBALANCE_BANNED_CPULIST); add IRQBALANCE_BANNED_CPULIST=4-7 to $ROOT/etc/default/irqbalance and restart it"
}

@test "isolate -J: the result, with the default and the managed IRQs that stay" {
	tree --managed 27
	run --separate-stderr -0 irqaff isolate -J 6-7
	assert_output '{"cpus":"6-7","dry_run":false,"default":{"old":"0-7","new":"0-5","result":"changed"},"changed":[{"irq":24,"name":"a","old":"0-7","new":"0-5"},{"irq":25,"name":"b","old":"4-7","new":"4-5"}],"unchanged":1,"failed":[],"managed":[{"irq":27,"name":"d"}],"unmovable":[],"queues":{"changed":[],"unchanged":0,"failed":[]},"stuck":[{"irq":27,"name":"d","effective":"7"}],"findings":[{"code":"managed","text":"kernel-managed IRQs run on CPU 7; boot with isolcpus=managed_irq,6-7 to keep them off (the kernel treats it as best effort)"}]}'
	assert_equal "$stderr" ''
	assert_equal "$(lists 24 25 26 27)" $'0-5\n4-5\n0-1\n6-7'
	run --separate-stderr -0 irqaff isolate -J -v 6-7
	assert_output '{"cpus":"6-7","dry_run":false,"default":{"old":"0-5","new":"0-5","result":"unchanged"},"changed":[],"unchanged":3,"failed":[],"managed":[{"irq":27,"name":"d"}],"unmovable":[],"queues":{"changed":[],"unchanged":0,"failed":[]},"stuck":[{"irq":27,"name":"d","effective":"7"}],"findings":[{"code":"managed","text":"kernel-managed IRQs run on CPU 7; boot with isolcpus=managed_irq,6-7 to keep them off (the kernel treats it as best effort)"}]}'
	assert_equal "$stderr" ''
}

@test "isolate -n -J plans without writing" {
	tree
	local before
	before=$(tree_sum)
	run --separate-stderr -0 irqaff isolate -n -J 0
	assert_output '{"cpus":"0","dry_run":true,"default":{"old":"0-7","new":"1-7","result":"changed"},"changed":[{"irq":24,"name":"a","old":"0-7","new":"1-7"},{"irq":26,"name":"c","old":"0-1","new":"1"}],"unchanged":2,"failed":[],"managed":[],"unmovable":[],"queues":{"changed":[],"unchanged":0,"failed":[]},"stuck":[],"findings":[]}'
	assert_equal "$stderr" ''
	assert_equal "$(tree_sum)" "$before"
}

@test "isolate -J: a refused write fails, a refusal with EIO is unmovable" {
	tree
	run --separate-stderr -3 faulty "$(irq_dir 25)/smp_affinity_list:EINVAL,$(irq_dir 27)/smp_affinity_list:EIO" \
		irqaff isolate -J 4-7
	assert_output '{"cpus":"4-7","dry_run":false,"default":{"old":"0-7","new":"0-3","result":"changed"},"changed":[{"irq":24,"name":"a","old":"0-7","new":"0-3"}],"unchanged":1,"failed":[{"irq":25,"name":"b","new":"0-3","errno":"EINVAL","error":"cannot set 0-3: the kernel refused the CPU set (Invalid argument)"}],"managed":[],"unmovable":[{"irq":27,"name":"d"}],"queues":{"changed":[],"unchanged":0,"failed":[]},"stuck":[{"irq":27,"name":"d","kind":"unmovable","effective":"7"}],"findings":[{"code":"unmovable","text":"IRQs that user space cannot move run on CPU 7: kernel-managed, per-CPU or no-balancing, which the kernel does not say without irq debugfs"}]}'
	assert_equal "$stderr" 'irqaff: irq 25: cannot set 0-3: the kernel refused the CPU set (Invalid argument)'
}

@test "isolate -J: an IRQ or a default that cannot be read fails" {
	tree
	rm "$(irq_dir 25)/smp_affinity_list" "$(irq_dir 25)/smp_affinity"
	printf 'zz\n' >"$ROOT/proc/irq/default_smp_affinity"
	run --separate-stderr -3 irqaff isolate -J 4-7
	assert_output '{"cpus":"4-7","dry_run":false,"default":{"old":null,"new":null,"result":"failed","errno":null,"error":"'"$ROOT"'/proc/irq/default_smp_affinity: \"z\" is not a hex digit"},"changed":[{"irq":24,"name":"a","old":"0-7","new":"0-3"},{"irq":27,"name":"d","old":"6-7","new":"0-3"}],"unchanged":1,"failed":[{"irq":25,"name":"b","new":null,"errno":"ENOENT","error":"'"$ROOT"'/proc/irq/25/smp_affinity: No such file or directory"}],"managed":[],"unmovable":[],"queues":{"changed":[],"unchanged":0,"failed":[]},"stuck":[],"findings":[]}'
	assert_equal "${stderr_lines[0]}" "irqaff: irq 25: $ROOT/proc/irq/25/smp_affinity: No such file or directory"
	assert_equal "${stderr_lines[1]}" "irqaff: $ROOT/proc/irq/default_smp_affinity: \"z\" is not a hex digit"
}

@test "bad CPU sets are refused before anything is written" {
	tree
	local before arg
	before=$(tree_sum)
	run --separate-stderr -2 irqaff isolate 0-7
	assert_equal "$stderr" 'irqaff: CPU list "0-7": leaves no online CPU for interrupts'
	run --separate-stderr -2 irqaff isolate -m ff
	assert_equal "$stderr" 'irqaff: CPU mask "ff": leaves no online CPU for interrupts'
	for arg in '' 8 3-1 'node:5' x; do
		run --separate-stderr -2 irqaff isolate "$arg"
		assert_output ''
	done
	run --separate-stderr -2 irqaff isolate
	assert_equal "${stderr%%$'\n'*}" 'irqaff: isolate: expected one CPU set'
	run --separate-stderr -2 irqaff isolate --check -n 1
	assert_equal "${stderr%%$'\n'*}" 'irqaff: isolate: --check writes nothing; -n and -v do not apply'
	assert_equal "$(tree_sum)" "$before"
}

@test "a failed write: 3 when others changed, 1 when none did" {
	tree
	run --separate-stderr -3 faulty "$(irq_dir 25)/smp_affinity_list:EINVAL" \
		irqaff isolate 4-7
	assert_equal "$stderr" 'irqaff: irq 25: cannot set 0-3: the kernel refused the CPU set (Invalid argument)'
	assert_equal "$(lists 24 25 27)" $'0-3\n4-7\n0-3'
	make_root --dir "$BATS_TEST_TMPDIR/one" --cpus 2 --irq 24=a --affinity 1
	printf '01\n' >"$ROOT/proc/irq/default_smp_affinity"
	run --separate-stderr -1 faulty "$(irq_dir 24)/smp_affinity_list:EINVAL" \
		irqaff isolate 1
	assert_equal "$(lists 24)" '1'
}

@test "names reach the terminal escaped, and JSON valid" {
	make_root --cpus 4 --irq $'24=a\033[2Jb' --affinity 3 --managed 24
	run --separate-stderr -1 irqaff isolate --check 3
	assert_output 'irq 24 a\033[2Jb: managed, on CPU 3
default: default_smp_affinity 0-3 includes CPU 3: new IRQs start there
managed: kernel-managed IRQs run on CPU 3; boot with isolcpus=managed_irq,3 to keep them off (the kernel treats it as best effort)
CPU 3: not isolated from interrupts'
	run --separate-stderr -0 irqaff isolate 3
	assert_equal "$stderr" 'irqaff: irq 24 a\033[2Jb: managed by the kernel, runs on CPU 3
irqaff: note: managed: kernel-managed IRQs run on CPU 3; boot with isolcpus=managed_irq,3 to keep them off (the kernel treats it as best effort)'
	run --separate-stderr -1 irqaff isolate --check -J 3
	assert_output '{"cpus":"3","isolated":false,"accepted":true,"default":"0-2","threads":[],"irqs":[{"irq":24,"name":"a\u001b[2Jb","kind":"managed","requested":"3","effective":"3"}],"findings":[{"code":"managed","text":"kernel-managed IRQs run on CPU 3; boot with isolcpus=managed_irq,3 to keep them off (the kernel treats it as best effort)"}]}'
}

@test "an IRQ whose action proc/irq/N does not name: no space before the colon" {
	# proc_mkdir() refuses an action name with a '/': only sys/kernel/irq
	# names it
	make_root --cpus 4 --irq 24=a --affinity 3 --managed 24
	rm -r "$ROOT/proc/irq/24/a"
	printf 'a/b\n' >"$ROOT/sys/kernel/irq/24/actions"
	run --separate-stderr -1 irqaff isolate --check 3
	assert_line --index 0 'irq 24: managed, on CPU 3'
	run --separate-stderr -0 irqaff isolate 3
	assert_equal "$stderr" 'irqaff: irq 24: managed by the kernel, runs on CPU 3
irqaff: note: managed: kernel-managed IRQs run on CPU 3; boot with isolcpus=managed_irq,3 to keep them off (the kernel treats it as best effort)'
}

@test "a lost standard output is reported at the end, after every write" {
	tree
	run --separate-stderr -4 bash -c 'irqaff isolate -v 4-7 >/dev/full'
	assert_equal "$(lists 24 25 27)" $'0-3\n0-3\n0-3'
	assert_equal "$stderr" 'irqaff: standard output: No space left on device'
}

@test "--check counts an IRQ requested on the CPUs though it last ran elsewhere" {
	tree
	irqaff isolate -q 3
	settle 24 25 26 27
	run --separate-stderr -0 irqaff isolate --check 3
	# an idle vector moved there: the kernel moves it at its next interrupt
	irqaff set -q 26 3
	run --separate-stderr -1 irqaff isolate --check 3
	assert_output 'irq 26 c: movable, requested CPU 3, on CPU 0
CPU 3: not isolated from interrupts'
	run --separate-stderr -1 irqaff isolate --check --accept 3
	run --separate-stderr -1 irqaff isolate --check -J 3
	run jq -c '[.isolated, .accepted, [.irqs[] | [.irq, .kind, .requested, .effective]]]' <<<"$output"
	assert_output '[false,false,[[26,"movable","3","0"]]]'
}

@test "--check names a pending move, and --accept lets what user space cannot change pass" {
	tree --managed 24
	irqaff isolate -q 0,5
	run --separate-stderr -1 irqaff isolate --check 0,5
	assert_output 'irq 24 a: managed, on CPU 0
irq 25 b: movable, move pending to CPU 4,6-7, on CPU 5
irq 26 c: movable, move pending to CPU 1, on CPU 0
managed: kernel-managed IRQs run on CPU 0; boot with isolcpus=managed_irq,0,5 to keep them off (the kernel treats it as best effort)
CPU 0,5: not isolated from interrupts, but user space can do no more'
	run --separate-stderr -0 irqaff isolate --check --accept 0,5
	run --separate-stderr -0 irqaff isolate --check --accept -J 0,5
	run jq -c '[.isolated, .accepted, [.irqs[] | [.irq, .kind]]]' <<<"$output"
	assert_output '[false,true,[[24,"managed"],[25,"pending"],[26,"pending"]]]'
	# a movable IRQ still there is not accepted
	irqaff set -q 27 5
	run --separate-stderr -1 irqaff isolate --check --accept 0,5
	run --separate-stderr -2 irqaff isolate --accept 0,5
}

@test "--check passes a queue the kernel keeps on CPUs isolcpus=managed_irq isolates" {
	local args what
	for args in --debugfs --no-debugfs; do
		rm -rf "$ROOT"
		# the kernel keeps 25 on its housekeeping CPU 2, 26 on 3 (irq_do_set_affinity())
		make_root --cpus 4 --irq 24=nvme0q1 --affinity 0-1 \
			--irq 25=nvme0q2 --affinity 2-3 --irq 26=nvme0q3 \
			--affinity 3 --irq 27=eth0 --affinity 0-2 \
			--managed 24-26 "$args" \
			--cmdline 'BOOT_IMAGE=/vmlinuz ro isolcpus=managed_irq,domain,3'
		irqaff default 0-2 >/dev/null
		run --separate-stderr -0 irqaff isolate --check 3
		if [[ $args == --debugfs ]]; then
			assert_output 'irq 26 nvme0q3: managed, kept on isolated CPU 3 (managed_irq)
CPU 3: isolated from interrupts'
		else
			assert_output 'irq 26 nvme0q3: cannot be moved by user space, kept on isolated CPU 3 (managed_irq)
CPU 3: isolated from interrupts'
		fi
		run --separate-stderr -0 irqaff isolate --check -J 3
		run jq -c '[.isolated, [.irqs[] | [.irq, .kind]], .findings]' <<<"$output"
		assert_output '[true,[[26,"isolated"]],[]]'
		what=managed
		[[ $args == --debugfs ]] || what='cannot be moved by user space'
		run --separate-stderr -0 irqaff isolate 3
		assert_equal "$stderr" "irqaff: irq 26 nvme0q3: $what, kept on isolated CPU 3 (managed_irq)"
		run --separate-stderr -0 irqaff isolate -J 3
		run jq -c '[.stuck, .findings]' <<<"$output"
		assert_output '[[{"irq":26,"name":"nvme0q3","kind":"isolated","effective":"3"}],[]]'
	done
}

@test "isolate moves the default to the housekeeping CPUs when all of its CPUs go" {
	make_root --cpus 4 --irq 24=a --affinity 0-1
	printf '3\n' >"$ROOT/proc/irq/default_smp_affinity"
	run --separate-stderr -0 irqaff isolate -v 0-1
	assert_line --index 0 'default: 0-1 -> 2-3'
	assert_equal "$stderr" ''
	assert_file "$ROOT/proc/irq/default_smp_affinity" $'c\n'
	assert_equal "$(lists 24)" '2-3'
}

@test "isolate names only the CPUs a note is about, and leaves out IRQs with no handler" {
	tree --irq 31 --affinity 6-7 --irq 32 --affinity 5 --unmovable 32 --debugfs
	printf '3f\n' >"$ROOT/proc/irq/default_smp_affinity"
	run --separate-stderr -1 irqaff isolate --check 4-7
	assert_line 'default: default_smp_affinity 0-5 includes CPU 4-5: new IRQs start there'
	refute_line --partial 'irq 31'
	refute_line --partial 'irq 32'
	run --separate-stderr -1 irqaff isolate --check -J 4-7
	refute_output --partial '"irq":31'
	refute_output --partial '"irq":32'
	# isolate still moves the movable one, and says nothing of the other
	run --separate-stderr -0 irqaff isolate 4-7
	assert_equal "$stderr" ''
	assert_file "$(list_of 31)" $'0-3\n'
}

@test "isolate remembers its CPUs: set, spread and balance leave them out or warn, until --undo" {
	rm -rf "$ROOT"
	make_root --cpus 8 --nic eth0:4
	irqaff isolate -q 6-7
	assert_equal "$(<"$ROOT/var/lib/irqaff/isolated")" '6-7'
	run -0 --separate-stderr irqaff spread -n dev:eth0
	assert_equal "$stderr" "irqaff: spreading eth0's 5 IRQs over CPU 0-5: node 0 (eth0's node), 6-7 isolated (irqaff isolate) left out"
	run -0 --separate-stderr irqaff set -n 24 7
	assert_output 'irq 24: 0-5 -> 7'
	assert_equal "$stderr" 'irqaff: warning: CPU 7 is isolated (irqaff isolate): IRQs there interrupt the tasks isolated on them'
	# the other side: CPU 5 is not isolated
	run -0 --separate-stderr irqaff set -n 24 5
	assert_equal "$stderr" ''
	run -0 --separate-stderr irqaff balance -n -J --sample-from "$ROOT/proc/interrupts" \
		--sample-from "$ROOT/proc/interrupts" -i 1 dev:eth0
	run jq -c '[.cpus, .isolated]' <<<"$output"
	assert_output '["0-5","6-7"]'
	# -n and --check remember nothing
	irqaff isolate -n -q 5
	irqaff isolate --check -q 4 || true
	assert_equal "$(<"$ROOT/var/lib/irqaff/isolated")" '6-7'
	# --again isolates them again
	irqaff set -q dev:eth0 0-7
	run -0 --separate-stderr irqaff isolate --again -q
	assert_equal "$(lists 24)" '0-5'
	# --undo forgets them
	run -0 --separate-stderr irqaff isolate --undo
	assert_output ''
	[[ ! -e $ROOT/var/lib/irqaff/isolated ]]
	run -0 --separate-stderr irqaff spread -n dev:eth0
	assert_equal "$stderr" "irqaff: spreading eth0's 5 IRQs over CPU 0-7: node 0 (eth0's node)"
	run -0 --separate-stderr irqaff set -n 24 7
	assert_equal "$stderr" ''
	# nothing remembered: --again and --undo do nothing
	local before
	before=$(tree_sum)
	run -0 --separate-stderr irqaff isolate --again
	assert_output ''
	run -0 --separate-stderr irqaff isolate --undo
	assert_equal "$(tree_sum)" "$before"
	run -2 --separate-stderr irqaff isolate --undo 6-7
	run -2 --separate-stderr irqaff isolate --again 6-7
}

# remember TEXT: the state file isolate writes, holding TEXT.
remember() {
	mkdir -p "$ROOT/var/lib/irqaff"
	printf '%s' "$1" >"$ROOT/var/lib/irqaff/isolated"
}

@test "isolate --again takes a state naming the last possible CPU, and refuses one past it with status 2, writing nothing" {
	rm -rf "$ROOT"
	make_root --cpus 8 --nic eth0:4
	remember $'7\n'
	run -0 --separate-stderr irqaff isolate --again -q
	assert_equal "$stderr" ''
	assert_equal "$(lists 24 25)" $'0-6\n0-6'
	irqaff set -q all 0-7
	local before
	remember $'8\n'
	before=$(tree_sum)
	run -2 --separate-stderr irqaff isolate --again
	assert_output ''
	assert_equal "$stderr" "irqaff: isolate --again: $ROOT/var/lib/irqaff/isolated: CPU 8 is beyond the last possible CPU 7; nothing written"
	assert_equal "$(tree_sum)" "$before"
	# as the boot unit found it: more CPUs than this machine has
	remember $'6-9\n'
	before=$(tree_sum)
	run -2 --separate-stderr irqaff isolate --again -q -n
	assert_output ''
	assert_equal "$stderr" "irqaff: isolate --again: $ROOT/var/lib/irqaff/isolated: CPU 9 is beyond the last possible CPU 7; nothing written"
	assert_equal "$(tree_sum)" "$before"
}

@test "isolate --again refuses a malformed state with status 2, naming the file, and writes nothing" {
	rm -rf "$ROOT"
	make_root --cpus 8 --nic eth0:4
	local text why before
	while IFS='|' read -r text why; do
		remember "$(printf '%b' "$text")"
		before=$(tree_sum)
		run -2 --separate-stderr irqaff isolate --again -q
		assert_output ''
		assert_equal "$stderr" "irqaff: isolate --again: $ROOT/var/lib/irqaff/isolated: $why; nothing written"
		assert_equal "$(tree_sum)" "$before"
	done <<-'EOF'
		junk\n|region "junk": "junk" is not a number
		7-6\n|region "7-6" runs backwards
		\n|holds no CPU
		|holds no CPU
		6-7\n5\n|holds more than one line
	EOF
	# one line without its newline is still one line
	remember '6-7'
	run -0 --separate-stderr irqaff isolate --again -q
	assert_equal "$stderr" ''
	assert_equal "$(lists 24)" '0-5'
}

@test "isolate --again: a state that cannot be read is status 1, and writes nothing" {
	rm -rf "$ROOT"
	make_root --cpus 8 --nic eth0:4
	mkdir -p "$ROOT/var/lib/irqaff/isolated"
	local before
	before=$(tree_sum)
	run -1 --separate-stderr irqaff isolate --again -q
	assert_equal "$stderr" "irqaff: isolate --again: $ROOT/var/lib/irqaff/isolated: Is a directory; nothing written"
	assert_equal "$(tree_sum)" "$before"
}

@test "a state naming a CPU in a hole of the possible ones is refused; one beside the hole is taken" {
	rm -rf "$ROOT"
	make_root --cpus 8 --irq 24=a
	local f
	for f in possible present online; do
		printf '0-3,6-7\n' >"$ROOT/sys/devices/system/cpu/$f"
	done
	remember $'4\n'
	run -0 --separate-stderr irqaff set -n 24 3
	assert_equal "$stderr" "irqaff: warning: $ROOT/var/lib/irqaff/isolated: CPU 4 is not possible; taken as no CPU isolated by irqaff isolate"
	remember $'6\n'
	run -0 --separate-stderr irqaff set -n 24 6
	assert_equal "$stderr" 'irqaff: warning: CPU 6 is isolated (irqaff isolate): IRQs there interrupt the tasks isolated on them'
}

@test "a state isolate cannot use: spread, balance and set warn, naming the file, and leave no CPU out for it" {
	rm -rf "$ROOT"
	make_root --cpus 8 --nic eth0:4
	local warn="irqaff: warning: $ROOT/var/lib/irqaff/isolated: CPU 8 is beyond the last possible CPU 7; taken as no CPU isolated by irqaff isolate"
	remember $'6-8\n'
	run -0 --separate-stderr irqaff spread -n dev:eth0
	assert_equal "$stderr" "$warn
irqaff: spreading eth0's 5 IRQs over CPU 0-7: node 0 (eth0's node)"
	# -q is no notes: this is a problem, said all the same
	run -0 --separate-stderr irqaff spread -q -n dev:eth0
	assert_equal "$stderr" "$warn"
	run -0 --separate-stderr irqaff set -n 24 7
	assert_output 'irq 24: 0-7 -> 7'
	assert_equal "$stderr" "$warn"
	run -0 --separate-stderr irqaff balance -n -J --sample-from "$ROOT/proc/interrupts" \
		--sample-from "$ROOT/proc/interrupts" -i 1 dev:eth0
	assert_equal "$stderr" "$warn"
	run jq -c '[.cpus, .isolated]' <<<"$output"
	assert_output '["0-7",""]'
	# the other side: the last possible CPU is remembered, and left out
	remember $'6-7\n'
	run -0 --separate-stderr irqaff spread -n dev:eth0
	assert_equal "$stderr" "irqaff: spreading eth0's 5 IRQs over CPU 0-5: node 0 (eth0's node), 6-7 isolated (irqaff isolate) left out"
	run -0 --separate-stderr irqaff set -n 24 7
	assert_equal "$stderr" 'irqaff: warning: CPU 7 is isolated (irqaff isolate): IRQs there interrupt the tasks isolated on them'
}

@test "after a boot the saved layout and the isolation agree: restore, isolate --again, check" {
	rm -rf "$ROOT"
	make_root --cpus 8 --queues --nic eth1:8
	irqaff spread -q --xps dev:eth1
	local conf=$BATS_TEST_TMPDIR/irqaff.conf
	irqaff save "$conf"
	irqaff isolate -q 6-7
	# a boot: the driver's layout back, then the units in their order
	irqaff set -q dev:eth1 0-7
	irqaff default 0-7 2>/dev/null
	run -0 --separate-stderr irqaff restore -q "$conf"
	assert_equal "$stderr" "irqaff: note: CPU 6-7 isolated by irqaff isolate: left out of 3 lines of $conf (isolate --undo gives them back)"
	run -0 --separate-stderr irqaff isolate --again -q
	settle_effective
	run -0 --separate-stderr irqaff isolate --check -q 6-7
	run -0 --separate-stderr irqaff check "$conf"
	assert_output ''
	assert_equal "$stderr" "irqaff: note: CPU 6-7 isolated by irqaff isolate: left out of 3 lines of $conf (isolate --undo gives them back)"
	run -0 --separate-stderr irqaff check -q "$conf"
	assert_equal "$stderr" ''
	# the XPS stays as saved: it says where a CPU sends, no interrupt
	assert_equal "$(<"$ROOT/sys/class/net/eth1/queues/tx-5/xps_cpus")" 40
	# an interface bounce through the hook: restore --only
	irqaff set -q dev:eth1 0-7
	settle_effective
	run -0 irqaff restore -q --only dev:eth1 "$conf"
	settle_effective
	run -0 --separate-stderr irqaff isolate --check -q 6-7
	# forgotten: the saved layout holds again, CPUs 6-7 included
	irqaff isolate --undo
	run -0 --separate-stderr irqaff restore -q "$conf"
	assert_equal "$stderr" ''
	assert_equal "$(lists 30 31)" $'6\n7'
}

@test "default leaves out the CPUs isolate remembered, and refuses a set of only those" {
	rm -rf "$ROOT"
	make_root --cpus 4
	irqaff isolate -q 2-3
	local before
	before=$(tree_sum)
	run -2 --separate-stderr irqaff default 2-3
	assert_equal "$stderr" 'irqaff: default: CPU 2-3 isolated by irqaff isolate: no CPU left (isolate --undo gives them back)'
	assert_equal "$(tree_sum)" "$before"
	run -0 --separate-stderr irqaff default 0-3
	assert_equal "$stderr" 'irqaff: note: CPU 2-3 isolated by irqaff isolate: left out (isolate --undo gives them back)'
	assert_equal "$(irqaff default)" '0-1'
	run -0 --separate-stderr irqaff isolate --check -q 2-3
	# a CPU that is not remembered is taken as asked
	run -0 --separate-stderr irqaff default 1
	assert_equal "$stderr" ''
	assert_equal "$(irqaff default)" '1'
}

@test "isolate takes its CPUs out of every rps_cpus, and its dry run shows it" {
	rm -rf "$ROOT"
	make_root --cpus 8 --queues --nic eth0:3 --rps eth0:0=0-7 \
		--rps eth0:1=6 --rps eth0:2=0-5
	local before
	before=$(tree_sum)
	run -0 --separate-stderr irqaff isolate -n 6-7
	assert_line 'rps eth0 rx-0: 0-7 -> 0-5'
	assert_line 'rps eth0 rx-1: 6 -> -'
	refute_line --partial 'rx-2'
	run -0 --separate-stderr irqaff isolate -n -J 6-7
	run jq -c '.queues' <<<"$output"
	assert_output '{"changed":[{"dev":"eth0","queue":"rx-0","old":"0-7","new":"0-5"},{"dev":"eth0","queue":"rx-1","old":"6","new":""}],"unchanged":0,"failed":[]}'
	assert_equal "$(tree_sum)" "$before"
	run -0 --separate-stderr irqaff isolate 6-7
	assert_equal "$(cat "$ROOT"/sys/class/net/eth0/queues/rx-{0,1,2}/rps_cpus)" $'3f\n00\n3f'
	# rps leaves them out too, with a note, as the kernel does isolcpus=
	run -0 --separate-stderr irqaff rps eth0 4-7
	assert_equal "$stderr" 'irqaff: note: rps: CPU 6-7 isolated by irqaff isolate: left out (isolate --undo gives them back)'
	assert_equal "$(<"$ROOT/sys/class/net/eth0/queues/rx-0/rps_cpus")" 30
	# XPS is not isolate's: it says which queue a CPU sends on
	run -0 --separate-stderr irqaff xps eth0 6-7
	assert_equal "$stderr" ''
}

@test "isolate --undo says what it forgets and what it leaves" {
	rm -rf "$ROOT"
	make_root --cpus 8
	irqaff isolate -q 6-7
	run -0 --separate-stderr irqaff isolate --undo
	assert_output ''
	assert_equal "$stderr" 'irqaff: isolate --undo: CPU 6-7 forgotten: set, spread, balance, default and restore use them again; no IRQ moved back (restore a snapshot for that)'
	run -0 --separate-stderr irqaff isolate --undo
	assert_equal "$stderr" 'irqaff: isolate --undo: no CPU was remembered'
}

@test "isolate remembers its CPUs in the tree whatever the root is named, and a link in var stays in the tree" {
	rm -rf "$ROOT"
	make_root --dir "$BATS_TEST_TMPDIR/r"$'\t\\' --cpus 8
	# no var/lib/irqaff at all: nothing to forget
	run -0 --separate-stderr irqaff isolate --undo
	assert_equal "$stderr" 'irqaff: isolate --undo: no CPU was remembered'
	[ ! -e "$ROOT/var" ]
	run -0 --separate-stderr irqaff isolate -q 6-7
	assert_file "$ROOT/var/lib/irqaff/isolated" $'6-7\n'
	run -0 --separate-stderr irqaff isolate --undo
	[ ! -e "$ROOT/var/lib/irqaff/isolated" ]
	# var is a link to /elsewhere: the tree's /elsewhere
	rm -r "$ROOT/var"
	mkdir "$ROOT/elsewhere"
	ln -s /elsewhere "$ROOT/var"
	run -0 --separate-stderr irqaff isolate -q 6-7
	assert_file "$ROOT/elsewhere/lib/irqaff/isolated" $'6-7\n'
	[ -L "$ROOT/var" ]
	# a link to a directory of the host: none such in the tree, and
	# nothing is written on the host
	local outside=$BATS_TEST_TMPDIR/outside
	mkdir "$outside"
	rm "$ROOT/var"
	ln -s "$outside" "$ROOT/var"
	run -3 --separate-stderr irqaff isolate -q 5-7
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/r\\t\\\\/var/lib/irqaff/isolated: No such file or directory"
	assert_equal "$(ls -A "$outside")" ''
}

@test "irqaff-isolate(8)'s undo recipe gives every IRQ its CPUs back and leaves nothing remembered" {
	rm -rf "$ROOT"
	make_root --cpus 64 --nodes 2 --threads 2 --nic eth0:8:1 --queues
	local page=$BATS_TEST_DIRNAME/../../man/irqaff-isolate.8.scd conf line
	conf=$BATS_TEST_TMPDIR/before.conf
	# the EXAMPLES block that isolates, its /etc/ file under the test's
	while IFS= read -r line; do
		line=${line//\/etc\/irqaff-before.conf/$conf}
		eval "$line" || [[ $line == *--check* ]]
	done < <(sed -n '/^# EXAMPLES/,/^# SEE ALSO/p' "$page" |
		sed -n '/^```$/,/^```$/p' | grep '^irqaff ' | head -n 6)
	[[ ! -e $ROOT/var/lib/irqaff/isolated ]]
	run -0 irqaff check "$conf"
	assert_output ''
	run -0 --separate-stderr irqaff isolate --again
	assert_equal "$stderr" ''
}

@test "isolate leaves XPS on its CPUs as it is, and says so once per interface" {
	rm -rf "$ROOT"
	make_root --cpus 8 --queues --nic eth0:3 --xps eth0:0=0-7 \
		--xps eth0:1=6 --xps eth0:2=0-5 --nic $'e\033x:2' --xps $'e\033x:0=7'
	run -0 --separate-stderr irqaff isolate 6-7
	assert_equal "$stderr" 'irqaff: note: e\033x: the XPS of 1 tx queue names CPU 7, left as it is: it says where tasks there send, and interrupts no CPU (irqaff xps changes it)
irqaff: note: eth0: the XPS of 2 tx queues names CPU 6-7, left as it is: it says where tasks there send, and interrupts no CPU (irqaff xps changes it)'
	assert_equal "$(cat "$ROOT"/sys/class/net/eth0/queues/tx-{0,1,2}/xps_cpus)" $'ff\n40\n3f'
	run -0 --separate-stderr irqaff isolate -q 6-7
	assert_equal "$stderr" ''
}

# issue 52's pins: isolate's rules that a plausible one-line mistake broke
# without a test noticing

@test "isolate --again at boot with a remembered CPU offline isolates the rest; one not possible is refused" {
	make_root --cpus 8 --offline 7 --nic eth0:4
	remember $'6-7\n'
	run -0 --separate-stderr irqaff isolate --again
	assert_output ''
	assert_equal "$stderr" ''
	assert_equal "$(lists 24 25)" $'0-5\n0-5'
	assert_file "$ROOT/var/lib/irqaff/isolated" $'6-7\n'
	# the other side: CPU 8 is not possible on this machine
	irqaff set -q all 0-6
	local before
	remember $'6-8\n'
	before=$(tree_sum)
	run -2 --separate-stderr irqaff isolate --again
	assert_output ''
	assert_equal "$stderr" "irqaff: isolate --again: $ROOT/var/lib/irqaff/isolated: CPU 8 is beyond the last possible CPU 7; nothing written"
	assert_equal "$(tree_sum)" "$before"
}

@test "isolate --check fails while irqbalance bans only part of the CPUs, and passes once it bans them all" {
	tree --irqbalance-env IRQBALANCE_BANNED_CPULIST=7
	irqaff isolate -q 6-7
	settle 24 25 27
	run --separate-stderr -1 irqaff isolate --check 6-7
	assert_output "irqbalance: runs and bans only CPU 7 (IRQBALANCE_BANNED_CPULIST); add IRQBALANCE_BANNED_CPULIST=6-7 to $ROOT/etc/default/irqbalance and restart it
CPU 6-7: not isolated from interrupts"
	assert_equal "$stderr" ''
	run --separate-stderr -0 irqaff isolate --check 7
	assert_output 'CPU 7: isolated from interrupts'
	tree --dir "$BATS_TEST_TMPDIR/all" \
		--irqbalance-env IRQBALANCE_BANNED_CPULIST=6-7
	irqaff isolate -q 6-7
	settle 24 25 27
	run --separate-stderr -0 irqaff isolate --check 6-7
	assert_output 'CPU 6-7: isolated from interrupts'
}

@test "--check, --again and --undo are one mode: two of them are a usage error, and nothing is written or forgotten" {
	rm -rf "$ROOT"
	make_root --cpus 8 --nic eth0:4
	irqaff isolate -q 6-7
	local before
	before=$(tree_sum)
	run -2 --separate-stderr irqaff isolate --check --undo 6-7
	assert_equal "${stderr%%$'\n'*}" 'irqaff: isolate: --check and --undo cannot be used together'
	run -2 --separate-stderr irqaff isolate --undo --again
	assert_equal "${stderr%%$'\n'*}" 'irqaff: isolate: --undo and --again cannot be used together'
	run -2 --separate-stderr irqaff isolate --again --check
	assert_equal "${stderr%%$'\n'*}" 'irqaff: isolate: --again and --check cannot be used together'
	assert_equal "$(tree_sum)" "$before"
	# the same mode twice is that mode
	run -0 --separate-stderr irqaff isolate --check --check -q 6-7
	run -0 --separate-stderr irqaff isolate --undo --undo
	assert_equal "$stderr" 'irqaff: isolate --undo: CPU 6-7 forgotten: set, spread, balance, default and restore use them again; no IRQ moved back (restore a snapshot for that)'
}

# issue 48: a device's IRQs left with no CPU of their own are spread, not piled

# eth1's four queue pairs on node 1 (CPUs 4-7), IRQs 24 (config) to 32,
# spread one pair a CPU over its node: 25-26 on 4, ..., 31-32 on 7.
spread_eth1() {
	make_root --cpus 8 --nodes 2 --queues --virtio-nic eth1:4:1 "$@"
	irqaff spread -q dev:eth1
}

@test "isolate gives a device's IRQs left with no CPU one each over its node's remaining CPUs, and -n and -J say the same" {
	spread_eth1
	local before
	before=$(tree_sum)
	run -0 --separate-stderr irqaff isolate -n 6-7
	assert_output 'default: 0-7 -> 0-5
irq 24: 0-7 -> 0-5
irq 29: 6 -> 4
irq 30: 6 -> 4
irq 31: 7 -> 5
irq 32: 7 -> 5'
	assert_equal "$stderr" ''
	run -0 --separate-stderr irqaff isolate -n -J 6-7
	run jq -c '[.dry_run, [.changed[] | [.irq, .old, .new]]]' <<<"$output"
	assert_output '[true,[[24,"0-7","0-5"],[29,"6","4"],[30,"6","4"],[31,"7","5"],[32,"7","5"]]]'
	assert_equal "$(tree_sum)" "$before"
	run -0 --separate-stderr irqaff isolate 6-7
	assert_output ''
	assert_equal "$stderr" ''
	assert_equal "$(lists 24 25 26 27 28 29 30 31 32 | paste -sd ' ')" \
		'0-5 4 4 5 5 4 4 5 5'
	# a second run finds every IRQ off the CPUs and writes nothing
	before=$(tree_sum)
	run -0 --separate-stderr irqaff isolate -n 6-7
	assert_output ''
	run -0 --separate-stderr irqaff isolate 6-7
	assert_equal "$(tree_sum)" "$before"
}

@test "isolate --again at boot gives the layout of the first run on the same tree" {
	spread_eth1
	cp -a "$ROOT" "$BATS_TEST_TMPDIR/boot"
	irqaff isolate -q 6-7
	local first
	first=$(lists 24 25 26 27 28 29 30 31 32)
	# the next boot: the tree as before, the CPUs remembered
	rm -rf "$ROOT"
	cp -a "$BATS_TEST_TMPDIR/boot" "$ROOT"
	remember $'6-7\n'
	run -0 --separate-stderr irqaff isolate --again
	assert_equal "$stderr" ''
	assert_equal "$(lists 24 25 26 27 28 29 30 31 32)" "$first"
}

@test "of its node's remaining CPUs, those holding fewest of the device's IRQs come first: CPU 5 before 4" {
	make_root --cpus 8 --nodes 2 --queues --virtio-nic eth1:4:1
	irqaff set -q 25-28 4
	irqaff set -q 29-30 6
	irqaff set -q 31-32 7
	run -0 --separate-stderr irqaff isolate -n 6-7
	assert_output 'default: 0-7 -> 0-5
irq 24: 0-7 -> 0-5
irq 29: 6 -> 5
irq 30: 6 -> 5
irq 31: 7 -> 4
irq 32: 7 -> 4'
	# the other side: as many on each, cores in order
	irqaff set -q 27-28 5
	run -0 --separate-stderr irqaff isolate -n 6-7
	assert_line --index 2 'irq 29: 6 -> 4'
	assert_line --index 4 'irq 31: 7 -> 5'
}

@test "only the device's own IRQs, each on one CPU, are counted: not its IRQs on two CPUs, nor another device's" {
	make_root --cpus 8 --nodes 2 --queues --virtio-nic eth1:4:1 \
		--virtio-nic eth2:1:1
	irqaff set -q 25-28 4-5
	irqaff set -q 29-30 6
	irqaff set -q 31-32 7
	# eth2's three IRQs on CPU 4: none of eth1's
	irqaff set -q 33-35 4
	run -0 --separate-stderr irqaff isolate -n 6-7
	assert_output 'default: 0-7 -> 0-5
irq 24: 0-7 -> 0-5
irq 29: 6 -> 4
irq 30: 6 -> 4
irq 31: 7 -> 5
irq 32: 7 -> 5'
}

@test "a device's IRQs stay on its node while CPUs remain there: node 1, then node 0" {
	local node want
	for node in 1 0; do
		rm -rf "$ROOT"
		make_root --cpus 8 --nodes 2 --queues --virtio-nic "eth1:8:$node"
		# a pair a CPU over all eight: 25-26 on 0, ..., 39-40 on 7
		irqaff spread -q -c 0-7 dev:eth1
		want='irq 37: 6 -> 4
irq 38: 6 -> 4
irq 39: 7 -> 5
irq 40: 7 -> 5'
		[[ $node == 1 ]] || want='irq 37: 6 -> 0
irq 38: 6 -> 0
irq 39: 7 -> 1
irq 40: 7 -> 1'
		run -0 --separate-stderr irqaff isolate -n 6-7
		assert_output "default: 0-7 -> 0-5
irq 24: 0-7 -> 0-5
$want"
	done
}

@test "one IRQ of a device left with no CPU gets its node's remaining CPUs; two get one CPU each" {
	make_root --cpus 8 --nodes 2 --queues --virtio-nic eth1:4:1
	irqaff set -q 25 7
	run -0 --separate-stderr irqaff isolate -n 7
	assert_line --index 2 'irq 25: 7 -> 4-6'
	assert_line --index 3 'irq 26: 0-7 -> 0-6'
	# the other side: two of its IRQs, of two queue pairs
	irqaff set -q 27 7
	run -0 --separate-stderr irqaff isolate -n 7
	assert_line --index 2 'irq 25: 7 -> 4'
	assert_line --index 4 'irq 27: 7 -> 5'
	irqaff isolate -q 7
	assert_equal "$(lists 25 26 27)" $'4\n0-6\n5'
}

@test "isolate places on no CPU the kernel isolates, unless only those remain" {
	# 4-5 isolated by the kernel: eth1's node keeps no CPU, so node 0's
	spread_eth1 --isolated 4-5
	run -0 --separate-stderr irqaff isolate -n 6-7
	assert_output 'default: 0-7 -> 0-5
irq 24: 0-7 -> 0-5
irq 25: 6 -> 0
irq 26: 6 -> 0
irq 27: 7 -> 1
irq 28: 7 -> 1
irq 29: 6 -> 2
irq 30: 6 -> 2
irq 31: 7 -> 3
irq 32: 7 -> 3'
	# every CPU that remains is isolated: they are what there is
	rm -rf "$ROOT"
	spread_eth1 --isolated 0-5
	run -0 --separate-stderr irqaff isolate -n 6-7
	assert_output 'default: 0-7 -> 0-5
irq 24: 0-7 -> 0-5
irq 25: 6 -> 4
irq 26: 6 -> 4
irq 27: 7 -> 5
irq 28: 7 -> 5
irq 29: 6 -> 4
irq 30: 6 -> 4
irq 31: 7 -> 5
irq 32: 7 -> 5'
}
