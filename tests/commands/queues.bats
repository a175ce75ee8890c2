#!/usr/bin/env bats
# irqaff queues: one row per queue of network interfaces, each queue's IRQ
# found from its driver's action names, its XPS or RPS CPUs from the
# kernel's masks, and whether XPS follows the IRQ.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	load ../test_helper/queues
}

# rename_action IRQ OLD NEW: the action OLD of IRQ is now called NEW.
rename_action() {
	mv -- "$(irq_dir "$1")/$2" "$(irq_dir "$1")/$3"
}

@test "combined queues: each driver's names give rx-N and tx-N their IRQ" {
	# vectors from 24: the first of each NIC serves no queue (eth0,
	# i40e-ADDR:misc, ice-ADDR:misc, ena-mgmnt@pci:ADDR, mlx5_async0,
	# eth6), and vmxnet3's last (ens192-event-2)
	make_root --cpus 4 --queues --nic eth0:2 --nic eth1:2 --driver i40e \
		--nic eth2:2 --driver ice --nic ens5:2 --driver ena \
		--nic eth4:2 --driver mlx5 --nic eth6:2 --driver bnx2x \
		--nic ens192:2 --driver vmxnet3
	run -0 --separate-stderr irqaff queues -n -o dev,queue,irq
	assert_output 'ens5   rx-0 34
ens5   tx-0 34
ens5   rx-1 35
ens5   tx-1 35
ens192 rx-0 42
ens192 tx-0 42
ens192 rx-1 43
ens192 tx-1 43
eth0   rx-0 25
eth0   tx-0 25
eth0   rx-1 26
eth0   tx-1 26
eth1   rx-0 28
eth1   tx-0 28
eth1   rx-1 29
eth1   tx-1 29
eth2   rx-0 31
eth2   tx-0 31
eth2   rx-1 32
eth2   tx-1 32
eth4   rx-0 37
eth4   tx-0 37
eth4   rx-1 38
eth4   tx-1 38
eth6   rx-0 40
eth6   tx-0 40
eth6   rx-1 41
eth6   tx-1 41'
	assert_equal "$stderr" ''
	# what the names are, as show has them
	run -0 irqaff show -n -o name 25,28,31,34,37,40,42
	assert_output 'eth0-TxRx-0
i40e-eth1-TxRx-0
ice-eth2-TxRx-0
ens5-Tx-Rx-0
mlx5_comp0@pci:0000:3f:00.0
eth6-fp-0
ens192-rxtx-0'
}

@test "rx and tx apart: split vectors, virtio_net, gve's notify blocks" {
	# eth3: 24 eth3, 25-26 rx, 27-28 tx; eth5: blocks 29-32 (tx-0, tx-1,
	# rx-0, rx-1), 33 gve-mgmnt; eth7: 34 virtio0-config, then input.0,
	# output.0, input.1, output.1
	make_root --cpus 4 --queues --nic eth3:2 --driver split \
		--nic eth5:2 --driver gve --virtio-nic eth7:2
	run -0 --separate-stderr irqaff queues -n -o queue,irq eth3,eth5,eth7
	assert_output 'rx-0 25
tx-0 27
rx-1 26
tx-1 28
rx-0 31
tx-0 29
rx-1 32
tx-1 30
rx-0 35
tx-0 36
rx-1 37
tx-1 38'
	run -0 irqaff show -n -o name 27,31,36
	assert_output 'eth3-tx-0
gve-ntfy-blk2@pci:0000:3c:00.0
virtio0-output.0'
}

@test "a name with no queue number, or another interface's, serves no queue" {
	make_root --cpus 4 --queues --nic eth1:2 --nic eth10:2
	# eth1-TxRx-0 becomes eth10's name, eth1's IRQ 26 also eth10-TxRx-1,
	# and eth10's IRQ 28 only "eth10", as its link vector
	rename_action 25 eth1-TxRx-0 eth10-TxRx-0
	mkdir "$(irq_dir 26)/eth10-TxRx-1"
	rename_action 28 eth10-TxRx-0 eth10
	run -0 --separate-stderr irqaff queues -o dev,queue,irq
	assert_output 'DEV   QUEUE IRQ
eth1  rx-0    -
eth1  tx-0    -
eth1  rx-1   26
eth1  tx-1   26
eth10 rx-0    -
eth10 tx-0    -
eth10 rx-1   29
eth10 tx-1   29'
	assert_equal "$stderr" ''
}

