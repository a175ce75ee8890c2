# boots: all
# On the untouched machine every reading command exits 0 and prints
# nothing on stderr (issue 24 items 1, 2, 6).
# shellcheck disable=SC2034
RAW_STDERR=1
# Without nohz_full CPUs, 6.1 prints "%*pbl" of a NULL mask: vsprintf's
# "(null)", right-aligned in a field nr_cpu_ids wide; read as no CPU.
for c in "show" "show -o +DEVICE" "cpus" "queues" "save"; do
	# shellcheck disable=SC2086
	run irqaff $c
	expect "irqaff $c exits 0" status 0
	expect "irqaff $c prints nothing on stderr" no_stderr
done

run irqaff explain
expect "explain exits 0 on the untouched machine" status 0
expect "explain prints nothing on stderr" no_stderr
expect "explain prints nothing on the untouched machine" output ''
expect "explain says nothing of IRQs without a handler" no_grep 'idle: has not fired'
expect "explain says nothing of normal single-target delivery" no_grep 'single-target'
expect "explain says nothing of offline CPUs in a request for every CPU" no_grep ': offline:'
