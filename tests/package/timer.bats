#!/usr/bin/env bats
# The unattended balance: systemd/irqaff-balance.service.in and .timer.in,
# their lines pinned, their command lines run as systemd runs them (its
# quoting, $$, %%, ${VAR} and $VAR), with /etc/default/irqaff as
# debian/irqaff.default ships it or as a test writes it, against trees.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	SRC=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	BIN=$(dirname "$IRQAFF_BIN")
	ETC=$BATS_TEST_TMPDIR/etc
	SERVICE=$BATS_TEST_TMPDIR/irqaff-balance.service
	TIMER=$BATS_TEST_TMPDIR/irqaff-balance.timer
	sed "s|@SBINDIR@|$BIN|g" "$SRC/systemd/irqaff-balance.service.in" \
		>"$SERVICE"
	sed "s|@SBINDIR@|$BIN|g" "$SRC/systemd/irqaff-balance.timer.in" \
		>"$TIMER"
}

# under_root UNIT: UNIT's ExecCondition= lines read /run and /proc under
# $ROOT, as irqaff does with IRQAFF_ROOT; a copy, in place.
under_root() {
	sed -i "/^ExecCondition=/ s|/run/|$ROOT/run/|g; /^ExecCondition=/ s|/proc/|$ROOT/proc/|g" "$1"
}

