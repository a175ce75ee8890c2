#!/usr/bin/env bats
# irqaff mask: CPU lists in the grammar of the kernel's bitmap_parselist()
# (lib/bitmap-str.c) printed as the kernel prints a mask ("%*pb").
# The golden tables are lib/test_bitmap.c's parselist_tests, with the
# expected sets written out as masks by hand.

setup() {
	load ../test_helper/common-setup
	_common_setup
	load ../test_helper/golden
}

@test "the kernel's parselist tests of plain and grouped regions give the kernel's masks" {
	golden_ok mask \
		'0|8|01' \
		'1|8|02' \
		'0-15|32|0000ffff' \
		'16-31|32|ffff0000' \
		'0-31:1/2|32|55555555' \
		'1-31:1/2|32|aaaaaaaa' \
		'0-31:1/4|32|11111111' \
		'1-31:1/4|32|22222222' \
		'0-31:4/4|32|ffffffff' \
		'1-31:4/4|32|fffffffe' \
		'0-31:1/4,32-63:2/4|64|33333333,11111111' \
		'0-31:3/4,32-63:4/4|64|ffffffff,77777777' \
		'  ,,  0-31:3/4  ,, 32-63:4/4  ,,  |64|ffffffff,77777777' \
		'0-31:1/4,32-63:2/4,64-95:3/4,96-127:4/4|128|ffffffff,77777777,33333333,11111111'
}

@test "the kernel's parselist test 0-2047:128/256 sets the first 128 of every 256 CPUs" {
	local block want
	block=$(printf '00000000,00000000,00000000,00000000,ffffffff,ffffffff,ffffffff,ffffffff,%.0s' {1..8})
	want=${block%,}
	run -0 --separate-stderr irqaff mask -b 2048 0-2047:128/256
	assert_output "$want"
	assert_equal "$stderr" ''
}

@test "the kernel's parselist tests of empty and blank lists give the empty mask" {
	golden_ok mask \
		'|8|00' \
		'\n|8|00' \
		',,  ,,  , ,  ,|8|00' \
		' ,  ,,  , ,   |8|00' \
		'|32|00000000' \
		'0-0:0/1|32|00000000'
}

@test "the kernel's parselist tests of one-CPU regions give one bit" {
	golden_ok mask \
		'0-0|32|00000001' \
		'1-1|32|00000002' \
		'15-15|32|00008000' \
		'31-31|32|80000000' \
		'0-0:1/1|32|00000001' \
		'0-0:1/31|32|00000001' \
		'0-0:31/31|32|00000001' \
		'1-1:1/1|32|00000002' \
		'0-15:16/31|32|0000ffff' \
		'15-15:1/2|32|00008000' \
		'15-15:31/31|32|00008000' \
		'15-31:1/31|32|00008000' \
		'16-31:16/31|32|ffff0000' \
		'31-31:31/31|32|80000000'
}

@test "the kernel's parselist tests read N as the last CPU" {
	golden_ok mask \
		'N-N|32|80000000' \
		'0-0:1/N|32|00000001' \
		'0-0:N/N|32|00000001' \
		'0-15:16/N|32|0000ffff' \
		'15-15:N/N|32|00008000' \
		'15-N:1/N|32|00008000' \
		'16-N:16/N|32|ffff0000' \
		'N-N:N/N|32|80000000' \
		'N|8|80' \
		'0-N|36|f,ffffffff'
}

@test "the kernel's parselist tests of overlapping regions give their union" {
	golden_ok mask \
		'0-N:1/3,1-N:1/3,2-N:1/3|32|ffffffff' \
		'0-31:1/3,1-31:1/3,2-31:1/3|32|ffffffff' \
		'1-10:8/12,8-31:24/29,0-31:0/3|32|fffffffe'
}

@test "the kernel's parselist tests read all, in any case, as 0-N" {
	golden_ok mask \
		'all|32|ffffffff' \
		'0, 1, all,  |32|ffffffff' \
		'all:1/2|32|55555555' \
		'ALL:1/2|32|55555555' \
		'All|8|ff'
}

