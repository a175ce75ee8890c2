# shellcheck shell=bash
#
# balance.bash: balance over an interval the test controls.
#
#   measure "IRQ COL N ..." ARGS...
#
# runs irqaff balance -i 1 ARGS over an interval in which the tree
# counted those interrupts (add_count): the first read is a copy of the
# tree's proc/interrupts taken before the counts, the second the tree's
# (--sample-from), so plans and rates are exact and nothing waits on the
# clock. stdout lands in $out, stderr in $err, the exit status in $rc;
# $BALANCE_RUN, when set, runs the command (a fault injector: faulty).

# shellcheck disable=SC2034 # out, err and rc are for the caller
measure() {
	local -a counts
	read -ra counts <<<"$1"
	shift
	cp "$ROOT/proc/interrupts" "$BATS_TEST_TMPDIR/first"
	add_count "${counts[@]}"
	out=$BATS_TEST_TMPDIR/out err=$BATS_TEST_TMPDIR/err
	rc=0
	$BALANCE_RUN irqaff balance -i 1 \
		--sample-from "$BATS_TEST_TMPDIR/first" \
		--sample-from "$ROOT/proc/interrupts" "$@" >"$out" 2>"$err" ||
		rc=$?
}

# pile_on CPU IRQ...: the IRQs run on CPU, whatever they request, as
# after a boot that gave them all one CPU (effective_affinity*).
pile_on() {
	local cpu=$1 irq d
	shift
	for irq; do
		d=$ROOT/proc/irq/$irq
		printf '%s\n' "$cpu" >"$d/effective_affinity_list"
		printf '%s\n' "$(kmask "$_T_NCPUS" "$cpu")" >"$d/effective_affinity"
	done
}
