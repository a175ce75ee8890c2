#!/usr/bin/env bats
# Shell completions: bash's function run as bash would run it, against a
# temporary tree; zsh and fish parse, and their command lists match.

bats_require_minimum_version 1.5.0

# zsh's compinit, once for the file: without a dump it reads every
# function on fpath again at each Tab (half a second a line typed).
setup_file() {
	export ZCOMPDUMP=$BATS_FILE_TMPDIR/zcompdump
	if command -v zsh >/dev/null; then
		HOME=$BATS_FILE_TMPDIR zsh -f -c 'fpath=($1 $fpath)
			autoload -Uz compinit && compinit -u -d $2' zsh \
			"$BATS_TEST_DIRNAME/../../completions" "$ZCOMPDUMP"
	fi
}

setup() {
	load ../test_helper/common-setup
	_common_setup
	COMPLETIONS=$BATS_TEST_DIRNAME/../../completions
	make_root --cpus 8 --nodes 2 --irq '9=acpi' --nic eth0:2:0:41 \
		--nic eth1:2:1:51
	# shellcheck source=../../completions/irqaff.bash
	source "$COMPLETIONS/irqaff.bash"
}

# Completes the last argument, splitting it at ":" and "=" as bash does
# with its default COMP_WORDBREAKS; the reply is in COMPREPLY, and in
# $reply joined with spaces.
complete_line() {
	local w
	COMP_WORDS=()
	for w in "$@"; do
		while [[ $w =~ ^([^:=]*)([:=]+)(.*)$ ]]; do
			[ -n "${BASH_REMATCH[1]}" ] && COMP_WORDS+=("${BASH_REMATCH[1]}")
			COMP_WORDS+=("${BASH_REMATCH[2]}")
			w=${BASH_REMATCH[3]}
		done
		COMP_WORDS+=("$w")
	done
	[ -z "${COMP_WORDS[${#COMP_WORDS[@]} - 1]}" ] && [[ ${*: -1} == *[:=] ]] &&
		unset 'COMP_WORDS[${#COMP_WORDS[@]}-1]'
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	COMP_WORDBREAKS=$' \t\n"\'><=;|&(:'
	COMPREPLY=()
	_irqaff
	reply="${COMPREPLY[*]}"
}

# As complete_line, with a COMP_WORDBREAKS that has neither ":" nor "=".
complete_unsplit() {
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	COMP_WORDBREAKS=$' \t\n"\'><;|&('
	COMPREPLY=()
	_irqaff
	reply="${COMPREPLY[*]}"
}

# The commands irqaff --help lists, space-separated.
help_commands() {
	irqaff --help | sed -n '/^Commands/,/^$/s/^  \([a-z]*\) .*/\1/p' |
		paste -sd ' '
}

@test "the test splits words at a colon as bash does" {
	complete_line irqaff set dev:
	assert_equal "${COMP_WORDS[*]}" "irqaff set dev :"
	assert_equal "$COMP_CWORD" 3
	complete_line irqaff set dev:e
	assert_equal "${COMP_WORDS[*]}" "irqaff set dev : e"
	assert_equal "$COMP_CWORD" 4
}

@test "bash completes the command names" {
	complete_line irqaff ''
	assert_equal "$reply" "show set spread balance default isolate explain cpus \
top queues xps rps save restore check mask list help"
}

@test "bash completes the commands irqaff --help lists, and help, no more, no fewer" {
	complete_line irqaff ''
	assert_equal "$reply" "$(help_commands) help"
}

@test "bash completes help and a command after it, and nothing more" {
	complete_line irqaff h
	assert_equal "$reply" "help"
	complete_line irqaff help ''
	assert_equal "$reply" "$(help_commands)"
	complete_line irqaff help s
	assert_equal "$reply" "show set spread save"
	complete_line irqaff help show ''
	assert_equal "$reply" ""
}

@test "bash completes command names by prefix" {
	complete_line irqaff s
	assert_equal "$reply" "show set spread save"
}

@test "bash completes the options before the command" {
	complete_line irqaff --
	assert_equal "$reply" "--root --help --version"
}

@test "bash completes the options of set" {
	complete_line irqaff set -
	assert_equal "$reply" \
		"-n --dry-run -v --verbose -J --json -m --mask -q --quiet -h --help"
}

@test "bash completes the long options of set by prefix" {
	complete_line irqaff set -v --d
	assert_equal "$reply" "--dry-run"
}

@test "bash completes for every command the options its --help lists" {
	local cmd got want differ=
	for cmd in $(help_commands); do
		complete_line irqaff "$cmd" -
		got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | paste -sd ' ')
		# the option column only: a description may name an option
		want=$(irqaff "$cmd" --help | sed -n '/^Options:/,/^$/p' |
			sed -n 's/^ *\(-.*\)/\1/p' | sed 's/   *.*//' |
			grep -oE '(^|[ ,])--?[A-Za-z][a-z-]*' | tr -d ' ,' |
			sort | paste -sd ' ')
		[ "$got" = "$want" ] ||
			differ+=$'\n'"$cmd: completion \"$got\", --help \"$want\""
	done
	assert_equal "$differ" ""
}

@test "bash completes the options of isolate and explain" {
	complete_line irqaff isolate -
	assert_equal "$reply" "-n --dry-run -v --verbose -q --quiet -J --json \
-m --mask --check --accept --again --undo -h --help"
	complete_line irqaff isolate --c
	assert_equal "$reply" "--check"
	complete_line irqaff explain -
	assert_equal "$reply" "-v --verbose -J --json -h --help"
}

