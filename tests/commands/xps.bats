#!/usr/bin/env bats
# irqaff xps and rps: the xps_cpus of transmit queues and the rps_cpus of
# receive queues given one CPU set, every file checked before the first
# write; and spread --xps, which makes XPS follow the IRQs it places.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	load ../test_helper/queues
}

# masks DEV KIND: the mask file of every queue of KIND (tx, rx), one line
# each, "tx-0 f".
masks() {
	local f q file=xps_cpus
	[[ $2 == tx ]] || file=rps_cpus
	for f in "$ROOT/sys/class/net/$1/queues/$2"-*; do
		q=${f##*/}
		printf '%s %s\n' "$q" "$(<"$f/$file")"
	done | sort -V
}

# snapshot: a copy of the tree, for unchanged.
snapshot() {
	rm -rf "$BATS_TEST_TMPDIR/copy"
	cp -a "$ROOT" "$BATS_TEST_TMPDIR/copy"
}

# unchanged: the tree is as snapshot left it.
unchanged() {
	run -0 diff -r --no-dereference "$BATS_TEST_TMPDIR/copy" "$ROOT"
	assert_output ''
}

@test "xps -n prints the plan of the queues that change and writes nothing" {
	make_root --cpus 4 --nic eth0:4 --xps eth0:0=0-3 --xps eth0:2=1
	snapshot
	run -0 --separate-stderr irqaff xps -n eth0 1
	assert_output 'eth0 tx-0: 0-3 -> 1
eth0 tx-1: - -> 1
eth0 tx-3: - -> 1'
	assert_equal "$stderr" ''
	unchanged
	run -0 --separate-stderr irqaff xps -n -v eth0 1
	assert_output 'eth0 tx-0: 0-3 -> 1
eth0 tx-1: - -> 1
eth0 tx-2: 1 unchanged
eth0 tx-3: - -> 1'
	unchanged
}

@test "xps writes masks of 4 CPUs, reads them back, and a second run writes nothing" {
	make_root --cpus 4 --nic eth0:4 --xps eth0:0=0-3
	run -0 --separate-stderr irqaff xps eth0 1-2
	assert_output ''
	assert_equal "$stderr" ''
	run -0 masks eth0 tx
	assert_output 'tx-0 6
tx-1 6
tx-2 6
tx-3 6'
	# rx queues untouched
	run -0 masks eth0 rx
	assert_output 'rx-0 0
rx-1 0
rx-2 0
rx-3 0'
	snapshot
	run -0 --separate-stderr irqaff xps -v eth0 1-2
	assert_output 'eth0 tx-0: 1-2 unchanged
eth0 tx-1: 1-2 unchanged
eth0 tx-2: 1-2 unchanged
eth0 tx-3: 1-2 unchanged'
	unchanged
	run -0 --separate-stderr irqaff xps eth0 1-2
	assert_output ''
	unchanged
}

@test "rps of node 0 on 64 CPUs: two-word masks" {
	make_root --cpus 64 --nodes 2 --nic eth0:2 --rps eth0:1=0-63
	run -0 --separate-stderr irqaff rps -v eth0 node:0
	assert_output 'eth0 rx-0: - -> 0-31
eth0 rx-1: 0-63 -> 0-31'
	assert_equal "$stderr" ''
	assert_file "$(queue_file eth0 rx-0 rps_cpus)" $'00000000,ffffffff\n'
	assert_file "$(queue_file eth0 rx-1 rps_cpus)" $'00000000,ffffffff\n'
	assert_file "$(queue_file eth0 tx-0 xps_cpus)" $'00000000,00000000\n'
	run -0 irqaff xps eth0:1 0x1,00000000
	assert_file "$(queue_file eth0 tx-1 xps_cpus)" $'00000001,00000000\n'
	assert_file "$(queue_file eth0 tx-0 xps_cpus)" $'00000000,00000000\n'
}

@test "xps and rps at 8192 CPUs: masks of 256 words" {
	make_root --cpus 4 --nic eth0:2 --queues
	# the tree told it has 8192 possible CPUs, as queues.bats does
	local cpu=$ROOT/sys/devices/system/cpu
	printf '0-8191\n' | tee "$cpu/possible" "$cpu/present" "$cpu/online" \
		>/dev/null
	run -0 --separate-stderr irqaff xps -v eth0:tx-1 8191
	assert_output 'eth0 tx-1: - -> 8191'
	assert_file "$(queue_file eth0 tx-1 xps_cpus)" "$(kmask 8192 8191)"$'\n'
	assert_file "$(queue_file eth0 tx-0 xps_cpus)" $'0\n'
	run -0 irqaff rps eth0 4096-8191
	assert_file "$(queue_file eth0 rx-0 rps_cpus)" \
		"$(kmask 8192 4096-8191)"$'\n'
	assert_file "$(queue_file eth0 rx-1 rps_cpus)" \
		"$(kmask 8192 4096-8191)"$'\n'
	assert_equal "$(wc -c <"$(queue_file eth0 rx-1 rps_cpus)")" 2304
	run -0 --separate-stderr irqaff rps -v eth0:1 4096-8191
	assert_output 'eth0 rx-1: 4096-8191 unchanged'
	# none: every word 0
	run -0 irqaff xps eth0:1 none
	assert_file "$(queue_file eth0 tx-1 xps_cpus)" "$(kmask 8192 '')"$'\n'
}

@test "queue selection: numbers, names, N, and every queue of the kind" {
	make_root --cpus 4 --nic eth0:8 --queues
	run -0 --separate-stderr irqaff xps -n eth0:0-1,6 3
	assert_output 'eth0 tx-0: - -> 3
eth0 tx-1: - -> 3
eth0 tx-6: - -> 3'
	run -0 --separate-stderr irqaff xps -n eth0:tx-2-7:2/3 3
	assert_output 'eth0 tx-2: - -> 3
eth0 tx-3: - -> 3
eth0 tx-5: - -> 3
eth0 tx-6: - -> 3'
	run -0 --separate-stderr irqaff rps -n eth0:rx-N 0
	assert_output 'eth0 rx-7: - -> 0'
	run -0 --separate-stderr irqaff rps -n eth0:N,0 0x1
	assert_output 'eth0 rx-0: - -> 0
eth0 rx-7: - -> 0'
	run -0 irqaff rps eth0 0-3
	run -0 masks eth0 rx
	assert_output "$(printf 'rx-%d f\n' {0..7})"
	run -0 masks eth0 tx
	assert_output "$(printf 'tx-%d 0\n' {0..7})"
}

@test "none clears the masks, and clearing twice writes nothing" {
	make_root --cpus 4 --nic eth0:2 --xps eth0:0=0-3 --xps eth0:1=2 \
		--rps eth0:1=1
	run -0 --separate-stderr irqaff xps -v eth0 none
	assert_output 'eth0 tx-0: 0-3 -> -
eth0 tx-1: 2 -> -'
	assert_file "$(queue_file eth0 tx-0 xps_cpus)" $'0\n'
	assert_file "$(queue_file eth0 tx-1 xps_cpus)" $'0\n'
	assert_file "$(queue_file eth0 rx-1 rps_cpus)" $'2\n'
	snapshot
	run -0 --separate-stderr irqaff xps -v eth0 none
	assert_output 'eth0 tx-0: - unchanged
eth0 tx-1: - unchanged'
	unchanged
	run -0 irqaff rps -n eth0:1 none
	assert_output 'eth0 rx-1: 1 -> -'
}

@test "an interface or queue that does not exist: exit 1, one line naming it, tree unchanged" {
	make_root --cpus 4 --nic eth0:4 --nic eth1:1 --queues
	# the bonding driver's file beside the interfaces; eth1 with no tx
	# queue
	printf 'bond0\n' >"$ROOT/sys/class/net/bonding_masters"
	rm -r "$ROOT/sys/class/net/eth1/queues/tx-0"
	snapshot
	local -a cases=(
		'xps eth9 1|irqaff: xps: interface "eth9" does not exist'
		'xps bonding_masters 1|irqaff: xps: interface "bonding_masters" does not exist'
		'xps eth1 1|irqaff: xps: interface eth1 has no transmit queues'
		'xps eth0:4 1|irqaff: xps: queues "eth0:4": interface eth0 has no tx-4'
		'xps eth0:65535 1|irqaff: xps: queues "eth0:65535": interface eth0 has no tx-65535'
		'rps eth0:0,9 1|irqaff: rps: queues "eth0:0,9": interface eth0 has no rx-9'
	)
	local c
	for c in "${cases[@]}"; do
		# shellcheck disable=SC2086
		run -1 --separate-stderr irqaff ${c%%|*}
		assert_output ''
		assert_equal "$stderr" "${c#*|}"
	done
	# the other side: the last queue exists; eth1 has an rx queue
	run -0 --separate-stderr irqaff xps -n eth0:3 1
	run -0 --separate-stderr irqaff rps -n eth1 1
	assert_output 'eth1 rx-0: - -> 1'
	unchanged
}

@test "bad interfaces, queues and CPUs: exit 2, one line naming the token, tree unchanged" {
	make_root --cpus 4 --nic eth0:4 --nic eth1:1 --queues
	snapshot
	local -a cases=(
		'xps :0 1|irqaff: xps: interface "" does not exist'
		'rps ../eth0 1|irqaff: rps: interface "../eth0" does not exist'
		'xps eth0:70000 1|irqaff: xps: queues "eth0:70000": a number is beyond the last queue number 65535'
		'xps eth0:65536 1|irqaff: xps: queues "eth0:65536": a number is beyond the last queue number 65535'
		'xps eth0:rx-1 1|irqaff: xps: queues "eth0:rx-1": region "rx-1": "rx" is not a number'
		'rps eth0:tx-0 1|irqaff: rps: queues "eth0:tx-0": region "tx-0": "tx" is not a number'
		'xps eth0: 1|irqaff: xps: queues "eth0:": no queue selected'
		'xps eth0:tx- 1|irqaff: xps: queues "eth0:tx-": no queue selected'
		'xps eth0:3-1 1|irqaff: xps: queues "eth0:3-1": region "3-1" runs backwards'
		'xps eth0 4|irqaff: CPU list "4": CPU 4 is beyond the last possible CPU 3'
		'rps eth0 node:5|irqaff: CPU list "node:5": NUMA node 5 does not exist'
		'xps eth0 0x10|irqaff: CPU mask "0x10": CPU 4 is beyond the last possible CPU 3'
	)
	local c
	for c in "${cases[@]}"; do
		# shellcheck disable=SC2086
		run -2 --separate-stderr irqaff ${c%%|*}
		assert_output ''
		assert_equal "$stderr" "${c#*|}"
	done
	run -2 --separate-stderr irqaff xps eth0
	assert_equal "${stderr_lines[0]}" \
		'irqaff: xps: expected an interface and a CPU set'
	run -2 --separate-stderr irqaff rps -q eth0 1
	assert_equal "${stderr_lines[0]}" 'irqaff: rps: unknown option -q'
	unchanged
}

# The kernel keeps only online CPUs in xps_cpus (__netif_set_xps_queue())
# and rps_cpus, and in rps_cpus only those neither isolated nor nohz_full
# (store_rps_map()); irqaff writes that part, or refuses when it is empty.
@test "xps and rps with offline, isolated and nohz_full CPUs: the part the kernel keeps, said" {
	make_root --cpus 8 --nic eth0:2 --queues --offline 3 --isolated 5 \
		--nohz-full 6
	run -0 --separate-stderr irqaff xps -v eth0 2-5
	assert_output 'eth0 tx-0: - -> 2,4-5
eth0 tx-1: - -> 2,4-5'
	assert_equal "$stderr" 'irqaff: note: xps: CPU 3 left out: the kernel keeps only online CPUs in xps_cpus'
	run -0 masks eth0 tx
	assert_output 'tx-0 34
tx-1 34'
	# what the kernel kept is no change
	snapshot
	run -0 --separate-stderr irqaff xps -v eth0 2-5
	assert_output 'eth0 tx-0: 2,4-5 unchanged
eth0 tx-1: 2,4-5 unchanged'
	unchanged
	run -0 --separate-stderr irqaff rps eth0:1 2-7
	assert_output ''
	assert_equal "$stderr" 'irqaff: note: rps: CPU 3,5-6 left out: the kernel keeps only online CPUs that are neither isolated nor nohz_full in rps_cpus'
	run -0 masks eth0 rx
	assert_output 'rx-0 00
rx-1 94'
	# none kept: refused, nothing written
	snapshot
	run -2 --separate-stderr irqaff xps eth0 3
	assert_output ''
	assert_equal "$stderr" 'irqaff: xps: CPUs "3": none would be kept: the kernel keeps only online CPUs in xps_cpus'
	run -2 --separate-stderr irqaff rps -n eth0 5-6
	assert_output ''
	assert_equal "$stderr" 'irqaff: rps: CPUs "5-6": none would be kept: the kernel keeps only online CPUs that are neither isolated nor nohz_full in rps_cpus'
	unchanged
	# isolated CPUs are XPS's; none still clears
	run -0 --separate-stderr irqaff xps eth0:0 5-6
	assert_equal "$stderr" ''
	run -0 --separate-stderr irqaff rps eth0 none
	assert_equal "$stderr" ''
	run -0 masks eth0 tx
	assert_output 'tx-0 60
tx-1 34'
	run -0 masks eth0 rx
	assert_output 'rx-0 00
rx-1 00'
}

@test "a queue whose mask cannot be read stops the run before any write" {
	make_root --cpus 4 --nic eth0:4 --nic eth1:1 --queues
	printf 'zz\n' >"$(queue_file eth0 tx-2 xps_cpus)"
	snapshot
	run -1 --separate-stderr irqaff xps eth0 1
	assert_output ''
	assert_equal "$stderr" "irqaff: $(queue_file eth0 tx-2 xps_cpus): \"z\" is not a hex digit"
	unchanged
	# the queues named do not include it: written, and it is not spoken of,
	# nor is an rx queue's mask
	printf 'z\n' >"$(queue_file eth0 rx-1 rps_cpus)"
	run -0 --separate-stderr irqaff xps eth0:0-1,3 1
	assert_equal "$stderr" ''
	run -0 --separate-stderr irqaff rps eth0:0 1
	assert_equal "$stderr" ''
	run -1 --separate-stderr irqaff rps eth0:1 1
	assert_equal "$stderr" "irqaff: $(queue_file eth0 rx-1 rps_cpus): \"z\" is not a hex digit"
	printf '0\n' >"$(queue_file eth0 rx-1 rps_cpus)"
	run -0 masks eth0 tx
	assert_output 'tx-0 2
tx-1 2
tx-2 zz
tx-3 2'
	# a directory in place of the file
	printf '0\n' >"$(queue_file eth0 tx-2 xps_cpus)"
	rm "$(queue_file eth0 tx-3 xps_cpus)"
	mkdir "$(queue_file eth0 tx-3 xps_cpus)"
	snapshot
	run -1 --separate-stderr irqaff xps eth0:3 2
	assert_equal "$stderr" "irqaff: $(queue_file eth0 tx-3 xps_cpus): not a regular file"
	unchanged
	# a device of one queue has no xps_cpus
	run -1 --separate-stderr irqaff xps eth1 2
	assert_equal "$stderr" "irqaff: eth1 tx-0: $(queue_file eth1 tx-0 xps_cpus): No such file or directory"
	unchanged
	# every file is checked, and each one that is not right said
	rmdir "$(queue_file eth0 tx-3 xps_cpus)"
	printf '0\n' >"$(queue_file eth0 tx-3 xps_cpus)"
	rm "$(queue_file eth0 tx-0 xps_cpus)" "$(queue_file eth0 tx-1 xps_cpus)"
	snapshot
	run -1 --separate-stderr irqaff xps eth0:0-1 2
	assert_output ''
	assert_equal "$stderr" "irqaff: eth0 tx-0: $(queue_file eth0 tx-0 xps_cpus): No such file or directory
irqaff: eth0 tx-1: $(queue_file eth0 tx-1 xps_cpus): No such file or directory"
	unchanged
}

@test "a refused write: exit 3 when others changed, 1 when none did" {
	make_root --cpus 4 --nic eth0:3 --queues
	local f1 f2
	f1=$(realpath "$(queue_file eth0 tx-1 xps_cpus)")
	f2=$(realpath "$(queue_file eth0 tx-2 xps_cpus)")
	run -3 --separate-stderr faulty "$f1:EINVAL" irqaff xps -v eth0 2
	assert_output 'eth0 tx-0: - -> 2
eth0 tx-2: - -> 2'
	assert_equal "$stderr" 'irqaff: eth0 tx-1: cannot set 2: the kernel refused the CPU set (Invalid argument)'
	run -0 masks eth0 tx
	assert_output 'tx-0 4
tx-1 0
tx-2 4'
	run -1 --separate-stderr faulty "$f1:drop,$f2:ENOSPC" \
		irqaff xps eth0:1-2 3
	assert_output ''
	assert_equal "${stderr_lines[0]}" "irqaff: eth0 tx-1: wrote 3, but $(queue_file eth0 tx-1 xps_cpus) reads back \"0\""
	# ENOSPC is not the IRQ core's "no free vectors" here
	assert_equal "${stderr_lines[1]}" "irqaff: eth0 tx-2: cannot set 3: $(queue_file eth0 tx-2 xps_cpus): No space left on device"
	assert_equal "${#stderr_lines[@]}" 2
}

# as_nobody ARGS...: irqaff run as user nobody, who can write only the
# files made writable for all (results.bats does so for set).
as_nobody() {
	"$(command -v setpriv)" --reuid=65534 --regid=65534 --clear-groups \
		"$BATS_TEST_TMPDIR/bin/irqaff" --root "$ROOT" "$@"
}

# open_tree_to_all: user nobody may read the tree and run a copy of
# irqaff (the build may be in a directory of root's alone).
open_tree_to_all() {
	command -v setpriv >/dev/null || skip "setpriv is not installed"
	[[ $(id -u) == 0 ]] || skip "needs root to drop to another user"
	local d
	mkdir "$BATS_TEST_TMPDIR/bin"
	cp "$IRQAFF_BIN" "$BATS_TEST_TMPDIR/bin/irqaff"
	chmod -R a+rX "$BATS_TEST_TMPDIR"
	for d in "$BATS_TEST_TMPDIR/.." "$BATS_TEST_TMPDIR/../.." \
		"$BATS_RUN_TMPDIR"; do
		chmod a+x "$d"
	done
}

@test "a write that shows no write can succeed stops the run: the queues after it are not tried" {
	make_root --cpus 4 --nic eth0:3 --queues
	open_tree_to_all
	chmod a+w "$(realpath "$(queue_file eth0 tx-0 xps_cpus)")" \
		"$(realpath "$(queue_file eth0 tx-2 xps_cpus)")"
	local why="cannot write $(queue_file eth0 tx-1 xps_cpus): Permission denied; changing affinity needs root"
	run -3 --separate-stderr as_nobody xps -v eth0 2
	assert_output 'eth0 tx-0: - -> 2'
	assert_equal "$stderr" "irqaff: eth0 tx-1: $why"
	run -0 masks eth0 tx
	assert_output 'tx-0 4
tx-1 0
tx-2 0'
}

@test "xps -J: one JSON object on one line, as restore -J's queues member" {
	make_root --cpus 4 --nic eth0:3 --queues --xps eth0:0=0-3 --xps eth0:2=2
	snapshot
	local want='{"dry_run":true,"queues":{"changed":[{"dev":"eth0","queue":"tx-0","old":"0-3","new":"2"},{"dev":"eth0","queue":"tx-1","old":"","new":"2"}],"unchanged":1,"failed":[]}}'
	run -0 --separate-stderr irqaff xps -n -J eth0 2
	assert_output "$want"
	assert_equal "$stderr" ''
	run -0 jq -c . <<<"$output"
	assert_output "$want"
	unchanged
	# -v prints no lines beside the object
	run -0 --separate-stderr irqaff xps --json -v eth0 2
	assert_output "${want/true/false}"
	assert_equal "${#lines[@]}" 1
	run -0 masks eth0 tx
	assert_output 'tx-0 4
tx-1 4
tx-2 4'
	run -0 --separate-stderr irqaff xps -J eth0 2
	assert_output '{"dry_run":false,"queues":{"changed":[],"unchanged":3,"failed":[]}}'
}

@test "rps -J: a refused write and one read back wrong are failed, with errno and error" {
	make_root --cpus 4 --nic eth0:3 --queues
	local f1 f2
	f1=$(realpath "$(queue_file eth0 rx-1 rps_cpus)")
	f2=$(realpath "$(queue_file eth0 rx-2 rps_cpus)")
	run -3 --separate-stderr faulty "$f1:EINVAL,$f2:drop" irqaff rps -J eth0 1
	assert_output '{"dry_run":false,"queues":{"changed":[{"dev":"eth0","queue":"rx-0","old":"","new":"1"}],"unchanged":0,"failed":[{"dev":"eth0","queue":"rx-1","new":"1","errno":"EINVAL","error":"cannot set 1: the kernel refused the CPU set (Invalid argument)"},{"dev":"eth0","queue":"rx-2","new":"1","errno":null,"error":"wrote 1, but '"$(queue_file eth0 rx-2 rps_cpus)"' reads back \"0\""}]}}'
	run -0 python3 -m json.tool <<<"$output"
	assert_equal "$stderr" "irqaff: eth0 rx-1: cannot set 1: the kernel refused the CPU set (Invalid argument)
irqaff: eth0 rx-2: wrote 1, but $(queue_file eth0 rx-2 rps_cpus) reads back \"0\""
	run -0 masks eth0 rx
	assert_output 'rx-0 2
rx-1 0
rx-2 0'
}

@test "xps -J and rps -J print nothing on bad input" {
	make_root --cpus 4 --nic eth0:3 --queues
	snapshot
	run -1 --separate-stderr irqaff rps -J eth0:7 1
	assert_output ''
	assert_equal "$stderr" 'irqaff: rps: queues "eth0:7": interface eth0 has no rx-7'
	run -1 --separate-stderr irqaff xps -J eth9 1
	assert_output ''
	unchanged
}

@test "spread --xps: each tx queue's XPS is its IRQ's new CPU, aligned, idempotent" {
	make_root --cpus 8 --nic eth0:8 --queues
	snapshot
	run -0 --separate-stderr irqaff spread -n --xps dev:eth0
	assert_output 'irq 24 eth0: 0
irq 25 eth0-TxRx-0: 1
irq 26 eth0-TxRx-1: 2
irq 27 eth0-TxRx-2: 3
irq 28 eth0-TxRx-3: 4
irq 29 eth0-TxRx-4: 5
irq 30 eth0-TxRx-5: 6
irq 31 eth0-TxRx-6: 7
irq 32 eth0-TxRx-7: 0
eth0 tx-0: 1
eth0 tx-1: 2
eth0 tx-2: 3
eth0 tx-3: 4
eth0 tx-4: 5
eth0 tx-5: 6
eth0 tx-6: 7
eth0 tx-7: 0'
	unchanged
	run -0 --separate-stderr irqaff spread -q --xps dev:eth0
	assert_output ''
	assert_equal "$stderr" ''
	run -0 masks eth0 tx
	assert_output 'tx-0 02
tx-1 04
tx-2 08
tx-3 10
tx-4 20
tx-5 40
tx-6 80
tx-7 01'
	# the rx queues are not XPS's
	run -0 masks eth0 rx
	assert_output "$(printf 'rx-%d 00\n' {0..7})"
	run -0 irqaff queues eth0 -J
	run -0 jq -c '[.queues[] | select(.queue | startswith("tx")) |
		.aligned]' <<<"$output"
	assert_output '[true,true,true,true,true,true,true,true]'
	snapshot
	run -0 --separate-stderr irqaff spread -q --xps dev:eth0
	assert_output ''
	unchanged
	run -0 --separate-stderr irqaff spread -q -J --xps dev:eth0
	assert_output '{"dry_run":false,"changed":[],"unchanged":9,"failed":[],"managed":[],"unmovable":[],"xps":[{"dev":"eth0","queue":"tx-0","old":"1","new":"1","result":"unchanged"},{"dev":"eth0","queue":"tx-1","old":"2","new":"2","result":"unchanged"},{"dev":"eth0","queue":"tx-2","old":"3","new":"3","result":"unchanged"},{"dev":"eth0","queue":"tx-3","old":"4","new":"4","result":"unchanged"},{"dev":"eth0","queue":"tx-4","old":"5","new":"5","result":"unchanged"},{"dev":"eth0","queue":"tx-5","old":"6","new":"6","result":"unchanged"},{"dev":"eth0","queue":"tx-6","old":"7","new":"7","result":"unchanged"},{"dev":"eth0","queue":"tx-7","old":"0","new":"0","result":"unchanged"}],"pool":{"cpus":"0-7","from":"node","device":"eth0","node":0,"isolated":"","excluded":"","offline":""}}'
	unchanged
}

