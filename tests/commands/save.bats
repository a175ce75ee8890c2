#!/usr/bin/env bats
# irqaff save: the snapshot text (the header, the default and one line per
# IRQ with its quoted names), -o replacing a file whole or not at all (at
# a symlink's target; a device or FIFO is written through), and its usage.

bats_require_minimum_version 1.5.0

setup() {
	load ../test_helper/common-setup
	_common_setup
	load ../test_helper/snapshot
}

@test "save writes the header, the default and one line per IRQ" {
	tree 40 50 --irq 9
	irqaff set 41 1
	irqaff default 0-3
	run --separate-stderr irqaff save
	assert_success
	assert_equal "$stderr" ""
	assert_output - <<'EOF'
# irqaff snapshot, 8 CPUs
# IRQ CPUS "NAME"...; see irqaff.conf(5)
default 0-3
9 0-7
40 0-7 "eth0"
41 1 "eth0-TxRx-0"
42 0-7 "eth0-TxRx-1"
43 0-7 "eth0-TxRx-2"
50 0-7 "nvme0q0"
51 0-7 "nvme0q1"
52 0-7 "nvme0q2"
EOF
}

@test "save quotes names with spaces, quotes, backslashes and tabs" {
	make_root --cpus 4 --irq $'30=my "dev" x|back\\slash|tab\there' \
		--irq '31=#not a comment'
	run --separate-stderr irqaff save
	assert_success
	assert_line --index 3 '30 0-3 "back\\slash" "my \"dev\" x" "tab\there"'
	assert_line --index 4 '31 0-3 "#not a comment"'
}

@test "save writes DEL as \\177, and restore matches it back" {
	make_root --cpus 4 --irq $'30=a\x7fb' --irq 31=c
	run --separate-stderr -0 irqaff save -o "$SNAP"
	run grep -x '30 0-3 "a\\177b"' "$SNAP"
	assert_success
	printf '"a\\177b" 2\n' >"$SNAP"
	run --separate-stderr -0 irqaff restore "$SNAP"
	assert_file "$(list_of 30)" $'2\n'
	assert_file "$(list_of 31)" $'0-3\n'
}

@test "save lists every action name of a shared IRQ" {
	make_root --cpus 4 --irq '16=uhci_hcd:usb2|ehci_hcd:usb1'
	run irqaff save
	assert_success
	assert_line --index 3 '16 0-3 "ehci_hcd:usb1" "uhci_hcd:usb2"'
}

@test "an action name that is a link is a directory as the root sees it, never as the host does" {
	make_root --cpus 4 --irq 16=a
	mkdir "$ROOT/inside"
	ln -s /inside "$(irq_dir 16)/abs"
	ln -s ../../../inside "$(irq_dir 16)/rel"
	# the host's /etc is a directory; in the root there is none
	ln -s /etc "$(irq_dir 16)/host"
	ln -s /inside/none "$(irq_dir 16)/dangling"
	run --separate-stderr -0 irqaff save
	assert_line --index 3 '16 0-3 "a" "abs" "rel"'
}

@test "save passes over an IRQ that went away, and comments an IRQ with no CPUs" {
	tree
	# IRQ 43's files gone (as they go when it is freed), 42 with no CPUs
	rm "$(irq_dir 43)/smp_affinity_list" "$(irq_dir 43)/smp_affinity"
	: >"$(irq_dir 42)/smp_affinity_list"
	run --separate-stderr -0 irqaff save
	assert_equal "$stderr" ""
	assert_output - <<'EOF'
# irqaff snapshot, 8 CPUs
# IRQ CPUS "NAME"...; see irqaff.conf(5)
default 0-7
40 0-7 "eth0"
41 0-7 "eth0-TxRx-0"
# 42 has no CPUs: "eth0-TxRx-1"
50 0-7 "nvme0q0"
51 0-7 "nvme0q1"
52 0-7 "nvme0q2"
EOF
}

