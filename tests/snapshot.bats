#!/usr/bin/env bats
# irqaff save, restore and check: the snapshot text, its round trip on the
# same tree and on a tree whose IRQs were renumbered, matching by name and
# by number, hand-written pattern lines, malformed files refused whole,
# and the irqbalance warning of set, show and restore.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper/common-setup
	_common_setup
	SNAP=$BATS_TEST_TMPDIR/snap
	WARN='irqaff: warning: irqbalance is running and may move these IRQs again; keep it off them with IRQBALANCE_BANNED_CPULIST or its --banirq option, or stop it (systemctl disable --now irqbalance)'
}

# Eight CPUs; eth0 has IRQs 40-43 and nvme0 50-52, unless FIRST IRQs are
# given: tree ETH0 NVME0 [make_root options].
tree() {
	local eth=${1:-40} nvme=${2:-50}
	shift 2 || shift $#
	make_root --cpus 8 --nic "eth0:3:0:$eth" --nvme "nvme0:2:0:$nvme" "$@"
}

# The same devices renumbered, in $BATS_TEST_TMPDIR/b: eth0 60-63 and
# nvme0 40-42, so that some old numbers now belong to other names.
renumbered() {
	make_root --dir "$BATS_TEST_TMPDIR/b" --cpus 8 --nic eth0:3:0:60 \
		--nvme nvme0:2:0:40 "$@"
}

list_of() {
	printf '%s/smp_affinity_list' "$(irq_dir "$1")"
}

# A layout on the first tree, saved to $SNAP.
save_layout() {
	tree 40 50 "$@"
	irqaff set -q 41 1
	irqaff set -q 42 2-3
	irqaff set -q 50 4
	irqaff set -q 51 5-6
	irqaff default 0-3
	irqaff save -o "$SNAP"
}

@test "save writes the header, the default and one line per IRQ" {
	tree 40 50 --irq 9
	irqaff set 41 1
	irqaff default 0-3
	run --separate-stderr irqaff save
	assert_success
	assert_equal "$stderr" ""
	assert_output - <<'EOF'
# irqaff snapshot, 8 CPUs
# IRQ CPUS "NAME"...; see SNAPSHOT FILES in irqaff(8)
default 0-3
9 0-7
40 0-7 "eth0"
41 1 "eth0-TxRx-0"
42 0-7 "eth0-TxRx-1"
43 0-7 "eth0-TxRx-2"
50 0-7 "nvme0q0"
51 0-7 "nvme0q1"
52 0-7 "nvme0q2"
EOF
}

@test "save quotes names with spaces, quotes, backslashes and tabs" {
	make_root --cpus 4 --irq $'30=my "dev" x|back\\slash|tab\there' \
		--irq '31=#not a comment'
	run --separate-stderr irqaff save
	assert_success
	assert_line --index 3 '30 0-3 "back\\slash" "my \"dev\" x" "tab\there"'
	assert_line --index 4 '31 0-3 "#not a comment"'
}

@test "save lists every action name of a shared IRQ" {
	make_root --cpus 4 --irq '16=uhci_hcd:usb2|ehci_hcd:usb1'
	run irqaff save
	assert_success
	assert_line --index 3 '16 0-3 "ehci_hcd:usb1" "uhci_hcd:usb2"'
}

@test "save -o writes the file, prints nothing and leaves no temporary file" {
	tree
	irqaff save >"$BATS_TEST_TMPDIR/expected"
	mkdir "$BATS_TEST_TMPDIR/out"
	run --separate-stderr irqaff save -o "$BATS_TEST_TMPDIR/out/snap"
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	assert_file "$BATS_TEST_TMPDIR/out/snap" "$(<"$BATS_TEST_TMPDIR/expected")"$'\n'
	assert_equal "$(ls -A "$BATS_TEST_TMPDIR/out")" snap
}

@test "save -o replaces an old file whole and keeps its mode" {
	tree
	printf 'old\nlines\nthat are longer than nothing\n' >"$SNAP"
	chmod 0600 "$SNAP"
	irqaff save -o "$SNAP"
	assert_equal "$(head -n 1 "$SNAP")" '# irqaff snapshot, 8 CPUs'
	run grep -c old "$SNAP"
	assert_output 0
	assert_equal "$(stat -c %a "$SNAP")" 600
}

