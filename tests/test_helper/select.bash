# shellcheck shell=bash
#
# select.bash: what a selector picks and what it refuses, for the
# selector tests (selectors.bats, devices.bats). Load it from setup,
# after _common_setup.

# selected SELECTOR...: run show -n -o irq: the IRQs it selects, one a
# line.
selected() {
	run --separate-stderr irqaff show -n -o irq "$@"
}

# refused SELECTOR: run set -n, a writing command, for which every item
# must pick an IRQ (show only notes one that picks none).
refused() {
	run --separate-stderr irqaff set -n "$@" 0
}
