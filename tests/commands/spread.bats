#!/usr/bin/env bats
# irqaff spread: one CPU per IRQ, round robin over a pool: the first
# thread of each physical core (by package, then CPU number), then the
# second threads; --linear is plain CPU order. The pool is -c, else the
# device's node, else every online CPU, less -x, isolated and offline CPUs.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	load ../test_helper/spread
	load ../test_helper/queues
}

# nic (test_helper/spread.bash) with CPU 9 isolated, 26 nohz_full and 15
# offline (its sibling 31 stands alone).
busy_nic() {
	nic --isolated 9 --nohz-full 26 --offline 15 "$@"
}

# assert_plan CPU...: the output is the eth0-TxRx-* plan on these CPUs.
assert_plan() {
	assert_output "$(txrx "$@")"
}

# assert_written PLAN: every "irq N NAME: CPU" line of PLAN is in IRQ N's
# smp_affinity_list as "CPU\n".
assert_written() {
	local line irq cpu n=0
	while IFS= read -r line; do
		[[ $line =~ ^irq\ ([0-9]+)\ .*:\ ([0-9]+)$ ]] ||
			fail "not a plan line: $line"
		irq=${BASH_REMATCH[1]} cpu=${BASH_REMATCH[2]}
		assert_file "$(list_of "$irq")" "$cpu"$'\n'
		n=$((n + 1))
	done <<<"$1"
	((n > 0)) || fail "empty plan"
}

@test "spread gives the 16 queues of a node-1 NIC its 8 cores, then their siblings" {
	nic
	run --separate-stderr irqaff spread -n 'eth0-TxRx-*'
	assert_success
	assert_plan 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31
	assert_equal "$stderr" "irqaff: spreading eth0's 16 IRQs over CPU 8-15,24-31: node 1 (eth0's node)"
}

@test "spread of a device wraps around when it has more IRQs than CPUs" {
	nic
	run --separate-stderr irqaff spread -n dev:eth0
	assert_success
	assert_output "irq 24 eth0: 8
$(txrx 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 8)"
}

@test "spread writes exactly the plan that -n printed, and no other IRQ" {
	nic
	run --separate-stderr irqaff spread -n 'eth0-TxRx-*'
	assert_success
	local plan=$output
	run --separate-stderr irqaff spread 'eth0-TxRx-*'
	assert_success
	assert_output ""
	assert_equal "$stderr" "irqaff: spreading eth0's 16 IRQs over CPU 8-15,24-31: node 1 (eth0's node)"
	assert_written "$plan"
	assert_file "$(list_of 24)" $'0-31\n'
}

@test "spread a second time writes nothing and says every IRQ is unchanged" {
	nic
	run irqaff spread 'eth0-TxRx-*'
	assert_success
	local sum
	sum=$(tree_sum)
	run --separate-stderr irqaff spread -v 'eth0-TxRx-*'
	assert_success
	assert_output "$(txrx 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 |
		sed -E 's/^(irq [0-9]+) [^:]*: (.*)$/\1: \2 unchanged/')"
	assert_equal "$(tree_sum)" "$sum"
}

@test "spread -v prints the change of every IRQ it writes" {
	nic
	run --separate-stderr irqaff spread -v 24-26
	assert_success
	assert_output "irq 24: 0-31 -> 8
irq 25: 0-31 -> 9
irq 26: 0-31 -> 10"
}

@test "spread skips isolated, nohz_full and offline CPUs and puts lone threads with the cores" {
	busy_nic
	run --separate-stderr irqaff spread -n 'eth0-TxRx-*'
	assert_success
	assert_plan 8 10 11 12 13 14 25 31 24 27 28 29 30 8 10 11
	refute_output --regexp ': (9|15|26)$'
}

@test "spread --include-isolated uses isolated and nohz_full CPUs but not offline ones" {
	busy_nic
	run --separate-stderr irqaff spread -n --include-isolated 'eth0-TxRx-*'
	assert_success
	assert_plan 8 9 10 11 12 13 14 31 24 25 26 27 28 29 30 8
}