@test "a name of another device, or with text after its number, serves no queue" {
	make_root --cpus 4 --queues --nic eth0:2 --nic eth4:2 --driver mlx5 \
		--virtio-nic eth7:2
	# eth0's TxRx-1 with more after its number; eth4's comp1 on another
	# PCI function (eth4 is 0000:3c:00.0); virtio1's input.1 on eth7's
	# IRQ, which is virtio0's
	rename_action 26 eth0-TxRx-1 eth0-TxRx-1-xdp
	rename_action 29 mlx5_comp1@pci:0000:3c:00.0 mlx5_comp1@pci:0000:3d:00.0
	rename_action 33 virtio0-input.1 virtio1-input.1
	run -0 --separate-stderr irqaff queues -n -o dev,queue,irq
	assert_output 'eth0 rx-0 25
eth0 tx-0 25
eth0 rx-1  -
eth0 tx-1  -
eth4 rx-0 28
eth4 tx-0 28
eth4 rx-1  -
eth4 tx-1  -
eth7 rx-0 31
eth7 tx-0 32
eth7 rx-1  -
eth7 tx-1 34'
	assert_equal "$stderr" ''
}

@test "mlx5 names counted from 1; vmxnet3's rx vectors after its tx ones" {
	make_root --cpus 4 --queues --nic eth4:2 --driver mlx5 \
		--nic ens192:3 --driver vmxnet3
	# kernels that named channel 0's vector mlx5_comp1
	rename_action 26 mlx5_comp1@pci:0000:3b:00.0 mlx5_comp2@pci:0000:3b:00.0
	rename_action 25 mlx5_comp0@pci:0000:3b:00.0 mlx5_comp1@pci:0000:3b:00.0
	# vmxnet3 with 1 tx and 2 rx queues shares no vector: ens192-tx-0,
	# ens192-rx-1, ens192-rx-2, ens192-event-3 (vmxnet3_request_irqs())
	rename_action 27 ens192-rxtx-0 ens192-tx-0
	rename_action 28 ens192-rxtx-1 ens192-rx-1
	rename_action 29 ens192-rxtx-2 ens192-rx-2
	rm -r "$ROOT"/sys/class/net/ens192/queues/{tx-1,tx-2,rx-2}
	run -0 --separate-stderr irqaff queues -n -o dev,queue,irq eth4,ens192
	assert_output 'eth4   rx-0 25
eth4   tx-0 25
eth4   rx-1 26
eth4   tx-1 26
ens192 rx-0 28
ens192 tx-0 27
ens192 rx-1 29'
}

@test "masks of 4 CPUs: XPS and RPS as lists, an empty mask as -" {
	make_root --cpus 4 --nic eth0:2 --xps eth0:0=0-3 --xps eth0:1=1 \
		--rps eth0:0=2-3
	assert_file "$(queue_file eth0 tx-0 xps_cpus)" $'f\n'
	assert_file "$(queue_file eth0 tx-1 xps_cpus)" $'2\n'
	assert_file "$(queue_file eth0 rx-0 rps_cpus)" $'c\n'
	assert_file "$(queue_file eth0 rx-1 rps_cpus)" $'0\n'
	run -0 --separate-stderr irqaff queues -o queue,xps,rps
	assert_output 'QUEUE XPS RPS
rx-0  -   2-3
tx-0  0-3 -
rx-1  -   -
tx-1  1   -'
	run -0 --separate-stderr irqaff queues -J -o queue,xps,rps
	assert_output '{"queues":[{"queue":"rx-0","xps":null,"xps_cpus":null,"rps":"2-3","rps_cpus":[2,3]},{"queue":"tx-0","xps":"0-3","xps_cpus":[0,1,2,3],"rps":null,"rps_cpus":null},{"queue":"rx-1","xps":null,"xps_cpus":null,"rps":"","rps_cpus":[]},{"queue":"tx-1","xps":"1","xps_cpus":[1],"rps":null,"rps_cpus":null}]}'
}

