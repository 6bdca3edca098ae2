#!/bin/sh
# repeat=N: N runs one after the other reported as one unit, whose
# repeats object holds each headline figure's runs and their mean,
# sample stddev, cv, min and max (recomputed here from the values and the
# unit's merged figures); checks use them through functions; sweeps, clones
# and the job after a repeated one; bad values are usage errors.
# lane: parallel
. "$(dirname "$0")/lib.sh"

NULLJOB="--ioengine=null --size=1m"

run --name=r $NULLJOB --rw=randrw --repeat=3 --output-format=json
expect_rc 0
json_is "len(d['jobs'])" 1
json_is "d['jobs'][0]['njobs']" 3
json_is "d['jobs'][0]['repeats']['n']" 3
# The runs wait for each other but are reported as one group.
json_is "[(g['group'], g['njobs']) for g in d['groups']]" "[(0, 3)]"
# The unit is the runs together: counts add up, runtimes too.
json_is "d['jobs'][0]['read']['ios'] + d['jobs'][0]['write']['ios']" 768
json_is "d['jobs'][0]['read']['ios'] == d['groups'][0]['read']['ios']" True
# Its phase figures cover every run, like its summary.
json_is "d['jobs'][0]['phase_cpu']['ios'] == d['jobs'][0]['summary']['reqs'] == 768" True
json_is "d['jobs'][0]['summary']['utime_ns'] == d['jobs'][0]['phase_cpu']['process']['user_ns']" True
json_is "sorted(d['jobs'][0]['repeats']['figures'])" \
	"['cpu.us_per_io', 'read.bw', 'read.iops', 'read.lat.mean', 'read.lat.p99', 'write.bw', 'write.iops', 'write.lat.mean', 'write.lat.p99']"
"$PY" - "$T/out" <<'EOF' || die "the repeats statistics do not add up"
import json, math, statistics, sys
d = json.load(open(sys.argv[1]))
figs = d['jobs'][0]['repeats']['figures']
def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))
# The runs together (the unit) lie between the runs: its rates are the
# I/Os over the runs' summed runtime, its mean latency their weighted mean.
u = d['jobs'][0]
for dirn in ('read', 'write'):
    for key, name in (('iops', 'iops'), ('bw_bytes', 'bw')):
        v = figs[dirn + '.' + name]['values']
        assert min(v) * (1 - 1e-9) <= u[dirn][key] <= max(v) * (1 + 1e-9), \
            (name, v, u[dirn][key])
    v = figs[dirn + '.lat.mean']['values']
    m = u[dirn]['lat_ns']['mean']
    assert min(v) * (1 - 1e-9) <= m <= max(v) * (1 + 1e-9), (v, m)
    assert len(set(v)) >= 1
for name, f in figs.items():
    v = f['values']
    assert len(v) == 3, name
    assert close(f['mean'], statistics.mean(v)), name
    assert close(f['stddev'], statistics.stdev(v)), name
    cv = statistics.stdev(v) / statistics.mean(v) * 100 if statistics.mean(v) else 0
    assert close(f['cv_pct'], cv), name
    assert f['min'] == min(v) and f['max'] == max(v), name
EOF

# The text report has the repeats block.
run --name=r $NULLJOB --rw=randread --repeat=3
expect_rc 0
expect_in out '^  repeats: 3 runs +mean +stddev +cv +min +max$'
for f in read.iops read.bw read.lat.mean read.lat.p99 cpu.us_per_io; do
	expect_in out "^    $f "
done
expect_not_in out '^    write\.'

# Functions in checks; a plain metric is the mean of the runs.
run --name=r $NULLJOB --rw=randread --repeat=3 --check='read.iops>=1' \
	--check='mean(read.iops)>=1' --check='cv(read.iops)<=100000%' \
	--check='stddev(read.iops)>=0' --check='max(read.iops)>=1' \
	--check='min(read.iops)>=1t' --check='mean(read.ios)==256' \
	--output-format=json
expect_rc 3
json_is "[c['pass'] for c in d['checks']]" \
	"[True, True, True, True, True, False, True]"
json_is "[c['function'] for c in d['checks']]" \
	"[None, 'mean', 'cv', 'stddev', 'max', 'min', 'mean']"
f="d['jobs'][0]['repeats']['figures']['read.iops']"
json_is "[c['value'] for c in d['checks'][:6]] == [$f['mean'], $f['mean'], $f['cv_pct'], $f['stddev'], $f['max'], $f['min']]" True

