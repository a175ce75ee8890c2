#!/usr/bin/env bats
# tests/layers: the check that no #include points up a floor.

setup() {
	load test_helper/common-setup
	_common_setup
	SRC=$BATS_TEST_DIRNAME/..
	COPY=$BATS_TEST_TMPDIR/src
	mkdir -p "$COPY"
	cp -R "$SRC"/parse.[ch] "$SRC"/procfs.[ch] "$SRC"/irqaff.c \
		"$SRC"/lib "$SRC"/core "$SRC"/cmd "$COPY"/
}

@test "the sources as they are keep every include on its floor or below" {
	run -0 "$BATS_TEST_DIRNAME/layers" "$SRC"
	assert_output ""
}

@test "core including a command header is refused" {
	sed -i '0,/^#include "/s//#include "cmd\/cli.h"\n&/' "$COPY/core/machine.c"
	run -1 "$BATS_TEST_DIRNAME/layers" "$COPY"
	assert_output 'core/machine.c: includes "cmd/cli.h", a floor above its own'
}

@test "the pure floor including procfs.h is refused" {
	printf '#include "procfs.h"\n' >>"$COPY/lib/text.h"
	run -1 "$BATS_TEST_DIRNAME/layers" "$COPY"
	assert_output 'lib/text.h: includes "procfs.h", a floor above its own'
}

@test "parse.c including a lib/ header is refused" {
	sed -i '0,/^#include "/s//#include "lib\/text.h"\n&/' "$COPY/parse.c"
	run -1 "$BATS_TEST_DIRNAME/layers" "$COPY"
	assert_output 'parse.c: includes "lib/text.h", a floor above its own'
}

@test "lib/ including parse.h stays on its floor" {
	printf '#include "parse.h"\n' >>"$COPY/lib/queuename.h"
	run -0 "$BATS_TEST_DIRNAME/layers" "$COPY"
	assert_output ""
}

@test "a file-system call header outside procfs.c is refused" {
	sed -i '0,/^#include </s//#include <fcntl.h>\n&/' "$COPY/core/apply.c"
	run -1 "$BATS_TEST_DIRNAME/layers" "$COPY"
	assert_output 'core/apply.c: includes fcntl.h, a file-system call header only procfs.c may use'
}

@test "an include of a header that is not where it says is refused" {
	sed -i 's|#include "core/apply.h"|#include "apply.h"|' "$COPY/cmd/set.c"
	run -1 "$BATS_TEST_DIRNAME/layers" "$COPY"
	assert_output 'cmd/set.c: includes "apply.h", which is not at apply.h'
}
