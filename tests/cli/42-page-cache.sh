#!/bin/sh
# Buffered reads of a region smaller than the available memory warn that
# the figures measure the page cache when the cache is kept (invalidate=0
# without fadvise_hint=dontneed, with or without loops > 1 or time_based),
# filled ahead (fadvise_hint=willneed) or blocks are read more than once
# in a pass (io_size larger than the region, norandommap with random
# reads); not for direct=1, jobs that only write, or passes after each of
# which the cache is dropped again (invalidate=1, as fio does per loop).
# Outside truth for that: a loop device's read sectors grow by the region
# at every pass of loops=3, as with fio.
# lane: parallel
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

warns 'loops=2' --loops=2 --invalidate=0
warns 'time_based' --time_based --runtime=100ms --invalidate=0
warns 'io_size' --io_size=8m
warns 'norandommap' --rw=randread --norandommap
warns 'invalidate=0' --invalidate=0
warns 'loops=3' --rw=randrw --loops=3 --invalidate=0
warns 'fadvise_hint=willneed' --fadvise_hint=willneed
# numjobs: one warning for the job, not one per clone.
warns 'loops=2' --loops=2 --numjobs=3 --invalidate=0
[ "$(grep -c "$W" "$T/err")" -eq 1 ] || die "expected one warning"

quiet
quiet --rw=randread
quiet --loops=2
quiet --time_based --runtime=100ms
quiet --invalidate=0 --fadvise_hint=dontneed
quiet --rw=write --loops=2
quiet --rw=randwrite --time_based --runtime=100ms
if have_odirect "$T"; then
	quiet --direct=1 --loops=2
	quiet --direct=1 --invalidate=0 --time_based --runtime=100ms
fi
# Each pass drops the cache again: a buffered sequential read of a 16 MiB
# loop device with loops=3 reads 48 MiB from the device, and does not warn.
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null 2>&1; then
	loop_disk disk.img 16
	name=$(basename "$dev")
	s0=$(awk '{print $3}' "/sys/block/$name/stat")
	run --name=c --filename="$dev" --rw=read --bs=128k --loops=3
	s1=$(awk '{print $3}' "/sys/block/$name/stat")
	expect_rc 0
	expect_not_in err "$W"
	mib=$(( (s1 - s0) / 2048 ))
	[ "$mib" -ge 46 ] && [ "$mib" -le 50 ] ||
		die "loops=3 over 16 MiB read $mib MiB from $dev, not 48"
	# invalidate=0: once from the device, then the cache (and a warning)
	run --name=c --filename="$dev" --rw=read --bs=128k --loops=3 \
		--invalidate=0
	expect_rc 0
	expect_in err "$W"
fi
# The null engine reads nothing from a device.
run --name=c --ioengine=null --size=4m --bs=64k --loops=2
expect_rc 0
expect_not_in err "$W"
exit 0
