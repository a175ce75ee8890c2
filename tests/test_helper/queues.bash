# shellcheck shell=bash
#
# queues.bash: the paths of the network queues' files, for the queue
# tests (queues.bats, xps.bats). Load it from setup, after _common_setup.

# queue_file DEV QUEUE FILE: the path of a queue's file.
queue_file() {
	printf '%s/sys/class/net/%s/queues/%s/%s' "$ROOT" "$1" "$2" "$3"
}
