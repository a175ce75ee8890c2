#!/usr/bin/env bats
# irqaff list: masks in the grammar of the kernel's bitmap_parse()
# (lib/bitmap-str.c) printed as the kernel prints a CPU list ("%*pbl").
# The golden tables are lib/test_bitmap.c's parse_tests, with the expected
# sets written out as lists by hand; "0x" and one long word are irqaff's
# own extensions.

setup() {
	load ../test_helper/common-setup
	_common_setup
	load ../test_helper/golden
}

# The CPUs of 0xdeadbeef, 0xbaadf00d and 0x0badf00d.
DEADBEEF=0-3,5-7,9-13,15-16,18-19,21,23,25-28,30-31
# deadbeef as the third word and 1 as the second, as in "deadbeef,1,0".
DEADBEEF_1_0=32,64-67,69-71,73-77,79-80,82-83,85,87,89-92,94-95
BAADF00D_4=96,98-99,108-112,114-115,117,119,121,123-125,127
BADF00D_4=96,98-99,108-112,114-115,117,119-121,123

@test "the kernel's parse tests give the kernel's sets" {
	# 94-95 of deadbeef and 96 of baadf00d join into one range.
	golden_ok list \
		'|32|' \
		' |32|' \
		'0|32|' \
		'0\n|32|' \
		'1|32|0' \
		"deadbeef|32|$DEADBEEF" \
		'1,0|33|32' \
		"deadbeef,1,0|96|$DEADBEEF_1_0" \
		"baadf00d,deadbeef,1,0|128|${DEADBEEF_1_0%-95}-${BAADF00D_4}" \
		"badf00d,deadbeef,1,0|124|${DEADBEEF_1_0%-95}-${BADF00D_4}" \
		"  badf00d,deadbeef,1,0  |124|${DEADBEEF_1_0%-95}-${BADF00D_4}" \
		" , badf00d,deadbeef,1,0 , |124|${DEADBEEF_1_0%-95}-${BADF00D_4}" \
		" , badf00d, ,, ,,deadbeef,1,0 , |124|${DEADBEEF_1_0%-95}-${BADF00D_4}"
}

@test "the kernel's parse tests of bad masks are refused naming the fault" {
	golden_err list \
		'goodfood,deadbeef,1,0|128|irqaff: mask "goodfood,deadbeef,1,0": "o" is not a hex digit' \
		'3,0|33|irqaff: mask "3,0": CPU 33 is beyond the last possible CPU 32' \
		'123badf00d,deadbeef,1,0|128|irqaff: mask "123badf00d,deadbeef,1,0": word "123badf00d" is longer than 8 hex digits' \
		'badf00d,deadbeef,1,0|90|irqaff: mask "badf00d,deadbeef,1,0": more than the 3 32-bit words that 90 CPUs need' \
		'fbadf00d,deadbeef,1,0|95|irqaff: mask "fbadf00d,deadbeef,1,0": more than the 3 32-bit words that 95 CPUs need' \
		'badf00d,deadbeef,1,0|100|irqaff: mask "badf00d,deadbeef,1,0": CPU 108 is beyond the last possible CPU 99'
}

@test "words are split by commas or blanks, empty ones skipped, as in the kernel" {
	golden_ok list \
		'1 2|33|1,32' \
		'1\t2|33|1,32' \
		'0,,1|33|0' \
		'DEADBEEF|32|'"$DEADBEEF" \
		'DeadBeef,|32|'"$DEADBEEF"
}

@test "a mask with a newline before its end is refused, not cut short" {
	golden_err list \
		'deadbeef,\n,0,1|96|irqaff: mask "deadbeef,\n,0,1": a newline before the end' \
		'1\n2|33|irqaff: mask "1\n2": a newline before the end' \
		'\n1|33|irqaff: mask "\n1": a newline before the end'
}

@test "a mask with one last newline is taken, as the kernel takes it" {
	golden_ok list \
		'2\n|8|1' \
		'1,0\n|33|32'
}

