#!/usr/bin/env bats
# The man pages: irqaff(8), the overview, and one page for each command,
# irqaff-COMMAND(8). They build and render cleanly, each command's page
# documents what its --help lists, and every example in them runs.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	load ../test_helper/commands
	MAN=$BATS_TEST_DIRNAME/../../man
	SRC=$MAN/irqaff.8.scd
}

# page COMMAND: the source of COMMAND's page.
page() {
	printf '%s\n' "$MAN/irqaff-$1.8.scd"
}

# render FILE: the page as man shows it at 80 columns in UTF-8, but
# left-adjusted and unhyphenated, so that no groff release's line breaking
# decides the result: groff 1.23 (Debian 13) warns "cannot adjust line"
# where it cannot justify a line.
render() {
	LC_ALL=C.UTF-8 MANROFFOPT='-rHY=0 -dAD=l' MANWIDTH=80 MANPAGER=cat \
		man --warnings -l "$1"
}

# The lines of standard input longer than 80 characters (not bytes: a
# bullet or a hyphen is 3 in UTF-8).
over80() {
	LC_ALL=C.UTF-8 grep -n '^.\{81\}'
}

# The options COMMAND --help lists, other than -h, --help: "-m, --mask"
# or "--by-number", one a line.
help_options() {
	irqaff "$1" --help | sed -n '/^Options:/,/^$/p' |
		sed -n 's/^  \(-[A-Za-z], --[a-z-]*\).*/\1/p
			s/^      \(--[a-z-]*\).*/\1/p' |
		grep -vx -e '-h, --help' -e '--help'
}

# section HEADING [FILE]: a section of FILE (the overview by default),
# from "# HEADING" to the next heading.
section() {
	awk -v h="# $1" '$0 == h { on = 1; next } /^# / { on = 0 } on' \
		"${2:-$SRC}"
}

# renders_with FILE HEADING...: FILE builds with scdoc and renders at 80
# columns without a diagnostic, with each HEADING, within 80 columns.
renders_with() {
	local src=$1 out=$BATS_TEST_TMPDIR/page heading
	shift
	run --separate-stderr scdoc <"$src"
	assert_success
	assert_equal "$stderr" ""
	printf '%s\n' "$output" >"$out"
	run --separate-stderr render "$out"
	assert_success
	assert_equal "$stderr" ""
	[ -n "$output" ]
	for heading in "$@"; do
		grep -qx -- "$heading" <<<"$output" ||
			fail "${src##*/}: no section $heading in the rendered page"
	done
	run over80 <<<"$output"
	assert_output ""
}

@test "every command's --help lines its descriptions up in one column" {
	local cmd col
	for cmd in $(commands); do
		# the column where each description starts, one a line
		col=$(irqaff "$cmd" --help | sed -n '/^Options:/,/^$/p' |
			awk '/^ +-/ { lead = match($0, /-/)
				match(substr($0, lead), /  +[^ ]/)
				print lead + RSTART + RLENGTH }' |
			sort -u | wc -l)
		[[ $col == 1 ]] || fail "$cmd --help: descriptions in $col columns"
	done
}

@test "irqaff(8) renders at 80 columns without warnings and with every section" {
	renders_with "$SRC" NAME SYNOPSIS DESCRIPTION OPTIONS COMMANDS \
		'CPU SETS' 'IRQ SELECTORS' 'SNAPSHOT FILES' ENVIRONMENT FILES \
		'JSON RESULTS' 'EXIT STATUS' DIAGNOSTICS IRQBALANCE EXAMPLES \
		'SEE ALSO'
}

@test "each command's page renders at 80 columns without warnings and with every section" {
	local cmd
	for cmd in $(commands); do
		renders_with "$(page "$cmd")" NAME SYNOPSIS DESCRIPTION OPTIONS \
			'EXIT STATUS' EXAMPLES 'SEE ALSO'
	done
}

