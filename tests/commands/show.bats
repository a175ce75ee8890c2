#!/usr/bin/env bats
# irqaff show: a table (or JSON) of every IRQ in proc/interrupts. The
# expected tables were checked by hand against the tree: CPU 3 is offline,
# so proc/interrupts has three CPU columns and IRQ i counts
# (i + 1) * 10000 * 3 + 0 + 1 + 2; EFFECTIVE is the (i mod k)th of the k
# online CPUs of the affinity.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	# Nodes: 0 is CPUs 0-1, 1 is 2-3. eth0 (0000:3b:00.0, node 1) has
	# IRQs 40-42, nvme0 (0000:3c:00.0, node 0) 50-51.
	make_root --cpus 4 --nodes 2 --offline 3 \
		--irq 24=acpi --affinity 2-3 \
		--irq '25=name with spaces' \
		--irq '26=shared|second' --irq-node -1 \
		--nic eth0:2:1:40 --nvme nvme0:1:0:50
}

lines() {
	printf '%s\n' "$@"
}

@test "show prints the default columns for every IRQ of proc/interrupts" {
	run --separate-stderr irqaff show
	assert_success
	assert_equal "$stderr" ""
	assert_output "$(lines \
		'IRQ AFFINITY EFFECTIVE NODE   TOTAL NAME' \
		' 24 2-3      2            0  750003 acpi' \
		' 25 0-3      1            0  780003 name with spaces' \
		' 26 0-3      2           -1  810003 shared, second' \
		' 40 0-3      1            1 1230003 eth0' \
		' 41 0-3      2            1 1260003 eth0-TxRx-0' \
		' 42 0-3      0            1 1290003 eth0-TxRx-1' \
		' 50 0-3      2            0 1530003 nvme0q0' \
		' 51 0-3      0            0 1560003 nvme0q1')"
}

@test "the TOTAL column agrees with irq_total" {
	local irq
	for irq in 24 25 26 40 41 42 50 51; do
		run --separate-stderr irqaff show -n -o total "$irq"
		assert_success
		assert_output "$(irq_total "$irq")"
	done
}

@test "irqaff with no command runs show" {
	run --separate-stderr irqaff show
	local want=$output
	run --separate-stderr irqaff
	assert_success
	assert_output "$want"
	assert_equal "$stderr" ""
}

@test "show -n prints no header line" {
	run --separate-stderr irqaff show -n 24,25
	assert_success
	assert_output "$(lines \
		'24 2-3 2 0 750003 acpi' \
		'25 0-3 1 0 780003 name with spaces')"
}

@test "show --noheadings is -n" {
	run --separate-stderr irqaff show --noheadings -o irq 40
	assert_success
	assert_output "40"
}

@test "the columns are as wide as what this selection shows" {
	run --separate-stderr irqaff show 24
	assert_success
	assert_output "$(lines \
		'IRQ AFFINITY EFFECTIVE NODE  TOTAL NAME' \
		' 24 2-3      2            0 750003 acpi')"
}

@test "show -m prints CPU sets as kernel masks" {
	run --separate-stderr irqaff show -m
	assert_success
	assert_output "$(lines \
		'IRQ AFFINITY EFFECTIVE NODE   TOTAL NAME' \
		' 24 c        4            0  750003 acpi' \
		' 25 f        2            0  780003 name with spaces' \
		' 26 f        4           -1  810003 shared, second' \
		' 40 f        2            1 1230003 eth0' \
		' 41 f        4            1 1260003 eth0-TxRx-0' \
		' 42 f        1            1 1290003 eth0-TxRx-1' \
		' 50 f        4            0 1530003 nvme0q0' \
		' 51 f        1            0 1560003 nvme0q1')"
}

@test "show -m prints masks at the width of the possible CPUs" {
	rm -rf "$ROOT"
	make_root --cpus 40 --irq 24=a --affinity 32-39 --effective 33
	run --separate-stderr irqaff show -m
	assert_success
	assert_output "$(lines \
		'IRQ AFFINITY    EFFECTIVE   NODE    TOTAL NAME' \
		" 24 ff,00000000 02,00000000    0 $(irq_total 24) a")"
}

