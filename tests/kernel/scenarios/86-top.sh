# boots: all
# top's plain screens against the kernel: from two saved reads of
# /proc/interrupts a moment apart, with disk reads between them, each
# CPU's IRQS/s is the sum of the numbered rows' differences in its
# column, SYSTEM/s that of the rows without a number that have a count
# for each CPU (not ERR:, MIS:, Err:, one count each); each IRQ's RATE
# is its row's difference, TOTAL the sum of its row, AFFINITY its
# smp_affinity_list, EFFECTIVE the online CPUs of its
# effective_affinity_list ("-" for none, and for a managed IRQ whose
# requested CPUs are all offline or never present, which x86 parks on
# CPU 0: issue 36), busiest first, ties in IRQ order. Then a live run,
# and one on a terminal where busybox has script(1).
a=/tmp/top.a b=/tmp/top.b

disk=
for d in /dev/nvme0n1 /dev/vda; do
	[ -b $d ] && { disk=$d; break; }
done
# Interrupts to count: reads from the disk, past the page cache.
disk_reads() {
	[ -n "$disk" ] || return 0
	dd if=$disk of=/dev/null bs=64k count=32 iflag=direct 2>/dev/null
}

# The first read, then the second once a numbered row has moved.
cat /proc/interrupts >$a
i=0
while [ $i -lt 50 ]; do
	disk_reads
	cat /proc/interrupts >$b
	awk '$1 ~ /^[0-9]+:$/ { r[$1] = r[$1] == "" ? $0 : (r[$1] != $0) }
		END { for (k in r) if (r[k] == 1) exit 0; exit 1 }' $a $b && break
	sleep 0.1; i=$((i + 1))
done
expect "kernel: a numbered row moved between the two reads" true [ $i -lt 50 ]
# ERR: and MIS: (x86), Err: (arm64) count for the machine, no CPU: moved
# by 1000 in the second read, they still add nothing to any CPU's rate.
awk '$1 ~ /^(ERR|MIS|Err):$/ { sub(/[0-9]+/, $2 + 1000) } { print }' $b >$b.e
mv $b.e $b
expect "kernel: an ERR:, MIS: or Err: row" true grep -qE '^ *(ERR|MIS|Err): ' $b

# Each IRQ's "N AFFINITY EFFECTIVE" lists, "-" for a missing or empty file.
irq_lists() {
	for q in /proc/irq/[0-9]*; do
		l=$(cat $q/smp_affinity_list 2>/dev/null)
		e=$(cat $q/effective_affinity_list 2>/dev/null)
		echo "${q##*/} ${l:--} ${e:--}"
	done
}

