#!/bin/sh
# SIGINT during verification: a verify_only run over a region read with
# O_DIRECT one block at a time is stopped within a second, exits 130 and
# still prints a valid JSON report that says it was interrupted.
# lane: paced
. "$(dirname "$0")/lib.sh"

have_odirect || skip "the scratch file system has no O_DIRECT"
# (256 MiB: 65536 reads; 64 MiB were done in 0.6 s on a fast day, just
# after the signal at 0.5 s)
JOB="--name=v --filename=v.dat --size=256m --bs=4k --rw=write --verify=crc32c"
run $JOB --ioengine=libaio --iodepth=16 --direct=1 --do_verify=0
expect_rc 0

"$IORIG" $JOB --verify_only=1 --direct=1 --output-format=json \
	>"$T/out" 2>"$T/err" &
pid=$!
sleep 0.5
kill -0 "$pid" 2>/dev/null || skip "the verification ended within 0.5 s"
sent=$(now_ms)
kill -INT "$pid"
wait_gone "$pid" 3
took=$(($(now_ms) - sent))
expect_rc 130
[ "$took" -lt 1500 ] || die "took ${took} ms to stop after SIGINT"
json_is "d['interrupted']" True
json_is "d['signal']" SIGINT
expect_json "d['jobs'][0]['verify']['blocks_checked'] > 0" \
	"the report covers the blocks checked before the signal"
expect_json "d['jobs'][0]['verify']['blocks_checked'] < 65536" \
	"the signal stopped the verification early"
exit 0
