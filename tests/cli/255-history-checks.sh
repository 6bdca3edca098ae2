#!/bin/sh
# Checks against the history (issue 25 §3): read.iops>=history.p10 and
# the like are judged against the earlier runs of the same job (same
# options' hash) on the same device model (a figure the history records
# only because a check names it too). The thresholds are recomputed
# here from the rows python3's sqlite3 module reads (percentiles linear
# between the nearest two, as numpy's default; the sample's stddev), for
# all runs and for history[N] (the last N); the first run has no history
# (n/a, saying so, exit 0); a check that fails exits 3; another job (other
# options) has its own history; the usage errors (a history check without
# --history, a bad term, a function other than mean) exit 2, nothing run.
# lane: parallel
. "$(dirname "$0")/lib.sh"

"$PY" -c 'import sqlite3' 2>/dev/null || skip "needs python3's sqlite3 module"

mkrand f 1048576
job() {
	run --output-format=json --history="$T/h.db" --name=hc \
		--filename="$T/f" --size=1m --rw=randread --bs=4k \
		--ioengine=psync --runtime=100ms --time_based "$@"
}
checks="--check=read.iops>=history.p10
--check=read.lat.p99<=history.mean+3*history.stddev
--check=read.iops>=0.5*history[3].median
--check=read.ios>=history[2].min-history[2].stddev+1
--check=read.clat.p99.9<=2*history.max
--check=read.lat.p42<=history.max*10"

# the first run: nothing to compare with
job $checks
expect_rc 0
"$PY" - out <<'PYEOF' || die "first run: n/a"
import json, sys
c = json.load(open(sys.argv[1]))["checks"]
assert len(c) == 6 and all(x["pass"] is None for x in c), c
assert all(x["reason"].startswith("no history yet") for x in c), c
PYEOF

i=1
while [ $i -le 5 ]; do
	job $checks
	[ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] || die "run $i: exit $rc"
	cp out "r$i.json"
	i=$((i + 1))
done

"$PY" - h.db r1.json r2.json r3.json r4.json r5.json <<'PYEOF' || die "thresholds"
import json, math, sqlite3, statistics, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)

def pct(v, p):
    v = sorted(v)
    r = p / 100 * (len(v) - 1)
    k = math.floor(r)
    return v[k] + (v[k + 1] - v[k]) * (r - k) if k + 1 < len(v) else v[-1]

def hist(metric, before_id, last=None):
    """The figure of the runs before run before_id, newest first."""
    rows = [v for v, in db.execute(
        "SELECT f.value FROM figures f JOIN units u ON u.id = f.unit_id "
        "JOIN runs r ON r.id = u.run_id WHERE f.metric = ? AND r.id < ? "
        "ORDER BY r.id DESC", (metric, before_id))]
    return rows[:last] if last else rows

def close(a, b, what):
    assert abs(a - b) <= 1e-9 * max(1.0, abs(b)), (what, a, b)

# runs 2..6 of the database are r1..r5 (run 1: the first, n/a)
for k, name in enumerate(sys.argv[2:]):
    rid = k + 2
    d = json.load(open(name))
    c = d["checks"]
    n = rid - 1                 # runs before it
    v = hist("read.iops", rid)
    assert len(v) == n
    close(c[0]["threshold"], pct(v, 10), "p10")
    close(c[0]["value"], d["jobs"][0]["read"]["iops"], "value")
    assert c[0]["pass"] == (c[0]["value"] >= c[0]["threshold"])
    lat = hist("read.lat.p99", rid)
    if n < 2:
        assert c[1]["pass"] is None and "fewer than 2" in c[1]["reason"], c[1]
    else:
        close(c[1]["threshold"], statistics.mean(lat) +
              3 * statistics.stdev(lat), "mean+3sd")
    close(c[2]["threshold"], 0.5 * statistics.median(hist("read.iops",
                                                        rid, 3)), "median")
    ios = hist("read.ios", rid, 2)
    if len(ios) < 2:
        assert c[3]["pass"] is None, c[3]
    else:
        close(c[3]["threshold"], min(ios) - statistics.stdev(ios) + 1,
              "min-sd+1")
    close(c[4]["threshold"], 2 * max(hist("read.clat.p99.9", rid)), "max")
    # a percentile the history records only because a check names it
    close(c[5]["threshold"], 10 * max(hist("read.lat.p42", rid)), "p42")
    assert len(hist("read.lat.p42", rid)) == n
    for x in c:
        if x["pass"] is not None:
            op = {">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b}
            assert x["pass"] == op[x["op"]](x["value"], x["threshold"]), x
PYEOF

# a failing one exits 3 and says value and threshold
job --check='read.iops>=history.max*1000'
expect_rc 3
expect_in err 'check failed: job .hc.: read.iops>=history.max\*1000'
job --check='read.iops>=history.max*1000' --output-format=text
expect_rc 3
expect_in out 'FAIL +hc: read.iops>=history.max\*1000 .*threshold .*\(history of 7 runs\)'

# another job (another block size) has a history of its own
job --bs=8k --check='read.iops>=history.p10'
expect_rc 0
json_is 'd["checks"][0]["pass"]' None
expect_json '"no history yet" in d["checks"][0]["reason"]'

# usage errors: nothing run
rm -f h.db h.db-wal h.db-shm
expect_refused 'compares with the history, but no --history' \
	--name=u --filename="$T/u" --size=1m --rw=read \
	--check='read.iops>=history.p10'
expect_refused 'expected history.STAT' --name=u --filename="$T/u" \
	--size=1m --rw=read --history="$T/h.db" --check='read.iops>=history.p'
expect_refused 'expected history.STAT' --name=u --filename="$T/u" \
	--size=1m --rw=read --history="$T/h.db" \
	--check='read.iops>=history.mean+history.p5+history.p10'
expect_refused 'plain metric or mean\(\), not cv\(\)' --name=u \
	--filename="$T/u" --size=1m --rw=read --history="$T/h.db" \
	--check='cv(read.iops)<=history.mean'
[ ! -e u ] && [ ! -e h.db ] || die "a refused run made a file"
echo "ok: history checks against thresholds recomputed from the rows"
