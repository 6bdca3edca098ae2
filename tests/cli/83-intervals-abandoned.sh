#!/bin/sh
# interval= and --stream when a job is given up on after SIGINT (an I/O
# stuck in tests/faultfs): the last interval is closed as of then, the
# intervals still add up to the figures reported, and the stream has
# every one of them.
# Paced: it waits for a stuck I/O (0.07 s of CPU in 1.15 s alone, 0.11
# of 1.22 under the sanitizers), and held beside 42, three times plain
# and twice sanitized.
# lane: paced
. "$(dirname "$0")/lib.sh"

faultfs_mount "$T/i" --intr --size=1m --delay=65536:2500
report_ms=1200
[ -z "${IORIG_SAN:-}" ] || report_ms=3000

"$IORIG" --name=stuck --filename=i/data --bs=4k --interval=100ms \
	--stream=s.jsonl --output-format=json >"$T/out" 2>"$T/err" &
pid=$!
sleep 0.5
expect_running $pid SIGINT
kill -INT $pid
wait_json "$T/out" $report_ms
wait_gone $pid 5
expect_rc 130
json_is "d['jobs'][0]['abandoned']" True
json_is "d['jobs'][0]['read']['ios']" 16
iv="d['jobs'][0]['intervals']"
json_is "sum(i['read']['ios'] for i in $iv)" 16
json_is "sum(i['read']['bytes'] for i in $iv)" 65536
json_is "$iv[-1]['end_ns'] == d['jobs'][0]['runtime_ns']" True
expect_json "len($iv) >= 5" "intervals up to the signal and the grace"
json_is "[json.loads(l)['index'] for l in open('s.jsonl')] == list(range(len($iv)))" True
exit 0