# The last run's screen (OUT) against the two reads of /proc/interrupts,
# and the IRQs' lists before and after it: either may hold, as without
# interrupt remapping an x86 move waits for the IRQ's next interrupt
# (virtio_net's TX queues, spread at probe, took theirs in the middle
# of this on amd64-16@6.12). Says what differs, false if anything does.
# WHAT: cpus (the title and the CPU rows) or irqs (the table, every IRQ
# of the second read, busiest first).
top_vs_kernel() {	# WHAT
	awk -v what="$1" -v online="$(cat /sys/devices/system/cpu/online)" '
	function expand(list, set,   n, p, i, r) {
		split("", set)
		n = split(list, p, ",")
		for (i = 1; i <= n; i++) {
			if (split(p[i], r, "-") == 1) r[2] = r[1]
			for (c = r[1] + 0; c <= r[2] + 0; c++) set[c] = 1
		}
	}
	function format(set,   c, s, lo, top) {
		top = -1
		for (c in set) if (c + 0 > top) top = c + 0
		s = ""; lo = -1
		for (c = 0; c <= top + 1; c++) {
			if ((c in set) && lo < 0) lo = c
			if (!(c in set) && lo >= 0) {
				s = s (s == "" ? "" : ",") lo (c - 1 > lo ? "-" (c - 1) : "")
				lo = -1
			}
		}
		return s
	}
	# What top should say of IRQ n by the lists of read k: the online
	# CPUs of the effective ones, none for a parked managed IRQ.
	function effective(k, n,   e, on, req, c, any) {
		if (eff[k, n] == "-")
			return "-"
		expand(eff[k, n], e)
		split("", on)
		for (c in e) if (c in cpus) { on[c] = 1; any = 1 }
		if (!any) return "-"
		expand(aff[k, n], req)
		for (c in req) if (c in cpus) return format(on)
		return "-"
	}
	function either(what, n, got, w1, w2) {
		if (w1 != w2) print "IRQAFF-# kernel: IRQ " n " " what " " w1 ", then " w2
		if (got != w1 && got != w2) bad("IRQ " n " " what " " got ", kernel " w1)
	}
	function bad(s) { print "IRQAFF-# " s; nbad++ }
	BEGIN { expand(online, cpus) }
	FNR == 1 { file++ }
	file <= 2 { aff[file, $1] = $2; eff[file, $1] = $3; next }
	file <= 4 && FNR == 1 {
		ncol = NF
		for (i = 1; i <= NF; i++) col[i + 1] = substr($i, 4)
		next
	}
	file <= 4 {
		k = $1
		if (k ~ /^(ERR|MIS|Err):$/) next
		for (i = 2; i <= ncol + 1; i++) if ($i !~ /^[0-9]+$/) next
		num = k ~ /^[0-9]+:$/
		sub(/:$/, "", k)
		for (i = 2; i <= ncol + 1; i++) {
			if (file == 3) { was[k, i] = $i; continue }
			if (!((k, i) in was)) continue
			d = $i - was[k, i]
			if (num) { irqs[col[i]] += d; delta[k] += d } else sys[col[i]] += d
			sum += d
		}
		if (file == 3 || !num) next
		rated[k] = (k, 2) in was
		total[k] = 0
		for (i = 2; i <= ncol + 1; i++) total[k] += $i
		line[k] = $0
		nirq++
		next
	}
	what == "cpus" && FNR == 1 {
		want = "^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}  over 1\\.00 s  " \
		    sprintf("%.1f", sum) " interrupts/s on " ncol " CPUs$"
		if ($0 !~ want) bad("title: " $0 "; kernel: " sprintf("%.1f", sum) " on " ncol)
		next
	}
	what == "cpus" && FNR <= 4 {
		lab = FNR == 2 ? "CPU" : FNR == 3 ? "IRQS/s" : "SYSTEM/s"
		if ($1 != lab || NF != ncol + 1) bad("line " FNR ": " $0)
		for (i = 2; i <= ncol + 1; i++) {
			w = FNR == 2 ? col[i] : sprintf("%.1f", FNR == 3 ? irqs[col[i]] : sys[col[i]])
			if ($i != w) bad(lab " of CPU " col[i] ": " $i ", kernel " w)
		}
		next
	}
	what == "cpus" && FNR == 5 && $0 != "" { bad("line 5 is not blank: " $0) }
	what == "irqs" && FNR == 6 {
		if ($0 !~ /^ *IRQ +RATE +TOTAL AFFINITY +EFFECTIVE +NAME$/) bad("head: " $0)
		at = index($0, "NAME")
		next
	}
	what == "irqs" && FNR > 6 {
		n = $1; rows++
		if (!(n in line)) { bad("IRQ " n ": no such row in the second read"); next }
		if (n in seen) bad("IRQ " n ": twice")
		seen[n] = 1
		r = rated[n] ? sprintf("%.1f", delta[n]) : "-"
		if ($2 != r) bad("IRQ " n " RATE " $2 ", kernel " r)
		if ($3 != total[n]) bad("IRQ " n " TOTAL " $3 ", kernel " total[n])
		either("AFFINITY", n, $4, aff[1, n] == "" ? "-" : aff[1, n], aff[2, n] == "" ? "-" : aff[2, n])
		either("EFFECTIVE", n, $5, effective(1, n), effective(2, n))
		name = substr($0, at)
		if (name != "-" && substr(line[n], length(line[n]) - length(name)) != " " name)
			bad("IRQ " n " NAME " name ", kernel: " line[n])
		d = delta[n] + 0
		if (rows > 1 && (d > last || (d == last && n + 0 < lastn)))
			bad("IRQ " n " (" d ") after IRQ " lastn " (" last ")")
		last = d; lastn = n + 0
	}
	END {
		if (what == "irqs" && rows != nirq)
			bad(rows " IRQ rows, the second read has " nirq)
		exit nbad > 0
	}' $a.k1 $a.k2 $a $b $out
}

irq_lists >$a.k1
run irqaff top -b -a -i 1 --sample-from $a --sample-from $b
irq_lists >$a.k2
expect "top -b -a --sample-from exits 0" status 0
expect "top -b -a --sample-from prints nothing on stderr" no_stderr
expect "top: title and each CPU's IRQS/s and SYSTEM/s are the kernel's differences" \
	true top_vs_kernel cpus