@test "show -o +LIST adds HINT, CHIP, HWIRQ, ONLINE and DEVICE to the defaults" {
	printf '3\n' >"$(irq_dir 40)/affinity_hint"
	run --separate-stderr irqaff show -o +HINT,CHIP,HWIRQ,ONLINE,DEVICE
	assert_success
	assert_equal "$stderr" ""
	assert_output "$(lines \
		'IRQ AFFINITY EFFECTIVE NODE   TOTAL NAME             HINT CHIP          HWIRQ ONLINE DEVICE' \
		' 24 2-3      2            0  750003 acpi             -    IO-APIC          24 2      -' \
		' 25 0-3      1            0  780003 name with spaces -    IO-APIC          25 0-2    -' \
		' 26 0-3      2           -1  810003 shared, second   -    IO-APIC          26 0-2    -' \
		' 40 0-3      1            1 1230003 eth0             0-1  IR-PCI-MSI 30932992 0-2    eth0' \
		' 41 0-3      2            1 1260003 eth0-TxRx-0      -    IR-PCI-MSI 30932993 0-2    eth0' \
		' 42 0-3      0            1 1290003 eth0-TxRx-1      -    IR-PCI-MSI 30932994 0-2    eth0' \
		' 50 0-3      2            0 1530003 nvme0q0          -    IR-PCI-MSI 31457280 0-2    nvme0' \
		' 51 0-3      0            0 1560003 nvme0q1          -    IR-PCI-MSI 31457281 0-2    nvme0')"
}

@test "show -o DEVICE survives PCI functions without interrupts before the devices" {
	# the tree's host and ISA bridges: no msi_irqs, irq 0, as on every PC
	assert_equal "$(cat "$ROOT/sys/bus/pci/devices/0000:00:00.0/irq" \
		"$ROOT/sys/bus/pci/devices/0000:00:1f.0/irq")" "$(lines 0 0)"
	run --separate-stderr irqaff show -o IRQ,DEVICE 24,40,50
	assert_success
	assert_equal "$stderr" ""
	assert_output "$(lines 'IRQ DEVICE' ' 24 -' ' 40 eth0' ' 50 nvme0')"
}

@test "show -o takes column names in any case and in the order given" {
	run --separate-stderr irqaff show -o name,Irq,AFFINITY 24-26
	assert_success
	assert_output "$(lines \
		'NAME             IRQ AFFINITY' \
		'acpi              24 2-3' \
		'name with spaces  25 0-3' \
		'shared, second    26 0-3')"
}

@test "show --output is -o" {
	run --separate-stderr irqaff show --output=irq,node -n 26
	assert_success
	assert_output "26 -1"
}

@test "show -o twice: the last list is the columns, as with any option given again" {
	run --separate-stderr -0 irqaff show -o irq,node -o name,irq 24
	assert_output "$(lines 'NAME IRQ' 'acpi  24')"
	run --separate-stderr -0 irqaff show -o irq -o +node -n 24
	assert_output '24 2-3 2 0 750003 acpi 0'
}

@test "an empty hint or a set with no online CPU is -, as a list or a mask" {
	printf '3\n' >"$(irq_dir 24)/smp_affinity_list"
	run --separate-stderr irqaff show -o irq,hint,online 24
	assert_success
	assert_output "$(lines 'IRQ HINT ONLINE' ' 24 -    -')"
	run --separate-stderr irqaff show -m -o irq,hint,online,affinity 24
	assert_success
	assert_output "$(lines 'IRQ HINT ONLINE AFFINITY' ' 24 -    -      8')"
}

@test "show -o with an unknown column is an error" {
	run --separate-stderr irqaff show -o irq,bogus
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" 'irqaff: show: unknown column "bogus"'
}

