#!/usr/bin/env bats
# Tests of the fake-tree helper itself (tests/test_helper/tree.bash).

bats_require_minimum_version 1.5.0

setup() {
	bats_load_library bats-support
	bats_load_library bats-assert
	load ../test_helper/tree
}

# contents FILE: the file's bytes, with NULs shown as "\0".
contents() {
	local s
	s=$(sed 's/\x0/\\0/g' "$1")
	printf '%s\n' "$s"
}

@test "make_root --cpus 36: masks, lists and the exported root" {
	make_root --cpus 36
	assert_equal "$ROOT" "$BATS_TEST_TMPDIR/root"
	assert_equal "$IRQAFF_ROOT" "$ROOT"
	assert_equal "$(<"$ROOT/proc/irq/default_smp_affinity")" 'f,ffffffff'
	assert_equal "$(<"$ROOT/sys/devices/system/cpu/possible")" '0-35'
	assert_equal "$(<"$ROOT/sys/devices/system/cpu/present")" '0-35'
	assert_equal "$(<"$ROOT/sys/devices/system/cpu/online")" '0-35'
	assert_equal "$(contents "$ROOT/sys/devices/system/cpu/offline")" ''
	assert_equal "$(contents "$ROOT/sys/devices/system/cpu/isolated")" ''
	assert_equal "$(<"$ROOT/sys/devices/system/cpu/nohz_full")" "$(printf '%36s' '(null)')"
	assert_equal "$(<"$ROOT/sys/devices/system/node/possible")" '0'
	assert_equal "$(<"$ROOT/sys/devices/system/node/node0/cpulist")" '0-35'
	assert [ ! -e "$ROOT/proc/self" ]
	assert_equal "$(<"$ROOT/proc/1/comm")" 'systemd'
	assert [ ! -e "$ROOT/proc/4242" ]
}

@test "kmask, klist and _cpus_of print what the kernel prints" {
	local -a cases=(
		'2 0-1 3' '4 0-3 f' '36 0-35 f,ffffffff' '64 0 00000000,00000001'
		'8 0 01' '8 - 00' '33 32 1,00000000' '64 32-39 000000ff,00000000'
		'8 0-7:1/2 55' '40 0-39:2/8 03,03030303' '4 0,N 9'
	)
	local c
	for c in "${cases[@]}"; do
		read -r nbits list want <<<"$c"
		[[ $list == - ]] && list=''
		run -0 kmask "$nbits" "$list"
		assert_output "$want"
	done
	run -0 kmask 8192 0-8191
	assert_equal "${#output}" $((256 * 9 - 1))
	assert_equal "${output:0:17}" 'ffffffff,ffffffff'
	run -0 kmask 8192 8191
	assert_equal "${output:0:9}" '80000000,'
	assert_equal "${output: -9}" ',00000000'

	run -0 _cpus_of '0-7:2/4,9'
	assert_output "$(printf '%s\n' 0 1 4 5 9)"
	run -0 klist '5,0-3,4,7'
	assert_output '0-5,7'
	run -0 klist '1,3'
	assert_output '1,3'
	run -1 kmask 8 8
	assert_output --partial 'CPU 8 is not below 8'
	run -1 _cpus_of '1,,2'
	run -1 _cpus_of '3-1'
	run -1 _cpus_of '0-7:5/4'
}

@test "--offline: online lists, per-CPU online files, interrupt columns" {
	make_root --cpus 4 --offline 3 --irq 30=dev
	local cpu=$ROOT/sys/devices/system/cpu
	assert_equal "$(<"$cpu/online")" '0-2'
	assert_equal "$(<"$cpu/offline")" '3'
	assert [ ! -e "$cpu/cpu0/online" ]
	assert_equal "$(<"$cpu/cpu1/online")" '1'
	assert_equal "$(<"$cpu/cpu3/online")" '0'
	assert [ ! -e "$cpu/cpu3/topology" ]
	assert [ -e "$cpu/cpu2/topology/core_id" ]
	run -0 head -n 1 "$ROOT/proc/interrupts"
	assert_output "$(printf '%11sCPU0       CPU1       CPU2       ' '')"
	run -0 grep '^ 30:' "$ROOT/proc/interrupts"
	assert_output ' 30:     310000     310001     310002   IO-APIC  30-edge      dev'
	run -0 irq_total 30
	assert_output $((310000 * 3 + 3))
	# IRQ 30 is delivered to the (30 mod 3)th online CPU
	assert_equal "$(<"$(irq_dir 30)/effective_affinity_list")" '0'
	assert_equal "$(<"$(irq_dir 30)/effective_affinity")" '1'
	assert_equal "$(<"$(irq_dir 30)/smp_affinity_list")" '0-3'
}

@test "proc/interrupts is byte for byte the kernel's format" {
	make_root --cpus 2 --legacy 2 --irq '9=acpi' --hwirq 9-fasteoi
	run -0 cat "$ROOT/proc/interrupts"
	assert_output - <<'EOF'
           CPU0       CPU1       
  0:      10000      10001   IO-APIC   2-edge      timer
  1:      20000      20001   IO-APIC   1-edge      i8042
  9:     100000     100001   IO-APIC   9-fasteoi   acpi
NMI:          1          2   Non-maskable interrupts
LOC:       1000       2000   Local timer interrupts
ERR:          0
MIS:          0
EOF
	run -0 irq_total 0
	assert_output 20001
	assert_equal "$(<"$(irq_dir 9)/spurious")" \
		"$(printf 'count 1\nunhandled 0\nlast_unhandled 0 ms')"
	# nr_irqs of 1000 widens the IRQ column (show_interrupts()'s prec)
	make_root --dir "$BATS_TEST_TMPDIR/wide" --cpus 1 --irq 5=x --nr-irqs 1000
	run -0 cat "$ROOT/proc/interrupts"
	assert_line -n 0 "$(printf '%12sCPU0       ' '')"
	assert_line -n 1 '   5:      60000   IO-APIC    5-edge      x'
	assert_line -n 2 ' NMI:          1   Non-maskable interrupts'
}

