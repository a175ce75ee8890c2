# Assertions for the scenarios (busybox sh). Each check prints one line
#   IRQAFF-RESULT pass|fail|skip|xfail|xpass SCENARIO DESCRIPTION
# and, when it fails, the command with its exit status, stdout and stderr
# as IRQAFF-# lines, which tests/kernel/run turns into TAP.
#
#   run irqaff show            run a command: $status, $out, $err (files)
#   expect "what" status 0     the last run's exit status
#   expect "what" no_stderr    nothing on its stderr
#   expect "what" stderr TEXT  its stderr is exactly TEXT
#   expect "what" line TEXT    one line of its stdout is exactly TEXT
#   expect "what" no_line TEXT no line of its stdout is exactly TEXT
#   expect "what" output TEXT  its stdout is exactly TEXT
#   expect "what" grep RE      a line of its stdout matches RE (grep -E)
#   expect "what" no_grep RE   no line of its stdout matches RE
#   expect "what" true CMD...  CMD succeeds (a shell test about the machine)
#   ok "what" CMD...           run CMD: exit 0, nothing on stderr
#   skip "what" "why"
#   known_failing "issue 24 item N"   the checks after it are expected
#   known_failing                     to fail (TODO) / no longer
# A scenario's header says where it runs and whether all of it is known
# to fail:
#   # boots: amd64-16 arm64-8       (or: all)
#   # known-failing: issue 24 item 3

out=/tmp/out err=/tmp/err status=0 cmdline='' KNOWN='' SCENARIO=''

begin_scenario() {	# FILE
	SCENARIO=${1##*/}
	SCENARIO=${SCENARIO%.sh}
	KNOWN=$(sed -n 's/^# known-failing: //p' "$1" | head -n 1)
}

known_failing() { KNOWN=$*; }

result() {	# pass|fail|skip TEXT
	s=$1
	if [ -n "$KNOWN" ]; then
		case $s in
		pass) s=xpass ;;
		fail) s=xfail ;;
		esac
	fi
	t=$2
	[ -n "$KNOWN" ] && [ "$s" != skip ] && t="$t (known-failing: $KNOWN)"
	echo "IRQAFF-RESULT $s $SCENARIO $t"
}

show_last() {
	echo "IRQAFF-# \$ $cmdline"
	echo "IRQAFF-# exit $status"
	sed -n '1,60s/^/IRQAFF-# out: /p' $out
	sed -n '1,30s/^/IRQAFF-# err: /p' $err
}

# 6.1 prints "(null)", padded to the CPU count, in nohz_full where no CPU
# is nohz_full, and irqaff warns of it (issue 24 item 1, tested in
# 10-basic): run drops that warning unless RAW_STDERR is set, so that the
# other scenarios test their own subject.
RAW_STDERR=
run() {
	cmdline=$*
	"$@" >$out 2>$err
	status=$?
	if [ -z "$RAW_STDERR" ] && grep -q 'nohz_full: region "(null)"' $err; then
		grep -v 'nohz_full: region "(null)"' $err >$err.f
		mv $err.f $err
	fi
}

expect() {	# WHAT KIND [ARG...]
	what=$1 kind=$2
	shift 2
	case $kind in
	status) [ "$status" = "$1" ] ;;
	no_stderr) [ ! -s $err ] ;;
	stderr) [ "$(cat $err)" = "$1" ] ;;
	line) grep -qxF -e "$1" $out ;;
	no_line) ! grep -qxF -e "$1" $out ;;
	output) [ "$(cat $out)" = "$1" ] ;;
	grep) grep -qE -e "$1" $out ;;
	no_grep) ! grep -qE -e "$1" $out ;;
	true) "$@" ;;
	*) echo "IRQAFF-# expect: unknown kind $kind"; false ;;
	esac
	# shellcheck disable=SC2181
	if [ $? = 0 ]; then
		result pass "$what"
	else
		result fail "$what"
		case $kind in
		status|no_stderr|stderr|line|no_line|output|grep|no_grep)
			echo "IRQAFF-# expected $kind${1:+: $1}"
			show_last ;;
		true) echo "IRQAFF-# false: $*" ;;
		esac
		return 1
	fi
}

ok() {	# WHAT CMD...
	what=$1
	shift
	run "$@"
	if [ $status = 0 ] && [ ! -s $err ]; then
		result pass "$what"
	else
		result fail "$what"
		echo "IRQAFF-# expected exit 0 and no stderr"
		show_last
		return 1
	fi
}

skip() { echo "IRQAFF-RESULT skip $SCENARIO $1: $2"; }

# IRQ numbers whose /proc/interrupts name (last field) matches RE.
irqs_named() {	# RE
	awk -v re="$1" '$1 ~ /^[0-9]+:$/ && $NF ~ re { sub(":", "", $1); print $1 }' \
		/proc/interrupts
}

# The kernel's own view of IRQ N.
affinity_list() { cat /proc/irq/$1/smp_affinity_list; }
effective_list() { cat /proc/irq/$1/effective_affinity_list; }

# The first network interface whose driver is DRIVER.
iface_of() {	# DRIVER
	for n in /sys/class/net/*; do
		[ "$(readlink $n/device/driver 2>/dev/null | sed 's|.*/||')" = "$1" ] &&
			{ echo ${n##*/}; return 0; }
	done
	return 1
}

# virtio_net's interface: its device is virtioN under the PCI function.
virtio_net_iface() {
	for n in /sys/class/net/*; do
		[ "$(readlink $n/device/driver 2>/dev/null | sed 's|.*/||')" = virtio_net ] &&
			{ echo ${n##*/}; return 0; }
	done
	return 1
}

cpu_online() {	# N 0|1
	echo "$2" > /sys/devices/system/cpu/cpu$1/online
}

# The last run's stdout with runs of blanks made one space, leading ones
# dropped: table rows as "40 nvme0q1 yes".
squeeze() {
	sed 's/[[:space:]][[:space:]]*/ /g; s/^ //; s/ $//' $out >$out.sq
	mv $out.sq $out
}

# A movable IRQ no driver moves at CPU hotplug: the first virtio config
# IRQ (virtio_net re-spreads its queue IRQs at every hotplug).
movable_irq() { irqs_named '^virtio[0-9]+-config$' | head -n 1; }

# The interface virtio_net drives, and its IRQs' virtioN prefix.
virtio_net_prefix() {
	v=$(readlink /sys/class/net/$1/device 2>/dev/null) || return 1
	echo ${v##*/}
}
