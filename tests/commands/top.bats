#!/usr/bin/env bats
# irqaff top: the live view. Reads come from saved copies of
# proc/interrupts (--sample-from), so every rate is exact; the screen is
# captured from a pseudo-terminal (script(1)), its bytes checked.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	export TZ=UTC
}

# stamped FILE: FILE's time, the heading of the screen read from it.
stamped() {
	touch -d '2026-01-02 03:04:05 UTC' "$1"
}

# two_reads: a first read in $BATS_TEST_TMPDIR/before, the tree's
# proc/interrupts the second, one second apart (-i 1 in the calls).
two_reads() {
	snapshot_interrupts "$BATS_TEST_TMPDIR/before"
	"$@"
	stamped "$ROOT/proc/interrupts"
}

sampled() {
	irqaff top --sample-from "$BATS_TEST_TMPDIR/before" \
		--sample-from "$ROOT/proc/interrupts" -i 1 "$@"
}

# on_pty COLS ROWS CMD...: CMD on a terminal of that size; its screen,
# escapes made visible (cat -v), carriage returns and all.
on_pty() {
	local cols=$1 rows=$2
	shift 2
	script -qec "stty cols $cols rows $rows; $*" /dev/null | cat -v
}

busy_tree() {
	make_root --cpus 4 --irq 24=eth0-rx --affinity 1 \
		--irq 25=eth0-tx --affinity 2-3 --irq 26=ahci --affinity 0
	two_reads add_count 24 2 1000 25 3 10 25 4 5
}

# field N: the Nth field of the table's rows, space-joined.
field() {
	printf '%s\n' "${lines[@]:5}" | awk -v n="$1" '{ print $n }' | paste -sd' '
}

@test "top: one screen, exact: CPU rates, the busiest IRQ first, its CPUs" {
	busy_tree
	sed -i 's/^LOC: .*/LOC:       1100       2000       3300       4000   Local timer interrupts/' \
		"$ROOT/proc/interrupts"
	stamped "$ROOT/proc/interrupts"
	run --separate-stderr -0 sampled
	assert_output '2026-01-02 03:04:05  over 1.00 s  1415.0 interrupts/s on 4 CPUs
CPU           0      1      2      3
IRQS/s      0.0 1000.0   10.0    5.0
SYSTEM/s  100.0    0.0  300.0    0.0

IRQ   RATE   TOTAL AFFINITY EFFECTIVE NAME
 24 1000.0 1001006 1        1         eth0-rx
 25   15.0 1040021 2-3      3         eth0-tx'
	assert_equal "$stderr" ''
}

@test "top follows each IRQ's row once: a repeated row (not the kernel's) is not counted again" {
	busy_tree
	sed -i '/^ *24:/p' "$BATS_TEST_TMPDIR/before" "$ROOT/proc/interrupts"
	stamped "$ROOT/proc/interrupts"
	run --separate-stderr -0 sampled
	assert_line --index 0 '2026-01-02 03:04:05  over 1.00 s  1015.0 interrupts/s on 4 CPUs'
	assert_line --index 2 'IRQS/s      0.0 1000.0   10.0    5.0'
	assert_equal "$(field 1)" '24 25'
}

@test "top -a shows the idle IRQs too; -s orders by rate, total, irq or name" {
	busy_tree
	local k
	run --separate-stderr -0 sampled
	assert_equal "$(field 1)" '24 25'
	for k in rate:'24 25 26' total:'26 25 24' irq:'24 25 26' \
		name:'26 24 25'; do
		run --separate-stderr -0 sampled -a -s "${k%%:*}"
		assert_equal "$(field 1)" "${k#*:}"
	done
	run --separate-stderr -0 sampled -s name
	assert_equal "$(field 6)" 'eth0-rx eth0-tx'
}