@test "bash completes IRQ action names for set eth0" {
	complete_line irqaff set eth0
	assert_equal "$reply" "eth0 eth0-TxRx-0 eth0-TxRx-1"
}

@test "bash completes IRQ numbers by prefix" {
	complete_line irqaff show 4
	assert_equal "$reply" "41 42 43"
}

@test "bash completes IRQ numbers after a digit, names and keywords else, never both" {
	complete_line irqaff show ''
	assert_equal "$reply" "acpi eth0 eth0-TxRx-0 eth0-TxRx-1 eth1 eth1-TxRx-0 \
eth1-TxRx-1 all dev: cpu:"
	complete_line irqaff set 9,''
	assert_equal "$reply" "9,acpi 9,eth0 9,eth0-TxRx-0 9,eth0-TxRx-1 9,eth1 \
9,eth1-TxRx-0 9,eth1-TxRx-1 9,all 9,dev: 9,cpu:"
	complete_line irqaff explain eth0,''
	assert_equal "$reply" "eth0,acpi eth0,eth0-TxRx-0 eth0,eth0-TxRx-1 \
eth0,eth1 eth0,eth1-TxRx-0 eth0,eth1-TxRx-1 eth0,all eth0,dev: eth0,cpu:"
	complete_line irqaff show 41,4
	assert_equal "$reply" "41,42 41,43"
	complete_line irqaff show 9
	assert_equal "$reply" "9"
}

@test "bash completes no column already typed" {
	complete_line irqaff show -o IRQ,NAME,
	assert_equal "$reply" "IRQ,NAME,AFFINITY IRQ,NAME,EFFECTIVE IRQ,NAME,NODE \
IRQ,NAME,TOTAL IRQ,NAME,HINT IRQ,NAME,ONLINE IRQ,NAME,CHIP IRQ,NAME,HWIRQ \
IRQ,NAME,TYPE IRQ,NAME,FLOW IRQ,NAME,DEVICE IRQ,NAME,MANAGED \
IRQ,NAME,MOVABLE IRQ,NAME,RATE IRQ,NAME,PENDING IRQ,NAME,STUCK \
IRQ,NAME,THREAD IRQ,NAME,THREAD-CPUS"
	# in any case, after --output= and + too
	complete_line irqaff show --output=irq,I
	assert_equal "$reply" ""
	complete_line irqaff show -o +HINT,H
	assert_equal "$reply" "+HINT,HWIRQ"
	complete_line irqaff cpus -o CPU,NODE,STATE,IRQS,TOTAL,T
	assert_equal "$reply" "CPU,NODE,STATE,IRQS,TOTAL,TOP"
	complete_line irqaff queues -o DEV,QUEUE,IRQ,AFFINITY,CPUS,XPS,RPS,A
	assert_equal "$reply" "DEV,QUEUE,IRQ,AFFINITY,CPUS,XPS,RPS,ALIGNED"
}

@test "bash completes the item after the last comma of an IRQ list" {
	complete_line irqaff set 41,eth1
	assert_equal "$reply" "41,eth1 41,eth1-TxRx-0 41,eth1-TxRx-1"
}

@test "bash completes network interfaces after dev:" {
	complete_line irqaff set dev:
	assert_equal "$reply" "eth0 eth1"
	complete_line irqaff set dev:eth1
	assert_equal "$reply" "eth1"
}

@test "bash completes dev: in an IRQ list after a comma" {
	complete_line irqaff spread 9,dev:e
	assert_equal "$reply" "eth0 eth1"
}

@test "bash completes whole dev: words when COMP_WORDBREAKS has no colon" {
	complete_unsplit irqaff set dev:
	assert_equal "$reply" "dev:eth0 dev:eth1"
}

@test "bash completes NUMA nodes after node:" {
	complete_line irqaff set 41 node:
	assert_equal "$reply" "0 1"
	complete_unsplit irqaff set 41 0,node:
	assert_equal "$reply" "0,node:0 0,node:1"
}

@test "bash completes CPU sets for the second argument of set" {
	complete_line irqaff set 41 ''
	assert_equal "$reply" "all N node:0 node:1"
}

# isolated_cpus ISOLATED NOHZ_FULL: the kernel's lists of isolated CPUs.
isolated_cpus() {
	printf '%s\n' "$1" >"$ROOT/sys/devices/system/cpu/isolated"
	printf '%s\n' "$2" >"$ROOT/sys/devices/system/cpu/nohz_full"
}

@test "bash completes CPU sets for isolate, after its options too, but not all nor N" {
	complete_line irqaff isolate ''
	assert_equal "$reply" "node:0 node:1"
	complete_line irqaff isolate a
	assert_equal "$reply" ""
	complete_line irqaff isolate 1,''
	assert_equal "$reply" "1,node:0 1,node:1"
	# the CPUs the kernel isolates, each list once
	isolated_cpus 2-3 2-3,6
	complete_line irqaff isolate ''
	assert_equal "$reply" "2-3 2-3,6 node:0 node:1"
	isolated_cpus 2-3 2-3
	complete_line irqaff isolate 1,''
	assert_equal "$reply" "1,2-3 1,node:0 1,node:1"
	complete_line irqaff isolate 2''
	assert_equal "$reply" "2-3"
	complete_line irqaff isolate --check -q node:
	assert_equal "$reply" "0 1"
	complete_unsplit irqaff isolate -n 0,node:
	assert_equal "$reply" "0,node:0 0,node:1"
}

