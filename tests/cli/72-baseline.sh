#!/bin/sh
# --baseline=FILE: the change per headline figure against an earlier JSON
# result, matched by name, sweep point and clone; checks against
# "F*baseline" with the baseline's figures (percentiles from its buckets,
# repeated baselines by the mean of their runs); files that are not a
# readable iorig result, and checks the baseline cannot serve, are usage
# errors before anything is created.
# lane: parallel
. "$(dirname "$0")/lib.sh"

NULLJOB="--ioengine=null --size=1m"

run --name=a $NULLJOB --rw=randrw --percentile_list=42:99 \
	--output-format=json --output=base.json
expect_rc 0

run --name=a $NULLJOB --rw=randrw --baseline=base.json --output-format=json
expect_rc 0
json_is "d['baseline']['file']" base.json
json_is "d['baseline']['iorig_version'] == json.load(open('base.json'))['iorig_version']" True
json_is "d['baseline']['time'] == json.load(open('base.json'))['time']" True
json_is "sorted(d['jobs'][0]['baseline']['figures'])" \
	"['cpu.us_per_io', 'read.bw', 'read.iops', 'read.lat.mean', 'read.lat.p99', 'write.bw', 'write.iops', 'write.lat.mean', 'write.lat.p99']"
"$PY" - "$T/out" base.json <<'EOF' || die "the baseline figures are not the files'"
import json, sys
d, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
figs = d['jobs'][0]['baseline']['figures']
def close(x, y):
    return abs(x - y) <= 1e-9 * max(1.0, abs(y))
for dirn in ('read', 'write'):
    for key, name in (('iops', 'iops'), ('bw_bytes', 'bw')):
        f = figs[dirn + '.' + name]
        assert close(f['value'], d['jobs'][0][dirn][key]), name
        assert close(f['baseline'], b['jobs'][0][dirn][key]), name
    f = figs[dirn + '.lat.mean']
    assert close(f['baseline'], b['jobs'][0][dirn]['lat_ns']['mean'])
f = figs['cpu.us_per_io']
assert close(f['baseline'], b['jobs'][0]['summary']['us_per_io'])
for name, f in figs.items():
    if f['baseline']:
        want = (f['value'] - f['baseline']) / f['baseline'] * 100
        assert close(f['change_pct'], want), name
    else:
        assert f['change_pct'] is None, name
EOF

# The text report: a baseline block with the change in percent.
run --name=a $NULLJOB --rw=randrw --baseline=base.json
expect_rc 0
expect_in out '^  baseline +value +baseline +change$'
expect_in out '^    read.iops +[0-9.]+[kMGT]? +[0-9.]+[kMGT]? +([+-][0-9]+\.[0-9]{2}%|-)$'

# Checks against the baseline: its percentiles come from its buckets,
# whichever percentiles it printed.
run --name=a $NULLJOB --rw=randrw --baseline=base.json \
	--check='read.iops>=0.000001*baseline' \
	--check='read.clat.p42<=baseline*1000000' \
	--check='write.clat.p99 <= 1e6 * baseline' --output-format=json
expect_rc 2
expect_in err "option 'check': 'write.clat.p99 <= 1e6 \* baseline': the factor"
run --name=a $NULLJOB --rw=randrw --baseline=base.json \
	--check='read.iops>=0.000001*baseline' \
	--check='read.clat.p42<=baseline*1000000' \
	--check='mean(write.clat.p99)<=1000000*baseline' \
	--check='read.iops>=1000000*baseline' --output-format=json
expect_rc 3
json_is "[c['pass'] for c in d['checks']]" "[True, True, True, False]"
json_is "d['checks'][0]['baseline'] == json.load(open('base.json'))['jobs'][0]['read']['iops']" True
json_is "abs(d['checks'][0]['threshold'] - d['checks'][0]['baseline'] * 1e-6) <= 1e-9 * d['checks'][0]['threshold']" True
json_is "d['checks'][1]['baseline'] == json.load(open('base.json'))['jobs'][0]['read']['clat_ns']['percentiles']['42']" True
json_is "d['checks'][2]['baseline'] == json.load(open('base.json'))['jobs'][0]['write']['clat_ns']['percentiles']['99']" True
run --name=a $NULLJOB --rw=randrw --baseline=base.json \
	--check='read.iops>=1000000*baseline'