@test "spread --linear uses plain ascending CPU order" {
	busy_nic
	run --separate-stderr irqaff spread -n --linear 'eth0-TxRx-*'
	assert_success
	assert_plan 8 10 11 12 13 14 24 25 27 28 29 30 31 8 10 11
}

@test "spread -c orders the first threads by package before CPU number" {
	busy_nic
	run --separate-stderr irqaff spread -n -c 8,16,17,1 25-29
	assert_success
	assert_plan 1 16 8 17 1
	run --separate-stderr irqaff spread -n --linear -c 8,16,17,1 25-29
	assert_success
	assert_plan 1 8 16 17 1
	# a package whose id cannot be read is one of its own, before the rest
	rm -f -- "$ROOT"/sys/devices/system/cpu/cpu{8..15}/topology/physical_package_id \
		"$ROOT"/sys/devices/system/cpu/cpu{24..31}/topology/physical_package_id
	run --separate-stderr -0 irqaff spread -n -c 1,2,8 25-27
	assert_plan 8 1 2
}

@test "spread -c keeps the isolated CPUs it names and -x takes them out" {
	busy_nic
	run --separate-stderr irqaff spread -n -c 8-11 25-28
	assert_success
	assert_plan 8 9 10 11
	run --separate-stderr irqaff spread -n -c 8-11 -x 9 25-28
	assert_success
	assert_plan 8 10 11 8
}

@test "spread -x takes CPUs out of the device's node" {
	nic
	run --separate-stderr irqaff spread -n --exclude 8-11,24 25-30
	assert_success
	assert_plan 12 13 14 15 25 26
}

@test "spread -x takes a NUMA node or a mask, and offline CPUs, in silence" {
	busy_nic
	run --separate-stderr irqaff spread -n -c 0-1,8,10 -x node:0 25-27
	assert_success
	assert_plan 8 10 8
	assert_equal "$stderr" "irqaff: spreading 3 IRQs over CPU 8,10: 0-1,8,10 as asked, 0-1 excluded left out"
	run --separate-stderr irqaff spread -n -x 0x8500 25-27
	assert_success
	assert_plan 11 12 13
	assert_equal "$stderr" "irqaff: spreading eth0's 3 IRQs over CPU 11-14,24-25,27-31: node 1 (eth0's node), 9,26 isolated (isolcpus=, nohz_full=), 8,10 excluded left out"
}

@test "spread -c with an offline CPU notes it and uses the online ones" {
	busy_nic
	run --separate-stderr irqaff spread -n --cpus 14-15 25-26
	assert_success
	assert_plan 14 14
	assert_equal "$stderr" "irqaff: note: CPU 15 is offline
irqaff: spreading 2 IRQs over CPU 14: 14-15 as asked, 15 offline left out"
}

@test "spread puts every IRQ on the one CPU of a pool of one" {
	nic
	run --separate-stderr irqaff spread -c 5 dev:eth0
	assert_success
	local irq
	for irq in {24..40}; do
		assert_file "$(list_of "$irq")" $'5\n'
	done
}

@test "spread of a device on node -1 uses all online CPUs" {
	smt --nic eth0:16:-1
	run --separate-stderr irqaff spread -n dev:eth0
	assert_success
	assert_output "irq 24 eth0: 0
$(txrx 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16)"
	assert_equal "$stderr" "irqaff: spreading eth0's 17 IRQs over CPU 0-31: every node (eth0 has no NUMA node)"
}

@test "spread of a device without a numa_node file (no CONFIG_NUMA) uses its local_cpulist" {
	smt --nic eth0:2:1
	local fn
	fn=$(readlink -f "$ROOT/sys/class/net/eth0/device")
	rm -- "$fn/numa_node"
	printf '8-11\n' >"$fn/local_cpulist"
	run --separate-stderr -0 irqaff spread -n dev:eth0
	assert_output "irq 24 eth0: 8
$(txrx 9 10)"
	assert_equal "$stderr" "irqaff: spreading eth0's 3 IRQs over CPU 8-11: eth0's local CPUs"
}

@test "spread finds the device of a range of IRQs that it owns" {
	nic
	run --separate-stderr irqaff spread -n 27-28
	assert_success
	assert_output "irq 27 eth0-TxRx-2: 8
irq 28 eth0-TxRx-3: 9"
}

