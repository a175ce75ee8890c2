# boots: arm64-8
# GICv3 with ITS: moves take effect at once, delivery is not x86's; the
# per-CPU arch_timer and arm-pmu IRQs are not kernel-managed (issue 24
# item 11).
run irqaff explain -v
expect "explain -v says nothing of x86" no_grep 'x86'
expect "explain -v says no move waits for the next interrupt" no_grep 'waits for the next interrupt'
run irqaff show -n -o IRQ,NAME,MANAGED
squeeze
for i in $(irqs_named '^(arch_timer|arm-pmu)$'); do
	expect "per-CPU irq $i is not called managed" no_grep "^$i [^ ]* yes$"
done
m=$(movable_irq)
was=$(affinity_list $m)
irqaff set $m 3 >/dev/null 2>&1
expect "kernel: a move on GICv3 takes effect at once" true [ "$(effective_list $m)" = 3 ]
irqaff set $m $was >/dev/null 2>&1
