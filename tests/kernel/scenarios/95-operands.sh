# boots: amd64-16
# Several IRQ-list operands are one union; TOTAL means the same in
# show -a and show N for an IRQ with no row in /proc/interrupts (issue 24
# item 10).
run irqaff explain -v nvme0q1 nvme0q2
expect "explain takes two IRQ-list operands" status 0
i=
for d in /proc/irq/[0-9]*; do
	grep -q "^ *${d##*/}:" /proc/interrupts || { i=${d##*/}; break; }
done
run irqaff show -n -o IRQ,TOTAL $i
squeeze
t=$(cat $out)
run irqaff show -a -n -o IRQ,TOTAL
squeeze
expect "show -a and show $i agree on TOTAL of irq $i (no row): $t" line "$t"