@test "bash completes IRQ selectors for explain, as for show" {
	complete_line irqaff explain eth1
	assert_equal "$reply" "eth1 eth1-TxRx-0 eth1-TxRx-1"
	complete_line irqaff explain -v 4
	assert_equal "$reply" "41 42 43"
	complete_line irqaff explain -J 9,dev:e
	assert_equal "$reply" "eth0 eth1"
}

@test "bash completes CPU sets after spread -c and -x" {
	complete_line irqaff spread -c node:
	assert_equal "$reply" "0 1"
	complete_line irqaff spread -c 0-3 -x ''
	assert_equal "$reply" "all N node:0 node:1"
}

@test "bash completes IRQs, not CPUs, after spread's option values" {
	complete_line irqaff spread -c 0-3 eth1
	assert_equal "$reply" "eth1 eth1-TxRx-0 eth1-TxRx-1"
}

@test "bash offers cpu: among the IRQ selector prefixes" {
	complete_line irqaff set c
	assert_equal "$reply" "cpu:"
	complete_line irqaff show 9,c
	assert_equal "$reply" "9,cpu:"
	complete_line irqaff explain ''
	assert_equal "${COMPREPLY[*]: -3}" "all dev: cpu:"
}

@test "bash completes a CPU set after cpu:, commas and node: included" {
	complete_line irqaff show cpu:
	assert_equal "$reply" "all N node:0 node:1"
	complete_line irqaff set 9,cpu:node:
	assert_equal "$reply" "0 1"
	complete_line irqaff explain cpu:0-3,n
	assert_equal "$reply" "0-3,node:0 0-3,node:1"
	complete_unsplit irqaff spread eth0-TxRx-0,cpu:1,node:
	assert_equal "$reply" \
		"eth0-TxRx-0,cpu:1,node:0 eth0-TxRx-0,cpu:1,node:1"
	# the rest of the word is one CPU set: no IRQ items after it
	complete_unsplit irqaff set cpu:1,e
	assert_equal "$reply" ""
}

@test "bash completes show's columns after -o, a comma and a plus" {
	complete_line irqaff show -o E
	assert_equal "$reply" "EFFECTIVE"
	complete_line irqaff show -o IRQ,N
	assert_equal "$reply" "IRQ,NODE IRQ,NAME"
	complete_line irqaff show -o +H
	assert_equal "$reply" "+HINT +HWIRQ"
	complete_line irqaff show --output=IRQ,D
	assert_equal "$reply" "IRQ,DEVICE"
}

@test "bash completes the column names show --help lists" {
	complete_line irqaff show -o ''
	assert_equal "$reply" "$(irqaff show --help |
		sed -n '/^Columns/,/^$/s/^  \([A-Z-]*\) .*/\1/p' | paste -sd ' ')"
}

@test "bash completes the options of cpus" {
	complete_line irqaff cpus -
	assert_equal "$reply" "-o --output -n --noheadings -J --json \
-i --interval --count --sample-from --irqs -h --help"
	complete_line irqaff cpus -n --in
	assert_equal "$reply" "--interval"
	# --irqs takes an IRQ list, completed as everywhere
	complete_line irqaff cpus --irqs 4
	assert_equal "$reply" "41 42 43"
	complete_line irqaff cpus --irqs=eth1-
	assert_equal "$reply" "eth1-TxRx-0 eth1-TxRx-1"
}

@test "bash completes top: its options, sort keys, IRQs as often as given" {
	complete_line irqaff top -
	assert_equal "$reply" "-i --interval --count -s --sort -a --all -b --batch \
--sample-from -h --help"
	complete_line irqaff top -s ''
	assert_equal "$reply" "rate total irq name"
	complete_line irqaff top -a --sort=t
	assert_equal "$reply" "total"
	complete_line irqaff top -i ''
	assert_equal "$reply" ""
	complete_line irqaff top --count ''
	assert_equal "$reply" ""
	complete_line irqaff top 4
	assert_equal "$reply" "41 42 43"
	complete_line irqaff top -s irq 41 eth1-
	assert_equal "$reply" "eth1-TxRx-0 eth1-TxRx-1"
}

@test "bash completes the column names cpus --help lists after -o" {
	complete_line irqaff cpus -o ''
	assert_equal "$reply" "CPU NODE STATE IRQS TOTAL RATE TOP SYSTEM"
	assert_equal "$reply" "$(irqaff cpus --help |
		sed -n '/^Columns/,/^$/s/^  \([A-Z]*\) .*/\1/p' | paste -sd ' ')"
}

@test "bash completes cpus' columns after a comma, a plus and --output=" {
	complete_line irqaff cpus -o T
	assert_equal "$reply" "TOTAL TOP"
	complete_line irqaff cpus -o CPU,S
	assert_equal "$reply" "CPU,STATE CPU,SYSTEM"
	complete_line irqaff cpus -i 1 -o +R
	assert_equal "$reply" "+RATE"
	complete_line irqaff cpus --output=CPU,I
	assert_equal "$reply" "CPU,IRQS"
	# show's columns are not cpus' columns
	complete_line irqaff cpus -o A
	assert_equal "$reply" ""
}

@test "bash completes CPU sets for the operand of cpus, after its options too" {
	complete_line irqaff cpus ''
	assert_equal "$reply" "all N node:0 node:1"
	complete_line irqaff cpus -o CPU,TOP -i 0.5 -c 3 node:
	assert_equal "$reply" "0 1"
	complete_line irqaff cpus --interval 1 --count 2 -n ''
	assert_equal "$reply" "all N node:0 node:1"
	complete_unsplit irqaff cpus -J 0,node:
	assert_equal "$reply" "0,node:0 0,node:1"
}

