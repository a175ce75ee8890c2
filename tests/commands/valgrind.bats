#!/usr/bin/env bats
# Memory errors and leaks: each command under valgrind exits as it does
# without it and prints the same, with no invalid access and no definite
# or indirect leak (valgrind would exit 99). Skipped without valgrind and
# for the sanitizer build, which checks the same from the inside.
#
# A valgrind run costs twenty of the plain ones: make check runs the four
# untagged tests (set's writes, spread's plan, isolate and explain, the
# sampled reads and balance), make check-valgrind every test, CI both.

bats_require_minimum_version 1.5.0

# valgrind 3.19 (Debian 12) gives up on clang 14's DWARF 5 ("I can't
# recover"): a build with CC=clang is checked by make asan instead. Asked
# once for the file (a valgrind run is half a second of CPU).
setup_file() {
	load ../test_helper/common-setup
	_common_setup
	export NO_DEBUGINFO=
	if command -v valgrind >/dev/null && ! sanitized &&
		valgrind -q irqaff --version 2>&1 >/dev/null |
		grep -q "debuginfo reader"; then
		NO_DEBUGINFO=1
	fi
}

setup() {
	load ../test_helper/common-setup
	_common_setup
	command -v valgrind >/dev/null || skip "valgrind is not installed"
	! sanitized || skip "$IRQAFF_BIN is a sanitizer build"
	if [[ -n $NO_DEBUGINFO ]]; then
		skip "this valgrind cannot read $IRQAFF_BIN's debugging information"
	fi
	make_root --cpus 8 --nodes 2 --legacy 16 --nic eth0:4 --nvme nvme0:2
}

