#!/bin/sh
# The latency histogram as a person sees it: iorig plot's SVG rendered by
# headless Chromium and the screenshot read pixel by pixel (shot.py).
# The result: one reporting group of a libaio job on a buffered file (its
# I/Os complete inside io_submit: clat 0) and a psync job (clat > 0), in
# fio's json+ layout (clat's bins, fio's percentiles: p50 is 0), and
# iorig's own JSON of a randrw job. In the pictures:
# - each percentile's label (its own colour) lies outside the frame, and
#   no label's box holds a pixel of a bar, of the CDF or of another label;
#   inside the frame its colour is only its dashed line;
# - the tallest bar and the CDF's top leave a twentieth of the frame free
#   below its top edge;
# - the I/Os at 0 are no bar: the log axis spans the result's bars, its
#   ends 1-2-5 steps (not from 0.001 µs), the leftmost bar is drawn where
#   the axis puts it, the CDF starts at their share, the axis label says;
# - the ticks carry their unit (µs, ms), never 1e+06 or "us".
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
run --output-format=json+ z.job
expect_rc 0
cp out z.json
run --name=mix --rw=randrw --bs=4k --size=4m --filename=g \
	--runtime=400ms --time_based --output-format=json
expect_rc 0
cp out mix.json
run plot --outdir=p z.json
expect_rc 0
run plot --outdir=m mix.json
expect_rc 0
set --
for c in p/z-read-lat m/mix-read-lat m/mix-write-lat; do
	[ -s "$c.svg" ] || die "no $c.svg"
	set -- "$@" "$c.svg" "$(echo "$c" | tr / -).png"
done
shots "$@"

CLI_DIR="$top/tests/cli" "$PY" - z.json <<'PYEOF' || die "the histograms are not drawn as a person can trust"
import json, math, os, re, sys
import xml.etree.ElementTree as ET
sys.path.insert(0, os.environ["CLI_DIR"])
from shot import Shot, bbox, find, frame, overlap  # noqa: E402

BAR, CDF = "#4060c0", "#208020"
MARKS = {"p50": "#b35900", "p99": "#c00000", "p99.9": "#7a1fa2"}
UNIT = r"(ns|µs|ms|s)"

def bars_of(name):
    blocks = open(name + ".dat").read().split("\n\n\n")
    return [l.split() for l in blocks[0].split("\n") if l and not l.startswith("#")]