@test "spread --xps -n -J: the queues in an xps member; a bad mask stops all writes" {
	make_root --cpus 4 --nic eth0:2 --queues --xps eth0:1=2
	snapshot
	run -0 --separate-stderr irqaff spread -n -J --xps dev:eth0
	assert_output '{"dry_run":true,"changed":[{"irq":24,"name":"eth0","old":"0-3","new":"0"},{"irq":25,"name":"eth0-TxRx-0","old":"0-3","new":"1"},{"irq":26,"name":"eth0-TxRx-1","old":"0-3","new":"2"}],"unchanged":0,"failed":[],"managed":[],"unmovable":[],"xps":[{"dev":"eth0","queue":"tx-0","old":"","new":"1","result":"changed"},{"dev":"eth0","queue":"tx-1","old":"2","new":"2","result":"unchanged"}],"pool":{"cpus":"0-3","from":"node","device":"eth0","node":0,"isolated":"","excluded":"","offline":""}}'
	unchanged
	# without --xps, no xps member and no queue written
	run -0 --separate-stderr irqaff spread -q -J dev:eth0
	assert_output '{"dry_run":false,"changed":[{"irq":24,"name":"eth0","old":"0-3","new":"0"},{"irq":25,"name":"eth0-TxRx-0","old":"0-3","new":"1"},{"irq":26,"name":"eth0-TxRx-1","old":"0-3","new":"2"}],"unchanged":0,"failed":[],"managed":[],"unmovable":[],"pool":{"cpus":"0-3","from":"node","device":"eth0","node":0,"isolated":"","excluded":"","offline":""}}'
	assert_file "$(queue_file eth0 tx-0 xps_cpus)" $'0\n'
	printf 'zz\n' >"$(queue_file eth0 tx-0 xps_cpus)"
	snapshot
	run -1 --separate-stderr irqaff spread -q -x 0 --xps dev:eth0
	assert_output ''
	assert_equal "$stderr" "irqaff: $(queue_file eth0 tx-0 xps_cpus): \"z\" is not a hex digit"
	unchanged
}

