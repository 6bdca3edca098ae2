#!/bin/sh
# --output-format=openmetrics and prometheus read by real consumers:
# Debian's promtool (check metrics: the text format 0.0.4 and its lint),
# the OpenMetrics and text parsers of python3-prometheus-client (strict
# about OpenMetrics' counters, units and # EOF), and a Debian
# prometheus-node-exporter started here on a free localhost port, its
# textfile collector serving iorig's file: the exporter's /metrics must
# show every series with its type and value. The values are checked
# against iorig's own JSON of the same run (--output-format=json,
# openmetrics,prometheus): rates, byte and I/O counters, the percentiles
# as summary quantiles, histogram buckets from the JSON's buckets, the
# runtime, the checks; label values with a quote and a backslash come
# back intact. iorig report gives the same text from the saved JSON, and
# iorig merge the merged figures.
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v promtool >/dev/null 2>&1 ||
	skip "needs promtool (Debian package prometheus; make deps installs it)"
command -v prometheus-node-exporter >/dev/null 2>&1 ||
	skip "needs prometheus-node-exporter (Debian package; make deps installs it)"
"$PY" -c 'import prometheus_client' 2>/dev/null ||
	skip "needs python3-prometheus-client (Debian package; make deps installs it)"

odd='q"\w'
run --output-format=json,openmetrics,prometheus \
	--name=a --ioengine=psync --rw=randrw --bs=4k --size=2m \
	--lat_percentiles=1 --filename="$T/a.dat" \
	--check='a:read.iops>=1' --check='a:write.lat.p99<=1ns' \
	--name="$odd" --ioengine=null --rw=read --bs=4k --size=1m
expect_rc 3
"$PY" - "$T/out" <<'PYEOF' || die "splitting the output"
import json, sys
s = open(sys.argv[1]).read()
d, n = json.JSONDecoder().raw_decode(s)
rest = s[n:].lstrip("\n")
om, eof, prom = rest.partition("# EOF\n")
assert eof and prom.startswith("# HELP"), rest[-300:]
open("run.json", "w").write(s[:n])
open("run.om", "w").write(om + eof)
open("run.prom", "w").write(prom)
PYEOF

promtool check metrics <run.prom >lint 2>&1 ||
	die "promtool check metrics: $(cat lint)"
[ ! -s lint ] || die "promtool's lint: $(cat lint)"

# The metrics against the JSON, as the strict parsers read them.
check_values() {
	"$PY" - "$1" "$2" "$3" <<'PYEOF'
import json, math, sys
from prometheus_client.parser import text_string_to_metric_families as prom
from prometheus_client.openmetrics.parser import text_string_to_metric_families as om
d = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
fams = {f.name: f for f in (om(text) if sys.argv[3] == "om" else prom(text))}
bad = []
def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-12)
def find(fam, suffix="", **lab):
    got = [s for s in fams[fam].samples if s.name == fam.replace("_total", "") + suffix
           and all(s.labels.get(k) == v for k, v in lab.items())]
    if len(got) != 1:
        bad.append("%s%s %s: %d samples" % (fam, suffix, lab, len(got)))
        return float("nan")
    return got[0].value
# both parsers name a counter family without its _total
cnt = lambda n: n
types = {"iorig_iops": "gauge", "iorig_bandwidth_bytes_per_second": "gauge",
         cnt("iorig_io_bytes"): "counter", cnt("iorig_ios"): "counter",
         "iorig_latency_percentiles_seconds": "summary",
         "iorig_latency_seconds": "histogram", "iorig_check_passed": "gauge",
         "iorig_runtime_seconds": "gauge"}
for f, t in types.items():
    if fams.get(f) is None or fams[f].type != t:
        bad.append("family %s: %s" % (f, fams.get(f) and fams[f].type))
if bad:
    print("\n".join(bad)); sys.exit(1)
host = d["host"]["hostname"]
for j in d["jobs"]:
    if not j["summary"]:
        continue
    lab = {"job_name": j["name"], "host": host}
    if j["targets"] and j["targets"][0]["path"]:
        lab["target"] = j["targets"][0]["path"]
    if not close(find("iorig_runtime_seconds", **lab), j["runtime_ns"] / 1e9):
        bad.append("runtime of %s" % j["name"])
    for dr in ("read", "write"):
        x = j[dr]
        if not x["ios"]:
            continue
        dl = dict(lab, direction=dr)
        for fam, sfx, want in (("iorig_iops", "", x["iops"]),
                               ("iorig_bandwidth_bytes_per_second", "", x["bw_bytes"]),
                               (cnt("iorig_io_bytes"), "_total", x["io_bytes"]),
                               (cnt("iorig_ios"), "_total", x["ios"])):
            got = find(fam, sfx, **dl)
            if not close(got, want):
                bad.append("%s %s: %s, JSON %s" % (fam, dl, got, want))
        for kind in ("lat", "clat"):
            h = x[kind + "_ns"]
            kl = dict(dl, kind=kind)
            for p, ns in h["percentiles"].items():
                q = str(float(p) / 100)
                got = [s.value for s in fams["iorig_latency_percentiles_seconds"].samples
                       if s.labels.get("quantile") is not None and
                       abs(float(s.labels["quantile"]) - float(p) / 100) < 1e-12 and
                       all(s.labels.get(k) == v for k, v in kl.items())]
                if got != [ns / 1e9]:
                    bad.append("quantile %s of %s: %s, JSON %s ns" % (p, kl, got, ns))
            if find("iorig_latency_percentiles_seconds", "_count", **kl) != h["count"]:
                bad.append("summary count %s" % kl)
            if not close(find("iorig_latency_seconds", "_sum", **kl), h["mean"] * h["count"] / 1e9, 1e-6):
                bad.append("histogram sum %s" % kl)
            buckets = [s for s in fams["iorig_latency_seconds"].samples
                       if s.name.endswith("_bucket") and
                       all(s.labels.get(k) == v for k, v in kl.items())]
            if len(buckets) < 20:
                bad.append("%d buckets for %s" % (len(buckets), kl))
            for s in buckets:
                le = float(s.labels["le"])
                want = h["count"] if math.isinf(le) else \
                    sum(c for lo, hi, c in h["buckets"] if hi <= round(le * 1e9))
                if s.value != want:
                    bad.append("bucket le=%s of %s: %s, JSON's buckets %s" % (s.labels["le"], kl, s.value, want))
