# boots: amd64-16 arm64-8
# The man pages' jq examples, taken from man/*.scd as printed, give the
# answers explain and show give on a whole booted machine (issue 50):
# the IRQs off their node are explain's remote-node ones, an IRQ
# requested on the wrong node counting before it moves, one moved back
# home counting no more while its move waits, a device on no node (-1)
# never; set -J's count of changes is the IRQs not yet on the CPUs.
command -v jq >/dev/null || { skip "jq examples" "no jq in the guest"; return 0; }
d=/tmp/jq
rm -rf $d && mkdir -p $d
# Each "irqaff ... | jq" of a code block, its quoted lines joined, into
# $d/ex.N, in the pages' order.
awk -v sq="'" -v dir=$d '
	function quotes(s) { return gsub(sq, sq, s) }
	/^```/ { on = !on; open = 0; next }
	!on { next }
	open { cmd = cmd "\n" $0; if (quotes($0) % 2) { open = 0; emit() }; next }
	/^irqaff .*\| *jq / { cmd = $0; if (quotes($0) % 2) open = 1; else emit() }
	function emit() { f = dir "/ex." ++n; print cmd > f; close(f) }
	' /man/*.scd
n=0
while [ -e $d/ex.$((n + 1)) ]; do n=$((n + 1)); done
expect "the man pages have 3 jq examples" true [ "$n" = 3 ]

# IRQ numbers of explain's remote-node findings for SEL, one a line.
remote() {	# SEL
	irqaff explain "$1" | awk '/^irq [0-9]+ .*: remote-node: / { print $2 }' |
		sort -n | uniq
}
# The IRQ numbers of an off-node example's answer ("32 eth0-TxRx-7").
numbers() { awk '{ print $1 }' $out | sort -n | uniq; }
# off_node WHAT EXAMPLE SEL [IRQ...]: its answer for SEL is explain's.
# Both run, and each IRQ's state goes to $d/waits, before anything is
# printed: printing fires ttyS0, whose waiting move then applies.
off_node() {
	desc=$1 ex=$2 sel=$3
	shift 3
	sed "s/dev:eth0/$sel/" $ex >$d/cmd
	run sh $d/cmd
	numbers >$d/jq
	remote "$sel" >$d/explain
	: >$d/waits
	for m in "$@"; do echo "$m $(waits $m)" >>$d/waits; done
	expect "$desc: the example exits 0" status 0
	expect "$desc: its IRQs are explain's remote-node ones ($(tr '\n' ' ' <$d/explain))" \
		true cmp -s $d/jq $d/explain || { echo "IRQAFF-# jq:"; sed 's/^/IRQAFF-#   /' $d/jq; }
}
# Whether IRQ N's last move waits for its next interrupt, in words.
waits() {	# N
	case $(irqaff show -n -o pending $1) in
	yes) echo "its move waits" ;;
	*) echo "runs there" ;;
	esac
}
# The first CPU of a node other than NODE.
other_cpu() {	# NODE
	for f in /sys/devices/system/node/node[0-9]*; do
		[ "${f##*node}" = "$1" ] && continue
		sed 's/[-,].*//' $f/cpulist
		return 0
	done
	return 1
}

irqaff save >$d/before
i=0
while [ $i -lt $n ]; do
	i=$((i + 1)) f=$d/ex.$i
	case $(cat $f) in
	"irqaff set -J "*"| jq '.changed | length'")
		sel=$(awk '{ print $4 }' $f) cpus=$(awk '{ print $5 }' $f)
		if ! irqaff show -n $sel >/dev/null 2>&1; then
			skip "example $i (set)" "no $sel here"
			continue
		fi
		want=$(irqaff show -n -o affinity,movable $sel |
			awk -v t=$cpus '$2 == "yes" && $1 != t' | wc -l)
		run sh $f
		expect "example $i: set -J $sel $cpus | jq counts $want changed" output "$want"
		# the moves just asked for are no problem
		run irqaff explain
		expect "example $i: then explain says nothing" output ''
		expect "example $i: and exits 0" status 0
		;;
	*effective_nodes*)
		# the machine as booted, then with moves off the node
		off_node "example $i (off their node), as booted" $f all
		moved=
		for m in $(irqs_named '^(nvme0q0|ttyS0|uart-pl011|virtio0-config)$'); do
			nd=$(cat /proc/irq/$m/node)
			[ "$nd" -ge 0 ] 2>/dev/null || continue
			[ "$(irqaff show -n -o movable $m)" = yes ] || continue
			c=$(other_cpu $nd) || continue
			irqaff set -q $m $c >/dev/null && moved="$moved $m"
		done
		if [ -z "$moved" ]; then
			skip "example $i (off their node)" "no movable IRQ with a node"
			continue
		fi
		# ttyS0 fires as this prints: its move applies, nvme0q0's waits
		echo "IRQAFF-# moved IRQs$moved off their node"
		sleep 1
		off_node "example $i, IRQs$moved requested off their node" $f all $moved
		while read -r m w; do
			expect "example $i: IRQ $m, requested off its node ($w), is listed" true grep -qx "$m" $d/jq
		done <$d/waits
		# home again: ttyS0, silent since the output drained, still
		# runs off its node until it next fires
		sleep 1
		for m in $moved; do
			irqaff set -q $m "node:$(cat /proc/irq/$m/node)" >/dev/null
		done
		off_node "example $i, IRQs$moved moved back home" $f all $moved
		while read -r m w; do
			expect "example $i: IRQ $m, back home ($w), is not listed" true [ -z "$(grep -x "$m" $d/jq)" ]
		done <$d/waits
		# as printed: eth0 here has no node, none of its IRQs counts
		en=$(irqaff show -n -o node dev:eth0 2>/dev/null | sort -u)
		if [ "$en" = -1 ]; then
			irqaff spread -q --xps dev:eth0 >/dev/null
			off_node "example $i as printed, eth0 on no node" $f dev:eth0
			expect "example $i: no IRQ of eth0 is listed" true [ ! -s $d/jq ]
		fi
		;;
	*)
		expect "example $i has a comparison here: $(head -n 1 $f)" true false
		;;
	esac
done
irqaff restore -q $d/before >/dev/null
