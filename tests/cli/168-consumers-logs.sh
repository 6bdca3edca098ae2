#!/bin/sh
# Readers of fio's log files and json+ bins (issue 13), reading iorig's as
# they read fio's (each reading written here from their public source):
#   fio tools/fiologparser.py  Interval/TimeSeries: each line split at
#       ", ", int(time), int(value); a sample covers the time since the one
#       before it
#   fio tools/hist/fiologparser_hist.py and PerfKitBenchmarker
#       linux_packages/fio.py _ParseHistogram: csv of ints, column 1 the
#       direction, 2 the block size, the bins from column 3 (1856 of them:
#       guess_max_from_bins with fio's group_nr 29)
#   fio tools/fio_jsonplus_clat2csv: jobs[i][ddir]['clat_ns']['bins'],
#       keys the bucket's ns as a string, counts adding up to N
# Outside truth: the reads of a loop device in /proc/diskstats around the
# run. fio's log parsers, which Debian does not ship, run in test 203.
# lane: parallel
. "$(dirname "$0")/lib.sh"

loop_disk d.img 16
name=${dev#/dev/}
stat() { awk -v n="$name" '$3 == n { print $4, $5, $6 }' /proc/diskstats; }

set -- $(stat)
run --name=t --filename="$dev" --ioengine=libaio --direct=1 --rw=randread \
	--bs=4k --iodepth=2 --size=8m --time_based --runtime=1200ms \
	--rate_iops=1000 --write_bw_log=t --write_iops_log=t --write_lat_log=t \
	--log_avg_msec=200 --write_hist_log=t --log_hist_msec=200 \
	--output-format=json+ --output=t.json
set -- "$@" $(stat)
expect_rc 0
[ $# = 6 ] || die "no $name in /proc/diskstats"
for f in t_bw.1.log t_iops.1.log t_clat.1.log t_lat.1.log t_clat_hist.1.log; do
	[ -s "$f" ] || die "no $f"
done
"$PY" - $(($4 - $1)) $(($5 - $2)) <<'EOF' || die "a log reader failed"
import csv, json
import sys
rios, rmerges = int(sys.argv[1]), int(sys.argv[2])
d = json.load(open("t.json"))
r = d["jobs"][0]["read"]
ios = r["total_ios"]
assert ios <= rios + rmerges <= ios + 64, (ios, rios, rmerges)

# fiologparser.py: time and value of each line, ints, ", " between.
def series(path):
    out = []
    for line in open(path):
        time, value = line.rstrip("\r\n").rsplit(", ")[:2]
        cols = line.rstrip("\r\n").split(", ")
        assert cols[2] in ("0", "1", "2") and int(cols[3]) in (0, 4096), line
        out.append((int(time), int(value)))
    return out
prev = 0
done = 0.0
for t, v in series("t_iops.1.log"):
    assert t > prev, (t, prev)
    done += v * (t - prev) / 1000.0       # IOPS over the sample's span
    prev = t
assert abs(done - ios) <= 0.05 * ios + 5, (done, ios)
prev = 0
kib = 0.0
for t, v in series("t_bw.1.log"):
    kib += v * (t - prev) / 1000.0
    prev = t
assert abs(kib - 4 * ios) <= 0.05 * 4 * ios + 20, (kib, ios)
for t, v in series("t_clat.1.log"):
    assert r["clat_ns"]["min"] <= v <= r["clat_ns"]["max"], v

# fiologparser_hist.py / PKB _ParseHistogram: int cells, direction and
# block size, 1856 bins; the counts add up to every read.
n = 0
for row in csv.reader(open("t_clat_hist.1.log"), delimiter=","):
    cells = [c for c in row if c.strip() != ""]
    vals = [int(c) for c in cells]
    assert vals[1] == 0 and vals[2] == 4096, vals[:3]
    assert len(vals) - 3 == 29 * 64, len(vals)
    n += sum(vals[3:])
assert n == ios, (n, ios)

# fio_jsonplus_clat2csv: clat_ns bins, keyed by ns, counts adding to N.
bins = r["clat_ns"]["bins"]
assert sum(bins.values()) == r["clat_ns"]["N"] == ios
mean = sum(int(k) * v for k, v in bins.items()) / ios
assert abs(mean - r["clat_ns"]["mean"]) <= 0.05 * r["clat_ns"]["mean"] + 50, \
    (mean, r["clat_ns"]["mean"])
EOF

# fio's own reader of json+ bins, as Debian's fio package ships it.
C2C=$(command -v fio_jsonplus_clat2csv) ||
	die "no fio_jsonplus_clat2csv: the Makefile's deps install fio"
{ "$PY" "$C2C" t.json c.csv && "$PY" "$C2C" --validate t.json c.csv; } \
	>"$T/c2c" 2>&1 || die "fio_jsonplus_clat2csv --validate: $(cat "$T/c2c")"
grep -q "validated" "$T/c2c" || die "fio_jsonplus_clat2csv: $(cat "$T/c2c")"
exit 0