@test "--nic on two nodes: PCI device, MSI vectors, class link" {
	make_root --cpus 16 --nodes 2 --nic eth0:4:1
	local dev=$ROOT/sys/class/net/eth0/device
	run -0 ls "$dev/msi_irqs"
	assert_output "$(printf '%s\n' 24 25 26 27 28)"
	assert_equal "$(<"$dev/numa_node")" '1'
	assert_equal "$(<"$dev/local_cpulist")" '8-15'
	assert_equal "$(<"$dev/local_cpus")" 'ff00'
	assert_equal "$(<"$dev/irq")" '24'
	assert_equal "$(readlink -f "$dev")" \
		"$(readlink -f "$ROOT/sys/bus/pci/devices/0000:3b:00.0")"
	assert_equal "$(<"$ROOT/sys/devices/system/node/node1/cpulist")" '8-15'
	assert_equal "$(<"$ROOT/sys/devices/system/node/online")" '0-1'
	run -0 grep -c 'IR-PCI-MSI' "$ROOT/proc/interrupts"
	assert_output 5
	run -0 grep '^ 24:' "$ROOT/proc/interrupts"
	assert_output --regexp ' IR-PCI-MSI 30932992-edge      eth0$'
	run -0 grep '^ 28:' "$ROOT/proc/interrupts"
	assert_output --regexp '-edge      eth0-TxRx-3$'
	assert [ -d "$(irq_dir 28)/eth0-TxRx-3" ]
	assert_equal "$(<"$(irq_dir 24)/node")" '1'
}

@test "--nvme and --irqbalance: queues, links, a fake irqbalance" {
	make_root --cpus 4 --nvme nvme0:2::40 --nic eth1:1:-1 --irqbalance
	local dev=$ROOT/sys/class/nvme/nvme0/device
	run -0 ls "$dev/msi_irqs"
	assert_output "$(printf '%s\n' 40 41 42)"
	assert_equal "$(<"$dev/msi_irqs/40")" 'msix'
	run -0 grep -o 'nvme0q[0-9]*$' "$ROOT/proc/interrupts"
	assert_output "$(printf '%s\n' nvme0q0 nvme0q1 nvme0q2)"
	# node -1: no node, every online CPU is local; IRQs from 24
	dev=$ROOT/sys/class/net/eth1/device
	assert_equal "$(<"$dev/numa_node")" '-1'
	assert_equal "$(<"$dev/local_cpulist")" '0-3'
	assert_equal "$(<"$(irq_dir 25)/node")" '-1'
	assert [ -d "$(irq_dir 25)/eth1-TxRx-0" ]
	assert_equal "$(<"$ROOT/proc/4242/comm")" 'irqbalance'
	assert_equal "$(contents "$ROOT/proc/4242/cmdline")" \
		'/usr/sbin/irqbalance\0--foreground\0'
	assert [ ! -e "$ROOT/proc/self" ]
}

@test "--sockets 2 --threads 2: x86 numbering of threads and packages" {
	make_root --cpus 32 --sockets 2 --threads 2
	local cpu=$ROOT/sys/devices/system/cpu
	assert_equal "$(<"$cpu/cpu0/topology/thread_siblings_list")" '0,16'
	assert_equal "$(<"$cpu/cpu0/topology/core_cpus_list")" '0,16'
	assert_equal "$(<"$cpu/cpu0/topology/thread_siblings")" '00010001'
	assert_equal "$(<"$cpu/cpu24/topology/thread_siblings_list")" '8,24'
	assert_equal "$(<"$cpu/cpu24/topology/physical_package_id")" '1'
	assert_equal "$(<"$cpu/cpu24/topology/core_id")" '0'
	assert_equal "$(<"$cpu/cpu0/topology/package_cpus_list")" '0-7,16-23'
	assert_equal "$(<"$cpu/cpu9/topology/core_siblings_list")" '8-15,24-31'
	assert_equal "$(<"$cpu/cpu9/topology/core_siblings")" 'ff00ff00'
	# one node by default; four split each socket's cores in two
	assert_equal "$(<"$ROOT/sys/devices/system/node/node0/cpulist")" '0-31'
	make_root --dir "$BATS_TEST_TMPDIR/r4" --cpus 32 --sockets 2 --threads 2 --nodes 4
	assert_equal "$(<"$ROOT/sys/devices/system/node/node1/cpulist")" '4-7,20-23'
	assert_equal "$(<"$ROOT/sys/devices/system/node/node3/cpulist")" '12-15,28-31'
}

@test "offline CPUs leave their siblings; set_online brings them back" {
	make_root --cpus 8 --threads 2 --offline 5 --irq 3=x
	local cpu=$ROOT/sys/devices/system/cpu
	assert_equal "$(<"$cpu/cpu1/topology/thread_siblings_list")" '1'
	assert_equal "$(<"$cpu/cpu0/topology/package_cpus_list")" '0-4,6-7'
	assert_equal "$(<"$ROOT/sys/devices/system/node/node0/cpulist")" '0-4,6-7'
	run -0 irq_total 3
	assert_output $((40000 * 7 + 23))

	set_online 0-7
	assert_equal "$(<"$cpu/online")" '0-7'
	assert_equal "$(contents "$cpu/offline")" ''
	assert_equal "$(<"$cpu/cpu5/online")" '1'
	assert_equal "$(<"$cpu/cpu5/topology/thread_siblings_list")" '1,5'
	run -0 irq_total 3
	assert_output $((40000 * 8 + 28))
	run -0 awk 'NR == 1 { print NF }' "$ROOT/proc/interrupts"
	assert_output 8

	set_online 0,2
	assert_equal "$(<"$cpu/online")" '0,2'
	assert_equal "$(<"$cpu/offline")" '1,3-7'
	assert [ ! -e "$cpu/cpu1/topology" ]
	run -1 set_online 8
	run -1 set_online ''
}

@test "action names: spaces, commas, shared IRQs, slashes" {
	make_root --cpus 2 --irq '40=my dev, rx|other' --irq '41=a/b|ok'
	run -0 grep '^ 40:' "$ROOT/proc/interrupts"
	assert_output --regexp '-edge      my dev, rx, other$'
	assert [ -d "$(irq_dir 40)/my dev, rx" ]
	assert [ -d "$(irq_dir 40)/other" ]
	run -0 grep '^ 41:' "$ROOT/proc/interrupts"
	assert_output --regexp '  a/b, ok$'
	assert [ -d "$(irq_dir 41)/ok" ]
	assert [ ! -e "$(irq_dir 41)/a" ]
}

