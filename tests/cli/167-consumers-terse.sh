#!/bin/sh
# A terse reader (issue 13): blktests' common/fio runs fio with
# --output=FILE --output-format=terse --terse-version=4 --group_reporting=1
# (_run_fio) and _fio_perf_report takes fields by number with
# `cut -d ';' -f N` (its FIO_TERSE_FIELDS table: "read io" 6 .. "system
# cpu" 130, 11 fields per disk after 162), refusing more than one line.
# The reading below follows that table (written here, not copied).
# Outside truth: the reads of a loop device in /proc/diskstats around the
# run, and the rate the two jobs of the group are held to.
# lane: paced
. "$(dirname "$0")/lib.sh"

loop_disk d.img 16
name=${dev#/dev/}
stat() { awk -v n="$name" '$3 == n { print $4, $5, $6 }' /proc/diskstats; }

set -- $(stat)
run --output="$T/fio_perf" --output-format=terse --terse-version=4 \
	--group_reporting=1 --bs=4096 --rw=randread --norandommap --numjobs=2 \
	--name=reads --direct=1 --filename="$dev" --ioengine=libaio \
	--iodepth=4 --size=8m --time_based --runtime=1200ms --rate_iops=1000
set -- "$@" $(stat)
expect_rc 0
[ $# = 6 ] || die "no $name in /proc/diskstats"
expect_empty err
"$PY" - "$T/fio_perf" $(($4 - $1)) $(($5 - $2)) $(($6 - $3)) "$name" <<'EOF' || die "blktests' reading of the terse line failed: $(cat "$T/fio_perf")"
import sys
lines = open(sys.argv[1]).read().splitlines()
rios, rmerges, rsec = (int(x) for x in sys.argv[2:5])
disk = sys.argv[5]
# _fio_perf_report: "too many terse lines" unless one (the disk's fields
# are on the same line).
assert len(lines) == 1, lines
f = [None] + lines[0].split(";")       # cut's field N is f[N]
def num(n):
    return float(f[n].rstrip("%"))
assert f[1] == "4" and f[3] == "reads" and f[4] == "0" and f[5] == "0", f[1:6]
io_kib, bw, iops, runtime = num(6), num(7), num(8), num(9)
# read io (KiB), bandwidth (KiB/s), iops, runtime (ms) against the device
ios = rios + rmerges
assert ios - 64 <= io_kib / 4 <= ios, (io_kib, rios, rmerges)
assert rsec - 64 * 8 <= io_kib * 2 <= rsec, (io_kib, rsec)
assert 1150 <= runtime <= 1400, runtime
assert abs(iops - io_kib / 4 * 1000 / runtime) <= 2, (iops, io_kib, runtime)
assert abs(bw - io_kib * 1000 / runtime) <= 2, (bw, io_kib, runtime)
assert 1700 <= iops <= 2100, iops                # two jobs at 1000 IOPS
# slat 10-13, clat 14-17, lat 38-41 (us): min <= mean <= max
for b in (14, 38):
    assert num(b) <= num(b + 2) <= num(b + 1) and num(b + 1) > 0, f[b:b + 4]
# bandwidth min, max, %, mean, stdev (42-46): the samples' mean as a
# share of the group's bandwidth; the unit is the whole group: ~100%
assert f[44].endswith("%") and 95 <= num(44) <= 100, f[44]
# (min and max are whole KiB/s, as fio's: the mean may pass max by < 1)
assert num(42) <= num(45) < num(43) + 1, f[42:47]
assert 6800 <= num(45) <= 8400, num(45)          # 2 x 4000 KiB/s
# nothing written or trimmed
assert num(47) == 0 and num(48) == 0 and num(88) == 0, (f[47], f[88])
# user and system cpu (129, 130) per cent; ctx, majf, minf (131-133)
assert f[129].endswith("%") and f[130].endswith("%")
assert 0 <= num(129) <= 100 and 0 <= num(130) <= 100 and num(131) > 0
# io depth 134-140 and latency 141-162 shares, per cent
depth = [num(n) for n in range(134, 141)]
assert all(f[n].endswith("%") for n in range(134, 163))
assert 99 <= sum(depth) <= 101, depth
# (fio's terse has no ns buckets: I/Os done under 1 us, as those that
# complete inside io_submit here, are not in them)
lat = [num(n) for n in range(141, 163)]
assert all(0 <= x <= 100 for x in lat) and 0 < sum(lat) <= 101, lat
# disk utilization: the disk's name, then read ios as diskstats counts
assert f[163] == disk, f[163:]
assert 0 < int(f[164]) <= rios, (f[164], rios)
EOF
exit 0
