#!/bin/sh
# The JSON report against its documentation: doc/iorig-json.schema.json is
# a valid, strict draft 2020-12 schema; every report of many real runs
# validates against it (every engine, randrw with all percentiles, fsync,
# clones with and without group_reporting, stonewall groups, a sweep,
# verification that passes and that finds damage, a job that cannot start,
# I/O errors with and without continue_on_error, an abandoned job, SIGINT
# and SIGTERM), with integers that must be JSON integers; the figures
# relate as doc/iorig-json.md says; each table of doc/iorig-json.md lists
# exactly the keys of its schema object, so the two cannot drift; every
# nullable key was seen both null and not; and a report with an unknown
# key, a missing key or a wrong type fails, so the validation can fail.
#
# Needs a python3 that can import jsonschema 4 or later (Debian's
# python3-jsonschema, which `make deps` installs); skips without one.
# IORIG_SCHEMA_PY=INTERPRETER picks the interpreter to use.
# lane: parallel
. "$(dirname "$0")/lib.sh"

SCHEMA=$top/doc/iorig-json.schema.json
DOC=$top/doc/iorig-json.md
[ -r "$SCHEMA" ] || die "no $SCHEMA"
[ -r "$DOC" ] || die "no $DOC"

# An interpreter with jsonschema: python3 may be a version manager's build
# with its own packages, /usr/bin/python3 the system's.
SPY=""
for p in ${IORIG_SCHEMA_PY:-} python3 /usr/bin/python3; do
	command -v "$p" >/dev/null 2>&1 || continue
	if "$p" -c 'from jsonschema import Draft202012Validator' \
		>/dev/null 2>&1; then
		SPY=$p
		break
	fi
done
[ -n "$SPY" ] || skip "no python3 that can import jsonschema" \
	"(Draft202012Validator); apt-get install python3-jsonschema"
echo "validating with $SPY, jsonschema $("$SPY" -c \
	'import importlib.metadata as m; print(m.version("jsonschema"))')"

table_job_options >"$T/opts.list"
[ -s "$T/opts.list" ] || die "could not read the option table"
# Each engine's own options, as --enghelp=ENGINE lists them: "ENGINE OPT..."
"$IORIG" --cmdhelp=ioengine |
	awk '/^  values:/ { f = 1; next } f && /^    [^ ]/ { print $1 }' |
	while read -r e; do
		echo "$e" $("$IORIG" --enghelp="$e" |
			sed -n '2,/^$/s/^\([a-z0-9_]*\) *: .*/\1/p')
	done >"$T/engopts.list"
grep -q '^io_uring .*fixedbufs' "$T/engopts.list" ||
	die "could not read the engines' options from --enghelp"
mkdir "$T/reports" || die "cannot make $T/reports"
nrep=0

# keep NAME CODE: the last run exited CODE; its stdout joins the reports
# validated at the end.
keep() {
	expect_rc "$2"
	nrep=$((nrep + 1))
	cp "$T/out" "$T/reports/$(printf '%02d' $nrep)-$1.json" ||
		die "cannot keep the report of $1"
}

# stop SIG ARGS...: runs iorig with ARGS in the background, sends SIG
# after half a second (with stuck=1, once faultfs has begun to delay its
# read: half a second was too short at a load of 37), waits for it (at
# most 10 s).
stuck=
stop() {
	_sig=$1
	shift
	_d=$(faultfs_delays)
	"$IORIG" "$@" >"$T/out" 2>"$T/err" &
	_pid=$!
	if [ -n "$stuck" ]; then
		wait_delayed "$_d" $_pid 10000
	else
		sleep 0.5
	fi
	expect_running $_pid "SIG$_sig"
	kill -"$_sig" $_pid
	wait_gone $_pid 10
}

J=--output-format=json

# ---- the runs ----

run $J --name=read --filename=r.dat --size=1m --bs=4k
keep read 0

run $J --name=randrw --filename=rw.dat --size=1m --bs=4k --rw=randrw \
	--lat_percentiles=1 --slat_percentiles=1 \
	--percentile_list=0.00001:1:33.333333333:50:99.9:100
keep randrw-percentiles 0
expect_json "'1e-05' in d['jobs'][0]['write']['clat_ns']['percentiles']"

