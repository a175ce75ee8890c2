# boots: amd64-16 arm64-8
# A user-set affinity survives interface down/up while the vectors exist
# (6.1 keeps it, IRQD_AFFINITY_SET): what irqaff(8) says (issue 24
# item 12).
n=$(virtio_net_iface) || { skip "ifdown" "no virtio-net interface"; return 0; }
v=$(virtio_net_prefix $n)
i=$(irqs_named "^$v-input\\.0\$")
ok "set $i 2" irqaff set $i 2
ip link set $n down
ip link set $n up
expect "kernel: irq $i keeps 2 across down/up" true [ "$(affinity_list $i)" = 2 ]
