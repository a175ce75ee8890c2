#!/usr/bin/env bats
# irqaff restore: the round trip of a snapshot on the same tree and on a
# tree whose IRQs were renumbered, matching by name and by number,
# hand-written pattern lines, and malformed files refused whole.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	load ../test_helper/snapshot
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
	# each line applied to an IRQ with another name now is noted
	assert_equal "$stderr" "irqaff: note: $SNAP:4: IRQ 40 is \"nvme0q0\" here, \"eth0\" in the snapshot; matched by its number (--by-number)
irqaff: note: $SNAP:5: IRQ 41 is \"nvme0q1\" here, \"eth0-TxRx-0\" in the snapshot; matched by its number (--by-number)
irqaff: note: $SNAP:6: IRQ 42 is \"nvme0q2\" here, \"eth0-TxRx-1\" in the snapshot; matched by its number (--by-number)
irqaff: $SNAP:7: IRQ 43 does not exist
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
41 1,2x
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
irqaff: $SNAP:18: CPU list \"1,2x\": region \"2x\": unexpected \"x\""
	assert_equal "$(tree_sum)" "$before"
}

@test "a snapshot of a bigger machine is refused in one line, each with -v" {
	local big=$BATS_TEST_TMPDIR/big
	# 16 CPUs, eth0's IRQs on 8-15
	make_root --dir "$big" --cpus 16 --nic eth0:3:0:40 --nvme nvme0:2:0:50
	IRQAFF_ROOT=$big irqaff set -q eth0-TxRx-* 8-15
	IRQAFF_ROOT=$big irqaff set -q nvme0q1 11
	IRQAFF_ROOT=$big irqaff save -o "$SNAP"
	tree
	before=$(tree_sum)
	run -0 sed -n '3,$p' "$SNAP"
	assert_output - <<-'EOF'
		default 0-15
		40 0-15 "eth0"
		41 8-15 "eth0-TxRx-0"
		42 8-15 "eth0-TxRx-1"
		43 8-15 "eth0-TxRx-2"
		50 0-15 "nvme0q0"
		51 11 "nvme0q1"
		52 0-15 "nvme0q2"
	EOF
	summary="irqaff: $SNAP: 8 lines name CPUs beyond the last possible CPU 7 (lines 3-10), as a snapshot of a bigger machine does; sets that fit every machine are node:K, all, or N for the last CPU (4-N)"
	for cmd in restore 'restore -t' 'restore -n' check; do
		# shellcheck disable=SC2086 # cmd is a command and options
		run --separate-stderr -2 irqaff $cmd "$SNAP"
		assert_output ""
		assert_equal "$stderr" "$summary"
	done
	# -v: each line, then the summary
	run --separate-stderr -2 irqaff restore -v "$SNAP"
	assert_output ""
	assert_equal "$(grep -c 'is beyond the last possible CPU 7$' <<<"$stderr")" 8
	assert_equal "$(tail -n 1 <<<"$stderr")" "$summary"
	# masks too, and consecutive lines make a range; other bad lines
	# are said on their own
	printf '41 0x100\n42 0x200,0\n43 9-10\n44 1-\n51 0-N:1/16,12\n' >"$SNAP"
	run --separate-stderr -2 irqaff restore "$SNAP"
	assert_equal "$stderr" "irqaff: $SNAP:4: CPU list \"1-\": region \"1-\" ends where a number should be
irqaff: $SNAP: 4 lines name CPUs beyond the last possible CPU 7 (lines 1-3,5), as a snapshot of a bigger machine does; sets that fit every machine are node:K, all, or N for the last CPU (4-N)"
	# one such line alone is said as before
	printf '41 1\n42 9\n43 1-\n' >"$SNAP"
	run --separate-stderr -2 irqaff restore "$SNAP"
	assert_equal "$stderr" "irqaff: $SNAP:2: CPU list \"9\": CPU 9 is beyond the last possible CPU 7
irqaff: $SNAP:3: CPU list \"1-\": region \"1-\" ends where a number should be"
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

@test "a file that cannot be read is status 2 for restore and check, as is a missing operand" {
	tree
	run --separate-stderr irqaff restore "$BATS_TEST_TMPDIR/none"
	assert_failure 2
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/none: No such file or directory"
	run --separate-stderr irqaff check "$BATS_TEST_TMPDIR/none"
	assert_failure 2
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/none: No such file or directory"
	run --separate-stderr irqaff check "$BATS_TEST_TMPDIR"
	assert_failure 2
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR: Is a directory"
	run --separate-stderr irqaff restore
	assert_failure 2
	assert_equal "$stderr" "irqaff: restore: expected one snapshot file
usage: irqaff restore [-ntvqJ] [--by-number] [--only irqs] file"
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

@test "\\000 in a quoted name is refused: it would cut the name and match another IRQ" {
	make_root --cpus 4 --irq 30=a --irq 31=ab
	printf '"a\\000b" 3\n' >"$SNAP"
	keep_tree
	run --separate-stderr irqaff restore "$SNAP"
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "irqaff: $SNAP:1: escape \"\\000\" is not a byte from \\001 to \\377"
	run changed_files
	assert_output ""
	run --separate-stderr -2 irqaff check "$SNAP"
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
	# nothing changed and one failed: 1, not 3
	run --separate-stderr irqaff restore -v "$SNAP"
	assert_failure 1
	assert_output - <<'EOF'
default: 0-7 unchanged
irq 30: 6-7 unchanged
irq 32: 4-7 unchanged
EOF
	assert_equal "$stderr" "irqaff: note: CPU 6-7 are offline
irqaff: $SNAP:5: irq 31: CPU list \"6-7\": selects no online CPU"
	assert_file "$(list_of 31)" $'1\n'
	# a mask is named a mask, as every CPU-set operand is
	printf '31 0xC0 "nvme0q6"\n' >"$SNAP"
	run -1 --separate-stderr irqaff restore "$SNAP"
	assert_equal "$stderr" "irqaff: $SNAP:1: irq 31: CPU mask \"0xC0\": selects no online CPU"
	assert_file "$(list_of 31)" $'1\n'
}

@test "restore -n exits 1, never 3, when a line cannot be applied: a dry run changes nothing" {
	make_root --cpus 8 --offline 6-7 --irq 30=nvme0q7 --affinity 0 \
		--irq 31=nvme0q6 --affinity 0
	printf '30 1 "nvme0q7"\n31 6-7 "nvme0q6"\n' >"$SNAP"
	local before
	before=$(tree_sum)
	run -1 --separate-stderr irqaff restore -n "$SNAP"
	assert_output 'irq 30: 0 -> 1'
	assert_equal "$stderr" "irqaff: $SNAP:2: irq 31: CPU list \"6-7\": selects no online CPU"
	assert_equal "$(tree_sum)" "$before"
	run -1 --separate-stderr irqaff restore -n -J "$SNAP"
	assert_output '{"dry_run":true,"changed":[{"irq":30,"name":"nvme0q7","old":"0","new":"1"}],"unchanged":0,"failed":[{"irq":31,"name":"nvme0q6","new":"6-7","errno":null,"error":"CPU list \"6-7\": selects no online CPU"}],"managed":[],"unmovable":[],"problems":[]}'
	assert_equal "$(tree_sum)" "$before"
	# applied, the same file is a partial change
	run -3 --separate-stderr irqaff restore "$SNAP"
	assert_file "$(list_of 30)" $'1\n'
}

@test "restore writes the default affinity as a mask" {
	tree
	printf 'default 4-7\n' >"$SNAP"
	run --separate-stderr irqaff restore -v "$SNAP"
	assert_success
	assert_output 'default: 0-7 -> 4-7'
	assert_file "$ROOT/proc/irq/default_smp_affinity" $'f0\n'
}

@test "an empty or comment-only snapshot is bad input for restore, restore -t and check" {
	tree
	before=$(tree_sum)
	for text in '' '# nothing\n\n   \n' '\r\n  # x\r\n'; do
		printf "$text" >"$SNAP"
		for cmd in restore 'restore -t' 'restore -n' 'restore --only 41' \
			check; do
			# shellcheck disable=SC2086 # cmd is a command and options
			run --separate-stderr -2 irqaff $cmd "$SNAP"
			assert_output ""
			assert_equal "$stderr" "irqaff: $SNAP: no entries: the file is empty or holds only comments"
		done
	done
	assert_equal "$(tree_sum)" "$before"
}

@test "problems are reported in line order, name lines among the others" {
	tree
	printf '41 1 "gone"\neth9-* 2\n99 3\n42 4 "eth0-TxRx-1"\n7 1 "b" "c"\n' \
		>"$SNAP"
	run --separate-stderr irqaff restore "$SNAP"
	assert_failure 3
	assert_output ""
	assert_equal "$stderr" "irqaff: $SNAP:1: \"gone\" matches no IRQ
irqaff: $SNAP:2: \"eth9-*\" matches no IRQ
irqaff: $SNAP:3: IRQ 99 does not exist
irqaff: $SNAP:5: \"b\" \"c\" matches no IRQ"
	assert_file "$(list_of 42)" $'4\n'
	run --separate-stderr irqaff check "$SNAP"
	assert_failure 1
	assert_equal "$stderr" ""
	assert_output "$SNAP:1: \"gone\" matches no IRQ
$SNAP:2: \"eth9-*\" matches no IRQ
$SNAP:3: IRQ 99 does not exist
$SNAP:5: \"b\" \"c\" matches no IRQ"
}

# A file for hosts with and without eth2: optional lines for eth2's IRQs
# by pattern, by quoted pattern, by name and by number, then lines for
# what every host has.
optional_file() {
	cat >"$SNAP" <<'EOF2'
# eth2 is not on every host
?eth2-TxRx-* 4-5
?"eth2 rx" 6
?99 7 "eth2-TxRx-0"
?98 7	# no name
eth0-TxRx-* 2-3
?nvme0q* 6
EOF2
}

@test "optional lines that match nothing are skipped; without ? they are status 3" {
	tree
	optional_file
	run --separate-stderr irqaff restore "$SNAP"
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	assert_equal "$(lists 40 41 42 43 50 51 52)" "0-7
2-3
2-3
2-3
6
6
6"
	run --separate-stderr irqaff check "$SNAP"
	assert_success
	assert_output ""
	sed -i 's/^?//' "$SNAP"
	irqaff set -q 40-52 0-7
	keep_tree
	run --separate-stderr irqaff restore "$SNAP"
	assert_failure 3
	assert_output ""
	assert_equal "$stderr" "irqaff: $SNAP:2: \"eth2-TxRx-*\" matches no IRQ
irqaff: $SNAP:3: \"eth2 rx\" matches no IRQ
irqaff: $SNAP:4: \"eth2-TxRx-0\" matches no IRQ
irqaff: $SNAP:5: IRQ 98 does not exist"
	run changed_files
	assert_output - <<'EOF2'
proc/irq/41/smp_affinity_list
proc/irq/42/smp_affinity_list
proc/irq/43/smp_affinity_list
proc/irq/50/smp_affinity_list
proc/irq/51/smp_affinity_list
proc/irq/52/smp_affinity_list
EOF2
}

@test "optional lines apply on a host that has the device" {
	tree 40 50 --nic eth2:2:0:60 --irq '70=eth2 rx' --irq 98
	optional_file
	run --separate-stderr irqaff restore "$SNAP"
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	# 61 is eth2-TxRx-0: line 4 comes after line 2
	assert_equal "$(lists 60 61 62 70 98 41 50)" "0-7
7
4-5
6
7
2-3
6"
}

@test "an optional line for names that two IRQs have is still reported" {
	make_root --cpus 4 --irq 5=i8042 --irq 7=i8042 --irq 9=acpi
	printf '?1 1 "i8042"\n?2 2 "acpi"\n' >"$SNAP"
	run --separate-stderr irqaff restore "$SNAP"
	assert_failure 3
	assert_equal "$stderr" "irqaff: $SNAP:1: \"i8042\" matches 2 IRQs"
	assert_equal "$(lists 5 7 9)" $'0-3\n0-3\n2'
}

@test "a ? must come right before an entry; a pattern after it that starts with ? needs quotes" {
	tree
	keep_tree
	printf '?\n? eth0 1\n?# a comment\n??th0-* 1\n  ?default 1\n' >"$SNAP"
	run --separate-stderr irqaff restore "$SNAP"
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "irqaff: $SNAP:1: \"?\" must come right before an entry, as in \"?eth2-* 1\"
irqaff: $SNAP:2: \"?\" must come right before an entry, as in \"?eth2-* 1\"
irqaff: $SNAP:3: \"?\" must come right before an entry, as in \"?eth2-* 1\"
irqaff: $SNAP:4: \"?th0-*\" after \"?\": a pattern that starts with \"?\" needs quotes"
	run changed_files
	assert_output ""
}

@test "a quoted pattern may start with ?, and ?default is the default" {
	tree
	printf '"?th0-TxRx-0" 5\n?"?vme0q1" 6\n?default 1-2\n' >"$SNAP"
	run --separate-stderr irqaff restore -v "$SNAP"
	assert_success
	assert_equal "$stderr" ""
	assert_output - <<'EOF2'
default: 0-7 -> 1-2
irq 41: 0-7 -> 5
irq 51: 0-7 -> 6
EOF2
}

@test "restore --only dev:eth0 writes eth0's IRQs and nothing else" {
	save_layout
	irqaff set -q 40-52 7
	irqaff default 0-7
	keep_tree
	run --separate-stderr irqaff restore -v --only dev:eth0 "$SNAP"
	assert_success
	assert_equal "$stderr" ""
	assert_output - <<'EOF2'
irq 40: 7 -> 0-7
irq 41: 7 -> 1
irq 42: 7 -> 2-3
irq 43: 7 -> 0-7
EOF2
	run changed_files
	assert_output - <<'EOF2'
proc/irq/40/smp_affinity_list
proc/irq/41/smp_affinity_list
proc/irq/42/smp_affinity_list
proc/irq/43/smp_affinity_list
EOF2
	run --separate-stderr irqaff check --only dev:eth0 "$SNAP"
	assert_success
	assert_output ""
}

@test "restore --only resolves the lines as without it: the last line wins" {
	tree
	printf 'eth0-TxRx-* 5\nnvme0q* 6\n"eth0-TxRx-1" 3\n40 4 "eth0"\n' >"$SNAP"
	keep_tree
	run --separate-stderr irqaff restore -v --only 41-42,51 "$SNAP"
	assert_success
	assert_equal "$stderr" ""
	assert_output - <<'EOF2'
irq 41: 0-7 -> 5
irq 42: 0-7 -> 3
irq 51: 0-7 -> 6
EOF2
	run changed_files
	assert_output - <<'EOF2'
proc/irq/41/smp_affinity_list
proc/irq/42/smp_affinity_list
proc/irq/51/smp_affinity_list
EOF2
}

@test "restore --only reports only the problems of the selected IRQs" {
	tree
	cat >"$SNAP" <<'EOF2'
eth2-TxRx-* 4
99 3
98 5 "eth2-TxRx-0"
40 1
1 2 "nvme0q0"
2 2 "nvme0q0"
eth0-TxRx-* 2-3
nvme0q[12] 6
EOF2
	# lines that pick nothing, and the problems of nvme0q0 and of 40,
	# are none of eth0's TxRx IRQs' business
	run --separate-stderr irqaff restore --only eth0-TxRx-* "$SNAP"
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	assert_equal "$(lists 40 41 42 43 50 51 52)" \
		$'0-7\n2-3\n2-3\n2-3\n0-7\n0-7\n0-7'
	run --separate-stderr irqaff restore --only dev:eth0 "$SNAP"
	assert_failure 1
	assert_equal "$stderr" "irqaff: $SNAP:4: IRQ 40 has no name in the snapshot but is \"eth0\" here; give its name or use --by-number"
	run --separate-stderr irqaff restore --only dev:nvme0 "$SNAP"
	assert_failure 3
	assert_equal "$stderr" "irqaff: $SNAP:5: \"nvme0q0\" matches 1 IRQs, not the 2 of the snapshot
irqaff: $SNAP:6: \"nvme0q0\" matches 1 IRQs, not the 2 of the snapshot"
	assert_equal "$(lists 50 51 52)" $'0-7\n6\n6'
}

@test "restore --only with no line for the selected IRQs does nothing: status 0" {
	tree
	printf 'eth0-* 1\ndefault 2\n' >"$SNAP"
	keep_tree
	run --separate-stderr irqaff restore -v --only dev:nvme0 "$SNAP"
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	run changed_files
	assert_output ""
}

@test "a bad --only selector is bad input: status 2 and nothing written" {
	save_layout
	irqaff set -q 40-52 7
	keep_tree
	# one that matches nothing is status 1
	run --separate-stderr irqaff restore --only dev:eth9 "$SNAP"
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" "irqaff: IRQ list \"dev:eth9\": device eth9 has no IRQs or does not exist"
	run --separate-stderr irqaff restore --only 5- "$SNAP"
	assert_failure 2
	assert_equal "$stderr" "irqaff: IRQ list \"5-\": \"5-\" is not an IRQ or range"
	run --separate-stderr irqaff check --only 99 "$SNAP"
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" "irqaff: IRQ 99 does not exist"
	run changed_files
	assert_output ""
}

@test "save, change queue masks, restore: every mask file as it was, nothing else" {
	queue_tree
	irqaff set -q 41 1
	irqaff save -o "$SNAP"
	keep_tree
	printf '3\n' >"$(qfile eth0 tx-0)"
	printf '0\n' >"$(qfile eth0 tx-1)"
	printf 'f\n' >"$(qfile eth0 rx-1)"
	printf '0\n' >"$(qfile eth1 rx-0)"
	run --separate-stderr irqaff restore -v "$SNAP"
	assert_success
	assert_equal "$stderr" ""
	assert_output - <<'EOF2'
default: 0-3 unchanged
irq 40: 0-3 unchanged
irq 41: 1 unchanged
irq 42: 0-3 unchanged
irq 50: 0-3 unchanged
irq 51: 0-3 unchanged
rps eth0 rx-0: 2-3 unchanged
xps eth0 tx-0: 0-1 -> 0-3
rps eth0 rx-1: 0-3 -> -
xps eth0 tx-1: - -> 1
rps eth1 rx-0: - -> 3
EOF2
	assert_file "$(qfile eth0 tx-0)" $'f\n'
	assert_file "$(qfile eth0 rx-1)" $'0\n'
	run changed_files
	assert_output ""
	run --separate-stderr irqaff restore "$SNAP"
	assert_success
	assert_output ""
	run changed_files
	assert_output ""
}

@test "restore writes queue masks at the machine's width: 64 CPUs" {
	make_root --cpus 64 --nodes 2 --nic eth0:2:0:40 --xps eth0:0=32
	printf 'xps eth0 tx-0 1,63\nrps eth0 rx-1 0x3\nxps eth0 tx-1 none\n' \
		>"$SNAP"
	keep_tree
	run --separate-stderr irqaff restore "$SNAP"
	assert_success
	assert_equal "$stderr" ""
	assert_file "$(qfile eth0 tx-0)" $'80000000,00000002\n'
	assert_file "$(qfile eth0 rx-1)" $'00000000,00000003\n'
	run changed_files
	assert_output - <<'EOF2'
sys/devices/pci0000:00/0000:3b:00.0/net/eth0/queues/rx-1/rps_cpus
sys/devices/pci0000:00/0000:3b:00.0/net/eth0/queues/tx-0/xps_cpus
EOF2
}

@test "restore -n and -J: queue lines counted apart from the IRQs" {
	queue_tree
	printf '%s\n' 'xps eth0 tx-0 1' 'rps eth0 rx-0 2-3' 'xps eth0 tx-1 none' \
		'41 2 "eth0-TxRx-0"' >"$SNAP"
	keep_tree
	run --separate-stderr irqaff restore -n "$SNAP"
	assert_success
	assert_equal "$stderr" ""
	assert_output - <<'EOF2'
irq 41: 0-3 -> 2
xps eth0 tx-0: 0-3 -> 1
xps eth0 tx-1: 1 -> -
EOF2
	run --separate-stderr irqaff restore -n -J "$SNAP"
	assert_success
	assert_output '{"dry_run":true,"changed":[{"irq":41,"name":"eth0-TxRx-0","old":"0-3","new":"2"}],"unchanged":0,"failed":[],"managed":[],"unmovable":[],"queues":{"changed":[{"dev":"eth0","queue":"tx-0","old":"0-3","new":"1"},{"dev":"eth0","queue":"tx-1","old":"1","new":""}],"unchanged":1,"failed":[]},"problems":[]}'
	run changed_files
	assert_output ""
}

@test "queue lines: a missing interface or queue is a problem unless ?, in line order" {
	queue_tree
	cat >"$SNAP" <<'EOF2'
xps eth0 tx-0 1
?xps eth2 tx-0 1
xps eth2 tx-0 2
"nosuch" 1
?rps eth0 rx-7 1
rps eth0 rx-7 2
xps eth1 tx-0 1
rps "eth0" rx-1 3
EOF2
	keep_tree
	run --separate-stderr irqaff restore "$SNAP"
	assert_failure 3
	assert_output ""
	assert_equal "$stderr" "irqaff: $SNAP:3: xps eth2 tx-0: no such interface
irqaff: $SNAP:4: \"nosuch\" matches no IRQ
irqaff: $SNAP:6: rps eth0 rx-7: no such queue
irqaff: $SNAP:7: xps eth1 tx-0: the queue has no xps_cpus"
	assert_file "$(qfile eth0 tx-0)" $'2\n'
	assert_file "$(qfile eth0 rx-1)" $'8\n'
	run changed_files
	assert_output - <<'EOF2'
sys/devices/pci0000:00/0000:3b:00.0/net/eth0/queues/rx-1/rps_cpus
sys/devices/pci0000:00/0000:3b:00.0/net/eth0/queues/tx-0/xps_cpus
EOF2
	run --separate-stderr irqaff restore -J "$SNAP"
	assert_failure 1
	assert_output '{"dry_run":false,"changed":[],"unchanged":0,"failed":[],"managed":[],"unmovable":[],"queues":{"changed":[],"unchanged":2,"failed":[]},"problems":[{"line":3,"error":"xps eth2 tx-0: no such interface"},{"line":4,"error":"\"nosuch\" matches no IRQ"},{"line":6,"error":"rps eth0 rx-7: no such queue"},{"line":7,"error":"xps eth1 tx-0: the queue has no xps_cpus"}]}'
	sed -i '/^[xr]ps eth[12]\|^"\|^rps eth0 rx-7/d' "$SNAP"
	run --separate-stderr irqaff restore "$SNAP"
	assert_success
	assert_equal "$stderr" ""
}

@test "the last line for a queue wins" {
	queue_tree
	printf 'xps eth0 tx-0 1\nxps eth0 tx-0 2\nrps eth0 rx-0 3\n?rps eth0 rx-0 none\n' >"$SNAP"
	run --separate-stderr irqaff restore -v "$SNAP"
	assert_success
	assert_output - <<'EOF2'
rps eth0 rx-0: 2-3 -> -
xps eth0 tx-0: 0-3 -> 2
EOF2
}

@test "restore --only dev:eth0 applies eth0's queue lines and not eth1's" {
	queue_tree
	irqaff save -o "$SNAP"
	printf '1\n' >"$(qfile eth0 tx-0)"
	printf '1\n' >"$(qfile eth1 rx-0)"
	printf 'xps eth2 tx-0 1\n' >>"$SNAP"
	irqaff set -q 41,51 2
	keep_tree
	run --separate-stderr irqaff restore -v --only dev:eth0 "$SNAP"
	assert_success
	assert_equal "$stderr" ""
	assert_output - <<'EOF2'
irq 40: 0-3 unchanged
irq 41: 2 -> 0-3
irq 42: 0-3 unchanged
rps eth0 rx-0: 2-3 unchanged
xps eth0 tx-0: 0 -> 0-3
rps eth0 rx-1: - unchanged
xps eth0 tx-1: 1 unchanged
EOF2
	run changed_files
	assert_output - <<'EOF2'
proc/irq/41/smp_affinity_list
sys/devices/pci0000:00/0000:3b:00.0/net/eth0/queues/tx-0/xps_cpus
EOF2
	assert_file "$(qfile eth1 rx-0)" $'1\n'
	run --separate-stderr irqaff restore -v --only 'eth1*' "$SNAP"
	assert_success
	assert_output $'irq 50: 0-3 unchanged\nirq 51: 2 -> 0-3'
	assert_file "$(qfile eth1 rx-0)" $'1\n'
}

@test "bad queue lines are refused with status 2 and nothing is written" {
	queue_tree
	keep_tree
	cat >"$SNAP" <<'EOF2'
xps eth0 rx-0 1
rps eth0 tx-0 1
xps eth0 tx-0
xps eth0 tx-01 1
xps eth0 tx-0 1 "name"
xps "" tx-0 1
xps eth0 "tx-0" 1
rps eth0 rx-0 "1"
rps eth0 rx-65536 1
xps eth0 tx-0 9
xps eth0 tx-0 none,1
xps
"xps" 1
41 1
EOF2
	run --separate-stderr irqaff restore "$SNAP"
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "irqaff: $SNAP:1: \"rx-0\" is not a queue of xps: tx-N
irqaff: $SNAP:2: \"tx-0\" is not a queue of rps: rx-N
irqaff: $SNAP:3: \"xps\" takes an interface, a queue and a CPU set, as in \"xps eth0 tx-0 0-3\"
irqaff: $SNAP:4: \"tx-01\" is not a queue of xps: tx-N
irqaff: $SNAP:5: \"xps\" takes an interface, a queue and a CPU set, as in \"xps eth0 tx-0 0-3\"
irqaff: $SNAP:6: an empty interface name
irqaff: $SNAP:7: \"tx-0\" is not a queue of xps: tx-N
irqaff: $SNAP:8: the CPU set \"1\" is quoted
irqaff: $SNAP:9: queue \"rx-65536\": the number is over 65535
irqaff: $SNAP:10: CPU list \"9\": CPU 9 is beyond the last possible CPU 3
irqaff: $SNAP:11: CPU list \"none,1\": region \"none\": \"none\" is not a number
irqaff: $SNAP:12: \"xps\" takes an interface, a queue and a CPU set, as in \"xps eth0 tx-0 0-3\""
	run changed_files
	assert_output ""
}

@test "a queue that cannot be set counts as a failure: status 3, or 1 alone" {
	queue_tree
	printf 'zz\n' >"$(qfile eth0 tx-1)"
	printf '41 2 "eth0-TxRx-0"\nxps eth0 tx-1 2\n' >"$SNAP"
	keep_tree
	run --separate-stderr irqaff restore "$SNAP"
	assert_failure 3
	assert_output ""
	assert_equal "$stderr" "irqaff: xps eth0 tx-1: $(qfile eth0 tx-1) holds \"zz\", not a CPU mask; left alone"
	run changed_files
	assert_output 'proc/irq/41/smp_affinity_list'
	run --separate-stderr irqaff restore -J "$SNAP"
	assert_failure 1
	assert_output '{"dry_run":false,"changed":[],"unchanged":1,"failed":[],"managed":[],"unmovable":[],"queues":{"changed":[],"unchanged":0,"failed":[{"dev":"eth0","queue":"tx-1","new":"2","errno":null,"error":"'"$(qfile eth0 tx-1)"' holds \"zz\", not a CPU mask; left alone"}]},"problems":[]}'
}

@test "restore -t checks the file against the machine and applies nothing" {
	tree
	printf 'default 0-3\neth0-TxRx-* 2-3\neth9-* 1\nxps eth0 tx-0 1\n' >"$SNAP"
	before=$(tree_sum)
	# a line that matches nothing is no bad input, but fails -t as it
	# fails restore: status 1, the line named
	run --separate-stderr irqaff restore -t "$SNAP"
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" "irqaff: $SNAP:3: \"eth9-*\" matches no IRQ
irqaff: $SNAP:4: xps eth0 tx-0: no such queue"
	run --separate-stderr irqaff restore --test -J "$SNAP"
	assert_failure 1
	assert_output ""
	# optional, they pass
	printf 'default 0-3\neth0-TxRx-* 2-3\n?eth9-* 1\n?xps eth0 tx-0 1\n' >"$SNAP"
	run --separate-stderr irqaff restore -t "$SNAP"
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	printf 'eth0-TxRx-* 8\nxps eth0 tx-0 1-\n' >"$SNAP"
	run --separate-stderr irqaff restore -t "$SNAP"
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "irqaff: $SNAP:1: CPU list \"8\": CPU 8 is beyond the last possible CPU 7
irqaff: $SNAP:2: CPU list \"1-\": region \"1-\" ends where a number should be"
	run -1 irqaff restore -t --only 'dev:eth9' "$SNAP"
	assert_equal "$(tree_sum)" "$before"
}

# platform_nic: end0, a SoC's Ethernet (drivers/net/ethernet/stmicro/
# stmmac as on many ARM boards) under sys/devices/platform, with a queue
# each way and no IRQs in sysfs: its IRQs are the platform's, named
# "end0" or "eth0" by the driver, not found from the device.
platform_nic() {
	local d=$ROOT/sys/devices/platform/soc/1c30000.ethernet
	mkdir -p "$d/net/end0/queues/rx-0" "$d/net/end0/queues/tx-0"
	printf '0\n' >"$d/net/end0/queues/rx-0/rps_cpus"
	printf '0\n' >"$d/net/end0/queues/tx-0/xps_cpus"
	ln -s ../../../1c30000.ethernet "$d/net/end0/device"
	ln -s ../../devices/platform/soc/1c30000.ethernet/net/end0 \
		"$ROOT/sys/class/net/end0"
}

@test "restore --only dev: of an interface without IRQs applies its queue lines" {
	queue_tree
	platform_nic
	printf 'eth0-TxRx-* 1\nxps end0 tx-0 2-3\nrps end0 rx-0 1\nxps eth0 tx-0 1\n' >"$SNAP"
	keep_tree
	run --separate-stderr irqaff restore -J --only dev:end0 "$SNAP"
	assert_success
	assert_equal "$stderr" ""
	assert_output '{"dry_run":false,"changed":[],"unchanged":0,"failed":[],"managed":[],"unmovable":[],"queues":{"changed":[{"dev":"end0","queue":"rx-0","old":"","new":"1"},{"dev":"end0","queue":"tx-0","old":"","new":"2-3"}],"unchanged":0,"failed":[]},"problems":[]}'
	run changed_files
	assert_output - <<'EOF2'
sys/devices/platform/soc/1c30000.ethernet/net/end0/queues/rx-0/rps_cpus
sys/devices/platform/soc/1c30000.ethernet/net/end0/queues/tx-0/xps_cpus
EOF2
	# nothing left to do: status 0
	run --separate-stderr irqaff restore --only dev:end0 "$SNAP"
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	run --separate-stderr irqaff check --only dev:end0 "$SNAP"
	assert_success
	assert_output ""
	# no line for it at all: nothing to do either
	printf 'eth0-TxRx-* 1\n' >"$SNAP"
	run --separate-stderr irqaff restore --only dev:end0 "$SNAP"
	assert_success
	assert_equal "$stderr" ""
	# its queues are saved
	run --separate-stderr irqaff save --only dev:end0
	assert_success
	assert_line 'xps end0 tx-0 2-3'
	assert_line 'rps end0 rx-0 1'
	# a name that is no interface matches nothing: status 1
	run --separate-stderr irqaff restore --only dev:end9 "$SNAP"
	assert_failure 1
	assert_equal "$stderr" 'irqaff: IRQ list "dev:end9": device end9 has no IRQs or does not exist'
	run -2 irqaff restore --only dev:.. "$SNAP"
	# and elsewhere a device without IRQs selects nothing
	run -1 irqaff set -n dev:end0 0
}

@test "a queue write the kernel refuses is said in its own words, with its errno in -J" {
	queue_tree
	printf 'xps eth0 tx-1 2\n' >"$SNAP"
	f=$(realpath "$(qfile eth0 tx-1)")
	run --separate-stderr faulty "$f:ENOSPC" irqaff restore "$SNAP"
	assert_failure 1
	assert_equal "$stderr" "irqaff: xps eth0 tx-1: cannot set 2: $(qfile eth0 tx-1): No space left on device"
	run --separate-stderr faulty "$f:ENOSPC" irqaff restore -J "$SNAP"
	assert_failure 1
	assert_output '{"dry_run":false,"changed":[],"unchanged":0,"failed":[],"managed":[],"unmovable":[],"queues":{"changed":[],"unchanged":0,"failed":[{"dev":"eth0","queue":"tx-1","new":"2","errno":"ENOSPC","error":"cannot set 2: '"$(qfile eth0 tx-1)"': No space left on device"}]},"problems":[]}'
}

# The kernel keeps only online CPUs in xps_cpus and rps_cpus, and in
# rps_cpus none isolated or nohz_full (__netif_set_xps_queue(),
# store_rps_map()): a snapshot from before CPU 3 went offline and CPU 2
# was isolated is applied as far as the kernel keeps it, and matches
# what the kernel kept.
@test "queue lines with offline and isolated CPUs: what the kernel keeps is applied and matches" {
	queue_tree --offline 3 --isolated 2
	printf '%s\n' 'xps eth0 tx-0 0-3' 'xps eth0 tx-1 1' 'rps eth0 rx-0 2-3' \
		'rps eth1 rx-0 3' >"$SNAP"
	assert_file "$(qfile eth0 tx-0)" $'7\n'
	assert_file "$(qfile eth0 rx-0)" $'0\n'
	keep_tree
	run --separate-stderr -0 irqaff check "$SNAP"
	assert_output ''
	run --separate-stderr -0 irqaff restore -v "$SNAP"
	assert_equal "$stderr" 'irqaff: note: xps and rps lines: CPU 3 left out: the kernel keeps no offline CPU in xps_cpus or rps_cpus, nor an isolated or nohz_full one in rps_cpus'
	assert_output - <<'EOF2'
rps eth0 rx-0: - unchanged
xps eth0 tx-0: 0-2 unchanged
xps eth0 tx-1: 1 unchanged
rps eth1 rx-0: - unchanged
EOF2
	run changed_files
	assert_output ''
	# drift: tx-0 is given back what is kept; rx-0 cannot be
	printf '1\n' >"$(qfile eth0 tx-0)"
	printf '1\n' >"$(qfile eth0 rx-0)"
	run --separate-stderr -1 irqaff check "$SNAP"
	assert_output - <<'EOF2'
rps eth0 rx-0: 0 (want 2-3, but CPU 3 offline, 2 isolated or nohz_full: none kept)
xps eth0 tx-0: 0 (want 0-3, but CPU 3 offline: 0-2 kept)
EOF2
	run --separate-stderr -3 irqaff restore -q "$SNAP"
	assert_output ''
	assert_equal "$stderr" "irqaff: note: xps and rps lines: CPU 3 left out: the kernel keeps no offline CPU in xps_cpus or rps_cpus, nor an isolated or nohz_full one in rps_cpus
irqaff: $SNAP:3: rps eth0 rx-0: CPUs \"2-3\": none would be kept: the kernel keeps only online CPUs that are neither isolated nor nohz_full in rps_cpus"
	assert_file "$(qfile eth0 tx-0)" $'7\n'
	assert_file "$(qfile eth0 rx-0)" $'1\n'
}

@test "restore and check exit 2 for a missing file; restore -t fails a misspelt pattern as restore does" {
	make_root --cpus 8 --nic eth0:2
	local before
	before=$(tree_sum)
	run -2 --separate-stderr irqaff restore "$BATS_TEST_TMPDIR/nosuch"
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/nosuch: No such file or directory"
	run -2 --separate-stderr irqaff check "$BATS_TEST_TMPDIR/nosuch"
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/nosuch: No such file or directory"
	printf 'eth0-TxRX-* 1\n' >"$BATS_TEST_TMPDIR/typo"
	run -1 --separate-stderr irqaff restore -t "$BATS_TEST_TMPDIR/typo"
	assert_output ''
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/typo:1: \"eth0-TxRX-*\" matches no IRQ"
	local want=$stderr
	run -1 --separate-stderr irqaff restore "$BATS_TEST_TMPDIR/typo"
	assert_equal "$stderr" "$want"
	assert_equal "$(tree_sum)" "$before"
	# the other side: spelt right, -t passes and writes nothing
	printf 'eth0-TxRx-* 1\n' >"$BATS_TEST_TMPDIR/ok"
	run -0 --separate-stderr irqaff restore -t "$BATS_TEST_TMPDIR/ok"
	assert_output ''
	assert_equal "$(tree_sum)" "$before"
}

@test "restore's help and page say a snapshot that cannot be read is status 2, as restore exits" {
	run -0 irqaff restore --help
	assert_line '  2  bad usage, or a snapshot that cannot be read, is wrong or'
	assert_line '     has no entry; nothing written'
	run -0 awk '$0 == "*2*" { getline; print; exit }' \
		"$TESTS/../man/irqaff-restore.8.scd"
	assert_output $'\tBad usage, or a snapshot that cannot be read (a missing file), is'
	run -0 grep -c 'for `restore` and `check`, a snapshot that cannot be read' \
		"$TESTS/../README.md"
	assert_output 1
}

@test "restore --by-number notes a line whose IRQ has another name now, and applies it" {
	make_root --cpus 8 --nic eth0:2
	printf '25 1 "eth9-TxRx-0"\n26 2 "eth0-TxRx-1"\n' >"$BATS_TEST_TMPDIR/bn"
	run -0 --separate-stderr irqaff restore --by-number "$BATS_TEST_TMPDIR/bn"
	assert_output ''
	assert_equal "$stderr" "irqaff: note: $BATS_TEST_TMPDIR/bn:1: IRQ 25 is \"eth0-TxRx-0\" here, \"eth9-TxRx-0\" in the snapshot; matched by its number (--by-number)"
	assert_equal "$(lists 25 26)" $'1\n2'
	# the other side: the names agree, nothing is said
	run -0 --separate-stderr irqaff restore --by-number "$BATS_TEST_TMPDIR/bn"
	assert_equal "${stderr_lines[*]}" "irqaff: note: $BATS_TEST_TMPDIR/bn:1: IRQ 25 is \"eth0-TxRx-0\" here, \"eth9-TxRx-0\" in the snapshot; matched by its number (--by-number)"
	printf '26 3 "eth0-TxRx-1"\n' >"$BATS_TEST_TMPDIR/bn"
	run -0 --separate-stderr irqaff restore --by-number "$BATS_TEST_TMPDIR/bn"
	assert_equal "$stderr" ''
}