for c in d["checks"]:
    lab = {"job_name": c["job"], "check": c["expr"].split(":", 1)[-1]}
    if find("iorig_check_passed", **lab) != (1 if c["pass"] else 0):
        bad.append("check %s" % c["expr"])
names = {s.labels["job_name"] for s in fams["iorig_iops"].samples}
if names != {j["name"] for j in d["jobs"] if j["summary"]} or \
   len(d["jobs"]) == 2 and names != {"a", 'q"\\w'}:
    bad.append("job names %s" % names)
print("\n".join(bad))
sys.exit(1 if bad else 0)
PYEOF
}
check_values run.json run.om om >msg 2>&1 || die "openmetrics: $(cat msg)"
check_values run.json run.prom prom >msg 2>&1 || die "prometheus: $(cat msg)"

# The saved JSON reads back into the same text.
for f in openmetrics:run.om prometheus:run.prom; do
	run report --output-format="${f%%:*}" run.json
	expect_rc 0
	cmp -s out "${f#*:}" || die "iorig report --output-format=${f%%:*}:" \
		"$(diff "${f#*:}" out | head)"
done

# node exporter's textfile collector serves the file: every series of
# it, with its type, on /metrics.
mkdir -p tf
cp run.prom tf/iorig.prom
"$PY" - tf run.prom <<'PYEOF' || die "prometheus-node-exporter did not serve the file"
import socket, subprocess, sys, time, urllib.request
from prometheus_client.parser import text_string_to_metric_families as prom
want = {f.name: f for f in prom(open(sys.argv[2]).read())}
# straight to the exporter, whatever http_proxy says
fetch = urllib.request.build_opener(urllib.request.ProxyHandler({})).open
body = None
for attempt in range(3):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    p = subprocess.Popen(["prometheus-node-exporter", "--collector.disable-defaults",
                          "--collector.textfile", "--collector.textfile.directory=" + sys.argv[1],
                          "--web.listen-address=127.0.0.1:%d" % port],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        for _ in range(100):
            if p.poll() is not None:
                break
            try:
                body = fetch("http://127.0.0.1:%d/metrics" % port, timeout=5).read().decode()
                break
            except OSError:
                time.sleep(0.1)
    finally:
        p.kill()
        err = p.communicate()[1].decode()
    if body is not None:
        break
if body is None:
    print("no /metrics:", err[-2000:]); sys.exit(1)
got = {f.name: f for f in prom(body)}
bad = []
if got["node_textfile_scrape_error"].samples[0].value != 0:
    bad.append("node_textfile_scrape_error")
for name, f in want.items():
    g = got.get(name)
    if g is None or g.type != f.type:
        bad.append("%s: %s, file %s" % (name, g and g.type, f.type))
        continue
    a = sorted((s.name, tuple(sorted(s.labels.items())), s.value) for s in f.samples)
    b = sorted((s.name, tuple(sorted(s.labels.items())), s.value) for s in g.samples)
    if a != b:
        bad.append("%s: samples differ: %s" % (name, set(a) ^ set(b)))
print("\n".join(bad)[:3000] or "ok: node exporter served %d families" % len(want))
sys.exit(1 if bad else 0)
PYEOF

# A merge: the merged figures, valid for promtool.
for s in 2 1; do
	run --name=m --ioengine=psync --rw=randread --bs=4k --size=${s}m \
		--filename="$T/m$s.dat" --output-format=json
	expect_rc 0
	cp out m$s.json
done
run merge --output-format=json,prometheus --check='read.ios>=768' \
	m2.json m1.json
expect_rc 0
"$PY" -c 'import json,sys
s = open(sys.argv[1]).read()
d, n = json.JSONDecoder().raw_decode(s)
open("merged.json", "w").write(s[:n])
open("merged.prom", "w").write(s[n:].lstrip("\n"))' out
promtool check metrics <merged.prom >lint 2>&1 ||
	die "promtool on the merge: $(cat lint)"
[ ! -s lint ] || die "promtool's lint on the merge: $(cat lint)"
check_values merged.json merged.prom prom >msg 2>&1 ||
	die "merged: $(cat msg)"
grep -q '^iorig_check_passed{.*check="read.ios>=768".*} 1$' merged.prom ||
	die "the merge's check: $(grep check merged.prom)"
echo ok