@test "show -o takes whole names only: a prefix of one is unknown" {
	run --separate-stderr -2 irqaff show -o irq,aff
	assert_output ""
	assert_equal "$stderr" 'irqaff: show: unknown column "aff"'
	run --separate-stderr -2 irqaff show -s tot
	assert_equal "$stderr" 'irqaff: show: unknown column "tot"'
}

@test "show -o takes up to 80 columns (four times the 20 it has), not 81" {
	local cols
	cols=$(printf 'irq,%.0s' {1..79})irq
	run --separate-stderr -0 irqaff show -n -o "$cols" 24
	assert_output "$(printf '24 %.0s' {1..79})24"
	run --separate-stderr -2 irqaff show -o "$cols,irq" 24
	assert_output ""
	assert_equal "$stderr" 'irqaff: show: too many columns'
	# +LIST: the six defaults count
	run --separate-stderr -0 irqaff show -n -o "+${cols#irq,irq,irq,irq,irq,irq,}" 24
	assert_output "24 2-3 2 0 750003 acpi $(printf '24 %.0s' {1..73})24"
	run --separate-stderr -2 irqaff show -o "+${cols#irq,irq,irq,irq,irq,}" 24
	assert_equal "$stderr" 'irqaff: show: too many columns'
}

@test "show -o without a value is a usage error" {
	run --separate-stderr irqaff show -o
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "irqaff: show: option -o needs a value
$(usage_of show)"
}

@test "show -J prints JSON with numbers as numbers" {
	run --separate-stderr irqaff show -J
	assert_success
	assert_equal "$stderr" ""
	run jq -c '.interrupts[0]' <<<"$output"
	assert_success
	assert_output '{"irq":24,"affinity":"2-3","affinity_cpus":[2,3],"affinity_nodes":[1],"effective":"2","effective_cpus":[2],"effective_nodes":[1],"node":0,"total":750003,"name":"acpi"}'
}

@test "show -J has one object per IRQ with the right types" {
	run --separate-stderr irqaff show -J
	assert_success
	run jq -r '.interrupts[] | [(.irq | type), (.affinity | type),
		(.effective | type), (.node | type), (.total | type),
		(.name | type), .irq, .node, .total, .name] | join(" ")' \
		<<<"$output"
	assert_success
	assert_output "$(lines \
		'number string string number number string 24 0 750003 acpi' \
		'number string string number number string 25 0 780003 name with spaces' \
		'number string string number number string 26 -1 810003 shared, second' \
		'number string string number number string 40 1 1230003 eth0' \
		'number string string number number string 41 1 1260003 eth0-TxRx-0' \
		'number string string number number string 42 1 1290003 eth0-TxRx-1' \
		'number string string number number string 50 0 1530003 nvme0q0' \
		'number string string number number string 51 0 1560003 nvme0q1')"
}

@test "show -J prints unknown values as null, an all-zero hint as an empty set" {
	printf '3\n' >"$(irq_dir 40)/affinity_hint"
	rm "$(irq_dir 24)/affinity_hint"
	run --separate-stderr irqaff show -J -o irq,hint,device 24-25,40
	assert_success
	run jq -c '.interrupts' <<<"$output"
	assert_success
	assert_output '[{"irq":24,"hint":null,"hint_cpus":null,"device":null},{"irq":25,"hint":"","hint_cpus":[],"device":null},{"irq":40,"hint":"0-1","hint_cpus":[0,1],"device":"eth0"}]'
	# a mask too: "" is the empty set, not "00000000"
	run --separate-stderr -0 irqaff show -J -m -o irq,hint 25
	assert_output '{"interrupts":[{"irq":25,"hint":"","hint_cpus":[]}]}'
}

@test "show -J -m prints masks as strings" {
	run --separate-stderr irqaff show -J -m -o irq,affinity,effective 24
	assert_success
	run jq -c '.interrupts' <<<"$output"
	assert_success
	assert_output '[{"irq":24,"affinity":"c","affinity_cpus":[2,3],"affinity_nodes":[1],"effective":"4","effective_cpus":[2],"effective_nodes":[1]}]'
}

