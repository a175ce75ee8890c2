# shellcheck shell=bash
#
# snapshot.bash: the fixtures of the save, restore, check and irqbalance
# tests. Load it from setup, after _common_setup:
#
#   setup() { ...; _common_setup; load test_helper/snapshot; }
#
# Loading it sets SNAP, the test's snapshot file (not yet written).

# shellcheck disable=SC2034 # SNAP is for the test files
SNAP=$BATS_TEST_TMPDIR/snap

# Eight CPUs; eth0 has IRQs 40-43 and nvme0 50-52, unless FIRST IRQs are
# given: tree ETH0 NVME0 [make_root options].
tree() {
	local eth=${1:-40} nvme=${2:-50}
	shift 2 || shift $#
	make_root --cpus 8 --nic "eth0:3:0:$eth" --nvme "nvme0:2:0:$nvme" "$@"
}

# The same devices renumbered, in $BATS_TEST_TMPDIR/b: eth0 60-63 and
# nvme0 40-42, so that some old numbers now belong to other names.
renumbered() {
	make_root --dir "$BATS_TEST_TMPDIR/b" --cpus 8 --nic eth0:3:0:60 \
		--nvme nvme0:2:0:40 "$@"
}

# A layout on the first tree, saved to $SNAP.
save_layout() {
	tree 40 50 "$@"
	irqaff set -q 41 1
	irqaff set -q 42 2-3
	irqaff set -q 50 4
	irqaff set -q 51 5-6
	irqaff default 0-3
	irqaff save -o "$SNAP"
}

# keep_tree: a copy of the tree as it is now, for changed_files.
keep_tree() {
	rm -rf "$BATS_TEST_TMPDIR/kept"
	cp -a "$ROOT" "$BATS_TEST_TMPDIR/kept"
}

# changed_files: what differs from keep_tree's copy, one a line: the path
# of each file that changed, relative to the root, and diff's "Only in"
# lines for files added or removed.
changed_files() {
	local kept=$BATS_TEST_TMPDIR/kept
	LC_ALL=C diff -rq --no-dereference "$kept" "$ROOT" |
		sed "s|^Files $kept/\(.*\) and $ROOT/.* differ\$|\1|"
}

# qfile DEV QUEUE: the mask file of a queue, xps_cpus of tx-K, rps_cpus of
# rx-K.
qfile() {
	local f=rps_cpus
	[[ $2 == tx-* ]] && f=xps_cpus
	printf '%s/sys/class/net/%s/queues/%s/%s' "$ROOT" "$1" "$2" "$f"
}

# queue_tree [make_root options]: four CPUs, eth0 with two queues (IRQs
# 40-42) and eth1 with one (50-51), some XPS and RPS set, and lo, whose
# queues have no device and are never saved.
queue_tree() {
	make_root --cpus 4 --nic eth0:2:0:40 --nic eth1:1:0:50 \
		--xps eth0:0=0-3 --xps eth0:1=1 --rps eth0:0=2-3 \
		--rps eth1:0=3 "$@"
	mkdir -p "$ROOT/sys/devices/virtual/net/lo/queues/"{rx-0,tx-0}
	printf '0\n' >"$ROOT/sys/devices/virtual/net/lo/queues/rx-0/rps_cpus"
	ln -s ../../devices/virtual/net/lo "$ROOT/sys/class/net/lo"
}
