#!/usr/bin/env bats
# contrib/ansible/irqaff.yml against a tree: the first run deploys the
# file and reports changed, the second changed=0, check mode writes
# nothing, and a line that fails fails the host with irqaff's message;
# irqaff_balance_timer turns the timer on or off through a fake systemctl.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	load ../test_helper/snapshot
	command -v ansible-playbook >/dev/null ||
		skip "ansible-playbook is not installed (Debian: ansible-core)"
	PLAY=$BATS_TEST_DIRNAME/../../contrib/ansible/irqaff.yml
	# Ansible reads and writes nothing of the caller's, and prints the
	# same on every machine.
	export HOME=$BATS_TEST_TMPDIR/home
	export ANSIBLE_HOME=$HOME/.ansible ANSIBLE_CONFIG=$HOME/ansible.cfg
	export ANSIBLE_LOCAL_TEMP=$HOME/tmp ANSIBLE_REMOTE_TEMP=$HOME/tmp
	export ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0
	export ANSIBLE_STDOUT_CALLBACK=default
	export ANSIBLE_PYTHON_INTERPRETER=auto_silent LC_ALL=C.UTF-8
	unset ANSIBLE_FORCE_COLOR ANSIBLE_INVENTORY ANSIBLE_CALLBACKS_ENABLED
	mkdir -p "$HOME/tmp"
	: >"$ANSIBLE_CONFIG"
}

# A tree with an etc/ for the play to deploy into.
tree_with_etc() {
	tree
	mkdir "$ROOT/etc"
}

# play [OPTIONS]: the play on localhost against $ROOT with $SNAP, the
# irqaff under test, and no IRQAFF_ROOT: the play must pass --root.
play() {
	(cd "$BATS_TEST_TMPDIR" && env -u IRQAFF_ROOT ansible-playbook \
		-i localhost, -c local "$PLAY" -e "irqaff_root=$ROOT" \
		-e "irqaff_config=$SNAP" -e "irqaff_command=$IRQAFF_BIN" "$@")
}

# The PLAY RECAP counts of localhost, one space apart.
recap() {
	printf '%s\n' "$output" | awk '$1 == "localhost" && $2 == ":" {
		$1 = $2 = ""; sub(/^ +/, ""); print }'
}

@test "the play deploys and applies the file, then reports changed=0 when run again" {
	tree_with_etc
	printf 'default 0-3\neth0-TxRx-* 2-3\n"eth0-TxRx-1" 7\n' >"$SNAP"
	run play
	assert_success
	assert_equal "$(recap)" "ok=3 changed=2 unreachable=0 failed=0 skipped=7 rescued=0 ignored=0"
	cmp "$SNAP" "$ROOT/etc/irqaff.conf"
	assert_equal "$(lists 40 41 42 43 50)" $'0-7\n2-3\n7\n2-3\n0-7'
	assert_file "$ROOT/proc/irq/default_smp_affinity" $'0f\n'
	before=$(tree_sum)
	run play
	assert_success
	assert_equal "$(recap)" "ok=3 changed=0 unreachable=0 failed=0 skipped=7 rescued=0 ignored=0"
	assert_equal "$(tree_sum)" "$before"
}

@test "check mode reports the changes and writes nothing" {
	tree_with_etc
	printf 'eth0-TxRx-* 2-3\n' >"$SNAP"
	cp -a "$ROOT" "$BATS_TEST_TMPDIR/copy"
	before=$(tree_sum)
	run play --check
	assert_success
	# the copy and restore -n of the file not yet deployed
	assert_equal "$(recap)" "ok=3 changed=2 unreachable=0 failed=0 skipped=7 rescued=0 ignored=0"
	run diff -r --no-dereference "$BATS_TEST_TMPDIR/copy" "$ROOT"
	assert_success
	assert_output ""
	assert_equal "$(tree_sum)" "$before"
}

@test "a line that fails fails the host with irqaff's message" {
	tree_with_etc
	# a misspelt pattern: restore -t refuses it, nothing is deployed
	printf 'eth0-TxRx-* 2-3\neth9-* 1\n' >"$SNAP"
	local before
	before=$(tree_sum)
	run play
	assert_failure 2
	assert_equal "$(recap)" "ok=2 changed=0 unreachable=0 failed=1 skipped=3 rescued=0 ignored=0"
	assert_line --regexp "^fatal: \\[localhost\\]: FAILED! => \\{\"changed\": false, \"msg\": \"irqaff restore -t exited 1, $ROOT/etc/irqaff.conf kept: irqaff: [^\"]*/(source|\\.source\\.conf):2: \\\\\"eth9-\\*\\\\\" matches no IRQ\\\\n\"\\}\$"
	assert_equal "$(tree_sum)" "$before"
}