@test "per-IRQ options, old kernels without list files, errors" {
	make_root --cpus 8 --no-list-files --irq 50=mlx --chip PCI-MSI \
		--hwirq 1234-edge --affinity 4-7 --irq-node 1 --nodes 2 --irq 51=y \
		--affinity 1,6 --irq 52=z --effective 3
	local d
	d=$(irq_dir 50)
	assert [ ! -e "$d/smp_affinity_list" ]
	assert [ ! -e "$d/effective_affinity_list" ]
	assert_equal "$(<"$d/smp_affinity")" 'f0'
	# the (50 mod 4)th online CPU of 4-7
	assert_equal "$(<"$d/effective_affinity")" '40'
	assert_equal "$(<"$d/affinity_hint")" '00'
	assert_equal "$(<"$d/node")" '1'
	assert_equal "$(<"$(irq_dir 51)/effective_affinity")" '40'
	assert_equal "$(<"$(irq_dir 52)/effective_affinity")" '08'
	run -0 grep '^ 50:' "$ROOT/proc/interrupts"
	assert_output --regexp '   PCI-MSI 1234-edge      mlx$'

	run -1 make_root --dir "$BATS_TEST_TMPDIR/e0" --cpus 4 --offline 4
	assert_output --partial 'CPU 4 is not below 4'
	run -1 make_root --dir "$BATS_TEST_TMPDIR/e1" --irq 24=a --nic eth0:1::24
	assert_output --partial 'IRQ 24 is defined twice'
	run -1 make_root --dir "$BATS_TEST_TMPDIR/e2" --cpus 6 --threads 4
	run -1 make_root --dir "$BATS_TEST_TMPDIR/e3" --chip X
	run -1 make_root --dir "$BATS_TEST_TMPDIR/e4" --bogus
	assert_output --partial 'unknown option "--bogus"'
	run -1 make_root --dir "$BATS_TEST_TMPDIR/e5" --offline 0-3
	assert_output --partial 'no CPU is online'
	# a tree is never built on top of another
	run -1 make_root
	assert_output --partial 'is not empty'
}

@test "tree_sum sees one changed byte, a mode and a link" {
	make_root --cpus 4 --nic eth0:2
	local before after
	before=$(tree_sum)
	assert_equal "$(tree_sum)" "$before"
	assert_equal "${#before}" 64
	printf '1\n' >"$(irq_dir 25)/smp_affinity_list"
	after=$(tree_sum)
	assert [ "$after" != "$before" ]
	printf '0-3\n' >"$(irq_dir 25)/smp_affinity_list"
	assert_equal "$(tree_sum)" "$before"
	chmod 0600 "$ROOT/proc/interrupts"
	assert [ "$(tree_sum)" != "$before" ]
	chmod 0644 "$ROOT/proc/interrupts"
	assert_equal "$(tree_sum)" "$before"
	ln -sfn ../../../bus "$ROOT/sys/devices/pci0000:00/0000:3b:00.0/net/eth0/device"
	assert [ "$(tree_sum)" != "$before" ]
}

@test "1024 CPUs and 1000 IRQs build, with every column and row" {
	make_root --cpus 1024 --sockets 2 --threads 2 --nodes 4 --legacy 16 \
		--nic eth0:983 --offline 1000-1009
	run -0 awk 'NR == 1 { n = NF } NR == 2 { c = NF } END { print n, c, NR }' \
		"$ROOT/proc/interrupts"
	# 1014 counts plus the label, chip, hwirq and the name
	assert_output '1014 1018 1005'
	assert_equal "$(<"$(irq_dir 999)/smp_affinity_list")" '0-1023'
	assert_equal "$(<"$(irq_dir 999)/effective_affinity_list")" \
		$((999 % 1014))
	run -0 kmask 1024 0-1023
	assert_equal "$(<"$(irq_dir 999)/smp_affinity")" "$output"
	assert_equal "$(<"$ROOT/sys/class/net/eth0/device/irq")" '24'
	assert_equal "$(<"$ROOT/sys/devices/system/node/node3/cpulist")" \
		'384-511,896-999,1010-1023'
}

# raw FILE: the file's bytes, each newline shown as "\n" (a final one too).
raw() {
	local s
	s=$(cat -- "$1" && printf .)
	s=${s%.}
	printf '%s\n' "${s//$'\n'/\\n}"
}

# sysirq IRQ: IRQ's sys/kernel/irq files but per_cpu_count, one a line,
# each shown by raw.
sysirq() {
	local f
	for f in chip_name hwirq type wakeup name actions; do
		printf '%s=%s\n' "$f" "$(raw "$ROOT/sys/kernel/irq/$1/$f")"
	done
}

@test "sys/kernel/irq/N: every file as kernel/irq/irqdesc.c prints it" {
	make_root --cpus 4 --offline 2 --legacy 2 --irq '9=acpi' --hwirq 9-fasteoi \
		--irq '40=my dev, rx|other' --irq 41 --chip '' --hwirq '7 Level' \
		--irq 42=x --hwirq 12 --irq 43=y --hwirq ''
	run -0 ls "$ROOT/sys/kernel/irq"
	assert_output "$(printf '%s\n' 0 1 40 41 42 43 9)"
	run -0 ls "$ROOT/sys/kernel/irq/0"
	assert_output "$(printf '%s\n' actions chip_name hwirq name per_cpu_count \
		type wakeup)"
	# every possible CPU, the offline one 0, as proc/interrupts counts
	assert_equal "$(raw "$ROOT/sys/kernel/irq/0/per_cpu_count")" \
		'10000,10001,0,10003\n'
	assert_equal "$(raw "$ROOT/sys/kernel/irq/40/per_cpu_count")" \
		'410000,410001,0,410003\n'
	run -0 sysirq 0
	assert_output - <<'EOF2'
chip_name=IO-APIC\n
hwirq=2\n
type=edge\n
wakeup=disabled\n
name=edge\n
actions=timer\n
EOF2
	run -0 sysirq 9
	assert_output - <<'EOF2'
chip_name=IO-APIC\n
hwirq=9\n
type=level\n
wakeup=disabled\n
name=fasteoi\n
actions=acpi\n
EOF2
	# actions_show() joins by "," alone; a name may hold ", " itself
	assert_equal "$(raw "$ROOT/sys/kernel/irq/40/actions")" \
		'my dev, rx,other\n'
	# no chip, no action, no flow: empty files; Level is the type
	run -0 sysirq 41
	assert_output - <<'EOF2'
chip_name=
hwirq=7\n
type=level\n
wakeup=disabled\n
name=
actions=
EOF2
	# a hwirq and no flow; no hwirq at all
	assert_equal "$(raw "$ROOT/sys/kernel/irq/42/hwirq")" '12\n'
	assert_equal "$(raw "$ROOT/sys/kernel/irq/42/name")" ''
	assert_equal "$(raw "$ROOT/sys/kernel/irq/42/type")" 'level\n'
	assert_equal "$(raw "$ROOT/sys/kernel/irq/43/hwirq")" ''
	assert_equal "$(raw "$ROOT/sys/kernel/irq/43/actions")" 'y\n'
}

