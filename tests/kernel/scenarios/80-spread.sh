# boots: amd64-16 arm64-8
# spread over virtio_net or e1000e keeps rx-N and tx-N of a queue pair on
# one CPU, as virtio_net does (virtnet_set_affinity()), and leaves the
# config or "other" IRQ out of the round robin (issue 24 item 9).
pair() {	# WHAT RX TX
	expect "$1: rx (irq $2) and tx (irq $3) share a CPU" true [ "$(affinity_list $2)" = "$(affinity_list $3)" ]
}
if n=$(virtio_net_iface); then
	v=$(virtio_net_prefix $n)
	c=$(irqs_named "^$v-config\$")
	cwas=$(affinity_list $c)
	ok "spread dev:$n" irqaff spread -q dev:$n
	for i in $(irqs_named "^$v-input\\.[0-9]+\$"); do
		k=$(awk -v i="$i:" '$1 == i { print $NF }' /proc/interrupts)
		o=$(irqs_named "^$v-output\\.${k#*.}\$")
		pair "$n queue ${k#*.}" $i "$o"
	done
	expect "$n's config IRQ $c is left alone" true [ "$(affinity_list $c)" = "$cwas" ]
	# a move just asked for is not a problem (issue 50 item 2)
	ok "spread --xps dev:$n" irqaff spread -q --xps dev:$n
	run irqaff explain
	expect "explain after spread --xps dev:$n exits 0" status 0
	expect "explain after spread --xps dev:$n prints nothing" output ''
	expect "explain after spread --xps dev:$n warns of nothing" no_stderr
else
	skip "spread virtio-net" "no virtio-net interface"
fi
if n=$(iface_of e1000e); then
	o=$(irqs_named "^$n\$")
	owas=$(affinity_list $o)
	ok "spread dev:$n" irqaff spread -q dev:$n
	rx=$(irqs_named "^$n-rx-0\$")
	tx=$(irqs_named "^$n-tx-0\$")
	pair "$n queue 0" "$rx" "$tx"
	expect "$n's other IRQ $o is left alone" true [ "$(affinity_list $o)" = "$owas" ]
fi
