#!/bin/sh
# latency_target: fio's search for the largest queue depth whose I/Os stay
# within a target. The device: tests/faultfs run single-threaded (-s),
# every read of its file taking 2 ms, one after the other, so that a read
# at queue depth D takes about 2.2*D ms (checked first, from the
# outside, by the time the job takes: about 450 reads a second whatever
# the depth).
# - latency_target=12ms, latency_percentile=90, latency_window=100ms:
#   the depth settles between 2 and 5 (5 * 2.2 = 11 ms; 6 would be 13),
#   the job ends after a last window at it (well before runtime=5s), and
#   fio 3.33 on the same job settles within 2 of it;
# - latency_run=1: the job runs its whole runtime;
# - latency_target=1ms (below any read's 2 ms) with the default
#   latency_percentile=100: the job fails with ETIMEDOUT after one read,
#   as fio's does.
. "$(dirname "$0")/lib.sh"

d=$("$PY" -c "print(','.join('%d:2' % (i * 4096) for i in range(16)))")
faultfs_mount "$T/s" -s --size=64k --delay="$d"
F=s/data
job="--name=l --filename=$F --rw=randread --direct=1 --ioengine=io_uring --iodepth=16 --output-format=json"

# The rig: reads are serialised (IOPS do not grow with the depth)
run $job --runtime=1 --time_based
expect_rc 0
expect_json "300 < d['jobs'][0]['read']['ios'] < 600" "rig: one read at a time, 2 ms each"

t0=$(now_ms)
run $job --latency_target=12ms --latency_window=100ms \
	--latency_percentile=90 --runtime=5 --time_based
t1=$(now_ms)
expect_rc 0
expect_json "2 <= d['jobs'][0]['latency_depth'] <= 5" "settled depth"
[ $((t1 - t0)) -lt 4000 ] || die "the search did not end the job early ($((t1 - t0)) ms)"
depth=$(json "d['jobs'][0]['latency_depth']")
if command -v fio >/dev/null 2>&1; then
	fio $job --latency_target=12ms --latency_window=100ms \
		--latency_percentile=90 --runtime=5 --time_based \
		--output="$T/fio.json" >/dev/null 2>&1
	"$PY" - "$T/fio.json" "$depth" <<'PYEOF' || die "fio settles elsewhere"
import json, sys
t = open(sys.argv[1]).read()
fd = json.loads(t[t.index("{"):])["jobs"][0]["latency_depth"]
if abs(fd - int(sys.argv[2])) > 2:
    sys.exit("fio %d, iorig %s" % (fd, sys.argv[2]))
PYEOF
fi

t0=$(now_ms)
run $job --latency_target=12ms --latency_window=100ms \
	--latency_percentile=90 --latency_run=1 --runtime=1 --time_based
t1=$(now_ms)
expect_rc 0
[ $((t1 - t0)) -ge 950 ] || die "latency_run=1 ended after $((t1 - t0)) ms"

run $job --latency_target=1ms --runtime=2 --time_based
expect_rc 1
json_is "d['jobs'][0]['error']['errno']" 110
json_is "d['jobs'][0]['latency_depth']" 1
expect_in err "more than latency_target at depth 1"
if command -v fio >/dev/null 2>&1; then
	fio $job --latency_target=1ms --runtime=2 --time_based \
		--output="$T/fio.json" >/dev/null 2>&1
	"$PY" - "$T/fio.json" <<'PYEOF' || die "fio does not fail the same way"
import json, sys
t = open(sys.argv[1]).read()
d = json.loads(t[t.index("{"):])["jobs"][0]
assert d["error"] == 110, d["error"]
PYEOF
fi
echo ok
