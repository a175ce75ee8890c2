# boots: amd64-16 arm64-8
# What irqaff(8) must say (issue 24 item 12): a user-set affinity
# survives interface down/up while the vectors exist (6.1 keeps it,
# IRQD_AFFINITY_SET); virtio_net spreads its IRQs again at every CPU
# hotplug (virtnet_cpu_online() and virtnet_cpu_dead() call
# virtnet_set_affinity()), and so loses the user's.
n=$(virtio_net_iface) || { skip "ifdown" "no virtio-net interface"; return 0; }
v=$(virtio_net_prefix $n)
i=$(irqs_named "^$v-input\\.0\$")
was=$(affinity_list $i)
ok "set $i 2" irqaff set $i 2
ip link set $n down
ip link set $n up
expect "kernel: irq $i keeps 2 across down/up" true [ "$(affinity_list $i)" = 2 ]
cpu_online 3 0
cpu_online 3 1
hint=$(irqaff list "$(cat /proc/irq/$i/affinity_hint)")
expect "kernel: virtio_net spreads irq $i again at CPU hotplug, to its hint $hint" true [ "$(affinity_list $i)" = "$hint" ]
irqaff set $i $was >/dev/null 2>&1