@test "spread of IRQs of two devices uses all online CPUs" {
	smt --nic eth0:2:1 --nic eth1:2:1
	run --separate-stderr irqaff spread -n 'eth0-TxRx-*,eth1-TxRx-*'
	assert_success
	assert_output "irq 25 eth0-TxRx-0: 0
irq 26 eth0-TxRx-1: 1
irq 28 eth1-TxRx-0: 2
irq 29 eth1-TxRx-1: 3"
}

@test "spread -n -J prints what would change as one JSON line, names escaped" {
	make_root --cpus 4 --irq '60=we"ird\x' --irq '61=a|b'
	local before
	before=$(tree_sum)
	run --separate-stderr -0 irqaff spread -n -J 60-61
	assert_output '{"dry_run":true,"changed":[{"irq":60,"name":"we\"ird\\x","old":"0-3","new":"0"},{"irq":61,"name":"a, b","old":"0-3","new":"1"}],"unchanged":0,"failed":[],"managed":[],"unmovable":[],"pool":{"cpus":"0-3","from":"all","device":null,"node":null,"isolated":"","excluded":"","offline":""}}'
	assert_equal "$stderr" ''
	assert_equal "$(tree_sum)" "$before"
}

@test "spread -J writes the plan and prints the result; a second run changes nothing" {
	nic
	run --separate-stderr -0 irqaff spread --json -c 2-3 24-26
	assert_output '{"dry_run":false,"changed":[{"irq":24,"name":"eth0","old":"0-31","new":"2"},{"irq":25,"name":"eth0-TxRx-0","old":"0-31","new":"3"},{"irq":26,"name":"eth0-TxRx-1","old":"0-31","new":"2"}],"unchanged":0,"failed":[],"managed":[],"unmovable":[],"pool":{"cpus":"2-3","from":"asked","device":null,"node":null,"isolated":"","excluded":"","offline":""}}'
	assert_equal "$stderr" ''
	assert_file "$(list_of 24)" $'2\n'
	assert_file "$(list_of 25)" $'3\n'
	assert_file "$(list_of 26)" $'2\n'
	run --separate-stderr -0 irqaff spread -J -v -c 2-3 24-26
	assert_output '{"dry_run":false,"changed":[],"unchanged":3,"failed":[],"managed":[],"unmovable":[],"pool":{"cpus":"2-3","from":"asked","device":null,"node":null,"isolated":"","excluded":"","offline":""}}'
	run --separate-stderr -0 irqaff spread -n -J -c 2-3 24-26
	assert_output '{"dry_run":true,"changed":[],"unchanged":3,"failed":[],"managed":[],"unmovable":[],"pool":{"cpus":"2-3","from":"asked","device":null,"node":null,"isolated":"","excluded":"","offline":""}}'
}

@test "spread -J lists the managed IRQs it leaves out, and the failed ones" {
	make_root --cpus 4 --irq 24=a --irq 25=b --irq 26=c --managed 25
	run --separate-stderr -3 faulty "$(irq_dir 26)/smp_affinity_list:EBUSY" \
		irqaff spread -J 24-26
	assert_output '{"dry_run":false,"changed":[{"irq":24,"name":"a","old":"0-3","new":"0"}],"unchanged":0,"failed":[{"irq":26,"name":"c","new":"1","errno":"EBUSY","error":"cannot set 1: a previous move of this IRQ is still pending (Device or resource busy)"}],"managed":[{"irq":25,"name":"b"}],"unmovable":[],"pool":{"cpus":"0-3","from":"all","device":null,"node":null,"isolated":"","excluded":"","offline":""}}'
	assert_equal "${stderr_lines[0]}" 'irqaff: note: 1 kernel-managed IRQ left out of the plan'
	assert_equal "${stderr_lines[1]}" 'irqaff: irq 26: cannot set 1: a previous move of this IRQ is still pending (Device or resource busy)'
	assert_equal "${#stderr_lines[@]}" 2
	run --separate-stderr -1 faulty "$(irq_dir 26)/smp_affinity_list:EBUSY" \
		irqaff spread -J 24-26
	assert_output '{"dry_run":false,"changed":[],"unchanged":1,"failed":[{"irq":26,"name":"c","new":"1","errno":"EBUSY","error":"cannot set 1: a previous move of this IRQ is still pending (Device or resource busy)"}],"managed":[{"irq":25,"name":"b"}],"unmovable":[],"pool":{"cpus":"0-3","from":"all","device":null,"node":null,"isolated":"","excluded":"","offline":""}}'
}