@test "per_cpu_count is cut at 4095 bytes, and set_online rewrites it" {
	# IRQ 99999 counts 10 digits a CPU: 374 of them are 4113 bytes
	make_root --cpus 374 --irq 99999=wide --irq 3=narrow
	local f=$ROOT/sys/kernel/irq/99999/per_cpu_count all
	all=$(seq -s, 1000000000 1000000373)
	assert_equal "${#all}" 4113
	assert_equal "$(raw "$f")" "${all:0:4095}"
	assert_equal "$(wc -c <"$f")" 4095
	assert_equal "$(raw "$ROOT/sys/kernel/irq/3/per_cpu_count")" \
		"$(seq -s, 40000 40373)\\n"
	# two CPUs off: 4095 bytes exactly, no room left for the newline
	set_online 0-371
	assert_equal "$(raw "$f")" "$(seq -s, 1000000000 1000000371),0,0"
	assert_equal "$(wc -c <"$f")" 4095
	# three off: 4086 bytes and the newline
	set_online 0-370
	assert_equal "$(raw "$f")" "$(seq -s, 1000000000 1000000370),0,0,0\\n"
	assert_equal "$(wc -c <"$f")" 4087
	run -0 grep -c '' "$f"
	assert_output 1
}

@test "--no-sysirq: no sys/kernel/irq, not even after install_interrupts" {
	make_root --cpus 2 --no-sysirq --irq 30=x
	assert [ ! -e "$ROOT/sys/kernel" ]
	assert [ -d "$(irq_dir 30)" ]
	set_online 0
	assert [ ! -e "$ROOT/sys/kernel" ]
	install_interrupts \
		"$BATS_TEST_DIRNAME/../fixtures/interrupts/x86_64-xen-hvm-guest-on-qemu-kvm.txt"
	assert [ ! -e "$ROOT/sys/kernel" ]
	assert [ -d "$(irq_dir 24)" ]
	# without IRQs the directory is there, empty, as on a kernel
	make_root --dir "$BATS_TEST_TMPDIR/empty" --cpus 2
	run -0 find "$ROOT/sys/kernel"
	assert_output "$(printf '%s\n' "$ROOT/sys/kernel" "$ROOT/sys/kernel/irq")"
}

# dump_sysirq KIND: KIND.expected, each row as the sys/kernel/irq files
# of a tree with KIND.txt installed must say it: IRQ, chip_name, hwirq,
# type, name, actions and wakeup, tab-separated. A Level or Edge row has
# that type, another row edge when its flow ends in "edge", else level.
dump_sysirq() {
	local fix=$BATS_TEST_DIRNAME/../fixtures/interrupts ncpus want
	ncpus=$(grep -v -m 1 '^# ' "$fix/$1.txt" | wc -w)
	make_root --dir "$BATS_TEST_TMPDIR/$1" --cpus "$ncpus"
	install_interrupts "$fix/$1.txt"
	run -0 awk -F '\t' -v OFS='\t' '{
		t = $4 == "Level" ? "level" : $4 == "Edge" ? "edge" : \
		    $5 ~ /edge$/ ? "edge" : "level"
		gsub(/, /, ",", $6)
		print $1, $2, $3, t, $5, $6, "disabled"
	}' "$fix/$1.expected"
	want=$output
	run -0 awk -v dir="$ROOT/sys/kernel/irq" -v OFS='\t' '
	function get(f,   s) {
		if ((getline s <f) <= 0)
			s = ""
		close(f)
		return s
	}
	{
		d = dir "/" $1
		print $1, get(d "/chip_name"), get(d "/hwirq"), get(d "/type"),
		    get(d "/name"), get(d "/actions"), get(d "/wakeup")
	}' "$fix/$1.expected"
	assert_equal "$output" "$want"
	assert_equal "$(find "$ROOT/sys/kernel/irq" -mindepth 1 -maxdepth 1 | wc -l)" \
		"$(wc -l <"$fix/$1.expected")"
}

