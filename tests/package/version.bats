#!/usr/bin/env bats
# One version: the Makefile's, which irqaff --version, the man pages and
# debian/changelog must repeat.

setup() {
	load ../test_helper/common-setup
	_common_setup
	TOP=$BATS_TEST_DIRNAME/../..
	VERSION=$(sed -n 's/^VERSION = //p' "$TOP/Makefile")
}

@test "the Makefile names one version" {
	assert_regex "$VERSION" '^[0-9]+\.[0-9]+\.[0-9]+$'
}

@test "irqaff --version prints the Makefile's version" {
	run -0 irqaff --version
	assert_output "irqaff $VERSION"
}

@test "every man page's header carries the Makefile's version" {
	local page name
	run -0 grep -x ".TH \"irqaff\" \"8\" \"[0-9-]*\" \"irqaff $VERSION\"" \
		"$TOP/irqaff.8"
	for page in "$TOP"/build/irqaff-*.8; do
		name=${page##*/}
		run -0 grep -x ".TH \"${name%.8}\" \"8\" \"[0-9-]*\" \"irqaff $VERSION\"" \
			"$page"
	done
	run -0 grep -x ".TH \"irqaff.conf\" \"5\" \"[0-9-]*\" \"irqaff $VERSION\"" \
		"$TOP/build/irqaff.conf.5"
}

@test "debian/changelog's latest entry is the Makefile's version" {
	run -0 head -n 1 "$TOP/debian/changelog"
	assert_output --regexp "^irqaff \\($VERSION\\) [a-z]+; urgency=[a-z]+$"
}
