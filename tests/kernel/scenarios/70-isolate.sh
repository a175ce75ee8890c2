# boots: amd64-16 amd64-16-iso
# isolate --check counts an IRQ whose requested or effective CPUs meet
# the set, not only where it last fired (issue 24 item 8).
m=$(movable_irq)
was=$(affinity_list $m)
ok "set $m 15 (an idle vector)" irqaff set -q $m 15
run irqaff isolate --check 15
expect "isolate --check 15 fails" status 1
expect "isolate --check 15 names irq $m, requested there" grep "irq ${m}[ :]"
irqaff set $m $was >/dev/null 2>&1

iso=$(cat /sys/devices/system/cpu/isolated)
# 5.10 is built without NO_HZ_FULL: no nohz_full file, nohz_full= ignored
why="isolcpus=, nohz_full="
case $(uname -r) in
5.10.*)
	expect "kernel (5.10): no nohz_full file" true \
		[ ! -e /sys/devices/system/cpu/nohz_full ]
	why="isolcpus=" ;;
esac
if [ -n "$iso" ]; then
	# set onto isolated CPUs writes, and says so (issue 27)
	run irqaff set -n $m $iso
	expect "set -n $m $iso passes" status 0
	expect "set -n $m $iso warns that CPU $iso is isolated" stderr "irqaff: warning: CPU $iso are isolated ($why): IRQs there interrupt the tasks isolated on them"
	# node:1 (8-15) does not name them: spread leaves them out, says so
	run irqaff spread -n -c node:1 $m
	expect "spread -n -c node:1 $m passes" status 0
	expect "spread -n -c node:1 $m puts it on CPU 8" grep ": 8\$"
	expect "spread -n -c node:1 says $iso left out" stderr "irqaff: spreading 1 IRQ over CPU 8-11: node:1 as asked, $iso isolated ($why) left out"
	# isolcpus=managed_irq keeps managed queues whose only CPU is
	# isolated there; they fire only for I/O issued on that CPU.
	ok "isolate $iso" irqaff isolate -q $iso
	# an idle vector moved off them waits for its next interrupt on x86
	# without interrupt remapping: a pending move, which --accept takes
	run irqaff isolate --check --accept $iso
	expect "isolate --check --accept $iso passes after isolate, managed_irq covering the NVMe queues" status 0
	expect "isolate --check calls no pending move movable" no_grep 'movable, on CPU'
	run irqaff isolate --check $iso
	expect "isolate --check $iso calls the NVMe queues managed, kept there" grep "managed, kept on isolated CPU"
fi