@test "top: equal rates in IRQ order, one interrupt more first" {
	make_root --cpus 2 --irq 24=a --irq 25=b --irq 26=c
	two_reads add_count 24 1 7 25 2 7 26 1 7
	run --separate-stderr -0 sampled
	assert_equal "$(field 1)" '24 25 26'
	two_reads add_count 24 1 7 25 2 7 26 1 8
	run --separate-stderr -0 sampled
	assert_equal "$(field 1)" '26 24 25'
	assert_equal "$(field 2)" '8.0 7.0 7.0'
}

# count_in FILE IRQ VALUE: IRQ's first count in the copy FILE set to
# VALUE, in the kernel's width (" %10u").
count_in() {
	sed -i "s/^ *$2:  *[0-9]*/$(printf '%4s %10s' "$2:" "$3")/" "$1"
}

@test "top: a count that went down by 2^31 or more is a reset, not interrupts" {
	make_root --cpus 2 --irq 24=a --affinity 0
	two_reads true
	# now 250000 on CPU 0: 2^31 - 1 before it, modulo 2^32
	count_in "$BATS_TEST_TMPDIR/before" 24 2147733649
	run --separate-stderr -0 sampled
	assert_line --index 2 'IRQS/s   2147483647.0          0.0'
	assert_equal "$(field 2)" '2147483647.0'
	# 2^31 before it: a reset
	count_in "$BATS_TEST_TMPDIR/before" 24 2147733648
	run --separate-stderr -0 sampled
	assert_line --index 2 'IRQS/s    0.0  0.0'
	assert_equal "$(field 1)" ''
	run --separate-stderr -0 sampled -a
	assert_equal "$(field 2)" '0.0'
}

@test "top: a CPU or an IRQ new in the second read has no rate yet" {
	make_root --cpus 4 --offline 3 --irq 24=a --irq 25=b --irq 26=c
	snapshot_interrupts "$BATS_TEST_TMPDIR/before"
	sed -i '/^ 26:/d' "$BATS_TEST_TMPDIR/before"
	set_online 0-3
	add_count 24 1 5 26 1 3
	stamped "$ROOT/proc/interrupts"
	run --separate-stderr -0 sampled -a
	assert_output '2026-01-02 03:04:05  over 1.00 s  5.0 interrupts/s on 4 CPUs
CPU         0    1    2    3
IRQS/s    5.0  0.0  0.0    -
SYSTEM/s  0.0  0.0  0.0    -

IRQ RATE   TOTAL AFFINITY EFFECTIVE NAME
 24  5.0 1000011 0-3      0         a
 25  0.0 1040006 0-3      1         b
 26    - 1080009 0-3      2         c'
	run --separate-stderr -0 sampled
	assert_equal "$(field 1)" '24'
}

@test "top IRQS: only those in the table; one that picks nothing is status 1" {
	busy_tree
	run --separate-stderr -0 sampled 25 26
	assert_equal "$(field 1)" '25'
	assert_line --index 2 'IRQS/s      0.0 1000.0   10.0    5.0'
	run --separate-stderr -0 sampled -a 26 eth0-tx
	assert_equal "$(field 1)" '25 26'
	run --separate-stderr -1 sampled 99
	assert_output ''
	assert_equal "$stderr" 'irqaff: note: IRQ 99 does not exist'
	run --separate-stderr -1 sampled dev:eth9
	assert_output ''
	assert_equal "$stderr" 'irqaff: note: IRQ list "dev:eth9": device eth9 has no IRQs or does not exist'
}

