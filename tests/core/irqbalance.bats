#!/usr/bin/env bats
# The irqbalance warning: set, restore, spread and balance warn once on
# standard error when irqbalance is running, dry runs (-n) too, unless -q
# (or --quiet) or irqbalance leaves every IRQ alone (--banirq); show and
# check only read, and never warn; bad input is refused first. irqbalance runs when run/irqbalance holds irqbalancePID.sock and
# PID is a process named irqbalance; no other process is looked at.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	# tree is the snapshot tests' machine, nic the spread tests'
	load ../test_helper/snapshot
	load ../test_helper/spread
	WARN='irqaff: warning: irqbalance is running and may move these IRQs again; keep it off them with IRQBALANCE_BANNED_CPULIST or its --banirq option, or stop it (systemctl disable --now irqbalance)'
}

@test "with irqbalance running, set and restore warn once on stderr, show does not" {
	tree 40 50 --irqbalance
	run --separate-stderr irqaff set 41 1
	assert_success
	assert_equal "$stderr" "$WARN"
	irqaff save -o "$SNAP"
	irqaff set -q 41 2
	run --separate-stderr irqaff restore "$SNAP"
	assert_success
	assert_equal "$stderr" "$WARN"
	assert_file "$(list_of 41)" $'1\n'
	run --separate-stderr irqaff show 41
	assert_success
	assert_equal "$stderr" ""
}

@test "-q and --quiet silence the irqbalance warning" {
	tree 40 50 --irqbalance
	irqaff save -o "$SNAP"
	local cmd
	for cmd in "set -q 41 1" "set --quiet 41 2" "restore -q $SNAP" \
		"restore --quiet $SNAP" "show -q" "show --quiet 41"; do
		# shellcheck disable=SC2086
		run --separate-stderr irqaff $cmd
		assert_success
		assert_equal "$stderr" ""
	done
}

@test "without irqbalance there is no warning, and check never warns" {
	tree
	irqaff save -o "$SNAP"
	run --separate-stderr irqaff set 41 1
	assert_equal "$stderr" ""
	run --separate-stderr irqaff show
	assert_equal "$stderr" ""
	make_root --dir "$BATS_TEST_TMPDIR/b" --cpus 8 --nic eth0:3:0:40 \
		--nvme nvme0:2:0:50 --irqbalance
	run --separate-stderr irqaff check "$SNAP"
	assert_success
	assert_equal "$stderr" ""
}

@test "the irqbalance warning waits for valid input" {
	tree 40 50 --irqbalance
	run --separate-stderr irqaff set 41 99
	assert_failure 2
	assert_equal "$stderr" 'irqaff: CPU list "99": CPU 99 is beyond the last possible CPU 7'
	printf 'eth0 99\n' >"$SNAP"
	run --separate-stderr irqaff restore "$SNAP"
	assert_failure 2
	assert_equal "$stderr" "irqaff: $SNAP:1: CPU list \"99\": CPU 99 is beyond the last possible CPU 7"
}

@test "spread warns that irqbalance is running unless -q, -n too, as set -n" {
	nic --irqbalance
	run --separate-stderr irqaff spread -c 1 24
	assert_success
	assert_equal "${stderr_lines[0]}" 'irqaff: spreading 1 IRQ over CPU 1: 1 as asked'
	assert_equal "${stderr_lines[1]}" "$WARN"
	run --separate-stderr irqaff spread -q -c 1 24
	assert_success
	assert_equal "$stderr" ""
	irqaff set -q 24 0
	run --separate-stderr irqaff spread -n -c 1 24
	assert_success
	assert_equal "$stderr" "irqaff: spreading 1 IRQ over CPU 1: 1 as asked
$WARN"
	assert_file "$(list_of 24)" $'0\n'
	run --separate-stderr irqaff set -n 24 1
	assert_equal "$stderr" "$WARN"
}

@test "balance -n warns that irqbalance is running, as balance does" {
	load ../test_helper/balance
	make_root --cpus 2 --irq 24=a --affinity 0 --irq 25=b --affinity 0 \
		--irqbalance
	measure "24 1 300 25 1 200" -n
	assert_equal "$rc" 0
	assert_equal "$(<"$err")" "$WARN"
	run lists 24 25
	assert_output $'0\n0'
}

