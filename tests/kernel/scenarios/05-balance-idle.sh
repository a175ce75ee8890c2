# boots: amd64-16 amd64-16-iso
# irqaff-balance.service's command, run as its timer runs it, on the
# freshly booted idle guest (first of the scenarios): each of 10 runs
# says there is no IRQ to move and writes no affinity, the first too
# (issue 47); on amd64-16-iso it leaves the isolated CPUs out, silently
# (-q). The interval is 1 s, as IRQAFF_BALANCE_INTERVAL=1 in
# /etc/default/irqaff sets it, to keep the boot short (the unit's own is
# 5 s); tests/package/timer.bats checks that svc is the unit's ExecStart.
svc="irqaff balance -q -i 1"

affinities() {	# FILE: each IRQ's requested CPUs and the default
	for d in /proc/irq/[0-9]*; do
		echo "${d##*/} $(cat "$d/smp_affinity_list")"
	done >"$1"
	echo "default $(cat /proc/irq/default_smp_affinity)" >>"$1"
}

affinities /tmp/balance-boot
i=1
while [ $i -le 10 ]; do
	# shellcheck disable=SC2086
	run $svc
	expect "run $i of the service's command exits 0" status 0
	expect "run $i prints nothing on stderr" no_stderr
	expect "run $i says there is no IRQ to move" grep '^no IRQ to move'
	affinities /tmp/balance-now
	changed=$(awk 'NR == FNR { was[$1] = $2; next }
		($1 in was) && was[$1] != $2 { printf " %s:%s->%s", $1, was[$1], $2 }' \
		/tmp/balance-boot /tmp/balance-now)
	expect "run $i writes no affinity" true [ -z "$changed" ] ||
		echo "IRQAFF-# changed:$changed"
	i=$((i + 1))
done

# put back what a run changed, for the scenarios after this one
while read -r n list; do
	[ "$n" = default ] && continue
	[ "$(cat "/proc/irq/$n/smp_affinity_list" 2>/dev/null)" = "$list" ] ||
		echo "$list" >"/proc/irq/$n/smp_affinity_list" 2>/dev/null
done </tmp/balance-boot
rm -f /tmp/balance-boot /tmp/balance-now