@test "bash completes nothing for cpus' interval and count, nor after its CPU set" {
	complete_line irqaff cpus -i ''
	assert_equal "$reply" ""
	complete_line irqaff cpus --interval 1 --count ''
	assert_equal "$reply" ""
	complete_line irqaff cpus -i 1 -c 2 0-3 ''
	assert_equal "$reply" ""
}

@test "bash completes queues' options, columns and interfaces with queues" {
	mkdir "$ROOT/sys/class/net/eth1/queues"
	complete_line irqaff queues -
	assert_equal "$reply" "-J --json -n --noheadings -o --output -h --help"
	complete_line irqaff queues -o ''
	assert_equal "$reply" "$(irqaff queues --help |
		sed -n '/^Columns/,/^$/s/^  \([A-Z]*\) .*/\1/p' | paste -sd ' ')"
	complete_line irqaff queues --output=DEV,X
	assert_equal "$reply" "DEV,XPS"
	complete_line irqaff queues -o +AL
	assert_equal "$reply" "+ALIGNED"
	# eth0 has no queues directory
	complete_line irqaff queues -J -o DEV ''
	assert_equal "$reply" "eth1"
	mkdir "$ROOT/sys/class/net/eth0/queues"
	# eth1 is typed already
	complete_unsplit irqaff queues -n eth1,
	assert_equal "$reply" "eth1,eth0"
	complete_unsplit irqaff queues -n eth1,eth0,
	assert_equal "$reply" ""
	complete_line irqaff queues eth0 ''
	assert_equal "$reply" ""
}

# queue_dirs DEV QUEUE...: DEV's queue directories, as the kernel has them.
queue_dirs() {
	local dev=$1 q
	shift
	for q in "$@"; do
		mkdir -p "$ROOT/sys/class/net/$dev/queues/$q"
	done
}

@test "bash completes xps and rps: options, an interface, then a CPU set" {
	queue_dirs eth1 rx-0 rx-1 tx-0 tx-1
	complete_line irqaff xps -
	assert_equal "$reply" "-n --dry-run -v --verbose -J --json -h --help"
	complete_line irqaff rps -v ''
	assert_equal "$reply" "eth1"
	complete_line irqaff xps -n e
	assert_equal "$reply" "eth1"
	complete_line irqaff rps eth1 ''
	assert_equal "$reply" "all N node:0 node:1"
	complete_line irqaff xps eth1 0 ''
	assert_equal "$reply" ""
	complete_line irqaff rps eth1:0 node:
	assert_equal "$reply" "0 1"
	complete_line irqaff spread --x
	assert_equal "$reply" "--xps"
}

@test "bash offers xps the interfaces with two transmit queues or more, rps any with one, queues those with a device" {
	queue_dirs eth0 rx-0 rx-1 tx-0 tx-1
	queue_dirs lo rx-0 tx-0
	mkdir -p "$ROOT/sys/class/net/ifb0/queues"
	complete_line irqaff xps ''
	assert_equal "$reply" "eth0"
	complete_line irqaff rps ''
	assert_equal "$reply" "eth0 lo"
	# queues offers those with a device: lo and ifb0 have no IRQs (issue 50)
	complete_line irqaff queues ''
	assert_equal "$reply" "eth0"
}

@test "bash completes file names for restore, check, save and save -o" {
	mkdir "$BATS_TEST_TMPDIR/snaps"
	touch "$BATS_TEST_TMPDIR/snaps/a.conf" "$BATS_TEST_TMPDIR/snaps/b.conf"
	cd "$BATS_TEST_TMPDIR"
	complete_line irqaff restore snaps/
	assert_equal "$reply" "snaps/a.conf snaps/b.conf"
	complete_line irqaff check --by-number snaps/b
	assert_equal "$reply" "snaps/b.conf"
	complete_line irqaff save -o snaps/a
	assert_equal "$reply" "snaps/a.conf"
	complete_line irqaff save --only dev:eth0 snaps/a
	assert_equal "$reply" "snaps/a.conf"
	complete_line irqaff save -
	assert_equal "$reply" "--only --optional -h --help"
}

@test "bash completes file names after --sample-from, then the operands as before" {
	local cmd
	mkdir "$BATS_TEST_TMPDIR/saved"
	touch "$BATS_TEST_TMPDIR/saved/a" "$BATS_TEST_TMPDIR/saved/b"
	cd "$BATS_TEST_TMPDIR"
	for cmd in show cpus balance top; do
		complete_line irqaff "$cmd" --sample-from saved/
		assert_equal "$cmd: $reply" "$cmd: saved/a saved/b"
		complete_line irqaff "$cmd" --sample-from saved/a -J --sample-from s
		assert_equal "$cmd: $reply" "$cmd: saved"
	done
	complete_line irqaff show --sample-from saved/a --sample-from saved/b 4
	assert_equal "$reply" "41 42 43"
	complete_line irqaff cpus --sample-from saved/a --sample-from saved/b node:
	assert_equal "$reply" "0 1"
	complete_line irqaff balance --sample-from saved/a 4
	assert_equal "$reply" "41 42 43"
}

@test "bash completes nothing after the arguments a command takes" {
	complete_line irqaff set 41 0-3 ''
	assert_equal "$reply" ""
	complete_line irqaff mask -b ''
	assert_equal "$reply" ""
	complete_line irqaff isolate --check 2-3 ''
	assert_equal "$reply" ""
	complete_line irqaff explain -v 41 ''
	assert_equal "$reply" ""
}

