#!/usr/bin/env bats
# irqaff cpus: one row per CPU; TOTAL is the column sum of the numbered
# rows of /proc/interrupts, IRQS the number of effective affinities that
# hold the CPU, TOP its three busiest IRQs.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
}

# col_sums: "CPU SUM" for each column of proc/interrupts' numbered rows,
# computed apart from irqaff.
col_sums() {
	awk 'NR == 1 { for (i = 1; i <= NF; i++) cpu[i] = substr($i, 4); n = NF; next }
		$1 ~ /^[0-9]+:$/ { for (i = 1; i <= n; i++) s[i] += $(i + 1) }
		END { for (i = 1; i <= n; i++) print cpu[i], s[i] + 0 }' \
		"$ROOT/proc/interrupts"
}

# irqs_on: "CPU COUNT" for each online CPU: the effective lists holding it.
irqs_on() {
	local c f n
	for c in $(_cpus_of "$(<"$ROOT/sys/devices/system/cpu/online")"); do
		n=0
		for f in "$ROOT"/proc/irq/[0-9]*/effective_affinity_list; do
			if _cpus_of "$(<"$f")" | grep -qx "$c"; then
				n=$((n + 1))
			fi
		done
		printf '%s %s\n' "$c" "$n"
	done
}

# sampled ARGS...: irqaff cpus ARGS, its first read
# $BATS_TEST_TMPDIR/before (snapshot_interrupts), its second the tree's
# proc/interrupts: no sleep, and with -i exact rates.
sampled() {
	irqaff cpus --sample-from "$BATS_TEST_TMPDIR/before" \
		--sample-from "$ROOT/proc/interrupts" "$@"
}

@test "cpus: exact rows on a tree with known counts" {
	make_root --cpus 4 --isolated 3 --nohz-full 2-3 --offline 1 \
		--irq 24=a --affinity 0 --irq 25=b --affinity 2-3 --irq 26
	run --separate-stderr -0 irqaff cpus
	assert_output 'CPU NODE STATE                     IRQS  TOTAL TOP
  0    0 online                       1 780000 (26) b(25) a(24)
  1    - offline                      0      - -
  2    0 online,nohz_full             0 780006 (26) b(25) a(24)
  3    0 online,isolated,nohz_full    2 780009 (26) b(25) a(24)'
	assert_equal "$stderr" ''
}