@test "the kernel's parselist tests of malformed lists are refused naming the region" {
	golden_err mask \
		'-1|8|irqaff: CPU list "-1": region "-1": "" is not a number' \
		'-0|8|irqaff: CPU list "-0": region "-0": "" is not a number' \
		'10-1|8|irqaff: CPU list "10-1": region "10-1" runs backwards' \
		'0-31:|32|irqaff: CPU list "0-31:": region "0-31:" ends where a number should be' \
		'0-31:0|32|irqaff: CPU list "0-31:0": region "0-31:0" is incomplete' \
		'0-31:0/|32|irqaff: CPU list "0-31:0/": region "0-31:0/" ends where a number should be' \
		'0-31:0/0|32|irqaff: CPU list "0-31:0/0": region "0-31:0/0" has a group size of 0' \
		'0-31:1/0|32|irqaff: CPU list "0-31:1/0": region "0-31:1/0" has a group size of 0' \
		'0-31:10/1|32|irqaff: CPU list "0-31:10/1": region "0-31:10/1" uses 10 CPUs out of groups of 1' \
		'a-31|8|irqaff: CPU list "a-31": region "a-31": "a" is not a number' \
		'0-a1|8|irqaff: CPU list "0-a1": region "0-a1": "a1" is not a number' \
		'a-31:10/1|8|irqaff: CPU list "a-31:10/1": region "a-31:10/1": "a" is not a number' \
		'0-31:a/1|8|irqaff: CPU list "0-31:a/1": region "0-31:a/1": "a" is not a number' \
		'0-\n|8|irqaff: CPU list "0-\n": region "0-" ends where a number should be' \
		'al|8|irqaff: CPU list "al": region "al": "al" is not a number' \
		'alll|8|irqaff: CPU list "alll": region "alll": unexpected "l"' \
		'5:1/2|8|irqaff: CPU list "5:1/2": region "5:1/2": unexpected ":"'
}

@test "the kernel's parselist tests of CPUs past the width are refused naming the CPU" {
	golden_err mask \
		'8-8|8|irqaff: CPU list "8-8": CPU 8 is beyond the last possible CPU 7' \
		'0-31|8|irqaff: CPU list "0-31": CPU 31 is beyond the last possible CPU 7' \
		'256|256|irqaff: CPU list "256": CPU 256 is beyond the last possible CPU 255' \
		'1|1|irqaff: CPU list "1": CPU 1 is beyond the last possible CPU 0' \
		'0-98765432123456789:10/1|8|irqaff: CPU list "0-98765432123456789:10/1": number 98765432123456789 is too large'
}

@test "a list with a newline before its end is refused, not cut short" {
	# The kernel's bitmap_parselist() would stop at the newline; an
	# argument is used whole.
	golden_err mask \
		'0\n1|8|irqaff: CPU list "0\n1": a newline before the end' \
		'0,\n1|8|irqaff: CPU list "0,\n1": a newline before the end' \
		'\n5|8|irqaff: CPU list "\n5": a newline before the end' \
		'0-3:1/2\n5|8|irqaff: CPU list "0-3:1/2\n5": a newline before the end'
}

@test "a list with one last newline is taken, as the kernel takes it" {
	golden_ok mask \
		'1\n|8|02' \
		'0-3\n|8|0f'
}

@test "blanks other than newlines separate regions, as in the kernel" {
	golden_ok mask \
		'0\t1|8|03' \
		'1\v2\f3\r|8|0e'
}

@test "masks are printed as 32-bit words, the first one only as wide as needed" {
	golden_ok mask \
		'all|1|1' \
		'0|1|1' \
		'all|2|3' \
		'all|8|ff' \
		'0|8|01' \
		'all|31|7fffffff' \
		'all|32|ffffffff' \
		'all|33|1,ffffffff' \
		'all|36|f,ffffffff' \
		'0|64|00000000,00000001' \
		'32-39|64|000000ff,00000000' \
		'N|65|1,00000000,00000000'
}