# unit_env UNIT: the environment UNIT's commands get, NAME=VALUE a line:
# its Environment= assignments, then those of its EnvironmentFile= when
# the test wrote it (systemd.exec(5): comments, quotes), paths under /etc
# moved under $BATS_TEST_TMPDIR.
unit_env() {
	local line envfile key value
	local -a words
	while IFS= read -r line; do
		read -ra words <<<"$line"
		printf '%s\n' "${words[@]}"
	done < <(sed -n 's/^Environment=//p' "$1")
	envfile=$(sed -n 's/^EnvironmentFile=-//p' "$1")
	envfile=$BATS_TEST_TMPDIR$envfile
	[ -f "$envfile" ] || return 0
	while IFS= read -r line; do
		line=${line#"${line%%[![:space:]]*}"}
		case $line in '' | '#'* | ';'*) continue ;; esac
		key=${line%%=*} value=${line#*=}
		case $value in
		\"*\") value=${value:1:${#value}-2} ;;
		\'*\') value=${value:1:${#value}-2} ;;
		esac
		printf '%s=%s\n' "$key" "$value"
	done <"$envfile"
}

# unit_argv UNIT KEY [N]: UNIT's Nth KEY= command line (the first by
# default) as systemd splits it, one word a line: quotes, "$$" a "$",
# "%%" a "%", ${VAR} its value within a word, $VAR alone split at blanks
# into none or more words; /etc paths in values moved under the test's.
unit_argv() {
	local unit=$1 key=$2 n=${3:-1} line word name value
	local -A env=()
	local -a words=() out=() split
	line=$(sed -n "s/^$key=[-@:+!]*//p" "$unit" | sed -n "${n}p")
	[ -n "$line" ] || {
		printf 'unit_argv: no %s= number %s in %s\n' "$key" "$n" "$unit" >&2
		return 1
	}
	while IFS= read -r word; do
		name=${word%%=*} value=${word#*=}
		[[ $value == /etc/* ]] && value=$BATS_TEST_TMPDIR$value
		env[$name]=$value
	done < <(unit_env "$unit")
	line=${line//'$$'/$'\001'}
	line=${line//'%%'/%}
	line=${line//'$'/$'\002'}
	eval "words=($line)"
	for word in "${words[@]}"; do
		if [[ $word =~ ^$'\002'([A-Za-z_][A-Za-z0-9_]*)$ ]]; then
			read -ra split <<<"${env[${BASH_REMATCH[1]}]-}"
			out+=("${split[@]}")
			continue
		fi
		while [[ $word =~ $'\002'\{([A-Za-z_][A-Za-z0-9_]*)\} ]]; do
			name=${BASH_REMATCH[1]}
			word=${word/$'\002'\{$name\}/${env[$name]-}}
		done
		out+=("${word//$'\001'/\$}")
	done
	printf '%s\n' "${out[@]}"
}

# unit_exec UNIT KEY [N]: run that command line with UNIT's environment
# only (and PATH, IRQAFF_ROOT).
unit_exec() {
	local -a argv=() envs=()
	mapfile -t argv < <(unit_argv "$@") || return
	[ "${#argv[@]}" -gt 0 ] || return 1
	mapfile -t envs < <(unit_env "$1" |
		sed "s|^\\([A-Z_]*\\)=/etc/|\\1=$BATS_TEST_TMPDIR/etc/|")
	env -i "PATH=$PATH" "IRQAFF_ROOT=$ROOT" "${envs[@]}" "${argv[@]}"
}

# unit_start UNIT: as systemd starts it: each ExecCondition= in turn,
# skipped at the first that exits 1 to 254, then ExecStart=. Prints
# "NAME: skipped", "NAME: done" or "NAME: failed N" after the output.
unit_start() {
	local unit=$1 name=${1##*/} n rc
	for ((n = 1; n <= $(grep -c '^ExecCondition=' "$unit"); n++)); do
		rc=0
		unit_exec "$unit" ExecCondition "$n" || rc=$?
		[ "$rc" -eq 0 ] && continue
		if [ "$rc" -lt 255 ]; then
			printf '%s: skipped\n' "$name"
		else
			printf '%s: failed %s\n' "$name" "$rc"
		fi
		return 0
	done
	rc=0
	unit_exec "$unit" ExecStart || rc=$?
	if [ "$rc" -eq 0 ]; then
		printf '%s: done\n' "$name"
	else
		printf '%s: failed %s\n' "$name" "$rc"
	fi
}

# default_file [LINE...]: /etc/default/irqaff, under the test's, holding
# the LINEs.
default_file() {
	mkdir -p "$ETC/default"
	printf '%s\n' "$@" >"$ETC/default/irqaff"
}

# irqbalance_warned: 1 when irqaff finds irqbalance running (set -n warns
# of it), else 0: the unit's test and irqaff's must agree.
irqbalance_warned() {
	irqaff set -n 24 1 2>&1 >/dev/null | grep -c 'irqbalance is running'
}

# busy_tree: 4 CPUs, IRQs 24-28 on CPU 0; FIRST, a copy of its
# proc/interrupts, and the tree's own counting 5000 to 1500 interrupts
# more of them on CPU 0, for --sample-from.
busy_tree() {
	make_root --cpus 4 "$@" --irq 24=a --affinity 0 --irq 25=b \
		--affinity 0 --irq 26=c --affinity 0 --irq 27=d --affinity 0 \
		--irq 28=e --affinity 0
	FIRST=$BATS_TEST_TMPDIR/first
	cp "$ROOT/proc/interrupts" "$FIRST"
	add_count 24 1 5000 25 1 4000 26 1 3000 27 1 2000 28 1 1500
}

# sampled: balance measures between FIRST and the tree, 1 s apart.
sampled() {
	default_file "IRQAFF_BALANCE_INTERVAL=1" \
		"IRQAFF_BALANCE_OPTIONS=\"--sample-from $FIRST --sample-from $ROOT/proc/interrupts\"" \
		"$@"
}

@test "the balance service runs one command, after the boot units, under two conditions, and is no boot unit" {
	run grep -vE '^(#|$)' "$SERVICE"
	assert_output - <<-EOF
		[Unit]
		Description=Balance IRQs over CPUs by measured rate (irqaff balance)
		Documentation=man:irqaff-balance(8)
		After=network.target irqbalance.service irqaff-restore.service irqaff-isolate.service
		[Service]
		Type=oneshot
		Environment=IRQAFF_CONF=/etc/irqaff.conf IRQAFF_BALANCE_INTERVAL=5
		EnvironmentFile=-/etc/default/irqaff
		$(grep '^ExecCondition=' "$SRC/systemd/irqaff-balance.service.in")
		ExecStart=$BIN/irqaff balance -q -i \${IRQAFF_BALANCE_INTERVAL} \$IRQAFF_BALANCE_OPTIONS \$IRQAFF_BALANCE_IRQS
		NoNewPrivileges=yes
		PrivateTmp=yes
		ProtectHome=yes
		ProtectSystem=full
	EOF
	# two conditions, each one command of sh
	run grep -c '^ExecCondition=/bin/sh -c '"'"'.*'"'"'$' "$SERVICE"
	assert_output 2
}

@test "the timer runs the service 10 minutes after boot, then 10 minutes after each run, once enabled" {
	run grep -vE '^(#|$)' "$TIMER"
	assert_output - <<-'EOF'
		[Unit]
		Description=Balance IRQs over CPUs by measured rate, periodically
		Documentation=man:irqaff-balance(8)
		[Timer]
		OnBootSec=10min
		OnUnitActiveSec=10min
		[Install]
		WantedBy=timers.target
	EOF
}

@test "systemd-analyze verify accepts the service and the timer" {
	command -v systemd-analyze >/dev/null ||
		skip "systemd-analyze is not installed"
	run systemd-analyze verify --man=no "$SERVICE" "$TIMER"
	assert_success
	assert_output ""
	# and it does check: a service whose binary is missing fails
	mkdir "$BATS_TEST_TMPDIR/bad"
	sed 's|@SBINDIR@|/nonexistent|g' \
		"$SRC/systemd/irqaff-balance.service.in" \
		>"$BATS_TEST_TMPDIR/bad/irqaff-balance.service"
	run systemd-analyze verify --man=no \
		"$BATS_TEST_TMPDIR/bad/irqaff-balance.service"
	assert_failure
}

@test "by default the service runs balance -q -i 5 on every IRQ" {
	run -0 unit_argv "$SERVICE" ExecStart
	assert_output - <<-EOF
		$BIN/irqaff
		balance
		-q
		-i
		5
	EOF
}

@test "/etc/default/irqaff sets the interval, more options and the IRQs, each word an argument" {
	default_file '# the timer' 'IRQAFF_BALANCE_INTERVAL=2.5' \
		'IRQAFF_BALANCE_OPTIONS="-c 0-3  --xps"' \
		"IRQAFF_BALANCE_IRQS='dev:eth0,nvme0q*'"
	run -0 unit_argv "$SERVICE" ExecStart
	assert_output - <<-EOF
		$BIN/irqaff
		balance
		-q
		-i
		2.5
		-c
		0-3
		--xps
		dev:eth0,nvme0q*
	EOF
}

@test "the shipped /etc/default/irqaff parses, and its commented defaults are the unit's" {
	local file=$SRC/debian/irqaff.default line
	# every line a comment or empty: the unit's own defaults apply
	run grep -vE '^(#|$)' "$file"
	assert_output ""
	mkdir -p "$ETC/default"
	cp "$file" "$ETC/default/irqaff"
	run -0 unit_argv "$SERVICE" ExecStart
	assert_output "$(printf '%s\n' "$BIN/irqaff" balance -q -i 5)"
	# each documented default, uncommented, changes nothing
	run grep -cE '^#IRQAFF_[A-Z_]+=' "$file"
	assert_output 4
	sed 's/^#\(IRQAFF_[A-Z_]*=\)/\1/' "$file" >"$ETC/default/irqaff"
	run -0 unit_argv "$SERVICE" ExecStart
	assert_output "$(printf '%s\n' "$BIN/irqaff" balance -q -i 5)"
	run -0 unit_env "$SERVICE"
	assert_output - <<-'EOF'
		IRQAFF_CONF=/etc/irqaff.conf
		IRQAFF_BALANCE_INTERVAL=5
		IRQAFF_CONF=/etc/irqaff.conf
		IRQAFF_BALANCE_INTERVAL=5
		IRQAFF_BALANCE_OPTIONS=
		IRQAFF_BALANCE_IRQS=
	EOF
}

@test "the service is skipped while irqbalance runs, saying why; a dead one's socket is no reason" {
	make_root --cpus 4 --irqbalance --irq 24=a
	under_root "$SERVICE"
	run --separate-stderr unit_exec "$SERVICE" ExecCondition 1
	assert_failure 1
	assert_equal "$(irqbalance_warned)" 1
	assert_output "irqaff-balance: irqbalance (PID 4242) is running and would move the IRQs again; not balancing. Stop it (systemctl disable --now irqbalance) or this timer (systemctl disable --now irqaff-balance.timer)"
	assert_equal "$stderr" ""
	# the socket left by a daemon killed, its PID now another process
	printf 'bash\n' >"$ROOT/proc/4242/comm"
	run --separate-stderr unit_exec "$SERVICE" ExecCondition 1
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	assert_equal "$(irqbalance_warned)" 0
	# or no process at all; and names that are no irqbalance socket
	rm -r "$ROOT/proc/4242"
	mkdir -p "$ROOT/proc/self"
	printf 'irqbalance\n' >"$ROOT/proc/self/comm"
	: >"$ROOT/run/irqbalance/irqbalanceself.sock"
	: >"$ROOT/run/irqbalance/irqbalance.sock"
	run --separate-stderr unit_exec "$SERVICE" ExecCondition 1
	assert_success
	assert_output ""
	assert_equal "$(irqbalance_warned)" 0
}

@test "without irqbalance's directory the service runs" {
	make_root --cpus 4
	under_root "$SERVICE"
	run --separate-stderr unit_exec "$SERVICE" ExecCondition 1
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
}

@test "the service is skipped while the restore unit's snapshot exists, unless IRQAFF_BALANCE_IRQS names the IRQs" {
	make_root --cpus 4
	under_root "$SERVICE"
	run --separate-stderr unit_exec "$SERVICE" ExecCondition 2
	assert_success
	assert_output ""
	mkdir -p "$ETC"
	printf 'eth0-TxRx-* 2-3\n' >"$ETC/irqaff.conf"
	run --separate-stderr unit_exec "$SERVICE" ExecCondition 2
	assert_failure 1
	assert_output "irqaff-balance: $ETC/irqaff.conf pins IRQs that balance would move; not balancing. Name the IRQs balance may move, none of that file, in IRQAFF_BALANCE_IRQS in /etc/default/irqaff, or stop this timer (systemctl disable --now irqaff-balance.timer)"
	assert_equal "$stderr" ""
	# the snapshot /etc/default/irqaff names, as the restore unit reads it
	default_file "IRQAFF_CONF=$BATS_TEST_TMPDIR/absent.conf"
	run unit_exec "$SERVICE" ExecCondition 2
	assert_success
	assert_output ""
	default_file "IRQAFF_CONF=$ETC/irqaff.conf"
	run unit_exec "$SERVICE" ExecCondition 2
	assert_failure 1
	default_file "IRQAFF_BALANCE_IRQS=dev:nvme0"
	run unit_exec "$SERVICE" ExecCondition 2
	assert_success
	assert_output ""
	default_file "IRQAFF_BALANCE_IRQS="
	run unit_exec "$SERVICE" ExecCondition 2
	assert_failure 1
}

@test "run 10 times on steady load, the service moves the busy IRQs once, then writes nothing" {
	local i sum
	busy_tree
	sampled
	under_root "$SERVICE"
	run --separate-stderr unit_start "$SERVICE"
	assert_success
	assert_line --index 0 --regexp '^IRQ +RATE OLD NEW NAME$'
	assert_line 'irqaff-balance.service: done'
	assert_equal "$stderr" ""
	run lists 24 25 26 27 28
	assert_output $'1\n2\n3\n0\n0'
	settle_effective
	sum=$(tree_sum)
	for i in 2 3 4 5 6 7 8 9 10; do
		# the same rates, where the IRQs run now
		cp "$ROOT/proc/interrupts" "$FIRST"
		add_count 24 2 5000 25 3 4000 26 4 3000 27 1 2000 28 1 1500
		sum=$(tree_sum)
		run --separate-stderr unit_start "$SERVICE"
		assert_success
		# and why: CPU 1 holds the busiest IRQ alone
		assert_line --index 0 'no IRQ to move: the busiest CPU, 1, holds irq 24 (a) at 5000.0/s, above the mean of the CPUs alone; one IRQ cannot be split'
		assert_line 'irqaff-balance.service: done'
		assert_equal "$stderr" ""
		assert_equal "run $i: $(tree_sum)" "run $i: $sum"
	done
}

@test "the service leaves out the isolated CPUs and those irqaff isolate remembered, saying nothing" {
	busy_tree --isolated 3
	irqaff isolate -q 2
	cp "$ROOT/proc/interrupts" "$FIRST"
	add_count 24 1 5000 25 1 4000 26 1 3000 27 1 2000 28 1 1500
	sampled
	under_root "$SERVICE"
	run --separate-stderr unit_start "$SERVICE"
	assert_success
	assert_line 'irqaff-balance.service: done'
	assert_equal "$stderr" ""
	assert_line 'imbalance: 2.00 -> 1.03 (the busiest of CPUs 0-1 over their mean)'
	# a on 1, then c joins it: 8000 against 7500
	run lists 24 25 26 27 28
	assert_output $'1\n0\n1\n0\n0'
}

@test "the service balances only IRQAFF_BALANCE_IRQS beside the restore unit's snapshot" {
	busy_tree
	sampled "IRQAFF_BALANCE_IRQS=24-25"
	mkdir -p "$ETC"
	printf '26 0\n27 0\n28 0\n' >"$ETC/irqaff.conf"
	under_root "$SERVICE"
	run --separate-stderr unit_start "$SERVICE"
	assert_success
	assert_line 'irqaff-balance.service: done'
	assert_equal "$stderr" ""
	run lists 24 25 26 27 28
	assert_output $'1\n2\n0\n0\n0'
}

@test "with irqbalance running the service is skipped and writes nothing" {
	busy_tree --irqbalance
	sampled
	under_root "$SERVICE"
	local sum
	sum=$(tree_sum)
	run --separate-stderr unit_start "$SERVICE"
	assert_success
	assert_output - <<-'EOF'
		irqaff-balance: irqbalance (PID 4242) is running and would move the IRQs again; not balancing. Stop it (systemctl disable --now irqbalance) or this timer (systemctl disable --now irqaff-balance.timer)
		irqaff-balance.service: skipped
	EOF
	assert_equal "$(tree_sum)" "$sum"
}

@test "the kernel tier's unattended scenario runs the service's command" {
	local scen=$SRC/tests/kernel/scenarios/05-balance-idle.sh
	# its interval set as /etc/default/irqaff would set it
	default_file "IRQAFF_BALANCE_INTERVAL=1"
	run -0 unit_argv "$SERVICE" ExecStart
	assert_equal "$(sed -n 's/^svc="\(.*\)"$/\1/p' "$scen")" \
		"$(sed "s|^$BIN/||" <<<"$output" | paste -sd ' ')"
}