@test "list takes no node:K: a mask names no NUMA node" {
	golden_err list \
		'node:0|8|irqaff: mask "node:0": ":" is not a hex digit'
}

@test "a word too many is refused even when it is zero, as in the kernel" {
	golden_err list \
		'0,0|32|irqaff: mask "0,0": more than the 1 32-bit word that 32 CPUs need' \
		'0,0,0|33|irqaff: mask "0,0,0": more than the 2 32-bit words that 33 CPUs need' \
		'-1|8|irqaff: mask "-1": "-" is not a hex digit' \
		'+1|8|irqaff: mask "+1": "+" is not a hex digit' \
		'2|1|irqaff: mask "2": CPU 1 is beyond the last possible CPU 0'
}

@test "lists are printed with ranges of two or more CPUs as a-b" {
	golden_ok list \
		'0d0f|16|0-3,8,10-11' \
		'18|8|3-4' \
		'55|8|0,2,4,6' \
		'ff|8|0-7' \
		'80000001|32|0,31' \
		'1,ffffffff|33|0-32' \
		'f,ffffffff|36|0-35' \
		'1|1|0'
}

@test "0x, 0X and one word of more than 8 digits are read as one hex number" {
	golden_ok list \
		'0xff00000000|64|32-39' \
		'ff00000000|64|32-39' \
		'0Xff|64|0-7' \
		'0xff,00000000|64|32-39' \
		' 0xff|64|0-7' \
		'0x0000000000000000ff|32|0-7'
}

@test "0x with no hex digits after it is refused" {
	golden_err list \
		'0x|64|irqaff: mask "0x": "0x" has no hex digits' \
		'0xg|64|irqaff: mask "0xg": "0xg" has no hex digits' \
		'ff,0x1|64|irqaff: mask "ff,0x1": "x" is not a hex digit'
}