expect_rc 3
expect_in out '^  FAIL  a: read.iops>=1000000\*baseline  .*, threshold .* \(1e\+06 x baseline .*\)  \(command line\)$'

# A comparison that does not apply has no threshold and no baseline.
run --name=a $NULLJOB --rw=randread --baseline=base.json \
	--check='write.iops>=0.5*baseline' --output-format=json
expect_rc 0
json_is "[(c['threshold'], c['baseline'], c['pass']) for c in d['checks']]" \
	"[(None, None, None)]"

# A repeated baseline: the mean of its runs.
run --name=a $NULLJOB --rw=randread --repeat=3 --output-format=json \
	--output=rep.json
expect_rc 0
run --name=a $NULLJOB --rw=randread --baseline=rep.json \
	--check='read.iops>=0*baseline' --output-format=json
expect_rc 0
json_is "d['checks'][0]['baseline'] == json.load(open('rep.json'))['jobs'][0]['repeats']['figures']['read.iops']['mean']" True
json_is "d['jobs'][0]['baseline']['figures']['read.iops']['baseline'] == d['checks'][0]['baseline']" True

# Units are matched by name, sweep point and clone.
run --name=s $NULLJOB --sweep=bs:4k,8k --numjobs=2 --output-format=json \
	--output=sweep.json
expect_rc 0
run --name=s $NULLJOB --sweep=bs:4k,16k --numjobs=3 --baseline=sweep.json \
	--output-format=json
expect_rc 0
json_is "[(j['sweep_point'], j['clone'], j['baseline'] is not None) for j in d['jobs']]" \
	"[('bs=4k', 0, True), ('bs=4k', 1, True), ('bs=4k', 2, False), ('bs=16k', 0, False), ('bs=16k', 1, False), ('bs=16k', 2, False)]"
run --name=s $NULLJOB --sweep=bs:4k,16k --baseline=sweep.json \
	--filename=s.dat --check='read.iops>=0.5*baseline'
expect_rc 2
expect_in err "^iorig: command line argument [0-9]+: option 'check': 'read.iops>=0.5\*baseline': the baseline sweep.json has no result for job 's\[bs=16k\]'$"
run --name=other $NULLJOB --baseline=sweep.json --output-format=json
expect_rc 0
json_is "d['jobs'][0]['baseline']" None
json_is "d['baseline']['file']" sweep.json

# Bad baselines: usage errors, nothing created.
echo '{"schema_version": 1, "jobs": [' >trunc.json
echo '{"a": 1}' >other.json
echo '[]' >array.json
: >empty.json
sed 's/"schema_version": 1/"schema_version": 99/' base.json >v99.json
mkdir dir.json
for f in missing.json trunc.json other.json array.json empty.json \
	 v99.json dir.json; do
	run --name=n --filename=n.dat --size=1m --output=o.json \
		--baseline=$f
	expect_rc 2
	expect_empty out
	expect_in err "^iorig: $f: option 'baseline': "
	[ ! -e n.dat ] && [ ! -e o.json ] || die "$f: a file was created"
done
run --name=n --size=1m --baseline=missing.json
expect_in err "cannot open: No such file or directory"
run --name=n --size=1m --baseline=trunc.json
expect_in err "not a JSON document"
run --name=n --size=1m --baseline=other.json
expect_in err "not an iorig JSON result"
run --name=n --size=1m --baseline=v99.json
expect_in err "schema_version 99 is not supported; this iorig reads schema_version 1"
run --name=n --filename=n.dat --size=1m --check='read.iops>=baseline'
expect_rc 2
expect_in err "compares with the baseline, but no --baseline=FILE was given"
[ ! -e n.dat ] || die "n.dat was created"

exit 0