@test "install_interrupts: sys/kernel/irq holds each row as irqaff splits it" {
	local fix=$BATS_TEST_DIRNAME/../fixtures/interrupts kind
	for kind in "$fix"/*.expected; do
		kind=$(basename "$kind" .expected)
		dump_sysirq "$kind"
	done
	# the counts of the CPUs the header names, in order
	kind=x86_64-server-80cpu-linux3.2
	run -0 awk '$1 == "114:" { $1 = ""; NF = 81; print }' "$fix/$kind.txt"
	local want=${output# }
	assert_equal "$(raw "$BATS_TEST_TMPDIR/$kind/sys/kernel/irq/114/per_cpu_count")" \
		"${want// /,}\\n"
}

@test "--cmdline: proc/cmdline as fs/proc/cmdline.c prints it, or none" {
	make_root --cpus 2 --cmdline 'BOOT_IMAGE=/vmlinuz ro isolcpus=1'
	assert_equal "$(raw "$ROOT/proc/cmdline")" \
		'BOOT_IMAGE=/vmlinuz ro isolcpus=1\n'
	make_root --dir "$BATS_TEST_TMPDIR/empty" --cpus 2 --cmdline ''
	assert_equal "$(raw "$ROOT/proc/cmdline")" '\n'
	make_root --dir "$BATS_TEST_TMPDIR/none" --cpus 2
	assert [ ! -e "$ROOT/proc/cmdline" ]
	assert [ -d "$ROOT/proc/1" ]
}

@test "--irqbalance-env and --irqbalance-args: irqbalance's environ, cmdline" {
	local path='PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
	make_root --cpus 2 --irqbalance
	assert_equal "$(contents "$ROOT/proc/4242/environ")" \
		"LANG=C.UTF-8\\0$path\\0"
	assert_equal "$(wc -c <"$ROOT/proc/4242/environ")" 79
	# either implies --irqbalance; both add up, in order
	make_root --dir "$BATS_TEST_TMPDIR/b" --cpus 2 \
		--irqbalance-env IRQBALANCE_BANNED_CPULIST=1 \
		--irqbalance-args '--banirq=31  -i 9' \
		--irqbalance-env 'IRQBALANCE_ARGS=a b=c' --irqbalance-args --oneshot
	assert_equal "$(<"$ROOT/proc/4242/comm")" 'irqbalance'
	assert [ -e "$ROOT/run/irqbalance/irqbalance4242.sock" ]
	assert_equal "$(contents "$ROOT/proc/4242/environ")" \
		"LANG=C.UTF-8\\0$path\\0IRQBALANCE_BANNED_CPULIST=1\\0IRQBALANCE_ARGS=a b=c\\0"
	assert_equal "$(wc -c <"$ROOT/proc/4242/environ")" $((79 + 28 + 22))
	assert_equal "$(contents "$ROOT/proc/4242/cmdline")" \
		'/usr/sbin/irqbalance\0--foreground\0--banirq=31\0-i\09\0--oneshot\0'
	assert_equal "$(wc -c <"$ROOT/proc/4242/cmdline")" $((34 + 12 + 3 + 2 + 10))
	run -1 make_root --dir "$BATS_TEST_TMPDIR/e" --irqbalance-env NOVALUE
	assert_output 'tree.bash: make_root: --irqbalance-env "NOVALUE" is not VAR=VALUE'
	run -1 make_root --dir "$BATS_TEST_TMPDIR/e" --irqbalance-env =x
	assert [ ! -e "$BATS_TEST_TMPDIR/e" ]
}

@test "--hint: affinity_hint as a kernel mask; --no-effective: no such files" {
	make_root --cpus 36 --irq 30=a --affinity 0 --hint 1-2,33 --irq 31=b \
		--no-effective --irq 32=c --hint ''
	assert_equal "$(raw "$(irq_dir 30)/affinity_hint")" '2,00000006\n'
	assert_equal "$(raw "$(irq_dir 31)/affinity_hint")" '0,00000000\n'
	assert_equal "$(raw "$(irq_dir 32)/affinity_hint")" '0,00000000\n'
	local irq
	for irq in 30 31 32; do
		assert [ ! -e "$(irq_dir "$irq")/effective_affinity" ]
		assert [ ! -e "$(irq_dir "$irq")/effective_affinity_list" ]
	done
	assert_equal "$(raw "$(irq_dir 30)/smp_affinity_list")" '0\n'
	assert_equal "$(raw "$(irq_dir 30)/smp_affinity")" '0,00000001\n'
	run -0 ls "$(irq_dir 30)"
	assert_output "$(printf '%s\n' a affinity_hint node smp_affinity \
		smp_affinity_list spurious)"
	run -1 make_root --dir "$BATS_TEST_TMPDIR/e0" --cpus 4 --irq 30 --hint 4
	assert_output 'tree.bash: CPU list "4": CPU 4 is not below 4'
	assert [ ! -e "$BATS_TEST_TMPDIR/e0" ]
	run -1 make_root --dir "$BATS_TEST_TMPDIR/e1" --hint 1
	assert_output 'tree.bash: make_root: --hint needs an --irq before it'
}

@test "--idle: counts 0 in every file, in irq_total and after set_online" {
	make_root --cpus 4 --offline 3 --irq 30=a --irq 31=b --irq 32=c \
		--idle 30 --idle 32
	run -0 grep '^ 3[0-2]:' "$ROOT/proc/interrupts"
	assert_output ' 30:          0          0          0   IO-APIC  30-edge      a
 31:     320000     320001     320002   IO-APIC  31-edge      b
 32:          0          0          0   IO-APIC  32-edge      c'
	assert_equal "$(raw "$ROOT/sys/kernel/irq/30/per_cpu_count")" '0,0,0,0\n'
	assert_equal "$(raw "$ROOT/sys/kernel/irq/31/per_cpu_count")" \
		'320000,320001,320002,0\n'
	assert_equal "$(raw "$(irq_dir 30)/spurious")" \
		'count 0\nunhandled 0\nlast_unhandled 0 ms\n'
	assert_equal "$(raw "$(irq_dir 31)/spurious")" \
		'count 60003\nunhandled 0\nlast_unhandled 0 ms\n'
	run -0 irq_total 30
	assert_output 0
	run -0 irq_total 31
	assert_output $((320000 * 3 + 3))
	set_online 0-3
	run -0 grep '^ 3[02]:' "$ROOT/proc/interrupts"
	assert_output ' 30:          0          0          0          0   IO-APIC  30-edge      a
 32:          0          0          0          0   IO-APIC  32-edge      c'
	assert_equal "$(raw "$ROOT/sys/kernel/irq/32/per_cpu_count")" '0,0,0,0\n'
	run -0 irq_total 32
	assert_output 0
	run -1 make_root --dir "$BATS_TEST_TMPDIR/e" --irq 30=a --idle 29-30
	assert_output 'tree.bash: make_root: --idle: no IRQ 29 in the tree'
}

# debugfs IRQ: IRQ's debugfs file, each line ended by "|" to show its
# spaces; the file must end in a newline.
debugfs() {
	local f=$ROOT/sys/kernel/debug/irq/irqs/$1 s
	s=$(raw "$f")
	assert_equal "${s: -2}" '\n'
	sed 's/$/|/' "$f"
}

@test "--managed and --pending: debugfs as irq_debug_show() prints each IRQ" {
	make_root --cpus 4 --nodes 2 --legacy 10 --nvme nvme0:2:1:40 \
		--irq 50=a --affinity 0-1 --effective 3 --irq 51 \
		--managed 41 --pending 50 --managed 42
	run -0 ls "$ROOT/sys/kernel/debug/irq/irqs"
	assert_output "$(printf '%s\n' 0 1 2 3 4 40 41 42 5 50 51 6 7 8 9)"
	# an IO-APIC level IRQ: no device
	run -0 debugfs 9
	assert_output - <<'EOF2'
handler:  handle_fasteoi_irq|
device:   (null)|
status:   0x00000100|
istate:   0x00004000|
ddepth:   0|
wdepth:   0|
dstate:   0x19402200|
            IRQD_LEVEL|
            IRQD_ACTIVATED|
            IRQD_IRQ_STARTED|
            IRQD_SINGLE_TARGET|
            IRQD_AFFINITY_ON_ACTIVATE|
            IRQD_HANDLE_ENFORCE_IRQCTX|
node:     0|
affinity: 0-3|
effectiv: 1|
pending:  |
EOF2
	# the NVMe admin queue, then a managed queue: the device's node
	run -0 debugfs 40
	assert_output - <<'EOF2'
handler:  handle_edge_irq|
device:   0000:3b:00.0|
status:   0x00000000|
istate:   0x00004000|
ddepth:   0|
wdepth:   0|
dstate:   0x19400200|
            IRQD_ACTIVATED|
            IRQD_IRQ_STARTED|
            IRQD_SINGLE_TARGET|
            IRQD_AFFINITY_ON_ACTIVATE|
            IRQD_HANDLE_ENFORCE_IRQCTX|
node:     1|
affinity: 0-3|
effectiv: 0|
pending:  |
EOF2
	run -0 debugfs 41
	assert_output - <<'EOF2'
handler:  handle_edge_irq|
device:   0000:3b:00.0|
status:   0x00000000|
istate:   0x00004000|
ddepth:   0|
wdepth:   0|
dstate:   0x19600200|
            IRQD_ACTIVATED|
            IRQD_IRQ_STARTED|
            IRQD_SINGLE_TARGET|
            IRQD_AFFINITY_MANAGED|
            IRQD_AFFINITY_ON_ACTIVATE|
            IRQD_HANDLE_ENFORCE_IRQCTX|
node:     1|
affinity: 0-3|
effectiv: 1|
pending:  |
EOF2
	run -0 grep -c IRQD_AFFINITY_MANAGED "$ROOT/sys/kernel/debug/irq/irqs/42"
	assert_output 1
	assert_equal "$(<"$(irq_dir 41)/node")" '1'
	# set by hand and waiting for its next interrupt
	run -0 debugfs 50
	assert_output - <<'EOF2'
handler:  handle_edge_irq|
device:   (null)|
status:   0x00000000|
istate:   0x00004000|
ddepth:   0|
wdepth:   0|
dstate:   0x19401300|
            IRQD_ACTIVATED|
            IRQD_IRQ_STARTED|
            IRQD_SINGLE_TARGET|
            IRQD_AFFINITY_SET|
            IRQD_SETAFFINITY_PENDING|
            IRQD_AFFINITY_ON_ACTIVATE|
            IRQD_HANDLE_ENFORCE_IRQCTX|
node:     0|
affinity: 0-1|
effectiv: 3|
pending:  0-1|
EOF2
	# no action: freed, so shut down
	run -0 debugfs 51
	assert_output - <<'EOF2'
handler:  handle_edge_irq|
device:   (null)|
status:   0x00000000|
istate:   0x00004000|
ddepth:   1|
wdepth:   0|
dstate:   0x19030000|
            IRQD_IRQ_DISABLED|
            IRQD_IRQ_MASKED|
            IRQD_SINGLE_TARGET|
            IRQD_AFFINITY_ON_ACTIVATE|
            IRQD_HANDLE_ENFORCE_IRQCTX|
node:     0|
affinity: 0-3|
effectiv: 3|
pending:  |
EOF2
}

@test "--debugfs alone; a managed IRQ with no CPU online is shut down" {
	make_root --cpus 4 --offline 2-3 --no-sysirq --no-effective \
		--irq 60=q --affinity 2-3 --managed 60 --irq 61=r
	run -0 ls "$ROOT/sys/kernel/debug/irq/irqs"
	assert_output "$(printf '%s\n' 60 61)"
	run -0 debugfs 60
	assert_output - <<'EOF2'
handler:  handle_edge_irq|
device:   (null)|
status:   0x00000000|
istate:   0x00000000|
ddepth:   1|
wdepth:   0|
dstate:   0x19a30000|
            IRQD_IRQ_DISABLED|
            IRQD_IRQ_MASKED|
            IRQD_SINGLE_TARGET|
            IRQD_AFFINITY_MANAGED|
            IRQD_AFFINITY_ON_ACTIVATE|
            IRQD_MANAGED_SHUTDOWN|
            IRQD_HANDLE_ENFORCE_IRQCTX|
node:     0|
affinity: 2-3|
pending:  |
EOF2
	make_root --dir "$BATS_TEST_TMPDIR/d" --cpus 2 --irq 30=a --debugfs
	run -0 ls "$ROOT/sys/kernel/debug/irq/irqs"
	assert_output 30
	run -0 grep -c '^            IRQD_' "$ROOT/sys/kernel/debug/irq/irqs/30"
	assert_output 5
	make_root --dir "$BATS_TEST_TMPDIR/none" --cpus 2 --irq 30=a
	assert [ ! -e "$ROOT/sys/kernel/debug" ]
	run -1 make_root --dir "$BATS_TEST_TMPDIR/e0" --irq 30=a --managed 30-31
	assert_output 'tree.bash: make_root: --managed: no IRQ 31 in the tree'
	run -1 make_root --dir "$BATS_TEST_TMPDIR/e1" --irq 30=a --pending 7
	assert_output 'tree.bash: make_root: --pending: no IRQ 7 in the tree'
	run -1 make_root --dir "$BATS_TEST_TMPDIR/e2" --irq 30=a --managed x
	assert_output 'tree.bash: CPU list "x": bad item "x"'
	assert [ ! -e "$BATS_TEST_TMPDIR/e0" ]
	assert [ ! -e "$BATS_TEST_TMPDIR/e2" ]
}

# vectors: "IRQ NAME" for each numbered row of proc/interrupts.
vectors() {
	awk '$1 ~ /^[0-9]+:$/ { print $1 + 0, $NF }' "$ROOT/proc/interrupts"
}

@test "--driver: each driver's vector names, in its order" {
	make_root --cpus 4 --nic eth0:2 --nic eth1:2 --driver i40e \
		--nic eth2:1 --driver ice --nic eth3:2 --driver split \
		--nic ens5:2 --driver ena --nic eth4:2 --driver mlx5 \
		--nic eth5:2 --driver gve --nic eth6:1 --driver bnx2x \
		--nic ens192:2 --driver vmxnet3
	run -0 vectors
	assert_output '24 eth0
25 eth0-TxRx-0
26 eth0-TxRx-1
27 i40e-0000:3c:00.0:misc
28 i40e-eth1-TxRx-0
29 i40e-eth1-TxRx-1
30 ice-0000:3d:00.0:misc
31 ice-eth2-TxRx-0
32 eth3
33 eth3-rx-0
34 eth3-rx-1
35 eth3-tx-0
36 eth3-tx-1
37 ena-mgmnt@pci:0000:3f:00.0
38 ens5-Tx-Rx-0
39 ens5-Tx-Rx-1
40 mlx5_async0@pci:0000:40:00.0
41 mlx5_comp0@pci:0000:40:00.0
42 mlx5_comp1@pci:0000:40:00.0
43 gve-ntfy-blk0@pci:0000:41:00.0
44 gve-ntfy-blk1@pci:0000:41:00.0
45 gve-ntfy-blk2@pci:0000:41:00.0
46 gve-ntfy-blk3@pci:0000:41:00.0
47 gve-mgmnt@pci:0000:41:00.0
48 eth6
49 eth6-fp-0
50 ens192-rxtx-0
51 ens192-rxtx-1
52 ens192-event-2'
	# each vector is the device's, and a directory of its IRQ
	run -0 ls "$ROOT/sys/class/net/eth5/device/msi_irqs"
	assert_output "$(printf '%s\n' 43 44 45 46 47)"
	assert [ -d "$(irq_dir 44)/gve-ntfy-blk1@pci:0000:41:00.0" ]
	# and no queue directories without --queues
	assert [ ! -e "$ROOT/sys/class/net/eth0/queues" ]
}

@test "--queues: rx-K and tx-K of each NIC, masks of the tree's width" {
	make_root --cpus 36 --queues --nic eth0:2 --nic eth1:1 \
		--virtio-nic eth2:1 --nvme nvme0:1
	run -0 bash -c 'find "$1" -path "*/queues*" -printf "%P\n" |
		LC_ALL=C sort' _ "$ROOT/sys/devices"
	assert_output 'pci0000:00/0000:00:03.0/virtio0/net/eth2/queues
pci0000:00/0000:00:03.0/virtio0/net/eth2/queues/rx-0
pci0000:00/0000:00:03.0/virtio0/net/eth2/queues/rx-0/rps_cpus
pci0000:00/0000:00:03.0/virtio0/net/eth2/queues/tx-0
pci0000:00/0000:3b:00.0/net/eth0/queues
pci0000:00/0000:3b:00.0/net/eth0/queues/rx-0
pci0000:00/0000:3b:00.0/net/eth0/queues/rx-0/rps_cpus
pci0000:00/0000:3b:00.0/net/eth0/queues/rx-1
pci0000:00/0000:3b:00.0/net/eth0/queues/rx-1/rps_cpus
pci0000:00/0000:3b:00.0/net/eth0/queues/tx-0
pci0000:00/0000:3b:00.0/net/eth0/queues/tx-0/xps_cpus
pci0000:00/0000:3b:00.0/net/eth0/queues/tx-1
pci0000:00/0000:3b:00.0/net/eth0/queues/tx-1/xps_cpus
pci0000:00/0000:3c:00.0/net/eth1/queues
pci0000:00/0000:3c:00.0/net/eth1/queues/rx-0
pci0000:00/0000:3c:00.0/net/eth1/queues/rx-0/rps_cpus
pci0000:00/0000:3c:00.0/net/eth1/queues/tx-0'
	local q=$ROOT/sys/class/net/eth0/queues
	assert_equal "$(contents "$q/tx-1/xps_cpus")" '0,00000000'
	assert_equal "$(contents "$q/rx-0/rps_cpus")" '0,00000000'
	assert_equal "$(contents \
		"$ROOT/sys/class/net/eth2/queues/rx-0/rps_cpus")" '0,00000000'
}