@test "CPU lists survive list to mask to list at every width" {
	local w set want mask re words digits
	local -a bad=()
	for w in 1 2 31 32 33 64 65 1024 8192; do
		words=$(((w + 31) / 32)) digits=$((((w - 1) % 32) / 4 + 1))
		re="^[0-9a-f]{$digits}(,[0-9a-f]{8}){$((words - 1))}\$"
		for set in 0 N all 0-N:1/3 ''; do
			case $set in
			0) want=0 ;;
			N) want=$((w - 1)) ;;
			all) want=0-$((w - 1)) ;;
			0-N:1/3) want=$(seq -s, 0 3 $((w - 1))) ;;
			'') want='' ;;
			esac
			[[ $want == 0-0 ]] && want=0
			run --separate-stderr irqaff mask -b "$w" -- "$set"
			mask=$output
			if [[ $status -ne 0 || -n $stderr || ! $mask =~ $re ]]; then
				bad+=("case mask -b $w -- $(_q "$set"): status $status, stdout $(_q "$mask"), stderr $(_q "$stderr"); want a mask matching $re")
				continue
			fi
			run --separate-stderr irqaff list -b "$w" -- "$mask"
			if [[ $status -ne 0 || -n $stderr || $output != "$want" ]]; then
				bad+=("case list -b $w -- (mask of $(_q "$set")): status $status, stdout $(_q "$output"), stderr $(_q "$stderr"); want $(_q "$want")")
			fi
		done
	done
	if ((${#bad[@]})); then
		printf '%s\n' "${bad[@]}" | fail
	fi
}

@test "with no operand every line of standard input is one mask" {
	run -0 --separate-stderr irqaff list -b 16 <<<$'000f\n0100\n\n8000'
	assert_output $'0-3\n8\n\n15'
	assert_equal "$stderr" ''
}

@test "a bad line of standard input fails the whole run and prints nothing" {
	run -2 --separate-stderr irqaff list -b 16 <<<$'000f\nx\n0100'
	assert_output ''
	assert_equal "$stderr" 'irqaff: mask "x": "x" is not a hex digit'
}

# The even CPUs of 8192 as a mask, whose list is 19924 characters long.
EVEN_LIST_LEN=19924
even_mask() {
	irqaff mask -b 8192 0-8191:1/2
}

# repeat N LINE: LINE N times, one a line.
repeat() {
	local i
	for ((i = 0; i < $1; i++)); do
		printf '%s\n' "$2"
	done
}

@test "a bad line after more than 1 MiB of good output prints nothing" {
	local in=$BATS_TEST_TMPDIR/in even
	even=$(even_mask)
	repeat 60 "$even" >"$in"
	# the good lines alone are past the 1 MiB held in memory
	run -0 --separate-stderr bash -c 'irqaff list -b 8192 <"$1" | wc -c' _ "$in"
	assert_output $((60 * (EVEN_LIST_LEN + 1)))
	assert_equal "$stderr" ''
	{ echo x; echo "$even"; } >>"$in"
	run -2 --separate-stderr irqaff list -b 8192 <"$in"
	assert_output ''
	assert_equal "$stderr" 'irqaff: mask "x": "x" is not a hex digit'
}

@test "more than 1 MiB of output from standard input is each line's list in order" {
	local in=$BATS_TEST_TMPDIR/in out=$BATS_TEST_TMPDIR/out want='' i l
	local -a masks=() lists=()
	for l in 0-8191:1/2 1-8191:3/7 0,100-200,8191 ''; do
		masks+=("$(irqaff mask -b 8192 -- "$l")")
		lists+=("$(irqaff list -b 8192 -- "${masks[-1]}")")
	done
	assert_equal "${lists[2]}" 0,100-200,8191
	for ((i = 0; i < 200; i++)); do
		printf '%s\n' "${masks[i % 4]}"
		want+=${lists[i % 4]}$'\n'
	done >"$in"
	run -0 --separate-stderr bash -c 'irqaff list -b 8192 <"$1" >"$2"' _ "$in" "$out"
	assert_equal "$stderr" ''
	assert [ "$(stat -c %s "$out")" -gt 1048576 ]
	assert_file "$out" "$want"
}

@test "standard input of any length is converted in bounded memory" {
	! sanitized || skip "a sanitizer build cannot run under ulimit -v"
	# 40 MB of lists in 30 MB of address space
	run -0 --separate-stderr bash -c \
		'ulimit -v 30000; yes -- "$1" | head -n 2000 | irqaff list -b 8192 | wc -c' \
		_ "$(even_mask)"
	assert_output $((2000 * (EVEN_LIST_LEN + 1)))
	assert_equal "$stderr" ''
}

@test "a write error on standard output after more than 1 MiB is reported" {
	local in=$BATS_TEST_TMPDIR/in
	repeat 60 "$(even_mask)" >"$in"
	run -1 --separate-stderr bash -c 'irqaff list -b 8192 <"$1" >/dev/full' _ "$in"
	assert_output ''
	assert_equal "$stderr" 'irqaff: standard output: No space left on device'
}

@test "one bad operand among good ones prints nothing and names each bad one" {
	run -2 --separate-stderr irqaff list -b 8 ff 1x 01 100 f
	assert_output ''
	assert_equal "$stderr" $'irqaff: mask "1x": "x" is not a hex digit\nirqaff: mask "100": CPU 8 is beyond the last possible CPU 7'
}

@test "several operands are printed one a line in order" {
	run -0 --separate-stderr irqaff list -b 8 ff 01 '' 80
	assert_output $'0-7\n0\n\n7'
	assert_equal "$stderr" ''
}

@test "operands starting with - are taken after --" {
	run -2 --separate-stderr irqaff list -b 8 -- -1
	assert_output ''
	assert_equal "$stderr" 'irqaff: mask "-1": "-" is not a hex digit'
}

@test "a bad width is refused with one line" {
	run -2 --separate-stderr irqaff list -b 0 0
	assert_output ''
	assert_equal "$stderr" 'irqaff: list: width "0" is too small (1 to 1048576)'
	run -2 --separate-stderr irqaff list -b x 0
	assert_output ''
	assert_equal "$stderr" 'irqaff: list: width "x" is invalid (1 to 1048576)'
	run -2 --separate-stderr irqaff list -b 1048577 0
	assert_output ''
	assert_equal "$stderr" 'irqaff: list: width "1048577" is too large (1 to 1048576)'
}

@test "an unknown option is refused with the usage on standard error" {
	run -2 --separate-stderr irqaff list -z 0
	assert_output ''
	assert_equal "$stderr" $'irqaff: list: unknown option -z\nusage: irqaff list [-b bits] [mask ...]'
}

@test "list --help prints the usage on standard output" {
	run -0 --separate-stderr irqaff list --help
	assert_line -n 0 'usage: irqaff list [-b bits] [mask ...]'
	assert_equal "$stderr" ''
}

@test "without -b the width is the last possible CPU plus one, from --root" {
	tiny_root 0-35
	run -0 --separate-stderr irqaff --root "$ROOT" list f,ffffffff
	assert_output '0-35'
	assert_equal "$stderr" ''
	run -2 --separate-stderr irqaff --root "$ROOT" list ff,0
	assert_output ''
	assert_equal "$stderr" 'irqaff: mask "ff,0": CPU 36 is beyond the last possible CPU 35'
}

@test "without -b the width comes from IRQAFF_ROOT" {
	tiny_root 0-35
	IRQAFF_ROOT=$ROOT run -0 --separate-stderr irqaff list f,ffffffff
	assert_output '0-35'
	assert_equal "$stderr" ''
}

@test "without -b a missing possible file fails with status 1" {
	mkdir -p "$BATS_TEST_TMPDIR/empty"
	IRQAFF_ROOT=$BATS_TEST_TMPDIR/empty run -1 --separate-stderr irqaff list ff
	assert_output ''
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/empty/sys/devices/system/cpu/possible: No such file or directory"
}

@test "a 10000-character operand is refused with one shortened line" {
	local long x65
	long=$(printf 'x%.0s' {1..10000})
	x65=$(printf 'x%.0s' {1..65})
	run -2 --separate-stderr irqaff list -b 8 "$long"
	assert_output ''
	assert_equal "$stderr" "irqaff: mask \"$x65...\": \"x\" is not a hex digit"
}

@test "a non-ASCII operand is refused with one line that escapes it" {
	run -2 --separate-stderr irqaff list -b 8 'é'
	assert_output ''
	assert_equal "$stderr" 'irqaff: mask "\303\251": "\251" is not a hex digit'
}

@test "a long mask at the width boundary: the bit after the last CPU is refused" {
	run --separate-stderr -2 irqaff list -b 4 000000010
	assert_equal "$stderr" 'irqaff: mask "000000010": CPU 4 is beyond the last possible CPU 3'
	run --separate-stderr -0 irqaff list -b 4 00000008
	assert_output 3
	# widths that are whole 64-bit words
	run --separate-stderr -0 irqaff list -b 64 80000000,00000000
	assert_output 63
	run --separate-stderr -2 irqaff list -b 64 1,00000000,00000000
	assert_equal "$stderr" 'irqaff: mask "1,00000000,00000000": more than the 2 32-bit words that 64 CPUs need'
	run --separate-stderr -0 irqaff list -b 128 80000000,00000000,00000000,00000000
	assert_output 127
	run --separate-stderr -2 irqaff list -b 128 1,00000000,00000000,00000000,00000000
	run --separate-stderr -2 irqaff list -b 63 80000000,00000000
	assert_equal "$stderr" 'irqaff: mask "80000000,00000000": CPU 63 is beyond the last possible CPU 62'
}
