#!/usr/bin/env bats
# IRQ threads (irq/N-NAME, PREEMPT_RT or threadirqs): show's THREAD and
# THREAD-CPUS, explain's thread finding and isolate --check, on trees
# whose proc/PID the kernel's fs/proc formats (make_root --irq-thread).
# A thread follows its IRQ's effective CPUs unless it is pinned apart.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
}

# IRQ 24 on CPU 1, its thread following; IRQ 25 on CPU 0, its thread
# pinned with ARGS (default CPU 3); IRQ 26 has no thread.
tree() {
	make_root --cpus 4 --irq 24=virtio1-input.0 --affinity 1 \
		--irq 25=eth0 --affinity 0 --irq 26=ahci --affinity 0 \
		--irq-thread 24 --irq-thread "25:${1:-3}" "${@:2}"
	# new IRQs start off CPUs 2-3
	printf '3\n' >"$ROOT/proc/irq/default_smp_affinity"
}

@test "show -o THREAD,THREAD-CPUS: each IRQ's threads and their CPUs, - without" {
	tree
	run --separate-stderr -0 irqaff show -o IRQ,EFFECTIVE,THREAD,THREAD-CPUS
	assert_output 'IRQ EFFECTIVE THREAD                 THREAD-CPUS
 24 1         irq/24-virtio1-input.0 1
 25 0         irq/25-eth0            3
 26 0         -                      -'
	assert_equal "$stderr" ''
	run --separate-stderr -0 irqaff show -m -n -o IRQ,THREAD-CPUS 25
	assert_output '25 8'
}

@test "show -o THREAD: a shared IRQ's threads, one for each action, comma-joined" {
	make_root --cpus 4 --irq '24=ehci|uhci' --affinity 1 --irq-thread 24
	run --separate-stderr -0 irqaff show -n -o IRQ,THREAD,THREAD-CPUS
	assert_output '24 irq/24-ehci,irq/24-uhci 1'
	run --separate-stderr -0 irqaff show -J -o irq,thread
	assert_output '{"interrupts":[{"irq":24,"thread":"irq/24-ehci,irq/24-uhci"}]}'
}

@test "show -J: thread and thread_cpus, null for an IRQ without a thread" {
	tree
	run --separate-stderr -0 irqaff show -J -o IRQ,THREAD,THREAD-CPUS
	assert_output '{"interrupts":[{"irq":24,"thread":"irq/24-virtio1-input.0","thread_cpus":"1","thread_cpus_cpus":[1]},{"irq":25,"thread":"irq/25-eth0","thread_cpus":"3","thread_cpus_cpus":[3]},{"irq":26,"thread":null,"thread_cpus":null,"thread_cpus_cpus":null}]}'
}

@test "a kernel that threads no handler: THREAD is - for every IRQ" {
	make_root --cpus 4 --irq 24=a --irq 25=b
	run --separate-stderr -0 irqaff show -n -o IRQ,THREAD,THREAD-CPUS
	assert_output '24 - -
25 - -'
}

@test "--threadirqs: a thread for each action, the secondary too, in name order" {
	make_root --cpus 4 --threadirqs --irq '30=eth0|eth1' --effective 2
	# a PID below the others': name order, not PID order
	write_task 900 irq/30-s-eth0 2
	run --separate-stderr -0 irqaff show -n -o IRQ,THREAD,THREAD-CPUS
	assert_output '30 irq/30-eth0,irq/30-eth1,irq/30-s-eth0 2'
}

@test "5.10 cuts a thread's name to 15 bytes; the number still finds its IRQ" {
	make_root --kernel 5.10 --cpus 4 --irq 24=virtio1-input.0 \
		--effective 1 --irq-thread 24:2
	assert_equal "$(cat "$ROOT/proc/1192/comm")" irq/24-virtio1-
	run --separate-stderr -0 irqaff show -n -o IRQ,THREAD,THREAD-CPUS
	assert_output '24 irq/24-virtio1- 2'
}

@test "5.19 and later show a thread's whole name, 63 bytes, read whole" {
	local name
	name=$(printf 'q%.0s' {1..56})
	make_root --cpus 4 --irq "24=$name" --effective 1 --irq-thread 24:2
	assert_equal "$(cat "$ROOT/proc/1192/comm")" "irq/24-$name"
	run --separate-stderr -0 irqaff show -n -o IRQ,THREAD,THREAD-CPUS
	assert_output "24 irq/24-$name 2"
}

