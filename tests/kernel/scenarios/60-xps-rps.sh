# boots: amd64-16 amd64-16-iso arm64-8
# The kernel keeps only online CPUs in xps_cpus (__netif_set_xps_queue())
# and rps_cpus (store_rps_map()), and drops isolcpus=domain CPUs from RPS
# (EINVAL when none is left). irqaff decides before the first write:
# it refuses (exit 2, nothing written) or applies the part the kernel
# keeps and says so (exit 0, a note on stderr, and the kernel holds it)
# (issue 24 item 7).
n=$(virtio_net_iface) || { skip "xps/rps" "no virtio-net interface"; return 0; }
q=/sys/class/net/$n/queues
kernel_list() { irqaff list "$(cat $1)"; }

# judge WHAT FILE BEFORE KEPT: the last run against what the kernel holds
judge() {
	case $status in
	2) expect "$1: refused, nothing written" true [ "$(cat $2)" = "$3" ] ;;
	0) expect "$1: applied, and says what the kernel keeps" true [ -s $err ]
	   expect "$1: the kernel holds $4" true [ "$(kernel_list $2)" = "$4" ] ;;
	*) expect "$1: exits 0 or 2, not $status" status 0 ;;
	esac
}

cpu_online 3 0
b=$(cat $q/tx-0/xps_cpus)
run irqaff xps $n:0 2-3
judge "xps naming offline CPU 3" $q/tx-0/xps_cpus "$b" 2
b=$(cat $q/rx-0/rps_cpus)
run irqaff rps $n:0 2-3
judge "rps naming offline CPU 3" $q/rx-0/rps_cpus "$b" 2
irqaff rps $n:0 none >/dev/null 2>&1
cpu_online 3 1

iso=$(cat /sys/devices/system/cpu/isolated)
if [ -n "$iso" ]; then
	b=$(cat $q/rx-0/rps_cpus)
	run irqaff rps $n:0 $iso
	expect "rps on only isolated CPUs $iso is refused" status 2
	expect "rps on only isolated CPUs: nothing written" true [ "$(cat $q/rx-0/rps_cpus)" = "$b" ]
	run irqaff rps $n:0 10-13
	judge "rps on 10-13 with $iso isolated" $q/rx-0/rps_cpus "$b" 10-11
	irqaff rps $n:0 none >/dev/null 2>&1
fi
