#!/bin/sh
# Buffered reads of a region smaller than the available memory warn that
# the figures measure the page cache when the cache is kept (invalidate=0
# without fadvise_hint=dontneed) or blocks are read more than once
# (loops > 1, time_based, io_size larger than the region, norandommap with
# random reads); not for direct=1, jobs that only write, or one pass after
# the cache was dropped.
. "$(dirname "$0")/lib.sh"

avail=$(sed -n 's/^MemAvailable: *\([0-9]*\) kB$/\1/p' /proc/meminfo)
[ -n "$avail" ] || skip "no MemAvailable in /proc/meminfo"
[ "$avail" -gt 8192 ] || skip "less than 8 MiB of memory available"

mkrand data.dat 4194304
W='page cache, not the device'

# warns REASON ARGS...: the job runs and warns, naming REASON.
warns() {
	_why=$1
	shift
	run --name=c --filename=data.dat --bs=64k "$@"
	expect_rc 0
	expect_in err "warning: job 'c': buffered reads \(direct=0\) of a 4MiB region.*$_why.*$W"
}

quiet() {
	run --name=c --filename=data.dat --bs=64k "$@"
	expect_rc 0
	expect_not_in err "$W"
}

warns 'loops=2' --loops=2
warns 'time_based' --time_based --runtime=100ms
warns 'io_size' --io_size=8m
warns 'norandommap' --rw=randread --norandommap
warns 'invalidate=0' --invalidate=0
warns 'loops=3' --rw=randrw --loops=3
# numjobs: one warning for the job, not one per clone.
warns 'loops=2' --loops=2 --numjobs=3
[ "$(grep -c "$W" "$T/err")" -eq 1 ] || die "expected one warning"

quiet
quiet --rw=randread
quiet --invalidate=0 --fadvise_hint=dontneed
quiet --rw=write --loops=2
quiet --rw=randwrite --time_based --runtime=100ms
if have_odirect "$T"; then
	quiet --direct=1 --loops=2
	quiet --direct=1 --invalidate=0 --time_based --runtime=100ms
fi
# The null engine reads nothing from a device.
run --name=c --ioengine=null --size=4m --bs=64k --loops=2
expect_rc 0
expect_not_in err "$W"
exit 0
