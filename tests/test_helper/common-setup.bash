# shellcheck shell=bash
#
# common-setup.bash: what every irqaff bats file does first.
#
#   setup() { load test_helper/common-setup; _common_setup; }
#
# _common_setup loads bats-support and bats-assert, puts the irqaff under
# test first on PATH ($IRQAFF_BIN, else the one built next to tests/),
# forgets any IRQAFF_ROOT of the caller's environment, and loads the fake
# tree builder (test_helper/tree.bash) when it is there. TESTS is the
# tests/ directory, wherever under it the bats file is.

_common_setup() {
	bats_require_minimum_version 1.5.0
	_load_lib bats-support
	_load_lib bats-assert

	TESTS=${BASH_SOURCE[0]%/test_helper/*}
	local bin=${IRQAFF_BIN:-$TESTS/../irqaff} dir
	[[ $bin == */* ]] || bin=./$bin
	dir=$(cd "${bin%/*}" && pwd) || return 1
	IRQAFF_BIN=$dir/${bin##*/}
	export IRQAFF_BIN
	PATH="$dir:$PATH"
	# IRQAFF_SCHEMA_CHECK=FILE: every -J output is validated too, each
	# error appended to FILE (tests/schema-irqaff)
	if [[ -n ${IRQAFF_SCHEMA_CHECK-} ]]; then
		mkdir -p "$BATS_TEST_TMPDIR/schema-bin" || return 1
		ln -sf "$TESTS/schema-irqaff" "$BATS_TEST_TMPDIR/schema-bin/irqaff"
		export IRQAFF_SCHEMA_REAL=$IRQAFF_BIN IRQAFF_SCHEMA_CHECK
		PATH="$BATS_TEST_TMPDIR/schema-bin:$PATH"
	fi
	export PATH

	unset IRQAFF_ROOT

	if [ -f "$TESTS/test_helper/tree.bash" ]; then
		load "$TESTS/test_helper/tree"
	fi
}

# _load_lib NAME: bats_load_library NAME, without its load.bash's dirname
# process for each file it sources (15 a test): the files of its src/,
# where a library has one, else bats_load_library.
_load_lib() {
	local dir f
	local -a dirs=()
	IFS=: read -ra dirs <<<"$BATS_LIB_PATH"
	for dir in "${dirs[@]}"; do
		[[ -f $dir/$1/load.bash ]] || continue
		if [[ ! -d $dir/$1/src ]]; then
			break
		fi
		for f in "$dir/$1"/src/*.bash; do
			# shellcheck disable=SC1090
			source "$f" || return
		done
		return 0
	done
	bats_load_library "$1"
}

# sanitized: the irqaff under test is an ASan/UBSan build.
sanitized() {
	[[ $IRQAFF_BIN == */asan/* ]] || grep -qa __asan_init "$IRQAFF_BIN"
}

# strace_works: skip the test unless strace can trace irqaff here; turns
# off LeakSanitizer, which cannot run under ptrace (an asan build is traced
# too).
strace_works() {
	command -v strace >/dev/null || skip "strace is not installed"
	strace -o /dev/null true 2>/dev/null || skip "strace cannot trace here"
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
}

# assert_file FILE TEXT: FILE holds exactly TEXT, to the last byte.
assert_file() {
	local got
	got=$(cat -- "$1" && printf x) || return
	assert_equal "${got%x}" "$2"
}

# The usage line of a command, as --help prints it first.
usage_of() {
	local line
	line=$(irqaff "$1" --help | head -n 1)
	[[ $line == "usage: irqaff $1 "* ]] || return 1
	printf '%s' "$line"
}

# faulty SPEC CMD...: run CMD with write(2) to the files SPEC names failing
# ("FILE:ERRNO[,FILE:ERRNO]", ERRNO as ENOSPC, EIO, EPERM, ... or "drop",
# a write that succeeds and changes nothing): tests/fault/fault.c,
# preloaded. An ASan build is told the preload is fine.
faulty() {
	local spec=$1
	shift
	LD_PRELOAD=$TESTS/../build/fault.so IRQAFF_FAULT=$spec \
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
		"$@"
}