@test "every TOTAL is its column's sum, every IRQS its effective count" {
	make_root --cpus 12 --nodes 2 --offline 5 --legacy 16 --nic eth0:4:1 \
		--nvme nvme0:3
	local -A sum=()
	local cpu total want='' w=0
	while read -r cpu total; do
		sum[$cpu]=$total
		((${#total} > w)) && w=${#total}
	done < <(col_sums)
	for cpu in {0..11}; do
		printf -v want '%s%2d %*s\n' "$want" "$cpu" "$w" "${sum[$cpu]:--}"
	done
	run --separate-stderr -0 irqaff cpus -n -o cpu,total
	assert_output "${want%$'\n'}"
	run --separate-stderr -0 irqaff cpus -n -o cpu,irqs 0-4,6-11
	assert_output "$(irqs_on | awk '{ printf "%2d %d\n", $1, $2 }')"
}

@test "TOTAL and TOP are exact over 40 rows: 10-digit counts, ties, 10^8, a row out of the kernel's widths" {
	# more rows than the digit sums hold (28 nines), counts either side
	# of 10^8, where TOP compares keys and not numbers, and the last row
	# spaced by hand (read number by number) among the kernel's
	make_root --cpus 4 --legacy 40
	awk 'NR > 1 && $1 ~ /^[0-9]+:$/ {
		r = $1 + 0
		c[0] = 4294967295 - r; c[1] = 99999999; c[2] = r * 5000000
		c[3] = r == 7 ? 100000000 : 99999999 - r
		printf "%3d:", r
		for (i = 0; i < 4; i++)
			printf r == 39 ? " %.0f" : " %10.0f", c[i]
		print substr($0, 49)
		next
	} { print }' "$ROOT/proc/interrupts" >"$BATS_TEST_TMPDIR/int"
	cp "$BATS_TEST_TMPDIR/int" "$ROOT/proc/interrupts"
	run --separate-stderr -0 irqaff cpus -o cpu,total,top
	assert_output 'CPU        TOTAL TOP
  0 171798691020 timer(0) i8042(1) cascade(2)
  1   3999999960 timer(0) i8042(1) cascade(2)
  2   3900000000 irq39(39) irq38(38) irq37(37)
  3   3999999188 parport0(7) timer(0) i8042(1)'
	assert_equal "$stderr" ''
	run --separate-stderr -0 irqaff cpus -J -o cpu,top 0,2
	assert_output '{"cpus":[{"cpu":0,"top":[{"irq":0,"name":"timer","count":4294967295},{"irq":1,"name":"i8042","count":4294967294},{"irq":2,"name":"cascade","count":4294967293}]},{"cpu":2,"top":[{"irq":39,"name":"irq39","count":195000000},{"irq":38,"name":"irq38","count":190000000},{"irq":37,"name":"irq37","count":185000000}]}]}'
}

# col_tops: "CPU IRQ..." for each column of proc/interrupts: the IRQs of
# its three largest counts, the earlier row first among equals.
col_tops() {
	awk 'NR == 1 { for (i = 1; i <= NF; i++) cpu[i] = substr($i, 4); n = NF; next }
		$1 ~ /^[0-9]+:$/ {
			for (i = 1; i <= n; i++) {
				v = $(i + 1) + 0
				for (k = 3; k > 0 && v > c[i, k]; k--)
					;
				for (j = 3; j > k + 1; j--) {
					c[i, j] = c[i, j - 1]; q[i, j] = q[i, j - 1]
				}
				if (k < 3) { c[i, k + 1] = v; q[i, k + 1] = $1 + 0 }
			}
		}
		END {
			for (i = 1; i <= n; i++) {
				line = cpu[i]
				for (k = 1; k <= 3 && c[i, k] > 0; k++)
					line = line " " q[i, k]
				print line
			}
		}' "$ROOT/proc/interrupts"
}

@test "TOTAL and TOP of every real dump are its columns' sums and largest counts" {
	local f n=0 max
	for f in "$BATS_TEST_DIRNAME"/../fixtures/interrupts/*.txt; do
		ROOT=$BATS_TEST_TMPDIR/dump$((n++))
		mkdir -p "$ROOT/proc/irq" "$ROOT/sys/devices/system/cpu"
		grep -v '^#' "$f" >"$ROOT/proc/interrupts"
		max=$(head -1 "$ROOT/proc/interrupts" | grep -o 'CPU[0-9]*' |
			sed 's/CPU//' | sort -n | tail -1)
		echo "0-$max" >"$ROOT/sys/devices/system/cpu/possible"
		echo "0-$max" >"$ROOT/sys/devices/system/cpu/online"
		run --separate-stderr -0 irqaff --root "$ROOT" cpus -n -o cpu,total
		assert_equal "$(printf '%s\n' "$output" | awk '{ print $1, $2 }')" \
			"$(awk 'NR == 1 { for (i = 1; i <= NF; i++) cpu[i] = substr($i, 4); n = NF; next }
				$1 ~ /^[0-9]+:$/ { for (i = 1; i <= n; i++) s[i] += $(i + 1) }
				END { for (i = 1; i <= n; i++) printf "%d %.0f\n", cpu[i], s[i] }' \
				"$ROOT/proc/interrupts")"
		run --separate-stderr -0 irqaff --root "$ROOT" cpus -n -o cpu,top
		assert_equal "$(printf '%s\n' "$output" | awk '{ printf "%s", $1
			while (match($0, /\([0-9]+\)/)) {
				printf " %s", substr($0, RSTART + 1, RLENGTH - 2)
				$0 = substr($0, RSTART + RLENGTH)
			}
			print "" }')" "$(col_tops)"
	done
	((n >= 16))
}

@test "cpus CPUS: only those rows; -J has numbers, lists and null" {
	make_root --cpus 4 --offline 1 --irq 24=a --affinity 0 --idle 24
	run --separate-stderr -0 irqaff cpus -J 0-1
	assert_output '{"cpus":[{"cpu":0,"node":0,"state":["online"],"irqs":1,"total":0,"top":[],"system":{"NMI":1,"LOC":1000}},{"cpu":1,"node":null,"state":["offline"],"irqs":0,"total":null,"top":[],"system":{"NMI":null,"LOC":null}}]}'
	run --separate-stderr -0 irqaff cpus -o +IRQS -n 0
	assert_output '0 0 online 1 0 - 1'
	# STATE's words: an array of strings, one each
	make_root --dir "$BATS_TEST_TMPDIR/iso" --cpus 4 --isolated 2-3 \
		--nohz-full 3 --irq 24=a --affinity 0
	run --separate-stderr -0 irqaff cpus -J -o cpu,state 2-3
	assert_output '{"cpus":[{"cpu":2,"state":["online","isolated"]},{"cpu":3,"state":["online","isolated","nohz_full"]}]}'
}

# One type a key (issue 50): "system" holds counts since boot, integers,
# with or without -i; the rates of -i are "system_rate", as "top" has
# "count" or "rate".
@test "cpus -J: system is counts, integers; with -i the rates are system_rate" {
	make_root --cpus 2 --no-sysirq --irq 24=a --affinity 0
	printf '%s\n' '           CPU0       CPU1' \
		' 24:         10          0   IO-APIC   24-edge      a' \
		'LOC:        100        200   Local timer interrupts' >"$BATS_TEST_TMPDIR/a"
	printf '%s\n' '           CPU0       CPU1' \
		' 24:         30          0   IO-APIC   24-edge      a' \
		'LOC:        300        201   Local timer interrupts' >"$BATS_TEST_TMPDIR/b"
	cp "$BATS_TEST_TMPDIR/b" "$ROOT/proc/interrupts"
	run --separate-stderr -0 irqaff cpus -J
	assert_output '{"cpus":[{"cpu":0,"node":0,"state":["online"],"irqs":1,"total":30,"top":[{"irq":24,"name":"a","count":30}],"system":{"LOC":300}},{"cpu":1,"node":0,"state":["online"],"irqs":0,"total":0,"top":[],"system":{"LOC":201}}]}'
	run --separate-stderr -0 irqaff cpus -J -i 2 \
		--sample-from "$BATS_TEST_TMPDIR/a" --sample-from "$BATS_TEST_TMPDIR/b"
	assert_equal "${output/\"time\":\"*\",\"interval/\"time\":T,\"interval}" \
		'{"time":T,"interval":2.000,"cpus":[{"cpu":0,"node":0,"state":["online"],"irqs":1,"total":30,"rate":10.0,"top":[{"irq":24,"name":"a","rate":10.0}],"system_rate":{"LOC":100.0}},{"cpu":1,"node":0,"state":["online"],"irqs":0,"total":0,"rate":0.0,"top":[],"system_rate":{"LOC":0.5}}]}'
}

@test "names in TOP are escaped in the table and valid in JSON" {
	make_root --cpus 2 --irq $'24=a\033[2Jb' --affinity 0
	run --separate-stderr -0 irqaff cpus -n -o top 0
	assert_output 'a\033[2Jb(24)'
	run --separate-stderr -0 irqaff cpus -J -o top 0
	assert_output '{"cpus":[{"top":[{"irq":24,"name":"a\u001b[2Jb","count":250000}]}]}'
}

@test "cpus refuses bad input with status 2" {
	make_root --cpus 4 --irq 24=a
	run --separate-stderr -2 irqaff cpus 9
	assert_equal "$stderr" 'irqaff: CPU list "9": CPU 9 is beyond the last possible CPU 3'
	run --separate-stderr -2 irqaff cpus -o cpu,bogus
	assert_equal "${stderr%%$'\n'*}" 'irqaff: cpus: unknown column "bogus"'
	run --separate-stderr -2 irqaff cpus 0 1
	assert_equal "${stderr%%$'\n'*}" 'irqaff: cpus: expected at most one CPU set'
}

@test "a header naming no possible CPU is an error, not a guess" {
	make_root --cpus 4 --irq 24=a
	sed -i '1s/CPU3/CPU9/' "$ROOT/proc/interrupts"
	run --separate-stderr -1 irqaff cpus
	assert_equal "$stderr" "irqaff: $ROOT/proc/interrupts: no CPU header naming possible CPUs"
	assert_output ''
	# a blank first line names none at all: the same, for show too
	sed -i '1s/.*/   /' "$ROOT/proc/interrupts"
	run --separate-stderr -1 irqaff cpus
	assert_equal "$stderr" "irqaff: $ROOT/proc/interrupts: no CPU header naming possible CPUs"
	assert_output ''
	run --separate-stderr -1 irqaff show -o irq,total
	assert_equal "$stderr" "irqaff: $ROOT/proc/interrupts: no CPU header"
}

@test "a header naming a CPU twice is an error for cpus; show's TOTAL still sums the row" {
	# show_interrupts() prints each online CPU once, in order: a repeated
	# column cannot be mapped to CPUs, but a row's sum does not need that
	make_root --cpus 2 --irq 30=a --no-sysirq
	sed -i '1s/CPU1/CPU0/' "$ROOT/proc/interrupts"
	run --separate-stderr -1 irqaff cpus
	assert_equal "$stderr" "irqaff: $ROOT/proc/interrupts: no CPU header naming possible CPUs"
	assert_output ''
	run --separate-stderr -0 irqaff show -n -o IRQ,TOTAL 30
	assert_output '30 620001'
}

@test "cpus -i: a count added during the interval is that CPU's RATE" {
	make_root --cpus 4 --irq 24=a --affinity 1 --irq 25=b --affinity 2
	snapshot_interrupts "$BATS_TEST_TMPDIR/before"
	add_count 24 2 1000
	# 1000 interrupts over an interval of one second
	run --separate-stderr -0 sampled -n -o cpu,rate,top -i 1
	assert_output '0    0.0 -
1 1000.0 a(24)
2    0.0 -
3    0.0 -'
	assert_equal "$(irqaff cpus -n -o cpu,total 1)" '1 511002'
}

@test "cpus -i -c: one block or JSON object per sample, with its time" {
	make_root --cpus 2 --irq 24=a --affinity 1
	run --separate-stderr -0 irqaff cpus -i 0.1 -c 2 -o cpu,rate
	assert_equal "${#lines[@]}" 8
	assert_line --index 0 --regexp '^20[0-9]{2}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$'
	assert_line --index 1 'CPU RATE'
	assert_line --index 2 '  0  0.0'
	assert_line --index 4 --regexp '^20[0-9]{2}-'
	run --separate-stderr -0 irqaff cpus -J -i 0.1 -c 2 -o cpu,rate,top 1
	assert_equal "${#lines[@]}" 2
	assert_line --index 0 --regexp '^\{"time":"20[0-9-]{8}T[0-9:]{8}Z","interval":[0-9]+\.[0-9]{3},"cpus":\[\{"cpu":1,"rate":0\.0,"top":\[\]\}\]\}$'
}

@test "cpus -c and RATE need -i; a bad interval is status 2" {
	make_root --cpus 2 --irq 24=a
	local arg
	run --separate-stderr -2 irqaff cpus -c 2
	assert_equal "${stderr%%$'\n'*}" 'irqaff: cpus: --count needs -i or --sample-from'
	run --separate-stderr -2 irqaff cpus -o cpu,rate
	assert_equal "${stderr%%$'\n'*}" 'irqaff: cpus: RATE needs -i'
	for arg in 0 -1 x 1e9 nan inf 1s 0x10 1e-300 0.0009 +1 ' 1' 1, . '' \
		86400.001; do
		run --separate-stderr -2 irqaff cpus -i "$arg"
		assert_equal "${stderr%%$'\n'*}" "irqaff: cpus: interval \"$arg\" is not a decimal number of seconds from 0.001 to 86400"
	done
	run --separate-stderr -2 irqaff cpus -i 1 -c 0
	assert_equal "${stderr%%$'\n'*}" 'irqaff: cpus: count "0" is too small'
}

@test "an empty nohz_full, \"(null)\" padded to 16 columns, is read as no CPU" {
	local cmd
	make_root --cpus 16 --nic eth0:2 --irq 30=a --affinity 3
	assert_equal "$(<"$ROOT/sys/devices/system/cpu/nohz_full")" \
		'          (null)'
	for cmd in 'cpus' 'show' 'explain' 'isolate --check 3'; do
		run --separate-stderr irqaff $cmd
		assert_equal "$cmd: $stderr" "$cmd: "
	done
	# no CPU is left out of spread's pool as nohz_full
	run --separate-stderr -0 irqaff spread -n -c 0-3 30
	assert_equal "$stderr" 'irqaff: spreading 1 IRQ over CPU 0-3: 0-3 as asked'
	run --separate-stderr -0 irqaff cpus -o CPU,STATE 3
	assert_output $'CPU STATE\n  3 online'
}

@test "a shut-down managed IRQ's offline effective CPU is not counted" {
	# kernel/irq/cpuhotplug.c: nvme0q4's CPU 3 went offline; the IRQ is
	# shut down and effective_affinity still reads 3
	make_root --cpus 4 --offline 3 --irq 30=nvme0q4 --affinity 3 \
		--managed 30 --irq 31=a --affinity 2
	assert_equal "$(<"$(irq_dir 30)/effective_affinity_list")" 3
	run --separate-stderr -0 irqaff cpus -o CPU,STATE,IRQS 2-3
	assert_output $'CPU STATE   IRQS\n  2 online     1\n  3 offline    0'
	run --separate-stderr -0 irqaff show -o IRQ,AFFINITY,EFFECTIVE 30-31
	assert_output $'IRQ AFFINITY EFFECTIVE\n 30 3        -\n 31 2        2'
	run --separate-stderr -1 irqaff show -n cpu:3
	assert_output ""
	run --separate-stderr -1 irqaff isolate --check 3
	assert_output 'default: default_smp_affinity 0-3 includes CPU 3: new IRQs start there
CPU 3: not isolated from interrupts'
}

@test "an IRQ user space moves, left on an offline CPU, is counted on none" {
	# an effective CPU that went offline before the kernel moved the IRQ
	make_root --cpus 4 --offline 3 --irq 24=a --affinity 0-3 --effective 3 \
		--irq 25=b --affinity 1
	run --separate-stderr -0 irqaff cpus -o CPU,STATE,IRQS
	assert_output $'CPU STATE   IRQS\n  0 online     0\n  1 online     1\n  2 online     0\n  3 offline    0'
	run --separate-stderr -0 irqaff show -o irq,name cpu:0-3
	assert_output $'IRQ NAME\n 25 b'
}

@test "cpus -i: a count that wrapped at 2^32 is counted modulo 2^32, over the interval" {
	make_root --cpus 4 --irq 24=a --affinity 1 --irq 25=b --affinity 2
	add_count 24 2 =4294967290
	snapshot_interrupts "$BATS_TEST_TMPDIR/before"
	# 1000 more: 4294968290 modulo 2^32
	add_count 24 2 1000
	# 1000 interrupts over two seconds
	run --separate-stderr -0 sampled -n -o cpu,rate,top -i 2 0-1
	assert_output $'0   0.0 -\n1 500.0 a(24)'
}

@test "cpus -i: a count that went down (the IRQ set up again) adds no rate and no TOP" {
	make_root --cpus 4 --irq 24=a --affinity 1 --irq 25=b --affinity 1
	add_count 25 2 =500000
	snapshot_interrupts "$BATS_TEST_TMPDIR/before"
	# 25 freed and requested again restarts at 10; 24 counts 1000 more
	add_count 25 2 =10 24 2 1000
	run --separate-stderr -0 sampled -n -o cpu,rate,top -i 2 0-1
	assert_output $'0   0.0 -\n1 500.0 a(24)'
}

@test "cpus -i: an IRQ freed during the interval has no rate, not a negative one" {
	make_root --cpus 4 --irq 24=a --affinity 1 --irq 25=b --affinity 2
	snapshot_interrupts "$BATS_TEST_TMPDIR/before"
	# 25 freed, and 26 requested: neither is a rate
	sed -i -e '/^ 25:/d' -e 's/^ 24:\(.*\) a$/ 24:\1 a\n 26:\1 c/' \
		"$ROOT/proc/interrupts"
	run --separate-stderr -0 sampled -n -o cpu,rate -i 1
	assert_output - <<'EOF2'
0 0.0
1 0.0
2 0.0
3 0.0
EOF2
}

@test "cpus -i: a CPU that came online during the interval has no rate" {
	make_root --cpus 4 --offline 3 --irq 24=a --affinity 1 --irq 25=b \
		--affinity 2
	make_root --dir "$BATS_TEST_TMPDIR/online" --cpus 4 --irq 24=a \
		--affinity 1 --irq 25=b --affinity 2
	export ROOT=$BATS_TEST_TMPDIR/root IRQAFF_ROOT=$BATS_TEST_TMPDIR/root
	snapshot_interrupts "$BATS_TEST_TMPDIR/before"
	cat "$BATS_TEST_TMPDIR/online/proc/interrupts" >"$ROOT/proc/interrupts"
	run --separate-stderr -0 sampled -n -o cpu,total,rate -i 1
	assert_line --index 3 '3 510006   -'
	run --separate-stderr -0 sampled -J -o cpu,rate -i 1 3
	run jq -c '.cpus' <<<"$output"
	assert_output '[{"cpu":3,"rate":null}]'
}

@test "cpus -i and show -i: rates exact whether the first read's rows are kept packed or 4 bytes a count" {
	# the first read is kept a byte a count where counts are near their
	# left neighbours (25), in several bytes where they are farther,
	# either way (26; 27 and 28 by 2^32 - 1), and 4 bytes a count where
	# packing would take more (24); the counts changed are in each, three
	# wrapping at 2^32
	make_root --cpus 8 --irq 24=a --affinity 0 --irq 25=b --affinity 1 \
		--irq 26=c --affinity 2 --irq 27=d --affinity 3 \
		--irq 28=e --affinity 4
	local c v=(1000 900 100000 5 70000 0 128 64)
	for c in {1..8}; do
		add_count 24 "$c" "=$(((c % 2) ? 0 : 4294967295))" 25 "$c" =7 \
			26 "$c" "=${v[c - 1]}" 27 "$c" "=$((c == 8 ? 4294967295 : 0))" \
			28 "$c" "=$((c == 1 ? 4294967295 : 0))"
	done
	snapshot_interrupts "$BATS_TEST_TMPDIR/before"
	add_count 24 2 1000 25 3 2000 26 5 3000 26 8 400 27 8 500 28 1 600
	run --separate-stderr -0 sampled -n -o cpu,rate -i 1
	assert_output - <<'EOF2'
0  600.0
1 1000.0
2 2000.0
3    0.0
4 3000.0
5    0.0
6    0.0
7  900.0
EOF2
	run --separate-stderr -0 irqaff show -n -o irq,rate -i 1 \
		--sample-from "$BATS_TEST_TMPDIR/before" \
		--sample-from "$ROOT/proc/interrupts"
	assert_output - <<'EOF2'
24 1000.0
25 2000.0
26 3400.0
27  500.0
28  600.0
EOF2
}

@test "cpus -i takes decimal seconds: 0.05, .05 and 0.050 alike" {
	make_root --cpus 2 --irq 24=a
	local arg
	for arg in 0.05 .05 0.050; do
		run --separate-stderr -0 irqaff cpus -i "$arg" -o cpu 0
		assert_equal "$stderr" ""
	done
}

@test "cpus --irqs: one IRQ's counts per CPU, and IRQS counts only it" {
	make_root --cpus 4 --isolated 3 --nohz-full 2-3 --offline 1 \
		--irq 24=a --affinity 0 --irq 25=b --affinity 2-3 --irq 26
	run --separate-stderr -0 irqaff cpus -o cpu,irqs,total,top --irqs 25
	assert_output 'CPU IRQS  TOTAL TOP
  0    0 260000 b(25)
  1    0      - -
  2    0 260002 b(25)
  3    1 260003 b(25)'
	assert_equal "$stderr" ''
	# an IRQ list as everywhere: a glob and a number
	run --separate-stderr -0 irqaff cpus -n -o cpu,total --irqs b,26 2-3
	assert_output '2 530004
3 530006'
	run --separate-stderr -0 irqaff cpus -J -o cpu,total --irqs 24
	assert_output '{"cpus":[{"cpu":0,"total":250000},{"cpu":1,"total":null},{"cpu":2,"total":250002},{"cpu":3,"total":250003}]}'
	# a question: an IRQ that does not exist counts nothing, with a note,
	# and the status is 1, as grep's
	run --separate-stderr -1 irqaff cpus -n -o cpu,total --irqs 99 0
	assert_output '0 0'
	assert_equal "$stderr" 'irqaff: note: IRQ 99 does not exist'
	run --separate-stderr -2 irqaff cpus --irqs 'x,,'
	assert_output ''
	assert_equal "$stderr" 'irqaff: IRQ list "x,,": empty item'
}

# set_row IRQ COUNT...: IRQ's row of proc/interrupts with these counts,
# each " %10s" as show_interrupts() prints them (a COUNT may be any text),
# the rest of the row as it was.
set_row() {
	local irq=$1 f=$ROOT/proc/interrupts
	shift
	awk -v irq="$irq" -v counts="$*" -v n=$# '$1 == irq ":" {
		split(counts, c, " ")
		line = sprintf("%3d:", irq)
		for (i = 1; i <= n; i++)
			line = line sprintf(" %10s", c[i])
		print line substr($0, 5 + 11 * n)
		next
	} { print }' "$f" >"$f.new" && mv "$f.new" "$f"
}

@test "ten-digit counts are summed exactly over 15, 16 and 17 columns (the 16-column blocks and the fields after them)" {
	# lib/fields.c sums blocks of 16 fields a digit place at a time:
	# 16 columns are one block, 15 none, 17 one and a field; every
	# count here has a digit in the thousand-million place
	local n c want total
	for n in 15 16 17; do
		rm -rf "$BATS_TEST_TMPDIR/root"
		make_root --cpus "$n" --irq 24=a --irq 25=b --no-sysirq
		local -a a=() b=()
		for ((c = 0; c < n; c++)); do
			a+=(4294967295) b+=($((1000000000 + c * 100000001)))
		done
		set_row 24 "${a[@]}"
		set_row 25 "${b[@]}"
		run --separate-stderr -0 irqaff show -n -o irq,total 24-25
		assert_output "24 $((n * 4294967295))
25 $((n * 1000000000 + n * (n - 1) / 2 * 100000001))"
		assert_equal "$stderr" ''
		want=''
		for ((c = 0; c < n; c++)); do
			total=$((4294967295 + 1000000000 + c * 100000001))
			printf -v want '%s%2d %10d\n' "$want" "$c" "$total"
		done
		run --separate-stderr -0 irqaff cpus -n -o cpu,total
		assert_output "${want%$'\n'}"
	done
}

@test "a count past 2^32-1 in the 16th column of 16 is refused; 2^32-1 is summed" {
	local v
	make_root --cpus 16 --irq 24=a --irq 25=b --no-sysirq
	set_row 24 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 4294967295
	run --separate-stderr -0 irqaff show -n -o irq,total 24
	assert_output "24 $((15 + 4294967295))"
	run --separate-stderr -0 irqaff cpus -n -o cpu,total 15
	assert_output "15 $((4294967295 + 260015))"
	for v in 4294967296 9999999999; do
		set_row 24 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 "$v"
		run --separate-stderr -0 irqaff show -n -o irq,total 24
		assert_output '24 -'
		assert_equal "$stderr" "irqaff: $ROOT/proc/interrupts: IRQ 24: a count wider than 32 bits; its TOTAL is unknown"
		run --separate-stderr -0 irqaff cpus -n -o cpu,total 15
		assert_output '15 260015'
		assert_equal "$stderr" "irqaff: $ROOT/proc/interrupts: IRQ 24: a count wider than 32 bits; its row is left out"
	done
}

@test "cpus SYSTEM follows the first 64 row names; a 65th is left out" {
	make_root --cpus 2 --irq 24=a --no-sysirq
	{
		printf '           CPU0       CPU1\n'
		for ((i = 0; i < 65; i++)); do
			printf 'S%02d: %10d %10d   row %d\n' "$i" "$i" $((1000 + i)) "$i"
		done
	} >"$ROOT/proc/interrupts"
	run --separate-stderr -0 irqaff cpus -J -o cpu,system
	run jq -c '[.cpus[] | [.cpu, (.system | length), .system.S00, .system.S63, .system.S64]]' <<<"$output"
	assert_output '[[0,64,0,63,null],[1,64,1000,1063,null]]'
}

@test "a row spaced by hand, read a number at a time: 2^32-1 is a count, 2^32 is refused" {
	make_root --cpus 2 --irq 24=a --no-sysirq
	printf '%s\n' '  CPU0 CPU1' ' 24: 4294967295 1 IO-APIC 1-edge a' \
		>"$ROOT/proc/interrupts"
	run --separate-stderr -0 irqaff cpus -n -o cpu,total
	assert_output $'0 4294967295\n1          1'
	assert_equal "$stderr" ''
	printf '%s\n' '  CPU0 CPU1' ' 24: 4294967296 1 IO-APIC 1-edge a' \
		>"$ROOT/proc/interrupts"
	run --separate-stderr -0 irqaff cpus -n -o cpu,total
	assert_output $'0 0\n1 0'
	assert_equal "$stderr" "irqaff: $ROOT/proc/interrupts: IRQ 24: a count wider than 32 bits; its row is left out"
	# a count glued to text is no count: the row is not the kernel's
	printf '%s\n' '  CPU0 CPU1' ' 24: 5x 1 IO-APIC 1-edge a' \
		>"$ROOT/proc/interrupts"
	run --separate-stderr -0 irqaff cpus -n -o cpu,total
	assert_output $'0 0\n1 0'
	# nor is a number without its colon an IRQ's row
	printf '%s\n' '  CPU0 CPU1' ' 24 5 1 IO-APIC 1-edge a' \
		>"$ROOT/proc/interrupts"
	run --separate-stderr -0 irqaff cpus -n -o cpu,total
	assert_output $'0 0\n1 0'
}

@test "TOP ranks 10^8 above 10^8-1 in rows read number by number as in the kernel's widths, the earlier IRQ first among equals" {
	# a row spaced by hand is read a number at a time and ranked by
	# fields_count_key(), a row in the kernel's widths by its fields:
	# the two keys must order alike, 8 digits or more
	make_root --cpus 2 --irq 24=a --irq 25=b --irq 26=c --irq 27=d \
		--no-sysirq
	set_row 24 99999999 100000000
	awk '$1 == "25:" { $2 = 99999999; $3 = 99999998 }
		$1 == "26:" { $2 = 100000000; $3 = 99999999 }
		$1 == "27:" { $2 = 99999998; $3 = 100000000 } { print }' \
		"$ROOT/proc/interrupts" >"$BATS_TEST_TMPDIR/int"
	cp "$BATS_TEST_TMPDIR/int" "$ROOT/proc/interrupts"
	run --separate-stderr -0 irqaff cpus -o cpu,top
	assert_output 'CPU TOP
  0 c(26) a(24) b(25)
  1 a(24) d(27) c(26)'
	assert_equal "$stderr" ''
	run --separate-stderr -0 irqaff cpus -J -o cpu,top
	assert_output '{"cpus":[{"cpu":0,"top":[{"irq":26,"name":"c","count":100000000},{"irq":24,"name":"a","count":99999999},{"irq":25,"name":"b","count":99999999}]},{"cpu":1,"top":[{"irq":24,"name":"a","count":100000000},{"irq":27,"name":"d","count":100000000},{"irq":26,"name":"c","count":99999999}]}]}'
}

@test "a header naming CPU N of N possible CPUs is refused; CPU N-1 is read" {
	# header_words(): each CPU below the limit, or it would index past
	# the end of the column map (an ASan build shows that write)
	make_root --cpus 4 --offline 2 --irq 24=a --no-sysirq
	assert_equal "$(head -n 1 "$ROOT/proc/interrupts" | awk '{ print $NF }')" CPU3
	run --separate-stderr -0 irqaff cpus -n -o cpu,total 3
	assert_output '3 250003'
	sed -i '1s/CPU3/CPU4/' "$ROOT/proc/interrupts"
	run --separate-stderr -1 irqaff cpus -n -o cpu,total
	assert_output ''
	assert_equal "$stderr" "irqaff: $ROOT/proc/interrupts: no CPU header naming possible CPUs"
}

# dump NAME: a root whose proc/interrupts is that real dump, all CPUs online
dump() {
	ROOT=$BATS_TEST_TMPDIR/$1
	mkdir -p "$ROOT/proc/irq" "$ROOT/sys/devices/system/cpu"
	grep -v '^#' "$BATS_TEST_DIRNAME/../fixtures/interrupts/$1.txt" \
		>"$ROOT/proc/interrupts"
	echo "0-$2" >"$ROOT/sys/devices/system/cpu/possible"
	echo "0-$2" >"$ROOT/sys/devices/system/cpu/online"
}

@test "cpus SYSTEM: the rows without an IRQ, per CPU, from real x86 and arm64 dumps" {
	dump x86_64-kvm-qemu-guest-virtio 0
	run --separate-stderr -0 irqaff --root "$ROOT" cpus -o cpu,total,system
	assert_output $'CPU TOTAL SYSTEM\n  0  9876 3306 LOC'
	# ERR: and MIS:, a count for no CPU, are left out
	run --separate-stderr -0 irqaff --root "$ROOT" cpus -J -o cpu,system
	assert_output '{"cpus":[{"cpu":0,"system":{"NMI":0,"LOC":3306,"SPU":0,"PMI":0,"IWI":0,"RTR":0,"RES":0,"CAL":0,"TLB":0}}]}'
	dump arm64-rk3399-gicv3 5
	run --separate-stderr -0 irqaff --root "$ROOT" cpus -n -o cpu,system 0-1
	assert_output $'0 9072996 IPI4\n1 37200545 IPI0'
	run --separate-stderr -0 irqaff --root "$ROOT" cpus -J -o system 1
	assert_output '{"cpus":[{"system":{"IPI0":29367897,"IPI1":79148,"IPI2":0,"IPI3":0,"IPI4":7612504,"IPI5":140996,"IPI6":0}}]}'
}

@test "cpus SYSTEM: a row without an IRQ is a CPU's only with a count for each CPU and a description" {
	make_root --cpus 2 --no-sysirq --irq 24=a
	printf '%s\n' '           CPU0       CPU1' \
		'LOC:        100        200   Local timer interrupts' \
		'XYZ:          7   one count' \
		'ERR:          3' \
		'ONE:          1          2   word' >"$ROOT/proc/interrupts"
	# a one-word description is read as a chip's name: it counts
	run --separate-stderr -0 irqaff cpus -J -o cpu,system
	assert_output '{"cpus":[{"cpu":0,"system":{"LOC":100,"ONE":1}},{"cpu":1,"system":{"LOC":200,"ONE":2}}]}'
}

@test "cpus -i SYSTEM: rates of the rows without an IRQ; a name new in the second read has none" {
	make_root --cpus 2 --no-sysirq --irq 24=a
	printf '%s\n' '           CPU0       CPU1' \
		'LOC:        100        200   Local timer interrupts' \
		'RES:          5          5   Rescheduling interrupts' >"$BATS_TEST_TMPDIR/a"
	printf '%s\n' '           CPU0       CPU1' \
		'LOC:        300        201   Local timer interrupts' \
		'RES:          9          5   Rescheduling interrupts' \
		'CAL:          7          7   Function call interrupts' >"$BATS_TEST_TMPDIR/b"
	run --separate-stderr -0 irqaff cpus -i 2 -n -o cpu,system \
		--sample-from "$BATS_TEST_TMPDIR/a" --sample-from "$BATS_TEST_TMPDIR/b"
	assert_output $'0 102.0 LOC\n1 0.5 LOC'
	# rates under their own key: "system" holds counts only (issue 50)
	run --separate-stderr -0 irqaff cpus -i 2 -J -o cpu,system 0 \
		--sample-from "$BATS_TEST_TMPDIR/a" --sample-from "$BATS_TEST_TMPDIR/b"
	assert_equal "${output/\"time\":\"*\",\"interval/\"time\":T,\"interval}" \
		'{"time":T,"interval":2.000,"cpus":[{"cpu":0,"system_rate":{"LOC":100.0,"RES":2.0,"CAL":null}}]}'
}

@test "cpus -i -o +system adds to the default, RATE kept; no count is 0, not \"0.0 NMI\"" {
	make_root --cpus 2 --no-sysirq --irq 24=a
	printf '%s\n' '           CPU0       CPU1' \
		' 24:         10          0   IO-APIC   24-edge      a' \
		'NMI:          0          0   Non-maskable interrupts' \
		'LOC:        100        200   Local timer interrupts' >"$BATS_TEST_TMPDIR/a"
	printf '%s\n' '           CPU0       CPU1' \
		' 24:         30          0   IO-APIC   24-edge      a' \
		'NMI:          0          0   Non-maskable interrupts' \
		'LOC:        300        200   Local timer interrupts' >"$BATS_TEST_TMPDIR/b"
	run --separate-stderr -0 irqaff cpus -i 2 -o +system \
		--sample-from "$BATS_TEST_TMPDIR/a" --sample-from "$BATS_TEST_TMPDIR/b"
	assert_line --index 0 --regexp '^CPU NODE STATE +IRQS TOTAL RATE TOP +SYSTEM$'
	assert_line --index 1 --regexp ' 10\.0 .* 100\.0 LOC$'
	assert_line --index 2 --regexp ' 0\.0 .* 0$'
	# counts, not rates: a CPU with none says 0, naming no row
	printf '%s\n' '           CPU0       CPU1' \
		' 24:         10          0   IO-APIC   24-edge      a' \
		'NMI:          0          0   Non-maskable interrupts' \
		'LOC:        100          0   Local timer interrupts' >"$ROOT/proc/interrupts"
	run --separate-stderr -0 irqaff cpus -n -o cpu,system
	assert_output $'0 100 LOC\n1 0'
}

@test "cpus --help: TOTAL counts the numbered rows and points to SYSTEM for the others" {
	run -0 --separate-stderr irqaff cpus --help
	run -0 sed -n '/^Columns/,/^$/p' <<<"$output"
	assert_output 'Columns (-o; +LIST adds to the default: all but SYSTEM, which JSON has
unasked; RATE with -i only):
  CPU     CPU number
  NODE    NUMA node
  STATE   online or offline, isolated, nohz_full
  IRQS    IRQs whose effective CPUs include it
  TOTAL   interrupts it handled in numbered rows (others: SYSTEM)
  RATE    interrupts per second over the interval (-i)
  TOP     its busiest IRQs, NAME(IRQ) each; by rate with -i
  SYSTEM  rows with no IRQ (LOC, RES, IPI0...): sum and busiest'
	# the page says it too
	run -0 grep -A4 '^\*TOTAL\*$' "$BATS_TEST_DIRNAME/../../man/irqaff-cpus.8.scd"
	assert_line --partial 'rows without an IRQ number, NMI, LOC, RES'
	assert_line --partial 'are in *SYSTEM*'
}