@test "a save that fails half way leaves the old file and no temporary file" {
	tree
	printf 'old\n' >"$SNAP"
	rm "$(list_of 51)" "$(irq_dir 51)/smp_affinity"
	mkdir "$(list_of 51)"
	run --separate-stderr irqaff save -o "$SNAP"
	assert_failure 1
	assert_equal "$stderr" "irqaff: $ROOT/proc/irq/51/smp_affinity_list: Is a directory"
	assert_file "$SNAP" $'old\n'
	assert_equal "$(ls -A "$BATS_TEST_TMPDIR" | grep -c tmp-)" 0
}

@test "save -o into a directory that does not exist fails with status 1" {
	tree
	run --separate-stderr irqaff save -o "$BATS_TEST_TMPDIR/none/snap"
	assert_failure 1
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/none/snap: No such file or directory"
	assert [ ! -e "$BATS_TEST_TMPDIR/none" ]
}

@test "save takes no operand" {
	tree
	run --separate-stderr irqaff save "$SNAP"
	assert_failure 2
	assert_equal "$stderr" "irqaff: save: unexpected argument $SNAP
usage: irqaff save [-o file]"
}

@test "save then restore on the same tree writes nothing" {
	save_layout
	before=$(tree_sum)
	run --separate-stderr irqaff restore "$SNAP"
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	assert_equal "$(tree_sum)" "$before"
}

@test "irqaff save | irqaff check - exits 0 and prints nothing" {
	save_layout
	run --separate-stderr bash -c 'irqaff save | irqaff check -'
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
}

@test "restore on a renumbered tree gives every IRQ its old CPUs by name" {
	save_layout
	renumbered
	run --separate-stderr irqaff restore "$SNAP"
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	assert_file "$(list_of 60)" $'0-7\n'
	assert_file "$(list_of 61)" $'1\n'
	assert_file "$(list_of 62)" $'2-3\n'
	assert_file "$(list_of 63)" $'0-7\n'
	assert_file "$(list_of 40)" $'4\n'
	assert_file "$(list_of 41)" $'5-6\n'
	assert_file "$(list_of 42)" $'0-7\n'
	assert_file "$ROOT/proc/irq/default_smp_affinity" $'0f\n'
}

@test "restore -v on a renumbered tree prints a line for every IRQ it matched" {
	save_layout
	renumbered
	run --separate-stderr irqaff restore -v "$SNAP"
	assert_success
	assert_equal "$stderr" ""
	assert_output - <<'EOF'
default: 0-7 -> 0-3
irq 40: 0-7 -> 4
irq 41: 0-7 -> 5-6
irq 42: 0-7 unchanged
irq 60: 0-7 unchanged
irq 61: 0-7 -> 1
irq 62: 0-7 -> 2-3
irq 63: 0-7 unchanged
EOF
}

@test "restore --by-number on a renumbered tree sets the old numbers" {
	save_layout
	renumbered
	run --separate-stderr irqaff restore --by-number "$SNAP"
	assert_failure 3
	assert_output ""
	assert_equal "$stderr" "irqaff: $SNAP:7: IRQ 43 does not exist
irqaff: $SNAP:8: IRQ 50 does not exist
irqaff: $SNAP:9: IRQ 51 does not exist
irqaff: $SNAP:10: IRQ 52 does not exist"
	assert_file "$(list_of 40)" $'0-7\n'
	assert_file "$(list_of 41)" $'1\n'
	assert_file "$(list_of 42)" $'2-3\n'
	assert_file "$(list_of 61)" $'0-7\n'
	assert_file "$(list_of 62)" $'0-7\n'
	assert_file "$ROOT/proc/irq/default_smp_affinity" $'0f\n'
}

@test "restore -n prints what would change and writes nothing" {
	save_layout
	renumbered
	before=$(tree_sum)
	run --separate-stderr irqaff restore -n "$SNAP"
	assert_success
	assert_equal "$stderr" ""
	assert_output - <<'EOF'
default: 0-7 -> 0-3
irq 40: 0-7 -> 4
irq 41: 0-7 -> 5-6
irq 61: 0-7 -> 1
irq 62: 0-7 -> 2-3
EOF
	assert_equal "$(tree_sum)" "$before"
}

@test "restore reads standard input for -" {
	save_layout
	renumbered
	run --separate-stderr irqaff restore - <"$SNAP"
	assert_success
	assert_file "$(list_of 61)" $'1\n'
}

@test "check prints each difference and exits 1" {
	save_layout
	renumbered
	run --separate-stderr irqaff check "$SNAP"
	assert_failure 1
	assert_equal "$stderr" ""
	assert_output - <<'EOF'
default: 0-7 (want 0-3)
irq 40 nvme0q0: 0-7 (want 4)
irq 41 nvme0q1: 0-7 (want 5-6)
irq 61 eth0-TxRx-0: 0-7 (want 1)
irq 62 eth0-TxRx-1: 0-7 (want 2-3)
EOF
}