@test "show -J escapes quotes and backslashes in names" {
	rm -rf "$ROOT"
	make_root --cpus 2 --irq '24=say "hi"\now'
	run --separate-stderr irqaff show -J -o irq,name
	assert_success
	run jq -r '.interrupts[0].name' <<<"$output"
	assert_success
	assert_output 'say "hi"\now'
}

@test "show -J keeps UTF-8 names and replaces bytes that are not UTF-8" {
	rm -rf "$ROOT"
	# a renamed interface may carry any byte but / and blanks
	make_root --cpus 2 --irq $'24=caf\xc3\xa9-rx' --irq $'25=caf\xe9-rx' \
		--irq $'26=\xed\xa0\x80\xf4\x90\x80\x80\xc3' --irq $'27=\x7f\x01'
	run --separate-stderr irqaff show -J -o irq,name
	assert_success
	# jq would mend bad bytes itself; iconv refuses them
	iconv -f UTF-8 -t UTF-8 <<<"$output" >/dev/null
	run jq -r '.interrupts[].name' <<<"$output"
	assert_success
	assert_output "$(printf 'caf\303\251-rx\ncaf\357\277\275-rx\n%s\n\177\001' \
		"$(printf '\357\277\275%.0s' 1 2 3 4 5 6 7 8)")"
}

@test "show -J prints a node file that is not a number as null, valid JSON of one type" {
	printf -- '-\n' >"$(irq_dir 24)/node"
	printf '1-2\n' >"$(irq_dir 25)/node"
	run --separate-stderr irqaff show -J -o irq,node 24-26
	assert_success
	run jq -c '.interrupts' <<<"$output"
	assert_success
	assert_output '[{"irq":24,"node":null},{"irq":25,"node":null},{"irq":26,"node":-1}]'
	# the first word is the node, as the kernel's "%d\n" has one word
	printf '1 2\n' >"$(irq_dir 24)/node"
	run --separate-stderr -0 irqaff show -o irq,node 24
	assert_output $'IRQ NODE\n 24    1'
	run --separate-stderr -0 irqaff show -J -o irq,node 24
	assert_output --partial '{"irq":24,"node":1}'
}

@test "show -J with a selector that picks IRQs prints just those" {
	run --separate-stderr irqaff show -J -o irq 'eth0-*'
	assert_success
	run jq -c '[.interrupts[].irq]' <<<"$output"
	assert_output '[41,42]'
}

@test "missing or unreadable per-IRQ files show - and the listing goes on" {
	rm "$(irq_dir 24)"/effective_affinity*
	rm "$(irq_dir 25)/node"
	rm "$(irq_dir 26)"/smp_affinity*
	printf 'garbage\n' >"$(irq_dir 40)/smp_affinity_list"
	rm -r "$(irq_dir 41)"
	rm "$(irq_dir 50)/smp_affinity_list"
	mkdir "$(irq_dir 50)/smp_affinity_list"
	rm "$(irq_dir 51)/effective_affinity_list"
	mkfifo "$(irq_dir 51)/effective_affinity_list"
	run --separate-stderr irqaff show
	assert_success
	assert_equal "$stderr" ""
	assert_output "$(lines \
		'IRQ AFFINITY EFFECTIVE NODE   TOTAL NAME' \
		' 24 2-3      -            0  750003 acpi' \
		' 25 0-3      1            -  780003 name with spaces' \
		' 26 -        2           -1  810003 shared, second' \
		' 40 -        1            1 1230003 eth0' \
		' 41 -        -            - 1260003 eth0-TxRx-0' \
		' 42 0-3      0            1 1290003 eth0-TxRx-1' \
		' 50 0-3      2            0 1530003 nvme0q0' \
		' 51 0-3      -            0 1560003 nvme0q1')"
}

