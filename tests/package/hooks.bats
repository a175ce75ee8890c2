#!/usr/bin/env bats
# The interface hook (hooks/irqaff-ifup.in), run as ifupdown,
# networkd-dispatcher and NetworkManager run it, and the boot units'
# conditions and command lines (systemd/irqaff-restore.service.in,
# systemd/irqaff-isolate.service.in), against trees.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	local src=$BATS_TEST_DIRNAME/../.. bin
	bin=$(dirname "$IRQAFF_BIN")
	# /etc/ is moved into the test directory
	ETC=$BATS_TEST_TMPDIR/etc
	HOOK=$BATS_TEST_TMPDIR/irqaff-hook
	sed -e "s|@SBINDIR@|$bin|g" -e "s|/etc/|$ETC/|g" \
		"$src/hooks/irqaff-ifup.in" >"$HOOK"
	chmod 0755 "$HOOK"
	RESTORE=$BATS_TEST_TMPDIR/irqaff-restore.service
	ISOLATE=$BATS_TEST_TMPDIR/irqaff-isolate.service
	sed "s|@SBINDIR@|$bin|g" "$src/systemd/irqaff-restore.service.in" \
		>"$RESTORE"
	sed "s|@SBINDIR@|$bin|g" "$src/systemd/irqaff-isolate.service.in" \
		>"$ISOLATE"
	make_root --cpus 8 --nic eth0:2 --nic eth1:2 --legacy 4
	CONF=$BATS_TEST_TMPDIR/irqaff.conf
	cat >"$CONF" <<-'EOF'
		default 0-5
		0 0 "timer"
		eth0 1
		eth0-TxRx-* 2-3
		eth1-TxRx-* 6
		?eth2-TxRx-* 7
	EOF
	BEFORE=$BATS_TEST_TMPDIR/before
}

# reset_eth0: apply the whole configuration, then give eth0's IRQs (24,
# 25, 26) all CPUs, as its driver does when it requests them again, and
# eth1's first queue (28) and the default too, as by hand; keep a copy of
# the tree in $BEFORE.
reset_eth0() {
	local irq
	irqaff restore -q "$CONF" || return
	for irq in 24 25 26 28; do
		printf '0-7\n' >"$(list_of "$irq")"
		printf 'ff\n' >"$(irq_dir "$irq")/smp_affinity"
	done
	printf 'ff\n' >"$ROOT/proc/irq/default_smp_affinity"
	cp -a "$ROOT" "$BEFORE"
}

# hook FRAMEWORK IFACE [EVENT]: run the hook as FRAMEWORK does when IFACE
# changes, with only the variables it sets (and PATH, IRQAFF_ROOT,
# IRQAFF_CONF when set, and the fault injector's and the sanitizer's):
#   ifupdown  if-up.d: IFACE, MODE (EVENT, default start), PHASE, ...
#   networkd  networkd-dispatcher's configured.d: IFACE, STATE (EVENT,
#             default configured), AdministrativeState, OperationalState
#   nm        NetworkManager's dispatcher.d: IFACE and the action (EVENT,
#             default up) as arguments, and DEVICE_IFACE, ...
hook() {
	local fw=$1 iface=$2 ev=${3-}
	local -a env=(env -i "PATH=$PATH" "IRQAFF_ROOT=$ROOT"
		${IRQAFF_CONF+"IRQAFF_CONF=$IRQAFF_CONF"}
		${LD_PRELOAD+"LD_PRELOAD=$LD_PRELOAD"}
		${IRQAFF_FAULT+"IRQAFF_FAULT=$IRQAFF_FAULT"}
		${ASAN_OPTIONS+"ASAN_OPTIONS=$ASAN_OPTIONS"})
	case $fw in
	ifupdown)
		"${env[@]}" IFACE="$iface" LOGICAL="$iface" ADDRFAM=inet \
			METHOD=static MODE="${ev:-start}" PHASE=post-up \
			VERBOSITY=0 "$HOOK"
		;;
	networkd)
		"${env[@]}" IFACE="$iface" STATE="${ev:-configured}" \
			AdministrativeState=configured \
			OperationalState=routable "$HOOK"
		;;
	nm)
		"${env[@]}" DEVICE_IFACE="$iface" DEVICE_IP_IFACE="$iface" \
			NM_DISPATCHER_ACTION="${ev:-up}" \
			CONNECTION_ID="Wired connection 1" \
			"$HOOK" "$iface" "${ev:-up}"
		;;
	esac
}

