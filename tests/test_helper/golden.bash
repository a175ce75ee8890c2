# shellcheck shell=bash
#
# golden.bash: table-driven cases for the conversion commands (list.bats,
# mask.bats), and a tree with nothing but the possible CPUs.

# _q STRING: STRING quoted for a failure message, escaped if need be.
_q() {
	if [[ $1 == *[![:print:]]* ]]; then
		printf '%q' "$1"
	else
		printf "'%s'" "$1"
	fi
}

# _golden STATUS CMD CASE...: each CASE is "input|width|text"; \n (and the
# other escapes of printf %b) in the input stand for the character.
# "irqaff CMD -b width -- input" must exit STATUS; for status 0 it must print
# exactly text on standard output and nothing on standard error, otherwise
# nothing on standard output and exactly text on standard error. Every
# failing case is named, with what it printed and what was wanted.
# shellcheck disable=SC2154 # status, output, stderr: set by bats' run
_golden() {
	local want_status=$1 cmd=$2 c in w text want_out want_err
	local -a bad=()
	shift 2
	for c; do
		IFS='|' read -r in w text <<<"$c"
		printf -v in '%b' "$in"
		if ((want_status == 0)); then
			want_out=$text want_err=''
		else
			want_out='' want_err=$text
		fi
		run --separate-stderr irqaff "$cmd" -b "$w" -- "$in"
		if [[ $status -ne $want_status || $output != "$want_out" ||
			$stderr != "$want_err" ]]; then
			bad+=("case irqaff $cmd -b $w -- $(_q "$in")"
				"  status: got $status, want $want_status"
				"  stdout: got $(_q "$output"), want $(_q "$want_out")"
				"  stderr: got $(_q "$stderr"), want $(_q "$want_err")")
		fi
	done
	if ((${#bad[@]})); then
		printf '%s\n' "${bad[@]}" | fail
	fi
}

# golden_ok CMD CASE...: every "input|width|stdout" CASE succeeds.
golden_ok() {
	_golden 0 "$@"
}

# golden_err CMD CASE...: every "input|width|stderr" CASE exits 2.
golden_err() {
	_golden 2 "$@"
}

# tiny_root LIST: a tree holding only sys/devices/system/cpu/possible.
tiny_root() {
	ROOT=$BATS_TEST_TMPDIR/tiny
	mkdir -p "$ROOT/sys/devices/system/cpu"
	echo "$1" >"$ROOT/sys/devices/system/cpu/possible"
}
