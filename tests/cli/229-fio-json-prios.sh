#!/bin/sh
# cmdprio in fio's JSON: each direction in which two I/O priorities or more
# have I/Os has a "prios" array (after lat_ns), one member per priority
# with its prioclass, its prio and its latencies: lat_ns with
# lat_percentiles=1, else clat_ns, with percentiles when clat's or lat's
# are asked for and bins in json+. The members partition the direction's
# own figures (N adds up, min, max and the weighted mean agree, the bins
# add up: what fio's t/latency_percentiles.py checks), clones are merged
# by priority (group_reporting), unified_rw_reporting merges reads and
# writes; the same directions have the array, with the same priorities
# in the same order and the same keys, as Debian's fio 3.33 on the job.
# lane: parallel
. "$(dirname "$0")/lib.sh"
py_serve

[ "$(id -u)" -eq 0 ] || skip "cmdprio's realtime class needs root"
have_odirect "$T" || skip "no O_DIRECT in $T"
dd if=/dev/zero of="$T/f" bs=1M count=8 2>/dev/null
have_fio=
command -v fio >/dev/null 2>&1 && have_fio=1

# check NAME ARGS...: iorig (and fio, when here) run the libaio job ARGS;
# the per-priority figures check out against the direction's own, and
# their layout is fio's.
check() {
	_n=$1
	shift
	run --output-format=fio-json "$@"
	expect_rc 0
	cp "$T/out" "$T/$_n.iorig.json"
	if [ -n "$have_fio" ]; then
		fio --output-format=json "$@" >"$T/$_n.fio.json" 2>"$T/ferr" ||
			die "fio failed on $_n: $(cat "$T/ferr")"
	fi
	"$PY" - "$T/$_n.iorig.json" "$T/$_n.fio.json" "$_n" <<'EOF' || die "$_n"
import json, os, sys
from collections import Counter

def load(p):
    s = open(p).read()
    return json.loads(s[s.index("{"):])

def prios(d):
    """{direction: [(class, prio, latency key, its keys)]}"""
    out = {}
    for k, v in d["jobs"][0].items():
        if isinstance(v, dict) and "prios" in v:
            keys = list(v.keys())
            assert keys.index("prios") == keys.index("lat_ns") + 1, keys
            out[k] = [(p["prioclass"], p["prio"], [x for x in p if x.endswith("_ns")][0],
                       sorted(p[[x for x in p if x.endswith("_ns")][0]]))
                      for p in v["prios"]]
    return out

me = load(sys.argv[1])
name = sys.argv[3]
for k, v in me["jobs"][0].items():
    if not isinstance(v, dict) or "prios" not in v:
        continue
    for p in v["prios"]:
        assert list(p)[:2] == ["prioclass", "prio"], list(p)
    key = [x for x in v["prios"][0] if x.endswith("_ns")][0]
    whole = v[key]
    parts = [p[key] for p in v["prios"]]
    assert all(x["N"] for x in parts), parts
    assert sum(x["N"] for x in parts) == whole["N"], (k, [x["N"] for x in parts], whole["N"])
    assert min(x["min"] for x in parts) == whole["min"]
    assert max(x["max"] for x in parts) == whole["max"]
    mean = sum(x["mean"] * x["N"] for x in parts) / whole["N"]
    assert abs(mean - whole["mean"]) <= 1e-4 * max(whole["mean"], 1), (mean, whole["mean"])
    if "bins" in whole:
        c = Counter()
        for x in parts:
            c.update(x["bins"])
        assert dict(c) == whole["bins"], k
got = prios(me)
if os.path.exists(sys.argv[2]):
    want = prios(load(sys.argv[2]))
    assert got == want, "%s: iorig %s, fio %s" % (name, got, want)
print(name, got)
EOF
}

set -- --name=p --filename="$T/f" --size=8m --ioengine=libaio --direct=1 \
	--iodepth=4 --bs=4k --number_ios=4000 --randrepeat=0
# reads only, lat_percentiles: lat_ns with percentiles (fio's test 15)
check rd "$@" --rw=randread --cmdprio_percentage=50 --lat_percentiles=1
# both directions, no percentiles at all: clat_ns, bare (fio's test 18)
check rw "$@" --rw=randrw --cmdprio_percentage=50 --clat_percentiles=0 \
	--slat_percentiles=1
# three priorities by block size (fio's test 21), a class and level each
check bs "$@" --rw=randrw --bssplit=4k/40:16k/60 \
	--cmdprio_bssplit=4k/25/1/1:4k/75/3/2:16k/0
# the job's own priority first (prio=, prioclass=), cmdprio's shared
# with it when they are the same
check own "$@" --rw=randread --prioclass=2 --prio=4 \
	--cmdprio_bssplit=4k/30/2/4:4k/30/1/3
# two clones merged, reads and writes as one (fio's test 20)
check mixed "$@" --rw=randrw --cmdprio_percentage=50 --numjobs=2 \
	--group_reporting=1 --unified_rw_reporting=1
# every I/O at one priority, writes only, none: no array
check all "$@" --rw=randread --cmdprio_percentage=100
check wo "$@" --rw=randrw --cmdprio_percentage=0,50
check none "$@" --rw=randrw
jsonf "$T/all.iorig.json" "d['jobs'][0]['read'].get('prios')" | grep -qx None ||
	die "one priority with I/Os: no prios array expected"
jsonf "$T/wo.iorig.json" "'prios' in d['jobs'][0]['read'] or 'prios' not in d['jobs'][0]['write']" |
	grep -qx False || die "cmdprio_percentage=0,50: prios for writes only"
jsonf "$T/none.iorig.json" "[k for k, v in d['jobs'][0].items() if isinstance(v, dict) and 'prios' in v]" |
	grep -qx '\[\]' || die "no cmdprio: no prios"

# json+: each priority's bins, adding up to the direction's
run --output-format=json+ "$@" --rw=randread --cmdprio_percentage=50
expect_rc 0
expect_json "all('bins' in p['clat_ns'] for p in d['jobs'][0]['read']['prios'])"
expect_json "sum(sum(p['clat_ns']['bins'].values()) for p in d['jobs'][0]['read']['prios']) == d['jobs'][0]['read']['clat_ns']['N']"
# ramp_time: the ramp's I/Os are in neither
run --output-format=fio-json "$@" --rw=randread --cmdprio_percentage=50 \
	--ramp_time=1 --time_based=1 --runtime=1
expect_rc 0
expect_json "sum(p['clat_ns']['N'] for p in d['jobs'][0]['read']['prios']) == d['jobs'][0]['read']['clat_ns']['N']"
echo ok