@test "IRQ 0's thread is irq/0-NAME; irq/00-NAME is no thread" {
	make_root --cpus 4 --irq 0=timer --effective 1 --irq-thread 0:3
	run --separate-stderr -0 irqaff show -n -o IRQ,THREAD,THREAD-CPUS
	assert_output '0 irq/0-timer 3'
	rm -rf "$ROOT/proc/1000"
	write_task 1000 irq/00-timer 3
	run --separate-stderr -0 irqaff show -n -o IRQ,THREAD,THREAD-CPUS
	assert_output '0 - -'
}

@test "a process that names itself irq/N-... is no IRQ thread" {
	make_root --cpus 4 --irq 24=a --affinity 1
	printf '3\n' >"$ROOT/proc/irq/default_smp_affinity"
	# PF_RANDOMIZE | PF_SUPERPRIV, no PF_KTHREAD, and a cmdline
	write_task 4000 irq/24-a 3 4194560
	# a kernel thread whose name only looks like one
	write_task 4001 irq/x-a 3
	write_task 4002 irq/024-a 3
	write_task 4003 irq/24 3
	run --separate-stderr -0 irqaff show -n -o IRQ,THREAD
	assert_output '24 -'
	run --separate-stderr -0 irqaff isolate --check -q 2-3
	assert_output ''
}

@test "PF_KTHREAD is read after the name's last parenthesis" {
	make_root --cpus 4 --irq 24=a --effective 1
	write_task 1192 'irq/24-a) S 2 0 0 0 -1 2129984' 3 4194560
	run --separate-stderr -0 irqaff show -n -o IRQ,THREAD
	assert_output '24 -'
	write_task 1192 'irq/24-a) S 2 0 0 0 -1 0' 3
	run --separate-stderr -0 irqaff show -n -o IRQ,THREAD
	assert_output '24 irq/24-a) S 2 0 0 0 -1 0'
}

@test "stat's flags glued to text are no number: no thread" {
	make_root --cpus 4 --irq 24=a --effective 1 --irq-thread 24:3
	run --separate-stderr -0 irqaff show -n -o IRQ,THREAD
	assert_output '24 irq/24-a'
	sed -i 's/ 2129984 / 2129984x /' "$ROOT/proc/1192/stat"
	run --separate-stderr -0 irqaff show -n -o IRQ,THREAD
	assert_output '24 -'
}

@test "Cpus_allowed_list: a line of 64 KiB is read, one byte more or a NUL in it is unknown" {
	local pad
	make_root --cpus 4 --irq 24=a --effective 1 --irq-thread 24:3
	# the key, blanks, "3": 65536 bytes, then 65537
	printf -v pad '%65517s' ''
	printf 'Name:\tirq/24-a\nCpus_allowed_list:%s3\n' "$pad" \
		>"$ROOT/proc/1192/status"
	run --separate-stderr -0 irqaff show -n -o IRQ,THREAD,THREAD-CPUS
	assert_output '24 irq/24-a 3'
	printf 'Name:\tirq/24-a\nCpus_allowed_list: %s3\n' "$pad" \
		>"$ROOT/proc/1192/status"
	run --separate-stderr -0 irqaff show -n -o IRQ,THREAD,THREAD-CPUS
	assert_output '24 irq/24-a -'
	printf 'Name:\tirq/24-a\nCpus_allowed_list:\t3\0,1\n' \
		>"$ROOT/proc/1192/status"
	run --separate-stderr -0 irqaff show -n -o IRQ,THREAD,THREAD-CPUS
	assert_output '24 irq/24-a -'
}

@test "explain: nothing for a thread that follows its IRQ, a finding for one pinned apart" {
	tree 0
	run --separate-stderr -0 irqaff explain 24 25
	assert_output ''
	tree 2-3 --dir "$BATS_TEST_TMPDIR/pinned"
	run --separate-stderr -1 irqaff explain
	assert_output 'irq 25 eth0: thread: its thread irq/25-eth0 may run on CPU 2-3, and the IRQ runs on CPU 0: pinned apart (taskset, tuna), it keeps its CPUs until the IRQ moves'
	run --separate-stderr -1 irqaff explain -J 25
	assert_output '{"irqs":[{"irq":25,"name":"eth0","requested":"0","requested_cpus":[0],"requested_nodes":[0],"effective":"0","effective_cpus":[0],"effective_nodes":[0],"findings":[{"code":"thread","text":"its thread irq/25-eth0 may run on CPU 2-3, and the IRQ runs on CPU 0: pinned apart (taskset, tuna), it keeps its CPUs until the IRQ moves"}],"notes":[]}],"findings":[]}'
}

