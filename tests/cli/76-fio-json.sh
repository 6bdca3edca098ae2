#!/bin/sh
# --output-format=fio-json, read the way tools written for fio read fio's
# JSON: jobs[0]['read']['iops'], ['clat_ns']['percentile']['99.000000'],
# ['job options']['bs'], ... Figures are checked against each other (bw
# against bw_bytes, iops against runtime, percentiles against min/max and
# N), and against iorig's own JSON where a run is deterministic: the null
# engine's I/O counts are the same on every run with the same seed.
# lane: parallel
. "$(dirname "$0")/lib.sh"

# fio_check FILE PYTHON [ARG]: runs PYTHON with d = the document in FILE,
# arg = ARG, and helpers; an AssertionError fails the test with its
# message.
fio_check() {
	"$PY" - "$1" "$2" "${3:-}" <<'EOF' || die "fio-json check failed"
import json, sys
d = json.load(open(sys.argv[1]))
arg = sys.argv[3]

def near(a, b, tol):
    assert abs(a - b) <= tol, (a, b, tol)

def check_lat(o, n, pct):
    assert set(o) >= {"min", "max", "mean", "stddev", "N"}, o
    assert o["N"] == n, (o["N"], n)
    if n:
        assert o["min"] <= o["mean"] <= o["max"], o
    assert ("percentile" in o) == (pct is not None and n > 0), o
    if "percentile" in o:
        p = o["percentile"]
        assert list(p) == ["%f" % x for x in pct], list(p)
        vals = list(p.values())
        assert vals == sorted(vals), vals
        assert o["min"] <= vals[0] and vals[-1] <= o["max"], (o, vals)

def check_dir(x):
    for k in ("io_bytes", "io_kbytes", "bw_bytes", "bw", "runtime",
              "total_ios", "short_ios", "drop_ios", "bw_min", "bw_max",
              "bw_samples", "iops_min", "iops_max", "iops_samples"):
        assert isinstance(x[k], int), (k, x[k])
    for k in ("iops", "bw_agg", "bw_mean", "bw_dev", "iops_mean",
              "iops_stddev"):
        assert isinstance(x[k], float), (k, x[k])
    assert x["io_kbytes"] == x["io_bytes"] // 1024, x
    assert x["bw"] == x["bw_bytes"] // 1024, x      # KiB/s
    if x["total_ios"] == 0:
        assert x["runtime"] == 0 and x["bw"] == 0 and x["iops"] == 0, x
    return x

def check_job(j):
    for k in ("jobname", "groupid", "error", "elapsed", "job options",
              "read", "write", "trim", "sync", "job_runtime", "usr_cpu",
              "sys_cpu", "ctx", "majf", "minf", "iodepth_level",
              "latency_ns", "latency_us", "latency_ms", "latency_depth",
              "latency_target", "latency_percentile", "latency_window"):
        assert k in j, k
    for k in ("read", "write", "trim"):
        check_dir(j[k])
    assert j["trim"]["total_ios"] == 0
    assert j["sync"]["total_ios"] == 0 and j["sync"]["lat_ns"]["N"] == 0
    assert list(j["latency_ns"]) == ["2", "4", "10", "20", "50", "100",
                                     "250", "500", "750", "1000"]
    assert list(j["latency_us"]) == list(j["latency_ns"])
    assert list(j["latency_ms"]) == list(j["latency_ns"]) + ["2000",
                                                             ">=2000"]
    total = sum(sum(j[m].values()) for m in
                ("latency_ns", "latency_us", "latency_ms"))
    ios = j["read"]["total_ios"] + j["write"]["total_ios"]
    if ios:
        near(total, 100, 0.01 * 32)
    assert 0 <= j["usr_cpu"] and 0 <= j["sys_cpu"], j
    return j

exec(sys.argv[2])
EOF
}

# A mixed run of two clones reported as one, with a percentile list and
# latency percentiles; the same job in iorig's JSON for the counts.
set -- --name=mix --ioengine=null --size=1m --rw=randrw --blocksize=4k \
	--numjobs=2 --group_reporting --percentile_list=1:50:99:99.9 \
	--lat_percentiles=1
run --output-format=fio-json "$@"
expect_rc 0
cp "$T/out" "$T/fio.json"
run --output-format=json "$@"
expect_rc 0
cp "$T/out" "$T/iorig.json"
fio_check "$T/fio.json" '
assert d["fio version"].startswith("iorig-"), d["fio version"]
assert isinstance(d["timestamp"], int)
assert d["timestamp_ms"] // 1000 == d["timestamp"], (d["timestamp_ms"], d["timestamp"])
assert len(d["time"].split()) == 5, d["time"]
assert "global options" not in d, d["global options"]  # none: as fio
assert "disk_util" not in d, d["disk_util"]  # no disk: fio omits it
assert len(d["jobs"]) == 1, "group_reporting: one job"
j = check_job(d["jobs"][0])
assert j["jobname"] == "mix" and j["groupid"] == 0 and j["error"] == 0
o = j["job options"]
assert o["name"] == "mix" and o["bs"] == "4k" and o["rw"] == "randrw", o
assert o["numjobs"] == "2" and "group_reporting" not in o, \
    "a flag without a value is left out, as fio leaves it"
