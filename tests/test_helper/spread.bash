# shellcheck shell=bash
#
# spread.bash: the machines of the spread tests, which the irqbalance
# tests use too. Load it from setup, after _common_setup.

# Two sockets of 8 cores of 2 threads, a socket a node: node 0 is 0-7 and
# their siblings 16-23, node 1 is 8-15 and 24-31. eth0 on node 1 has IRQ
# 24 (eth0) and 25-40 (eth0-TxRx-0 to 15).
smt() {
	make_root --cpus 32 --sockets 2 --nodes 2 --threads 2 "$@"
}

nic() {
	smt --nic eth0:16:1 "$@"
}

# txrx CPU...: spread's plan for eth0-TxRx-* (IRQs 25 on), queue i on the
# i-th CPU.
txrx() {
	local i=0 c
	for c in "$@"; do
		printf 'irq %d eth0-TxRx-%d: %d\n' $((25 + i)) "$i" "$c"
		i=$((i + 1))
	done
}