@test "--xps and --rps: the kernel's %*pb of 4 and 64 CPUs" {
	make_root --cpus 4 --nic eth0:2 --xps eth0:0=0-3 --xps eth0:1=1 \
		--rps eth0:1=2-3
	local q=$ROOT/sys/class/net/eth0/queues
	assert_equal "$(cat "$q/tx-0/xps_cpus" "$q/tx-1/xps_cpus" \
		"$q/rx-0/rps_cpus" "$q/rx-1/rps_cpus")" $'f\n2\n0\nc'
	make_root --dir "$BATS_TEST_TMPDIR/w64" --cpus 64 --nic eth0:2 \
		--xps eth0:01=0,63 --rps eth0:0=32-39
	q=$ROOT/sys/class/net/eth0/queues
	assert_equal "$(cat "$q/tx-0/xps_cpus" "$q/tx-1/xps_cpus" \
		"$q/rx-0/rps_cpus" "$q/rx-1/rps_cpus")" \
		$'00000000,00000000\n80000000,00000001\n000000ff,00000000\n00000000,00000000'
	assert_equal "$(kmask 64 0,63)" '80000000,00000001'
}

@test "--xps and --rps hold what the kernel keeps: online CPUs, for rps neither isolated nor nohz_full" {
	make_root --cpus 8 --nic eth0:2 --offline 3 --isolated 5 --nohz-full 6 \
		--xps eth0:0=0-7 --xps eth0:1=3 --rps eth0:0=0-7 --rps eth0:1=5-6
	local q=$ROOT/sys/class/net/eth0/queues
	# __netif_set_xps_queue(), store_rps_map()
	assert_equal "$(cat "$q/tx-0/xps_cpus" "$q/tx-1/xps_cpus" \
		"$q/rx-0/rps_cpus" "$q/rx-1/rps_cpus")" $'f7\n00\n97\n00'
}

