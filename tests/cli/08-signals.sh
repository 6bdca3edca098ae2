#!/bin/sh
# SIGINT and SIGTERM stop a run at once: exit 128+signal, and the report of
# what ran (valid JSON saying "interrupted") is still written.
# lane: parallel
. "$(dirname "$0")/lib.sh"

# interrupt SIG CODE ARGS...: starts iorig with ARGS, sends SIG half a
# second after its first job's thread is there (a thread, not a guess at
# how long a start takes on a busy machine), expects exit CODE within 3 s
# of the signal (of a 30 s run: at once, not at its end).
interrupt() {
	_sig=$1 _code=$2
	shift 2
	"$IORIG" "$@" >"$T/out" 2>"$T/err" &
	_pid=$!
	wait_threads $_pid 2 10000
	sleep 0.5
	expect_running $_pid "SIG$_sig"
	_t0=$(now_ms)
	kill -$_sig $_pid
	wait_gone $_pid 5
	_ms=$(($(now_ms) - _t0))
	expect_rc $_code
	[ $_ms -le 3000 ] || die "SIG$_sig: took $_ms ms to exit"
}

interrupt INT 130 --name=spin --ioengine=null --time_based --runtime=30 \
	--output-format=json
expect_json "d['interrupted'] is True"
json_is "d['signal']" SIGINT
json_is "d['jobs'][0]['interrupted']" True
json_is "d['jobs'][0]['error']" None
expect_json "d['jobs'][0]['read']['ios'] > 0" "some I/O was done"
expect_json "d['jobs'][0]['runtime_ns'] < 5e9"

interrupt TERM 143 --name=spin --ioengine=null --time_based --runtime=30 \
	--numjobs=2 --output-format=json
expect_json "d['interrupted'] is True"
json_is "d['signal']" SIGTERM
json_is "[j['interrupted'] for j in d['jobs']]" '[True, True]'

# Later stonewall groups do not start after the signal.
interrupt INT 130 --ioengine=null --time_based --runtime=30 --name=first \
	--name=second --stonewall --output-format=json
json_is "[j['ran'] for j in d['jobs']]" '[True, False]'

# A sync job on a file, and the text report.
interrupt INT 130 --name=file --filename=f.dat --size=1m --bs=4k \
	--time_based --runtime=30
expect_in out 'IOPS'
expect_in out 'SIGINT'
exit 0
