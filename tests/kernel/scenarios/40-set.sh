# boots: amd64-2 amd64-16 arm64-8
# set moves a movable IRQ, and what the kernel reads back is what irqaff
# shows; IRQs user space cannot move are refused with the right words
# (issue 24 item 4).
m=$(movable_irq)
was=$(affinity_list $m)
ok "set $m 1" irqaff set $m 1
expect "the kernel reads back 1 for irq $m" true [ "$(affinity_list $m)" = 1 ]
run irqaff show -n -o AFFINITY $m
squeeze
expect "show $m says what the kernel reads" output "$(affinity_list $m)"
ok "set $m back to $was" irqaff set $m $was
expect "the kernel reads back $was for irq $m" true [ "$(affinity_list $m)" = "$was" ]

# IRQ 0 is the x86 timer: no-balancing, not managed
# (irq_can_set_affinity_usr()).
if grep -q '^ *0:.*timer' /proc/interrupts; then
	was=$(affinity_list 0)
	run irqaff set 0 1
	expect "set 0 exits 1" status 1
	expect "set 0 says IRQ 0 cannot be moved by user space" true grep -q 'cannot be moved by user space' $err
	expect "set 0 does not call IRQ 0 managed" true sh -c "! grep -q managed $err"
	expect "IRQ 0 is unchanged" true [ "$(affinity_list 0)" = "$was" ]
fi

q=$(irqs_named '^nvme[0-9]+q1$' | head -n 1)
if [ -n "$q" ]; then
	was=$(affinity_list $q)
	to=0
	[ "$was" = 0 ] && to=1
	run irqaff set $q $to
	expect "set of managed nvme0q1 (irq $q) exits 1" status 1
	expect "set of nvme0q1 says it cannot be moved by user space" true grep -q 'cannot be moved by user space' $err
	expect "nvme0q1 is unchanged" true [ "$(affinity_list $q)" = "$was" ]
else
	skip "managed set" "no NVMe"
fi

# A deliberate placement away from the driver's hint is no finding
# (issue 24 item 6).
i=
n=$(virtio_net_iface) && v=$(virtio_net_prefix $n) &&
	i=$(irqs_named "^$v-input\\.0\$")
if [ -n "$i" ]; then
	was=$(affinity_list $i)
	# virtio_net hints queue 0 at the first CPUs: the last is away
	to=$(sed 's/.*[-,]//' /sys/devices/system/cpu/online)
	ok "set $i $to, away from its hint" irqaff set $i $to
	# unasked; "explain -v $i" gives its detail, the hint too (-v only)
	run irqaff explain
	expect "explain says nothing of irq $i's hint" no_grep 'hint'
	run irqaff explain -v $i
	expect "explain -v $i gives the hint as detail" grep "^irq $i .*: hint: "
	irqaff set $i $was >/dev/null 2>&1
fi