@test "--virtnet-affinity: virtnet_set_affinity()'s groups, as a Debian 6.1 guest has them" {
	# 16 CPUs, 4 pairs: input.K and output.K on 4K-4K+3, hint too, and
	# tx-K's xps_cpus; the config vector keeps every CPU
	make_root --cpus 16 --virtio-nic eth0:4 --virtnet-affinity
	local q=$ROOT/sys/class/net/eth0/queues
	assert_equal "$(cat "$ROOT"/proc/irq/{24,25,26,27,32}/smp_affinity_list)" \
		$'0-15\n0-3\n0-3\n4-7\n12-15'
	assert_equal "$(cat "$ROOT"/proc/irq/{25,31}/affinity_hint)" \
		$'000f\nf000'
	assert_equal "$(cat "$q"/tx-{0,1,2,3}/xps_cpus)" \
		$'000f\n00f0\n0f00\nf000'
	# 5 online CPUs, 3 pairs: groups of 2, 2 and 1 in online order
	make_root --dir "$BATS_TEST_TMPDIR/b" --cpus 6 --offline 2 \
		--virtio-nic eth0:3 --virtnet-affinity
	assert_equal "$(cat "$ROOT"/proc/irq/{25,27,29}/smp_affinity_list)" \
		$'0-1\n3-4\n5'
	run -1 make_root --dir "$BATS_TEST_TMPDIR/c" --nic eth0:2 \
		--virtnet-affinity
	assert_output 'tree.bash: make_root: --virtnet-affinity needs a --virtio-nic before it'
}