run $J --name=trimwrite --filename=tw.dat --size=1m --bs=64k \
	--rw=randtrimwrite --interval=10ms
keep randtrimwrite 0
expect_json "d['jobs'][0]['trim']['io_bytes'] == 1048576"

run $J --name=wsync --filename=w.dat --size=1m --bs=4k --rw=write \
	--fsync=8 --end_fsync=1
keep write-fsync 0

run $J --name=clones --ioengine=null --size=1m --numjobs=2
keep numjobs 0
json_is "[j['clone'] for j in d['jobs']]" "[0, 1]"

run $J --name=merged --ioengine=null --size=1m --numjobs=2 \
	--group_reporting=1
keep group-reporting 0
json_is "[j['clone'] for j in d['jobs']]" "[None]"

cat >groups.job <<'EOF'
[global]
ioengine=null
size=1m

[first]
rw=write
numjobs=2
group_reporting

[second]
stonewall
rw=randread
bs=8k

[third]
new_group
rw=randrw
EOF
run $J groups.job
keep stonewall-groups 0
json_is "[j['group'] for j in d['jobs']]" "[0, 1, 2]"
json_is "[j['phase_cpu']['phase'] for j in d['jobs']]" "[0, 1, 1]"

run $J --name=sweep --filename=sw.dat --size=1m --ioengine=pthread \
	--rw=randread --sweep=bs:4k,16k --sweep=iodepth:1,4
keep sweep 0
json_is "len(d['jobs'])" 4
expect_json "all(j['sweep_point'] for j in d['jobs'])"

run $J --name=ramp --ioengine=null --time_based --runtime=200ms \
	--ramp_time=100ms
keep time-based-ramp 0

# Paced: rate_iops sets target_iops, rate (bytes/s) leaves it null.
run $J --name=rated --ioengine=null --time_based --runtime=100ms \
	--rate_iops=2000
keep rate-iops 0
run $J --name=rated --ioengine=null --time_based --runtime=100ms \
	--rate=8m --rate_process=poisson
keep rate-bytes 0

# A curve: its probe's target, met and sched_lat null, its points' not.
run $J --name=curve --ioengine=null --time_based --runtime=100ms \
	--rate_curve=10,50 --rate_curve_probe=100ms
keep rate-curve 0

for e in null sync libaio io_uring pthread; do
	run $J --name="engine-$e" --filename=e.dat --size=1m --bs=4k \
		--rw=randrw --iodepth=4 --ioengine=$e
	if [ "$rc" -ne 0 ] && grep -q "setting up engine $e" "$T/err"; then
		# The failure is a report too.
		echo "note: engine $e cannot run here: $(cat "$T/err")"
		keep "engine-$e-unavailable" 1
		continue
	fi
	keep "engine-$e" 0
done

# Verification that passes: each kind, a merged unit.
run $J --name=vx --filename=vx.dat --size=1m --bs=4k --rw=randwrite \
	--verify=xxh3
keep verify-xxh3 0
run $J --name=vc --filename=vc.dat --size=1m --bs=4k --rw=write \
	--verify=crc32c --ioengine=pthread --iodepth=4 --verify_backlog=16
keep verify-crc32c 0
run $J --name=vp --size=256k --bs=4k --rw=randwrite --verify=pattern \
	--verify_pattern=0xdeadbeef --numjobs=2 --group_reporting=1
keep verify-pattern-merged 0
json_is "d['jobs'][0]['verify']['blocks_checked']" 128

# Damage found: a zeroed block (no header), a flipped byte (a header).
VJOB="--name=vd --filename=vd.dat --size=256k --bs=4k --rw=randwrite"
VJOB="$VJOB --verify=xxh3"
# shellcheck disable=SC2086
run $J $VJOB
expect_rc 0
dd if=/dev/zero of=vd.dat bs=4096 seek=3 count=1 conv=notrunc 2>/dev/null
flipbyte vd.dat $((7 * 4096 + 1000))
# shellcheck disable=SC2086
run $J $VJOB --verify_only=1
keep verify-damaged 4
json_is "d['jobs'][0]['verify']['mismatches']" 2
json_is "[m['found'] is None for m in d['jobs'][0]['verify']['first']]" \
	"[True, False]"