@test "in JSON a file that cannot be read is null" {
	rm "$(irq_dir 24)"/effective_affinity*
	rm "$(irq_dir 24)/node"
	run --separate-stderr irqaff show -J 24
	assert_success
	run jq -c '.interrupts' <<<"$output"
	assert_output '[{"irq":24,"affinity":"2-3","affinity_cpus":[2,3],"affinity_nodes":[1],"effective":null,"effective_cpus":null,"effective_nodes":null,"node":null,"total":750003,"name":"acpi"}]'
}

@test "show reads smp_affinity where the list files are absent" {
	rm -rf "$ROOT"
	make_root --cpus 40 --no-list-files --irq 24=a --affinity 1-3,32 \
		--effective 32
	run --separate-stderr irqaff show -o irq,affinity,effective
	assert_success
	assert_output "$(lines 'IRQ AFFINITY EFFECTIVE' ' 24 1-3,32   32')"
}

@test "show --all also lists IRQ directories without a row in proc/interrupts" {
	mkdir -p "$(irq_dir 60)/orphan"
	printf '1\n' >"$(irq_dir 60)/smp_affinity_list"
	run --separate-stderr irqaff show -n -o irq 60-99
	assert_success
	assert_output "60"
	run --separate-stderr irqaff show -o irq,affinity,total,name
	assert_success
	refute_output --partial "orphan"
	run --separate-stderr irqaff show --all -o irq,affinity,effective,total,name 40-60
	assert_success
	assert_output "$(lines \
		'IRQ AFFINITY EFFECTIVE   TOTAL NAME' \
		' 40 0-3      1         1230003 eth0' \
		' 41 0-3      2         1260003 eth0-TxRx-0' \
		' 42 0-3      0         1290003 eth0-TxRx-1' \
		' 50 0-3      2         1530003 nvme0q0' \
		' 51 0-3      0         1560003 nvme0q1' \
		' 60 1        -               - orphan')"
	# a directory with no action: NAME unknown, - in the table, null in JSON
	mkdir -p "$(irq_dir 62)"
	run --separate-stderr -0 irqaff show -a -J -o irq,name 60-62
	assert_output '{"interrupts":[{"irq":60,"name":"orphan"},{"irq":62,"name":null}]}'
	run --separate-stderr -0 irqaff show -a -n -o irq,name 62
	assert_output '62 -'
}

@test "show -a with no selector lists every IRQ directory" {
	mkdir -p "$(irq_dir 60)/orphan" "$(irq_dir 61)/x" "$(irq_dir 61)/y"
	run --separate-stderr irqaff show -a -n -o irq,total,name
	assert_success
	assert_output "$(lines \
		'24  750003 acpi' \
		'25  780003 name with spaces' \
		'26  810003 shared, second' \
		'40 1230003 eth0' \
		'41 1260003 eth0-TxRx-0' \
		'42 1290003 eth0-TxRx-1' \
		'50 1530003 nvme0q0' \
		'51 1560003 nvme0q1' \
		'60       - orphan' \
		'61       - x, y')"
}

@test "show -a and show N give an unused IRQ the same TOTAL" {
	# IRQ 3: no action and no count, so no row in proc/interrupts
	# (show_interrupts()), but a sys/kernel/irq/3 that counts 0
	make_root --dir "$BATS_TEST_TMPDIR/u" --cpus 4 --irq 3 --idle 3 \
		--irq 24=acpi
	refute grep -q '^ *3:' "$ROOT/proc/interrupts"
	run --separate-stderr -0 irqaff show -n -o irq,total 3
	assert_output '3 0'
	run --separate-stderr -0 irqaff show -a -n -o irq,total
	assert_output "$(lines ' 3       0' "24 $(irq_total 24)")"
	make_root --dir "$BATS_TEST_TMPDIR/n" --cpus 4 --irq 3 --idle 3 \
		--irq 24=acpi --no-sysirq
	run --separate-stderr -0 irqaff show -n -o irq,total 3
	assert_output '3 -'
	run --separate-stderr -0 irqaff show -a -n -o irq,total
	assert_output "$(lines ' 3       -' "24 $(irq_total 24)")"
}