@test "no warning for IRQs irqbalance was told to leave alone (--banirq)" {
	local args
	for args in '--banirq=24 --banirq 25' '-i24 -i 25'; do
		rm -rf "$ROOT"
		make_root --cpus 4 --nic eth0:3:0:24 --irqbalance-args "$args"
		run --separate-stderr -0 irqaff set -n 24 1
		assert_equal "$stderr" ''
		run --separate-stderr -0 irqaff set 24-25 1
		assert_equal "$stderr" ''
		# one IRQ it may move is enough
		run --separate-stderr -0 irqaff set -n 24-26 2
		assert_equal "$stderr" "$WARN"
		run --separate-stderr -0 irqaff spread -n -c 2 24-25
		assert_equal "$stderr" 'irqaff: spreading 2 IRQs over CPU 2: 2 as asked'
		# restore too: a file of only banned IRQs says nothing
		printf '24 1\n25 1\n' >"$BATS_TEST_TMPDIR/b.conf"
		run --separate-stderr -0 irqaff restore -n --by-number "$BATS_TEST_TMPDIR/b.conf"
		assert_equal "$stderr" ''
		printf '26 2\n' >>"$BATS_TEST_TMPDIR/b.conf"
		run --separate-stderr -0 irqaff restore -n --by-number "$BATS_TEST_TMPDIR/b.conf"
		assert_equal "$stderr" "$WARN"
	done
}

# process PID NAME: a process named NAME in the tree.
process() {
	mkdir -p "$ROOT/proc/$1"
	printf '%s\n' "$2" >"$ROOT/proc/$1/comm"
}

# socket NAME: a file NAME in irqbalance's runtime directory.
socket() {
	mkdir -p "$ROOT/run/irqbalance"
	: >"$ROOT/run/irqbalance/$1"
}

@test "irqbalance is found by its socket and the name of the process it names" {
	tree
	process 777 irqbalance
	socket irqbalance777.sock
	run --separate-stderr irqaff set 41 1
	assert_success
	assert_equal "$stderr" "$WARN"
}

@test "a socket whose process is gone or is not irqbalance does not count" {
	tree
	socket irqbalance777.sock
	run --separate-stderr irqaff set 41 1
	assert_success
	assert_equal "$stderr" ""
	process 777 sshd
	run --separate-stderr irqaff set 41 2
	assert_success
	assert_equal "$stderr" ""
	process 777 irqbalance
	run --separate-stderr irqaff set 41 3
	assert_success
	assert_equal "$stderr" "$WARN"
}

@test "without its runtime directory, or with it empty, irqbalance is not running" {
	tree 40 50 --irqbalance
	rm -r "$ROOT/run/irqbalance"
	run --separate-stderr irqaff set 41 1
	assert_success
	assert_equal "$stderr" ""
	mkdir "$ROOT/run/irqbalance"
	run --separate-stderr irqaff spread -q -c 2 41
	assert_success
	assert_equal "$stderr" ""
	assert_file "$(list_of 41)" $'2\n'
}

@test "only a name irqbalancePID.sock is irqbalance's socket" {
	tree
	process 4242 irqbalance
	local name
	for name in irqbalance.sock irqbalance04242.sock irqbalance4242 \
		irqbalance4242.sock.old irqbalance4242x.sock irqbalance-4242.sock \
		xirqbalance4242.sock irqbalance100.sock \
		irqbalance4294967296.sock irqbalance12345678901234567890.sock; do
		socket "$name"
	done
	run --separate-stderr irqaff set 41 1
	assert_success
	assert_equal "$stderr" ""
	socket irqbalance4242.sock
	run --separate-stderr irqaff set 41 2
	assert_success
	assert_equal "$stderr" "$WARN"
}

# comm_opens LOG: the proc/PID/comm files that a strace log opened.
comm_opens() {
	grep -oE '"proc/[0-9]+/comm"' "$1" || true
}

@test "set reads the name of the socket's process alone, not of every process" {
	strace_works
	tree 40 50 --irqbalance
	local pid log=$BATS_TEST_TMPDIR/strace.log
	for ((pid = 1000; pid < 1300; pid++)); do
		process "$pid" bash
	done
	run --separate-stderr -0 strace -f -o "$log" \
		-e trace=open,openat,openat2 irqaff set 41 1
	assert_equal "$stderr" "$WARN"
	assert_equal "$(comm_opens "$log")" '"proc/4242/comm"'
	rm -r "$ROOT/run/irqbalance"
	run --separate-stderr -0 strace -f -o "$log" \
		-e trace=open,openat,openat2 irqaff set 41 2
	assert_equal "$stderr" ""
	assert_equal "$(comm_opens "$log")" ""
	grep -qF '"run/irqbalance"' "$log" || fail "run/irqbalance not read"
}
