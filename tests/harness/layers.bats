#!/usr/bin/env bats
# tests/layers: the check that no #include or call points up a floor, only
# core/xalloc.c ends the run, cmd/ reads the kernel's tree through core/,
# only cmd/ writes to standard output, and functions and cmd/ files stay
# short.

setup() {
	load ../test_helper/common-setup
	_common_setup
	SRC=$BATS_TEST_DIRNAME/../..
	COPY=$BATS_TEST_TMPDIR/src
	mkdir -p "$COPY"
	cp -R "$SRC"/parse.[ch] "$SRC"/procfs.[ch] "$SRC"/irqaff.c \
		"$SRC"/lib "$SRC"/core "$SRC"/cmd "$COPY"/
}

@test "the sources as they are keep every include on its floor or below" {
	run -0 "$BATS_TEST_DIRNAME/../layers" "$SRC"
	assert_output ""
}

@test "core including a command header is refused" {
	sed -i '0,/^#include "/s//#include "cmd\/cli.h"\n&/' "$COPY/core/machine.c"
	run -1 "$BATS_TEST_DIRNAME/../layers" "$COPY"
	assert_output 'core/machine.c: includes "cmd/cli.h", a floor above its own'
}

@test "the pure floor including procfs.h is refused" {
	printf '#include "procfs.h"\n' >>"$COPY/lib/text.h"
	run -1 "$BATS_TEST_DIRNAME/../layers" "$COPY"
	assert_output 'lib/text.h: includes "procfs.h", a floor above its own'
}

@test "parse.c including a lib/ header is refused" {
	sed -i '0,/^#include "/s//#include "lib\/text.h"\n&/' "$COPY/parse.c"
	run -1 "$BATS_TEST_DIRNAME/../layers" "$COPY"
	assert_output 'parse.c: includes "lib/text.h", a floor above its own'
}

@test "lib/ including parse.h stays on its floor" {
	printf '#include "parse.h"\n' >>"$COPY/lib/queuename.h"
	run -0 "$BATS_TEST_DIRNAME/../layers" "$COPY"
	assert_output ""
}

@test "a file-system call header outside procfs.c is refused" {
	sed -i '0,/^#include </s//#include <fcntl.h>\n&/' "$COPY/core/apply.c"
	run -1 "$BATS_TEST_DIRNAME/../layers" "$COPY"
	assert_output 'core/apply.c: includes fcntl.h, a file-system call header only procfs.c may use'
}

@test "core calling a command's function through a prototype of its own is refused" {
	n=$(($(wc -l <"$COPY/core/load.c") + 1))
	printf 'void balance_members(void *);\nstatic void\nup(void)\n{\n\tbalance_members(NULL);\n}\n' \
	    >>"$COPY/core/load.c"
	run -1 "$BATS_TEST_DIRNAME/../layers" "$COPY"
	assert_output "core/load.c:$n: calls balance_members(), a floor above its own
core/load.c:$((n + 4)): calls balance_members(), a floor above its own"
}

@test "lib/ calling a core/ allocation wrapper is refused" {
	n=$(($(wc -l <"$COPY/lib/text.c") + 4))
	printf 'static void *\ngrab(void)\n{\n\treturn xcalloc(1, 1);\n}\n' \
	    >>"$COPY/lib/text.c"
	run -1 "$BATS_TEST_DIRNAME/../layers" "$COPY"
	assert_output "lib/text.c:$n: calls xcalloc(), a floor above its own"
}

@test "a fatal exit outside core/xalloc.c is refused" {
	n=$(($(wc -l <"$COPY/core/load.c") + 4))
	printf 'static void\nbye(void)\n{\n\terr(1, NULL);\n}\n' \
	    >>"$COPY/core/load.c"
	run -1 "$BATS_TEST_DIRNAME/../layers" "$COPY"
	assert_output "core/load.c:$n: ends the run; only core/xalloc.c may"
}

@test "a fatal exit named only in a comment is not one" {
	printf '/*\n * err(1, NULL) would end the run\n */\n' >>"$COPY/core/load.c"
	run -0 "$BATS_TEST_DIRNAME/../layers" "$COPY"
	assert_output ""
}

@test "a command reading the kernel's tree itself is refused" {
	n=$(($(wc -l <"$COPY/cmd/set.c") + 4))
	printf 'static int\npeek(char **b)\n{\n\treturn procfs_read(PATH_PROC_CMDLINE, b);\n}\n' \
	    >>"$COPY/cmd/set.c"
	run -1 "$BATS_TEST_DIRNAME/../layers" "$COPY"
	assert_output "cmd/set.c:$n: reads the kernel's tree; ask core/"
}

@test "a command reading a user's file through procfs.c is allowed" {
	printf 'static long long\nage(const char *p)\n{\n\tlong long t;\n\n\treturn procfs_file_mtime(p, &t) == 0 ? t : -1;\n}\n' \
	    >>"$COPY/cmd/set.c"
	run -0 "$BATS_TEST_DIRNAME/../layers" "$COPY"
	assert_output ""
}