@test "spread -n writes nothing" {
	nic
	local sum
	sum=$(tree_sum)
	run irqaff spread -n dev:eth0
	assert_success
	assert_equal "$(tree_sum)" "$sum"
}

@test "spread with no CPU left in the pool fails and writes nothing" {
	nic --isolated 8-15 --nohz-full 24-31
	local sum
	sum=$(tree_sum)
	run --separate-stderr irqaff spread 'eth0-TxRx-*'
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "irqaff: spread: no CPU of 8-15,24-31 is left once offline, excluded and isolated CPUs are taken out"
	assert_equal "$(tree_sum)" "$sum"
}

@test "spread -c of CPUs that -x takes out fails" {
	nic
	run --separate-stderr irqaff spread -c 4 -x 4 24
	assert_failure 2
	assert_equal "$stderr" "irqaff: spread: no CPU of 4 is left once offline, excluded and isolated CPUs are taken out"
	assert_file "$(list_of 24)" $'0-31\n'
}

@test "spread rejects a bad -c value in one line and writes nothing" {
	nic
	local sum
	sum=$(tree_sum)
	run --separate-stderr irqaff spread -c 40 dev:eth0
	assert_failure 2
	assert_equal "$stderr" 'irqaff: CPU list "40": CPU 40 is beyond the last possible CPU 31'
	run --separate-stderr irqaff spread -c 3-1 dev:eth0
	assert_failure 2
	assert_equal "$stderr" 'irqaff: CPU list "3-1": region "3-1" runs backwards'
	assert_equal "$(tree_sum)" "$sum"
}

@test "spread rejects a -c value with no online CPU" {
	busy_nic
	run --separate-stderr irqaff spread -c 15 dev:eth0
	assert_failure 2
	assert_equal "$stderr" 'irqaff: CPU list "15": selects no online CPU'
}

@test "spread rejects a bad -x value in one line and writes nothing" {
	nic
	local sum
	sum=$(tree_sum)
	run --separate-stderr irqaff spread -x abc dev:eth0
	assert_failure 2
	# hex digits, as taskset takes a mask: the hint says how
	assert_equal "$stderr" 'irqaff: CPU list "abc": region "abc": "abc" is not a number; for a mask, write 0xabc'
	run --separate-stderr irqaff spread -x 0-40 dev:eth0
	assert_failure 2
	assert_equal "$stderr" 'irqaff: CPU list "0-40": CPU 40 is beyond the last possible CPU 31'
	assert_equal "$(tree_sum)" "$sum"
}

@test "spread rejects an IRQ that does not exist with status 1, as grep" {
	nic
	run --separate-stderr irqaff spread 99
	assert_failure 1
	assert_equal "$stderr" "irqaff: IRQ 99 does not exist"
}

@test "spread needs an IRQ list, and takes several as one union" {
	nic
	local usage
	usage=$(irqaff spread --help | head -n 1)
	[[ $usage == "usage: irqaff spread "*" irqs ..." ]] || fail "usage: $usage"
	run --separate-stderr irqaff spread
	assert_failure 2
	assert_equal "$stderr" "irqaff: spread: expected an IRQ list
$usage"
	run --separate-stderr -0 irqaff spread -n -c 2-3 25 24
	assert_output $'irq 24 eth0: 2\nirq 25 eth0-TxRx-0: 3'
}

@test "spread accepts --quiet" {
	nic
	run --separate-stderr irqaff spread --quiet -c 2 24
	assert_success
	assert_file "$(list_of 24)" $'2\n'
}