@test "bash completes from the tree --root names, not IRQAFF_ROOT" {
	local root=$IRQAFF_ROOT
	export IRQAFF_ROOT=$BATS_TEST_TMPDIR/nowhere
	complete_line irqaff --root "$root" set eth1
	assert_equal "$reply" "eth1 eth1-TxRx-0 eth1-TxRx-1"
	complete_line irqaff "--root=$root" set dev:
	assert_equal "$reply" "eth0 eth1"
	complete_line irqaff set eth1
	assert_equal "$reply" ""
}

@test "bash completes directories after --root" {
	mkdir -p "$BATS_TEST_TMPDIR/trees/one" "$BATS_TEST_TMPDIR/trees/two"
	touch "$BATS_TEST_TMPDIR/trees/file"
	complete_line irqaff --root "$BATS_TEST_TMPDIR/trees/"
	assert_equal "$reply" \
		"$BATS_TEST_TMPDIR/trees/one $BATS_TEST_TMPDIR/trees/two"
}

@test "the bash completion, the test helpers and the scripts are shellcheck clean" {
	command -v shellcheck >/dev/null || skip "shellcheck is not installed"
	run shellcheck -s bash "$COMPLETIONS/irqaff.bash" \
		"$BATS_TEST_DIRNAME"/../test_helper/*.bash
	assert_success
	assert_output ""
	local top=$BATS_TEST_DIRNAME/../..
	run shellcheck -x -P SCRIPTDIR "$top"/bench/run "$top"/bench/scale \
		"$top"/bench/check-mktree "$top"/.ci/run \
		"$top"/bench/quality/run "$top"/bench/quality/table \
		"$top"/tests/same-output
	assert_success
	assert_output ""
	run shellcheck "$top"/tests/kernel/run "$top"/tests/kernel/host.sh \
		"$top"/tests/schema-irqaff
	assert_success
	assert_output ""
	run shellcheck -s dash "$top"/tests/kernel/init \
		"$top"/tests/kernel/lib.sh "$top"/tests/kernel/scenarios/*.sh \
		"$top"/bench/quality/guest.sh "$top"/bench/quality/arm.sh
	assert_success
	assert_output ""
}

@test "the zsh completion parses" {
	command -v zsh >/dev/null || skip "zsh is not installed"
	run zsh -n "$COMPLETIONS/_irqaff"
	assert_success
	assert_output ""
}

@test "the zsh completion describes the commands irqaff --help lists, and help" {
	run awk '/commands=\(/ { on = 1; next } on && /^[[:space:]]*\)/ { exit }
		on { sub(/^[[:space:]]*["\047]/, ""); sub(/:.*/, ""); print }' \
		"$COMPLETIONS/_irqaff"
	assert_equal "$(paste -sd ' ' <<<"$output")" "$(help_commands) help"
}