@test "save passes over an interface whose queues go while it reads them" {
	strace_works
	queue_tree
	# the second open of eth1's queues (the listing's first) finds them
	# gone: relative to the root, so -P names them so, from elsewhere
	cd "$BATS_TEST_TMPDIR"
	run --separate-stderr -0 strace -o /dev/null -P sys/class/net/eth1/queues \
		-e trace=openat2,openat -e inject=openat2,openat:error=ENOENT:when=2 \
		irqaff save
	assert_equal "$stderr" ""
	assert_output - <<'EOF'
# irqaff snapshot, 4 CPUs
# IRQ CPUS "NAME"...; see irqaff.conf(5)
default 0-3
40 0-3 "eth0"
41 0-3 "eth0-TxRx-0"
42 0-3 "eth0-TxRx-1"
50 0-3 "eth1"
51 0-3 "eth1-TxRx-0"
rps eth0 rx-0 2-3
xps eth0 tx-0 0-3
rps eth0 rx-1 none
xps eth0 tx-1 1
EOF
}

@test "a default that save cannot read fails it and writes nothing" {
	tree
	printf 'zz\n' >"$ROOT/proc/irq/default_smp_affinity"
	run --separate-stderr -1 irqaff save
	assert_output ""
	assert_equal "$stderr" "irqaff: $ROOT/proc/irq/default_smp_affinity: \"z\" is not a hex digit"
	run --separate-stderr -1 irqaff save "$SNAP"
	assert [ ! -e "$SNAP" ]
	# --only saves no default, and does not read it
	run --separate-stderr -0 irqaff save --only 40
	assert_equal "$stderr" ""
	assert_line --index 2 '40 0-7 "eth0"'
}

@test "save -o writes the file, prints nothing and leaves no temporary file" {
	tree
	irqaff save >"$BATS_TEST_TMPDIR/expected"
	mkdir "$BATS_TEST_TMPDIR/out"
	run --separate-stderr irqaff save -o "$BATS_TEST_TMPDIR/out/snap"
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	assert_file "$BATS_TEST_TMPDIR/out/snap" "$(<"$BATS_TEST_TMPDIR/expected")"$'\n'
	assert_equal "$(ls -A "$BATS_TEST_TMPDIR/out")" snap
}

@test "save -o replaces an old file whole and keeps its mode" {
	tree
	printf 'old\nlines\nthat are longer than nothing\n' >"$SNAP"
	chmod 0600 "$SNAP"
	irqaff save -o "$SNAP"
	assert_equal "$(head -n 1 "$SNAP")" '# irqaff snapshot, 8 CPUs'
	run grep -c old "$SNAP"
	assert_output 0
	assert_equal "$(stat -c %a "$SNAP")" 600
}

@test "save -o makes a new file with the mode the umask leaves" {
	tree
	run --separate-stderr -0 bash -c "umask 027; irqaff save -o '$SNAP'"
	assert_equal "$(stat -c %a "$SNAP")" 640
}

@test "a save that fails half way leaves the old file and no temporary file" {
	tree
	printf 'old\n' >"$SNAP"
	rm "$(list_of 51)" "$(irq_dir 51)/smp_affinity"
	mkdir "$(list_of 51)"
	run --separate-stderr irqaff save -o "$SNAP"
	assert_failure 1
	assert_equal "$stderr" "irqaff: $ROOT/proc/irq/51/smp_affinity_list: Is a directory"
	assert_file "$SNAP" $'old\n'
	assert_equal "$(ls -A "$BATS_TEST_TMPDIR" | grep -c tmp-)" 0
}

@test "save -o into a directory that does not exist fails with status 1" {
	tree
	run --separate-stderr irqaff save -o "$BATS_TEST_TMPDIR/none/snap"
	assert_failure 1
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/none/snap: No such file or directory"
	assert [ ! -e "$BATS_TEST_TMPDIR/none" ]
}