@test "mask -b 8192 all prints 256 full words that list reads back as 0-8191" {
	local want
	want=$(printf 'ffffffff,%.0s' {1..256})
	want=${want%,}
	run -0 --separate-stderr irqaff mask -b 8192 all
	assert_output "$want"
	assert_equal "$stderr" ''
	run -0 --separate-stderr irqaff list -b 8192 "$want"
	assert_output '0-8191'
	assert_equal "$stderr" ''
}

@test "with no operand every line of standard input is one CPU list" {
	run -0 --separate-stderr irqaff mask -b 16 <<<$'0-3\n8'
	assert_output $'000f\n0100'
	assert_equal "$stderr" ''
}

@test "a bad line of standard input fails the whole run and prints nothing" {
	run -2 --separate-stderr irqaff mask -b 16 <<<$'0-3\nx\n8'
	assert_output ''
	assert_equal "$stderr" 'irqaff: CPU list "x": region "x": "x" is not a number'
}

@test "a line of standard input with a NUL byte is refused, not cut at it" {
	run -2 --separate-stderr bash -c "printf '3\\n0\\0001\\n' | irqaff mask -b 8"
	assert_output ''
	assert_equal "$stderr" 'irqaff: CPU list "0": a NUL byte'
}

# A line of standard input is at most 16 characters a CPU and 4096 more:
# 4224 at 8 CPUs.
@test "a line of standard input may be 4096 characters longer than 16 a CPU, not one more" {
	run -0 --separate-stderr bash -c \
		"{ echo 0; printf '1%4223s\\n' ''; } | irqaff mask -b 8"
	assert_output $'01\n02'
	assert_equal "$stderr" ''
	# past the cap: nothing printed, the line counted from 1
	run -2 --separate-stderr bash -c \
		"{ echo 0; printf '1%4224s\\n' ''; echo 2; } | irqaff mask -b 8"
	assert_output ''
	assert_equal "$stderr" 'irqaff: CPU list on line 2 of standard input: longer than any of 8 CPUs'
	run -2 --separate-stderr bash -c \
		"{ echo 1; printf '1%4224s\\n' ''; } | irqaff list -b 8"
	assert_output ''
	assert_equal "$stderr" 'irqaff: mask on line 2 of standard input: longer than any of 8 CPUs'
}

# An 8192-bit mask is 2303 characters long.
MASK_8192_LEN=2303

@test "a bad line after more than 1 MiB of good output prints nothing" {
	local in=$BATS_TEST_TMPDIR/in i
	for ((i = 0; i < 500; i++)); do
		echo 0-8191:1/2
	done >"$in"
	# the good lines alone are past the 1 MiB held in memory
	run -0 --separate-stderr bash -c 'irqaff mask -b 8192 <"$1" | wc -c' _ "$in"
	assert_output $((500 * (MASK_8192_LEN + 1)))
	assert_equal "$stderr" ''
	printf '0-8192\n0\n' >>"$in"
	run -2 --separate-stderr irqaff mask -b 8192 <"$in"
	assert_output ''
	assert_equal "$stderr" 'irqaff: CPU list "0-8192": CPU 8192 is beyond the last possible CPU 8191'
}

@test "more than 1 MiB of output from standard input is each line's mask in order" {
	local in=$BATS_TEST_TMPDIR/in out=$BATS_TEST_TMPDIR/out want='' i
	local -a lists=(0-8191:1/2 '' 5,4000-4095,8191 all) masks=()
	for i in "${!lists[@]}"; do
		masks+=("$(irqaff mask -b 8192 -- "${lists[i]}")")
	done
	assert_equal "${masks[1]}" "$(printf '00000000,%.0s' {1..255})00000000"
	for ((i = 0; i < 600; i++)); do
		printf '%s\n' "${lists[i % 4]}"
		want+=${masks[i % 4]}$'\n'
	done >"$in"
	run -0 --separate-stderr bash -c 'irqaff mask -b 8192 <"$1" >"$2"' _ "$in" "$out"
	assert_equal "$stderr" ''
	assert [ "$(stat -c %s "$out")" -gt 1048576 ]
	assert_file "$out" "$want"
}