@test "an include of a header that is not where it says is refused" {
	sed -i 's|#include "core/apply.h"|#include "apply.h"|' "$COPY/cmd/set.c"
	run -1 "$BATS_TEST_DIRNAME/../layers" "$COPY"
	assert_output 'cmd/set.c: includes "apply.h", which is not at apply.h'
}

@test "two files of one floor calling each other are refused, each side named" {
	printf '\nvoid\nfields_back(void)\n{\n\ttext_quoted("");\n}\n' >>"$COPY/lib/fields.c"
	printf '\nvoid\ntext_back(void)\n{\n\tfields_back();\n}\n' >>"$COPY/lib/text.c"
	run -1 "$BATS_TEST_DIRNAME/../layers" "$COPY"
	assert_output 'files that call each other round a circle: lib/fields.c lib/text.c'
}

@test "a circle of three commands' files is refused; a call one way is not" {
	printf '\nvoid\nshow_c(void)\n{\n\tset_c();\n}\n' >>"$COPY/cmd/show.c"
	printf '\nvoid\nset_c(void)\n{\n\tsave_c();\n}\n' >>"$COPY/cmd/set.c"
	printf '\nvoid\nsave_c(void)\n{\n}\n' >>"$COPY/cmd/save.c"
	run -0 "$BATS_TEST_DIRNAME/../layers" "$COPY"
	printf '\nvoid\nsave_d(void)\n{\n\tshow_c();\n}\n' >>"$COPY/cmd/save.c"
	run -1 "$BATS_TEST_DIRNAME/../layers" "$COPY"
	assert_output 'files that call each other round a circle: cmd/save.c cmd/set.c cmd/show.c'
}

@test "core/ printing a line on standard output is refused" {
	n=$(($(wc -l <"$COPY/core/load.c") + 4))
	printf 'static void\nsay(int x)\n{\n\tprintf("%%d\\n", x);\n\tfputs("x", stdout);\n}\n' \
	    >>"$COPY/core/load.c"
	run -1 "$BATS_TEST_DIRNAME/../layers" "$COPY"
	assert_output "core/load.c:$n: writes to standard output; only cmd/ prints
core/load.c:$((n + 1)): writes to standard output; only cmd/ prints"
}

@test "lib/ and procfs.c writing to standard output are refused; to a stream given, or standard error, not" {
	n=$(($(wc -l <"$COPY/lib/text.c") + 4))
	printf 'static void\nsay(FILE *fp)\n{\n\tputs("x");\n\tfputs("x", fp);\n\twarnx("x");\n}\n' \
	    >>"$COPY/lib/text.c"
	m=$(($(wc -l <"$COPY/procfs.c") + 4))
	printf 'static void\nsay(void)\n{\n\tputchar(10);\n}\n' >>"$COPY/procfs.c"
	run -1 "$BATS_TEST_DIRNAME/../layers" "$COPY"
	assert_output "procfs.c:$m: writes to standard output; only cmd/ prints
lib/text.c:$n: writes to standard output; only cmd/ prints"
}

@test "a command printing on standard output is allowed" {
	printf 'static void\nsay(void)\n{\n\tprintf("x\\n");\n}\n' >>"$COPY/cmd/set.c"
	run -0 "$BATS_TEST_DIRNAME/../layers" "$COPY"
	assert_output ""
}

# A function of N lines between its braces.
long_function() {
	printf '\nstatic void\n%s(void)\n{\n' "$1"
	for ((i = 0; i < $2; i++)); do
		printf '\t(void)0;\n'
	done
	printf '}\n'
}

@test "a function of 61 lines is refused; one of 60 is not" {
	long_function sixty 60 >>"$COPY/core/load.c"
	run -0 "$BATS_TEST_DIRNAME/../layers" "$COPY"
	assert_output ""
	n=$(($(wc -l <"$COPY/cmd/set.c") + 4))
	long_function sixty_one 61 >>"$COPY/cmd/set.c"
	run -1 "$BATS_TEST_DIRNAME/../layers" "$COPY"
	assert_output "cmd/set.c:$n: sixty_one() has 61 lines; at most 60"
}

@test "a command's file of 601 lines is refused; one of 600 is not" {
	n=$(wc -l <"$COPY/cmd/mask.c")
	for ((i = n; i < 600; i++)); do
		printf '\n'
	done >>"$COPY/cmd/mask.c"
	run -0 "$BATS_TEST_DIRNAME/../layers" "$COPY"
	assert_output ""
	printf '\n' >>"$COPY/cmd/mask.c"
	run -1 "$BATS_TEST_DIRNAME/../layers" "$COPY"
	assert_output "cmd/mask.c: has 601 lines; at most 600"
}