@test "save -o to a device writes through it and leaves it one" {
	# a null device of the test's own: a failing save must never be able
	# to replace the machine's /dev/null
	local null=$BATS_TEST_TMPDIR/null
	mknod -m 666 "$null" c 1 3 2>/dev/null || skip "mknod needs root"
	tree
	run --separate-stderr irqaff save -o "$null"
	assert_success
	assert_equal "$stderr" ""
	[ -c "$null" ]
	assert_equal "$(compgen -G "$null.tmp-*")" ""
}

@test "save -o writes through a FIFO to its reader" {
	tree
	irqaff save >"$BATS_TEST_TMPDIR/expected"
	mkfifo "$BATS_TEST_TMPDIR/fifo"
	timeout 120 cat "$BATS_TEST_TMPDIR/fifo" >"$BATS_TEST_TMPDIR/got" 3>&- &
	local reader=$!
	run --separate-stderr timeout 120 irqaff save -o "$BATS_TEST_TMPDIR/fifo"
	assert_success
	[ -p "$BATS_TEST_TMPDIR/fifo" ]
	wait "$reader"
	assert_file "$BATS_TEST_TMPDIR/got" "$(<"$BATS_TEST_TMPDIR/expected")"$'\n'
}

@test "save -o through a symlink replaces its target and keeps the link" {
	local t=$BATS_TEST_TMPDIR
	tree
	irqaff save >"$t/expected"
	mkdir "$t/etc" "$t/data"
	printf 'old\n' >"$t/data/snap"
	chmod 0640 "$t/data/snap"
	ln -s ../data/snap "$t/etc/snap"
	run --separate-stderr irqaff save -o "$t/etc/snap"
	assert_success
	assert_equal "$stderr" ""
	[ -L "$t/etc/snap" ]
	assert_equal "$(readlink "$t/etc/snap")" ../data/snap
	assert_file "$t/data/snap" "$(<"$t/expected")"$'\n'
	assert_equal "$(stat -c %a "$t/data/snap")" 640
	assert_equal "$(ls -A "$t/etc")" snap
	assert_equal "$(ls -A "$t/data")" snap
}

@test "save -o through dangling symlinks creates the last one's target" {
	local t=$BATS_TEST_TMPDIR
	tree
	irqaff save >"$t/expected"
	mkdir "$t/etc" "$t/data"
	ln -s snap2 "$t/etc/snap"
	ln -s ../data/new "$t/etc/snap2"
	run --separate-stderr irqaff save -o "$t/etc/snap"
	assert_success
	[ -L "$t/etc/snap" ]
	[ -L "$t/etc/snap2" ]
	assert_file "$t/data/new" "$(<"$t/expected")"$'\n'
	assert_equal "$(ls -A "$t/data")" new
}

@test "save -o follows a chain of 40 dangling links, Linux's limit, and refuses 41" {
	local t=$BATS_TEST_TMPDIR/links i
	tree
	mkdir "$t"
	for ((i = 1; i <= 40; i++)); do
		ln -s "l$((i + 1))" "$t/l$i"
	done
	run --separate-stderr -0 irqaff save -o "$t/l1"
	assert_equal "$(head -n 1 "$t/l41")" '# irqaff snapshot, 8 CPUs'
	rm "$t/l41"
	ln -s l1 "$t/l0"
	run --separate-stderr -1 irqaff save -o "$t/l0"
	assert_equal "$stderr" "irqaff: $t/l0: Too many levels of symbolic links"
	[ ! -e "$t/l41" ]
	assert_equal "$(ls -A "$t" | grep -c tmp-)" 0
}

