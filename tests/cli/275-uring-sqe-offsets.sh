#!/bin/sh
# io_uring's own SQE per request (src/engines/uring.c, uring_queue_plain:
# the submission ring's index array points each entry at its request's
# SQE, written whole at its first I/O and six fields at each next one):
# what reaches the device is what the job asked for. On a loop device of
# 1024 blocks of 4 KiB, two passes of random O_DIRECT reads (and of
# writes) at iodepth=32, as the block layer sees them (block_rq_issue of
# that device, a trace instance of this test's own): every block twice,
# in whole 4 KiB blocks of the job's direction, nothing else; with
# registered buffers and files (the default) and without, unpinned and
# pinned to one CPU (the lingering wait, test 271), and with the files
# opened by several requests in turn (nrfiles=1 is the device). Each
# run's latencies: slat, clat and lat counted for each of its I/Os, lat
# the sum of the two (their means), none above the run's wall-clock
# time: pinned, they are counted from io_uring's own stamps unchecked
# (ctx.stamps_own, loop.h), where a stamp out of order would make one
# wrap to a huge value.
# lane: serial (a trace instance of the machine's block layer)
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip "needs root for tracefs and losetup"
command -v taskset >/dev/null 2>&1 || skip "needs taskset (util-linux)"
tracing
[ -w "$TR/instances" ] || skip "no writable tracefs instances at $TR"
[ -d "$TR/events/block/block_rq_issue" ] || skip "no block_rq_issue tracepoint"
loop_disk d.img 4
I=$TR/instances/iorig-t275-$$
mkdir "$I" || skip "cannot make a trace instance"
trap 'echo 0 >"$I/tracing_on" 2>/dev/null; rmdir "$I" 2>/dev/null
	losetup -d "$dev" 2>/dev/null; cd /; rm -rf "$T"' EXIT
mm=$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ')
maj=${mm%:*} min=${mm#*:}
echo 8192 >"$I/buffer_size_kb"
E=$I/events/block/block_rq_issue
echo "dev == $(((maj << 20) | min))" >"$E/filter" ||
	skip "cannot filter block_rq_issue by device"

# seen.py TRACE DIR: what the device saw (block_rq_issue lines): its
# requests of DIR (R or W) whole 4 KiB blocks, which cover each of the
# 1024 blocks twice (two random I/Os that happen to be contiguous may
# reach it merged: counted apart, as they were before)
cat >seen.py <<'EOF'
import re, sys
cover, bad, merged, reqs = {}, [], 0, 0
for line in open(sys.argv[1]):
    m = re.search(r'block_rq_issue: \d+,\d+ (\w+) \d+ \(.*?\) (\d+) \+ (\d+)',
                  line)
    if not m:
        continue
    rwbs, sector, n = m.group(1), int(m.group(2)), int(m.group(3))
    if sys.argv[2] not in rwbs:
        continue    # (a write job's own probe of the device reads it)
    reqs += 1
    if n % 8 or sector % 8 or not n:
        bad.append(line.strip())
        continue
    merged += n > 8
    for b in range(sector // 8, (sector + n) // 8):
        cover[b] = cover.get(b, 0) + 1
wrong = [b for b in range(1024) if cover.get(b, 0) != 2]
extra = [b for b in cover if b >= 1024]
print("%d requests (%d merged by the block layer), %d of 1024 blocks "
      "twice" % (reqs, merged, 1024 - len(wrong)))
if bad or wrong or extra:
    print("not whole 4 KiB blocks: %s" % bad[:5])
    print("blocks not twice: %s" % (wrong + extra)[:10])
    sys.exit(1)
EOF

# lats.py JSON DIR WALL_NS: each of the 2048 I/Os in the three latency
# figures, lat's sum the sum of slat's and clat's, none above WALL_NS
cat >lats.py <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))["jobs"][0][sys.argv[2]]
wall = int(sys.argv[3])
f = {k: d[k + "_ns"] for k in ("slat", "clat", "lat")}
n = d["ios"]
print("%d I/Os, lat %d..%d ns (slat %d..%d), run %d ns" % (
    n, f["lat"]["min"], f["lat"]["max"], f["slat"]["min"],
    f["slat"]["max"], wall))
assert n == 2048, "ios %d, not 2048" % n
for k, v in f.items():
    assert v["count"] == n, "%s counted %d of %d" % (k, v["count"], n)
    assert v["overflow"] == 0, "%s overflowed" % k
    assert 0 <= v["min"] <= v["max"] <= wall, "%s out of the run" % k
s = f["slat"]["mean"] + f["clat"]["mean"]
assert abs(f["lat"]["mean"] - s) <= 1e-6 * s, "lat's mean not their sum"
assert f["lat"]["min"] >= f["slat"]["min"] + f["clat"]["min"]
assert f["lat"]["max"] <= f["slat"]["max"] + f["clat"]["max"]
EOF

# blocks DIR ARGS...: iorig's two passes traced, then seen.py's check
# (its figures in $T/py) and lats.py's (in $T/lat)
blocks() {
	_d=$1
	shift
	: >"$I/trace"
	echo 1 >"$E/enable"
	echo 1 >"$I/tracing_on"
	_t0=$(date +%s%N)
	"$@" >"$T/out" 2>"$T/err" || die "iorig $*: failed"
	_t1=$(date +%s%N)
	echo 0 >"$I/tracing_on"
	echo 0 >"$E/enable"
	"$PY" seen.py "$I/trace" "$_d" >"$T/py" ||
		die "$*: the device saw another workload: $(cat "$T/py")"
	_dir=read
	[ "$_d" = R ] || _dir=write
	"$PY" lats.py "$T/out" $_dir $((_t1 - _t0)) >"$T/lat" 2>&1 ||
		die "$*: latencies: $(cat "$T/lat")"
}

JOB="--name=s --filename=$dev --ioengine=io_uring --direct=1 --bs=4k
	--iodepth=32 --size=4m --loops=2 --output-format=json"
for pre in "" "taskset -c 0"; do
	for o in "" "--fixedbufs=0 --registerfiles=0"; do
		for rw in randread:R randwrite:W; do
			blocks ${rw#*:} $pre "$IORIG" $JOB --rw=${rw%:*} $o
			echo "${pre:-unpinned} ${rw%:*} ${o:-(defaults)}:" \
				"$(cat "$T/py"); $(cat "$T/lat")"
		done
	done
done
echo "ok: io_uring's own SQE per request: every block twice in two passes, in whole 4 KiB blocks, pinned or not, registered or not; every I/O's latencies counted, lat their sum, within the run"