@test "show --all with a selector still shows only the selected IRQs" {
	mkdir -p "$(irq_dir 60)/orphan" "$(irq_dir 61)/other"
	run --separate-stderr irqaff show --all -n -o irq 24,60
	assert_success
	assert_output "$(lines 24 60)"
	run --separate-stderr irqaff show --all -J -o irq,name 60
	assert_success
	run jq -c '.interrupts' <<<"$output"
	assert_output '[{"irq":60,"name":"orphan"}]'
}

@test "show with a selector that matches nothing prints no rows: status 1, a note, as grep" {
	run --separate-stderr -1 irqaff show 99
	assert_output "IRQ AFFINITY EFFECTIVE NODE TOTAL NAME"
	assert_equal "$stderr" "irqaff: note: IRQ 99 does not exist"
	run --separate-stderr -1 irqaff show -n 'eth9-*'
	assert_output ""
	assert_equal "$stderr" 'irqaff: note: IRQ list "eth9-*": "eth9-*" matches no IRQ'
	run --separate-stderr -1 irqaff show -J 'eth9-*' dev:eth9
	assert_output '{"interrupts":[]}'
	assert_equal "$stderr" 'irqaff: note: IRQ list "eth9-*": "eth9-*" matches no IRQ
irqaff: note: IRQ list "dev:eth9": device eth9 has no IRQs or does not exist'
	# -q: the same answer, without the notes
	run --separate-stderr -1 irqaff show -q -J 'eth9-*' dev:eth9
	assert_output '{"interrupts":[]}'
	assert_equal "$stderr" ""
	# a CPU no IRQ runs on is an answer, not a mistake: no note, but the
	# status is 1 all the same
	run --separate-stderr -1 irqaff show -o irq cpu:3
	assert_output "IRQ"
	assert_equal "$stderr" ""
	run --separate-stderr -1 irqaff show -J -i 0.01 -c 2 -o irq cpu:3
	assert_equal "$(jq -c 'del(.time, .interval)' <<<"$output")" '{"interrupts":[]}
{"interrupts":[]}'
	# the other side: one item that matches is status 0, the rest noted
	run --separate-stderr -0 irqaff show -n -o irq 99,24
	assert_output "24"
	assert_equal "$stderr" "irqaff: note: IRQ 99 does not exist"
	# a bad selector is still bad input
	run --separate-stderr -2 irqaff show 24,,25
	assert_output ""
	run --separate-stderr -2 irqaff show cpu:99
	assert_output ""
}

@test "show takes several IRQ lists as one union" {
	run --separate-stderr -0 irqaff show -n -o irq 'eth0*' 24 50,24 'eth0*'
	assert_output "$(lines 24 40 41 42 50)"
	assert_equal "$stderr" ""
	run --separate-stderr -0 irqaff show -n -o irq 24 99 98
	assert_output "24"
	assert_equal "$stderr" "$(lines 'irqaff: note: IRQ 99 does not exist' \
		'irqaff: note: IRQ 98 does not exist')"
}

@test "show with an unknown option is a usage error" {
	run --separate-stderr irqaff show -x
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "irqaff: show: unknown option -x
$(usage_of show)"
	run --separate-stderr irqaff show --bogus
	assert_failure 2
	assert_equal "$stderr" "irqaff: show: unknown option --bogus
$(usage_of show)"
	# the bad letter, not the long option with a value before it
	run --separate-stderr irqaff show --output=NAME -Za
	assert_failure 2
	assert_equal "$stderr" "irqaff: show: unknown option -Z
$(usage_of show)"
	run --separate-stderr irqaff show --json=yes
	assert_failure 2
	assert_equal "$stderr" "irqaff: show: option --json takes no value
$(usage_of show)"
}

@test "show without proc/interrupts fails with status 1" {
	rm "$ROOT/proc/interrupts"
	run --separate-stderr irqaff show
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" "irqaff: $ROOT/proc/interrupts: No such file or directory"
}