# zsh_complete LINE: type LINE and a Tab into an interactive zsh that
# loads the completion from completions/; prints the words it offers,
# space-separated.
zsh_complete() {
	local script=$BATS_TEST_TMPDIR/complete.zsh
	cat >"$script" <<-'EOF'
		zmodload zsh/zpty || exit
		zpty z 'TERM=xterm zsh -f -i'
		zpty -w z "fpath=(${(q)1} \$fpath)"
		zpty -w z "autoload -Uz compinit && compinit -u -C -d ${(q)3}"
		# Print what each call adding matches adds; pass lookups by.
		zpty -w z 'compadd() {
			if [[ ${@[1,(i)(-|--)]} == *-[OAD]\ * ]]; then
				builtin compadd "$@"; return
			fi
			local -a words
			builtin compadd -O words "$@"
			(( $#words )) && print -r -- "<<${(j: :)words}>>"
			builtin compadd "$@"
		}'
		zpty -w z 'comppostfuncs=(done_); done_() { print -r -- "<<""END>>"; exit; }'
		zpty -w -n z "$2"$'\t'
		local line
		while zpty -r z line; do
			print -r -- "$line"
			[[ $line == *'<<END>>'* ]] && break
		done
		zpty -d z
	EOF
	HOME=$BATS_TEST_TMPDIR timeout 120 zsh -f "$script" "$COMPLETIONS" "$1" \
		"$ZCOMPDUMP" |
		tr -d '\r' | grep -o '<<[[:alnum:] ._:,/-]*>>' |
		grep -vx '<<END>>' | sed 's/^<<//; s/>>$//' | paste -sd ' '
}

@test "zsh completes isolate's CPU sets and explain's IRQs and options" {
	command -v zsh >/dev/null || skip "zsh is not installed"
	run zsh_complete 'irqaff isolate --check node:'
	assert_output "0 1"
	run zsh_complete 'irqaff explain eth1'
	assert_output "eth1 eth1-TxRx-0 eth1-TxRx-1"
	run zsh_complete 'irqaff explain 9,dev:'
	assert_output "eth0 eth1"
	run zsh_complete 'irqaff explain -'
	assert_output "--help --json --verbose -h -J -v"
	# --check does not go with -n and -v
	run zsh_complete 'irqaff isolate --check -'
	assert_output "--accept --help --json --mask --quiet -h -J -m -q"
}

@test "zsh completes cpus' options, columns and CPU sets" {
	command -v zsh >/dev/null || skip "zsh is not installed"
	run zsh_complete 'irqaff cpus -J -'
	assert_output "--count --help --interval --noheadings --output --sample-from -h -i -n -o"
	run zsh_complete 'irqaff cpus -o CPU,T'
	assert_output "TOTAL TOP"
	run zsh_complete 'irqaff cpus --output=+R'
	assert_output "RATE"
	run zsh_complete 'irqaff cpus -i 1 -c 2 0,node:'
	assert_output "0 1"
	run zsh_complete 'irqaff cpus -i 1 --count 2 0,node:'
	assert_output "0 1"
}

@test "zsh completes top's options, sort keys and IRQs" {
	command -v zsh >/dev/null || skip "zsh is not installed"
	run zsh_complete 'irqaff top -a -'
	assert_output "--batch --count --help --interval --sample-from --sort -b -h -i -s"
	run zsh_complete 'irqaff top -s '
	assert_output "rate total irq name"
	run zsh_complete 'irqaff top -s irq 41 4'
	assert_output "41 42 43"
}

@test "zsh completes --sample-from for show, cpus, balance and top, as often as given" {
	command -v zsh >/dev/null || skip "zsh is not installed"
	local cmd
	mkdir "$BATS_TEST_TMPDIR/saved"
	touch "$BATS_TEST_TMPDIR/saved/a" "$BATS_TEST_TMPDIR/saved/b"
	for cmd in show cpus balance top; do
		run zsh_complete "irqaff $cmd --sample-from /dev/null --sample-f"
		assert_output "--sample-from"
		run zsh_complete "irqaff $cmd --sample-from $BATS_TEST_TMPDIR/saved/"
		assert_output "a b"
	done
}

@test "zsh completes queues' options, columns and interfaces" {
	command -v zsh >/dev/null || skip "zsh is not installed"
	mkdir "$ROOT/sys/class/net/eth1/queues"
	run zsh_complete 'irqaff queues -J -'
	assert_output "--help --noheadings --output -h -n -o"
	run zsh_complete 'irqaff queues -o DEV,AL'
	assert_output "ALIGNED"
	run zsh_complete 'irqaff queues -n e'
	assert_output "eth1"
}

@test "zsh completes xps and rps: options and interfaces" {
	command -v zsh >/dev/null || skip "zsh is not installed"
	queue_dirs eth1 rx-0 rx-1 tx-0 tx-1
	run zsh_complete 'irqaff xps -'
	assert_output "--dry-run --help --json --verbose -n -h -J -v"
	run zsh_complete 'irqaff rps -n e'
	assert_output "eth1"
}

@test "zsh offers xps the interfaces with two transmit queues or more, rps any with one, queues those with a device" {
	command -v zsh >/dev/null || skip "zsh is not installed"
	queue_dirs eth0 rx-0 rx-1 tx-0 tx-1
	queue_dirs lo rx-0 tx-0
	mkdir -p "$ROOT/sys/class/net/ifb0/queues"
	run zsh_complete 'irqaff xps '
	assert_output "eth0"
	run zsh_complete 'irqaff rps '
	assert_output "eth0 lo"
	run zsh_complete 'irqaff queues '
	assert_output "eth0"
}

@test "zsh completes isolate's CPU sets: the isolated CPUs and nodes, not all nor N" {
	command -v zsh >/dev/null || skip "zsh is not installed"
	isolated_cpus 2-3 2-3,6
	run zsh_complete 'irqaff isolate '
	assert_output "2-3 2-3,6 node:"
	isolated_cpus '' '(null)'
	run zsh_complete 'irqaff isolate -n '
	assert_output "node:"
}

@test "zsh completes cpu: and a CPU set after it" {
	command -v zsh >/dev/null || skip "zsh is not installed"
	run zsh_complete 'irqaff set c'
	assert_output "cpu:"
	run zsh_complete 'irqaff show 9,cpu:'
	assert_output "all N node:"
	run zsh_complete 'irqaff explain cpu:0-3,node:'
	assert_output "0 1"
}

@test "the fish completion parses" {
	command -v fish >/dev/null || skip "fish is not installed"
	run fish --no-execute "$COMPLETIONS/irqaff.fish"
	assert_success
	assert_output ""
}

@test "fish completes the commands irqaff --help lists, and help" {
	command -v fish >/dev/null || skip "fish is not installed"
	run fish -N -c "source '$COMPLETIONS/irqaff.fish'; complete -C 'irqaff '"
	assert_success
	assert_equal "$(cut -f1 <<<"$output" | sort | paste -sd ' ')" \
		"$(printf '%s help' "$(help_commands)" | tr ' ' '\n' | sort |
			paste -sd ' ')"
}

@test "fish completes IRQ names, dev: interfaces and node: nodes" {
	command -v fish >/dev/null || skip "fish is not installed"
	run fish -N -c "source '$COMPLETIONS/irqaff.fish'
		complete -C 'irqaff set eth0'
		complete -C 'irqaff set 9,dev:'
		complete -C 'irqaff set 9 node:'"
	assert_success
	assert_output - <<-'EOF'
		eth0
		eth0-TxRx-0
		eth0-TxRx-1
		9,dev:eth0
		9,dev:eth1
		node:0
		node:1
	EOF
}

@test "fish completes the interface of xps and rps, and --json" {
	command -v fish >/dev/null || skip "fish is not installed"
	queue_dirs eth1 rx-0 rx-1 tx-0 tx-1
	run fish -N -c "source '$COMPLETIONS/irqaff.fish'
		complete -C 'irqaff xps e'
		complete -C 'irqaff rps -n e'
		complete -C 'irqaff rps --js'"
	assert_success
	assert_output - <<-'EOF'
		eth1
		eth1
		--json	print the result as JSON
	EOF
}

@test "fish offers xps the interfaces with two transmit queues or more, rps any with one, queues those with a device" {
	command -v fish >/dev/null || skip "fish is not installed"
	queue_dirs eth0 rx-0 rx-1 tx-0 tx-1
	queue_dirs lo rx-0 tx-0
	mkdir -p "$ROOT/sys/class/net/ifb0/queues"
	run fish -N -c "source '$COMPLETIONS/irqaff.fish'
		complete -C 'irqaff xps '
		echo then
		complete -C 'irqaff rps -n '
		echo then
		complete -C 'irqaff queues '"
	assert_success
	assert_output - <<-'EOF'
		eth0
		then
		eth0
		lo
		then
		eth0
	EOF
}

