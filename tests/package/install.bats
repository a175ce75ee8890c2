#!/usr/bin/env bats
# make install: the same files in the same places on every machine, each
# completion where its shell looks, and make uninstall taking them away.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	REPO=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	DEST=$BATS_TEST_TMPDIR/dest
	# The shells below read and write nothing of the caller's.
	export HOME=$BATS_TEST_TMPDIR/home
	mkdir -p "$HOME"
	unset XDG_DATA_DIRS XDG_DATA_HOME XDG_CONFIG_HOME BASH_COMPLETION_USER_DIR
}

install_into() {
	make -s -C "$REPO" install DESTDIR="$DEST" PREFIX=/usr "$@"
}

uninstall_from() {
	make -s -C "$REPO" uninstall DESTDIR="$DEST" PREFIX=/usr "$@"
}

# use_dest PREFIX: a DESTDIR of its own for PREFIX, so that one test can
# install for several.
use_dest() {
	DEST=$BATS_TEST_TMPDIR/dest${1//\//-}
}

# Every file under $DEST, relative to it, with its mode.
installed() {
	(cd "$DEST" && find . -type f -printf '%m %P\n' | LC_ALL=C sort -k2)
}

# What installed prints after make install PREFIX=$1 on Debian, with or
# without the shells installed.
expected_files() {
	case $1 in
	/usr)
		cat <<-'EOF'
			755 etc/NetworkManager/dispatcher.d/90-irqaff
			644 etc/default/irqaff
			755 etc/network/if-up.d/irqaff
			755 etc/networkd-dispatcher/configured.d/irqaff
			644 usr/lib/systemd/system/irqaff-balance.service
			644 usr/lib/systemd/system/irqaff-balance.timer
			644 usr/lib/systemd/system/irqaff-hotplug.service
			644 usr/lib/systemd/system/irqaff-isolate.service
			644 usr/lib/systemd/system/irqaff-restore.service
			644 usr/lib/udev/rules.d/60-irqaff-cpu.rules
			755 usr/libexec/irqaff/cpu-hotplug
			755 usr/sbin/irqaff
			644 usr/share/bash-completion/completions/irqaff
			644 usr/share/fish/vendor_completions.d/irqaff.fish
			644 usr/share/irqaff/schemas/balance.json
			644 usr/share/irqaff/schemas/check.json
			644 usr/share/irqaff/schemas/cpus.json
			644 usr/share/irqaff/schemas/default.json
			644 usr/share/irqaff/schemas/explain.json
			644 usr/share/irqaff/schemas/isolate-check.json
			644 usr/share/irqaff/schemas/isolate.json
			644 usr/share/irqaff/schemas/queue-result.json
			644 usr/share/irqaff/schemas/queues.json
			644 usr/share/irqaff/schemas/restore.json
			644 usr/share/irqaff/schemas/result.json
			644 usr/share/irqaff/schemas/show.json
			644 usr/share/man/man5/irqaff.conf.5
			644 usr/share/man/man8/irqaff-balance.8
			644 usr/share/man/man8/irqaff-check.8
			644 usr/share/man/man8/irqaff-cpus.8
			644 usr/share/man/man8/irqaff-default.8
			644 usr/share/man/man8/irqaff-explain.8
			644 usr/share/man/man8/irqaff-isolate.8
			644 usr/share/man/man8/irqaff-list.8
			644 usr/share/man/man8/irqaff-mask.8
			644 usr/share/man/man8/irqaff-queues.8
			644 usr/share/man/man8/irqaff-restore.8
			644 usr/share/man/man8/irqaff-rps.8
			644 usr/share/man/man8/irqaff-save.8
			644 usr/share/man/man8/irqaff-set.8
			644 usr/share/man/man8/irqaff-show.8
			644 usr/share/man/man8/irqaff-spread.8
			644 usr/share/man/man8/irqaff-top.8
			644 usr/share/man/man8/irqaff-xps.8
			644 usr/share/man/man8/irqaff.8
			644 usr/share/zsh/vendor-completions/_irqaff
		EOF
		;;
	/usr/local)
		cat <<-'EOF'
			755 etc/NetworkManager/dispatcher.d/90-irqaff
			644 etc/default/irqaff
			755 etc/network/if-up.d/irqaff
			755 etc/networkd-dispatcher/configured.d/irqaff
			644 usr/local/lib/systemd/system/irqaff-balance.service
			644 usr/local/lib/systemd/system/irqaff-balance.timer
			644 usr/local/lib/systemd/system/irqaff-hotplug.service
			644 usr/local/lib/systemd/system/irqaff-isolate.service
			644 usr/local/lib/systemd/system/irqaff-restore.service
			644 usr/local/lib/udev/rules.d/60-irqaff-cpu.rules
			755 usr/local/libexec/irqaff/cpu-hotplug
			755 usr/local/sbin/irqaff
			644 usr/local/share/bash-completion/completions/irqaff
			644 usr/local/share/irqaff/schemas/balance.json
			644 usr/local/share/irqaff/schemas/check.json
			644 usr/local/share/irqaff/schemas/cpus.json
			644 usr/local/share/irqaff/schemas/default.json
			644 usr/local/share/irqaff/schemas/explain.json
			644 usr/local/share/irqaff/schemas/isolate-check.json
			644 usr/local/share/irqaff/schemas/isolate.json
			644 usr/local/share/irqaff/schemas/queue-result.json
			644 usr/local/share/irqaff/schemas/queues.json
			644 usr/local/share/irqaff/schemas/restore.json
			644 usr/local/share/irqaff/schemas/result.json
			644 usr/local/share/irqaff/schemas/show.json
			644 usr/local/share/man/man5/irqaff.conf.5
			644 usr/local/share/man/man8/irqaff-balance.8
			644 usr/local/share/man/man8/irqaff-check.8
			644 usr/local/share/man/man8/irqaff-cpus.8
			644 usr/local/share/man/man8/irqaff-default.8
			644 usr/local/share/man/man8/irqaff-explain.8
			644 usr/local/share/man/man8/irqaff-isolate.8
			644 usr/local/share/man/man8/irqaff-list.8
			644 usr/local/share/man/man8/irqaff-mask.8
			644 usr/local/share/man/man8/irqaff-queues.8
			644 usr/local/share/man/man8/irqaff-restore.8
			644 usr/local/share/man/man8/irqaff-rps.8
			644 usr/local/share/man/man8/irqaff-save.8
			644 usr/local/share/man/man8/irqaff-set.8
			644 usr/local/share/man/man8/irqaff-show.8
			644 usr/local/share/man/man8/irqaff-spread.8
			644 usr/local/share/man/man8/irqaff-top.8
			644 usr/local/share/man/man8/irqaff-xps.8
			644 usr/local/share/man/man8/irqaff.8
			644 usr/local/share/zsh/site-functions/_irqaff
			644 usr/share/fish/vendor_completions.d/irqaff.fish
		EOF
		;;
	esac
}