@test "standard input of any length is converted in bounded memory" {
	! sanitized || skip "a sanitizer build cannot run under ulimit -v"
	# 46 MB of masks in 30 MB of address space
	run -0 --separate-stderr bash -c \
		'ulimit -v 30000; yes 0-8191:1/2 | head -n 20000 | irqaff mask -b 8192 | wc -c'
	assert_output $((20000 * (MASK_8192_LEN + 1)))
	assert_equal "$stderr" ''
}

@test "several operands are printed one a line in order" {
	run -0 --separate-stderr irqaff mask -b 8 1 0-7:1/2 '' N
	assert_output $'02\n55\n00\n80'
	assert_equal "$stderr" ''
}

@test "one bad operand among good ones prints nothing and names each bad one" {
	run -2 --separate-stderr irqaff mask -b 8 0 x 1 9 2
	assert_output ''
	assert_equal "$stderr" $'irqaff: CPU list "x": region "x": "x" is not a number\nirqaff: CPU list "9": CPU 9 is beyond the last possible CPU 7'
}

@test "operands starting with - are taken after --" {
	run -2 --separate-stderr irqaff mask -b 8 -- -1
	assert_output ''
	assert_equal "$stderr" 'irqaff: CPU list "-1": region "-1": "" is not a number'
}

@test "a bad width is refused with one line" {
	run -2 --separate-stderr irqaff mask -b 0 0
	assert_output ''
	assert_equal "$stderr" 'irqaff: mask: width "0" is too small (1 to 1048576)'
	run -2 --separate-stderr irqaff mask -b x 0
	assert_output ''
	assert_equal "$stderr" 'irqaff: mask: width "x" is invalid (1 to 1048576)'
	run -2 --separate-stderr irqaff mask -b 1048577 0
	assert_output ''
	assert_equal "$stderr" 'irqaff: mask: width "1048577" is too large (1 to 1048576)'
}

@test "the widest width, 1048576, is taken" {
	local want
	want=$(printf '00000000,%.0s' {1..32767})
	run -0 --separate-stderr irqaff mask -b 1048576 0
	assert_output "${want}00000001"
	assert_equal "$stderr" ''
}

@test "an unknown option is refused with the usage on standard error" {
	run -2 --separate-stderr irqaff mask -z 0
	assert_output ''
	assert_equal "$stderr" $'irqaff: mask: unknown option -z\nusage: irqaff mask [-b bits] [cpus ...]'
}

@test "mask --help prints the usage on standard output" {
	run -0 --separate-stderr irqaff mask --help
	assert_line -n 0 'usage: irqaff mask [-b bits] [cpus ...]'
	assert_equal "$stderr" ''
}

@test "without -b the width is the last possible CPU plus one, from --root" {
	tiny_root 0-35
	run -0 --separate-stderr irqaff --root "$ROOT" mask all 35
	assert_output $'f,ffffffff\n8,00000000'
	assert_equal "$stderr" ''
	run -2 --separate-stderr irqaff --root "$ROOT" mask 36
	assert_output ''
	assert_equal "$stderr" 'irqaff: CPU list "36": CPU 36 is beyond the last possible CPU 35'
}

@test "without -b the width comes from IRQAFF_ROOT" {
	tiny_root 0-3,8-11
	IRQAFF_ROOT=$ROOT run -0 --separate-stderr irqaff mask all
	assert_output 'fff'
	assert_equal "$stderr" ''
	tiny_root 0
	IRQAFF_ROOT=$ROOT run -0 --separate-stderr irqaff mask N
	assert_output '1'
	assert_equal "$stderr" ''
}