# issue 52's pins: rows cpus must not take for an IRQ's, and a system
# count that wraps

@test "cpus -i counts a row numbered INT_MAX as an IRQ's, and not one numbered past it" {
	make_root --cpus 4 --irq 24=a --affinity 1 --irq 25=b --affinity 2
	local n a=$BATS_TEST_TMPDIR/a b=$BATS_TEST_TMPDIR/b
	snapshot_interrupts "$a"
	add_count 24 2 100
	snapshot_interrupts "$b"
	cp "$a" "$a.0"
	cp "$b" "$b.0"
	for n in 2147483647 2147483648 4294967296; do
		cp "$a.0" "$a"
		cp "$b.0" "$b"
		sed -i "/^NMI:/i\\$n:          0          0          0          0   IO-APIC   9-fasteoi   big" "$a"
		sed -i "/^NMI:/i\\$n:          0        500          0          0   IO-APIC   9-fasteoi   big" "$b"
		run --separate-stderr -0 irqaff cpus -n -o cpu,total,rate,top \
			-i 1 --sample-from "$a" --sample-from "$b"
		assert_equal "$stderr" ''
		if ((n == 2147483647)); then
			assert_output '0 510000   0.0 -
1 510602 600.0 a(24)
2 510004   0.0 -
3 510006   0.0 -'
		else
			assert_output '0 510000   0.0 -
1 510102 100.0 a(24)
2 510004   0.0 -
3 510006   0.0 -'
		fi
	done
}