# changed: the files that differ between $BEFORE and the tree, one a line
# (diff -rq, symbolic links compared as links).
changed() {
	diff -rq --no-dereference "$BEFORE" "$ROOT" |
		sed "s|^Files $BEFORE/\\(.*\\) and $ROOT/.* differ\$|\\1|"
}

# reapplied FRAMEWORK: the hook for eth0 gives its IRQs their configured
# CPUs again and writes nothing else: not eth1's, not the default, though
# the configuration has lines for them.
reapplied() {
	reset_eth0
	export IRQAFF_CONF=$CONF
	run --separate-stderr hook "$1" eth0
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	run lists 24 25 26
	assert_output $'1\n2-3\n2-3'
	run changed
	assert_output - <<-'EOF'
		proc/irq/24/smp_affinity_list
		proc/irq/25/smp_affinity_list
		proc/irq/26/smp_affinity_list
	EOF
}

# untouched FRAMEWORK IFACE [EVENT]: the hook exits 0, prints nothing and
# writes nothing.
untouched() {
	run --separate-stderr hook "$@"
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	run changed
	assert_output ""
}

# unit_exec UNIT KEY [N]: run UNIT's Nth KEY= command line (the first
# by default; ExecCondition=, ExecStart=) as systemd does: its prefixes
# (-@:+!) dropped, split at blanks, ${IRQAFF_CONF} one word, with the
# environment the unit sets: IRQAFF_CONF from Environment=, or from its
# EnvironmentFile= when the test wrote that file, both paths moved under
# $BATS_TEST_TMPDIR; none when the unit sets none.
unit_exec() {
	local unit=$1 key=$2 n=${3:-1} line conf envfile i
	local -a argv=()
	line=$(sed -n "s/^$key=[-@:+!]*//p" "$unit" | sed -n "${n}p")
	conf=$(sed -n 's/^Environment=IRQAFF_CONF=//p' "$unit")
	conf=${conf:+$BATS_TEST_TMPDIR$conf}
	envfile=$(sed -n 's/^EnvironmentFile=-//p' "$unit")
	envfile=${envfile:+$BATS_TEST_TMPDIR$envfile}
	if [ -n "$envfile" ] && [ -f "$envfile" ]; then
		conf=$(sed -n 's/^IRQAFF_CONF=//p' "$envfile")
	fi
	if [ -z "$line" ]; then
		printf 'unit_exec: no %s= number %s in %s\n' "$key" "$n" \
			"$unit" >&2
		return 1
	fi
	read -ra argv <<<"$line"
	for i in "${!argv[@]}"; do
		# shellcheck disable=SC2016
		[ "${argv[i]}" != '${IRQAFF_CONF}' ] && continue
		if [ -z "$conf" ]; then
			printf 'unit_exec: no IRQAFF_CONF in %s\n' "$unit" >&2
			return 1
		fi
		argv[i]=$conf
	done
	env -i "PATH=$PATH" "IRQAFF_ROOT=$ROOT" \
		${conf:+"IRQAFF_CONF=$conf"} "${argv[@]}"
}

# unit_conditions UNIT: 0 when each of UNIT's Condition*= lines holds, 1
# when one does not (systemd then skips the unit). The paths are taken
# under $ROOT, where irqaff keeps its state when IRQAFF_ROOT is set, as
# it does under / at boot. Only ConditionPathExists= (and its "!" form)
# is known; any other Condition or Assert line is an error (2).
unit_conditions() {
	local key value
	while IFS='=' read -r key value; do
		case $key in
		ConditionPathExists)
			if [ "${value#!}" != "$value" ]; then
				[ ! -e "$ROOT${value#!}" ] || return 1
			else
				[ -e "$ROOT$value" ] || return 1
			fi
			;;
		*)
			printf 'unit_conditions: unknown %s=\n' "$key" >&2
			return 2
			;;
		esac
	done < <(grep -E '^(Condition|Assert)' "$1")
}

