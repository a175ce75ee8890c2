# boots: all
# The rows of /proc/interrupts without an IRQ number that have a count
# for each CPU column, as arch_show_interrupts() prints them (NMI: LOC:
# RES: ... on x86, IPI0: ... on arm64, 6.1 and 6.12 alike): cpus -J's "system" object of each online CPU holds
# each of them, in the kernel's order, with the kernel's count; ERR: and
# MIS: (x86) and Err: (arm64) have one count, the machine's, and are no
# CPU's. SYSTEM is their sum and the busiest of them (issue 39).
k1=/tmp/sys.k1 k2=/tmp/sys.k2 got=/tmp/sys.got

# The kernel's rows in FILE as "CPU NAME COUNT" lines, CPUs from the
# header (CPU0 CPU1 ...).
sys_rows() {	# FILE
	awk 'NR == 1 { for (i = 1; i <= NF; i++) cpu[i + 1] = substr($i, 4)
		n = NF; next }
	$1 ~ /^[0-9]+:$/ || $1 ~ /^(ERR|MIS|Err):$/ { next }
	{ for (i = 2; i <= n + 1; i++) if ($i !~ /^[0-9]+$/) next
	  sub(/:$/, "", $1)
	  for (i = 2; i <= n + 1; i++) print cpu[i], $1, $i }' "$1"
}

# The KEY objects ("system", or with -i "system_rate") of the last run's
# cpus -J as "CPU NAME VALUE" lines (its names are labels, with no comma,
# quote or brace).
json_rows() {	# KEY
	awk -v key="\"$1\":" '{ n = split($0, part, /\{"cpu":/)
	  for (i = 2; i <= n; i++) {
		cpu = part[i]; sub(/[^0-9].*/, "", cpu)
		if (!match(part[i], key "\\{[^}]*\\}")) { print cpu, "-", "-"; continue }
		l = length(key) + 1
		m = split(substr(part[i], RSTART + l, RLENGTH - l - 1), kv, ",")
		for (j = 1; j <= m; j++) {
			k = kv[j]; sub(/^"/, "", k); sub(/":.*/, "", k)
			v = kv[j]; sub(/.*":/, "", v)
			print cpu, k, v
		}
	  } }' $out
}

# irqaff's "CPU NAME VALUE" lines (GOT) against the kernel's two reads:
# for each CPU of the kernel's, the same names in the same order, each
# count between the two reads, or with RATE the difference of the two
# as "%.1f" (-i 1). Says what differs; false if anything does.
same_rows() {	# K1 K2 GOT [rate]
	awk -v rate="${4:-}" '
	FILENAME == ARGV[1] { lo[$1, $2] = $3; want[$1] = want[$1] " " $2; next }
	FILENAME == ARGV[2] { hi[$1, $2] = $3; next }
	!($1 in want) { next }
	{ got[$1] = got[$1] " " $2
	  l = lo[$1, $2]; h = hi[$1, $2]
	  if (!(($1, $2) in lo)) good = 0
	  else if (rate != "") good = $3 == sprintf("%.1f", h - l)
	  else good = $3 ~ /^[0-9]+$/ && $3 + 0 >= l + 0 && $3 + 0 <= h + 0
	  if (!good) { print "IRQAFF-# cpu " $1 " " $2 ": " $3 ", kernel " \
		(rate != "" ? h - l : l ".." h); bad++ } }
	END { for (c in want) if (got[c] != want[c]) {
		print "IRQAFF-# cpu " c ":" got[c] "; kernel:" want[c]; bad++ }
	  exit (bad > 0) }' "$1" "$2" "$3"
}

