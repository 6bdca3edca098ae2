#!/bin/sh
# The cost of one I/O in the worker when every optional feature is off,
# counted by callgrind (instructions, repeatable where time is not): the
# null engine, 4 KiB random reads, every statistic still collected per
# I/O. The marginal cost between two runs of different lengths cancels
# setup and teardown. Measured 178 instructions per I/O (gcc 12, -O2, a
# CPU with BMI2 and the TSC: the issue round's copy for them); 195
# before that copy and the deadline's look once a round, 198 before the
# earlier cuts; 207
# before a sync round looked at the depth and took its request only
# after a queued I/O and read guard.next once per I/O, 210 before the
# limits (bytes, I/Os, the next pass) were counted down for the random
# map's usual case (limits_left); 239 before the tick conversions lost
# their clock test, a sync engine's
# round counted its inline completions together and left the request on
# the free list, the histograms' bucket index took one bsr, file 0's
# offset and descriptor came from the worker's state, queue()'s rare
# answers went out of line and the target was read past the fast path;
# 272 before the random map's usual case skipped the per-I/O region check
# (map_fast_check) and the completion kept its dir_stats pointer in a
# register (issue 26 section 2), 299-302 before the random map's usual
# case went inline in the loop (gen_next_inline) and the three histograms
# shared one range check, 360 before the per-I/O feature checks moved to
# once per round, 335 before the features of issue 12. The same method on
# io_uring (4k randread QD32 O_DIRECT, pinned): 487 on zram before issue
# 26 section 2; on a file, 498 before it, 440 after its first cuts and
# 393 after the second (libaio 410, 368, 342), 386 after the third
# (libaio 334); after the fourth (the BMI2 and TSC issue copy, the
# ring's own io_uring_enter calls, completions reaped into the free
# list) 296-299 pinned and 302-308 unpinned at 11.3-11.4 I/Os per reap,
# where it had measured 329-330 and 342-343 (libaio 285, was 312); the
# figure falls as more I/Os complete per reap (about 520 instructions a
# reap: 272 pinned at 25). The bound leaves room for
# compilers and CPUs without BMI2, not for another per-I/O branch per
# feature.
# lane: parallel
. "$(dirname "$0")/lib.sh"

BOUND=213

[ -z "${IORIG_SAN:-}" ] || skip "sanitizer build: instruction counts mean nothing"
command -v valgrind >/dev/null || skip "no valgrind (Debian package valgrind)"
command -v callgrind_annotate >/dev/null || skip "no callgrind_annotate"
# An unoptimized build counts twice as many.
if command -v readelf >/dev/null; then
	readelf --debug-dump=info "$IORIG" 2>/dev/null |
		grep -m1 DW_AT_producer | grep -Eq -- ' -O[23s]( |$)' ||
		skip "iorig not built with -O2 (make's default)"
fi

# cost N: instructions executed inside worker_main for a job of N I/Os.
cost() {
	valgrind --tool=callgrind --toggle-collect=worker_main \
		--callgrind-out-file="$T/cg.$1" "$IORIG" --name=hot \
		--ioengine=null --filename="$T/null" --size=100g --rw=randread \
		--bs=4k --number_ios="$1" --output-format=json \
		>"$T/out" 2>"$T/err.$1" || die "iorig under callgrind failed"
	json_is "d['jobs'][0]['read']['ios']" "$1"
	# Every I/O is still timed: one clat sample each.
	json_is "d['jobs'][0]['read']['clat_ns']['count']" "$1"
	sed -n 's/^summary: *//p' "$T/cg.$1"
}
a=$(cost 20000)
b=$(cost 100000)
[ -n "$a" ] && [ -n "$b" ] || die "no callgrind summary"
per=$(( (b - a) / 80000 ))
echo "null engine, plain job: $per instructions per I/O in the worker"
[ "$per" -le "$BOUND" ] ||
	die "$per instructions per I/O in the worker (bound $BOUND): a per-I/O cost was added to the plain path"
[ "$per" -ge 50 ] || die "$per instructions per I/O: the count is not measuring the I/O loop"
echo "ok hot path cost"
