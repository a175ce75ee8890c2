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