@test "--driver, --xps and --rps errors" {
	local e=$BATS_TEST_TMPDIR/e
	run -1 make_root --dir "$e" --driver ixgbe --nic eth0:1
	assert_output 'tree.bash: make_root: --driver needs a --nic before it'
	run -1 make_root --dir "$e" --nvme nvme0:1 --driver mlx5
	assert_output 'tree.bash: make_root: --driver needs a --nic before it'
	run -1 make_root --dir "$e" --nic eth0:1 --driver e1000
	assert_output 'tree.bash: make_root: --driver "e1000": not ixgbe, i40e, ice, split, ixgbe-tx, ena, mlx5, gve, bnx2x, vmxnet3, vmxnet3-split or e1000e'
	run -1 make_root --dir "$e" --nic eth0:2 --driver e1000e
	assert_output 'tree.bash: make_root: --driver e1000e: one queue only'
	run -1 make_root --dir "$e" --nic eth0:2 --xps eth0=1
	assert_output 'tree.bash: make_root: --xps "eth0=1": not NAME:QUEUE=LIST'
	run -1 make_root --dir "$e" --nic eth0:2 --rps eth0:2=1
	assert_output 'tree.bash: make_root: --rps eth0:2: no such queue'
	run -1 make_root --dir "$e" --nvme nvme0:2 --rps nvme0:0=1
	assert_output 'tree.bash: make_root: --rps nvme0:0: no such queue'
	run -1 make_root --dir "$e" --nic eth0:1 --xps eth0:0=1
	assert_output 'tree.bash: make_root: --xps eth0:0: one queue, no xps_cpus'
	run -1 make_root --dir "$e" --cpus 4 --nic eth0:2 --xps eth0:1=4
	assert_output 'tree.bash: CPU list "4": CPU 4 is not below 4'
	assert [ ! -e "$e" ]
}

@test "a managed IRQ's effective CPU avoids isolcpus=managed_irq CPUs while it can" {
	make_root --cpus 4 --irq 24=q --affinity 1-3 --managed 24 \
		--irq 25=r --affinity 3 --managed 25 --irq 26=s --affinity 1-3 \
		--cmdline 'ro isolcpus=nohz,managed_irq,1,3'
	assert_equal "$(cat "$(irq_dir 24)/effective_affinity_list")" 2
	assert_equal "$(cat "$(irq_dir 25)/effective_affinity_list")" 3
	assert_equal "$(cat "$(irq_dir 26)/effective_affinity_list")" 3
}

@test "--no-debugfs: the affinity files refuse \"x\" as the kernel does, and managed ones any write" {
	make_root --cpus 4 --irq 24=q --managed 24 --irq 25=r --unmovable 25 \
		--irq 26=s --no-debugfs
	[[ ! -e $ROOT/sys/kernel/debug ]]
	local before irq f
	before=$(tree_sum)
	# write(2) through tests/fault/fault.c, as irqaff runs under the tree
	put() {
		printf '%s\n' "$1" | LD_PRELOAD=$BATS_TEST_DIRNAME/../../build/fault.so \
			dd of="$2" conv=notrunc status=none
	}
	for irq in 24 25 26; do
		for f in smp_affinity smp_affinity_list; do
			run -1 put x "$ROOT/proc/irq/$irq/$f"
		done
	done
	assert_equal "$(tree_sum)" "$before"
	run -1 put 1 "$ROOT/proc/irq/24/smp_affinity_list"
	assert_output --partial 'Input/output error'
	run -0 put 1 "$ROOT/proc/irq/26/smp_affinity_list"
	# no truncation here: irqaff ftruncate()s, as a tree needs
	assert_equal "$(head -n 1 "$ROOT/proc/irq/26/smp_affinity_list")" 1
}

@test "--kernel: 6.12 names MSI chips per device and refuses with EPERM; 5.10 has no nohz_full" {
	make_root --kernel 6.12 --cpus 4 --nvme nvme0:1 --managed 25 \
		--no-debugfs
	assert_equal "$(cat "$ROOT/sys/kernel/irq/24/chip_name")" \
		IR-PCI-MSIX-0000:3b:00.0
	assert_equal "$(cat "$ROOT/sys/kernel/irq/25/hwirq")" 1
	run grep -c ' IR-PCI-MSIX-0000:3b:00.0   1-edge      nvme0q1$' \
		"$ROOT/proc/interrupts"
	assert_output 1
	run -1 env LD_PRELOAD="$BATS_TEST_DIRNAME/../../build/fault.so" \
		dd of="$ROOT/proc/irq/25/smp_affinity" conv=notrunc \
		status=none <<<x
	assert_output --partial 'Operation not permitted'
	make_root --dir "$BATS_TEST_TMPDIR/r510" --kernel 5.10 --cpus 4
	[[ ! -e $ROOT/sys/devices/system/cpu/nohz_full ]]
	run -1 make_root --dir "$BATS_TEST_TMPDIR/r510b" --kernel 5.10 \
		--nohz-full 3
	assert_output 'tree.bash: make_root: 5.10 has no nohz_full'
	run -1 make_root --dir "$BATS_TEST_TMPDIR/r" --kernel 6.6
	assert_output 'tree.bash: make_root: --kernel 6.6: 5.10, 6.1 or 6.12'
}

@test "--irq-thread: a kernel thread as fs/proc shows it, following its IRQ or pinned" {
	make_root --cpus 4 --irq 24=a --effective 1 --irq '25=b|c' \
		--effective 2 --irq-thread 24 --irq-thread 25:0,3
	assert_equal "$(cat "$ROOT/proc/1192/comm")" irq/24-a
	assert_equal "$(grep -E '^(Name|Pid|Cpus_allowed|Cpus_allowed_list):' \
		"$ROOT/proc/1192/status")" $'Name:\tirq/24-a\nPid:\t1192\nCpus_allowed:\t2\nCpus_allowed_list:\t1'
	assert_equal "$(cut -d' ' -f1-9,39 "$ROOT/proc/1192/stat")" \
		'1192 (irq/24-a) S 2 0 0 0 -1 2129984 1'
	[[ -f $ROOT/proc/1192/cmdline && ! -s $ROOT/proc/1192/cmdline ]]
	assert_equal "$(cat "$ROOT"/proc/{1200,1201}/comm)" $'irq/25-b\nirq/25-c'
	assert_equal "$(grep '^Cpus_allowed' "$ROOT/proc/1201/status")" \
		$'Cpus_allowed:\t9\nCpus_allowed_list:\t0,3'
	run -1 make_root --dir "$BATS_TEST_TMPDIR/r2" --irq 24 --irq-thread 25
	assert_output 'tree.bash: make_root: --irq-thread: no IRQ 25 in the tree'
}

@test "write_task: a user process has no PF_KTHREAD and a cmdline; status escapes the name" {
	make_root --cpus 4
	write_task 4000 $'a\\b\nc' 1-2 4194560
	assert_equal "$(head -n 1 "$ROOT/proc/4000/status")" $'Name:\ta\\\\b\\nc'
	assert_equal "$(tr '\0' '|' <"$ROOT/proc/4000/cmdline")" $'a\\b\nc|'
	assert_equal "$(grep '^Cpus_allowed_list' "$ROOT/proc/4000/status")" \
		$'Cpus_allowed_list:\t1-2'
}
