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
run irqaff restore -q $conf
expect "restore $conf, as the boot unit" status 0
expect "restore leaves CPUs 14-15 out, and says so once" true \
	grep -q '^irqaff: note: CPU 14-15 isolated by irqaff isolate: left out of [0-9]* lines of /tmp/irqaff-boot.conf' "$err"
ok "isolate --again, as the isolation unit" irqaff isolate -q --again
run irqaff isolate --check --accept 14-15
expect "after the boot units, isolate --check --accept 14-15 passes" status 0
run irqaff check -q $conf
expect "after the boot units, check finds no drift" status 0
ip link set $n down
ip link set $n up
run irqaff restore -q --only dev:$n $conf
expect "restore --only dev:$n, as the interface hook" status 0
run irqaff isolate --check --accept 14-15
expect "after an interface bounce, isolate --check --accept 14-15 passes" status 0
cpu_online 5 0
cpu_online 5 1
run irqaff restore -q $conf
expect "restore $conf, as the hotplug hook" status 0
ok "isolate --again, as the hotplug hook" irqaff isolate -q --again
run irqaff isolate --check --accept 14-15
expect "after a CPU offline and online, isolate --check --accept 14-15 passes" status 0
run irqaff check -q $conf
expect "after a CPU offline and online, check finds no drift" status 0
run irqaff isolate --undo
expect "isolate --undo says what it forgets" stderr "irqaff: isolate --undo: CPU 14-15 forgotten: set, spread, balance, default and restore use them again; no IRQ moved back (restore a snapshot for that)"
ok "restore $conf after --undo" irqaff restore -q $conf
expect "nothing is remembered after --undo" true [ ! -e /var/lib/irqaff/isolated ]
run irqaff isolate --check 14-15
expect "the saved layout gives CPUs 14-15 their IRQs back" status 1
