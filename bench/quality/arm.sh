#!/bin/sh
# bench/quality's arms, run in the guest: arm.sh NAME INTERVAL [OUT]
# applies one (none, spread, balance, irqbalance) once, its output to OUT.
# shellcheck shell=dash
case $1 in
none) ;;
spread)
	# As a sysadmin would: each interface and block device on its own.
	for n in /sys/class/net/*; do
		[ -e "$n/device" ] && irqaff spread -q "dev:${n##*/}"
	done
	for b in /sys/block/*; do
		[ -e "$b/device" ] && irqaff spread -q "dev:${b##*/}"
	done
	;;
balance) irqaff balance -q -v -i "$2" ;;
irqbalance)
	# --oneshot measures over one interval (10 s unless --interval),
	# places every IRQ afresh once and exits; --foreground so that it
	# is timed (it would fork to the background).
	irqbalance --oneshot --foreground --interval="$2" ;;
*) echo "arm.sh: no arm $1" >&2; exit 2 ;;
esac >"${3:-/dev/null}" 2>&1