@test "without -b a missing possible file fails with status 1" {
	mkdir -p "$BATS_TEST_TMPDIR/empty"
	run -1 --separate-stderr irqaff --root "$BATS_TEST_TMPDIR/empty" mask all
	assert_output ''
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/empty/sys/devices/system/cpu/possible: No such file or directory"
}

@test "with -b the possible file is not needed" {
	mkdir -p "$BATS_TEST_TMPDIR/empty"
	run -0 --separate-stderr irqaff --root "$BATS_TEST_TMPDIR/empty" mask -b 8 all
	assert_output 'ff'
	assert_equal "$stderr" ''
}

@test "a 10000-character operand is refused with one shortened line" {
	local long x65 x25
	long=$(printf 'x%.0s' {1..10000})
	x65=$(printf 'x%.0s' {1..65})
	x25=$(printf 'x%.0s' {1..25})
	run -2 --separate-stderr irqaff mask -b 8 "$long"
	assert_output ''
	assert_equal "$stderr" "irqaff: CPU list \"$x65...\": region \"$x25...\": \"$x25...\" is not a number"
}

@test "a non-ASCII operand is refused with one line that escapes it" {
	run -2 --separate-stderr irqaff mask -b 8 'é'
	assert_output ''
	assert_equal "$stderr" 'irqaff: CPU list "\303\251": region "\303\251": "\303\251" is not a number'
}

@test "mask takes node:K items from the machine under the root" {
	make_root --cpus 8 --nodes 2
	run -0 irqaff mask node:1 node:0,7 1-2
	assert_output $'f0\n8f\n06'
	run -0 irqaff mask <<<$'0-1\nnode:1'
	assert_output $'03\nf0'
}

@test "mask refuses node:K at another width and an unknown node, printing nothing" {
	make_root --cpus 8 --nodes 2
	run --separate-stderr irqaff mask -b 64 1 node:1
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "irqaff: CPU list \"node:1\": node:K is a set of this machine's 8 possible CPUs; leave out -b"
	run --separate-stderr irqaff mask 1 node:5
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "irqaff: CPU list \"node:5\": NUMA node 5 does not exist"
}

@test "a number past 32 bits is refused, not wrapped: 2^64+3 is not CPU 3" {
	# getnum() stops multiplying past UINT_MAX: without that a 64-bit
	# accumulator wraps, and 18446744073709551619 would read as 3
	golden_err mask \
		'18446744073709551619|8|irqaff: CPU list "18446744073709551619": number 18446744073709551619 is too large' \
		'18446744073709551616|8|irqaff: CPU list "18446744073709551616": number 18446744073709551616 is too large' \
		'18446744073709551615|8|irqaff: CPU list "18446744073709551615": number 18446744073709551615 is too large' \
		'0-18446744073709551619|8|irqaff: CPU list "0-18446744073709551619": number 18446744073709551619 is too large' \
		'0-7:18446744073709551617/2|8|irqaff: CPU list "0-7:18446744073709551617/2": number 18446744073709551617 is too large' \
		'0-7:1/18446744073709551618|8|irqaff: CPU list "0-7:1/18446744073709551618": number 18446744073709551618 is too large' \
		'4294967296|8|irqaff: CPU list "4294967296": number 4294967296 is too large' \
		'4294967295|8|irqaff: CPU list "4294967295": number 4294967295 is too large' \
		'4294967294|8|irqaff: CPU list "4294967294": CPU 4294967294 is beyond the last possible CPU 7' \
		'8|8|irqaff: CPU list "8": CPU 8 is beyond the last possible CPU 7'
	golden_ok mask '7|8|80' '0-7:1/4294967294|8|01' '3|8|08'
	# 2^32 - 1 itself is a number: as a group size it fits
	golden_ok mask '0-7:4294967295/4294967295|8|ff'
}