@test "check --by-number compares numbers and reports the missing ones" {
	save_layout
	renumbered
	run --separate-stderr irqaff check --by-number "$SNAP"
	assert_failure 1
	assert_equal "$stderr" ""
	assert_output - <<EOF
$SNAP:7: IRQ 43 does not exist
$SNAP:8: IRQ 50 does not exist
$SNAP:9: IRQ 51 does not exist
$SNAP:10: IRQ 52 does not exist
default: 0-7 (want 0-3)
irq 41 nvme0q1: 0-7 (want 1)
irq 42 nvme0q2: 0-7 (want 2-3)
EOF
}

@test "check exits 0 after a restore, and writes nothing" {
	save_layout
	renumbered
	irqaff restore "$SNAP"
	before=$(tree_sum)
	run --separate-stderr irqaff check "$SNAP"
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	assert_equal "$(tree_sum)" "$before"
}

@test "check reports one changed IRQ by number and names" {
	tree
	irqaff save -o "$SNAP"
	irqaff set 43 4
	run --separate-stderr irqaff check "$SNAP"
	assert_failure 1
	assert_output 'irq 43 eth0-TxRx-2: 4 (want 0-7)'
}

@test "names with spaces and quotes survive save and a renumbered restore" {
	make_root --cpus 4 --irq $'30=my "dev" x' --irq $'31=back\\slash\ttab'
	irqaff set 30 1
	irqaff set 31 2
	irqaff save -o "$SNAP"
	make_root --dir "$BATS_TEST_TMPDIR/b" --cpus 4 \
		--irq $'70=back\\slash\ttab' --irq $'71=my "dev" x'
	run --separate-stderr irqaff restore "$SNAP"
	assert_success
	assert_equal "$stderr" ""
	assert_file "$(list_of 70)" $'2\n'
	assert_file "$(list_of 71)" $'1\n'
	run --separate-stderr irqaff check "$SNAP"
	assert_success
}

@test "a malformed line is refused with its line number and nothing is written" {
	save_layout
	renumbered
	{ cat "$SNAP"; printf 'eth0 0-9\n'; } >"$SNAP.bad"
	before=$(tree_sum)
	run --separate-stderr irqaff restore "$SNAP.bad"
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "irqaff: $SNAP.bad:11: CPU list \"0-9\": CPU 9 is beyond the last possible CPU 7"
	assert_equal "$(tree_sum)" "$before"
	run --separate-stderr irqaff check "$SNAP.bad"
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "irqaff: $SNAP.bad:11: CPU list \"0-9\": CPU 9 is beyond the last possible CPU 7"
}

@test "every malformed line is reported, each with its own reason" {
	tree
	before=$(tree_sum)
	cat >"$SNAP" <<'EOF'
# comment
default 0-3 # a comment after the set
24-31 1
"open 1
eth"0" 1
"eth0"x 1
41 "1"
41
eth* 1 extra
"a\qb" 1
"a\400" 1
"" 1
41 1 "a" "a"
default
eth* 0x1ff
eth* node:3
41 0x
41 1,,2x
EOF
	run --separate-stderr irqaff restore "$SNAP"
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "irqaff: $SNAP:3: \"24-31\" is not an IRQ number (a name that starts with a digit needs quotes)
irqaff: $SNAP:4: a string has no closing quote
irqaff: $SNAP:5: a quote right after \"eth\"; put a space before the string
irqaff: $SNAP:6: no space after the closing quote
irqaff: $SNAP:7: the CPU set \"1\" is quoted
irqaff: $SNAP:8: no CPU set after \"41\"
irqaff: $SNAP:9: \"extra\" after the CPU set; only IRQ numbers take names
irqaff: $SNAP:10: unknown escape \"\\q\" in a string
irqaff: $SNAP:11: escape \"\\400\" is not a byte from \\001 to \\377
irqaff: $SNAP:12: an empty pattern
irqaff: $SNAP:13: \"a\" is named twice
irqaff: $SNAP:14: no CPU set after \"default\"
irqaff: $SNAP:15: CPU mask \"0x1ff\": CPU 8 is beyond the last possible CPU 7
irqaff: $SNAP:16: CPU list \"node:3\": NUMA node 3 does not exist
irqaff: $SNAP:17: CPU mask \"0x\": \"0x\" has no hex digits
irqaff: $SNAP:18: CPU list \"1,,2x\": region \"2x\": unexpected \"x\""
	assert_equal "$(tree_sum)" "$before"
}