@test "show --help lists the columns" {
	run --separate-stderr irqaff show --help
	assert_success
	assert_line --index 0 "$(usage_of show)"
	assert_line --regexp '^  HINT +CPUs the driver suggests'
	assert_line --regexp '^  DEVICE +'
}

@test "a count wider than the kernel's 32 bits: the IRQ is shown with no TOTAL and a warning" {
	# show_interrupts() prints "%10u" of an unsigned int: never past
	# 4294967295; such a row is no count the kernel gave
	rm -rf "$ROOT"
	make_root --cpus 2 --irq 30=a --irq 31=b --no-sysirq
	sed -i 's/^ 30:     310000/ 30: 9999999999/' "$ROOT/proc/interrupts"
	run --separate-stderr -0 irqaff show -o IRQ,TOTAL,NAME
	assert_output $'IRQ  TOTAL NAME\n 30      - a\n 31 640001 b'
	assert_equal "$stderr" "irqaff: $ROOT/proc/interrupts: IRQ 30: a count wider than 32 bits; its TOTAL is unknown"
	run --separate-stderr -0 irqaff show -J -o IRQ,TOTAL
	run jq -c '[.interrupts[] | [.irq, .total]]' <<<"$output"
	assert_output '[[30,null],[31,640001]]'
	run --separate-stderr -0 irqaff cpus -o CPU,TOTAL
	assert_output $'CPU  TOTAL\n  0 320000\n  1 320001'
	assert_equal "$stderr" "irqaff: $ROOT/proc/interrupts: IRQ 30: a count wider than 32 bits; its row is left out"
	# two such rows: one warning, for the first
	sed -i 's/^ 31:     320000/ 31: 9999999999/' "$ROOT/proc/interrupts"
	run --separate-stderr -0 irqaff show -o IRQ,TOTAL,NAME
	assert_output $'IRQ TOTAL NAME\n 30     - a\n 31     - b'
	assert_equal "$stderr" "irqaff: $ROOT/proc/interrupts: IRQ 30: a count wider than 32 bits; its TOTAL is unknown"
}

@test "show -s sorts by a column: TOTAL largest first, NAME smallest, - last, ties by IRQ" {
	rm -rf "$ROOT"
	make_root --cpus 4 --irq 24=b --affinity 1 --irq 25=a --affinity 2 \
		--irq 26=c --idle 26 --irq 27=a --idle 27
	run --separate-stderr -0 irqaff show -s total -o irq,total
	assert_output $'IRQ   TOTAL\n 25 1040006\n 24 1000006\n 26       0\n 27       0'
	run --separate-stderr -0 irqaff show --sort=NAME -o irq,name
	assert_output $'IRQ NAME\n 25 a\n 27 a\n 24 b\n 26 c'
	# sorted by a column it does not print; JSON in the same order
	run --separate-stderr -0 irqaff show -J -s total -o irq 24-25
	assert_output '{"interrupts":[{"irq":25},{"irq":24}]}'
	run --separate-stderr -0 irqaff show -s hint -o irq,hint
	assert_output $'IRQ HINT\n 24 -\n 25 -\n 26 -\n 27 -'
	# an empty set is "-" and sorts last, after the sets, as in the table
	printf '4\n' >"$(irq_dir 25)/affinity_hint"
	printf '1\n' >"$(irq_dir 27)/affinity_hint"
	run --separate-stderr -0 irqaff show -s hint -o irq,hint
	assert_output $'IRQ HINT\n 27 0\n 25 2\n 24 -\n 26 -'
}

@test "show -s refuses an unknown column, a list, and RATE without -i, with status 2" {
	rm -rf "$ROOT"
	make_root --cpus 2 --irq 24=a
	run --separate-stderr -2 irqaff show -s bogus
	assert_equal "$stderr" 'irqaff: show: unknown column "bogus"'
	run --separate-stderr -2 irqaff show -s irq,total
	assert_equal "$stderr" 'irqaff: show: -s takes one column'
	run --separate-stderr -2 irqaff show -s +total
	assert_equal "$stderr" 'irqaff: show: -s takes one column'
	run --separate-stderr -2 irqaff show -s rate
	assert_equal "${stderr%%$'\n'*}" 'irqaff: show: RATE needs -i'
}

