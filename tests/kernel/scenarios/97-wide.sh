# boots: amd64-wide
# 4 CPUs online of 240 possible: every mask is 8 words, the first of 16
# bits, as the kernel prints and parses them ("%*pb", bitmap_parse()), and NVMe spreads
# its managed queues over possible CPUs, most of them never present: the
# kernel shuts those queues down and x86 parks their vectors on CPU 0.
p=$(cat /sys/devices/system/cpu/possible)
expect "kernel: 240 possible CPUs" true [ "$p" = 0-239 ]
expect "kernel: a mask is 8 words" true \
	[ "$(awk -F, '{ print NF }' /proc/irq/default_smp_affinity)" = 8 ]

# show -m prints each IRQ's mask as the kernel does.
run irqaff show -n -m -o IRQ,AFFINITY
squeeze
bad=0
while read -r irq mask; do
	[ "$mask" = "$(cat /proc/irq/$irq/smp_affinity)" ] || {
		echo "IRQAFF-# irq $irq: show -m $mask, kernel $(cat /proc/irq/$irq/smp_affinity)"
		bad=$((bad + 1))
	}
done <$out
expect "show -m exits 0" status 0
expect "show -m prints every IRQ's mask as the kernel reads it" true [ $bad = 0 ]

m=$(movable_irq)
was=$(affinity_list $m)
ok "set $m 2-3" irqaff set $m 2-3
expect "the kernel reads back the 8-word mask of 2-3" true \
	[ "$(cat /proc/irq/$m/smp_affinity)" = 0000,00000000,00000000,00000000,00000000,00000000,00000000,0000000c ]
ok "set -m $m 00000000,...,00000002" irqaff set -m $m \
	00000000,00000000,00000000,00000000,00000000,00000000,00000000,00000002
expect "the kernel reads back 1" true [ "$(affinity_list $m)" = 1 ]
run irqaff set $m 200-239
expect "set of never-present CPUs only exits 2" status 2
expect "irq $m is unchanged" true [ "$(affinity_list $m)" = 1 ]
ok "set $m back to $was" irqaff set $m "$was"

d=$(cat /proc/irq/default_smp_affinity)
run irqaff default -m
expect "default -m prints the kernel's mask" output "$d"
ok "default 0-3" irqaff default 0-3
expect "the kernel's default reads 0-3 in 8 words" true \
	[ "$(cat /proc/irq/default_smp_affinity)" = 0000,00000000,00000000,00000000,00000000,00000000,00000000,0000000f ]
run irqaff default -m "$d"
expect "default -m back to $d exits 0" status 0
expect "default -m $d notes the CPUs never present as offline" stderr \
	"irqaff: note: CPU 4-239 are offline"
expect "the kernel's default is back" true [ "$(cat /proc/irq/default_smp_affinity)" = "$d" ]

run sh -c 'irqaff save > /tmp/wide.snap'
expect "save exits 0" status 0
run irqaff check /tmp/wide.snap
expect "check of the fresh snapshot exits 0" status 0
expect "check prints nothing" output ""
run irqaff restore /tmp/wide.snap
expect "restore exits 0" status 0
expect "restore notes only the CPUs never present" stderr \
	"irqaff: note: CPU 4-239 are offline"

# The parked queues: requested CPUs none online, effective CPU 0.
parked=0
for q in $(irqs_named '^nvme[0-9]+q[1-9]'); do
	case $(affinity_list $q) in
	0|0-*|[1-3]|[1-3]-*|[1-3],*|0,*) ;;
	*) [ "$(effective_list $q)" = 0 ] && parked=$((parked + 1)) ;;
	esac
done
expect "kernel: NVMe queues of never-present CPUs read effective CPU 0" true [ $parked -gt 0 ]
run irqaff show -n -o IRQ cpu:0
squeeze
bad=0
while read -r q; do
	case $(affinity_list $q) in
	0|0-*|0,*) ;;
	*) irqs_named '^nvme[0-9]+q[1-9]' | grep -qx "$q" && bad=$((bad + 1)) ;;
	esac
done <$out
expect "show cpu:0 exits 0" status 0
expect "show cpu:0 lists no parked managed queue" true [ $bad = 0 ]
run irqaff cpus -n -o CPU,IRQS
squeeze
n0=$(awk '$1 == 0 { print $2 }' $out)
expect "cpus counts no parked queue on CPU 0" true [ "$n0" -lt "$parked" ]