@test "irqaff.conf(5) renders without warnings, in its sections, within 80 columns" {
	local conf=$BATS_TEST_DIRNAME/../../man/irqaff.conf.5.scd heading
	run awk '{ gsub(/\t/, "        ") } length > 80 { print FNR ": " $0 }' \
		"$conf"
	assert_output ""
	scdoc <"$conf" >"$BATS_TEST_TMPDIR/irqaff.conf.5"
	run --separate-stderr render "$BATS_TEST_TMPDIR/irqaff.conf.5"
	assert_success
	assert_equal "$stderr" ""
	for heading in NAME SYNOPSIS DESCRIPTION 'CHECKING A FILE' EXAMPLES \
		'SEE ALSO'; do
		grep -qx -- "$heading" <<<"$output" ||
			fail "no section $heading in the rendered page"
	done
	run over80 <<<"$output"
	assert_output ""
}

@test "the man pages' sources are wrapped at 80 columns" {
	run awk '{ gsub(/\t/, "        ") }
		length > 80 { print FILENAME ":" FNR ": " $0 }' "$MAN"/*.scd
	assert_output ""
}

@test "each command irqaff --help lists has a page, and there is no other" {
	local cmd pages
	run commands
	assert_success
	[ "${#lines[@]}" -ge 9 ]
	pages=$(cd "$MAN" && ls irqaff-*.8.scd | sed 's/^irqaff-//; s/\.8\.scd$//' |
		sort)
	assert_equal "$pages" "$(printf '%s\n' "${lines[@]}" | sort)"
}

@test "each command's page is named as irqaff --help describes the command" {
	local cmd text differ=
	while read -r cmd text; do
		[ "$(section NAME "$(page "$cmd")" | grep .)" = \
			"irqaff-$cmd - $text" ] || differ+=" $cmd"
		head -n 1 "$(page "$cmd")" |
			grep -qxF "irqaff-$cmd(8) \"irqaff @VERSION@\"" ||
			differ+=" $cmd:title"
	done < <(irqaff --help | sed -n '/^Commands/,/^$/s/^  //p')
	assert_equal "$differ" ""
}

@test "irqaff(8) names every command's page in COMMANDS and SEE ALSO" {
	local cmd missing=
	for cmd in $(commands); do
		section COMMANDS | grep -qF "*irqaff-$cmd*(8)" ||
			missing+=" COMMANDS:$cmd"
		section 'SEE ALSO' | grep -qF "*irqaff-$cmd*(8)" ||
			missing+=" SEE-ALSO:$cmd"
		section 'SEE ALSO' "$(page "$cmd")" | grep -qF '*irqaff*(8)' ||
			missing+=" $cmd:irqaff(8)"
	done
	assert_equal "$missing" ""
}

@test "make man builds every page, and man renders a command's page" {
	local repo=$BATS_TEST_DIRNAME/../.. cmd
	run -0 make -s -C "$repo" man
	for cmd in $(commands); do
		[ -s "$repo/build/irqaff-$cmd.8" ] || fail "no build/irqaff-$cmd.8"
	done
	run -0 --separate-stderr render "$repo/build/irqaff-balance.8"
	assert_equal "$stderr" ""
	assert_line --index 0 --regexp '^irqaff-balance\(8\) '
	assert_line "       irqaff-balance - put the busiest IRQs on the least-loaded CPUs, by"
}

@test "every option each command's --help lists is documented in its section" {
	local cmd opt text missing=
	for cmd in $(commands); do
		run --separate-stderr help_options "$cmd"
		[ "$status" -eq 0 ] || fail "irqaff $cmd --help lists no options"
		text=$(section OPTIONS "$(page "$cmd")")
		for opt in "${lines[@]}"; do
			grep -qF -- "*$opt*" <<<"$text" || missing+=" $cmd:$opt"
		done
	done
	assert_equal "$missing" ""
}

@test "every option the man page documents for a command is in its --help" {
	local cmd opt extra=
	for cmd in $(commands); do
		run help_options "$cmd"
		local -a helped=("${lines[@]}")
		while IFS= read -r opt; do
			printf '%s\n' "${helped[@]}" | grep -qxF -- "$opt" ||
				extra+=" $cmd:$opt"
		done < <(section OPTIONS "$(page "$cmd")" |
			sed -n 's/^\*\(-[^*]*\)\*.*/\1/p')
	done
	assert_equal "$extra" ""
}