@test "masks of 64 CPUs: two words" {
	make_root --cpus 64 --nodes 2 --nic eth0:2 --xps eth0:0=32 \
		--rps eth0:1=0-63
	assert_file "$(queue_file eth0 tx-0 xps_cpus)" $'00000001,00000000\n'
	assert_file "$(queue_file eth0 tx-1 xps_cpus)" $'00000000,00000000\n'
	assert_file "$(queue_file eth0 rx-1 rps_cpus)" $'ffffffff,ffffffff\n'
	run -0 --separate-stderr irqaff queues -n -o queue,xps,rps
	assert_output 'rx-0 -  -
tx-0 32 -
rx-1 -  0-63
tx-1 -  -'
	assert_equal "$stderr" ''
}

@test "masks of 8192 CPUs, and a mask wider than the machine" {
	make_root --cpus 4 --nic eth0:2 --queues
	# the tree told it has 8192 possible CPUs, as faults.bats does
	local cpu=$ROOT/sys/devices/system/cpu
	printf '0-8191\n' | tee "$cpu/possible" "$cpu/present" "$cpu/online" \
		>/dev/null
	kmask 8192 8191 >"$(queue_file eth0 tx-0 xps_cpus)"
	kmask 8192 0-4095 >"$(queue_file eth0 tx-1 xps_cpus)"
	kmask 8192 '' >"$(queue_file eth0 rx-0 rps_cpus)"
	kmask 8192 4096-8191 >"$(queue_file eth0 rx-1 rps_cpus)"
	assert_equal "$(wc -c <"$(queue_file eth0 rx-0 rps_cpus)")" 2304
	run -0 --separate-stderr irqaff queues -n -o queue,xps,rps
	assert_output 'rx-0 -      -
tx-0 8191   -
rx-1 -      4096-8191
tx-1 0-4095 -'
	# a 4-CPU machine does not take a mask of 8192 bits
	printf '0-3\n' | tee "$cpu/possible" "$cpu/present" "$cpu/online" \
		>/dev/null
	run -1 --separate-stderr irqaff queues -n -o queue,xps,rps
	assert_output 'rx-0 - -
tx-0 - -
rx-1 - -
tx-1 - -'
	assert_equal "${#stderr_lines[@]}" 4
	assert_equal "${stderr_lines[1]}" "irqaff: $(queue_file eth0 tx-0 \
		xps_cpus): more than the 1 32-bit word that 4 CPUs need"
}

@test "CPUS is the IRQ's effective set; ALIGNED compares XPS with AFFINITY" {
	# requested 0-3 for every IRQ, effective the (IRQ mod 4)th CPU
	make_root --cpus 4 --nic eth0:3 --xps eth0:0=0-3 --xps eth0:1=2 \
		--xps eth0:2=1
	printf '1\n' >"$(irq_dir 27)/smp_affinity_list"
	run -0 --separate-stderr irqaff queues
	assert_output 'DEV  QUEUE IRQ AFFINITY CPUS XPS RPS ALIGNED
eth0 rx-0   25 0-3      1    -   -   -
eth0 tx-0   25 0-3      1    0-3 -   yes
eth0 rx-1   26 0-3      2    -   -   -
eth0 tx-1   26 0-3      2    2   -   no
eth0 rx-2   27 1        3    -   -   -
eth0 tx-2   27 1        3    1   -   yes'
	# without effective_affinity files, CPUS is the requested set
	rm "$(irq_dir 25)"/effective_affinity*
	run -0 --separate-stderr irqaff queues -n -o queue,cpus,aligned eth0
	assert_output 'rx-0 0-3 -
tx-0 0-3 yes
rx-1 2   -
tx-1 2   no
rx-2 3   -
tx-2 3   yes'
}