@test "a line with a NUL byte is refused" {
	tree
	printf '41 1\n"a\0b" 2\n' >"$SNAP"
	run --separate-stderr irqaff restore "$SNAP"
	assert_failure 2
	assert_equal "$stderr" "irqaff: $SNAP:2: a NUL byte"
	assert_file "$(list_of 41)" $'0-7\n'
}

@test "a file that cannot be read is status 1, a missing operand status 2" {
	tree
	run --separate-stderr irqaff restore "$BATS_TEST_TMPDIR/none"
	assert_failure 1
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/none: No such file or directory"
	run --separate-stderr irqaff check "$BATS_TEST_TMPDIR"
	assert_failure 1
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR: Is a directory"
	run --separate-stderr irqaff restore
	assert_failure 2
	assert_equal "$stderr" "irqaff: restore: expected one snapshot file
usage: irqaff restore [-nvq] [--by-number] file"
}

@test "a hand-written file: patterns, masks, nodes, and the last line wins" {
	tree 40 50 --nodes 2
	cat >"$SNAP" <<'EOF'
# eth0's queues on CPUs 2-3, but queue 1 on CPU 7
eth0-TxRx-* 2-3
"eth0-TxRx-1" 7		# a quoted pattern, tabs, a comment
"nvme0q[12]" 0x30
"nvme0q0" node:1
EOF
	run --separate-stderr irqaff restore "$SNAP"
	assert_success
	assert_equal "$stderr" ""
	assert_file "$(list_of 40)" $'0-7\n'
	assert_file "$(list_of 41)" $'2-3\n'
	assert_file "$(list_of 42)" $'7\n'
	assert_file "$(list_of 43)" $'2-3\n'
	assert_file "$(list_of 50)" $'4-7\n'
	assert_file "$(list_of 51)" $'4-5\n'
	assert_file "$(list_of 52)" $'4-5\n'
	run irqaff check "$SNAP"
	assert_success
}

@test "quoted \"default\" and digits are names, not the keyword or a number" {
	make_root --cpus 4 --irq '30=default' --irq '31=9lives'
	printf '"default" 1\n"9lives" 2\n' >"$SNAP"
	run --separate-stderr irqaff restore "$SNAP"
	assert_success
	assert_file "$(list_of 30)" $'1\n'
	assert_file "$(list_of 31)" $'2\n'
	assert_file "$ROOT/proc/irq/default_smp_affinity" $'f\n'
}

@test "octal escapes in a string match the bytes they stand for" {
	make_root --cpus 4 --irq $'30=a\x01b'
	printf '"a\\001b" 3\n' >"$SNAP"
	run --separate-stderr irqaff restore "$SNAP"
	assert_success
	assert_file "$(list_of 30)" $'3\n'
	run irqaff save
	assert_line --index 3 '30 3 "a\001b"'
}

@test "a line that matches no IRQ is reported and the rest is applied: status 3" {
	tree
	printf 'eth9-* 1\n41 2 "eth0-TxRx-0"\n99 3\n98 1 "gone"\n' >"$SNAP"
	run --separate-stderr irqaff restore "$SNAP"
	assert_failure 3
	assert_equal "$stderr" "irqaff: $SNAP:1: \"eth9-*\" matches no IRQ
irqaff: $SNAP:3: IRQ 99 does not exist
irqaff: $SNAP:4: \"gone\" matches no IRQ"
	assert_file "$(list_of 41)" $'2\n'
}

@test "when no line matches an IRQ, restore exits 1 and check reports them" {
	tree
	before=$(tree_sum)
	printf 'eth9-* 1\n' >"$SNAP"
	run --separate-stderr irqaff restore "$SNAP"
	assert_failure 1
	assert_equal "$stderr" "irqaff: $SNAP:1: \"eth9-*\" matches no IRQ"
	assert_equal "$(tree_sum)" "$before"
	run --separate-stderr irqaff check "$SNAP"
	assert_failure 1
	assert_output "$SNAP:1: \"eth9-*\" matches no IRQ"
	assert_equal "$stderr" ""
}