pct = [1, 50, 99, 99.9]
iorig = json.load(open(arg))
mine = iorig["jobs"][0]
for k in ("read", "write"):
    x = j[k]
    assert x["total_ios"] > 0, (k, "randrw fills both directions")
    assert x["total_ios"] == mine[k]["ios"], (k, x["total_ios"])
    assert x["io_bytes"] == mine[k]["io_bytes"], k
    assert x["io_bytes"] == 4096 * x["total_ios"], k
    check_lat(x["clat_ns"], x["total_ios"], pct)
    check_lat(x["lat_ns"], x["total_ios"], pct)
    check_lat(x["slat_ns"], 0, None)
    near(x["lat_ns"]["mean"], x["clat_ns"]["mean"], 1e-6)
assert j["read"]["total_ios"] + j["write"]["total_ios"] == 512
print("mix: read", j["read"]["iops"], "IOPS, p99 clat",
      j["read"]["clat_ns"]["percentile"]["99.000000"], "ns")
' "$T/iorig.json"

# repeat=2: job_runtime and the CPU shares cover both runs (a single
# thread's CPU is at most its runtime), elapsed both phases.
run --output-format=fio-json --name=rep --ioengine=null --size=1g \
	--time_based --runtime=300ms --repeat=2
expect_rc 0
fio_check "$T/out" '
j = check_job(d["jobs"][0])
x = j["read"]
assert x["runtime"] >= 600, x["runtime"]
assert abs(j["job_runtime"] - x["runtime"]) <= 1, (j["job_runtime"], x)
assert j["usr_cpu"] + j["sys_cpu"] <= 101, (j["usr_cpu"], j["sys_cpu"])
assert j["elapsed"] >= 1
'

# Long enough for the ms runtime to mean something: iops and bw against
# io_bytes and runtime; default percentile list, lat percentiles off.
run --output-format=fio-json --name=tb --ioengine=null --size=1m \
	--rw=randread --time_based --runtime=300ms
expect_rc 0
fio_check "$T/out" '
j = check_job(d["jobs"][0])
x = j["read"]
# ms, not s or us; a loaded machine may hold the last I/O back a while.
assert 300 <= x["runtime"] < 5000, x["runtime"]
secs = x["runtime"] / 1000
near(x["iops"] * secs, x["total_ios"], x["iops"] / 1000 + 1)
near(x["bw_bytes"] * secs, x["io_bytes"], x["bw_bytes"] / 1000 + 4096)
fio_list = [1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9,
            99.95, 99.99]
check_lat(x["clat_ns"], x["total_ios"], fio_list)
check_lat(x["lat_ns"], x["total_ios"], None)
assert "99.000000" in x["clat_ns"]["percentile"]
assert j["job_runtime"] >= x["runtime"], j["job_runtime"]
assert j["elapsed"] >= 1
assert j["write"]["total_ios"] == 0 and j["write"]["runtime"] == 0
assert "percentile" not in j["write"]["clat_ns"]
assert j["latency_depth"] == 1
'

# A job file: [global] options go to "global options", the job section's
# own to "job options"; a sweep makes one job per point with its value.
cat >"$T/s.job" <<'EOF'
[global]
ioengine=null
size=256k

[sw]
rw=read
sweep=bs:4k,16k
EOF
run --output-format=fio-json "$T/s.job"
expect_rc 0
fio_check "$T/out" '
assert d["global options"] == {"ioengine": "null", "size": "256k"}, \
    d["global options"]
assert [j["jobname"] for j in d["jobs"]] == ["sw", "sw"]
assert [j["job options"] for j in d["jobs"]] == [
    {"rw": "read", "bs": "4k"}, {"rw": "read", "bs": "16k"}], \
    [j["job options"] for j in d["jobs"]]
assert [j["groupid"] for j in d["jobs"]] == [0, 1]
ios = [check_job(j)["read"]["total_ios"] for j in d["jobs"]]
assert ios == [64, 16], ios
'

# A file on disk: disk_util names the disk under it, as sysfs does.
run --output-format=fio-json --name=f --filename="$T/f.dat" --size=256k \
	--rw=write --bs=64k --end_fsync=1
expect_rc 0
"$PY" - "$T/f.dat" >"$T/disk" <<'EOF' || die "cannot look up the disk"
import os, sys
st = os.stat(sys.argv[1])
p = "/sys/dev/block/%d:%d" % (os.major(st.st_dev), os.minor(st.st_dev))
if os.path.exists(p):
    p = os.path.realpath(p)
    if os.path.exists(p + "/partition"):
        p = os.path.dirname(p)
    print(os.path.basename(p))
EOF
fio_check "$T/out" '
want = open(arg).read().split()
names = [x["name"] for x in d["disk_util"]]
assert names == want, (names, want)
for x in d["disk_util"]:
    assert 0 <= x["util"] <= 100, x
    for k in ("read_ios", "write_ios", "read_merges", "write_merges",
              "read_ticks", "write_ticks", "in_queue"):
        assert isinstance(x[k], int) and x[k] >= 0, (k, x)
j = check_job(d["jobs"][0])
assert j["write"]["io_bytes"] == 262144 and j["write"]["total_ios"] == 4
' "$T/disk"
echo "disk_util: $(cat "$T/disk")"

# No sneaking a bad format through: a usage error before anything runs.
run --output-format=fio-jsn --name=x --ioengine=null --size=4k
expect_rc 2
expect_empty out
expect_in err "output-format"
expect_in err "expected text, json, fio-json, table, json\+, terse, html, junit, openmetrics or prometheus"
run --output-format= --name=x --ioengine=null --size=4k
expect_rc 2
expect_empty out
echo "ok"