@test "save -o into a directory or a link to one fails and changes nothing" {
	tree
	mkdir "$BATS_TEST_TMPDIR/dir"
	ln -s dir "$BATS_TEST_TMPDIR/link"
	run --separate-stderr irqaff save -o "$BATS_TEST_TMPDIR/link"
	assert_failure 1
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/link: Is a directory"
	[ -L "$BATS_TEST_TMPDIR/link" ]
	assert_equal "$(ls -A "$BATS_TEST_TMPDIR/dir")" ""
	run --separate-stderr irqaff save -o "$BATS_TEST_TMPDIR/dir"
	assert_failure 1
	assert_equal "$stderr" "irqaff: $BATS_TEST_TMPDIR/dir: Is a directory"
	assert_equal "$(ls -A "$BATS_TEST_TMPDIR" | grep -c tmp-)" 0
}

@test "save -o escapes the file name in its message" {
	tree
	run --separate-stderr irqaff save -o "$BATS_TEST_TMPDIR/none"$'\e[2J/snap'
	assert_failure 1
	assert_equal "$stderr" \
		"irqaff: $BATS_TEST_TMPDIR/none\\033[2J/snap: No such file or directory"
}

@test "save -o removes the temporary files a killed save left, and only those" {
	tree
	local out=$BATS_TEST_TMPDIR/out n
	mkdir "$out"
	for n in snap.tmp-AbC123 snap.tmp-AbC12 snap.tmp-AbC1234 \
		'snap.tmp-AbC12!' snap.tmp-AbC123.x other.tmp-AbC123; do
		touch -d '-2 hours' "$out/$n"
	done
	# a link named like one is not a save's file
	ln -s other.tmp-AbC123 "$out/snap.tmp-LnK456"
	touch -h -d '-2 hours' "$out/snap.tmp-LnK456"
	touch "$out/snap.tmp-XyZ789"
	irqaff save -o "$out/snap"
	assert_equal "$(cd "$out" && LC_ALL=C ls -A)" "other.tmp-AbC123
snap
snap.tmp-AbC12
snap.tmp-AbC12!
snap.tmp-AbC123.x
snap.tmp-AbC1234
snap.tmp-LnK456
snap.tmp-XyZ789"
}

@test "a save -o killed while it writes leaves no temporary file" {
	strace_works
	tree
	irqaff save >"$BATS_TEST_TMPDIR/expected"
	printf 'old\n' >"$SNAP"
	# SIGTERM arrives as the temporary file is synced; it takes effect
	# once the new file is in place
	run -143 strace -o /dev/null -e trace=fsync \
		-e inject=fsync:signal=SIGTERM irqaff save -o "$SNAP"
	assert_file "$SNAP" "$(<"$BATS_TEST_TMPDIR/expected")"$'\n'
	assert_equal "$(ls -A "$BATS_TEST_TMPDIR" | grep -c tmp-)" 0
}

@test "a save -o past the file size limit fails and leaves the old file" {
	tree
	printf 'old\n' >"$SNAP"
	# the limit would stop a message to a regular file too: hence the pipe
	run bash -c 'set -o pipefail
		(ulimit -f 0 && exec irqaff save -o "$1") 2>&1 | cat' _ "$SNAP"
	assert_failure 1
	assert_output "irqaff: $SNAP: File too large"
	assert_file "$SNAP" $'old\n'
	assert_equal "$(ls -A "$BATS_TEST_TMPDIR" | grep -c tmp-)" 0
}

@test "save writes the file its operand names, as -o and --output did; no second" {
	tree
	run -0 --separate-stderr irqaff save
	local want=$output
	run -0 --separate-stderr irqaff save "$SNAP"
	assert_output ""
	assert_file "$SNAP" "$want"$'\n'
	rm "$SNAP"
	run -0 irqaff save -o "$SNAP"
	assert_file "$SNAP" "$want"$'\n'
	rm "$SNAP"
	run -0 irqaff save --output="$SNAP"
	assert_file "$SNAP" "$want"$'\n'
	run -0 irqaff save -
	assert_output "$want"
	run --separate-stderr irqaff save "$SNAP" other
	assert_failure 2
	assert_equal "$stderr" "irqaff: save: unexpected argument other
usage: irqaff save [--only irqs] [--optional[=irqs]] [file]"
	run --separate-stderr irqaff save -o "$SNAP" other
	assert_failure 2
}