@test "explain says which of a pinned thread's CPUs are isolated" {
	tree 2-3 --isolated 3
	run --separate-stderr -1 irqaff explain 25
	assert_output 'irq 25 eth0: thread: its thread irq/25-eth0 may run on CPU 2-3 (isolated: 3), and the IRQ runs on CPU 0: pinned apart (taskset, tuna), it keeps its CPUs until the IRQ moves'
}

@test "explain compares online CPUs: an offline one in the thread's set is no difference" {
	tree 0,3 --offline 3
	run --separate-stderr -0 irqaff explain 25
	assert_output ''
}

@test "an IRQ not started (no effective CPU): its pinned thread is not apart from it" {
	tree 3
	printf '\n' >"$(irq_dir 25)/effective_affinity_list"
	printf '0\n' >"$(irq_dir 25)/effective_affinity"
	run --separate-stderr -0 irqaff explain 25
	assert_output ''
	run --separate-stderr -0 irqaff isolate --check 3
	assert_output 'CPU 3: isolated from interrupts'
}

@test "isolate --check fails on a thread pinned onto the CPUs, naming it, --accept too" {
	tree 3
	run --separate-stderr -1 irqaff isolate --check 3
	assert_output 'irq 25 thread irq/25-eth0: pinned apart from its IRQ, may run on CPU 3
CPU 3: not isolated from interrupts'
	assert_equal "$stderr" ''
	run --separate-stderr -1 irqaff isolate --check --accept -q 3
	assert_output ''
	run --separate-stderr -1 irqaff isolate --check -J 3
	assert_output '{"cpus":"3","isolated":false,"accepted":false,"default":"0-1","threads":[{"irq":25,"pid":1200,"name":"irq/25-eth0","cpus":"3"}],"irqs":[],"findings":[]}'
}

@test "isolate --check passes a thread pinned beside the CPUs, or following its IRQ" {
	tree 2
	run --separate-stderr -0 irqaff isolate --check 3
	assert_output 'CPU 3: isolated from interrupts'
	run --separate-stderr -1 irqaff isolate --check 2-3
	assert_output 'irq 25 thread irq/25-eth0: pinned apart from its IRQ, may run on CPU 2
CPU 2-3: not isolated from interrupts'
	# 24's thread follows it onto CPU 1: the IRQ's own line says it
	run --separate-stderr -1 irqaff isolate --check 1
	assert_output 'irq 24 virtio1-input.0: movable, on CPU 1
default: default_smp_affinity 0-1 includes CPU 1: new IRQs start there
CPU 1: not isolated from interrupts'
}

@test "thread names reach the terminal escaped, and JSON valid" {
	make_root --cpus 4 --irq $'24=a\033[2Jb' --affinity 0 --effective 0 \
		--irq-thread 24:3
	printf '1\n' >"$ROOT/proc/irq/default_smp_affinity"
	run --separate-stderr -0 irqaff show -n -o IRQ,THREAD
	assert_output '24 irq/24-a\033[2Jb'
	run --separate-stderr -1 irqaff explain
	assert_output 'irq 24 a\033[2Jb: thread: its thread irq/24-a\033[2Jb may run on CPU 3, and the IRQ runs on CPU 0: pinned apart (taskset, tuna), it keeps its CPUs until the IRQ moves'
	# the finding's text holds the escaped name: a backslash, in JSON "\\"
	run --separate-stderr -1 irqaff explain -J
	assert_output '{"irqs":[{"irq":24,"name":"a\u001b[2Jb","requested":"0","requested_cpus":[0],"requested_nodes":[0],"effective":"0","effective_cpus":[0],"effective_nodes":[0],"findings":[{"code":"thread","text":"its thread irq/24-a\\033[2Jb may run on CPU 3, and the IRQ runs on CPU 0: pinned apart (taskset, tuna), it keeps its CPUs until the IRQ moves"}],"notes":[]}],"findings":[]}'
	run --separate-stderr -1 irqaff isolate --check 3
	assert_output 'irq 24 thread irq/24-a\033[2Jb: pinned apart from its IRQ, may run on CPU 3
CPU 3: not isolated from interrupts'
	run --separate-stderr -1 irqaff isolate --check -J 3
	assert_output '{"cpus":"3","isolated":false,"accepted":false,"default":"0","threads":[{"irq":24,"pid":1192,"name":"irq/24-a\u001b[2Jb","cpus":"3"}],"irqs":[],"findings":[]}'
	run --separate-stderr -0 irqaff show -J -o THREAD
	assert_output '{"interrupts":[{"thread":"irq/24-a\u001b[2Jb"}]}'
}