# unit_start UNIT: start UNIT as systemd does: skipped when a condition
# fails or an ExecCondition= exits 1 to 254, failed when one exits
# otherwise, else each ExecStart= in turn until one fails. Prints "NAME:
# skipped", "NAME: done" or "NAME: failed N"; the commands' output
# passes through.
unit_start() {
	local unit=$1 name=${1##*/} key n rc
	unit_conditions "$unit" || {
		printf '%s: skipped\n' "$name"
		return
	}
	for key in ExecCondition ExecStart; do
		for ((n = 1; n <= $(grep -c "^$key=" "$unit"); n++)); do
			rc=0
			unit_exec "$unit" "$key" "$n" || rc=$?
			[ "$rc" -eq 0 ] && continue
			if [ "$key" = ExecCondition ] && [ "$rc" -lt 255 ]; then
				printf '%s: skipped\n' "$name"
			else
				printf '%s: failed %s\n' "$name" "$rc"
			fi
			return
		done
	done
	printf '%s: done\n' "$name"
}

# boot: start the boot units in their After= order, each whatever came
# of the one before (neither Requires= the other).
boot() {
	unit_start "$RESTORE"
	unit_start "$ISOLATE"
}

# rebooted: every IRQ and the default affinity back to all 8 CPUs, as
# the kernel sets them at boot; the state under /var/lib stays. Keeps a
# copy of the tree in $BEFORE.
rebooted() {
	local dir
	for dir in "$ROOT"/proc/irq/*/; do
		printf '0-7\n' >"$dir/smp_affinity_list"
		printf 'ff\n' >"$dir/smp_affinity"
	done
	printf 'ff\n' >"$ROOT/proc/irq/default_smp_affinity"
	cp -a "$ROOT" "$BEFORE"
}

# conf_in_envfile FILE: /etc/default/irqaff, under $BATS_TEST_TMPDIR,
# sets IRQAFF_CONF=FILE.
conf_in_envfile() {
	mkdir -p "$ETC/default"
	printf 'IRQAFF_CONF=%s\n' "$1" >"$ETC/default/irqaff"
}

@test "the ifupdown hook gives eth0's IRQs their CPUs again and writes nothing else" {
	reapplied ifupdown
}

@test "the networkd-dispatcher hook gives eth0's IRQs their CPUs again and writes nothing else" {
	reapplied networkd
}

@test "the NetworkManager hook gives eth0's IRQs their CPUs again and writes nothing else" {
	reapplied nm
}

@test "the hook says nothing of a running irqbalance" {
	rm -rf "$ROOT"
	make_root --cpus 8 --nic eth0:2 --nic eth1:2 --legacy 4 --irqbalance
	export IRQAFF_CONF=$CONF
	run --separate-stderr hook networkd eth0
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	run lists 24 25 26
	assert_output $'1\n2-3\n2-3'
}

@test "a second run of the hook writes nothing" {
	local fw
	reset_eth0
	export IRQAFF_CONF=$CONF
	hook nm eth0
	rm -rf "$BEFORE"
	cp -a "$ROOT" "$BEFORE"
	for fw in ifupdown networkd nm; do
		untouched "$fw" eth0
	done
}

@test "without the configuration file the hook does nothing" {
	local fw
	reset_eth0
	export IRQAFF_CONF=$BATS_TEST_TMPDIR/absent.conf
	for fw in ifupdown networkd nm; do
		untouched "$fw" eth0
	done
}

@test "the hook takes the configuration from IRQAFF_CONF, /etc/default/irqaff or /etc/irqaff.conf" {
	reset_eth0
	mkdir -p "$ETC/default"
	printf 'eth0-TxRx-* 5\n' >"$BATS_TEST_TMPDIR/env.conf"
	printf 'eth0-TxRx-* 6\n' >"$BATS_TEST_TMPDIR/default.conf"
	printf 'eth0-TxRx-* 7\n' >"$ETC/irqaff.conf"
	printf '# as for the unit\nIRQAFF_CONF="%s"\n' \
		"$BATS_TEST_TMPDIR/default.conf" >"$ETC/default/irqaff"
	IRQAFF_CONF=$BATS_TEST_TMPDIR/env.conf run hook ifupdown eth0
	assert_success
	run lists 25 26
	assert_output $'5\n5'
	run hook networkd eth0
	assert_success
	run lists 25 26
	assert_output $'6\n6'
	rm "$ETC/default/irqaff"
	IRQAFF_CONF='' run hook nm eth0
	assert_success
	run lists 25 26
	assert_output $'7\n7'
}

@test "the hook reads /etc/default/irqaff as systemd reads an EnvironmentFile, and runs nothing in it" {
	local T=$BATS_TEST_TMPDIR line want
	reset_eth0
	mkdir -p "$ETC/default"
	printf 'eth0-TxRx-* 7\n' >"$ETC/irqaff.conf"
	printf 'eth0-TxRx-* 5\n' >"$T/my irqaff.conf"
	printf 'eth0-TxRx-* 6\n' >"$T/a\\b\"c"
	printf 'eth0-TxRx-* 4\n' >"$T/plain.conf"
	# each file, and the CPUs it gives eth0's queues: 7 for
	# /etc/irqaff.conf, - for no file (the unit is skipped too)
	while IFS='|' read -r line want; do
		rm -rf "$ROOT"
		cp -a "$BEFORE" "$ROOT"
		printf "$line" "$T" "$T" >"$ETC/default/irqaff"
		run --separate-stderr hook nm eth0
		assert_success
		assert_output ""
		assert_equal "$stderr" ""
		assert_equal "$line: $(lists 25 26 | paste -sd' ')" \
			"$line: ${want/-/0-7 0-7}"
		[ ! -e "$T/ran" ]
	done <<-'EOF'
		IRQAFF_CONF=%s/my irqaff.conf\n%.0s|5 5
		IRQAFF_CONF=%s/my irqaff.conf  \t\n;%s\n|5 5
		  IRQAFF_CONF = "%s/my irqaff.conf"  \n%.0s|5 5
		IRQAFF_CONF=\n%.0s%.0s|-
		IRQAFF_CONF=$(touch %s/ran)%.0s\n|-
		IRQAFF_CONF=`touch %s/ran`%.0s\n|-
		IRQAFF_CONF=%s/plain.conf; touch %s/ran\n|-
		IRQAFF_CONF='%s/a\\b"c'%.0s\n|6 6
		IRQAFF_CONF="%s/a\\\\b\\"c"%.0s\n|6 6
		IRQAFF_CONF=%s/a\\\\b\\"c%.0s\n|6 6
		# IRQAFF_CONF=%s/plain.conf%.0s\n|7 7
		export IRQAFF_CONF=%s/plain.conf%.0s\n|7 7
		IRQAFF_CONF=%s/plain.conf\nif\n%.0s|4 4
		IRQAFF_CONF=/nonexistent\nIRQAFF_CONF=%s/plain.conf%.0s|4 4
	EOF
}

@test "the hook leaves lo, --all, an empty name and an interface without a device alone" {
	local fw name dir
	reset_eth0
	export IRQAFF_CONF=$CONF
	# a veth: sys/class/net/veth0 without device, as the kernel has it
	for dir in "$ROOT" "$BEFORE"; do
		mkdir -p "$dir/sys/devices/virtual/net/veth0"
		ln -s ../../devices/virtual/net/veth0 "$dir/sys/class/net/veth0"
	done
	# irqaff itself would find nothing to do
	run -0 irqaff restore -q --only dev:veth0 "$CONF"
	for fw in ifupdown networkd nm; do
		for name in lo --all '' veth0 eth9 eth0/../eth0 '*'; do
			untouched "$fw" "$name"
		done
	done
}

@test "the hook applies the queue lines of an interface whose device has no IRQs" {
	local fw d=$ROOT/sys/devices/platform/soc/1c30000.ethernet
	reset_eth0
	export IRQAFF_CONF=$CONF
	# a SoC's Ethernet, whose IRQs sysfs does not give its device
	mkdir -p "$d/net/end0/queues/rx-0" "$d/net/end0/queues/tx-0"
	printf '00\n' >"$d/net/end0/queues/rx-0/rps_cpus"
	printf '00\n' >"$d/net/end0/queues/tx-0/xps_cpus"
	ln -s ../../../1c30000.ethernet "$d/net/end0/device"
	ln -s ../../devices/platform/soc/1c30000.ethernet/net/end0 \
		"$ROOT/sys/class/net/end0"
	printf 'xps end0 tx-0 2-3\nrps end0 rx-0 4\n' >>"$CONF"
	rm -rf "$BEFORE"
	cp -a "$ROOT" "$BEFORE"
	for fw in ifupdown networkd nm; do
		printf '00\n' >"$d/net/end0/queues/rx-0/rps_cpus"
		printf '00\n' >"$d/net/end0/queues/tx-0/xps_cpus"
		run --separate-stderr hook "$fw" end0
		assert_success
		assert_output ""
		assert_equal "$stderr" ""
		run changed
		assert_output - <<-'EOF'
			sys/devices/platform/soc/1c30000.ethernet/net/end0/queues/rx-0/rps_cpus
			sys/devices/platform/soc/1c30000.ethernet/net/end0/queues/tx-0/xps_cpus
		EOF
		assert_file "$d/net/end0/queues/tx-0/xps_cpus" $'0c\n'
		assert_file "$d/net/end0/queues/rx-0/rps_cpus" $'10\n'
	done
}

@test "the hook selects any interface name: commas, quotes, backslashes" {
	local fw
	rm -rf "$ROOT"
	make_root --cpus 8 --nic 'lan,1:1:0:40' --nic 'x,all:1:0:50' \
		--nic 'a"b\c:1:0:60' --nic 'lan:1:0:70'
	export IRQAFF_CONF=$CONF
	cat >"$CONF" <<-'EOF'
		"lan,1-TxRx-0" 1
		"x,all-TxRx-0" 2
		61 3 "a\"b\\c-TxRx-0"
		"lan-TxRx-0" 4
	EOF
	cp -a "$ROOT" "$BEFORE"
	run --separate-stderr hook nm 'lan,1'
	assert_success
	assert_equal "$stderr" ""
	run --separate-stderr hook ifupdown 'x,all'
	assert_success
	assert_equal "$stderr" ""
	run --separate-stderr hook networkd 'a"b\c'
	assert_success
	assert_equal "$stderr" ""
	run changed
	assert_output - <<-'EOF'
		proc/irq/41/smp_affinity_list
		proc/irq/51/smp_affinity_list
		proc/irq/61/smp_affinity_list
	EOF
	run lists 41 51 61 71
	assert_output $'1\n2\n3\n0-7'
}

@test "the hook does nothing for other events than its framework's bring-up" {
	local ev
	reset_eth0
	export IRQAFF_CONF=$CONF
	untouched ifupdown eth0 stop
	for ev in off no-carrier carrier degraded routable configuring; do
		untouched networkd eth0 "$ev"
	done
	for ev in pre-up down pre-down vpn-up dhcp4-change reapply; do
		untouched nm eth0 "$ev"
	done
	untouched nm none hostname
	untouched nm '' connectivity-change
	# NetworkManager's 01-ifupdown runs if-up.d too; 90-irqaff does it
	run --separate-stderr env -i "PATH=$PATH" "IRQAFF_ROOT=$ROOT" \
		"IRQAFF_CONF=$CONF" IFACE=eth0 LOGICAL=eth0 \
		ADDRFAM=NetworkManager METHOD=NetworkManager MODE=start \
		PHASE=post-up "$HOOK"
	assert_success
	assert_output ""
	run changed
	assert_output ""
	# and no framework: no arguments, no MODE, no STATE
	run env -i "PATH=$PATH" "IRQAFF_ROOT=$ROOT" "IRQAFF_CONF=$CONF" \
		IFACE=eth0 "$HOOK"
	assert_success
	run changed
	assert_output ""
}

@test "the hook exits 0 when irqaff fails, and irqaff's message is on standard error" {
	local fw want
	reset_eth0
	export IRQAFF_CONF=$CONF
	printf 'eth0-TxRx-* 99\n' >>"$CONF"
	run -2 --separate-stderr irqaff restore -q --only dev:eth0 "$CONF"
	want=$stderr
	assert_equal "$want" "irqaff: $CONF:7: CPU list \"99\": CPU 99 is \
beyond the last possible CPU 7"
	for fw in ifupdown networkd nm; do
		run --separate-stderr hook "$fw" eth0
		assert_success
		assert_output ""
		assert_equal "$stderr" "$want"
		run changed
		assert_output ""
	done
}

@test "the hook exits 0 when the kernel refuses an IRQ, and applies the others" {
	local want
	reset_eth0
	export IRQAFF_CONF=$CONF
	run -3 --separate-stderr faulty "$(list_of 25):ENOSPC" \
		irqaff restore -q --only dev:eth0 "$CONF"
	want=$stderr
	assert_equal "$want" "irqaff: irq 25: cannot set 2-3: no free \
interrupt vectors on the target CPUs (No space left on device)"
	rm -rf "$ROOT"
	cp -a "$BEFORE" "$ROOT"
	run --separate-stderr faulty "$(list_of 25):ENOSPC" hook nm eth0
	assert_success
	assert_output ""
	assert_equal "$stderr" "$want"
	run lists 24 25 26
	assert_output $'1\n0-7\n2-3'
}

@test "the hook exits 0 when irqaff is not where it was installed" {
	reset_eth0
	export IRQAFF_CONF=$CONF
	sed 's|@SBINDIR@|/nonexistent|g' \
		"$BATS_TEST_DIRNAME/../../hooks/irqaff-ifup.in" >"$HOOK"
	run --separate-stderr hook ifupdown eth0
	assert_success
	assert_output ""
	[[ $stderr == *'/nonexistent/irqaff'* ]]
	run changed
	assert_output ""
}

@test "the hook source is POSIX sh and shellcheck-clean" {
	local src=$BATS_TEST_DIRNAME/../../hooks/irqaff-ifup.in
	run head -n 1 "$src"
	assert_output '#!/bin/sh'
	command -v shellcheck >/dev/null || skip "shellcheck is not installed"
	run shellcheck -s sh "$src"
	assert_success
	assert_output ""
}

@test "the boot unit no longer waits for network-online.target" {
	run grep -v '^#' "$RESTORE"
	refute_output --partial network-online
	run grep -x 'After=network.target irqbalance.service' "$RESTORE"
	assert_success
	run grep -c '^ExecStart=.* -q ' "$RESTORE"
	assert_output 0
}

@test "the boot unit is skipped without the configuration file" {
	run grep -x 'Environment=IRQAFF_CONF=/etc/irqaff.conf' "$RESTORE"
	assert_success
	run grep -x 'EnvironmentFile=-/etc/default/irqaff' "$RESTORE"
	assert_success
	# 1 to 254: systemd skips the unit, as a failed condition
	run --separate-stderr unit_exec "$RESTORE" ExecCondition
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" ""
	conf_in_envfile "$BATS_TEST_TMPDIR/absent.conf"
	run --separate-stderr unit_exec "$RESTORE" ExecCondition
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" ""
	conf_in_envfile "$CONF"
	run unit_exec "$RESTORE" ExecCondition
	assert_success
}

@test "the boot unit restores the whole configuration that /etc/default/irqaff names" {
	conf_in_envfile "$CONF"
	cp -a "$ROOT" "$BEFORE"
	run unit_exec "$RESTORE" ExecCondition
	assert_success
	run --separate-stderr unit_exec "$RESTORE" ExecStart
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	run lists 0 1 24 25 26 27 28 29
	assert_output $'0\n0-7\n1\n2-3\n2-3\n0-7\n6\n6'
	assert_file "$ROOT/proc/irq/default_smp_affinity" $'3f\n'
	run changed
	assert_output - <<-'EOF'
		proc/irq/0/smp_affinity_list
		proc/irq/24/smp_affinity_list
		proc/irq/25/smp_affinity_list
		proc/irq/26/smp_affinity_list
		proc/irq/28/smp_affinity_list
		proc/irq/29/smp_affinity_list
		proc/irq/default_smp_affinity
	EOF
}

@test "the boot unit restores /etc/irqaff.conf without /etc/default/irqaff" {
	mkdir -p "$ETC"
	cp "$CONF" "$ETC/irqaff.conf"
	run unit_exec "$RESTORE" ExecCondition
	assert_success
	run --separate-stderr unit_exec "$RESTORE" ExecStart
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	run lists 0 24 25 26 28 29
	assert_output $'0\n1\n2-3\n2-3\n6\n6'
}

@test "the boot unit fails and the hook does nothing on an empty configuration" {
	local fw msg
	mkdir -p "$ETC"
	printf '# truncated\n' >"$ETC/irqaff.conf"
	cp -a "$ROOT" "$BEFORE"
	msg="irqaff: $ETC/irqaff.conf: no entries: the file is empty or holds only comments"
	# a missing file skips the unit; an empty one runs it, and it fails
	run unit_exec "$RESTORE" ExecCondition
	assert_success
	run --separate-stderr -2 unit_exec "$RESTORE" ExecStart
	assert_output ""
	assert_equal "$stderr" "$msg"
	# the hook never fails a bring-up, but says why it did nothing
	for fw in ifupdown networkd nm; do
		run --separate-stderr -0 hook "$fw" eth0
		assert_output ""
		assert_equal "$stderr" "$msg"
	done
	run changed
	assert_output ""
}

@test "the boot unit puts irqbalance's warning in the journal" {
	rm -rf "$ROOT"
	make_root --cpus 8 --nic eth0:2 --nic eth1:2 --legacy 4 --irqbalance
	conf_in_envfile "$CONF"
	run --separate-stderr unit_exec "$RESTORE" ExecStart
	assert_success
	assert_output ""
	assert_equal "$stderr" "irqaff: warning: irqbalance is running and \
may move these IRQs again; keep it off them with IRQBALANCE_BANNED_CPULIST \
or its --banirq option, or stop it (systemctl disable --now irqbalance)"
}

@test "systemd-analyze verify accepts the boot units" {
	local unit
	command -v systemd-analyze >/dev/null ||
		skip "systemd-analyze is not installed"
	run systemd-analyze verify --man=no "$RESTORE" "$ISOLATE"
	assert_success
	assert_output ""
	# and it does check: a unit whose binary is missing fails
	for unit in irqaff-restore irqaff-isolate; do
		sed 's|@SBINDIR@|/nonexistent|g' \
			"$BATS_TEST_DIRNAME/../../systemd/$unit.service.in" \
			>"$BATS_TEST_TMPDIR/$unit.service"
		run systemd-analyze verify --man=no \
			"$BATS_TEST_TMPDIR/$unit.service"
		assert_failure
	done
}

@test "each boot unit runs one command, under its own condition, the isolation after the restore" {
	local bin
	bin=$(dirname "$IRQAFF_BIN")
	run grep -E '^(Condition|Assert|Exec|After|Requires|Wants|Also|WantedBy)' \
		"$RESTORE"
	assert_output - <<-EOF
		After=network.target irqbalance.service
		ExecCondition=/usr/bin/test -e \${IRQAFF_CONF}
		ExecStart=$bin/irqaff restore \${IRQAFF_CONF}
		WantedBy=multi-user.target
		Also=irqaff-isolate.service
	EOF
	run grep -E '^(Condition|Assert|Exec|After|Requires|Wants|Also|WantedBy|Environment)' \
		"$ISOLATE"
	assert_output - <<-EOF
		After=network.target irqbalance.service irqaff-restore.service
		ConditionPathExists=/var/lib/irqaff/isolated
		ExecStart=$bin/irqaff isolate --again
		WantedBy=multi-user.target
	EOF
}

@test "isolate --again, the isolation unit's command, writes nothing when no CPUs are remembered" {
	rebooted
	run --separate-stderr unit_exec "$ISOLATE" ExecStart
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	run changed
	assert_output ""
	assert [ ! -e "$ROOT/var/lib/irqaff" ]
}

@test "at boot without the configuration, the CPUs isolate remembered are isolated again" {
	irqaff isolate -q 6-7
	rebooted
	run --separate-stderr boot
	assert_success
	assert_output - <<-'EOF'
		irqaff-restore.service: skipped
		irqaff-isolate.service: done
	EOF
	assert_equal "$stderr" ""
	run lists 0 1 2 3 24 25 26 27 28 29
	assert_output $'0-5\n0-5\n0-5\n0-5\n0-5\n0-5\n0-5\n0-5\n0-5\n0-5'
	assert_file "$ROOT/proc/irq/default_smp_affinity" $'3f\n'
	assert_file "$ROOT/var/lib/irqaff/isolated" $'6-7\n'
	run changed
	assert_output - <<-'EOF'
		proc/irq/0/smp_affinity_list
		proc/irq/1/smp_affinity_list
		proc/irq/2/smp_affinity_list
		proc/irq/24/smp_affinity_list
		proc/irq/25/smp_affinity_list
		proc/irq/26/smp_affinity_list
		proc/irq/27/smp_affinity_list
		proc/irq/28/smp_affinity_list
		proc/irq/29/smp_affinity_list
		proc/irq/3/smp_affinity_list
		proc/irq/default_smp_affinity
	EOF
}

@test "at boot, a remembered state naming a CPU this machine cannot have fails the isolation unit with status 2, writing nothing" {
	mkdir -p "$ROOT/var/lib/irqaff"
	printf '6-9\n' >"$ROOT/var/lib/irqaff/isolated"
	rebooted
	run --separate-stderr boot
	assert_success
	assert_output - <<-'EOF'
		irqaff-restore.service: skipped
		irqaff-isolate.service: failed 2
	EOF
	assert_equal "$stderr" "irqaff: isolate --again: $ROOT/var/lib/irqaff/isolated: CPU 9 is beyond the last possible CPU 7; nothing written"
	run changed
	assert_output ""
	# the last possible CPU is one it can have
	printf '7\n' >"$ROOT/var/lib/irqaff/isolated"
	run --separate-stderr boot
	assert_output - <<-'EOF'
		irqaff-restore.service: skipped
		irqaff-isolate.service: done
	EOF
	assert_equal "$stderr" ""
	assert_file "$ROOT/proc/irq/default_smp_affinity" $'7f\n'
}

@test "at boot with the configuration and no CPUs remembered, only the restore runs" {
	mkdir -p "$ETC"
	cp "$CONF" "$ETC/irqaff.conf"
	rebooted
	run --separate-stderr boot
	assert_success
	assert_output - <<-'EOF'
		irqaff-restore.service: done
		irqaff-isolate.service: skipped
	EOF
	assert_equal "$stderr" ""
	run lists 0 1 24 25 26 27 28 29
	assert_output $'0\n0-7\n1\n2-3\n2-3\n0-7\n6\n6'
	assert_file "$ROOT/proc/irq/default_smp_affinity" $'3f\n'
	assert [ ! -e "$ROOT/var/lib/irqaff" ]
	run changed
	assert_output - <<-'EOF'
		proc/irq/0/smp_affinity_list
		proc/irq/24/smp_affinity_list
		proc/irq/25/smp_affinity_list
		proc/irq/26/smp_affinity_list
		proc/irq/28/smp_affinity_list
		proc/irq/29/smp_affinity_list
		proc/irq/default_smp_affinity
	EOF
}

@test "at boot with neither the configuration nor CPUs remembered, nothing runs" {
	rebooted
	run --separate-stderr boot
	assert_success
	assert_output - <<-'EOF'
		irqaff-restore.service: skipped
		irqaff-isolate.service: skipped
	EOF
	assert_equal "$stderr" ""
	run changed
	assert_output ""
	assert [ ! -e "$ROOT/var/lib/irqaff" ]
}

@test "at boot with both, the restore runs, then the remembered CPUs are isolated again" {
	mkdir -p "$ETC"
	cp "$CONF" "$ETC/irqaff.conf"
	irqaff isolate -q 6-7
	rebooted
	run --separate-stderr boot
	assert_success
	assert_output - <<-'EOF'
		irqaff-restore.service: done
		irqaff-isolate.service: done
	EOF
	# restore leaves the remembered CPUs out itself, and says so once
	assert_equal "$stderr" "irqaff: note: CPU 6-7 isolated by irqaff isolate: left out of 2 lines of $ETC/irqaff.conf (isolate --undo gives them back)"
	# the restore's CPUs, then 6 and 7 taken out: eth1's queues, on 6
	# alone, go to the housekeeping CPUs
	run lists 0 1 2 3 24 25 26 27 28 29
	assert_output $'0\n0-5\n0-5\n0-5\n1\n2-3\n2-3\n0-5\n0-5\n0-5'
	assert_file "$ROOT/proc/irq/default_smp_affinity" $'3f\n'
	assert_file "$ROOT/var/lib/irqaff/isolated" $'6-7\n'
	run changed
	assert_output - <<-'EOF'
		proc/irq/0/smp_affinity_list
		proc/irq/1/smp_affinity_list
		proc/irq/2/smp_affinity_list
		proc/irq/24/smp_affinity_list
		proc/irq/25/smp_affinity_list
		proc/irq/26/smp_affinity_list
		proc/irq/27/smp_affinity_list
		proc/irq/28/smp_affinity_list
		proc/irq/29/smp_affinity_list
		proc/irq/3/smp_affinity_list
		proc/irq/default_smp_affinity
	EOF
}

@test "the hook keeps the CPUs isolate remembered free, as a boot does" {
	# eth1's queues are on CPU 6 in the configuration; 6-7 isolated
	export IRQAFF_CONF=$CONF
	irqaff restore -q "$CONF"
	irqaff isolate -q 6-7
	printf '0-7\n' >"$(list_of 28)"
	printf 'ff\n' >"$(irq_dir 28)/smp_affinity"
	run --separate-stderr hook networkd eth1
	assert_success
	assert_output ""
	assert_equal "$stderr" "irqaff: note: CPU 6-7 isolated by irqaff isolate: left out of 2 lines of $CONF (isolate --undo gives them back)"
	run lists 27 28 29
	assert_output $'0-5\n0-5\n0-5'
	run -0 irqaff isolate --check -q 6-7
}