@test "fish completes isolate's CPU sets: the isolated CPUs and nodes, not all nor N" {
	command -v fish >/dev/null || skip "fish is not installed"
	isolated_cpus 2-3 2-3,6
	run fish -N -c "source '$COMPLETIONS/irqaff.fish'
		complete -C 'irqaff isolate '
		complete -C 'irqaff isolate -n 1,'"
	assert_success
	assert_output - <<-'EOF'
		2-3
		2-3,6
		node:0
		node:1
		1,2-3
		1,2-3,6
		1,node:0
		1,node:1
	EOF
}

@test "fish completes cpu: and a CPU set after it" {
	command -v fish >/dev/null || skip "fish is not installed"
	run fish -N -c "source '$COMPLETIONS/irqaff.fish'
		complete -C 'irqaff set c'
		complete -C 'irqaff show 9,cpu:'
		complete -C 'irqaff explain cpu:0-3,node:'
		complete -C 'irqaff set cpu:1,eth'"
	assert_success
	assert_output - <<-'EOF'
		cpu:
		9,cpu:all
		9,cpu:N
		9,cpu:node:0
		9,cpu:node:1
		cpu:0-3,node:0
		cpu:0-3,node:1
	EOF
}

@test "fish completes isolate's CPU sets and explain's IRQs" {
	command -v fish >/dev/null || skip "fish is not installed"
	run fish -N -c "source '$COMPLETIONS/irqaff.fish'
		complete -C 'irqaff isolate --check node:'
		complete -C 'irqaff explain -v eth1'
		complete -C 'irqaff explain 9,dev:'
		complete -C 'irqaff isolate 2-3 '"
	assert_success
	assert_output - <<-'EOF'
		node:0
		node:1
		eth1
		eth1-TxRx-0
		eth1-TxRx-1
		9,dev:eth0
		9,dev:eth1
	EOF
}

@test "fish completes cpus' columns and CPU sets, and nothing after -i" {
	command -v fish >/dev/null || skip "fish is not installed"
	run fish -N -c "source '$COMPLETIONS/irqaff.fish'
		complete -C 'irqaff cpus -o CPU,T'
		complete -C 'irqaff cpus -i 1 -o +R'
		complete -C 'irqaff cpus -i 1 -c 2 0,node:'
		complete -C 'irqaff cpus -i '
		complete -C 'irqaff cpus 0-3 '"
	assert_success
	assert_output - <<-'EOF'
		CPU,TOP	columns to print
		CPU,TOTAL	columns to print
		+RATE	columns to print
		0,node:0
		0,node:1
	EOF
}

@test "fish completes top's sort keys and IRQs, nothing after -i" {
	command -v fish >/dev/null || skip "fish is not installed"
	run fish -N -c "source '$COMPLETIONS/irqaff.fish'
		complete -C 'irqaff top -s '
		complete -C 'irqaff top -i '
		complete -C 'irqaff top -s irq 41 4'"
	assert_success
	assert_output - <<-'EOF'
		irq	sort the IRQs
		name	sort the IRQs
		rate	sort the IRQs
		total	sort the IRQs
		41
		42
		43
	EOF
}

@test "fish completes file names after --sample-from, and the operands after its file" {
	command -v fish >/dev/null || skip "fish is not installed"
	mkdir "$BATS_TEST_TMPDIR/saved"
	touch "$BATS_TEST_TMPDIR/saved/a" "$BATS_TEST_TMPDIR/saved/b"
	cd "$BATS_TEST_TMPDIR"
	run fish -N -c "source '$COMPLETIONS/irqaff.fish'
		complete -C 'irqaff show --sample-from saved/'
		complete -C 'irqaff cpus --sample-from saved/'
		complete -C 'irqaff balance --sample-from saved/a --sample-from saved/'
		complete -C 'irqaff cpus --sample-from saved/a 0,node:'
		complete -C 'irqaff show --sample-f'"
	assert_success
	assert_output - <<-'EOF'
		saved/a
		saved/b
		saved/a
		saved/b
		saved/a
		saved/b
		0,node:0
		0,node:1
		--sample-from	read a saved /proc/interrupts, once a read
	EOF
}

@test "fish completes queues' columns and interfaces with queues" {
	command -v fish >/dev/null || skip "fish is not installed"
	mkdir "$ROOT/sys/class/net/eth1/queues"
	run fish -N -c "source '$COMPLETIONS/irqaff.fish'
		complete -C 'irqaff queues -o DEV,X'
		complete -C 'irqaff queues -J eth1,'
		complete -C 'irqaff queues eth1 '"
	assert_success
	# eth1 is typed, and eth0 has no queues
	assert_output - <<-'EOF'
		DEV,XPS	columns to print
	EOF
}

@test "bash completes the queues of the interface after xps DEV: and rps DEV:" {
	local q
	for q in tx-0 tx-1 tx-10 tx-2 rx-0 rx-1; do
		mkdir -p "$ROOT/sys/class/net/eth1/queues/$q"
	done
	complete_line irqaff xps eth1:
	assert_equal "$reply" "tx-0 tx-1 tx-2 tx-10"
	complete_line irqaff rps -n eth1:
	assert_equal "$reply" "rx-0 rx-1"
	complete_line irqaff xps eth1:tx-1
	assert_equal "$reply" "tx-1 tx-10"
	# the queues typed are not offered again
	complete_line irqaff xps eth1:tx-0,tx-1,
	assert_equal "$reply" "tx-0,tx-1,tx-2 tx-0,tx-1,tx-10"
	complete_unsplit irqaff rps eth1:rx-1,
	assert_equal "$reply" "eth1:rx-1,rx-0"
	# an interface with no queues, or none at all
	complete_line irqaff xps eth0:
	assert_equal "$reply" ""
	complete_line irqaff xps ../eth1:
	assert_equal "$reply" ""
}