# Anything but a directory under $DEST, relative to it.
not_directories() {
	(cd "$DEST" && find . ! -type d -printf '%P\n' | LC_ALL=C sort)
}

# bash_complete FILE WORD...: what the bash completion in FILE offers for
# the command line WORD..., space-separated.
bash_complete() {
	# shellcheck disable=SC2016
	bash -c 'source "$1" || exit; shift
		COMP_WORDS=("$@") COMP_CWORD=$(($# - 1)) COMP_LINE="$*"
		COMP_POINT=${#COMP_LINE} COMPREPLY=()
		_irqaff && printf "%s\n" "${COMPREPLY[*]}"' bash "$@"
}

# zsh_complete ROOT LINE: type LINE and a Tab into an interactive zsh
# whose fpath has ROOT before each of its own directories (and then its
# own, for compinit); prints the words it offers, space-separated.
zsh_complete() {
	local script=$BATS_TEST_TMPDIR/complete.zsh
	cat >"$script" <<-'EOF'
		zmodload zsh/zpty || exit
		zpty z 'TERM=xterm zsh -f -i'
		zpty -w z "fpath=(${(q)1}\${^fpath} \$fpath)"
		zpty -w z 'autoload -Uz compinit && compinit -u -D'
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
	timeout 120 zsh -f "$script" "$@" | tr -d '\r' |
		grep -o '<<[[:alnum:] ._:,/-]*>>' | grep -vx '<<END>>' |
		sed 's/^<<//; s/>>$//' | paste -sd ' '
}

@test "make install puts exactly the expected files under DESTDIR" {
	run install_into
	assert_success
	run installed
	assert_output "$(expected_files /usr)"
}

@test "make install PREFIX=/usr/local puts exactly the expected files under DESTDIR" {
	run install_into PREFIX=/usr/local
	assert_success
	run installed
	assert_output "$(expected_files /usr/local)"
}

@test "make install lays out the same files when no shell has a .pc file" {
	local pc=$BATS_TEST_TMPDIR/no-shell-pkg-config prefix
	cat >"$pc" <<-'EOF'
		#!/bin/sh
		case " $* " in *" bash-completion "* | *" fish "*) exit 1 ;; esac
		exec pkg-config "$@"
	EOF
	chmod +x "$pc"
	for prefix in /usr /usr/local; do
		use_dest "$prefix"
		run install_into PREFIX="$prefix" PKG_CONFIG="$pc"
		assert_success
		run installed
		assert_output "$(expected_files "$prefix")"
	done
}

@test "make install takes the directories bash-completion's and fish's .pc files give" {
	mkdir "$BATS_TEST_TMPDIR/pc"
	cat >"$BATS_TEST_TMPDIR/pc/bash-completion.pc" <<-'EOF'
		prefix=/opt/bc
		datadir=/opt/bc/share
		completionsdir=${datadir}/bashcomp/completions
		Name: bash-completion
		Description: programmable completion for the bash shell
		Version: 2.11
	EOF
	cat >"$BATS_TEST_TMPDIR/pc/fish.pc" <<-'EOF'
		prefix=/opt/fish
		datadir=${prefix}/share
		completionsdir=${datadir}/fish/vendor_completions.d
		Name: fish
		Description: fish, the friendly interactive shell
		Version: 3.6.0
	EOF
	export PKG_CONFIG_PATH=$BATS_TEST_TMPDIR/pc
	# bash-completion's layout, under our PREFIX; fish's own directory
	# for /usr/local, its layout under our PREFIX for anything else.
	use_dest /usr/local
	install_into PREFIX=/usr/local
	run installed
	assert_line "644 usr/local/share/bashcomp/completions/irqaff"
	assert_line "644 opt/fish/share/fish/vendor_completions.d/irqaff.fish"
	use_dest /usr
	install_into PREFIX=/usr
	run installed
	assert_line "644 usr/share/bashcomp/completions/irqaff"
	assert_line "644 usr/share/fish/vendor_completions.d/irqaff.fish"
	use_dest /opt/irqaff
	install_into PREFIX=/opt/irqaff
	run installed
	assert_line "644 opt/irqaff/share/bashcomp/completions/irqaff"
	assert_line "644 opt/irqaff/share/fish/vendor_completions.d/irqaff.fish"
}

@test "make install copies the man pages and completions unchanged" {
	local page
	install_into
	cmp "$REPO/irqaff.8" "$DEST/usr/share/man/man8/irqaff.8"
	for page in "$REPO"/build/irqaff-*.8; do
		cmp "$page" "$DEST/usr/share/man/man8/${page##*/}"
	done
	cmp "$REPO/build/irqaff.conf.5" "$DEST/usr/share/man/man5/irqaff.conf.5"
	cmp "$REPO/completions/irqaff.bash" \
		"$DEST/usr/share/bash-completion/completions/irqaff"
	cmp "$REPO/completions/_irqaff" \
		"$DEST/usr/share/zsh/vendor-completions/_irqaff"
	cmp "$REPO/completions/irqaff.fish" \
		"$DEST/usr/share/fish/vendor_completions.d/irqaff.fish"
}

@test "the installed man pages ask for tbl on their first line, as lintian wants" {
	local page
	install_into
	for page in man8/irqaff.8 man8/irqaff-balance.8 man5/irqaff.conf.5; do
		assert_equal "$(head -n 1 "$DEST/usr/share/man/$page")" "'\\\" t"
	done
}

@test "the installed binary runs and is the one built" {
	install_into
	cmp "$REPO/irqaff" "$DEST/usr/sbin/irqaff"
	run "$DEST/usr/sbin/irqaff" --version
	assert_success
	assert_output --regexp '^irqaff [0-9]+\.[0-9]+\.[0-9]+$'
}

@test "the installed systemd units run the binary from SBINDIR" {
	local unit
	install_into
	for unit in irqaff-restore irqaff-isolate irqaff-balance; do
		run sed 's|/usr/sbin/irqaff |@SBINDIR@/irqaff |' \
			"$DEST/usr/lib/systemd/system/$unit.service"
		assert_output "$(cat "$REPO/systemd/$unit.service.in")"
		run grep -c '^ExecStart=/usr/sbin/irqaff ' \
			"$DEST/usr/lib/systemd/system/$unit.service"
		assert_output 1
	done
	# the timer has no command, and is copied as it is
	cmp "$REPO/systemd/irqaff-balance.timer.in" \
		"$DEST/usr/lib/systemd/system/irqaff-balance.timer"
}

@test "the installed interface hooks are one script that runs the binary from SBINDIR" {
	local hook
	install_into
	for hook in network/if-up.d/irqaff \
		networkd-dispatcher/configured.d/irqaff \
		NetworkManager/dispatcher.d/90-irqaff; do
		run sed 's|/usr/sbin/irqaff |@SBINDIR@/irqaff |' \
			"$DEST/etc/$hook"
		assert_output "$(cat "$REPO/hooks/irqaff-ifup.in")"
		run grep -c '^/usr/sbin/irqaff restore ' "$DEST/etc/$hook"
		assert_output 1
	done
}

@test "the installed CPU hotplug unit runs the hook from LIBEXECDIR, which runs the binary from SBINDIR" {
	install_into
	run sed 's|/usr/libexec/irqaff/|@LIBEXECDIR@/irqaff/|' \
		"$DEST/usr/lib/systemd/system/irqaff-hotplug.service"
	assert_output "$(cat "$REPO/systemd/irqaff-hotplug.service.in")"
	run sed 's|/usr/sbin/irqaff |@SBINDIR@/irqaff |' \
		"$DEST/usr/libexec/irqaff/cpu-hotplug"
	assert_output "$(cat "$REPO/hooks/irqaff-cpu.in")"
	cmp "$REPO/udev/60-irqaff-cpu.rules" \
		"$DEST/usr/lib/udev/rules.d/60-irqaff-cpu.rules"
}

@test "make install and uninstall honour LIBEXECDIR and UDEVRULESDIR" {
	local dirs=(LIBEXECDIR=/opt/lx UDEVRULESDIR=/opt/rules)
	run install_into "${dirs[@]}"
	assert_success
	run grep -x 'ExecStart=/opt/lx/irqaff/cpu-hotplug' \
		"$DEST/usr/lib/systemd/system/irqaff-hotplug.service"
	assert_success
	[ -x "$DEST/opt/lx/irqaff/cpu-hotplug" ]
	[ -f "$DEST/opt/rules/60-irqaff-cpu.rules" ]
	[ ! -e "$DEST/usr/libexec" ]
	[ ! -e "$DEST/usr/lib/udev" ]
	run uninstall_from "${dirs[@]}"
	assert_success
	run not_directories
	assert_output ""
	# irqaff's own directory goes too
	[ ! -e "$DEST/opt/lx/irqaff" ]
	[ -d "$DEST/opt/lx" ]
}

@test "make install honours the directory variables" {
	run install_into SBINDIR=/usr/bin MANDIR=/usr/man SYSCONFDIR=/opt/etc
	assert_success
	[ -x "$DEST/usr/bin/irqaff" ]
	[ -f "$DEST/usr/man/man8/irqaff.8" ]
	[ -f "$DEST/usr/man/man8/irqaff-balance.8" ]
	[ ! -e "$DEST/usr/sbin" ]
	[ ! -e "$DEST/etc" ]
	[ -f "$DEST/opt/etc/default/irqaff" ]
	run grep -l '^ExecStart=/usr/bin/irqaff ' \
		"$DEST/usr/lib/systemd/system/irqaff-restore.service" \
		"$DEST/usr/lib/systemd/system/irqaff-isolate.service" \
		"$DEST/usr/lib/systemd/system/irqaff-balance.service"
	assert_equal "${#lines[@]}" 3
	run grep -l '^/usr/bin/irqaff restore ' \
		"$DEST/opt/etc/network/if-up.d/irqaff" \
		"$DEST/opt/etc/networkd-dispatcher/configured.d/irqaff" \
		"$DEST/opt/etc/NetworkManager/dispatcher.d/90-irqaff"
	assert_equal "${#lines[@]}" 3
	run uninstall_from SBINDIR=/usr/bin MANDIR=/usr/man SYSCONFDIR=/opt/etc
	assert_success
	run not_directories
	assert_output ""
}

@test "make install and uninstall honour BASHCOMPDIR, ZSHCOMPDIR and FISHCOMPDIR" {
	local dirs=(BASHCOMPDIR=/c/bash ZSHCOMPDIR=/c/zsh FISHCOMPDIR=/c/fish)
	run install_into PREFIX=/usr/local "${dirs[@]}"
	assert_success
	run installed
	assert_output - <<-'EOF'
		644 c/bash/irqaff
		644 c/fish/irqaff.fish
		644 c/zsh/_irqaff
		755 etc/NetworkManager/dispatcher.d/90-irqaff
		644 etc/default/irqaff
		755 etc/network/if-up.d/irqaff
		755 etc/networkd-dispatcher/configured.d/irqaff
		644 usr/local/lib/systemd/system/irqaff-balance.service
		644 usr/local/lib/systemd/system/irqaff-balance.timer
		644 usr/local/lib/systemd/system/irqaff-hotplug.service
		644 usr/local/lib/systemd/system/irqaff-isolate.service
		644 usr/local/lib/systemd/system/irqaff-restore.service
		644 usr/local/lib/udev/rules.d/60-irqaff-cpu.rules
		755 usr/local/libexec/irqaff/cpu-hotplug
		755 usr/local/sbin/irqaff
		644 usr/local/share/irqaff/schemas/balance.json
		644 usr/local/share/irqaff/schemas/check.json
		644 usr/local/share/irqaff/schemas/cpus.json
		644 usr/local/share/irqaff/schemas/default.json
		644 usr/local/share/irqaff/schemas/explain.json
		644 usr/local/share/irqaff/schemas/isolate-check.json
		644 usr/local/share/irqaff/schemas/isolate.json
		644 usr/local/share/irqaff/schemas/queue-result.json
		644 usr/local/share/irqaff/schemas/queues.json
		644 usr/local/share/irqaff/schemas/restore.json
		644 usr/local/share/irqaff/schemas/result.json
		644 usr/local/share/irqaff/schemas/show.json
		644 usr/local/share/man/man5/irqaff.conf.5
		644 usr/local/share/man/man8/irqaff-balance.8
		644 usr/local/share/man/man8/irqaff-check.8
		644 usr/local/share/man/man8/irqaff-cpus.8
		644 usr/local/share/man/man8/irqaff-default.8
		644 usr/local/share/man/man8/irqaff-explain.8
		644 usr/local/share/man/man8/irqaff-isolate.8
		644 usr/local/share/man/man8/irqaff-list.8
		644 usr/local/share/man/man8/irqaff-mask.8
		644 usr/local/share/man/man8/irqaff-queues.8
		644 usr/local/share/man/man8/irqaff-restore.8
		644 usr/local/share/man/man8/irqaff-rps.8
		644 usr/local/share/man/man8/irqaff-save.8
		644 usr/local/share/man/man8/irqaff-set.8
		644 usr/local/share/man/man8/irqaff-show.8
		644 usr/local/share/man/man8/irqaff-spread.8
		644 usr/local/share/man/man8/irqaff-top.8
		644 usr/local/share/man/man8/irqaff-xps.8
		644 usr/local/share/man/man8/irqaff.8
	EOF
	run uninstall_from PREFIX=/usr/local "${dirs[@]}"
	assert_success
	run not_directories
	assert_output ""
}

# issue 50: the units read /etc/default/irqaff, which make install put
# nowhere, and nothing said the units need daemon-reload and enable.
@test "make install puts /etc/default/irqaff, keeps an edited one, and says how to enable the units" {
	run -0 install_into
	assert_output "irqaff: installed; to restore the saved layout at boot run systemctl daemon-reload and systemctl enable irqaff-restore.service irqaff-isolate.service"
	cmp "$REPO/debian/irqaff.default" "$DEST/etc/default/irqaff"
	echo IRQAFF_CONF=/etc/mine.conf >"$DEST/etc/default/irqaff"
	run -0 install_into
	assert_file "$DEST/etc/default/irqaff" $'IRQAFF_CONF=/etc/mine.conf\n'
	# uninstall takes only the file as install put it
	run -0 uninstall_from
	assert_file "$DEST/etc/default/irqaff" $'IRQAFF_CONF=/etc/mine.conf\n'
}

@test "make uninstall removes every file make install put" {
	local prefix
	for prefix in /usr /usr/local; do
		use_dest "$prefix"
		install_into PREFIX="$prefix"
		run uninstall_from PREFIX="$prefix"
		assert_success
		run not_directories
		assert_output ""
	done
}

@test "make uninstall leaves the other files in the directories it shares" {
	install_into
	touch "$DEST/usr/share/bash-completion/completions/other" \
		"$DEST/usr/share/zsh/vendor-completions/_other" \
		"$DEST/etc/network/if-up.d/other" \
		"$DEST/etc/NetworkManager/dispatcher.d/01-other"
	uninstall_from PREFIX=/usr
	run not_directories
	assert_output - <<-'EOF'
		etc/NetworkManager/dispatcher.d/01-other
		etc/network/if-up.d/other
		usr/share/bash-completion/completions/other
		usr/share/zsh/vendor-completions/_other
	EOF
}

@test "bash completes irqaff s from the installed completion" {
	local prefix
	for prefix in /usr /usr/local; do
		use_dest "$prefix"
		install_into PREFIX="$prefix"
		run bash_complete \
			"$DEST$prefix/share/bash-completion/completions/irqaff" irqaff s
		assert_success
		assert_output "show set spread save"
	done
}

@test "bash-completion finds the installed completion in its default directories" {
	local loader=/usr/share/bash-completion/bash_completion prefix
	[ -f "$loader" ] || skip "bash-completion is not installed"
	for prefix in /usr /usr/local; do
		use_dest "$prefix"
		install_into PREFIX="$prefix"
		# Its default XDG_DATA_DIRS, /usr/local/share:/usr/share, under
		# DESTDIR; extdebug makes declare -F name the function's file.
		# Its loader is _comp_load from 2.12 on (Debian 13), where
		# __load_completion is gone.
		# shellcheck disable=SC2016
		XDG_DATA_DIRS=$DEST/usr/local/share:$DEST/usr/share run bash -c '
			source "$1" || exit
			if declare -F _comp_load >/dev/null; then
				_comp_load irqaff
			else
				__load_completion irqaff
			fi || exit
			shopt -s extdebug
			declare -F _irqaff | sed "s/^_irqaff [0-9]* //"
			COMP_WORDS=(irqaff s) COMP_CWORD=1 COMP_LINE="irqaff s"
			COMP_POINT=8 COMPREPLY=()
			_irqaff && printf "%s\n" "${COMPREPLY[*]}"' bash "$loader"
		assert_success
		assert_output - <<-EOF
			$DEST$prefix/share/bash-completion/completions/irqaff
			show set spread save
		EOF
	done
}

@test "zsh completes irqaff s through its own fpath under DESTDIR" {
	command -v zsh >/dev/null || skip "zsh is not installed"
	local prefix
	for prefix in /usr /usr/local; do
		use_dest "$prefix"
		install_into PREFIX="$prefix"
		run zsh_complete "$DEST" 'irqaff s'
		assert_success
		assert_output "show set spread save"
	done
}

@test "fish completes irqaff s through its own completion path under DESTDIR" {
	command -v fish >/dev/null || skip "fish is not installed"
	local prefix
	for prefix in /usr /usr/local; do
		use_dest "$prefix"
		install_into PREFIX="$prefix"
		# fish loads the completions of a command it finds on PATH.
		# shellcheck disable=SC2016
		PATH=$DEST$prefix/sbin:$PATH run fish -c '
			set fish_complete_path $argv[1]$fish_complete_path
			complete -C "irqaff s"' "$DEST"
		assert_success
		assert_equal "$(cut -f1 <<<"$output" | paste -sd ' ')" \
			"save set show spread"
	done
}
