# shellcheck shell=bash
#
# queues.bash: the paths of the network queues' files, for the queue
# tests (queues.bats, xps.bats) and the XPS that spread and balance
# follow or leave apart. Load it from setup, after _common_setup.

# queue_file DEV QUEUE FILE: the path of a queue's file.
queue_file() {
	printf '%s/sys/class/net/%s/queues/%s/%s' "$ROOT" "$1" "$2" "$3"
}

# xps_masks DEV...: "DEV tx-K MASK" for each tx queue's xps_cpus.
xps_masks() {
	local d f
	for d in "$@"; do
		for f in "$ROOT/sys/class/net/$d/queues"/tx-*/xps_cpus; do
			f=${f%/xps_cpus}
			printf '%s %s %s\n' "$d" "${f##*/}" "$(<"$f/xps_cpus")"
		done
	done
}