@test "queues -J: numbers, booleans, lists, \"\" and null" {
	make_root --cpus 4 --nic eth0:2 --xps eth0:0=0-3 --nic eth1:1
	rename_action 26 eth0-TxRx-1 eth0-unused
	run -0 --separate-stderr irqaff queues -J
	assert_output '{"queues":[{"dev":"eth0","queue":"rx-0","irq":25,"affinity":"0-3","affinity_cpus":[0,1,2,3],"cpus":"1","cpus_cpus":[1],"xps":null,"xps_cpus":null,"rps":"","rps_cpus":[],"aligned":null},{"dev":"eth0","queue":"tx-0","irq":25,"affinity":"0-3","affinity_cpus":[0,1,2,3],"cpus":"1","cpus_cpus":[1],"xps":"0-3","xps_cpus":[0,1,2,3],"rps":null,"rps_cpus":null,"aligned":true},{"dev":"eth0","queue":"rx-1","irq":null,"affinity":null,"affinity_cpus":null,"cpus":null,"cpus_cpus":null,"xps":null,"xps_cpus":null,"rps":"","rps_cpus":[],"aligned":null},{"dev":"eth0","queue":"tx-1","irq":null,"affinity":null,"affinity_cpus":null,"cpus":null,"cpus_cpus":null,"xps":"","xps_cpus":[],"rps":null,"rps_cpus":null,"aligned":null},{"dev":"eth1","queue":"rx-0","irq":28,"affinity":"0-3","affinity_cpus":[0,1,2,3],"cpus":"0","cpus_cpus":[0],"xps":null,"xps_cpus":null,"rps":"","rps_cpus":[],"aligned":null},{"dev":"eth1","queue":"tx-0","irq":28,"affinity":"0-3","affinity_cpus":[0,1,2,3],"cpus":"0","cpus_cpus":[0],"xps":null,"xps_cpus":null,"rps":null,"rps_cpus":null,"aligned":null}]}'
	assert_equal "$stderr" ''
	if command -v jq >/dev/null; then
		run -0 jq -r '.queues[] | select(.aligned) | .dev + " " + .queue' \
			<<<"$output"
		assert_output 'eth0 tx-0'
	fi
	# -n changes nothing in JSON; -o picks and orders the keys
	run -0 irqaff queues -J -n -o ALIGNED,queue eth1
	assert_output '{"queues":[{"aligned":null,"queue":"rx-0"},{"aligned":null,"queue":"tx-0"}]}'
}

@test "queues -o and -n: columns in any case and order, +COLS adds to all" {
	make_root --cpus 4 --nic eth0:1 --rps eth0:0=1
	run -0 irqaff queues -o Rps,DEV,rps
	assert_output 'RPS DEV  RPS
1   eth0 1
-   eth0 -'
	run -0 irqaff queues -n --output=+IRQ
	assert_output 'eth0 rx-0 25 0-3 1 - 1 - 25
eth0 tx-0 25 0-3 1 - - - 25'
	run -2 --separate-stderr irqaff queues -o DEV,bogus
	assert_output ''
	assert_equal "$stderr" 'irqaff: queues: unknown column "bogus"
usage: irqaff queues [-Jn] [-o cols] [devs]'
	run -2 --separate-stderr irqaff queues eth0 eth0
	assert_equal "${stderr_lines[0]}" \
		'irqaff: queues: expected at most one list of interfaces'
}