# shellcheck disable=SC2086
run $J $VJOB --verify_only=1 --verify_fatal=1
keep verify-fatal 4
json_is "d['jobs'][0]['verify']['stopped']" True

# Data no run of this job wrote: nothing tells the expected generation.
mkrand vr.dat 65536
run $J --name=vr --filename=vr.dat --size=64k --bs=4k --rw=write \
	--verify=xxh3 --verify_only=1
keep verify-foreign 4
json_is "d['jobs'][0]['verify']['first'][0]['expected']['generation']" None

# A job that cannot start: /proc/version cannot be laid out.
run $J --name=nostart --filename=/proc/version --size=1m --name=after \
	--ioengine=null --size=64k
keep fails-to-start 1
json_is "[j['ran'] for j in d['jobs']]" "[False, True]"
expect_json "d['jobs'][0]['error']['errno'] > 0"

# steadystate (attained, and a window that never filled) and
# unified_rw_reporting's mixed direction.
run $J --name=ss --ioengine=null --size=1g --time_based --runtime=600ms \
	--rate_iops=1000 --ss=iops:50% --ss_dur=200ms --ss_interval=100ms \
	--rw=randrw --unified_rw_reporting=both
keep steadystate-mixed 0
json_is "d['jobs'][0]['steadystate']['attained']" True
run $J --name=ss --ioengine=null --size=1g --time_based --runtime=200ms \
	--ss=iops:0 --ss_dur=1s --unified_rw_reporting=mixed
keep steadystate-unfilled 0
json_is "d['jobs'][0]['steadystate']['value']" None

# zonemode=zbd on a file: emulated zones, before and after.
truncate -s 4m zbd.dat
run $J --name=zbd --filename=zbd.dat --size=4m --io_size=6m --bs=64k \
	--rw=randwrite --zonemode=zbd --zonesize=1m --max_open_zones=2
keep zbd 0
json_is "d['jobs'][0]['zbd']['zones'][0]['cond_before']" em

# interval=: per clone, merged by group_reporting, and in groups[].
run $J --name=ivals --ioengine=null --size=1g --time_based --runtime=250ms \
	--interval=100ms --rw=randrw --numjobs=2
keep intervals 0
expect_json "len(d['jobs'][0]['intervals']) >= 2"
run $J --name=ivals --ioengine=null --size=1g --time_based --runtime=250ms \
	--interval=100ms --numjobs=2 --group_reporting=1
keep intervals-merged 0
expect_json "d['groups'][0]['intervals'] is not None"

# Checks, repeats and a baseline: passing, failing (exit 3) and n/a
# checks; over a sweep and a group_reporting unit; against a report kept
# above.
run $J --name=rep --ioengine=null --size=1m --repeat=3 \
	--check='read.iops>=1' --check='cv(read.iops)<=1000%' \
	--check='write.iops>=1'
keep checks-repeat 0
json_is "[c['pass'] for c in d['checks']]" "[True, True, None]"
cp "$T/out" "$T/base.json"
run $J --name=rep --ioengine=null --size=1m --repeat=2 \
	--baseline="$T/base.json" --check='rep:read.iops>=1000000*baseline' \
	--name=sw --ioengine=null --size=1m --sweep=bs:4k,8k --numjobs=2 \
	--group_reporting=1 --check='sw:read.lat.max>=0'
keep checks-baseline-fails 3
expect_json "d['baseline'] is not None and d['jobs'][0]['baseline'] is not None"
expect_json "d['checks'][0]['pass'] is False"

# Signals: a later stonewall group never starts; clones merged.
stop INT $J --name=spin --ioengine=null --time_based --runtime=30 \
	--name=later --ioengine=null --size=1m --stonewall
keep sigint 130
json_is "d['signal']" SIGINT
json_is "[j['ran'] for j in d['jobs']]" "[True, False]"
stop TERM $J --name=spin --ioengine=null --time_based --runtime=30 \
	--numjobs=2 --group_reporting=1
