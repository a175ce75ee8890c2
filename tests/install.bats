#!/usr/bin/env bats
# make install: the same files in the same places on every machine.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper/common-setup
	_common_setup
	REPO=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
	DEST=$BATS_TEST_TMPDIR/dest
}

install_into() {
	make -s -C "$REPO" install DESTDIR="$DEST" PREFIX=/usr "$@"
}

# Every file under $DEST, relative to it, with its mode.
installed() {
	(cd "$DEST" && find . -type f -printf '%m %P\n' | LC_ALL=C sort -k2)
}

@test "make install puts exactly the expected files under DESTDIR" {
	run install_into
	assert_success
	run installed
	assert_output - <<-'EOF'
		644 usr/lib/systemd/system/irqaff-restore.service
		755 usr/sbin/irqaff
		644 usr/share/bash-completion/completions/irqaff
		644 usr/share/fish/vendor_completions.d/irqaff.fish
		644 usr/share/man/man8/irqaff.8
		644 usr/share/zsh/site-functions/_irqaff
	EOF
}

@test "make install copies the man page and completions unchanged" {
	install_into
	cmp "$REPO/irqaff.8" "$DEST/usr/share/man/man8/irqaff.8"
	cmp "$REPO/completions/irqaff.bash" \
		"$DEST/usr/share/bash-completion/completions/irqaff"
	cmp "$REPO/completions/_irqaff" \
		"$DEST/usr/share/zsh/site-functions/_irqaff"
	cmp "$REPO/completions/irqaff.fish" \
		"$DEST/usr/share/fish/vendor_completions.d/irqaff.fish"
}

@test "the installed binary runs and is the one built" {
	install_into
	cmp "$REPO/irqaff" "$DEST/usr/sbin/irqaff"
	run "$DEST/usr/sbin/irqaff" --version
	assert_success
	assert_output --regexp '^irqaff [0-9]+\.[0-9]+\.[0-9]+$'
}

@test "the installed systemd unit runs the binary from SBINDIR" {
	install_into
	run grep -c '@SBINDIR@' "$DEST/usr/lib/systemd/system/irqaff-restore.service"
	assert_output 0
	run grep -E '^ExecStart=[-@:+!]*/usr/sbin/irqaff( |$)' \
		"$DEST/usr/lib/systemd/system/irqaff-restore.service"
	assert_success
}

@test "make install honours the directory variables" {
	run install_into SBINDIR=/usr/bin MANDIR=/usr/man
	assert_success
	[ -x "$DEST/usr/bin/irqaff" ]
	[ -f "$DEST/usr/man/man8/irqaff.8" ]
	[ ! -e "$DEST/usr/sbin" ]
	run grep -E '^ExecStart=[-@:+!]*/usr/bin/irqaff( |$)' \
		"$DEST/usr/lib/systemd/system/irqaff-restore.service"
	assert_success
}
