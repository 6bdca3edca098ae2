#!/bin/sh
# SIGINT/SIGTERM while a large file is being laid out (before any I/O):
# iorig stops within a second (the layout looks at the stop flag per MiB
# and keeps little dirty data, so neither a chunk nor the closing fsync
# holds it back), exits 130/143, and the report is whole: the job did not
# run, was interrupted, and has no error. Later groups do not start. The
# file the stopped run created is removed.
. "$(dirname "$0")/lib.sh"

# Room for what a second of layout writes.
avail_kb=$(df -Pk "$T" | awk 'NR == 2 { print $4 }')
[ "${avail_kb:-0}" -gt 4194304 ] || skip "needs 4 GiB free in $T"
# Less than the free space (checked at plan time), at most 64 GiB.
size_kb=$((avail_kb - 1048576))
[ $size_kb -le 67108864 ] || size_kb=67108864
limit=1000
[ -z "${IORIG_SAN:-}" ] || limit=3000

# stop_layout SIG CODE ARGS...: starts iorig on a big file to lay out,
# sends SIG once the layout is under way; the exit must follow in time.
stop_layout() {
	_sig=$1 _code=$2
	shift 2
	rm -f big
	"$IORIG" --name=lay --filename=big --size=${size_kb}k "$@" >"$T/out" \
		2>"$T/err" &
	_pid=$!
	_n=100
	until [ -s big ]; do
		expect_running $_pid "laying out"
		_n=$((_n - 1))
		[ $_n -gt 0 ] || die "no layout after 5 s"
		sleep 0.05
	done
	sleep 0.2
	_t0=$(now_ms)
	kill -$_sig $_pid
	wait_gone $_pid 10
	_ms=$(($(now_ms) - _t0))
	expect_rc $_code
	[ $_ms -le $limit ] || die "SIG$_sig during layout: took $_ms ms to exit"
	[ ! -e big ] || die "the stopped run left big ($(fsize big) bytes)"
}

stop_layout INT 130 --output-format=json
json_is "d['interrupted']" True
json_is "d['signal']" SIGINT
json_is "d['jobs'][0]['ran']" False
json_is "d['jobs'][0]['interrupted']" True
json_is "d['jobs'][0]['error']" None
expect_not_in err "^iorig: job 'lay'"
expect_in err "^iorig: warning: job 'lay': big: removed"

# A later group does not start; the text report says what happened.
stop_layout TERM 143 --name=after --stonewall --ioengine=null --size=1m
expect_in out 'lay: clone 0, group 0: not run'
expect_in out 'after: clone 0, group 1: not run'
expect_in out 'interrupted by SIGTERM'
rm -f big
exit 0
