# boots: amd64-2 amd64-16 arm64-8
# CPU hotplug (issue 24 items 5, 10, 11). What the kernel does,
# kernel/irq/cpuhotplug.c migrate_one_irq(): a movable IRQ whose requested
# CPUs all go offline is broken to every online CPU and stays so when they
# return; a managed IRQ whose CPUs all go offline is shut down, keeps its
# affinity, and is restarted when one returns. On x86 without interrupt
# remapping a move of an idle vector waits for its next interrupt; if
# its CPUs go offline first, the pending move is dropped
# (irq_fixup_move_pending()) and the IRQ keeps its previous affinity.
c=5
[ -e /sys/devices/system/cpu/cpu$c ] || c=1
online() { cat /sys/devices/system/cpu/online; }
m=$(movable_irq)
was=$(affinity_list $m)
ok "set $m $c" irqaff set $m $c
pending=
[ "$(effective_list $m)" = $c ] || pending=1
run sh -c 'irqaff save > /tmp/snapc'
q=$(for i in $(irqs_named '^nvme[0-9]+q[1-9][0-9]*$'); do
	[ "$(affinity_list $i)" = $c ] && echo $i; done | head -n 1)
state() {
	echo "IRQAFF-# $1: online $(online); irq $m $(affinity_list $m) eff $(effective_list $m); managed irq $q $(affinity_list $q) eff $(effective_list $q)"
}
state "set $m $c${pending:+ (move pending)}"

cpu_online $c 0
state "CPU $c offline"
if [ -n "$pending" ]; then
	expect "kernel: the pending move of irq $m is dropped, it reads $was again" true [ "$(affinity_list $m)" = "$was" ]
else
	expect "kernel: movable irq $m is broken to every online CPU" true [ "$(affinity_list $m)" = "$(online)" ]
fi
expect "kernel: managed irq $q keeps its affinity $c" true [ "$(affinity_list $q)" = $c ]
case $(uname -m) in
x86_64) expect "kernel (x86): shut-down irq $q parks on the first online CPU" true [ "$(effective_list $q)" = 0 ] ;;
esac

broken=$(affinity_list $m)
# x86 parks a shut-down managed IRQ on CPU 0; on arm64 its stale
# effective CPU is the offline one: neither counts.
run irqaff show -n -o IRQ,AFFINITY $m
squeeze
expect "show $m says what the kernel reads" output "$m $(affinity_list $m)"
run irqaff cpus
squeeze
expect "cpus counts no IRQ on offline CPU $c" grep "^$c [^ ]+ offline 0 "
run irqaff explain $q
expect "explain says managed irq $q is shut down" grep 'shut down'
expect "explain does not say the kernel uses its default affinity" no_grep 'default affinity'
expect "explain does not call offline CPU $c a remote node" no_grep 'remote-node'
run irqaff isolate --check $c
expect "isolate --check $c does not name shut-down irq $q" no_grep "irq ${q}[ :]"

cpu_online $c 1
state "CPU $c online"
if [ -z "$pending" ]; then
	expect "kernel: movable irq $m stays broken ($broken) when CPU $c returns" true [ "$(affinity_list $m)" = "$broken" ]
fi
expect "kernel: managed irq $q is restarted on CPU $c" true [ "$(effective_list $q)" = $c ]
run irqaff check /tmp/snapc
expect "check of the snapshot taken before sees the drift" status 1
ok "restore of it is the way back" irqaff restore /tmp/snapc
expect "irq $m reads $c again" true [ "$(affinity_list $m)" = $c ]
run irqaff check /tmp/snapc
expect "check after restore exits 0" status 0
ok "set $m back to $was" irqaff set $m $was
