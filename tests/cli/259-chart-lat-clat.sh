#!/bin/sh
# Which latency a histogram shows, and the same one for results compared.
# One run writes iorig's JSON and fio's json+ layout of the same I/Os (a
# libaio job whose I/Os complete inside io_submit, clat 0, and a psync
# job, one reporting group). Drawn alone, iorig's result shows lat (its
# title, its axis say so), fio's layout shows clat (its bins are clat's).
# Drawn together, both show clat: the two histograms hold the same bars
# (the data handed to gnuplot, and the bars' pixels in Chromium
# screenshots of the two charts), their marks the same percentiles, and
# the comparison's p99 is the same figure for both, clat's, in the unit
# its axis names.
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v gnuplot >/dev/null 2>&1 || skip "needs gnuplot (gnuplot-nox)"

dd if=/dev/zero of=g bs=1M count=16 2>/dev/null
cat >z.job <<'EOF'
[global]
filename=g
size=16m
bs=4k
rw=randread
group_reporting=1
number_ios=2000

[z]
ioengine=libaio
iodepth=4

[z]
ioengine=psync
EOF
run --output-format=json,json+ --output=both z.job
expect_rc 0
"$PY" - both <<'EOF' || die "cannot split the two documents"
import json, sys
t = open(sys.argv[1]).read()
dec = json.JSONDecoder()
a, end = dec.raw_decode(t)
b, _ = dec.raw_decode(t[end:].lstrip())
i, f = (a, b) if "iorig_version" in a else (b, a)
assert "fio version" in f, list(f)[:3]
json.dump(i, open("iorig.json", "w"))
json.dump(f, open("fio.json", "w"))
EOF
run plot --outdir=i iorig.json
expect_rc 0
run plot --outdir=f fio.json
expect_rc 0
run plot --outdir=c iorig.json fio.json
expect_rc 0
shots c/iorig-z-read-lat.svg c/iorig-z-read-lat.png \
	c/fio-z-read-lat.svg c/fio-z-read-lat.png

CLI_DIR="$top/tests/cli" "$PY" - iorig.json fio.json <<'PYEOF' || die "the charts do not say or share their latency"
import json, os, re, sys
import xml.etree.ElementTree as ET
sys.path.insert(0, os.environ["CLI_DIR"])
from shot import Shot, find, frame  # noqa: E402

i = json.load(open(sys.argv[1]))["jobs"][0]["read"]
f = json.load(open(sys.argv[2]))["jobs"][0]["read"]
def text(svg):
    return [t.strip() for t in ET.parse(svg).getroot().itertext() if t.strip()]
def says(svg, which):
    t = text(svg)
    words = {"lat": "total latency, submission to completion",
             "clat": "completion latency"}
    if not any(x.startswith("z: read %s (%s)" % (which, words[which])) for x in t) or \
       "%s (log scale)" % which not in " ".join(t):
        sys.exit("%s does not say %s: %s" % (svg, which, t[:4]))
def bars(name):
    b = open(name + ".dat").read().split("\n\n\n")[0]
    return [l.split() for l in b.split("\n") if l and not l.startswith("#")]
if i["lat_ns"]["count"] != i["clat_ns"]["count"] or i["lat_ns"]["count"] != f["clat_ns"]["N"]:
    sys.exit("the two documents are not of the same I/Os")
says("i/z-read-lat.svg", "lat")
says("f/z-read-lat.svg", "clat")
says("c/iorig-z-read-lat.svg", "clat")
says("c/fio-z-read-lat.svg", "clat")
# the same I/Os, the same latency: the same bars and marks
a, b = bars("c/iorig-z-read-lat"), bars("c/fio-z-read-lat")
if len(a) != len(b) or any(abs(float(x[2]) - float(y[2])) > 1e-6 or
                           abs(float(x[0]) - float(y[0])) > 1e-6 for x, y in zip(a, b)):
    sys.exit("iorig's and fio's layout of one run drawn differently: %s / %s" % (a[:3], b[:3]))
marks = [re.findall(r"set label '(p[0-9.]+ [^']*)'", open(c + ".gp").read())
         for c in ("c/iorig-z-read-lat", "c/fio-z-read-lat")]
if marks[0] != marks[1] or len(marks[0]) != 3:
    sys.exit("marks %s" % marks)
# in the screenshots: the same bars where the same axis puts them
shots = [Shot("c/%s-z-read-lat.png" % n) for n in ("iorig", "fio")]
px = []
for s in shots:
    fr = frame(s)
    px.append(set(find(s, "#4060c0", 0.4, box=(fr[0] + 1, fr[1] + 1, fr[2], fr[3]))))
if len(px[0]) < 200 or len(px[0] ^ px[1]) > len(px[0]) // 50:
    sys.exit("the bars differ in the screenshots: %d and %d pixels, %d apart" %
             (len(px[0]), len(px[1]), len(px[0] ^ px[1])))
# the comparison's p99: clat's for both, in its axis's unit
lines = open("c/compare-read-p99.dat").read().split("\n")
unit = [l for l in lines if l.startswith("# p99 ")][0]
if not re.fullmatch(r"# p99 clat \((ns|µs|ms|s)\)", unit) or unit[2:] not in text("c/compare-read-p99.svg"):
    sys.exit("the comparison's p99 axis: %r" % unit)
div = {"ns": 1, "µs": 1e3, "ms": 1e6, "s": 1e9}[unit.split("(")[1][:-1]]
row = [l.split() for l in lines if l and not l.startswith("#")][0]
want = f["clat_ns"]["percentile"]["99.000000"] / div
for v in row[2:4]:
    if abs(float(v) - want) > 1e-6 * want:
        sys.exit("compare p99 %s, fio's clat p99 is %g" % (row, want))
print("lat alone, clat together: %d bars alike, p99 %s %s" % (len(a), row[2], unit))
PYEOF
exit 0
