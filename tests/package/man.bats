#!/usr/bin/env bats
# The man page: it builds and renders cleanly, documents what each
# command's --help lists, and every example in it runs.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	load ../test_helper/commands
	SRC=$BATS_TEST_DIRNAME/../../man/irqaff.8.scd
	PAGE=$BATS_TEST_TMPDIR/irqaff.8
}

build_page() {
	scdoc <"$SRC" >"$PAGE"
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

# The man page section of a command, from "# NAME" to the next heading.
section() {
	local name
	name=$(printf '%s' "$1" | tr '[:lower:]' '[:upper:]')
	awk -v h="# $name" '$0 == h { on = 1; next } /^# / { on = 0 } on' "$SRC"
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

@test "the man page builds with scdoc and no diagnostics" {
	run --separate-stderr build_page
	assert_success
	assert_equal "$stderr" ""
	[ -s "$PAGE" ]
}

@test "the man page renders at 80 columns without warnings and with every section" {
	build_page
	run --separate-stderr render "$PAGE"
	assert_success
	assert_equal "$stderr" ""
	[ -n "$output" ]
	for heading in NAME SYNOPSIS DESCRIPTION OPTIONS SHOW SET SPREAD \
		DEFAULT SAVE RESTORE CHECK MASK LIST 'CPU SETS' \
		'IRQ SELECTORS' 'SNAPSHOT FILES' ENVIRONMENT FILES \
		'EXIT STATUS' DIAGNOSTICS IRQBALANCE EXAMPLES 'SEE ALSO'; do
		grep -qx -- "$heading" <<<"$output" ||
			fail "no section $heading in the rendered page"
	done
	run over80 <<<"$output"
	assert_output ""
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

@test "the man page source is wrapped at 80 columns" {
	run awk '{ gsub(/\t/, "        ") } length > 80 { print FNR ": " $0 }' \
		"$SRC"
	assert_output ""
}

@test "the man page has a section for every command irqaff --help lists" {
	local cmd missing=
	run commands
	assert_success
	[ "${#lines[@]}" -ge 9 ]
	for cmd in "${lines[@]}"; do
		[ -n "$(section "$cmd")" ] || missing+=" $cmd"
	done
	assert_equal "$missing" ""
}

@test "every option each command's --help lists is documented in its section" {
	local cmd opt text missing=
	for cmd in $(commands); do
		run --separate-stderr help_options "$cmd"
		[ "$status" -eq 0 ] || fail "irqaff $cmd --help lists no options"
		text=$(section "$cmd")
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
		done < <(section "$cmd" | sed -n 's/^\*\(-[^*]*\)\*.*/\1/p')
	done
	assert_equal "$extra" ""
}

@test "each command's synopsis in the man page is its usage line" {
	local cmd man help differ=
	for cmd in $(commands); do
		# The synopsis paragraph under the section heading, unformatted.
		man=$(section "$cmd" | awk 'NF { p = p (p ? " " : "") $0; next }
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

@test "the man page describes exit statuses 0, 1, 2 and 3" {
	local code
	for code in 0 1 2 3; do
		section 'EXIT STATUS' | grep -qx "\*$code\*" ||
			fail "exit status $code is not in EXIT STATUS"
	done
}

# The EXAMPLES section's literal blocks, run as the page shows them. Each
# block gets a fresh tree; in a block, a line starting with "irqaff " is a
# command and the lines after it, if any, its exact standard output.
# /etc/ is moved into the test directory. "cp /proc/interrupts FILE" copies
# the tree's, its modification time that of a clock that only "sleep N"
# moves (by N seconds, without sleeping).
@test "every example in the man page runs and prints what the page shows" {
	local block=0 in=0 line cmd= want= failed=
	local -a cmds=() wants=()

	run_block() {
		local i got rc clock=1700000000 f
		rm -rf "$BATS_TEST_TMPDIR/root" "$BATS_TEST_TMPDIR/etc"
		make_root --cpus 64 --nodes 2 --threads 2 --nic eth0:8:1 \
			--nic eth1:4:0 --legacy 16
		mkdir -p "$BATS_TEST_TMPDIR/etc"
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
				failed+=$'\n'"${cmds[i]}: exit $rc: $(
					cat "$BATS_TEST_TMPDIR/stderr")"
			elif [ -n "${wants[i]}" ] && [ "$got" != "${wants[i]}" ]; then
				failed+=$'\n'"${cmds[i]}: printed \"$got\","
				failed+=" the page shows \"${wants[i]}\""
			fi
		done
		cmds=()
		wants=()
	}

	while IFS= read -r line; do
		line=${line#"${line%%[![:space:]]*}"}
		if [ "$line" = '```' ]; then
			if ((in)); then
				run_block
				block=$((block + 1))
			fi
			in=$((!in))
			continue
		fi
		((in)) || continue
		if [[ $line == 'irqaff '* || $line == 'cp /proc/interrupts '* ||
			$line =~ ^sleep\ [0-9]+$ ]]; then
			cmds+=("${line//\/etc\//$BATS_TEST_TMPDIR/etc/}")
			wants+=("")
		elif ((${#cmds[@]} > 0)); then
			want=${wants[${#wants[@]} - 1]}
			wants[${#wants[@]} - 1]=${want:+$want$'\n'}$line
		fi
	done < <(section EXAMPLES)
	[ "$block" -ge 8 ]
	assert_equal "$failed" ""
}