@test "spread without --xps notes the XPS it leaves apart, not XPS already on the IRQ's new CPU" {
	# IRQ 25 goes to 1, where tx-0's XPS is; IRQ 26 to 2, tx-1's is on 1
	make_root --cpus 4 --nic eth0:2 --queues --xps eth0:0=1 --xps eth0:1=1
	snapshot
	local plan='irq 24 eth0: 0
irq 25 eth0-TxRx-0: 1
irq 26 eth0-TxRx-1: 2' head="irqaff: spreading eth0's 3 IRQs over CPU 0-3: node 0 (eth0's node)"
	run -0 --separate-stderr irqaff spread -n dev:eth0
	assert_output "$plan"
	assert_equal "$stderr" "$head
irqaff: note: eth0: the XPS of 1 tx queue is left where it is, not on its IRQ's new CPU; add --xps to move it too"
	unchanged
	# both on their IRQs' new CPUs: no note
	printf '4\n' >"$(queue_file eth0 tx-1 xps_cpus)"
	run -0 --separate-stderr irqaff spread -n dev:eth0
	assert_output "$plan"
	assert_equal "$stderr" "$head"
}

@test "spread --xps: a queue whose IRQ could not be moved is left alone" {
	make_root --cpus 4 --nic eth0:2 --queues
	local f
	f=$(realpath "$(irq_dir 26)/smp_affinity_list")
	run -3 --separate-stderr faulty "$f:ENOSPC" \
		irqaff spread -q -v --xps dev:eth0
	assert_output 'irq 24: 0-3 -> 0
irq 25: 0-3 -> 1
eth0 tx-0: - -> 1'
	assert_equal "$stderr" 'irqaff: irq 26: cannot set 2: no free interrupt vectors on the target CPUs (No space left on device)'
	run -0 masks eth0 tx
	assert_output 'tx-0 2
tx-1 0'
	# -J lists only the queues it tried
	make_root --dir "$BATS_TEST_TMPDIR/r3" --cpus 4 --nic eth0:2 --queues
	f=$(realpath "$(irq_dir 26)/smp_affinity_list")
	run -3 --separate-stderr faulty "$f:ENOSPC" \
		irqaff spread -q -J --xps dev:eth0
	run -0 jq -c '.xps' <<<"$output"
	assert_output '[{"dev":"eth0","queue":"tx-0","old":"","new":"1","result":"changed"}]'
	# a refused queue: the IRQs changed, so 3
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 4 --nic eth0:2 --queues
	f=$(realpath "$(queue_file eth0 tx-1 xps_cpus)")
	run -3 --separate-stderr faulty "$f:EINVAL" \
		irqaff spread -q --xps dev:eth0
	assert_output ''
	assert_equal "$stderr" 'irqaff: eth0 tx-1: cannot set 2: the kernel refused the CPU set (Invalid argument)'
}

@test "spread --xps: once a write shows no write can succeed, no queue is written" {
	make_root --cpus 4 --nic eth0:2 --queues
	open_tree_to_all
	# IRQs 24 and 25 can be written, 26 cannot; every xps_cpus can
	local irq f
	for irq in 24 25; do
		for f in smp_affinity_list smp_affinity; do
			chmod a+w "$(realpath "$(irq_dir $irq)/$f")"
		done
	done
	chmod a+w "$(realpath "$(queue_file eth0 tx-0 xps_cpus)")" \
		"$(realpath "$(queue_file eth0 tx-1 xps_cpus)")"
	run -3 --separate-stderr as_nobody spread -q -v --xps dev:eth0
	assert_output 'irq 24: 0-3 -> 0
irq 25: 0-3 -> 1'
	assert_equal "$stderr" "irqaff: irq 26: cannot write $ROOT/proc/irq/26/smp_affinity_list: Permission denied; changing affinity needs root"
	assert_equal "$(lists 24 25 26)" $'0\n1\n0-3'
	run -0 masks eth0 tx
	assert_output 'tx-0 0
tx-1 0'
}

@test "spread --xps of IRQs that serve no transmit queue: a warning, the IRQs spread" {
	make_root --cpus 4 --nic eth0:2 --queues --nvme nvme0:2
	snapshot
	run -0 --separate-stderr irqaff spread -q --xps dev:nvme0
	assert_output ''
	assert_equal "$stderr" 'irqaff: spread: --xps: no transmit queue with XPS is served by these IRQs'
	run -0 irqaff show -n -o irq,affinity 27-29
	assert_output '27 0
28 1
29 2'
	# a NIC of one queue has no xps_cpus: the same
	make_root --dir "$BATS_TEST_TMPDIR/r2" --cpus 4 --nic eth0:1 --queues
	run -0 --separate-stderr irqaff spread -q -n --xps dev:eth0
	assert_output 'irq 24 eth0: 0
irq 25 eth0-TxRx-0: 1'
	assert_equal "$stderr" 'irqaff: spread: --xps: no transmit queue with XPS is served by these IRQs'
}

@test "spread --xps with offline and isolated CPUs: XPS only on the online CPUs the IRQs get" {
	make_root --cpus 8 --nic eth0:4 --queues --offline 3 --isolated 5
	run -0 --separate-stderr irqaff spread -q --xps --include-isolated \
		-c 2-5 'eth0-TxRx-*'
	assert_equal "$stderr" 'irqaff: note: CPU 3 is offline'
	run -0 masks eth0 tx
	assert_output 'tx-0 04
tx-1 10
tx-2 20
tx-3 04'
	run -0 --separate-stderr irqaff spread -q -v --xps --include-isolated \
		-c 2,4-5 'eth0-TxRx-*'
	assert_output 'irq 25: 2 unchanged
irq 26: 4 unchanged
irq 27: 5 unchanged
irq 28: 2 unchanged
eth0 tx-0: 2 unchanged
eth0 tx-1: 4 unchanged
eth0 tx-2: 5 unchanged
eth0 tx-3: 2 unchanged'
}

@test "spread --xps reads only the interfaces of its IRQs: another one unreadable does not stop it" {
	make_root --cpus 4 --nic eth0:2 --queues --nic eth1:2 --queues
	# eth1's tx-0 mask is a fifo, its tx-1 mask a directory
	local q1=$ROOT/sys/class/net/eth1/queues
	rm "$q1/tx-0/xps_cpus" "$q1/tx-1/xps_cpus"
	mkfifo "$q1/tx-0/xps_cpus"
	mkdir "$q1/tx-1/xps_cpus"
	run -0 --separate-stderr irqaff spread -q --xps dev:eth0
	assert_equal "$stderr" ''
	assert_file "$(queue_file eth0 tx-0 xps_cpus)" $'2\n'
	assert_file "$(queue_file eth0 tx-1 xps_cpus)" $'4\n'
	# nor a queue of the interface another IRQ serves, nor an rx queue
	printf 'z\n' >"$(queue_file eth0 tx-1 xps_cpus)"
	printf 'z\n' >"$(queue_file eth0 rx-0 rps_cpus)"
	run -0 --separate-stderr irqaff spread -q --xps eth0-TxRx-0 -c 3
	assert_equal "$stderr" ''
	assert_file "$(queue_file eth0 tx-0 xps_cpus)" $'8\n'
	run -1 --separate-stderr irqaff spread -q --xps eth0-TxRx-1 -c 3
	assert_equal "$stderr" "irqaff: $(queue_file eth0 tx-1 xps_cpus): \"z\" is not a hex digit"
	# a queue of its own that cannot be read still stops the run
	run -1 --separate-stderr irqaff spread -q --xps dev:eth1
	assert_equal "$stderr" "irqaff: $q1/tx-0/xps_cpus: not a regular file
irqaff: $q1/tx-1/xps_cpus: not a regular file"
	assert_equal "$(lists 27 28 29)" $'0-3\n0-3\n0-3'
}