# Without repeat: no repeats object, and the functions see one run.
run --name=r $NULLJOB --rw=randread --check='cv(read.iops)==0' \
	--check='stddev(read.lat.p99)==0' --check='min(read.iops)>=1' \
	--output-format=json
expect_rc 0
json_is "d['jobs'][0]['repeats']" None
json_is "d['checks'][2]['value'] == d['jobs'][0]['read']['iops']" True

# Clones: each its own unit with its own runs; merged with group_reporting.
run --name=c $NULLJOB --numjobs=2 --repeat=2 --output-format=json
expect_rc 0
json_is "[(j['clone'], j['njobs'], j['repeats']['n'], j['read']['ios']) for j in d['jobs']]" \
	"[(0, 2, 2, 512), (1, 2, 2, 512)]"
run --name=g $NULLJOB --numjobs=2 --repeat=2 --group_reporting \
	--output-format=json
expect_rc 0
json_is "[(j['clone'], j['njobs'], j['repeats']['n'], j['read']['ios']) for j in d['jobs']]" \
	"[(None, 4, 2, 1024)]"

# A sweep: every point runs N times.
run --name=s $NULLJOB --rw=randread --sweep=bs:4k,8k --repeat=2 \
	--output-format=json
expect_rc 0
json_is "[(j['sweep_point'], j['repeats']['n'], j['read']['ios']) for j in d['jobs']]" \
	"[('bs=4k', 2, 512), ('bs=8k', 2, 256)]"
json_is "len(d['groups'])" 2
run --name=s $NULLJOB --sweep=bs:4k,8k --repeat=2 --output-format=table
expect_rc 0
[ "$(grep -c '^s\[' "$T/out")" -eq 2 ] || die "expected one row per point"

# The job after a repeated one waits for its last run.
cat >two.job <<'EOF'
[global]
ioengine=null
size=1m
[a]
repeat=2
[b]
EOF
run two.job --output-format=json
expect_rc 0
json_is "[(j['name'], j['group'], j['phase_cpu']['phase']) for j in d['jobs']]" \
	"[('a', 0, 0), ('b', 1, 2)]"
run --parse-only two.job
expect_rc 0
[ "$(grep -c '^\[a\]' "$T/out")" -eq 1 ] || die "a listed more than once"
expect_in out '^  repeat=2$'

# Bad values: usage errors before anything is created.
for v in 0 4097 x -1 1.5; do
	run --name=n --filename=n.dat --size=1m --repeat=$v
	expect_rc 2
	expect_in err "option 'repeat'"
	[ ! -e n.dat ] || die "n.dat was created"
done

run --name=n --filename=n.dat --size=1m --numjobs=2 --repeat=2049
expect_rc 2
expect_in err "option 'repeat': the run would have 4098 jobs \(runs times numjobs\); at most 4096"
[ ! -e n.dat ] || die "n.dat was created"


# interval=: the runs' intervals follow each other (each run's shifted by
# the runtimes before it), adding up to the totals.
run --name=iv --ioengine=null --size=1g --time_based --runtime=250ms \
	--interval=100ms --repeat=2 --numjobs=2 --group_reporting \
	--output-format=json
expect_rc 0
"$PY" - "$T/out" <<'EOF' || die "the intervals of a repeated job"
import json, sys
d = json.load(open(sys.argv[1]))
u = d['jobs'][0]
iv = u['intervals']
assert len(iv) >= 6, len(iv)
assert sum(i['read']['ios'] for i in iv) == u['read']['ios']
assert sum(i['read']['bytes'] for i in iv) == u['read']['io_bytes']
for a, b in zip(iv, iv[1:]):
    assert a['end_ns'] <= b['start_ns'], (a, b)
assert iv[-1]['end_ns'] <= u['runtime_ns'], (iv[-1], u['runtime_ns'])
# (the unit's runtime spans both clones, the intervals one clone's: a
# late start of one clone on a busy machine leaves the last interval
# short of the runtime; run 2 not shifted by run 1 would end near half)
assert iv[-1]['end_ns'] >= 0.75 * u['runtime_ns'], (iv[-1], u['runtime_ns'])
# The group (the runs of the job alone) says the same.
g = d['groups'][0]
assert (g['runtime_ns'], g['read']['iops']) == (u['runtime_ns'], u['read']['iops'])
assert g['intervals'] == iv
EOF
exit 0