@test "spread reads the new names core_cpus_list and package_cpus_list when the old ones are gone" {
	busy_nic
	rm -- "$ROOT"/sys/devices/system/cpu/cpu*/topology/thread_siblings_list \
		"$ROOT"/sys/devices/system/cpu/cpu*/topology/core_siblings_list
	run --separate-stderr irqaff spread -n 'eth0-TxRx-*'
	assert_success
	assert_plan 8 10 11 12 13 14 25 31 24 27 28 29 30 8 10 11
	run --separate-stderr irqaff spread -n -c 8,16,17,1 25-29
	assert_success
	assert_plan 1 16 8 17 1
}

# topology_opens LOG FILE: how many times a strace log opened FILE in
# some cpuN/topology/.
topology_opens() {
	grep -cE "\"sys/devices/system/cpu/cpu[0-9]+/topology/$2\"" "$1" || true
}

@test "spread reads each core's siblings once and each package's list and id once" {
	strace_works
	make_root --cpus 64 --sockets 2 --threads 2 --nic eth0:64:0
	local log=$BATS_TEST_TMPDIR/strace.log
	# package 0 is 0-15 and their second threads 32-47, package 1 the
	# rest; with 0 and 33 out, 32 is the first thread of its core
	run --separate-stderr -0 strace -f -o "$log" \
		-e trace=open,openat,openat2 \
		irqaff spread -n -c all -x 0,33 'eth0-TxRx-*'
	assert_plan {1..15} 32 {16..31} {34..63} 1 2
	assert_equal "$(topology_opens "$log" thread_siblings_list)" 32
	assert_equal "$(topology_opens "$log" core_siblings_list)" 2
	assert_equal "$(topology_opens "$log" physical_package_id)" 2
	assert_equal "$(topology_opens "$log" '[a-z_]+')" 36
}

# virtio_net keeps rx-N and tx-N of a queue pair on one CPU set and its
# XPS with them (drivers/net/virtio_net.c, virtnet_set_affinity()); the
# config vector serves no queue.
@test "spread -q prints no note of control or kernel-managed IRQs left alone" {
	make_root --cpus 8 --virtio-nic eth0:4 --queues --managed 32 --debugfs
	before=$(tree_sum)
	run -0 --separate-stderr irqaff spread -q -n dev:eth0
	assert_equal "$stderr" ""
	assert_line --index 0 'irq 25 virtio0-input.0: 0'
	refute_line --partial 'irq 32 '
	run -0 --separate-stderr irqaff spread -n dev:eth0
	assert_equal "$stderr" "irqaff: spreading eth0's 7 IRQs over CPU 0-7: node 0 (eth0's node)
irqaff: note: irq 24 virtio0-config serves no queue; left where it is
irqaff: note: 1 kernel-managed IRQ left out of the plan"
	assert_equal "$(tree_sum)" "$before"
}

@test "spread of virtio_net: each queue pair on one CPU, the config IRQ left where it is" {
	make_root --cpus 8 --virtio-nic eth0:4 --queues
	run -0 --separate-stderr irqaff spread -n dev:eth0
	assert_output 'irq 25 virtio0-input.0: 0
irq 26 virtio0-output.0: 0
irq 27 virtio0-input.1: 1
irq 28 virtio0-output.1: 1
irq 29 virtio0-input.2: 2
irq 30 virtio0-output.2: 2
irq 31 virtio0-input.3: 3
irq 32 virtio0-output.3: 3'
	assert_equal "$stderr" "irqaff: spreading eth0's 8 IRQs over CPU 0-7: node 0 (eth0's node)
irqaff: note: irq 24 virtio0-config serves no queue; left where it is"
	run -0 --separate-stderr irqaff spread -q --xps dev:eth0
	assert_output ''
	assert_equal "$(lists 24 25 26 27 28 29 30 31 32)" "0-7
0
0
1
1
2
2
3
3"
	local k
	for k in 0 1 2 3; do
		assert_file "$ROOT/sys/class/net/eth0/queues/tx-$k/xps_cpus" \
			"$(kmask 8 "$k")"$'\n'
	done
	# a selection of the config IRQ alone is spread as asked
	run -0 --separate-stderr irqaff spread -n -c 5 virtio0-config
	assert_output 'irq 24 virtio0-config: 5'
	assert_equal "$stderr" 'irqaff: spreading 1 IRQ over CPU 5: 5 as asked'
}