@test "save --only writes the header and the selected IRQs' lines, no default" {
	tree 40 50 --irq 9
	irqaff set 41 1
	irqaff default 0-3
	run --separate-stderr irqaff save --only dev:eth0
	assert_success
	assert_equal "$stderr" ""
	assert_output - <<'EOF2'
# irqaff snapshot, 8 CPUs
# IRQ CPUS "NAME"...; see irqaff.conf(5)
40 0-7 "eth0"
41 1 "eth0-TxRx-0"
42 0-7 "eth0-TxRx-1"
43 0-7 "eth0-TxRx-2"
EOF2
	run --separate-stderr irqaff save -o "$SNAP" --only nvme0q1,9
	assert_success
	assert_output ""
	assert_file "$SNAP" '# irqaff snapshot, 8 CPUs
# IRQ CPUS "NAME"...; see irqaff.conf(5)
9 0-7
51 0-7 "nvme0q1"
'
	irqaff set 42 2
	run --separate-stderr bash -c 'irqaff save --only dev:eth0 | irqaff check -'
	assert_success
	assert_output ""
}

@test "save --only with a selector that matches nothing is status 1 and writes nothing" {
	tree
	printf 'old\n' >"$SNAP"
	run --separate-stderr irqaff save -o "$SNAP" --only dev:eth9
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" "irqaff: IRQ list \"dev:eth9\": device eth9 has no IRQs or does not exist"
	assert_file "$SNAP" $'old\n'
	assert_equal "$(ls -A "$BATS_TEST_TMPDIR" | grep -c tmp-)" 0
	run --separate-stderr irqaff save --only ''
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "irqaff: IRQ list \"\": empty item"
}

@test "save writes each queue's XPS and RPS after the IRQs, none for empty" {
	queue_tree
	run --separate-stderr irqaff save
	assert_success
	assert_equal "$stderr" ""
	assert_output - <<'EOF2'
# irqaff snapshot, 4 CPUs
# IRQ CPUS "NAME"...; see irqaff.conf(5)
default 0-3
40 0-3 "eth0"
41 0-3 "eth0-TxRx-0"
42 0-3 "eth0-TxRx-1"
50 0-3 "eth1"
51 0-3 "eth1-TxRx-0"
rps eth0 rx-0 2-3
xps eth0 tx-0 0-3
rps eth0 rx-1 none
xps eth0 tx-1 1
rps eth1 rx-0 3
EOF2
}

@test "save quotes an interface name that cannot be a word, and restore finds it back" {
	# "#" would start a comment; a plain name stays a word
	make_root --cpus 2 --nic 'e#0:1' --nic e1:1 --queues
	printf '1\n' >"$ROOT/sys/class/net/e#0/queues/rx-0/rps_cpus"
	irqaff save "$BATS_TEST_TMPDIR/snap"
	run grep '^rps' "$BATS_TEST_TMPDIR/snap"
	assert_output $'rps "e#0" rx-0 0\nrps e1 rx-0 none'
	printf '0\n' >"$ROOT/sys/class/net/e#0/queues/rx-0/rps_cpus"
	run --separate-stderr -0 irqaff restore -q "$BATS_TEST_TMPDIR/snap"
	assert_file "$ROOT/sys/class/net/e#0/queues/rx-0/rps_cpus" $'1\n'
}