@test "each command's synopsis in its page is its usage line" {
	local cmd man help differ=
	for cmd in $(commands); do
		# The synopsis paragraph, unformatted.
		man=$(section SYNOPSIS "$(page "$cmd")" |
			awk 'NF { p = p (p ? " " : "") $0; next }
			p { exit } END { print p }' | tr -d '*_\\')
		help=$(irqaff "$cmd" --help | sed -n 's/^usage: //p')
		[ "$man" = "$help" ] || differ+=$'\n'"man:  $man"$'\n'"help: $help"
	done
	assert_equal "$differ" ""
}

@test "the OPTIONS section documents the options irqaff --help shows" {
	local opt opts missing=
	run irqaff --help
	assert_success
	opts=$(sed -n 's/^\(usage:\| \) *irqaff //p' <<<"$output" |
		grep -oE -- '--[a-z]+')
	[ "$(wc -l <<<"$opts")" -ge 3 ]
	for opt in $opts; do
		section OPTIONS | grep -qE -- "^\\*(-., )?$opt\\*" ||
			missing+=" $opt"
	done
	assert_equal "$missing" ""
}

@test "irqaff(8) describes exit statuses 0, 1, 2, 3 and 4" {
	local code
	for code in 0 1 2 3 4; do
		section 'EXIT STATUS' | grep -qx "\*$code\*" ||
			fail "exit status $code is not in EXIT STATUS"
	done
}

# The literal blocks of the pages, run as the pages show them, the
# EXAMPLES sections' and those of the text. Each block gets a fresh tree,
# a machine as the pages describe it (two nodes, two NICs, an NVMe
# controller with kernel-managed queues); in a block, a line starting with "irqaff " or "less " is a command and
# the lines after it, if any, its exact standard output; a block without
# a command (a sample of output or of a file) is not run. /etc/ and /root/
# are moved into the test directory; "less" is cat, as a minimal system
# has no pager. "cp /proc/interrupts FILE" copies the
# tree's, its modification time that of a clock that only "sleep N" moves
# (by N seconds, without sleeping). A command with an open quote at the
# end of its line goes on over the next lines.
@test "every example in the man pages runs and prints what the page shows" {
	local block=0 in=0 open=0 line cmd= want= failed= src had q
	local -a cmds=() wants=()

	less() { cat -- "$@"; }
	run_block() {
		local i got rc clock=1700000000 f
		rm -rf "$BATS_TEST_TMPDIR/root" "$BATS_TEST_TMPDIR/etc" \
			"$BATS_TEST_TMPDIR/home"
		make_root --cpus 64 --nodes 2 --threads 2 --nic eth0:8:1 \
			--nic eth1:4:0 --legacy 16 --queues
		mkdir -p "$BATS_TEST_TMPDIR/etc" "$BATS_TEST_TMPDIR/home"
		for ((i = 0; i < ${#cmds[@]}; i++)); do
			if [[ ${cmds[i]} =~ ^sleep\ ([0-9]+)$ ]]; then
				clock=$((clock + BASH_REMATCH[1]))
				continue
			elif [[ ${cmds[i]} == 'cp /proc/interrupts '* ]]; then
				f=$BATS_TEST_TMPDIR/${cmds[i]#cp /proc/interrupts }
				cp "$ROOT/proc/interrupts" "$f"
				touch -d "@$clock" "$f"
				continue
			fi
			rc=0
			got=$(cd "$BATS_TEST_TMPDIR" &&
				eval "${cmds[i]}" 2>"$BATS_TEST_TMPDIR/stderr") ||
				rc=$?
			if [ "$rc" -ne 0 ]; then
				failed+=$'\n'"${src##*/}: ${cmds[i]}: exit $rc: $(
					cat "$BATS_TEST_TMPDIR/stderr")"
			elif [ -n "${wants[i]}" ] && [ "$got" != "${wants[i]}" ]; then
				failed+=$'\n'"${src##*/}: ${cmds[i]}: printed \"$got\","
				failed+=" the page shows \"${wants[i]}\""
			fi
		done
		cmds=()
		wants=()
	}

	for src in "$SRC" "$MAN"/irqaff-*.8.scd; do
		had=$block
		while IFS= read -r line; do
			line=${line#"${line%%[![:space:]]*}"}
			if [ "$line" = '```' ]; then
				if ((in && ${#cmds[@]})); then
					run_block
					block=$((block + 1))
				fi
				in=$((!in))
				continue
			fi
			((in)) || continue
			if ((open)); then
				# a command whose quotes span lines goes on
				cmds[${#cmds[@]} - 1]+=$'\n'$line
				q=${cmds[${#cmds[@]} - 1]//[^\']/}
				open=$((${#q} % 2))
				continue
			fi
			if [[ $line == 'irqaff '* || $line == 'less '* ||
				$line == 'cp /proc/interrupts '* ||
				$line =~ ^sleep\ [0-9]+$ ]]; then
				line=${line//\/etc\//$BATS_TEST_TMPDIR/etc/}
				cmds+=("${line//\/root\//$BATS_TEST_TMPDIR/home/}")
				wants+=("")
				q=${line//[^\']/}
				open=$((${#q} % 2))
			elif ((${#cmds[@]} > 0)); then
				want=${wants[${#wants[@]} - 1]}
				wants[${#wants[@]} - 1]=${want:+$want$'\n'}$line
			fi
		done <"$src"
		((block > had)) || failed+=$'\n'"${src##*/}: no example"
	done
	[ "$block" -ge 25 ]
	assert_equal "$failed" ""
}

# irqaff-show(8)'s jq one-liner for the IRQs off their node, run as the
# page prints it: an IRQ requested on the wrong node counts before it
# moves, one already moved counts, one moved back home whose move waits
# does not (explain's remote-node: issue 50, seen on a booted guest), and
# a device on no node (-1) never.
@test "irqaff-show(8)'s jq for IRQs off their node is right both ways" {
	local cmd
	cmd=$(awk '/^```/ { on = !on; if (!on && b ~ /effective_nodes/) {
		printf "%s", b; exit }; b = ""; next }
		on { b = b $0 "\n" }' "$MAN/irqaff-show.8.scd")
	[[ $cmd == 'irqaff show -J dev:eth0 | jq '* ]] || fail "no one-liner: $cmd"
	# node 1 is CPUs 2-3; eth0's IRQs 40-43 run on CPUs 0, 1, 2 and 3
	make_root --cpus 4 --nodes 2 --nic eth0:3:1:40 --nic eth1:2:-1:50
	# requested on node 0, still on CPU 2 until its next interrupt; 41
	# requested home, still on CPU 1
	irqaff set 42 0-1 >/dev/null
	irqaff set 41 2-3 >/dev/null
	run -0 eval "$cmd"
	assert_output $'40 eth0\n42 eth0-TxRx-1'
	run -1 irqaff explain dev:eth0
	assert_equal "$(grep ': remote-node: ' <<<"$output" | cut -d' ' -f2)" $'40\n42'
	run -0 eval "${cmd/dev:eth0/dev:eth1}"
	assert_output ''
}

# The first spread of irqaff(8)'s and spread(8)'s EXAMPLES, as a new user
# copies it, leaves no transmit queue's XPS apart from its IRQ (issue 50):
# no note, and queues shows each aligned.
@test "the spread examples of irqaff(8) and spread(8) leave every tx queue's XPS on its IRQ" {
	local page cmd
	for page in irqaff.8 irqaff-spread.8; do
		cmd=$(awk '/^# EXAMPLES/ { ex = 1 }
			ex && /^irqaff spread / { print; exit }' "$MAN/$page.scd")
		[[ $cmd == 'irqaff spread '*dev:eth0 ]] || fail "$page: no spread example: $cmd"
		make_root --dir "$BATS_TEST_TMPDIR/$page" --cpus 4 --nic eth0:2 \
			--queues --xps eth0:0=0-3 --xps eth0:1=0-3
		run -0 --separate-stderr eval "$cmd"
		assert_equal "$stderr" "irqaff: spreading eth0's 3 IRQs over CPU 0-3: node 0 (eth0's node)"
		run -0 irqaff queues -n -o queue,aligned eth0
		assert_output $'rx-0 -\ntx-0 yes\nrx-1 -\ntx-1 yes'
	done
}

# issue 50: explain(8) and cpus(8) said their commands only read, yet as
# root without debugfs they write "x" to smp_affinity to tell a managed
# IRQ; show(8)'s -J left "(null where the set is)" unfinished.
@test "explain(8) and cpus(8) say they probe smp_affinity, not that they only read; show(8)'s null sentence ends" {
	local cmd text
	for cmd in explain cpus; do
		text=$(section DESCRIPTION "$MAN/irqaff-$cmd.8.scd" | tr '\n' ' ')
		[[ $text != *'only read'* ]] || fail "irqaff-$cmd(8) says it only reads"
		[[ $text == *'not read-only'*'writing "x" to '*'_smp_affinity_'* ]] ||
			fail "irqaff-$cmd(8) does not say it probes smp_affinity"
	done
	text=$(section OPTIONS "$MAN/irqaff-show.8.scd" | tr '\n\t' '  ')
	[[ $text == *'"effective_nodes" (null when the set is not known), so'* ]] ||
		fail "irqaff-show(8): the nodes' null is not said whole"
}

# The files irqaff.conf(5) shows (the blocks that hold no command) are
# snapshots that restore -t takes, on the examples' machine.
@test "every sample file in irqaff.conf(5) is one restore -t takes" {
	local conf=$MAN/irqaff.conf.5.scd n=0 f
	make_root --cpus 64 --nodes 2 --threads 2 --nic eth0:8:1 \
		--nic eth1:4:0 --legacy 16 --queues --nvme nvme0:4:1:80 \
		--managed 80-84 --irq '19=ehci_hcd:usb1|i801_smbus'
	awk -v dir="$BATS_TEST_TMPDIR" '
		/^```/ { if (on) close(f); else f = dir "/sample" ++k; on = !on
			next }
		on { print > f }' "$conf"
	for f in "$BATS_TEST_TMPDIR"/sample*; do
		grep -qE '^(irqaff|systemctl) ' "$f" && continue
		run --separate-stderr irqaff restore -t "$f"
		[ "$status" -eq 0 ] ||
			fail "${f##*/}: restore -t: status $status: $stderr"
		n=$((n + 1))
	done
	assert_equal "$n" 3
}

# The files of irqaff.conf(5)'s EXAMPLES fit any machine: restore -t takes
# them on a small one too (4 CPUs, one node, no eth2), and the snapshot of
# DESCRIPTION on the 8 CPUs it was saved on.
@test "irqaff.conf(5)'s examples pass restore -t on a small machine" {
	local conf=$MAN/irqaff.conf.5.scd f n=0
	awk -v dir="$BATS_TEST_TMPDIR" '
		/^# EXAMPLES/ { ex = 1 }
		/^```/ { if (on) close(f)
			else f = dir "/" (ex ? "example" : "saved") ++k
			on = !on; next }
		on { print > f }' "$conf"
	make_root --cpus 4 --nic eth0:2:0:40 --queues --nvme nvme0:2:0:80 \
		--managed 81-82
	for f in "$BATS_TEST_TMPDIR"/example*; do
		grep -qE '^(irqaff|systemctl) ' "$f" && continue
		run --separate-stderr irqaff restore -t "$f"
		[ "$status" -eq 0 ] ||
			fail "${f##*/}: restore -t on 4 CPUs: status $status: $stderr"
		n=$((n + 1))
	done
	assert_equal "$n" 2
	make_root --dir "$BATS_TEST_TMPDIR/eight" --cpus 8 --irq 0=timer \
		--nic eth0:2:0:40 --queues --irq '50=ehci_hcd:usb1|i801_smbus'
	run --separate-stderr -0 irqaff restore -t "$BATS_TEST_TMPDIR/saved1"
}