@test "names in the table are escaped, in JSON valid" {
	make_root --cpus 4 --queues --nic $'e\033[2Jx:1' --nic $'t\tb\\"q:1'
	run -0 --separate-stderr irqaff queues -o dev,queue,irq
	assert_output 'DEV       QUEUE IRQ
e\033[2Jx rx-0   25
e\033[2Jx tx-0   25
t\tb\\"q  rx-0   27
t\tb\\"q  tx-0   27'
	run -0 --separate-stderr irqaff queues -J -o dev $'t\tb\\"q'
	assert_output '{"queues":[{"dev":"t\u0009b\\\"q"},{"dev":"t\u0009b\\\"q"}]}'
	run -1 --separate-stderr irqaff queues -n $'n\033'
	assert_output ''
	assert_equal "$stderr" 'irqaff: note: interface list "n\033": interface n\033 does not exist'
}

@test "an interface without queues, and one with queues but no IRQ" {
	make_root --cpus 4 --queues --nic eth0:1 --nic eth1:2
	rm -r "$ROOT/sys/class/net/eth1/queues"
	# lo: a virtual device, one queue of each, no xps_cpus to read
	mkdir -p "$ROOT/sys/devices/virtual/net/lo/queues/"{rx-0,tx-0}
	printf '0\n' >"$ROOT/sys/devices/virtual/net/lo/queues/rx-0/rps_cpus"
	ln -s ../../devices/virtual/net/lo "$ROOT/sys/class/net/lo"
	run -0 --separate-stderr irqaff queues
	assert_output 'DEV  QUEUE IRQ AFFINITY CPUS XPS RPS ALIGNED
eth0 rx-0   25 0-3      1    -   -   -
eth0 tx-0   25 0-3      1    -   -   -
lo   rx-0    - -        -    -   -   -
lo   tx-0    - -        -    -   -   -'
	assert_equal "$stderr" ''
	run -0 --separate-stderr irqaff queues -n lo,eth1
	assert_output 'lo rx-0 - - - - - -
lo tx-0 - - - - - -'
	assert_equal "$stderr" \
		'irqaff: note: interface list "lo,eth1": interface eth1 has no queues'
	# an empty queues directory is none
	mkdir "$ROOT/sys/devices/pci0000:00/0000:3c:00.0/net/eth1/queues"
	run -1 --separate-stderr irqaff queues -n eth1
	assert_output ''
	assert_equal "$stderr" \
		'irqaff: note: interface list "eth1": interface eth1 has no queues'
}

@test "a machine without sys/class/net has no interface, and says nothing of it" {
	make_root --cpus 4
	rm -r "$ROOT/sys/class/net"
	run -0 --separate-stderr irqaff queues -J
	assert_output '{"queues":[]}'
	assert_equal "$stderr" ''
}

@test "an interface whose queues go while queues reads them is left out, the status 0" {
	strace_works
	make_root --cpus 4 --queues --nic eth0:1 --nic eth1:1
	# the second open of eth1's queues (the listing's first) finds them
	# gone: relative to the root, so -P names them so, from elsewhere
	cd "$BATS_TEST_TMPDIR"
	run --separate-stderr -0 strace -o /dev/null -P sys/class/net/eth1/queues \
		-e trace=openat2,openat -e inject=openat2,openat:error=ENOENT:when=2 \
		irqaff queues -n -o dev,queue
	assert_output $'eth0 rx-0\neth0 tx-0'
	assert_equal "$stderr" ''
}

@test "an unknown interface is noted and picks nothing, as dev: of show" {
	make_root --cpus 4 --queues --nic eth0:1
	run -1 --separate-stderr irqaff set -n dev:nosuch 0
	run -1 --separate-stderr irqaff show -n dev:nosuch
	assert_output ''
	assert_equal "$stderr" \
		'irqaff: note: IRQ list "dev:nosuch": device nosuch has no IRQs or does not exist'
	# grep's rule: a list of which some interface matches is exit 0
	run -0 --separate-stderr irqaff queues -n -o dev,queue eth0,nosuch
	assert_output $'eth0 rx-0\neth0 tx-0'
	assert_equal "$stderr" \
		'irqaff: note: interface list "eth0,nosuch": interface nosuch does not exist'
	run -1 --separate-stderr irqaff queues -J nosuch
	assert_output '{"queues":[]}'
	assert_equal "$stderr" \
		'irqaff: note: interface list "nosuch": interface nosuch does not exist'
	# a name no interface can have is bad input, and so is an empty item
	local arg before
	before=$(tree_sum)
	for arg in . .. eth0/.. ../net/eth0 eth0,..; do
		run -2 --separate-stderr irqaff queues "$arg"
		assert_output ''
		assert_equal "$stderr" "irqaff: interface list \"$arg\": \"${arg#eth0,}\" is no interface name"
	done
	assert_equal "$(tree_sum)" "$before"
	run -2 --separate-stderr irqaff queues ''
	assert_output ''
	assert_equal "$stderr" 'irqaff: interface list "": empty item'
	run -2 --separate-stderr irqaff queues eth0,
	assert_equal "$stderr" 'irqaff: interface list "eth0,": empty item'
}

@test "queues takes dev:eth0 as every other command names it, and eth0" {
	make_root --cpus 4 --queues --nic eth0:1 --nic eth1:1
	run -0 --separate-stderr irqaff queues -n -o dev,queue dev:eth0
	assert_output $'eth0 rx-0\neth0 tx-0'
	assert_equal "$stderr" ''
	# in their order, once
	run -0 --separate-stderr irqaff queues -n -o dev,queue dev:eth1,eth0,dev:eth0
	assert_output $'eth1 rx-0\neth1 tx-0\neth0 rx-0\neth0 tx-0'
	run -1 --separate-stderr irqaff queues dev:nosuch
	assert_equal "$stderr" \
		'irqaff: note: interface list "dev:nosuch": interface nosuch does not exist'
	run -2 --separate-stderr irqaff queues dev:
	assert_equal "$stderr" 'irqaff: interface list "dev:": "dev:" is no interface name'
}

@test "interfaces in name order, numbers as numbers; DEVS in their order, once" {
	make_root --cpus 4 --nic eth10:1 --nic eth2:1 --nic eth1:1 --queues
	run -0 irqaff queues -n -o dev,queue
	assert_output 'eth1  rx-0
eth1  tx-0
eth2  rx-0
eth2  tx-0
eth10 rx-0
eth10 tx-0'
	run -0 irqaff queues -n -o dev eth2,eth10,eth2
	assert_output 'eth2
eth2
eth10
eth10'
}

@test "a mask that cannot be read is reported, its cell -, the status 1" {
	make_root --cpus 4 --nic eth0:2 --xps eth0:1=3
	rm "$(queue_file eth0 rx-1 rps_cpus)"
	mkdir "$(queue_file eth0 rx-1 rps_cpus)"
	printf 'xyz\n' >"$(queue_file eth0 tx-0 xps_cpus)"
	run -1 --separate-stderr irqaff queues -n -o queue,xps,rps
	assert_output 'rx-0 - -
tx-0 - -
rx-1 - -
tx-1 3 -'
	assert_equal "$stderr" "irqaff: $(queue_file eth0 tx-0 xps_cpus): \"z\" is not a hex digit
irqaff: $(queue_file eth0 rx-1 rps_cpus): not a regular file"
	# missing files are no error: xps_cpus of a single-queue device
	rm "$(queue_file eth0 tx-0 xps_cpus)"
	rmdir "$(queue_file eth0 rx-1 rps_cpus)"
	run -0 --separate-stderr irqaff queues -n -o queue,xps,rps
	assert_equal "$stderr" ''
}

@test "a mask file that is a fifo or empty is no value: every command says so, none records it" {
	local tx0 rx0 cmd
	make_root --cpus 4 --nic eth0:2:0:40 --xps eth0:0=1 --rps eth0:0=2
	tx0=$(queue_file eth0 tx-0 xps_cpus)
	rx0=$(queue_file eth0 rx-0 rps_cpus)
	rm "$tx0"
	mkfifo "$tx0"
	: >"$rx0"
	cp -a "$ROOT" "$BATS_TEST_TMPDIR/copy"
	rm "$BATS_TEST_TMPDIR/copy/sys/devices/pci0000:00/0000:3b:00.0/net/eth0/queues/tx-0/xps_cpus"
	local want="irqaff: $rx0 holds \"\", not a CPU mask
irqaff: $tx0: not a regular file"
	run --separate-stderr irqaff queues -J eth0
	assert_failure 1
	assert_equal "$stderr" "$want"
	# null: not read; "": the empty set read
	run jq -c '[.queues[] | [.queue, .xps, .rps]]' <<<"$output"
	assert_output '[["rx-0",null,null],["tx-0",null,null],["rx-1",null,""],["tx-1","",null]]'
	run --separate-stderr irqaff save
	assert_failure 1
	refute_output --partial 'eth0 rx-0'
	refute_output --partial 'eth0 tx-0'
	run --separate-stderr irqaff xps eth0:tx-0 1
	assert_failure 1
	local SNAP=$BATS_TEST_TMPDIR/snap
	printf 'xps eth0 tx-0 1\nrps eth0 rx-0 1\n' >"$SNAP"
	run --separate-stderr irqaff check "$SNAP"
	assert_failure 1
	assert_equal "$stderr" "irqaff: rps eth0 rx-0: $rx0 holds \"\", not a CPU mask
irqaff: xps eth0 tx-0: $tx0: not a regular file"
	run --separate-stderr irqaff restore "$SNAP"
	assert_failure 1
	assert_file "$rx0" ''
	[ -p "$tx0" ]
	diff -r --no-dereference -x xps_cpus "$BATS_TEST_TMPDIR/copy" "$ROOT"
}

@test "eth0-TxRx-01, a number with a leading zero, serves no queue" {
	make_root --cpus 4 --nic eth0:2:0:40 --rps eth0:0=0
	rename_action 42 eth0-TxRx-1 eth0-TxRx-01
	sed -i 's/eth0-TxRx-1$/eth0-TxRx-01/' "$ROOT/sys/kernel/irq/42/actions" \
		"$ROOT/proc/interrupts" 2>/dev/null || true
	run --separate-stderr -0 irqaff queues -o dev,queue,irq eth0
	assert_output - <<'EOF2'
DEV  QUEUE IRQ
eth0 rx-0   41
eth0 tx-0   41
eth0 rx-1    -
eth0 tx-1    -
EOF2
}

@test "queue 65535, the last number, is served; a directory rx-01 is no queue" {
	make_root --cpus 4 --nic eth0:1 --queues
	local q=$ROOT/sys/class/net/eth0/queues
	mkdir "$q/rx-65535" "$q/tx-65535" "$q/rx-01" "$q/tx-65536"
	printf '0\n' | tee "$q/rx-65535/rps_cpus" "$q/rx-01/rps_cpus" >/dev/null
	printf '0\n' | tee "$q/tx-65535/xps_cpus" "$q/tx-65536/xps_cpus" \
		>/dev/null
	rename_action 25 eth0-TxRx-0 eth0-TxRx-65535
	run -0 --separate-stderr irqaff queues -n -o queue,irq
	assert_output 'rx-0      -
tx-0      -
rx-65535 25
tx-65535 25'
	assert_equal "$stderr" ''
}

@test "when two IRQs name the same queue, the lower one serves it, for queues and spread --xps" {
	rm -rf "$ROOT"
	make_root --cpus 4 --nic eth0:2:0:40 --queues
	# IRQ 42 renamed eth0-TxRx-0, as 41 is
	mv "$(irq_dir 42)/eth0-TxRx-1" "$(irq_dir 42)/eth0-TxRx-0"
	printf 'eth0-TxRx-0\n' >"$ROOT/sys/kernel/irq/42/actions"
	sed -i 's/eth0-TxRx-1$/eth0-TxRx-0/' "$ROOT/proc/interrupts"
	run --separate-stderr -0 irqaff queues -n -o queue,irq eth0
	assert_output $'rx-0 41\ntx-0 41\nrx-1  -\ntx-1  -'
	run --separate-stderr -0 irqaff spread -n --xps -c 2-3 41-42
	assert_line 'eth0 tx-0: 2'
	refute_line --partial 'tx-1'
}

@test "PENDING, asked for: yes where CPUS leaves AFFINITY, as explain says" {
	make_root --cpus 4 --queues --nic eth0:2
	# IRQ 25 runs on 1: requested 0 it is pending, requested 1 it is not
	printf '0\n' >"$(irq_dir 25)/smp_affinity_list"
	run -0 --separate-stderr irqaff queues -o +pending eth0
	assert_equal "$stderr" ""
	assert_output 'DEV  QUEUE IRQ AFFINITY CPUS XPS RPS ALIGNED PENDING
eth0 rx-0   25 0        1    -   -   -       yes
eth0 tx-0   25 0        1    -   -   no      yes
eth0 rx-1   26 0-3      2    -   -   -       no
eth0 tx-1   26 0-3      2    -   -   no      no'
	run -0 --separate-stderr irqaff queues -J -o queue,pending eth0
	assert_output '{"queues":[{"queue":"rx-0","pending":true},{"queue":"tx-0","pending":true},{"queue":"rx-1","pending":false},{"queue":"tx-1","pending":false}]}'
	run -1 --separate-stderr irqaff explain 25
	assert_output --partial 'pending'
	# an effective set that cannot be read: CPUS and PENDING unknown
	printf 'xyz\n' >"$(irq_dir 25)/effective_affinity_list"
	run -0 --separate-stderr irqaff queues -n -o queue,cpus,pending eth0
	assert_output 'rx-0 - -
tx-0 - -
rx-1 2 no
tx-1 2 no'
}