@test "save --optional marks IRQ and queue lines ?: restore passes over an absent device" {
	queue_tree
	irqaff set -q 41 1
	irqaff set -q 51 2
	irqaff default 0-2
	run --separate-stderr irqaff save --optional
	assert_success
	assert_equal "$stderr" ""
	assert_output - <<'EOF2'
# irqaff snapshot, 4 CPUs
# IRQ CPUS "NAME"...; see irqaff.conf(5)
default 0-2
?40 0-3 "eth0"
?41 1 "eth0-TxRx-0"
?42 0-3 "eth0-TxRx-1"
?50 0-3 "eth1"
?51 2 "eth1-TxRx-0"
?rps eth0 rx-0 2-3
?xps eth0 tx-0 0-3
?rps eth0 rx-1 none
?xps eth0 tx-1 1
?rps eth1 rx-0 3
EOF2
	printf '%s\n' "$output" >"$SNAP"
	irqaff save >"$SNAP.plain"
	run -0 irqaff save --optional --only dev:eth1
	assert_output - <<'EOF2'
# irqaff snapshot, 4 CPUs
# IRQ CPUS "NAME"...; see irqaff.conf(5)
?50 0-3 "eth1"
?51 2 "eth1-TxRx-0"
?rps eth1 rx-0 3
EOF2
	# another host, or this one with eth1 gone: eth0 renumbered, no eth1
	make_root --dir "$BATS_TEST_TMPDIR/b" --cpus 4 --nic eth0:2:0:60 \
		--xps eth0:0=0 --xps eth0:1=0 --rps eth0:0=0 --rps eth0:1=0
	export IRQAFF_ROOT=$BATS_TEST_TMPDIR/b
	run --separate-stderr -1 irqaff check "$SNAP"
	run --separate-stderr irqaff restore "$SNAP"
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	assert_file "$(list_of 61)" $'1\n'
	assert_file "$(qfile eth0 tx-1)" $'2\n'
	assert_file "$IRQAFF_ROOT/proc/irq/default_smp_affinity" $'7\n'
	run --separate-stderr irqaff check "$SNAP"
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	# without --optional, eth1's lines fail restore and check
	# (1: what else it gives is in place already)
	run --separate-stderr -1 irqaff restore "$SNAP.plain"
	assert_equal "$stderr" "irqaff: $SNAP.plain:7: \"eth1\" matches no IRQ
irqaff: $SNAP.plain:8: \"eth1-TxRx-0\" matches no IRQ
irqaff: $SNAP.plain:13: rps eth1 rx-0: no such interface"
	run -1 irqaff check "$SNAP.plain"
}

# issue 50: --optional marked every line, so check never noticed a NIC
# that should be there; --optional=IRQS marks those alone.
@test "save --optional=dev:eth1 marks eth1's lines only: a missing eth1 passes, a missing eth0 is noticed" {
	queue_tree
	irqaff set -q 51 2
	run --separate-stderr -0 irqaff save --optional=dev:eth1
	assert_equal "$stderr" ""
	assert_output - <<'EOF2'
# irqaff snapshot, 4 CPUs
# IRQ CPUS "NAME"...; see irqaff.conf(5)
default 0-3
40 0-3 "eth0"
41 0-3 "eth0-TxRx-0"
42 0-3 "eth0-TxRx-1"
?50 0-3 "eth1"
?51 2 "eth1-TxRx-0"
rps eth0 rx-0 2-3
xps eth0 tx-0 0-3
rps eth0 rx-1 none
xps eth0 tx-1 1
?rps eth1 rx-0 3
EOF2
	printf '%s\n' "$output" >"$SNAP"
	run -0 irqaff save --optional=51 --only 50-51
	assert_output $'# irqaff snapshot, 4 CPUs\n# IRQ CPUS "NAME"...; see irqaff.conf(5)\n50 0-3 "eth1"\n?51 2 "eth1-TxRx-0"'
	# eth1 gone: passed over
	make_root --dir "$BATS_TEST_TMPDIR/b" --cpus 4 --nic eth0:2:0:40 \
		--xps eth0:0=0-3 --xps eth0:1=1 --rps eth0:0=2-3
	IRQAFF_ROOT=$BATS_TEST_TMPDIR/b run --separate-stderr -0 irqaff check "$SNAP"
	assert_equal "$stderr" ""
	# eth0 gone: noticed
	make_root --dir "$BATS_TEST_TMPDIR/c" --cpus 4 --nic eth1:1:0:50 \
		--rps eth1:0=3
	irqaff set -q 51 2
	IRQAFF_ROOT=$BATS_TEST_TMPDIR/c run --separate-stderr -1 irqaff check "$SNAP"
	assert_line --index 0 "$SNAP:4: \"eth0\" matches no IRQ"
	# an item that matches nothing, or bad, writes nothing
	run --separate-stderr -1 irqaff save --optional=dev:eth9 "$SNAP.x"
	assert_equal "$stderr" 'irqaff: IRQ list "dev:eth9": device eth9 has no IRQs or does not exist'
	run --separate-stderr -2 irqaff save --optional=x, "$SNAP.x"
	[ ! -e "$SNAP.x" ]
	# "--optional dev:eth1" is not a file named dev:eth1
	run --separate-stderr -2 irqaff save --optional dev:eth1
	assert_equal "$stderr" "irqaff: save: dev:eth1 is IRQs, not a file: --optional=IRQS marks those, ./NAME names a file
usage: irqaff save [--only irqs] [--optional[=irqs]] [file]"
	[ ! -e dev:eth1 ]
	run --separate-stderr -2 irqaff save --optional cpu:3
	assert_equal "$stderr" "irqaff: save: cpu:3 is IRQs, not a file: --optional=IRQS marks those, ./NAME names a file
usage: irqaff save [--only irqs] [--optional[=irqs]] [file]"
	[ ! -e cpu:3 ]
}