@test "spread of e1000e, vmxnet3 and split vectors: pairs together, link and event vectors left alone" {
	# eth1 24-26: eth1-rx-0, eth1-tx-0, eth1; eth2 27-31: tx-0, tx-1,
	# rx-2, rx-3 (rx-0 and rx-1), event-4; eth3 32-36: eth3, rx-0, rx-1,
	# tx-0, tx-1
	make_root --cpus 8 --nic eth1:1 --driver e1000e \
		--nic eth2:2 --driver vmxnet3-split --nic eth3:2 --driver split
	run -0 --separate-stderr irqaff spread -n -c 4-7 dev:eth1,dev:eth2,dev:eth3
	assert_output 'irq 24 eth1-rx-0: 4
irq 25 eth1-tx-0: 4
irq 27 eth2-tx-0: 5
irq 28 eth2-tx-1: 6
irq 29 eth2-rx-2: 5
irq 30 eth2-rx-3: 6
irq 33 eth3-rx-0: 7
irq 34 eth3-rx-1: 4
irq 35 eth3-tx-0: 7
irq 36 eth3-tx-1: 4'
	assert_equal "$stderr" 'irqaff: spreading 10 IRQs over CPU 4-7: 4-7 as asked
irqaff: note: irq 26 eth1 serves no queue; left where it is
irqaff: note: irq 31 eth2-event-4 serves no queue; left where it is
irqaff: note: irq 32 eth3 serves no queue; left where it is'
	run -0 --separate-stderr irqaff spread -q -c 4-7 dev:eth1,dev:eth2,dev:eth3
	assert_equal "$(lists 26 31 32 33 35)" "0-7
0-7
0-7
7
7"
}

@test "spread of a driver naming only its tx vectors apart: still split into queues, the link vector left alone" {
	# ixgbe with more tx queues than rx: TxRx-0, TxRx-1, then tx-2 and
	# tx-3 and no rx-N (netqueue_roles(): rx or tx, either, splits); with
	# TxRx vectors only, the link vector is spread with them
	make_root --cpus 8 --nic eth0:2 --driver ixgbe-tx --nic eth1:2
	run -0 --separate-stderr irqaff spread -n -c 4-7 dev:eth0
	assert_output 'irq 25 eth0-TxRx-0: 4
irq 26 eth0-TxRx-1: 5
irq 27 eth0-tx-2: 6
irq 28 eth0-tx-3: 7'
	assert_equal "$stderr" 'irqaff: spreading 4 IRQs over CPU 4-7: 4-7 as asked
irqaff: note: irq 24 eth0 serves no queue; left where it is'
	run -0 --separate-stderr irqaff spread -n -c 4-7 dev:eth1
	assert_output 'irq 29 eth1: 4
irq 30 eth1-TxRx-0: 5
irq 31 eth1-TxRx-1: 6'
	assert_equal "$stderr" 'irqaff: spreading 3 IRQs over CPU 4-7: 4-7 as asked'
}

@test "spread --xps of virtio_net from the driver's own layout: pairs and their XPS move together" {
	# as a Debian 6.1 guest of 16 CPUs boots: pair K on 4K-4K+3
	make_root --cpus 16 --virtio-nic eth0:4 --virtnet-affinity
	run -0 --separate-stderr irqaff spread -q -v --xps dev:eth0
	assert_output 'irq 25: 0-3 -> 0
irq 26: 0-3 -> 0
irq 27: 4-7 -> 1
irq 28: 4-7 -> 1
irq 29: 8-11 -> 2
irq 30: 8-11 -> 2
irq 31: 12-15 -> 3
irq 32: 12-15 -> 3
eth0 tx-0: 0-3 -> 0
eth0 tx-1: 4-7 -> 1
eth0 tx-2: 8-11 -> 2
eth0 tx-3: 12-15 -> 3'
	assert_equal "$stderr" ""
	run -0 irqaff queues -n -o queue,xps,aligned eth0
	assert_output 'rx-0 - -
tx-0 0 yes
rx-1 - -
tx-1 1 yes
rx-2 - -
tx-2 2 yes
rx-3 - -
tx-3 3 yes'
}

