# boots: all
# A snapshot of the untouched machine, with its managed IRQs, checks
# clean, and restoring it changes nothing check can see; a snapshot that
# sends every IRQ to CPU 0 leaves the managed ones to the kernel, and
# check then agrees (issue 24 item 3).
irqs_named '^nvme[0-9]+q[1-9]' | grep -q . ||
	skip "managed IRQs" "no NVMe queues on this machine"
run sh -c 'irqaff save | irqaff check -'
expect "save | check - exits 0" status 0
expect "save | check - prints nothing on stderr" no_stderr
run sh -c 'irqaff save > /tmp/snap'
expect "save > F exits 0" status 0
expect "the snapshot names the NVMe queues" true grep -q '"nvme0q1"' /tmp/snap
run irqaff restore /tmp/snap
expect "restore F exits 0" status 0
# the default affinity names every possible CPU: offline ones are noted
off=$(cat /sys/devices/system/cpu/offline)
if [ -z "$off" ]; then
	expect "restore F prints nothing on stderr" no_stderr
else
	expect "restore F notes only the offline CPUs $off" stderr \
		"irqaff: note: CPU $off are offline"
fi
run irqaff check /tmp/snap
expect "check F after restore F exits 0" status 0
expect "check F after restore F prints nothing" output ""

q=$(irqs_named '^nvme[0-9]+q1$')
c=0
[ "$(affinity_list $q)" = 0 ] && c=1
echo "* $c" >/tmp/all0
run irqaff restore -n /tmp/all0
expect "restore -n of '* $c' plans no move of managed nvme0q1 (irq $q)" no_grep "^irq $q: .* -> "
run irqaff restore /tmp/all0
expect "restore of '* $c' exits 0" status 0
run irqaff check /tmp/all0
expect "check of '* $c' after restoring it exits 0" status 0
irqaff restore /tmp/snap >/dev/null 2>&1