@test "show -J gives each CPU set as an array too, and the nodes of the requested and effective CPUs" {
	rm -rf "$ROOT"
	make_root --cpus 8 --nodes 2 --irq 24=a --affinity 0-1,6 --effective 6 \
		--irq 25=b --affinity 2-3 --effective 2
	run -0 --separate-stderr irqaff show -J -o irq,affinity,effective,online,hint
	assert_output '{"interrupts":[{"irq":24,"affinity":"0-1,6","affinity_cpus":[0,1,6],"affinity_nodes":[0,1],"effective":"6","effective_cpus":[6],"effective_nodes":[1],"online":"0-1,6","online_cpus":[0,1,6],"hint":"","hint_cpus":[]},{"irq":25,"affinity":"2-3","affinity_cpus":[2,3],"affinity_nodes":[0],"effective":"2","effective_cpus":[2],"effective_nodes":[0],"online":"2-3","online_cpus":[2,3],"hint":"","hint_cpus":[]}]}'
	# with -m the string is a mask, the array still the CPU numbers
	run -0 --separate-stderr irqaff show -J -m -o irq,affinity 24
	assert_output '{"interrupts":[{"irq":24,"affinity":"43","affinity_cpus":[0,1,6],"affinity_nodes":[0,1]}]}'
}

@test "the man page's jq line lists the IRQs that run off their device's node, and only those" {
	command -v jq >/dev/null || skip "jq is not installed"
	rm -rf "$ROOT"
	make_root --cpus 64 --nodes 2 --threads 2 --nic eth0:8:1 --nic eth1:4:0
	local line
	# the command, from its first line to the end of its literal block
	line=$(awk '/^irqaff show -J dev:eth0 \| jq / { on = 1 } /^```/ { on = 0 }
		on' "$BATS_TEST_DIRNAME/../../man/irqaff-show.8.scd")
	[[ -n $line ]]
	run -0 --separate-stderr bash -c "$line"
	assert_output '32 eth0-TxRx-7'
	# moved onto its node, it is no longer listed
	printf '16\n' >"$(irq_dir 32)/effective_affinity_list"
	run -0 --separate-stderr bash -c "$line"
	assert_output ''
}

@test "PENDING: yes where EFFECTIVE leaves AFFINITY, no inside it, - without the file" {
	# IRQ 41 runs on 2: requested 0-1 it is pending, 2 or 2-3 it is not
	printf '0-1\n' >"$(irq_dir 41)/smp_affinity_list"
	printf '2\n' >"$(irq_dir 42)/smp_affinity_list"
	printf '2\n' >"$(irq_dir 42)/effective_affinity_list"
	rm "$(irq_dir 51)"/effective_affinity*
	run -0 --separate-stderr irqaff show -o +PENDING 41,42,50,51
	assert_equal "$stderr" ""
	assert_output "$(lines \
		'IRQ AFFINITY EFFECTIVE NODE   TOTAL NAME        PENDING' \
		' 41 0-1      2            1 1260003 eth0-TxRx-0 yes' \
		' 42 2        2            1 1290003 eth0-TxRx-1 no' \
		' 50 0-3      2            0 1530003 nvme0q0     no' \
		' 51 0-3      -            0 1560003 nvme0q1     -')"
	run -0 --separate-stderr irqaff show -J -o irq,pending 41,42,51
	assert_output '{"interrupts":[{"irq":41,"pending":true},{"irq":42,"pending":false},{"irq":51,"pending":null}]}'
	# an effective set with no online CPU is none: "-", not "no"
	printf '3\n' >"$(irq_dir 50)/effective_affinity_list"
	run -0 --separate-stderr irqaff show -n -o irq,effective,pending 50
	assert_output '50 - -'
}