# cpus -o cpu,system -n (TABLE, squeezed: "CPU SUM NAME") against the
# kernel's two reads: the sum between the two, and NAME a row that may
# have been the busiest (none above it in the first read than it in the
# second); with RATE the sum of the differences as "%.1f" and the first
# of the busiest differences. False if a CPU of the kernel's is missing.
same_sums() {	# K1 K2 TABLE [rate]
	awk -v rate="${4:-}" '
	FILENAME == ARGV[1] { lo[$1, $2] = $3; names[$1, ++n[$1]] = $2; next }
	FILENAME == ARGV[2] { hi[$1, $2] = $3; next }
	!($1 in n) { next }
	{ seen[$1] = 1; sl = sh = 0; most = -1; top = ""; good = (($1, $3) in hi)
	  for (i = 1; i <= n[$1]; i++) {
		k = names[$1, i]; sl += lo[$1, k]; sh += hi[$1, k]
		d = hi[$1, k] - lo[$1, k]
		if (d > most) { most = d; top = k }
		if (!rate && lo[$1, k] + 0 > hi[$1, $3] + 0) good = 0
	  }
	  # a CPU whose rows did not move reads 0, no row named (issue 50)
	  if (rate != "" && sh == sl) good = $2 == "0" && $3 == ""
	  else if (rate != "") good = $2 == sprintf("%.1f", sh - sl) && $3 == top
	  else good = good && $2 ~ /^[0-9]+$/ && $2 + 0 >= sl && $2 + 0 <= sh
	  if (!good) { print "IRQAFF-# cpu " $1 ": " $2 " " $3 ", kernel " \
		(rate != "" ? sh - sl " " top : sl ".." sh); bad++ } }
	END { for (c in n) if (!(c in seen)) { print "IRQAFF-# cpu " c ": no row"; bad++ }
	  exit (bad > 0) }' "$1" "$2" "$3"
}

cat /proc/interrupts >/tmp/sys.1
run irqaff cpus -J
cat /proc/interrupts >/tmp/sys.2
sys_rows /tmp/sys.1 >$k1
sys_rows /tmp/sys.2 >$k2
json_rows system >$got
expect "kernel: rows without an IRQ number, a count for each CPU" true [ -s $k1 ]
echo "IRQAFF-# rows: $(awk '$1 == c { printf "%s%s", s, $2; s = " " }' c="$(head -n 1 $k1 | cut -d' ' -f1)" $k1)"
case $(uname -m):$(uname -r) in
aarch64:*)
	expect "kernel: IPI0 is such a row" true grep -q '^0 IPI0 ' $k1 ;;
x86_64:*)
	expect "kernel: LOC is such a row" true grep -q '^0 LOC ' $k1 ;;
esac
expect "cpus -J exits 0" status 0
expect "cpus -J prints nothing on stderr" no_stderr
expect "cpus -J has no ERR, MIS or Err" no_grep '"(ERR|MIS|Err)":'
expect "cpus -J: each online CPU's system object has the kernel's rows, in order, with its counts" \
	true same_rows $k1 $k2 $got

cat /proc/interrupts >/tmp/sys.1
run irqaff cpus -o cpu,system -n
cat /proc/interrupts >/tmp/sys.2
squeeze
sys_rows /tmp/sys.1 >$k1
sys_rows /tmp/sys.2 >$k2
expect "cpus -o cpu,system exits 0" status 0
expect "cpus -o cpu,system: SYSTEM is the sum of the rows and the busiest" \
	true same_sums $k1 $k2 $out

# Two reads a moment apart (until a row has moved), as -i 1 samples.
cat /proc/interrupts >/tmp/sys.1
sys_rows /tmp/sys.1 >$k1
i=0
while [ $i -lt 100 ]; do
	cat /proc/interrupts >/tmp/sys.2
	sys_rows /tmp/sys.2 >$k2
	cmp -s $k1 $k2 || break
	sleep 0.1; i=$((i + 1))
done
expect "kernel: a row has moved" true [ $i -lt 100 ]
run irqaff cpus -J -i 1 --sample-from /tmp/sys.1 --sample-from /tmp/sys.2
json_rows system_rate >$got
expect "cpus -J --sample-from exits 0" status 0
expect "cpus -J --sample-from: each system object has the rows' rates, (count2 - count1) / 1" \
	true same_rows $k1 $k2 $got rate
run irqaff cpus -o cpu,system -n -i 1 --sample-from /tmp/sys.1 --sample-from /tmp/sys.2
squeeze
expect "cpus -o cpu,system --sample-from: SYSTEM is the sum of the rates and the busiest" \
	true same_sums $k1 $k2 $out rate
# Nothing moved: every CPU reads 0, with no row named.
run irqaff cpus -o cpu,system -n -i 1 --sample-from /tmp/sys.1 --sample-from /tmp/sys.1
squeeze
cp $k1 $k2
expect "cpus -o cpu,system --sample-from one read twice: 0, no row named" \
	true same_sums $k1 $k2 $out rate
rm -f /tmp/sys.1 /tmp/sys.2 $k1 $k2 $got