def check(name, result):
    s = Shot(name.replace("/", "-") + ".png")
    svg = open(name + ".svg").read()
    text = [t.strip() for t in ET.fromstring(svg).itertext() if t.strip()]
    f = frame(s)
    if not f:
        sys.exit("%s: no frame found in the screenshot" % name)
    left, top, right, bottom = f
    hgt = bottom - top
    inside = (left + 1, top + 1, right, bottom)
    bars = find(s, BAR, 0.4, box=inside)
    cdf = find(s, CDF, 0.5, box=inside)
    if len(bars) < 50 or len(cdf) < 50:
        sys.exit("%s: %d bar and %d CDF pixels" % (name, len(bars), len(cdf)))
    # nothing of the data on or past the frame
    if find(s, BAR, 0.4, box=(0, 0, s.w, top + 1)) or find(s, CDF, 0.5, box=(0, 0, s.w, top + 1)):
        sys.exit("%s: bars or CDF on or above the top edge" % name)
    # a twentieth of the frame free above the tallest bar and the CDF
    for what, pts in (("tallest bar", bars), ("CDF", cdf)):
        y = min(p[1] for p in pts)
        if y - top < hgt / 20:
            sys.exit("%s: the %s is %d px below the frame's top (of %d)" %
                     (name, what, y - top, hgt))
    # the labels: above the frame, a box each, apart from each other and
    # from every pixel of the data
    boxes = {}
    for m, col in MARKS.items():
        if "'%s " % m not in open(name + ".gp").read():
            continue
        lab = find(s, col, 0.5, box=(0, 0, s.w, top - 1))
        line = find(s, col, 0.5, box=inside)
        if not lab:
            sys.exit("%s: the %s label is not above the frame" % (name, m))
        b = bbox(lab)
        if line and max(p[0] for p in line) - min(p[0] for p in line) > 3:
            sys.exit("%s: %s's colour inside the frame is more than its line" % (name, m))
        for other, ob in boxes.items():
            if overlap(b, ob):
                sys.exit("%s: the %s and %s labels overlap: %s %s" % (name, m, other, b, ob))
        for what, pts in (("bar", bars), ("CDF", cdf)):
            if any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for x, y in pts):
                sys.exit("%s: the %s label covers a %s" % (name, m, what))
        boxes[m] = b
    if len(boxes) != 3:
        sys.exit("%s: %d percentile labels" % (name, len(boxes)))
    # ticks in their units; no exponent, no "us"
    for t in text:
        if re.search(r"\de[+-]\d", t) or re.search(r"\bus\b", t):
            sys.exit("%s: %r" % (name, t))
    tics = [t for t in text if re.fullmatch(r"[0-9.]+ " + UNIT, t)]
    if len(tics) < 2:
        sys.exit("%s: latency ticks without their unit: %s" % (name, text))
    # the axis: from the gnuplot script; the leftmost bar where it says
    gp = open(name + ".gp").read()
    lo, hi = map(float, re.search(r"set xrange \[([0-9.e+-]+):([0-9.e+-]+)\]", gp).groups())
    # the axis of every histogram of the result: its bars' ends, each
    # rounded to a 1-2-5 step
    rows = bars_of(name)
    every = [r for c in result for r in bars_of(c)]
    blo, bhi = min(float(r[0]) for r in every), max(float(r[1]) for r in every)
    if lo < blo / 2.5 - 1e-9 or hi > bhi * 2.5 + 1e-9 or lo > blo or hi < bhi:
        sys.exit("%s: axis %g..%g us for bars %g..%g us" % (name, lo, hi, blo, bhi))
    # the leftmost bar seen 3 px tall: drawn at the left end of a bar of
    # the data, no further left than the first bar a pixel tall (one of
    # 2.x px may reach 3 px on screen) and no further right than the first
    # bar the data makes 5 px tall (one of 3.x px may show fewer than 3
    # pixels dark enough: CI drew the first 3.x px bar 2 px tall)
    ytop = float(re.search(r"set yrange \[0:([0-9.e+-]+)\]", gp).group(1))
    def at(us):
        return left + (math.log(us) - math.log(lo)) / (math.log(hi) - math.log(lo)) * (right - left)
    seen = [float(r[0]) for r in rows if float(r[2]) / ytop * hgt >= 1]
    tall = [float(r[0]) for r in rows if float(r[2]) / ytop * hgt >= 5]
    got = min(p[0] for p in bars if bottom - p[1] >= 3)
    if not (at(seen[0]) - 3 <= got <= at(tall[0]) + 3) or \
            min(abs(got - at(x)) for x in seen) > 3:
        sys.exit("%s: leftmost bar at x=%d, the axis puts the first bars at %s (first 5 px tall at %.1f)" %
                 (name, got, ", ".join("%.1f" % at(x) for x in seen[:4]), at(tall[0])))
    blocks = open(name + ".dat").read().split("\n\n\n")
    cdf0 = [l.split() for l in blocks[1].split("\n") if l and not l.startswith("#")][0]
    return s, gp, text, float(cdf0[1])

# fio's layout: half the I/Os at clat 0
d = json.load(open(sys.argv[1]))["jobs"][0]["read"]["clat_ns"]
zero = 100.0 * d["bins"].get("0", 0) / d["N"]
if not 20 < zero < 80:
    sys.exit("the libaio job's share at clat 0 is %g%%: not the mix wanted" % zero)
s, gp, text, start = check("p/z-read-lat", ["p/z-read-lat"])
if abs(start - zero) > 1e-3:
    sys.exit("the CDF starts at %g%%, fio's bins put %g%% at 0" % (start, zero))
if not any(("%.3g%% of the I/Os at 0" % zero) in t for t in text):
    sys.exit("the axis label does not give the share at 0: %s" % text)
if "set label 'p50 0 ns'" not in gp:
    sys.exit("fio's p50 of 0 is not marked")
for c in ("m/mix-read-lat", "m/mix-write-lat"):
    check(c, ["m/mix-read-lat", "m/mix-write-lat"])
print("histograms: labels apart, margins kept, %g%% at clat 0 off the log axis" % zero)
PYEOF
exit 0
