#!/bin/sh
# The axes of the charts over time and of the comparison, in headless
# Chromium screenshots of iorig plot's SVGs (read by shot.py):
# - IOPS, bandwidth and p99 over time (interval=), and a bandwidth log:
#   the time axis ends where the data does (within a twentieth past the
#   last point, which is not drawn on the frame), the highest point
#   leaves a twentieth of the frame free below its top;
# - the comparison of two results: its bars stay off both sides of the
#   frame and below its top; its subtitle says only what is known (no
#   empty ", host "), of fio's results (no host) nothing about a host;
# - p99 in a unit named on its axis, and no 1e+06 on any axis.
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v gnuplot >/dev/null 2>&1 || skip "needs gnuplot (gnuplot-nox)"

dd if=/dev/zero of=f bs=1M count=8 2>/dev/null
run --name=mix --rw=randrw --bs=4k --size=8m --filename=f \
	--runtime=1s --time_based --interval=100ms --write_bw_log=mix \
	--log_avg_msec=100 --output-format=json
expect_rc 0
cp out a.json
run --name=mix --rw=randrw --bs=8k --size=8m --filename=f \
	--runtime=300ms --time_based --output-format=json
expect_rc 0
cp out b.json
run plot --outdir=t a.json
expect_rc 0
run plot --outdir=l mix_bw.1.log
expect_rc 0
run plot --outdir=c a.json b.json
expect_rc 0
set --
for c in t/mix-iops.svg t/mix-bw.svg t/mix-p99.svg l/mix_bw.1.svg \
	c/compare-read-iops.svg c/compare-write-p99.svg; do
	[ -s "$c" ] || die "no $c"
	set -- "$@" "$c" "$c.png"
done
shots "$@"
fiocmp=
if command -v fio >/dev/null 2>&1; then
	for n in 1 2; do
		fio --name=j --rw=randread --bs=4k --size=8m --filename=f \
			--runtime=200ms --time_based --output-format=json \
			--output=fio$n.json >/dev/null 2>&1 || die "fio failed"
	done
	run plot --outdir=fc fio1.json fio2.json
	expect_rc 0
	fiocmp=fc/compare-read-iops.svg
fi

CLI_DIR="$top/tests/cli" "$PY" - a.json "$fiocmp" <<'PYEOF' || die "the axes are not drawn as a person can trust"
import json, os, re, sys
import xml.etree.ElementTree as ET
sys.path.insert(0, os.environ["CLI_DIR"])
from shot import Shot, coloured, frame  # noqa: E402

def look(svg, past=40):
    """past: how far right of the frame data is looked for (the key of
    the comparison stands there)"""
    s = Shot(svg + ".png")
    f = frame(s)
    if not f:
        sys.exit("%s: no frame in the screenshot" % svg)
    left, top, right, bottom = f
    data = coloured(s, (left + 2, top - 40, right + past, bottom - 1))
    if len(data) < 30:
        sys.exit("%s: %d pixels of data" % (svg, len(data)))
    high = min(p[1] for p in data)
    if high - top < (bottom - top) / 20:
        sys.exit("%s: the highest point is %d px below the frame's top (of %d)" %
                 (svg, high - top, bottom - top))
    text = [t.strip() for t in ET.parse(svg).getroot().itertext() if t.strip()]
    for t in text:
        if re.search(r"\de[+-]\d", t) or re.search(r"\bus\b", t):
            sys.exit("%s: %r" % (svg, t))
    return s, f, data, text

# over time: the axis ends at the data
def over_time(svg, rows):
    s, (left, top, right, bottom), data, text = look(svg)
    gp = open(svg[:-4] + ".gp").read()
    end = float(re.search(r"set xrange \[0:([0-9.e+-]+)\]", gp).group(1))
    last = max(float(r[0]) for r in rows)
    if not last < end <= last * 1.05:
        sys.exit("%s: the time axis ends at %g s, the data at %g s" % (svg, end, last))
    x = max(p[0] for p in data)
    want = left + last / end * (right - left)
    # a point's mark reaches a few pixels past its centre
    if abs(x - want) > 6 or x >= right - 1:
        sys.exit("%s: the last point at x=%d, expected %.0f, frame ends at %d" %
                 (svg, x, want, right))
    return text

for c in ("mix-iops", "mix-bw", "mix-p99"):
    rows = [l.split() for l in open("t/%s.dat" % c) if l[0] != "#"]
    text = over_time("t/%s.svg" % c, rows)
    if c == "mix-p99" and not any(re.fullmatch(r"p99 latency \((ns|µs|ms|s)\)", t) for t in text):
        sys.exit("the p99 axis does not name its unit: %s" % text)
rows = [l.split() for l in open("l/mix_bw.1.dat") if l.strip() and l[0] != "#"]
over_time("l/mix_bw.1.svg", rows)

# the comparison: bars off the sides, a subtitle of what is known
host = json.load(open(sys.argv[1]))["host"]["hostname"]
for c in ("compare-read-iops", "compare-write-p99"):
    svg = "c/%s.svg" % c
    s, (left, top, right, bottom), data, text = look(svg, 0)
    inside = [p for p in data if left < p[0] < right and top < p[1] < bottom]
    gap = min(p[0] for p in inside) - left, right - max(p[0] for p in inside)
    if min(gap) < (right - left) / 20:
        sys.exit("%s: bars %s px from the sides of a %d px frame" % (svg, gap, right - left))
    if not any(t == "host " + host for t in text):
        sys.exit("%s: subtitle %s" % (svg, text[:3]))
if sys.argv[2]:
    text = [t.strip() for t in ET.parse(sys.argv[2]).getroot().itertext() if t.strip()]
    if any(t.startswith(",") or t.endswith(",") or "host" in t for t in text):
        sys.exit("fio's comparison: %s" % text[:3])
print("time axes end at the data, tops free, comparison bars off the frame")
PYEOF
exit 0
