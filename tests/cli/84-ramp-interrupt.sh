#!/bin/sh
# A job stopped by SIGINT during ramp_time measured nothing: the report
# says so and gives no figures (rates and summary null in JSON, "not
# measured" in text and table), its checks are n/a (neither PASS nor
# FAIL), and the exit status is the signal's. The warm-up is no
# measurement: the old report gave its figures as the job's and passed
# the checks on them. A job stopped after its ramp still measures.
# No clock races the run: the signal comes 0.3 s after the job's thread
# is there, 30 s before its ramp ends; or once a stream line says the
# ramp is over. The jobs do 1000 I/Os a second: a wait, not a busy loop.
# lane: parallel
. "$(dirname "$0")/lib.sh"

# sigint_after MS ARGS...: starts iorig with ARGS, sends SIGINT MS
# milliseconds after its job's thread is there and waits for it.
sigint_after() {
	_ms=$1
	shift
	"$IORIG" "$@" >"$T/out" 2>"$T/err" &
	_pid=$!
	wait_threads $_pid 2 10000
	sleep "$(awk "BEGIN { print $_ms / 1000 }")"
	expect_running $_pid SIGINT
	kill -INT $_pid
	wait_gone $_pid 10
}

JOB="--name=warm --ioengine=null --rw=randread --bs=4k --size=1m
	--rate_iops=1k --time_based --runtime=60 --ramp_time=30
	--check=read.iops>=1"

# JSON: nothing measured, no rates, the check n/a.
sigint_after 300 $JOB --output-format=json
expect_rc 130
json_is "d['signal']" SIGINT
json_is "d['jobs'][0]['ran']" True
json_is "d['jobs'][0]['interrupted']" True
json_is "d['jobs'][0]['measured']" False
json_is "d['groups'][0]['measured']" False
json_is "d['jobs'][0]['runtime_ns']" 0
json_is "d['jobs'][0]['read']['ios']" 0
json_is "d['jobs'][0]['read']['lat_ns']['count']" 0
json_is "d['jobs'][0]['read']['iops']" None
json_is "d['jobs'][0]['read']['bw_bytes']" None
json_is "d['groups'][0]['read']['iops']" None
json_is "d['jobs'][0]['summary']" None
json_is "d['checks'][0]['pass']" None
json_is "d['checks'][0]['value']" None
expect_json "'nothing measured' in d['checks'][0]['reason']"
expect_not_in err 'check failed'

# Text: "not measured", no rate line, the check n/a and not passed.
sigint_after 300 $JOB
expect_rc 130
expect_in out '^warm: .*not measured: stopped during ramp_time, interrupted'
expect_not_in out 'IOPS'
expect_in out 'checks: 0 passed, 0 failed, 1 n/a'
expect_in out '^ *n/a +warm: read.iops>=1 +nothing measured'
expect_not_in out 'PASS'

# Table: no row, a comment instead.
sigint_after 300 $JOB --output-format=table
expect_rc 130
expect_in out '^# warm: not measured: stopped during ramp_time'
expect_not_in out '^warm '
expect_in out '^# check n/a'

# Stopped after the ramp (intervals start with the measured phase: a
# streamed line says it has begun): figures of the measured phase, the
# check passes; the run's wall time holds the ramp, the runtime not.
"$IORIG" --name=warm --ioengine=null --rw=randread --bs=4k --size=1m \
	--rate_iops=1k --time_based --runtime=60 --ramp_time=200ms \
	--interval=100ms --stream=s.jsonl --check='read.iops>=1' \
	--output-format=json >"$T/out" 2>"$T/err" &
pid=$!
i=0
while running $pid && [ ! -s s.jsonl ] && [ $i -lt 400 ]; do
	sleep 0.05
	i=$((i + 1))
done
expect_running $pid SIGINT
[ -s s.jsonl ] || die "no interval streamed in 20 s"
kill -INT $pid
wait_gone $pid 10
expect_rc 130
json_is "d['jobs'][0]['measured']" True
expect_json "d['jobs'][0]['read']['ios'] > 0"
expect_json "0 < d['jobs'][0]['runtime_ns'] <= d['wall_ns'] - 2e8" \
	"the measured phase excludes the 200 ms ramp"
json_is "d['checks'][0]['pass']" True
exit 0