@test "a file irqaff refuses on the host leaves the one in use as it was" {
	tree_with_etc
	# the file in use, deliberately odd bytes, and a new one with CPU 9
	# of 8 and a typo
	printf 'eth0-TxRx-* 2-3\n# \001\377 kept\n' >"$ROOT/etc/irqaff.conf"
	cp "$ROOT/etc/irqaff.conf" "$BATS_TEST_TMPDIR/old.conf"
	printf 'eth0-TxRx-* 9\neth0-TxRx-0 1-\n' >"$SNAP"
	cp -a "$ROOT" "$BATS_TEST_TMPDIR/copy"
	run play
	assert_failure 2
	assert_equal "$(recap)" "ok=2 changed=0 unreachable=0 failed=1 skipped=3 rescued=0 ignored=0"
	cmp "$BATS_TEST_TMPDIR/old.conf" "$ROOT/etc/irqaff.conf"
	diff -r --no-dereference "$BATS_TEST_TMPDIR/copy" "$ROOT"
	# irqaff's reasons, for the file it checked: Ansible's temporary copy,
	# "source" (ansible-core 2.14) or ".source.conf" (2.19)
	assert_line --regexp "^fatal: \\[localhost\\]: FAILED! => \\{\"changed\": false, \"msg\": \"irqaff restore -t exited 2, $ROOT/etc/irqaff.conf kept: irqaff: [^\"]*/(source|\\.source\\.conf):1: CPU list \\\\\"9\\\\\": CPU 9 is beyond the last possible CPU 7\\\\nirqaff: [^\"]*/(source|\\.source\\.conf):2: CPU list \\\\\"1-\\\\\": region \\\\\"1-\\\\\" ends where a number should be\\\\n\"\\}\$"
}

@test "a valid file replaces the one in use; the file in use is not checked again" {
	tree_with_etc
	printf 'eth0-TxRx-* 9\n' >"$ROOT/etc/irqaff.conf"
	printf 'eth0-TxRx-* 2-3\n' >"$SNAP"
	run play
	assert_success
	cmp "$SNAP" "$ROOT/etc/irqaff.conf"
	assert_equal "$(lists 40 41 42 43)" $'0-7\n2-3\n2-3\n2-3'
}

# applied: whether the apply task reported changed (1) or ok (0), from the
# task's own line.
applied() {
	printf '%s\n' "$output" | awk '/^TASK \[Apply it\]/ { t = 1; next }
		t && /^(ok|changed|fatal):/ { print ($1 == "changed:"); exit }'
}

@test "changed is any IRQ, the default or a queue mask, in check mode too" {
	local snap
	for snap in 'default 0-1' 'eth0-TxRx-1 2' 'xps eth0 tx-1 2' \
		'rps eth1 rx-0 0-1'; do
		queue_tree
		mkdir "$ROOT/etc"
		printf '%s\n' "$snap" >"$SNAP"
		before=$(tree_sum)
		run play --check
		assert_success
		assert_equal "$snap: $(applied)" "$snap: 1"
		assert_equal "$(tree_sum)" "$before"
		run play
		assert_success
		assert_equal "$snap: $(applied)" "$snap: 1"
		run play
		assert_success
		assert_equal "$snap: $(applied)" "$snap: 0"
		run play --check
		assert_success
		assert_equal "$snap: $(applied)" "$snap: 0"
		rm -rf "$ROOT"
	done
}

@test "a queue-only change reports changed=1, then changed=0" {
	queue_tree
	mkdir "$ROOT/etc"
	printf 'xps eth0 tx-1 2-3\n' >"$SNAP"
	# the file is in place already: only the mask changes
	cp "$SNAP" "$ROOT/etc/irqaff.conf"
	run play
	assert_success
	assert_equal "$(recap)" "ok=3 changed=1 unreachable=0 failed=0 skipped=7 rescued=0 ignored=0"
	assert_file "$(qfile eth0 tx-1)" $'c\n'
	run play
	assert_success
	assert_equal "$(recap)" "ok=3 changed=0 unreachable=0 failed=0 skipped=7 rescued=0 ignored=0"
}

# fake_systemctl: $SYSTEMCTL, a systemctl that logs each command line to
# $CALLS and keeps irqaff-balance.timer's state in $BATS_TEST_TMPDIR/unit
# (disabled and inactive at first), as "systemctl show" prints it.
fake_systemctl() {
	SYSTEMCTL=$BATS_TEST_TMPDIR/systemctl CALLS=$BATS_TEST_TMPDIR/calls
	local unit=$BATS_TEST_TMPDIR/unit
	printf 'disabled inactive\n' >"$unit"
	cat >"$SYSTEMCTL" <<-EOF
		#!/bin/sh
		printf '%s\n' "\$*" >>'$CALLS'
		read -r enabled active <'$unit'
		case \$1 in
		show) printf 'ActiveState=%s\nUnitFileState=%s\n' "\$active" "\$enabled" ;;
		enable) printf 'enabled active\n' >'$unit' ;;
		disable) printf 'disabled inactive\n' >'$unit' ;;
		*) exit 1 ;;
		esac
	EOF
	chmod +x "$SYSTEMCTL"
}

