# bench/quality's guest side, sourced by tests/kernel/init (busybox sh)
# once the drivers are loaded and the interfaces up. From the kernel
# command line: qb_arms (comma-separated, run in that order), qb_win (the
# measuring window, seconds), qb_int (balance's and irqbalance's
# interval), qb_tx (a TX load to start after each arm: RATE a second per
# sender, 0 for none), qb_even (1: start from an even layout). Prints QB-* lines on the console for bench/quality/run.
# shellcheck shell=dash
win=${qb_win:-5}
int=${qb_int:-5}
txrate=${qb_tx:-0}
# Quiet, as balance counts it: at most 9 interrupts in its interval, here
# scaled to the window before the arm.
quiet=$((9 * win / int))
mkdir -p /run/irqbalance
echo "QB-BOOT $(uname -r) cpus=$(cat /sys/devices/system/cpu/online)" \
	"isolated=$(cat /sys/devices/system/cpu/isolated)" \
	"cmdline=$(cat /proc/cmdline)"

# The virtio-net interfaces, whose receive queues the host loads.
nics=
for n in /sys/class/net/*; do
	case $(readlink -f "$n/device/driver") in
	*/virtio_net) nics="$nics ${n##*/}" ;;
	esac
done
echo "QB-NICS$nics"

# A TX sender on CPUs 0 and 4 (XPS gives each one queue) of each NIC.
tx_start() {
	txpids=
	[ "$txrate" != 0 ] || return 0
	for n in $nics; do
		for c in 0 4; do
			qbstat tx $((win * 3 + int * 2 + 5)) "$txrate" $c "$n" &
			txpids="$txpids $!"
		done
	done
}

tx_stop() {
	for p in $txpids; do kill "$p" 2>/dev/null; done
	for p in $txpids; do wait "$p" 2>/dev/null; done
	txpids=
}

# even: each virtio rx/tx pair on a CPU of its own, queue Q of the NIC on
# node 1 on CPU 4+Q, of the other on CPU Q, so that the CPUs start even
# and the first run has no gain to make. The boot's layout may not be.
if [ "${qb_even:-0}" = 1 ]; then
	sed -n 's/^ *\([0-9]*\):.* virtio[0-9]*-[inout]*put\.\([0-9]*\).*/\1 \2/p' \
	    /proc/interrupts |
	while read -r n q; do
		base=0
		[ "$(cat "/proc/irq/$n/node")" = 1 ] && base=4
		echo $((base + q)) >"/proc/irq/$n/smp_affinity_list"
	done
	sleep 1
fi

# The boot's layout: the requested CPUs (save), and the effective CPU of
# each IRQ.
irqaff save >/tmp/boot.snap
for q in /proc/irq/[0-9]*; do
	echo "${q##*/} $(cat "$q/effective_affinity_list")"
done >/tmp/boot.eff

# restore puts back the requested CPUs, but the x86 vector allocator keeps
# an IRQ on its current CPU when the new list holds it
# (assign_vector_locked()): an arm would leave its choices behind. Each
# IRQ goes first to its boot CPU alone, then back to its boot list.
reset() {
	while read -r n c; do
		echo "$c" >"/proc/irq/$n/smp_affinity_list"
	done </tmp/boot.eff 2>/dev/null
	irqaff restore -q /tmp/boot.snap >/tmp/restore.out 2>&1 ||
		echo "QB-ERR restore exited $?:" \
			"$(tr '\n' ' ' </tmp/restore.out | cut -c1-300)"
}

# Let the host's load reach every queue before the first window.
sleep 2
for a in $(echo "${qb_arms:-none,spread,balance,irqbalance}" | tr , ' '); do
	reset
	sleep 1
	qbstat measure "$win" "$a before" /tmp/c0
	qbstat affs >/tmp/a0
	qbstat time "$a" /bench/arm.sh "$a" "$int" /tmp/arm.out
	head -n 80 /tmp/arm.out | sed "s/^/QB-OUT $a /"
	# what the first run wrote, the quiet IRQs among them, split pairs
	qbstat affs >/tmp/a01
	qbstat written "$a" "$quiet" /tmp/c0 /tmp/a0 /tmp/a01
	diff /tmp/a0 /tmp/a01 | sed -n "s/^\([-+][0-9]\)/QB-WRITE $a \1/p"
	qbstat pairs "$a"
	tx_start
	qbstat measure "$win" "$a after"
	qbstat affs >/tmp/a1
	qbstat time "$a again" /bench/arm.sh "$a" "$int"
	qbstat affs >/tmp/a2
	echo "QB-MOVED $a $(diff /tmp/a1 /tmp/a2 | grep -c '^+[0-9]')"
	diff /tmp/a1 /tmp/a2 | sed -n "s/^\([-+][0-9]\)/QB-MOVE $a \1/p"
	# With TX started, the second run answered a new load; a third, on
	# the same load as the second, shows whether it settles.
	if [ "$txrate" != 0 ]; then
		qbstat time "$a third" /bench/arm.sh "$a" "$int"
		qbstat affs >/tmp/a3
		echo "QB-MOVED3 $a $(diff /tmp/a2 /tmp/a3 | grep -c '^+[0-9]')"
	fi
	tx_stop
	qbstat affs | sed "s/^/QB-AFF $a /"
done
echo "QB-END"