@test "IRQs that share their names are paired with the lines in order" {
	make_root --cpus 4 --irq 1=i8042 --irq 12=i8042 --irq 14=ata_piix
	irqaff set 1 1
	irqaff set 12 2
	irqaff save -o "$SNAP"
	make_root --dir "$BATS_TEST_TMPDIR/b" --cpus 4 --irq 5=i8042 \
		--irq 7=i8042 --irq 20=ata_piix
	run --separate-stderr irqaff restore "$SNAP"
	assert_success
	assert_equal "$stderr" ""
	assert_file "$(list_of 5)" $'1\n'
	assert_file "$(list_of 7)" $'2\n'
}

@test "one line for names that two IRQs have is reported, not guessed" {
	make_root --cpus 4 --irq 5=i8042 --irq 7=i8042
	printf '1 1 "i8042"\n' >"$SNAP"
	run --separate-stderr irqaff restore "$SNAP"
	assert_failure 1
	assert_equal "$stderr" "irqaff: $SNAP:1: \"i8042\" matches 2 IRQs"
	printf '1 1 "i8042"\n3 1 "i8042"\n9 1 "i8042"\n' >"$SNAP"
	run --separate-stderr irqaff restore "$SNAP"
	assert_failure 1
	assert_equal "$stderr" "irqaff: $SNAP:1: \"i8042\" matches 2 IRQs, not the 3 of the snapshot
irqaff: $SNAP:2: \"i8042\" matches 2 IRQs, not the 3 of the snapshot
irqaff: $SNAP:3: \"i8042\" matches 2 IRQs, not the 3 of the snapshot"
	assert_file "$(list_of 5)" $'0-3\n'
}

@test "a shared IRQ is matched by all of its names, in any order" {
	make_root --cpus 4 --irq '16=a|b' --irq '17=a'
	printf '99 2 "b" "a"\n98 3 "a"\n' >"$SNAP"
	run --separate-stderr irqaff restore "$SNAP"
	assert_success
	assert_file "$(list_of 16)" $'2\n'
	assert_file "$(list_of 17)" $'3\n'
}

@test "an unnamed IRQ line is not applied to an IRQ that has a name now" {
	make_root --cpus 4 --irq 9 --irq 10=eth0
	printf '9 1\n10 2\n' >"$SNAP"
	run --separate-stderr irqaff restore "$SNAP"
	assert_failure 3
	assert_equal "$stderr" "irqaff: $SNAP:2: IRQ 10 has no name in the snapshot but is \"eth0\" here; give its name or use --by-number"
	assert_file "$(list_of 9)" $'1\n'
	assert_file "$(list_of 10)" $'0-3\n'
	run --separate-stderr irqaff restore --by-number "$SNAP"
	assert_success
	assert_file "$(list_of 10)" $'2\n'
}

@test "a set of offline CPUs is kept where the IRQ has it, refused elsewhere" {
	make_root --cpus 8 --offline 6-7 --irq 30=nvme0q7 --affinity 6-7 \
		--irq 31=nvme0q6 --affinity 6-7 --irq 32=eth0 --affinity 4-7
	irqaff save -o "$SNAP"
	irqaff set 31 1
	run --separate-stderr irqaff restore -v "$SNAP"
	assert_failure 3
	assert_output - <<'EOF'
default: 0-7 unchanged
irq 30: 6-7 unchanged
irq 32: 4-7 unchanged
EOF
	assert_equal "$stderr" "irqaff: note: CPU 6-7 are offline
irqaff: $SNAP:5: irq 31: CPU list \"6-7\": selects no online CPU"
	assert_file "$(list_of 31)" $'1\n'
}

@test "a CPU set that selects no CPU is malformed" {
	tree
	printf 'eth0 0x0\n' >"$SNAP"
	run --separate-stderr irqaff check "$SNAP"
	assert_failure 2
	assert_equal "$stderr" "irqaff: $SNAP:1: CPU mask \"0x0\": selects no CPU"
}

@test "restore writes the default affinity as a mask" {
	tree
	printf 'default 4-7\n' >"$SNAP"
	run --separate-stderr irqaff restore -v "$SNAP"
	assert_success
	assert_output 'default: 0-7 -> 4-7'
	assert_file "$ROOT/proc/irq/default_smp_affinity" $'f0\n'
}

@test "an empty snapshot restores nothing and checks clean" {
	tree
	before=$(tree_sum)
	printf '# nothing\n\n   \n' >"$SNAP"
	run --separate-stderr irqaff restore "$SNAP"
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	run irqaff check "$SNAP"
	assert_success
	assert_equal "$(tree_sum)" "$before"
}

@test "with irqbalance running, set, restore and show warn once on stderr" {
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
	assert_equal "$stderr" "$WARN"
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