keep sigterm-merged 143
json_is "d['signal']" SIGTERM
# Stopped during ramp_time: nothing measured, its rates and summary null.
stop INT $J --name=ramp --ioengine=null --time_based --runtime=30 \
	--ramp_time=30 --check='read.iops>=1'
keep sigint-ramp 130
json_is "d['jobs'][0]['summary']" None

# I/O errors, from tests/faultfs where it can be mounted: in a subshell,
# so that a skip there skips only this part. Its mounts are undone when
# the subshell ends; $T stays.
(
	_track_mount() {
		_mounts="$_mounts $1"
		trap '_undo_mounts' EXIT
	}
	faultfs_mount "$T/f" --size=1m --eio=65536
	faultfs_mount "$T/i" --intr --size=1m --delay=65536:2500

	run $J --name=eio --filename=f/data --bs=4k --ioengine=libaio \
		--iodepth=4
	keep io-error 1
	json_is "d['jobs'][0]['read']['first_error']['offset']" 65536
	expect_json "d['jobs'][0]['error'] is not None"

	run $J --name=goon --filename=f/data --bs=4k --continue_on_error=read
	keep continue-on-error 1
	json_is "d['jobs'][0]['error']" None
	json_is "d['jobs'][0]['read']['errors']" 1

	# Stuck in a read when the signal comes: abandoned.
	stuck=1
	stop INT $J --name=stuck --filename=i/data --bs=4k
	stuck=
	keep abandoned 130
	json_is "d['jobs'][0]['abandoned']" True
	exit 0
)
case $? in
0) faultfs=1 ;;
77) faultfs=0; echo "note: no I/O error reports: faultfs cannot run here" ;;
*) exit 1 ;;
esac
# iorig merge: each report merged with itself is a cluster result, the
# same layout plus "cluster", whose figures relate as one run's do (two
# equal members: sums of rates are rates of sums).
i=0
for f in "$T"/reports/*.json; do
	i=$((i + 1))
	"$IORIG" merge --output-format=json "$f" "$f" \
		>"$T/reports/m$(printf '%02d' $i)-merged.json" 2>"$T/err" ||
		die "iorig merge $(basename "$f") with itself: $(cat "$T/err")"
done
nrep=$(ls "$T/reports" | wc -l)
echo "$nrep reports"

# ---- the checks ----

"$SPY" - "$SCHEMA" "$DOC" "$T/opts.list" "$T/reports" "$faultfs" \
	"$T/engopts.list" <<'EOF' ||
import copy, json, math, os, re, sys
import jsonschema
from jsonschema import Draft202012Validator

schema_path, doc_path, opts_path, rep_dir, faultfs, eng_path = sys.argv[1:7]
schema = json.load(open(schema_path))
doc = open(doc_path, encoding="utf-8").read()
table_opts = open(opts_path).read().split()
# A job's options: the job table's, with its engine's after
# iodepth_batch_complete_max.
eng_opts = {l.split()[0]: l.split()[1:] for l in open(eng_path) if l.strip()}
def job_opts(ioengine):
    k = table_opts.index("iodepth_batch_complete_max") + 1
    return table_opts[:k] + eng_opts.get(ioengine, []) + table_opts[k:]
errs = []

def fail(what):
    errs.append(what)

# -- The schema itself --
Draft202012Validator.check_schema(schema)
if schema.get("$schema") != "https://json-schema.org/draft/2020-12/schema":
    fail("schema: $schema is not draft 2020-12")
for k in ("$id", "title"):
    if not schema.get(k):
        fail("schema: no " + k)

def resolve(node):
    while "$ref" in node:
        ref = node["$ref"]
        assert ref.startswith("#/$defs/"), ref
        node = schema["$defs"][ref[len("#/$defs/"):]]
    return node

def types_of(node):
    node = resolve(node)
    if "anyOf" in node:
        return set().union(*(types_of(n) for n in node["anyOf"]))
    if "const" in node or "enum" in node:
        vals = node.get("enum", [node.get("const")])
        return {"null" if v is None else type(v).__name__ for v in vals}
    t = node.get("type", [])
    return set([t] if isinstance(t, str) else t)

# Every object is closed; required keys are properties.
def each_node(node, where):
    if isinstance(node, dict):
        yield node, where
        for k, v in node.items():
            yield from each_node(v, where + "/" + k)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from each_node(v, "%s/%d" % (where, i))

for node, where in each_node(schema, "#"):
    t = node.get("type")
    if "object" not in ([t] if isinstance(t, str) else (t or [])):
        continue
    if "additionalProperties" not in node:
        fail("schema %s: an object without additionalProperties" % where)
    if "properties" in node and node.get("additionalProperties") is not False:
        fail("schema %s: properties, but not additionalProperties: false"
             % where)
    for k in node.get("required", []):
        if k not in node.get("properties", {}):
            fail("schema %s: required '%s' is not a property" % (where, k))

# -- The doc lists the schema's keys: each "Schema: `#...`" marker is
# followed by a table whose first column is exactly that object's keys;
# every object with properties has one, every other definition is named.
objects = {"#": schema}
objects.update({"#/$defs/" + k: v for k, v in schema["$defs"].items()})
marked = {}
cur = None
for line in doc.splitlines():
    m = re.match(r"^Schema: `(#[^`]*)`\s*$", line)
    if m:
        cur = m.group(1)
        if cur in marked:
            fail("doc: %s marked twice" % cur)
        marked[cur] = []
        continue
    if line.startswith("#"):
        cur = None
        continue
    m = re.match(r"^\| `([^`]+)` \|", line)
    if cur and m:
        marked[cur].append(m.group(1))
for name, node in objects.items():
    props = list(node.get("properties", {}))
    if "`%s`" % name not in doc:
        fail("doc: %s is not described" % name)
    if name not in marked:
        if props:
            fail("doc: no 'Schema: `%s`' table" % name)
        continue
    if props != marked[name]:
        fail("doc: the table of %s lists %s; the schema has %s"
             % (name, marked[name], props))
for name in marked:
    if name not in objects:
        fail("doc: %s is not in the schema" % name)
for node, where in each_node(schema, "#"):
    props = node.get("properties")
    for k in props if isinstance(props, dict) else []:
        if "`%s`" % k not in doc:
            fail("doc: key '%s' (%s) is not described" % (k, where))

# -- Real reports: valid, each number of the type the doc promises --
# JSON Schema takes 1.0 as an integer; the writer promises integers
# without a fraction, so here "integer" is a Python int. (Reals written
# with a fraction are checked below, from the paths of "number" keys.)
def is_int(checker, x):
    return isinstance(x, int) and not isinstance(x, bool)
Strict = jsonschema.validators.extend(
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", is_int))

# The validator's schema has each "$ref" replaced by the definition it
# names: the same validation (every reference is local, to #/$defs/, and
# none is recursive), without jsonschema's reference lookup at each of
# the reports' 300,000 references: 16.5 CPU-s before, 9 after with
# jsonschema 4.26 (python3 here); 6.7 and 5.5 with Debian's 4.10.
def inline(node):
    if isinstance(node, list):
        return [inline(n) for n in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        if set(node) - {"$ref", "description"}:
            fail("schema: a $ref beside keywords that validate: %s" % node)
        return inline(resolve(node))
    return {k: (v if k == "$defs" else inline(v)) for k, v in node.items()}
validator = Strict(inline(schema))

def close(a, b):
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-6)

def pct_ok(p):
    try:
        return 0 < float(p) <= 100
    except ValueError:
        return False

def hist_rel(h, ios, where, kind):
    n = h["count"]
    if sum(b[2] for b in h["buckets"]) + h["overflow"] != n:
        fail(where + ": buckets + overflow != count")
    last = -1
    for lo, hi, _ in h["buckets"]:
        if not last < lo <= hi:
            fail(where + ": buckets not in order or overlapping")
        last = hi
    if n == 0:
        figs = (h["min"], h["max"], h["mean"], h["stddev"], h["percentiles"])
        if figs != (0, 0, 0, 0, {}):
            fail(where + ": an empty histogram with figures")
    elif not h["min"] <= h["mean"] <= h["max"]:
        fail(where + ": mean outside [min, max]")
    for p, v in h["percentiles"].items():
        if not pct_ok(p):
            fail(where + ": percentile key " + p)
        if not h["min"] <= v <= h["max"]:
            fail(where + ": p%s outside [min, max]" % p)
    if kind != "slat_ns" and n != ios:
        fail(where + ": count %d, ios %d" % (n, ios))
    if kind == "slat_ns" and n not in (0, ios):
        fail(where + ": slat count %d, ios %d" % (n, ios))

def result_rel(u, where, pct_job):
    ios = u["read"]["ios"] + u["write"]["ios"] + u["trim"]["ios"]
    c = u["cpu"]
    want = (c["user_ns"] + c["sys_ns"]) / 1000 / ios if ios else 0
    if not close(c["us_per_io"], want):
        fail(where + ": cpu.us_per_io")
    for dname in ("read", "write", "trim"):
        d, w = u[dname], where + "." + dname
        if d["runtime_ns"] != u["runtime_ns"]:
            fail(w + ": runtime_ns is not the unit's")
        rt = d["runtime_ns"]
        if not u["measured"]:
            if (d["iops"], d["bw_bytes"], d["ios"], rt) != (None, None, 0, 0):
                fail(w + ": nothing measured, yet figures")
            continue
        if not close(d["iops"], d["ios"] * 1e9 / rt if rt else 0):
            fail(w + ": iops != ios / runtime")
        if not close(d["bw_bytes"], d["io_bytes"] * 1e9 / rt if rt else 0):
            fail(w + ": bw_bytes != io_bytes / runtime")
        if (d["errors"] == 0) != (d["first_error"] is None):
            fail(w + ": errors and first_error disagree")
        for k in ("slat_ns", "clat_ns", "lat_ns"):
            hist_rel(d[k], d["ios"], w + "." + k, k)
            on = pct_job and pct_job["options"][k[:-3] + "_percentiles"] == "1"
            got = [float(p) for p in d[k]["percentiles"]]
            if not on or d[k]["count"] == 0:
                if got:
                    fail(w + "." + k + ": percentiles that are off")
                continue
            want = sorted(set(float(p) for p in
                              pct_job["options"]["percentile_list"].split(":")))
            same = all(math.isclose(a, b, rel_tol=1e-5)
                       for a, b in zip(got, want))
            if len(got) != len(want) or not same:
                fail("%s.%s: percentiles %s, percentile_list %s"
                     % (w, k, got, want))
    v = u["verify"]
    if v is not None:
        if sum(v["by_class"].values()) != v["mismatches"]:
            fail(where + ": verify by_class does not add up")
        if len(v["first"]) != min(10, v["mismatches"]):
            fail(where + ": verify.first has %d of %d"
                 % (len(v["first"]), v["mismatches"]))

def interval_rel(u, where):
    if u["intervals"] is None:
        return
    for dname, tot in (("read", "ios"), ("write", "ios"), ("trim", "ios")):
        if sum(i[dname]["ios"] for i in u["intervals"]) != u[dname]["ios"]:
            fail(where + ": %s interval ios do not add up" % dname)
        if sum(i[dname]["bytes"] for i in u["intervals"]) != \
           u[dname]["io_bytes"]:
            fail(where + ": %s interval bytes do not add up" % dname)
    for i in u["intervals"]:
        if i["start_ns"] > i["end_ns"]:
            fail(where + ": an interval ends before it starts")

def report_rel(d, name):
    if d["interrupted"] != (d["signal"] is not None):
        fail(name + ": interrupted and signal disagree")
    for i, g in enumerate(d["groups"]):
        if g["group"] != i:
            fail(name + ": groups[%d].group is %d" % (i, g["group"]))
    for i, j in enumerate(d["jobs"]):
        w = "%s: jobs[%d]" % (name, i)
        if list(j["options"]) != job_opts(j["options"].get("ioengine")):
            fail(w + ": options are not the option table's and its "
                 "engine's")
        if (j["clone"] is None) != (j["options"]["group_reporting"] == "1"):
            fail(w + ": clone null and group_reporting disagree")
        if not 0 <= j["group"] < len(d["groups"]):
            fail(w + ": no such group")
        result_rel(j, w, j)
        interval_rel(j, w)
        if (j["summary"] is None) != (j["ran"] and not j["measured"]):
            fail(w + ": summary null and measured disagree")
        if j["summary"] is None:
            continue
        s, r, wr, tr = j["summary"], j["read"], j["write"], j["trim"]
        if (s["reqs"], s["io_bytes"], s["runtime_ns"]) != (
                r["ios"] + wr["ios"] + tr["ios"],
                r["io_bytes"] + wr["io_bytes"] + tr["io_bytes"],
                j["runtime_ns"]):
            fail(w + ": summary reqs, io_bytes or runtime_ns")
        if not close(s["iops"], r["iops"] + wr["iops"] + tr["iops"]) or \
           not close(s["bw_bytes"],
                     r["bw_bytes"] + wr["bw_bytes"] + tr["bw_bytes"]):
            fail(w + ": summary iops or bw_bytes")
        ph = j["phase_cpu"]
        if ph is not None:
            p = ph["process"]
            if (s["utime_ns"], s["stime_ns"]) != (p["user_ns"], p["sys_ns"]):
                fail(w + ": summary CPU is not phase_cpu.process's")
            cpu = s["utime_ns"] + s["stime_ns"]
            if not close(s["cpu_pct"], cpu / ph["wall_ns"] * 100
                         if ph["wall_ns"] else 0):
                fail(w + ": summary cpu_pct")
            if not close(s["us_per_io"], cpu / 1000 / ph["ios"]
                         if ph["ios"] else 0):
                fail(w + ": summary us_per_io")
    for g in d["groups"]:
        w = "%s: groups[%d]" % (name, g["group"])
        units = [j for j in d["jobs"] if j["group"] == g["group"]]
        if not units:
            fail(w + ": no unit")
            continue
        if sum(j["njobs"] for j in units) != g["njobs"]:
            fail(w + ": njobs is not its units'")
        if g["njobs_ran"] > g["njobs"]:
            fail(w + ": njobs_ran > njobs")
        for dname in ("read", "write", "trim"):
            if sum(j[dname]["ios"] for j in units) != g[dname]["ios"]:
                fail(w + ": %s.ios is not its units'" % dname)
        result_rel(g, w, units[0])
        interval_rel(g, w)

# Which types each nullable key was seen with.
def walk_types(x, path, seen):
    seen.setdefault(path, set()).add("null" if x is None else type(x).__name__)
    if isinstance(x, dict):
        for k, v in x.items():
            walk_types(v, path + "." + k, seen)
    elif isinstance(x, list):
        for v in x:
            walk_types(v, path + "[]", seen)

def schema_paths(node, path, out):
    node = resolve(node)
    out[path] = types_of(node)
    for k, v in node.get("properties", {}).items():
        schema_paths(v, path + "." + k, out)
    if isinstance(node.get("items"), dict):
        schema_paths(node["items"], path + "[]", out)

seen = {}
reports = sorted(os.listdir(rep_dir))
first_doc = damaged_doc = None
for name in reports:
    text = open(os.path.join(rep_dir, name)).read()
    try:
        d = json.loads(text)
    except ValueError as e:
        fail("%s: not one JSON document: %s" % (name, e))
        continue
    first_doc = first_doc or d
    if "verify-damaged" in name:
        damaged_doc = d
    bad = sorted(validator.iter_errors(d),
                 key=lambda e: [str(x) for x in e.path])
    for e in bad[:5]:
        fail("%s: %s: %s" % (name, "/".join(map(str, e.absolute_path)),
                             e.message[:300]))
    if bad:
        continue
    report_rel(d, name)
    walk_types(d, "", seen)

# Reals are written as reals, also when they are whole.
paths = {}
schema_paths(schema, "", paths)
for path, types in sorted(paths.items()):
    got = seen.get(path, set()) - {"null"}
    if "number" in types and got - {"float"}:
        fail("%s is a real but was written as %s" % (path, got))

# Nullable keys seen both ways, but for those no real run makes.
unseen_ok = {
    ".jobs[].phase_cpu": "null only without phase figures (unit tests)",
    ".jobs[].read.first_error.file": "the worker always knows the file",
    ".jobs[].read.first_error.engine": "the worker always knows the engine",
    ".jobs[].baseline.figures.change_pct":
        "a baseline figure of 0 (a run without CPU time) is rare",
    ".checks[].threshold": "null only for a baseline check that is n/a",
    ".host.cpu_model": "every machine here names its CPU",
    ".host.memory_bytes": "every machine here has /proc/meminfo",
    ".jobs[].targets[].device.name": "sysfs names every disk it has",
    ".jobs[].targets[].device.model": "virtio, loop and zram have no model",
    ".jobs[].targets[].device.firmware": "nor a firmware revision",
    ".jobs[].targets[].device.logical_block_size": "always in sysfs",
    ".jobs[].targets[].device.physical_block_size": "always in sysfs",
    ".jobs[].targets[].device.rotational": "always in sysfs",
    ".jobs[].targets[].device.scheduler": "always in sysfs",
    ".jobs[].targets[].device.write_cache": "always in sysfs",
    ".jobs[].health": "NVMe namespaces only (the test guest's case 09 "
        "validates such a report against this schema)",
    ".nvme[].error": "an NVMe namespace's (guest case 09)",
    ".nvme[].health_before": "an NVMe namespace's (guest case 09)",
    ".nvme[].health_after": "an NVMe namespace's (guest case 09)",
    ".nvme[].health_delta": "an NVMe namespace's (guest case 09)",
}
if faultfs != "1":
    unseen_ok[".jobs[].read.first_error"] = "no faultfs here"
for path, types in sorted(paths.items()):
    if "null" not in types or len(types) < 2 or path.startswith(".groups"):
        continue
    if ".write." in path or ".trim." in path:
        continue    # the same object as read's
    got = seen.get(path, set())
    # A cluster member's figures are a job's own (the same exceptions).
    own = path.replace(".cluster.members[].jobs[]", ".jobs[]", 1)
    for want in ("null", "not null"):
        ok = ("null" in got) if want == "null" else bool(got - {"null"})
        if not ok and path not in unseen_ok and own not in unseen_ok:
            fail("coverage: no report has %s %s; add a run that gives it"
                 % (path, want))

# -- The validation can fail --
def add_key(o):
    o["undocumented"] = 1
mutations = {
    "an unknown top-level key": lambda d: add_key(d),
    "an unknown key in a direction": lambda d: add_key(d["jobs"][0]["read"]),
    "an unknown key in a histogram":
        lambda d: add_key(d["jobs"][0]["read"]["clat_ns"]),
    "an unknown key in a group": lambda d: add_key(d["groups"][0]),
    "a missing key": lambda d: d["jobs"][0]["summary"].pop("iops"),
    "an integer written as a real":
        lambda d: d["jobs"][0]["read"].update(ios=1.0),
    "a count as text": lambda d: d["host"].update(ncpus="2"),
    "a negative count": lambda d: d["jobs"][0]["read"].update(errors=-1),
    "a null that may not be": lambda d: d["jobs"][0].update(options=None),
    "a bucket of two":
        lambda d: d["jobs"][0]["read"]["clat_ns"]["buckets"][0].pop(),
    "a non-numeric percentile key":
        lambda d: d["jobs"][0]["read"]["clat_ns"]["percentiles"].update(p99=1),
    "another schema_version": lambda d: d.update(schema_version=2),
}
def first_mismatch(d):
    return d["jobs"][0]["verify"]["first"][0]
vmutations = {
    "a seed without 0x":
        lambda d: first_mismatch(d)["expected"].update(seed="1234"),
    "an unknown mismatch class":
        lambda d: first_mismatch(d).update(**{"class": "gone"}),
    "a checksum in an expected header":
        lambda d: first_mismatch(d)["expected"].update(checksum="0x1"),
}
if first_doc is None or damaged_doc is None:
    fail("no report to mutate")
else:
    for base, muts in ((first_doc, mutations), (damaged_doc, vmutations)):
        if not validator.is_valid(base):
            continue    # said above
        for what, how in muts.items():
            d = copy.deepcopy(base)
            how(d)
            if validator.is_valid(d):
                fail("a report with %s validates" % what)

for e in errs:
    print("FAILED:", e)
print("%d reports, %d problems" % (len(reports), len(errs)))
sys.exit(1 if errs else 0)
EOF
	{ echo "FAILED: see above"; exit 1; }
exit 0