# timer_play [OPTIONS]: the play with the fake systemctl, no file.
timer_play() {
	(cd "$BATS_TEST_TMPDIR" && env -u IRQAFF_ROOT ansible-playbook \
		-i localhost, -c local "$PLAY" -e "irqaff_root=$ROOT" \
		-e "irqaff_command=$IRQAFF_BIN" -e "irqaff_systemctl=$SYSTEMCTL" \
		"$@")
}

@test "irqaff_balance_timer=true enables and starts the timer once, false stops and disables it" {
	tree_with_etc
	fake_systemctl
	local show='show --property=UnitFileState --property=ActiveState irqaff-balance.timer'
	# check mode: the state read, nothing run, the change reported
	run timer_play --check -e irqaff_balance_timer=true
	assert_success
	assert_equal "$(recap)" "ok=3 changed=1 unreachable=0 failed=0 skipped=7 rescued=0 ignored=0"
	assert_file "$CALLS" "$show"$'\n'
	assert_file "$BATS_TEST_TMPDIR/unit" $'disabled inactive\n'
	rm "$CALLS"
	run timer_play -e irqaff_balance_timer=true
	assert_success
	assert_equal "$(recap)" "ok=3 changed=1 unreachable=0 failed=0 skipped=7 rescued=0 ignored=0"
	assert_file "$CALLS" "$show"$'\nenable --now irqaff-balance.timer\n'
	rm "$CALLS"
	run timer_play -e irqaff_balance_timer=true
	assert_success
	assert_equal "$(recap)" "ok=2 changed=0 unreachable=0 failed=0 skipped=8 rescued=0 ignored=0"
	assert_file "$CALLS" "$show"$'\n'
	rm "$CALLS"
	run timer_play -e irqaff_balance_timer=false
	assert_success
	assert_equal "$(recap)" "ok=3 changed=1 unreachable=0 failed=0 skipped=7 rescued=0 ignored=0"
	assert_file "$CALLS" "$show"$'\ndisable --now irqaff-balance.timer\n'
	rm "$CALLS"
	run timer_play -e irqaff_balance_timer=false
	assert_success
	assert_equal "$(recap)" "ok=2 changed=0 unreachable=0 failed=0 skipped=8 rescued=0 ignored=0"
	assert_file "$CALLS" "$show"$'\n'
	# a timer enabled but stopped, or started but not enabled, is not on
	printf 'enabled inactive\n' >"$BATS_TEST_TMPDIR/unit"
	rm "$CALLS"
	run timer_play -e irqaff_balance_timer=true
	assert_equal "$(recap)" "ok=3 changed=1 unreachable=0 failed=0 skipped=7 rescued=0 ignored=0"
	printf 'disabled active\n' >"$BATS_TEST_TMPDIR/unit"
	run timer_play -e irqaff_balance_timer=false
	assert_equal "$(recap)" "ok=3 changed=1 unreachable=0 failed=0 skipped=7 rescued=0 ignored=0"
	assert_file "$BATS_TEST_TMPDIR/unit" $'disabled inactive\n'
}

@test "without irqaff_balance_timer the play runs no systemctl; with it and a file, it deploys too" {
	tree_with_etc
	fake_systemctl
	printf 'eth0-TxRx-* 2-3\n' >"$SNAP"
	run play -e "irqaff_systemctl=$SYSTEMCTL"
	assert_success
	assert_equal "$(recap)" "ok=3 changed=2 unreachable=0 failed=0 skipped=7 rescued=0 ignored=0"
	assert [ ! -e "$CALLS" ]
	rm "$ROOT/etc/irqaff.conf"
	run play -e "irqaff_systemctl=$SYSTEMCTL" -e irqaff_balance_timer=true
	assert_success
	assert_equal "$(recap)" "ok=5 changed=2 unreachable=0 failed=0 skipped=5 rescued=0 ignored=0"
	cmp "$SNAP" "$ROOT/etc/irqaff.conf"
	assert_file "$BATS_TEST_TMPDIR/unit" $'enabled active\n'
	# neither a file nor the timer: the play says what it needs
	rm "$CALLS"
	run timer_play
	assert_failure 2
	assert_line --partial '"msg": "set irqaff_config to the snapshot file to deploy (-e irqaff_config=FILE), or irqaff_balance_timer to true or false"'
	assert [ ! -e "$CALLS" ]
}