@test "save writes queue masks of 64 CPUs as lists" {
	make_root --cpus 64 --nodes 2 --nic eth0:2:0:40 --xps eth0:0=32 \
		--xps eth0:1=0-63 --rps eth0:1=1,33
	assert_file "$(qfile eth0 tx-0)" $'00000001,00000000\n'
	run --separate-stderr irqaff save
	assert_success
	assert_equal "$stderr" ""
	assert_equal "$(grep -v '^[#0-9d]' <<<"$output")" 'rps eth0 rx-0 none
xps eth0 tx-0 32
rps eth0 rx-1 1,33
xps eth0 tx-1 0-63'
}

@test "save --only writes the queues of the interfaces its dev: items name" {
	queue_tree
	run --separate-stderr irqaff save --only dev:eth1,41
	assert_success
	assert_equal "$stderr" ""
	assert_output - <<'EOF2'
# irqaff snapshot, 4 CPUs
# IRQ CPUS "NAME"...; see irqaff.conf(5)
41 0-3 "eth0-TxRx-0"
50 0-3 "eth1"
51 0-3 "eth1-TxRx-0"
rps eth1 rx-0 3
EOF2
	run --separate-stderr irqaff save --only 'eth0*'
	assert_success
	refute_output --partial xps
	refute_output --partial rps
}

@test "a queue mask that cannot be read fails the save and writes nothing" {
	queue_tree
	printf 'old\n' >"$SNAP"
	printf 'zz\n' >"$(qfile eth0 tx-1)"
	run --separate-stderr irqaff save -o "$SNAP"
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" "irqaff: $(qfile eth0 tx-1): \"z\" is not a hex digit"
	assert_file "$SNAP" $'old\n'
}

# The example the package installs in /usr/share/doc/irqaff/examples: what
# save writes on a machine like the README's, kept from going stale.
@test "the packaged example snapshot is what save writes after spread" {
	make_root --cpus 8 --nic eth0:4:0 --nvme nvme0:4:0:40 --managed 40-44 \
		--legacy 16 --queues
	run -0 irqaff spread -q --xps dev:eth0
	run -0 --separate-stderr irqaff save
	assert_equal "$stderr" ""
	assert_output "$(cat "$BATS_TEST_DIRNAME/../../contrib/examples/irqaff.conf")"
	run -0 irqaff check "$BATS_TEST_DIRNAME/../../contrib/examples/irqaff.conf"
	assert_equal "$(cat "$BATS_TEST_DIRNAME/../../debian/examples")" \
		contrib/examples/irqaff.conf
}