@test "top: names escaped; a count wider than the kernel's is said once, its row left out" {
	make_root --cpus 2 --irq 24=a
	snapshot_interrupts "$BATS_TEST_TMPDIR/before"
	printf ' 27:          1          2   IO-APIC  27-edge      x\033[2Jy\n' |
		tee -a "$BATS_TEST_TMPDIR/before" >>"$ROOT/proc/interrupts"
	printf ' 28:          1 4294967296   IO-APIC  28-edge      wide\n' |
		tee -a "$BATS_TEST_TMPDIR/before" >>"$ROOT/proc/interrupts"
	add_count 27 1 4
	run --separate-stderr -0 sampled
	assert_equal "$(field 6)" 'x\033[2Jy'
	# said once, naming the first read that had it
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/before: IRQ 28: a count wider than 32 bits; its row is left out"
	# two wide rows: the first is named
	printf ' 29:          1 4294967297   IO-APIC  29-edge      wider\n' |
		tee -a "$BATS_TEST_TMPDIR/before" >>"$ROOT/proc/interrupts"
	run --separate-stderr -0 sampled
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/before: IRQ 28: a count wider than 32 bits; its row is left out"
	sed -i -e 's/4294967296/4294967295/' -e '/^ 29:/d' \
		"$ROOT/proc/interrupts" "$BATS_TEST_TMPDIR/before"
	run --separate-stderr -0 sampled -a -s irq
	assert_equal "$(field 1)" '24 27 28'
	assert_equal "$stderr" ''
}

@test "top refuses bad input with status 2, before reading anything" {
	make_root --cpus 2 --irq 24=a
	run --separate-stderr -2 irqaff top -s busiest
	assert_equal "${stderr%%$'\n'*}" 'irqaff: top: sort key "busiest" is not rate, total, irq or name'
	run --separate-stderr -2 irqaff top --count 0
	assert_equal "${stderr%%$'\n'*}" 'irqaff: top: count "0" is too small'
	run --separate-stderr -2 irqaff top -i 0
	assert_equal "${stderr%%$'\n'*}" 'irqaff: top: interval "0" is not a decimal number of seconds from 0.001 to 86400'
	run --separate-stderr -2 irqaff top --sample-from "$ROOT/proc/interrupts"
	assert_equal "${stderr%%$'\n'*}" 'irqaff: top: --sample-from needs 2 files, one for each read; 1 given'
	run --separate-stderr -2 irqaff top 24 1-
	assert_output ''
	assert_equal "$stderr" 'irqaff: IRQ list "1-": "1-" is not an IRQ or range'
}

@test "top, not on a terminal or with -b: plain screens, a blank line between" {
	busy_tree
	cp "$ROOT/proc/interrupts" "$BATS_TEST_TMPDIR/mid"
	add_count 24 2 500
	stamped "$ROOT/proc/interrupts"
	local -a from=(--sample-from "$BATS_TEST_TMPDIR/before"
		--sample-from "$BATS_TEST_TMPDIR/mid"
		--sample-from "$ROOT/proc/interrupts")
	run --separate-stderr -0 irqaff top -i 1 --count 2 "${from[@]}"
	# bats' lines leave out the blank ones: the output itself
	assert_equal "$(sed -n '/^$/=' <<<"$output" | paste -sd' ')" '5 9 14'
	assert_equal "$(sed -n 16p <<<"$output")" \
		' 24 500.0 1001506 1        1         eth0-rx'
	run -0 on_pty 80 24 irqaff top -b -i 1 --count 2 "${from[@]}"
	refute_output --partial '^['
	assert_equal "$(sed -n 16p <<<"$output")" \
		' 24 500.0 1001506 1        1         eth0-rx^M'
}

# three_reads: reads in $BATS_TEST_TMPDIR/r0, r1 and r2 of busy_tree's
# machine, a second apart; FROM the options that read them.
three_reads() {
	busy_tree
	mv "$BATS_TEST_TMPDIR/before" "$BATS_TEST_TMPDIR/r0"
	cp "$ROOT/proc/interrupts" "$BATS_TEST_TMPDIR/r1"
	add_count 24 2 1000 25 3 10
	cp "$ROOT/proc/interrupts" "$BATS_TEST_TMPDIR/r2"
	stamped "$BATS_TEST_TMPDIR/r1"
	stamped "$BATS_TEST_TMPDIR/r2"
	FROM="-i 1 --sample-from $BATS_TEST_TMPDIR/r0"
	FROM+=" --sample-from $BATS_TEST_TMPDIR/r1"
	FROM+=" --sample-from $BATS_TEST_TMPDIR/r2"
}

