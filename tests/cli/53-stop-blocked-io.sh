#!/bin/sh
# SIGINT/SIGTERM while an I/O is stuck (tests/faultfs holds the read at
# 64 KiB for seconds): after a grace of half a second the job is given up
# on ("abandoned") and the report, whole, comes out within about a second
# of the signal, covering what completed. The exit follows as soon as the
# kernel lets go of the stuck I/O: at once where the file system answers
# the interrupt (faultfs --intr) and the engine's I/O can be interrupted
# (sync, io_uring, pthread); kernel AIO (libaio) and a request the file
# system holds uninterruptibly keep the process until the I/O ends.
# A file the run extended is then left as it is, and said.
# lane: paced
. "$(dirname "$0")/lib.sh"
py_serve

faultfs_mount "$T/i" --intr --size=1m --delay=65536:2500
faultfs_mount "$T/u" --size=1m --delay=65536:2000
report_ms=1200 exit_ms=1500
[ -z "${IORIG_SAN:-}" ] || { report_ms=3000; exit_ms=3500; }

# stop_stuck SIG CODE FILE ARGS...: starts a read job of FILE, sends SIG
# once it is stuck (faultfs says it has begun to delay the read: no
# guessed sleep); the report must be whole within $report_ms. Sets $_pid
# and $_t0 (the exit is the caller's to wait for).
stop_stuck() {
	_sig=$1 _code=$2 _file=$3
	shift 3
	_d=$(faultfs_delays)
	"$IORIG" --name=stuck --filename="$_file" --bs=4k "$@" >"$T/out" \
		2>"$T/err" &
	_pid=$!
	wait_delayed "$_d" $_pid 5000
	_t0=$(now_ms)
	kill -$_sig $_pid
}

for e in sync io_uring pthread libaio; do
	stop_stuck INT 130 i/data --ioengine=$e --iodepth=4 \
		--output-format=json
	wait_json "$T/out" $report_ms
	if [ $e = libaio ]; then
		wait_gone $_pid 10	# AIO in flight holds the exit
	else
		wait_gone $_pid 5
		_ms=$(($(now_ms) - _t0))
		[ $_ms -le $exit_ms ] || die "$e: took $_ms ms to exit"
	fi
	expect_rc 130
	json_is "d['jobs'][0]['interrupted']" True
	json_is "d['jobs'][0]['abandoned']" True
	json_is "d['jobs'][0]['error']" None
	expect_json "d['jobs'][0]['read']['ios'] >= 16" "$e: the reads before the stuck one count"
	expect_json "d['jobs'][0]['runtime_ns'] > 5e8"
	[ $e != sync ] || json_is "d['jobs'][0]['read']['ios']" 16
done

# The file system holds the request uninterruptibly: the report still
# comes in time; the exit waits for the file system.
stop_stuck TERM 143 u/data --output-format=json
wait_json "$T/out" $report_ms
wait_gone $_pid 10
expect_rc 143
json_is "d['jobs'][0]['abandoned']" True
json_is "d['jobs'][0]['read']['ios']" 16

# A file the run extended (1 MiB of faultfs's /data laid out to 2),
# its job given up on: its worker may yet write it, so it is left as it
# is, not put back to its length, and a layout_kept warning says so.
stop_stuck INT 130 i/data --size=2m --output-format=json
wait_json "$T/out" $report_ms
wait_gone $_pid 5
expect_rc 130
json_is "d['jobs'][0]['abandoned']" True
expect_in err "warning: job 'stuck': i/data: left as it is: the job was given up on while still in an I/O .*not put back to its length"
json_is "[w['code'] for w in d['warnings'] if 'given up on' in w['message']]" "['layout_kept']"
# The text report says the job was given up on.
stop_stuck INT 130 i/data
wait_gone $_pid 5
expect_rc 130
expect_in out 'stuck: clone 0, group 0, .*, interrupted'
expect_in out 'abandoned: an I/O was still blocked'
expect_in out 'interrupted by SIGINT'
exit 0