@test "spread's note counts the IRQs it spreads, not the control or managed ones it leaves" {
	make_root --cpus 8 --virtio-nic eth0:4
	run -0 --separate-stderr irqaff spread -n dev:eth0
	# 9 IRQs, the config IRQ left where it is: 8 spread
	assert_equal "${stderr_lines[0]}" "irqaff: spreading eth0's 8 IRQs over CPU 0-7: node 0 (eth0's node)"
	assert_equal "$(grep -c '^irq ' <<<"$output")" 8
}

# eth0 24-28 (tx-0 on CPU 1, tx-1 on 2, tx-2 on 3, tx-3 on 0), eth1 29-31
# (tx-0 on 2, tx-1 on 3), eth2 32-34 (tx-0 on 1, tx-1 on 2). Apart from
# their IRQ's new CPU: eth0 tx-0 (a superset) and tx-3 (another CPU),
# eth1 tx-0; on it: eth0 tx-1, eth2 tx-0; XPS off (empty): eth0 tx-2,
# eth1 tx-1, eth2 tx-1.
stale_nics() {
	make_root --cpus 4 --queues \
		--nic eth0:4 --xps eth0:0=0-3 --xps eth0:1=2 --xps eth0:3=1 \
		--nic eth1:2 --xps eth1:0=3 \
		--nic eth2:2 --xps eth2:0=1
}

STALE_NOTES="irqaff: note: eth0: the XPS of 2 tx queues is left where it is, not on their IRQs' new CPUs; add --xps to move it too
irqaff: note: eth1: the XPS of 1 tx queue is left where it is, not on its IRQ's new CPU; add --xps to move it too"

@test "spread without --xps notes once per interface the tx queues whose XPS it leaves apart from their IRQs" {
	stale_nics
	local before
	before=$(xps_masks eth0 eth1 eth2)
	assert_equal "$before" 'eth0 tx-0 f
eth0 tx-1 4
eth0 tx-2 0
eth0 tx-3 2
eth1 tx-0 8
eth1 tx-1 0
eth2 tx-0 2
eth2 tx-1 0'
	# a dry run says it too: it tells what the run would do
	run -0 --separate-stderr irqaff spread -n dev:eth0,dev:eth1,dev:eth2
	assert_equal "$stderr" "irqaff: spreading 11 IRQs over CPU 0-3: every CPU
$STALE_NOTES"
	run -0 --separate-stderr irqaff spread -J -n dev:eth0,dev:eth1,dev:eth2
	assert_equal "$stderr" "$STALE_NOTES"
	run -0 jq -c 'keys' <<<"$output"
	assert_output '["changed","dry_run","failed","managed","pool","unchanged","unmovable"]'
	run -0 --separate-stderr irqaff spread dev:eth0,dev:eth1,dev:eth2
	assert_output ''
	assert_equal "$stderr" "irqaff: spreading 11 IRQs over CPU 0-3: every CPU
$STALE_NOTES"
	assert_equal "$(lists 25 26 27 28 30 31 33 34)" "1
2
3
0
2
3
1
2"
	# the note only: no xps_cpus written
	assert_equal "$(xps_masks eth0 eth1 eth2)" "$before"
}

@test "spread's XPS note: not with --xps, nor -q, nor once the XPS follows" {
	stale_nics
	run -0 --separate-stderr irqaff spread -q -n dev:eth0,dev:eth1,dev:eth2
	assert_equal "$stderr" ''
	run -0 --separate-stderr irqaff spread -q -J -n dev:eth0,dev:eth1
	assert_equal "$stderr" ''
	run -0 --separate-stderr irqaff spread --xps dev:eth0,dev:eth1,dev:eth2
	assert_equal "$stderr" 'irqaff: spreading 11 IRQs over CPU 0-3: every CPU'
	assert_equal "$(xps_masks eth0 eth1 eth2)" 'eth0 tx-0 2
eth0 tx-1 4
eth0 tx-2 8
eth0 tx-3 1
eth1 tx-0 4
eth1 tx-1 8
eth2 tx-0 2
eth2 tx-1 4'
	# every queue on its IRQ's CPU now: nothing to say
	run -0 --separate-stderr irqaff spread dev:eth0,dev:eth1,dev:eth2
	assert_equal "$stderr" 'irqaff: spreading 11 IRQs over CPU 0-3: every CPU'
	# a plan on CPU 2 and 3 leaves tx-0 (1 -> 3) and tx-3 (0 -> 2) apart
	run -0 --separate-stderr irqaff spread -n -c 2-3 dev:eth0
	assert_equal "$stderr" "irqaff: spreading 5 IRQs over CPU 2-3: 2-3 as asked
irqaff: note: eth0: the XPS of 2 tx queues is left where it is, not on their IRQs' new CPUs; add --xps to move it too"
}

