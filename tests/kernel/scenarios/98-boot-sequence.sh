# boots: amd64-16
# One model over time (issue 48): the saved layout and the isolation
# agree through a boot (restore, then isolate --again), an interface
# bounce through the hook's restore --only, and a CPU offline and online
# through the hotplug hook's restore and isolate --again.
n=$(virtio_net_iface) || { skip "boot-sequence" "no virtio-net interface"; return 0; }
conf=/tmp/irqaff-boot.conf
ok "spread --xps dev:$n" irqaff spread -q --xps dev:$n
ok "save $conf" irqaff save $conf
ok "isolate 14-15" irqaff isolate -q 14-15
# as after a boot: virtio_net spreads its queues again at a CPU hotplug
cpu_online 3 0
cpu_online 3 1
ok "restore $conf, as the boot unit" irqaff restore -q $conf
ok "isolate --again, as the isolation unit" irqaff isolate -q --again
run irqaff isolate --check --accept 14-15
expect "after the boot units, isolate --check --accept 14-15 passes" status 0
run irqaff check -q $conf
expect "after the boot units, check finds no drift" status 0
ip link set $n down
ip link set $n up
ok "restore --only dev:$n, as the interface hook" irqaff restore -q --only dev:$n $conf
run irqaff isolate --check --accept 14-15
expect "after an interface bounce, isolate --check --accept 14-15 passes" status 0
cpu_online 5 0
cpu_online 5 1
ok "restore $conf, as the hotplug hook" irqaff restore -q $conf
ok "isolate --again, as the hotplug hook" irqaff isolate -q --again
run irqaff isolate --check --accept 14-15
expect "after a CPU offline and online, isolate --check --accept 14-15 passes" status 0
run irqaff check -q $conf
expect "after a CPU offline and online, check finds no drift" status 0
ok "isolate --undo" irqaff isolate --undo
ok "restore $conf after --undo" irqaff restore -q $conf
expect "nothing is remembered after --undo" true [ ! -e /var/lib/irqaff/isolated ]
run irqaff isolate --check 14-15
expect "the saved layout gives CPUs 14-15 their IRQs back" status 1
