# boots: all
# Debian's kernel has no irq debugfs: MANAGED must still read yes for
# every NVMe and virtio-blk queue (the kernel refuses user writes to
# them, write_irq_affinity() in kernel/irq/proc.c) and no for
# virtio-net's input and output IRQs, which user space may move
# (issue 24 item 3).
run irqaff show -n -o IRQ,NAME,MANAGED
expect "show -o IRQ,NAME,MANAGED exits 0" status 0
squeeze
blk=
for d in /sys/block/vd*; do
	[ -e "$d" ] && blk="$blk $(readlink $d/device | sed 's|.*/||')"
done
for i in $(irqs_named '^nvme[0-9]+q[1-9][0-9]*$'); do
	expect "nvme queue irq $i is managed" grep "^$i [^ ]* yes$"
done
for v in $blk; do
	for i in $(irqs_named "^$v-req\\.[0-9]+\$"); do
		expect "virtio-blk queue irq $i is managed" grep "^$i [^ ]* yes$"
	done
done
n=$(virtio_net_iface) && v=$(virtio_net_prefix $n)
if [ -n "$v" ]; then
	for i in $(irqs_named "^$v-(input|output)\\.[0-9]+\$"); do
		expect "virtio-net irq $i is not managed" grep "^$i [^ ]* no$"
	done
else
	skip "virtio-net" "no virtio-net interface"
fi

# One rule for managed IRQs: explain -v says managed of every IRQ show
# calls managed (issue 36 item 6).
run irqaff explain -v
for i in $(irqs_named '^nvme[0-9]+q[1-9][0-9]*$'); do
	expect "explain -v says irq $i is managed" grep "^irq $i [^ ]+: managed: "
done
