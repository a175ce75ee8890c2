# boots: amd64-16-iso
# Handler threads (issue 48 item 9). On PREEMPT_RT (the -rt boots) each
# handler runs in a kernel thread irq/N-NAME, which takes its IRQ's
# effective CPUs when it next runs after a move (kernel/irq/manage.c
# irq_thread_check_affinity()); one pinned with taskset keeps its own.
# Pinned onto isolated CPU 13, isolate --check must fail naming it, and
# explain name it; put back, neither does.
thread_pid() {	# IRQ -> the PID of its first thread irq/IRQ-...
	for f in /proc/[0-9]*/comm; do
		case $(cat "$f" 2>/dev/null) in
		"irq/$1-"*) p=${f#/proc/}; echo "${p%/comm}"; return 0 ;;
		esac
	done
	return 1
}
allowed() { awk '/^Cpus_allowed_list:/ { print $2 }' "/proc/$1/status"; }

m=$(movable_irq)
case $(uname -r) in
*-rt-*) ;;
*)
	# virtio's config handler is not threaded without PREEMPT_RT
	run irqaff show -n -o IRQ,THREAD,THREAD-CPUS $m
	expect "show: irq $m has no thread without PREEMPT_RT" output "$m - -"
	return 0 ;;
esac
expect "kernel: CONFIG_PREEMPT_RT=y" true grep -qx 'CONFIG_PREEMPT_RT=y' /config
pid=$(thread_pid $m) || { skip "irq $m thread" "no irq/$m-* thread"; return 0; }
name=$(cat /proc/$pid/comm)
was=$(allowed $pid)
expect "kernel: $name is a kernel thread (empty cmdline)" true \
	[ ! -s /proc/$pid/cmdline ]
run irqaff show -n -o IRQ,THREAD $m
expect "show names irq $m's thread $name" output "$m $name"
run irqaff isolate --check 12-15
expect "isolate --check 12-15 does not name $name before it is pinned" \
	no_grep "thread $name:"

taskset -p 2000 $pid >/dev/null
expect "kernel: taskset pins $name onto CPU 13" true [ "$(allowed $pid)" = 13 ]
run irqaff show -n -o IRQ,THREAD-CPUS $m
expect "show: THREAD-CPUS of irq $m is 13" output "$m 13"
run irqaff isolate --check 12-15
expect "isolate --check 12-15 fails with $name on CPU 13" status 1
expect "isolate --check 12-15 names $name" \
	line "irq $m thread $name: pinned apart from its IRQ, may run on CPU 13"
run irqaff explain $m
expect "explain $m needs attention" status 1
expect "explain $m names $name on isolated CPU 13" \
	grep "^irq $m [^:]*: thread: its thread $name may run on CPU 13 \\(isolated: 13\\), and the IRQ runs on CPU [0-9]"

taskset -p "$(irqaff mask "$was")" $pid >/dev/null
expect "kernel: $name is back on $was" true [ "$(allowed $pid)" = "$was" ]
run irqaff isolate --check 12-15
expect "isolate --check 12-15 does not name $name put back" \
	no_grep "thread $name:"