# screen N: the Nth frame drawn (1 is the note before the first read),
# its lines as the terminal got them, the escapes made visible.
screen() {
	awk -v n="$1" 'BEGIN { RS = "\\^\\[\\[H" } NR == n + 1' <<<"$output"
}

@test "top on a terminal: each screen drawn in place, cut to its width" {
	three_reads
	run -0 on_pty 34 14 irqaff top --count 2 "$FROM"
	assert_equal "${output:0:16}" '^[[?25l^[[2J^[[H'
	assert_equal "$(screen 1)" 'irqaff top: rates in 1.00 s  4 CPU^[[K^M
CPU         0    1    2    3^[[K^M
IRQS/s      -    -    -    -^[[K^M
SYSTEM/s    -    -    -    -^[[K^M
IRQs by rate, busiest first  keys:^[[K^M
IRQ RATE TOTAL AFFINITY EFFECTIVE ^[[K^M
^[[J'
	assert_equal "$(screen 3)" '2026-01-02 03:04:05  over 1.00 s  ^[[K^M
CPU           0      1      2^[[K^M
IRQS/s      0.0 1000.0   10.0^[[K^M
SYSTEM/s    0.0    0.0    0.0^[[K^M
CPU           3^[[K^M
IRQS/s      0.0^[[K^M
SYSTEM/s    0.0^[[K^M
IRQs by rate, busiest first  keys:^[[K^M
IRQ   RATE   TOTAL AFFINITY EFFECT^[[K^M
 24 1000.0 1002006 1        1     ^[[K^M
 25   10.0 1040031 2-3      3     ^[[K^M
^[[J^[[?25h'
	run -0 on_pty 35 14 irqaff top --count 2 "$FROM"
	assert_equal "$(screen 3 | head -1)" \
		'2026-01-02 03:04:05  over 1.00 s  1^[[K^M'
	# without -i the interval is the copies' times, not known yet
	touch -d '2026-01-02 03:04:03 UTC' "$BATS_TEST_TMPDIR/r0"
	touch -d '2026-01-02 03:04:04 UTC' "$BATS_TEST_TMPDIR/r1"
	run -0 on_pty 80 14 irqaff top --count 2 "${FROM#-i 1 }"
	assert_equal "$(screen 1 | head -1)" \
		'irqaff top: rates at the next copy  4 CPUs^[[K^M'
	# the title is whole at 80 columns; the order and keys have a line
	assert_equal "$(screen 3 | head -1)" \
		'2026-01-02 03:04:05  over 1.00 s  1010.0 interrupts/s on 4 CPUs^[[K^M'
	assert_equal "$(screen 3 | sed -n 5p)" \
		'IRQs by rate, busiest first  keys: r rate, t total, i IRQ, n name, q quit^[[K^M'
	run -0 on_pty 80 14 irqaff top -s name --count 2 "${FROM#-i 1 }"
	assert_equal "$(screen 3 | sed -n 5p)" \
		'IRQs by name  keys: r rate, t total, i IRQ, n name, q quit^[[K^M'
}

@test "top on a terminal: CPU rows on half of the screen at most, IRQs on the rest" {
	three_reads
	run -0 on_pty 34 13 irqaff top --count 2 "$FROM"
	assert_equal "$(screen 3 | sed -n 2,5p)" 'CPU           0      1      2^[[K^M
IRQS/s      0.0 1000.0   10.0^[[K^M
SYSTEM/s    0.0    0.0    0.0^[[K^M
(and 1 more CPU: a taller window, ^[[K^M'
	# rows - 1 lines: the last row for the cursor
	run -0 on_pty 80 10 irqaff top -a --count 2 "$FROM"
	assert_equal "$(screen 3 | awk 'NF { print $1 }' | paste -sd' ')" \
		'2026-01-02 CPU IRQS/s SYSTEM/s IRQs IRQ 24 25 26 ^[[J^[[?25h'
	run -0 on_pty 80 9 irqaff top -a --count 2 "$FROM"
	assert_equal "$(screen 3 | awk 'NF { print $1 }' | paste -sd' ')" \
		'2026-01-02 CPU IRQS/s SYSTEM/s IRQs IRQ 24 25 ^[[J^[[?25h'
}

# live ARGS...: irqaff top ARGS on a terminal in the background, its
# keyboard on fd 5; then its status and the terminal's modes are
# printed. Returns once the view waits for keys (its first screen drawn).
live() {
	mkfifo "$BATS_TEST_TMPDIR/keys"
	# the shell says its process ID, the one irqaff then has
	script -qfec "stty cols 80 rows 24; sh -c 'echo pid \$\$;
		exec irqaff top $*'; echo status \$?; stty -a" /dev/null \
		<"$BATS_TEST_TMPDIR/keys" >"$BATS_TEST_TMPDIR/screen" 3>&- &
	LIVE=$!
	exec 5>"$BATS_TEST_TMPDIR/keys"
	drawn 'irqaff top: rates in'
}

# drawn TEXT: wait for TEXT on the screen, for 60 s at most.
drawn() {
	local i
	for ((i = 0; i < 1200; i++)); do
		grep -q -- "$1" "$BATS_TEST_TMPDIR/screen" && return 0
		sleep 0.05
	done
	echo "drawn: no \"$1\" on the screen" >&2
	return 1
}

# ended STATUS: the view ended with STATUS, the cursor shown again, the
# terminal's modes as they were (a line at a time, echoed).
ended() {
	exec 5>&-
	wait "$LIVE"
	run cat -v "$BATS_TEST_TMPDIR/screen"
	assert_output --regexp '\^\[\[\?25h(.*\^M)?'$'\n''?status '"$1"'\^M'
	assert_output --regexp '[^-]icanon'
	assert_output --regexp '[^-]echo '
}

@test "top on a terminal: q ends the view, the terminal as it was" {
	make_root --cpus 2 --irq 24=a
	live -i 600
	printf q >&5
	ended 0
	refute_output --partial ' over '
}

@test "top without -i samples every 2 seconds" {
	make_root --cpus 2 --irq 24=a
	live
	drawn 'irqaff top: rates in 2.00 s'
	printf q >&5
	ended 0
}

# sorted ORDER: wait for a screen whose IRQs are in ORDER.
sorted() {
	local i
	for ((i = 0; i < 1200; i++)); do
		awk 'BEGIN { RS = "\033\\[H" }
			{ o = ""; n = split($0, l, "\n")
			  for (k = 1; k <= n; k++)
				if (l[k] ~ /^ *[0-9]+ /) { split(l[k], f, " "); o = o " " f[1] }
			  print substr(o, 2) }' "$BATS_TEST_TMPDIR/screen" |
			grep -qx -- "$1" && return 0
		sleep 0.05
	done
	echo "sorted: no screen in the order $1" >&2
	return 1
}

@test "top on a terminal: r, t, i and n sort at once; other keys do nothing" {
	make_root --cpus 2 --irq 24=b --irq 25=a --irq 26=c
	# no read for 600 s: each screen after the first is drawn by a key
	live -a -i 600
	sorted '24 25 26'
	printf n >&5
	sorted '25 24 26'
	grep -q 'IRQs by name  keys: r rate' "$BATS_TEST_TMPDIR/screen"
	printf 'xt' >&5
	sorted '26 25 24'
	grep -q 'IRQs by total, largest first  keys: r rate' \
		"$BATS_TEST_TMPDIR/screen"
	printf q >&5
	ended 0
}

@test "top on a terminal: a signal ends it as any program, the terminal as it was" {
	make_root --cpus 2 --irq 24=a
	live -i 600
	kill -TERM "$(sed -n 's/^pid \([0-9]*\).*/\1/p' "$BATS_TEST_TMPDIR/screen")"
	ended 143
}

# drawn_twice TEXT: wait for a second line with TEXT on the screen.
drawn_twice() {
	local i
	for ((i = 0; i < 1200; i++)); do
		[ "$(grep -c -- "$1" "$BATS_TEST_TMPDIR/screen")" -ge 2 ] &&
			return 0
		sleep 0.05
	done
	echo "drawn_twice: \"$1\" not drawn again" >&2
	return 1
}

@test "top on a terminal: ^Z gives the terminal back while stopped, fg takes it again" {
	make_root --cpus 2 --irq 24=a
	mkfifo "$BATS_TEST_TMPDIR/keys"
	# bash -m: the view a job of its own in the foreground, as at a prompt
	script -qfec "stty cols 80 rows 24; bash -mc 'irqaff top -i 600;
		echo stopped \$?; stty -a; fg; echo status \$?'" /dev/null \
		<"$BATS_TEST_TMPDIR/keys" >"$BATS_TEST_TMPDIR/screen" 3>&- &
	LIVE=$!
	exec 5>"$BATS_TEST_TMPDIR/keys"
	drawn 'irqaff top: rates in'
	printf '\032' >&5
	drawn 'stopped 148'
	drawn_twice 'irqaff top: rates in'
	printf q >&5
	exec 5>&-
	wait "$LIVE"
	run cat -v "$BATS_TEST_TMPDIR/screen"
	# stopped: the cursor shown, a line at a time and echoed (bash 5.1
	# says "[1]+  Stopped" on a line of its own, 5.2 nothing)
	assert_equal "$(sed -n '1,/stopped 148/p' <<<"$output" |
		grep -v '^\[1\]+  *Stopped ' | tr -d '\n' | sed 's/\^M//g' |
		grep -o '.\{11\}stopped 148$')" '^[[J^[[?25hstopped 148'
	assert_equal "$(sed -n '/stopped 148/,/irqaff top -i 600^M$/p' <<<"$output" |
		grep -cE '[^-]icanon .*[^-]echo ')" 1
	# continued: hidden and drawn anew, then q ends it as before
	assert_output --regexp 'irqaff top -i 600\^M'$'\n''\^\[\[\?25l\^\[\[2J\^\[\[Hirqaff top: rates in'
	assert_equal "$(tail -n 1 <<<"$output")" '^[[J^[[?25hstatus 0^M'
}

@test "top on a terminal that says 0 by 0: LINES and COLUMNS, else 24 by 80; 1 column is 1" {
	three_reads
	run -0 on_pty 0 0 LINES=9 COLUMNS=20 irqaff top -a --count 2 "$FROM"
	assert_equal "$(screen 3 | head -1)" '2026-01-02 03:04:05 ^[[K^M'
	assert_equal "$(screen 3 | grep -c 'K^M$')" 7
	# 0 rows but 40 columns: not a size
	run -0 on_pty 40 0 LINES=9 COLUMNS=20 irqaff top -a --count 2 "$FROM"
	assert_equal "$(screen 3 | head -1)" '2026-01-02 03:04:05 ^[[K^M'
	run -0 on_pty 0 0 irqaff top -a --count 2 "$FROM"
	assert_equal "$(screen 3 | head -1)" \
		'2026-01-02 03:04:05  over 1.00 s  1010.0 interrupts/s on 4 CPUs^[[K^M'
	assert_equal "$(screen 3 | grep -c 'K^M$')" 9
	run -0 on_pty 1 9 LINES=30 COLUMNS=50 irqaff top -a --count 2 "$FROM"
	assert_equal "$(screen 3 | head -1)" '2^[[K^M'
	assert_equal "$(screen 3 | grep -c 'K^M$')" 7
}

@test "top: a count too wide in the first read only is said too, for IRQ 0 as well" {
	make_root --cpus 2 --irq 0=timer --irq 24=a
	two_reads true
	sed -i 's/^ *0: *[0-9]*/  0: 4294967296/' "$BATS_TEST_TMPDIR/before"
	# and IRQ 24 in the second: the first said, once
	sed -i 's/^ *24: *[0-9]*/ 24: 4294967296/' "$ROOT/proc/interrupts"
	run --separate-stderr -0 sampled -a
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/before: IRQ 0: a count wider than 32 bits; its row is left out"
}