@test "spread's XPS note: none when XPS is off (every xps_cpus empty) or the tree has no queues" {
	make_root --cpus 4 --nic eth0:4 --queues
	run -0 --separate-stderr irqaff spread dev:eth0
	assert_equal "$stderr" "irqaff: spreading eth0's 5 IRQs over CPU 0-3: node 0 (eth0's node)"
	assert_equal "$(xps_masks eth0)" "$(printf 'eth0 tx-%d 0\n' 0 1 2 3)"
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 4 --nic eth0:4
	run -0 --separate-stderr irqaff spread dev:eth0
	assert_equal "$stderr" "irqaff: spreading eth0's 5 IRQs over CPU 0-3: node 0 (eth0's node)"
}

@test "spread's XPS note escapes the interface's name" {
	make_root --cpus 4 --queues --nic $'e\033[2Jx:2' --xps $'e\033[2Jx:0=0-3'
	run -0 --separate-stderr irqaff spread -n 24-26
	assert_equal "$stderr" "irqaff: spreading e\\033[2Jx's 3 IRQs over CPU 0-3: node 0 (e\\033[2Jx's node)
irqaff: note: e\\033[2Jx: the XPS of 1 tx queue is left where it is, not on its IRQ's new CPU; add --xps to move it too"
}

@test "spread without --xps reads the queues' masks for its note in silence: one it cannot read is left out" {
	stale_nics
	printf 'zz\n' >"$ROOT/sys/class/net/eth0/queues/tx-0/xps_cpus"
	printf 'zz\n' >"$ROOT/sys/class/net/eth0/queues/rx-1/rps_cpus"
	run -0 --separate-stderr irqaff spread dev:eth0,dev:eth1,dev:eth2
	assert_equal "$stderr" "irqaff: spreading 11 IRQs over CPU 0-3: every CPU
irqaff: note: eth0: the XPS of 1 tx queue is left where it is, not on its IRQ's new CPU; add --xps to move it too
irqaff: note: eth1: the XPS of 1 tx queue is left where it is, not on its IRQ's new CPU; add --xps to move it too"
	assert_equal "$(lists 25 26 27 28)" "1
2
3
0"
	assert_file "$ROOT/sys/class/net/eth0/queues/tx-0/xps_cpus" $'zz\n'
	# --xps still refuses it before any write, and speaks of it alone: it
	# writes no rps_cpus
	run -1 --separate-stderr irqaff spread -q --xps -c 2-3 dev:eth0
	assert_equal "$stderr" "irqaff: $ROOT/sys/class/net/eth0/queues/tx-0/xps_cpus: \"z\" is not a hex digit"
	assert_equal "$(lists 25 26 27 28)" "1
2
3
0"
}

# issue 52's pin: of an operand that picks nothing and a malformed one,
# in either order, malformed input wins: status 2, each said
@test "spread: no match then a malformed operand exits 2, as the other way round; no match alone 1" {
	make_root --cpus 4 --irq 30=a --affinity 1
	run --separate-stderr -2 irqaff spread -n 99 '1,,'
	assert_output ''
	assert_equal "$stderr" $'irqaff: IRQ 99 does not exist\nirqaff: IRQ list "1,,": empty item'
	run --separate-stderr -2 irqaff spread -n '1,,' 99
	assert_output ''
	assert_equal "$stderr" $'irqaff: IRQ list "1,,": empty item\nirqaff: IRQ 99 does not exist'
	run --separate-stderr -1 irqaff spread -n 99
	assert_output ''
	assert_equal "$stderr" 'irqaff: IRQ 99 does not exist'
}