@test "zsh completes no column or interface already typed" {
	command -v zsh >/dev/null || skip "zsh is not installed"
	mkdir -p "$ROOT/sys/class/net/eth0/queues" "$ROOT/sys/class/net/eth1/queues"
	run zsh_complete 'irqaff show -o IRQ,N'
	assert_output "NODE NAME"
	run zsh_complete 'irqaff show -o IRQ,NAME,NODE,TOTAL,T'
	assert_output "TYPE THREAD THREAD-CPUS"
	run zsh_complete 'irqaff queues eth1,'
	assert_output "eth0"
	run zsh_complete 'irqaff queues eth1,eth0,'
	assert_output ""
}

@test "zsh completes IRQ numbers after a digit, names and keywords else" {
	command -v zsh >/dev/null || skip "zsh is not installed"
	run zsh_complete 'irqaff show '
	assert_output "acpi eth0 eth0-TxRx-0 eth0-TxRx-1 eth1 eth1-TxRx-0 \
eth1-TxRx-1 all dev: cpu:"
	run zsh_complete 'irqaff set 9,5'
	assert_output "51 52 53"
}

@test "zsh completes queues after xps DEV:, no all for isolate, and help" {
	command -v zsh >/dev/null || skip "zsh is not installed"
	local q
	for q in tx-0 tx-1 tx-10 tx-2 rx-0 rx-1; do
		mkdir -p "$ROOT/sys/class/net/eth1/queues/$q"
	done
	run zsh_complete 'irqaff xps eth1:'
	assert_output "tx-0 tx-1 tx-2 tx-10"
	run zsh_complete 'irqaff rps -n eth1:'
	assert_output "rx-0 rx-1"
	run zsh_complete 'irqaff xps eth1:tx-0,'
	assert_output "tx-1 tx-2 tx-10"
	run zsh_complete 'irqaff xps eth0:'
	assert_output ""
	run zsh_complete 'irqaff isolate '
	assert_output "node:"
	run zsh_complete 'irqaff isolate --check 1,'
	assert_output "node:"
	run zsh_complete 'irqaff help '
	assert_output "$(help_commands)"
	run zsh_complete 'irqaff help show '
	assert_output ""
}

@test "fish completes no column or interface already typed" {
	command -v fish >/dev/null || skip "fish is not installed"
	mkdir -p "$ROOT/sys/class/net/eth0/queues" "$ROOT/sys/class/net/eth1/queues"
	run fish -N -c "source '$COMPLETIONS/irqaff.fish'
		complete -C 'irqaff show -o irq,NAME,NODE,TOTAL,T'
		complete -C 'irqaff cpus -o +CPU,NODE,STATE,IRQS,TOTAL,'
		complete -C 'irqaff queues eth1,'
		complete -C 'irqaff queues eth1,eth0,'"
	assert_success
	assert_output - <<-'EOF'
		irq,NAME,NODE,TOTAL,THREAD	columns to print
		irq,NAME,NODE,TOTAL,THREAD-CPUS	columns to print
		irq,NAME,NODE,TOTAL,TYPE	columns to print
		+CPU,NODE,STATE,IRQS,TOTAL,RATE	columns to print
		+CPU,NODE,STATE,IRQS,TOTAL,SYSTEM	columns to print
		+CPU,NODE,STATE,IRQS,TOTAL,TOP	columns to print
		eth1,eth0
	EOF
}

@test "fish completes IRQ numbers after a digit, names and keywords else" {
	command -v fish >/dev/null || skip "fish is not installed"
	run fish -N -c "source '$COMPLETIONS/irqaff.fish'
		complete -C 'irqaff show '
		complete -C 'irqaff set 9,5'"
	assert_success
	assert_output - <<-'EOF'
		acpi
		all
		cpu:
		dev:
		eth0
		eth0-TxRx-0
		eth0-TxRx-1
		eth1
		eth1-TxRx-0
		eth1-TxRx-1
		9,51
		9,52
		9,53
	EOF
}

@test "fish completes queues after xps DEV:, no all for isolate, and help" {
	command -v fish >/dev/null || skip "fish is not installed"
	local q
	for q in tx-0 tx-1 tx-10 tx-2 rx-0 rx-1; do
		mkdir -p "$ROOT/sys/class/net/eth1/queues/$q"
	done
	run fish -N -c "source '$COMPLETIONS/irqaff.fish'
		complete -C 'irqaff xps eth1:'
		complete -C 'irqaff rps -n eth1:'
		complete -C 'irqaff xps eth1:tx-0,tx-2,'
		complete -C 'irqaff xps ../eth1:'
		complete -C 'irqaff isolate '
		complete -C 'irqaff help sh'
		complete -C 'irqaff help show '"
	assert_success
	assert_output - <<-'EOF'
		eth1:tx-0
		eth1:tx-1
		eth1:tx-2
		eth1:tx-10
		eth1:rx-0
		eth1:rx-1
		eth1:tx-0,tx-2,tx-1
		eth1:tx-0,tx-2,tx-10
		node:0
		node:1
		show
	EOF
}