@test "cpus -i follows each IRQ's row once: a repeated row adds no rate" {
	make_root --cpus 4 --irq 24=a --affinity 1 --irq 25=b --affinity 2
	local a=$BATS_TEST_TMPDIR/a b=$BATS_TEST_TMPDIR/b
	snapshot_interrupts "$a"
	add_count 24 2 100
	snapshot_interrupts "$b"
	run --separate-stderr -0 irqaff cpus -n -o cpu,rate -i 1 \
		--sample-from "$a" --sample-from "$b"
	assert_output $'0   0.0\n1 100.0\n2   0.0\n3   0.0'
	# not the kernel's: the same row twice in both reads
	sed -i '/^ *24:/p' "$a" "$b"
	run --separate-stderr -0 irqaff cpus -n -o cpu,rate -i 1 \
		--sample-from "$a" --sample-from "$b"
	assert_output $'0   0.0\n1 100.0\n2   0.0\n3   0.0'
}

@test "cpus -i SYSTEM: a 32-bit system count that wrapped has no rate, never 1.8e19; one that reached 2^32 - 1 has its own" {
	make_root --cpus 2 --no-sysirq --irq 24=a
	printf '%s\n' '           CPU0       CPU1' \
		'LOC: 4294967290        200   Local timer interrupts' \
		'RES:          5          5   Rescheduling interrupts' >"$BATS_TEST_TMPDIR/a"
	printf '%s\n' '           CPU0       CPU1' \
		'LOC: 4294967295        300   Local timer interrupts' \
		'RES:          9          5   Rescheduling interrupts' >"$BATS_TEST_TMPDIR/b"
	run --separate-stderr -0 irqaff cpus -i 1 -n -o cpu,system \
		--sample-from "$BATS_TEST_TMPDIR/a" --sample-from "$BATS_TEST_TMPDIR/b"
	assert_output $'0 9.0 LOC\n1 100.0 LOC'
	assert_equal "$stderr" ''
	# 16 more on CPU 0: LOC wrapped to 10
	sed -i 's/^LOC: 4294967295 /LOC:         10 /' "$BATS_TEST_TMPDIR/b"
	run --separate-stderr -0 irqaff cpus -i 1 -n -o cpu,system \
		--sample-from "$BATS_TEST_TMPDIR/a" --sample-from "$BATS_TEST_TMPDIR/b"
	assert_output $'0 4.0 RES\n1 100.0 LOC'
	run --separate-stderr -0 irqaff cpus -i 1 -J -o cpu,system 0 \
		--sample-from "$BATS_TEST_TMPDIR/a" --sample-from "$BATS_TEST_TMPDIR/b"
	assert_equal "${output/\"time\":\"*\",\"interval/\"time\":T,\"interval}" \
		'{"time":T,"interval":1.000,"cpus":[{"cpu":0,"system_rate":{"LOC":null,"RES":4.0}}]}'
}