# grinds STATUS ARGS...: irqaff ARGS... exits STATUS under valgrind and
# prints what it prints without it (on a copy of the tree, whose name
# messages give as the tree's); the tree ends up the same both ways.
grinds() {
	local want=$1 plain plain_err plain_sum
	shift
	cp -a "$ROOT" "$BATS_TEST_TMPDIR/copy"
	run --separate-stderr irqaff --root "$BATS_TEST_TMPDIR/copy" "$@"
	assert_equal "$status" "$want"
	plain=$output plain_err=${stderr//"$BATS_TEST_TMPDIR/copy"/"$ROOT"}
	plain_sum=$(tree_sum "$BATS_TEST_TMPDIR/copy")
	rm -rf "$BATS_TEST_TMPDIR/copy"
	run --separate-stderr valgrind -q --error-exitcode=99 \
		--leak-check=full --errors-for-leak-kinds=definite,indirect \
		irqaff "$@"
	if ((status == 99)); then
		printf '%s\n' "$stderr"
		return 1
	fi
	assert_equal "$status" "$want"
	assert_equal "$output" "$plain"
	# valgrind 3.19 does not know openat2(2): irqaff falls back to
	# openat(2), and valgrind says so in lines of its own
	assert_equal "$(grep -v '^--[0-9]*-- ' <<<"$stderr")" "$plain_err"
	assert_equal "$(tree_sum)" "$plain_sum"
}

# bats test_tags=valgrind:full
@test "show is clean under valgrind" {
	grinds 0 show
	[[ -n $output ]]
	grinds 0 show -a -m 24-28
}

# bats test_tags=valgrind:full
@test "show -J is clean under valgrind" {
	grinds 0 show -J
	grinds 0 show -J -o IRQ,NAME eth0*
}

@test "set is clean under valgrind" {
	grinds 0 set -v dev:eth0 1-2
	assert_equal "$(cat "$(irq_dir 24)/smp_affinity_list")" 1-2
	grinds 0 set -m 0-15 0x3
	grinds 0 set -v 24 1-2
}

# bats test_tags=valgrind:full
@test "set -n is clean under valgrind" {
	grinds 0 set -n 'nvme0*' node:1
	[[ -n $output ]]
}

# bats test_tags=valgrind:full
@test "default is clean under valgrind" {
	grinds 0 default
	grinds 0 default -m
	grinds 0 default -v 0-3
	assert_equal "$(cat "$ROOT/proc/irq/default_smp_affinity")" 0f
}

# bats test_tags=valgrind:full
@test "mask and list are clean under valgrind" {
	grinds 0 mask 0-3 all 1-7:2/4
	assert_output $'0f\nff\n66'
	grinds 0 list -b 64 ff 0x1 1,00000000
	assert_output $'0-7\n0\n32'
	grinds 0 mask -b 8192 0-8191:1/2
	grinds 0 list -b 8192 "$(kmask 8192 0-8191:1/3)"
}

# bats test_tags=valgrind:full
@test "refused input is clean under valgrind" {
	grinds 2 set 24 0-7:0/0
	grinds 1 set 9999 1
	grinds 2 mask 99999999999999999999
	grinds 2 list 0xg
}

# bats test_tags=valgrind:full
@test "a failing write is clean under valgrind" {
	rm "$(irq_dir 25)/smp_affinity_list"
	mkdir "$(irq_dir 25)/smp_affinity_list"
	grinds 3 set -v 24-26 1
}

@test "spread is clean under valgrind" {
	grinds 0 spread -n dev:eth0
	grinds 0 spread -v dev:eth0
	grinds 0 spread -J -n dev:nvme0
	# several operands: one union, with what each named
	grinds 0 spread -J -n dev:nvme0 24 'nvme0*'
}

@test "isolate and explain are clean under valgrind" {
	printf 'ro isolcpus=managed_irq,6-7 irqaffinity=0-7\n' >"$ROOT/proc/cmdline"
	grinds 0 isolate -n 6-7
	grinds 1 isolate --check -J 6-7
	grinds 0 isolate -v 6-7
	grinds 1 explain -v
	grinds 1 explain -J eth0*
	grinds 5 explain 'nosuch*'
}

# bats test_tags=valgrind:full
@test "cpus is clean under valgrind, sampling too" {
	grinds 0 cpus
	grinds 0 cpus -J 0-3
	grinds 0 cpus -i 0.1 -o cpu,irqs,rate,top
}

# bats test_tags=valgrind:full
@test "top is clean under valgrind, from saved reads and the tree's, on a terminal too" {
	local a=$BATS_TEST_TMPDIR/a b=$BATS_TEST_TMPDIR/b c=$BATS_TEST_TMPDIR/c
	snapshot_interrupts "$a"
	add_count 24 1 1000 25 2 5
	snapshot_interrupts "$b"
	add_count 24 2 500
	snapshot_interrupts "$c"
	grinds 0 top -i 1 --count 2 --sample-from "$a" --sample-from "$b" \
		--sample-from "$c"
	grinds 0 top -a -s name -i 1 --sample-from "$a" --sample-from "$b"
	grinds 1 top -i 0.1 99
	# the kernel's clock: a title that differs from run to run
	run --separate-stderr valgrind -q --error-exitcode=99 \
		--leak-check=full --errors-for-leak-kinds=definite,indirect \
		irqaff top -a -i 0.1 --count 2
	assert_success
	assert_equal "$(grep -v '^--[0-9]*-- ' <<<"$stderr")" ''
	assert_equal "$(grep -cE ' over [0-9]+\.[0-9]{2} s ' <<<"$output")" 2
	grinds 2 top -s x
	# the terminal's screen is drawn, keys set up and given back
	run script -qec "valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect irqaff top -i 1 \
		--count 2 --sample-from $a --sample-from $b --sample-from $c
		echo status \$?" /dev/null
	assert_success
	assert_output --partial $'status 0\r'
	refute_output --partial '=='
}

# bats test_tags=valgrind:full
@test "show -i is clean under valgrind" {
	grinds 0 show -i 0.1 -o irq,total,rate
	grinds 0 show -i 0.1 -o irq,rate 24-26
}

@test "--sample-from is clean under valgrind: show, cpus, balance, and its refusals" {
	local a=$BATS_TEST_TMPDIR/a b=$BATS_TEST_TMPDIR/b c=$BATS_TEST_TMPDIR/c
	snapshot_interrupts "$a"
	add_count 24 1 1000
	snapshot_interrupts "$b"
	add_count 24 2 500
	snapshot_interrupts "$c"
	touch -d @1700000000 "$a"
	touch -d @1700000001 "$b"
	touch -d @1700000003 "$c"
	grinds 0 show -o irq,rate --count 2 --sample-from "$a" \
		--sample-from "$b" --sample-from "$c"
	grinds 0 cpus -J -i 1 -o cpu,rate,top --sample-from "$a" \
		--sample-from "$b"
	grinds 0 balance -n --sample-from "$a" --sample-from "$b"
	grinds 2 show --sample-from "$a" --sample-from "$b" --sample-from "$c"
	grinds 2 show --sample-from "$b" --sample-from "$a"
	grinds 1 cpus -i 1 --sample-from "$a" --sample-from "$BATS_TEST_TMPDIR/no"
}

# bats test_tags=valgrind:full
@test "xps, rps and spread --xps are clean under valgrind" {
	make_root --dir "$BATS_TEST_TMPDIR/q" --cpus 4 --nic eth0:4 \
		--xps eth0:1=1 --nic eth1:1
	printf 'zz\n' >"$ROOT/sys/class/net/eth0/queues/rx-3/rps_cpus"
	grinds 0 xps -n eth0 2-3
	grinds 0 xps -v eth0:tx-1-2 none
	grinds 1 rps eth0 1
	grinds 0 rps eth0:0-2 node:0
	grinds 0 xps -J -n eth0 2-3
	grinds 1 rps -J eth0 2
	grinds 1 xps eth0:9 1
	grinds 1 xps nosuch 1
	grinds 0 spread -q -v --xps dev:eth0
	grinds 0 spread -q -J -n --xps dev:eth0
	grinds 0 spread -q --xps dev:eth1
}

# bats test_tags=valgrind:full
@test "queue pairs and the CPUs the kernel keeps are clean under valgrind" {
	make_root --dir "$BATS_TEST_TMPDIR/q" --cpus 4 --virtio-nic eth0:2 \
		--nic eth1:1 --driver e1000e --queues --offline 3 --isolated 2
	grinds 0 spread -q -v --xps dev:eth0
	grinds 0 spread -q -n dev:eth1
	grinds 0 xps -v eth0 1-3
	grinds 2 rps eth0 2-3
	printf 'xps eth0 tx-0 0-3\nrps eth0 rx-0 2-3\nrps eth0 rx-1 1-3\n' \
		>"$BATS_TEST_TMPDIR/snap"
	grinds 0 restore -q -v "$BATS_TEST_TMPDIR/snap"
	grinds 0 check "$BATS_TEST_TMPDIR/snap"
}

# bats test_tags=valgrind:full
@test "queues is clean under valgrind" {
	make_root --dir "$BATS_TEST_TMPDIR/q" --cpus 4 --nic eth0:2 \
		--xps eth0:1=1 --nic eth1:2 --driver gve --virtio-nic eth2:2 \
		--nic eth3:1 --driver mlx5
	printf 'zz\n' >"$ROOT/sys/class/net/eth1/queues/rx-1/rps_cpus"
	grinds 1 queues
	grinds 0 queues -J -o dev,queue,irq,aligned eth2,eth0,eth3
	grinds 0 queues -o +irq eth0,nosuch
}

# bats test_tags=valgrind:full
@test "balance is clean under valgrind" {
	# saved reads, not -i: the interval is printed, and a loaded machine
	# measured 0.5 s for a valgrind run's 0.1
	local a=$BATS_TEST_TMPDIR/a b=$BATS_TEST_TMPDIR/b
	snapshot_interrupts "$a"
	add_count 24 1 3000 25 1 2000
	snapshot_interrupts "$b"
	touch -d @1700000000 "$a"
	touch -d @1700000001 "$b"
	grinds 0 balance -q --sample-from "$a" --sample-from "$b"
	grinds 0 balance -n -v --xps --sample-from "$a" --sample-from "$b" \
		dev:eth0
	grinds 2 balance -i 0.1 --cpus 99
}
