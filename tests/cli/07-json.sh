#!/bin/sh
# The JSON report: stdout is one document; header, every option, latency
# histograms whose percentiles lie within [min, max] and whose buckets add
# up with the overflow to the count.
# lane: parallel
. "$(dirname "$0")/lib.sh"

table_job_options >opts.list
[ -s opts.list ] || die "could not read the option table"
ver=$("$IORIG" --version | sed -n 's/^iorig //p')

# check_report: the structural checks, on $T/out, for every unit and group.
check_report() {
	"$PY" - "$T/out" "$ver" "$T/opts.list" "$(getconf _NPROCESSORS_ONLN)" <<'EOF' || die "JSON report checks failed"
import json, sys
text = open(sys.argv[1]).read()
d = json.loads(text)          # the whole of stdout, nothing else
errs = []
def check(cond, what):
    if not cond:
        errs.append(what)
check(text.endswith("}\n"), "stdout ends with the document")
check(d.get("schema_version") == 1, "schema_version is 1")
check(d.get("iorig_version") == sys.argv[2], "iorig_version is --version's")
h = d.get("host", {})
check(isinstance(h.get("hostname"), str) and h["hostname"], "host.hostname")
check(isinstance(h.get("kernel"), str) and h["kernel"], "host.kernel")
check(h.get("ncpus") == int(sys.argv[4]), "host.ncpus is the online CPUs")
check(d.get("interrupted") is False and d.get("signal") is None,
      "not interrupted")
check(isinstance(d.get("wall_ns"), int) and d["wall_ns"] > 0, "wall_ns")
check(isinstance(d.get("timestamp"), int), "timestamp")
opts = open(sys.argv[3]).read().split()
check(len(d["jobs"]) >= 1 and len(d["groups"]) >= 1, "jobs and groups")
def hist(hh, where):
    for k in ("count", "min", "max", "overflow"):
        check(isinstance(hh[k], int) and hh[k] >= 0, where + "." + k)
    n = hh["count"]
    total = hh["overflow"]
    for b in hh["buckets"]:
        check(isinstance(b, list) and len(b) == 3 and
              all(isinstance(x, int) for x in b), where + ": bucket triple")
        check(b[0] <= b[1] and b[2] > 0, where + ": bucket [low, high, count>0]")
        total += b[2]
    check(total == n, "%s: buckets + overflow = %d, count %d" % (where, total, n))
    lows = [b[0] for b in hh["buckets"]]
    check(lows == sorted(lows), where + ": buckets in order")
    if n:
        check(hh["min"] <= hh["mean"] <= hh["max"], where + ": min <= mean <= max")
        check(hh["buckets"][0][1] >= hh["min"], where + ": first bucket holds min")
    prev = None
    for p, v in hh["percentiles"].items():
        check(isinstance(v, (int, float)) and not isinstance(v, bool),
              where + ": percentile " + p + " is a number")
        check(hh["min"] <= v <= hh["max"],
              "%s: p%s=%s outside [%d, %d]" % (where, p, v, hh["min"], hh["max"]))
        check(prev is None or v >= prev, where + ": percentiles non-decreasing")
        float(p)
        prev = v
for u in d["jobs"] + d["groups"]:
    name = u.get("name", "group %s" % u.get("group"))
    if "options" in u:
        check(list(u["options"].keys()) == opts,
              name + ": options lists every option of the table, in order")
        check(all(isinstance(v, str) for v in u["options"].values()),
              name + ": option values are text")
    check(u["error"] is None, name + ": no error")
    for dd in ("read", "write"):
        x = u[dd]
        for k in ("io_bytes", "ios", "runtime_ns", "errors", "short_ios"):
            check(isinstance(x[k], int), name + "." + dd + "." + k)
        check(x["clat_ns"]["count"] == x["ios"], name + "." + dd + ": clat count = ios")
        for k in ("slat_ns", "clat_ns", "lat_ns"):
            hist(x[k], name + "." + dd + "." + k)
        if x["ios"]:
            check(x["iops"] > 0 and x["bw_bytes"] > 0, name + "." + dd + ": rates")
for e in errs:
    print("FAILED:", e)
sys.exit(1 if errs else 0)
EOF
}

# A sync job on a file, reads and writes, all latency percentiles on.
run --name=j --filename=j.dat --size=2m --bs=4k --rw=randrw \
	--lat_percentiles=1 --slat_percentiles=1 --output-format=json
expect_rc 0
expect_empty err
check_report
json_is "d['jobs'][0]['name']" j
json_is "d['jobs'][0]['clone']" 0
json_is "d['jobs'][0]['ran']" True
json_is "d['jobs'][0]['options']['rw']" randrw
json_is "d['jobs'][0]['options']['size']" 2097152
json_is "d['jobs'][0]['options']['bs']" 4096
json_is "d['jobs'][0]['options']['lat_percentiles']" 1
json_is "len(d['jobs'][0]['read']['clat_ns']['percentiles'])" 17
json_is "len(d['jobs'][0]['read']['lat_ns']['percentiles'])" 17
json_is "d['jobs'][0]['read']['ios'] + d['jobs'][0]['write']['ios']" 512
expect_json "d['jobs'][0]['read']['ios'] > 0 and d['jobs'][0]['write']['ios'] > 0"

# percentile_list gives the keys; clat_percentiles=0 gives none.
run --name=j --filename=j.dat --size=1m --bs=4k --percentile_list=50:99.9:99.999 \
	--output-format=json
expect_rc 0
check_report
json_is "sorted(d['jobs'][0]['read']['clat_ns']['percentiles'], key=float)" \
	"['50', '99.9', '99.999']"
run --name=j --filename=j.dat --size=1m --bs=4k --clat_percentiles=0 \
	--output-format=json
expect_rc 0
check_report
json_is "d['jobs'][0]['read']['clat_ns']['percentiles']" '{}'
json_is "d['jobs'][0]['read']['clat_ns']['count']" 256

# Many samples from the null engine, several clones, two groups.
run --ioengine=null --size=16m --bs=4k --name=a --numjobs=2 \
	--name=b --new_group --rw=write --output-format=json
expect_rc 0
expect_empty err
check_report
json_is "len(d['jobs'])" 3
json_is "len(d['groups'])" 2
json_is "[g['njobs'] for g in d['groups']]" '[2, 1]'
json_is "d['groups'][0]['read']['ios']" 8192
json_is "d['groups'][1]['write']['ios']" 4096

# A job with no I/O in one direction has empty, consistent histograms.
json_is "d['jobs'][2]['read']['clat_ns']['count']" 0
json_is "d['jobs'][2]['read']['clat_ns']['buckets']" '[]'
exit 0