expect "top -a: each IRQ's RATE, TOTAL, AFFINITY, EFFECTIVE and NAME as the kernel says, busiest first" \
	true top_vs_kernel irqs
rm -f $a $b $a.k1 $a.k2

# Live, with the disk busy: two screens half a second apart.
busy=
if [ -n "$disk" ]; then
	(while :; do disk_reads; done) &
	busy=$!
fi
run irqaff top -b -i 0.5 --count 2
[ -n "$busy" ] && kill $busy && wait $busy 2>/dev/null
ncpu=$(awk -F, '{ for (i = 1; i <= NF; i++) { split($i, r, "-")
	n += (r[2] == "" ? r[1] : r[2]) - r[1] + 1 } } END { print n }' \
	/sys/devices/system/cpu/online)
cat /proc/interrupts >$a

# The two screens (OUT): each a title over the online CPUs with the sum of
# the CPU rows, a blank line between them, each IRQ one of the kernel's
# with a rate above 0.
live_shape() {
	awk -v ncpu="$ncpu" '
	function bad(s) { print "IRQAFF-# " s; nbad++ }
	FILENAME == ARGV[1] { if ($1 ~ /^[0-9]+:$/) irq[substr($1, 1, length($1) - 1)] = 1; next }
	/^[0-9-]+ [0-9:]+  over [0-9.]+ s  [0-9.]+ interrupts\/s on [0-9]+ CPUs$/ {
		screens++; at = FNR; over = $4; rate = $6
		if (screens > 1 && prev != "") bad("no blank line before screen " screens)
		if ($9 != ncpu) bad("screen " screens ": " $9 " CPUs, " ncpu " online")
		if (over + 0 < 0.5) bad("screen " screens ": over " over " s")
		next
	}
	{ prev = $0 }
	FNR == at + 1 && $1 != "CPU" { bad("line " FNR ": " $0) }
	FNR == at + 2 || FNR == at + 3 {
		if ($1 != (FNR == at + 2 ? "IRQS/s" : "SYSTEM/s")) bad("line " FNR ": " $0)
		for (i = 2; i <= NF; i++) cells[screens] += $i
		# each of 2 x ncpu cells and the title rounded to 0.1
		tol = 0.05 * (2 * ncpu + 1) + 1e-6
		if (FNR == at + 3 && ((d = cells[screens] - rate) > tol || -d > tol))
			bad("screen " screens ": the CPU rows add up to " cells[screens] ", the title says " rate)
	}
	FNR == at + 4 && $0 != "" { bad("line " FNR " is not blank") }
	FNR == at + 5 && $1 != "IRQ" { bad("line " FNR ": " $0) }
	FNR > at + 5 && NF > 0 {
		rows++
		if (!($1 in irq)) bad("IRQ " $1 ": not in /proc/interrupts")
		if ($2 !~ /^[0-9]+\.[0-9]$/ || $2 + 0 <= 0) bad("IRQ " $1 ": RATE " $2)
	}
	END {
		if (screens != 2) bad(screens + 0 " screens")
		if (rows == 0) bad("no IRQ had interrupts")
		exit nbad > 0
	}' $a $out
}
expect "top -b -i 0.5 --count 2 exits 0" status 0
expect "top -b --count 2 prints nothing on stderr" no_stderr
expect "top -b --count 2: two screens, the online CPUs, IRQs of the kernel's with a rate" \
	true live_shape
# An NVMe I/O queue or a virtio-blk request queue in a table of OUT.
has_queue() {
	irqs_named '^(nvme0q[1-9][0-9]*|virtio[0-9]+-req\.[0-9]+)$' >$a.q
	awk 'FILENAME == ARGV[1] { q[$1] = 1; next } $1 in q { f = 1 }
		END { exit !f }' $a.q $out
}
if [ -n "$disk" ]; then
	expect "top -b --count 2: a queue of the busy disk is in the table" \
		true has_queue
fi
rm -f $a $a.q

# On a terminal: needs a pseudo-terminal and something to open one; the
# guest's busybox (Debian 12's) has no script applet, and nothing else
# here opens one (tests/commands/top.bats covers the terminal).
skip "top on a terminal" "no pty tool in the guest (busybox without script)"
