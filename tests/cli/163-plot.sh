#!/bin/sh
# iorig plot on a short randrw job with interval=: one chart per direction's
# latency (histogram + CDF, p50/p99/p99.9 marked) and IOPS, bandwidth, p99
# over time. Each SVG is well-formed XML with its title and axis labels;
# the data handed to gnuplot (NAME.dat, NAME.gp kept beside the chart) is
# what the JSON result says, recomputed here in Python: the histogram's
# buckets (by their midpoints) merged into 20 bins per decade (each bar's
# share of the I/Os), the CDF, the percentile marks (reported, or the
# upper edge of the bucket that holds them), each
# interval's figures. PNG: the signature and the 1000x620 size. The bw
# and clat logs of the same run, drawn over time, hold the logs' values;
# a per-I/O log's p99 per window is the nearest-rank p99 of its lines.
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v gnuplot >/dev/null 2>&1 || skip "needs gnuplot (gnuplot-nox)"
run --name=mix --rw=randrw --bs=4k --size=4m --filename=f.dat \
	--runtime=600ms --time_based --interval=100ms --output-format=json \
	--write_bw_log=mix --write_lat_log=mix --log_avg_msec=100
expect_rc 0
cp out r.json
run plot --outdir=svg r.json
expect_rc 0
for n in mix-read-lat mix-write-lat mix-iops mix-bw mix-p99; do
	grep -qx "svg/$n.svg" out || die "$n.svg not named on stdout"
	for x in svg dat gp; do
		[ -s "svg/$n.$x" ] || die "no svg/$n.$x"
	done
done
[ "$(wc -l <out)" -eq 5 ] || die "expected 5 charts"

"$PY" - r.json <<'PYEOF' || die "the charts do not match the result"
import json, math, re, sys
import xml.etree.ElementTree as ET
d = json.load(open(sys.argv[1]))
j = d['jobs'][0]
def fail(m):
    print(m); sys.exit(1)
def svg_text(name):
    t = ET.parse('svg/%s.svg' % name)      # well-formed XML or raises
    return ' '.join(x for x in t.getroot().itertext())
def dat(name):
    return [l.split() for l in open('svg/%s.dat' % name)
            if l.strip() and not l.startswith('#')]
UNITS = {'ns': 1, 'µs': 1e3, 'ms': 1e6, 's': 1e9}
for dn in ('read', 'write'):
    dr = j[dn]
    h = dr['lat_ns'] if dr['lat_ns']['count'] else dr['clat_ns']
    which = 'lat' if h is dr['lat_ns'] else 'clat'
    name = 'mix-%s-lat' % dn
    txt = svg_text(name)
    for want in ('mix: %s %s (' % (dn, which), '%s (log scale)' % which,
                 'I/Os per bar (%', 'cumulative I/Os (%)', 'host ' + d['host']['hostname'],
                 'engine sync', 'target ' + j['targets'][0]['path']):
        if want not in txt:
            fail('%s.svg lacks %r' % (name, want))
    # merge the buckets independently: bin = floor(log10(low_us) * 20);
    # latency 0 (completed in the submit call) is no bar, but in the CDF
    bins = {}
    total = sum(b[2] for b in h['buckets'])
    if total != h['count']:
        fail('%s: buckets hold %d, count %d' % (dn, total, h['count']))
    for lo, hi, n in h['buckets']:
        if hi == 0:
            continue
        k = math.floor(math.log10(max((lo + (hi - lo) // 2) / 1e3, 1e-3)) * 20)
        bins[k] = bins.get(k, 0) + n
    rows = [l.split() for l in open('svg/%s.dat' % name).read().split('\n\n\n')[0].split('\n')
            if l.strip() and not l.startswith('#')]
    got = [float(r[2]) for r in rows]
    want = [100.0 * bins[k] / total for k in sorted(bins)]
    if len(got) != len(want) or any(abs(a - b) > 1e-4 for a, b in zip(got, want)):
        fail('%s bins %s, expected %s' % (name, got[:8], want[:8]))
    cum = total - sum(bins.values())
    for r, k in zip(rows, sorted(bins)):
        cum += bins[k]
        if abs(float(r[3]) - 100.0 * cum / total) > 1e-3:
            fail('%s CDF %s at bin %d, expected %f' % (name, r[3], k, 100.0 * cum / total))
        if abs(float(r[0]) - 10 ** (k / 20)) > 1e-3 * float(r[0]) + 1e-3:
            fail('%s bin %d starts at %s' % (name, k, r[0]))
    # percentile marks: the reported figure, else the bucket's upper edge;
    # the label gives it in its unit
    gp = open('svg/%s.gp' % name).read()
    for p in ('50', '99', '99.9'):
        if p in h['percentiles']:
            v = h['percentiles'][p]
        else:
            c = 0
            for lo, hi, n in h['buckets']:
                c += n
                if c >= float(p) / 100 * total:
                    v = hi
                    break
        m = re.search(r"set label 'p%s ([0-9.]+) (ns|µs|ms|s)' at ([0-9.]+)," % re.escape(p), gp)
        if not m or abs(float(m.group(3)) - v / 1e3) > 1e-3 or \
           abs(float(m.group(1)) * UNITS[m.group(2)] - v) > 1e-3 * v + 1:
            fail('%s: p%s mark %s, expected %f us' % (name, p, m and m.groups(), v / 1e3))
        if 'p%s ' % p not in svg_text(name):
            fail('%s.svg does not show p%s' % (name, p))
iv = j['intervals']
for key, name, div, lab in (('iops', 'mix-iops', 1, 'I/O operations per second'),
                            ('bw_bytes', 'mix-bw', 1048576, 'bandwidth (MiB/s)'),
                            ('lat_p99_ns', 'mix-p99', None, 'p99 latency (')):
    txt = svg_text(name)
    if div is None:     # the axis's unit, named in its label
        div = UNITS[re.search(r'p99 latency \((ns|µs|ms|s)\)', txt).group(1)]
    for want in (lab, 'time since the job started (s)', 'over time', 'read', 'write'):
        if want not in txt:
            fail('%s.svg lacks %r' % (name, want))
    rows = dat(name)
    if len(rows) != len(iv):
        fail('%s: %d rows for %d intervals' % (name, len(rows), len(iv)))
    for r, x in zip(rows, iv):
        if abs(float(r[0]) - x['end_ns'] / 1e9) > 1e-6:
            fail('%s: time %s, expected %f' % (name, r[0], x['end_ns'] / 1e9))
        for col, dn in ((1, 'read'), (2, 'write')):
            if key == 'lat_p99_ns' and x[dn]['ios'] == 0:
                if r[col] != '?':
                    fail('%s: a p99 without I/O' % name)
                continue
            w = x[dn][key] / div
            if abs(float(r[col]) - w) > 1e-6 * max(1, w):
                fail('%s: %s %s, expected %f' % (name, dn, r[col], w))
PYEOF

# PNG: the signature, an IHDR of 1000x620.
run plot --format=png --outdir=png r.json
expect_rc 0
[ "$(wc -l <out)" -eq 5 ] || die "expected 5 PNG charts"
"$PY" - <<'PYEOF' || die "bad PNG"
import struct, sys
b = open('png/mix-read-lat.png', 'rb').read(24)
if b[:8] != b'\x89PNG\r\n\x1a\n' or b[12:16] != b'IHDR':
    sys.exit('not a PNG')
if struct.unpack('>II', b[16:24]) != (1000, 620):
    sys.exit('size %r' % (struct.unpack('>II', b[16:24]),))
PYEOF
# Logs (write_bw_log=, write_lat_log=): their values over time, one data
# block per direction, the log's lines converted (ms to s, ns to us; a
# latency of 0, a window without I/O, left out of the log axis).
run plot --outdir=logs mix_bw.1.log mix_clat.1.log
expect_rc 0
grep -qx 'logs/mix_bw.1.svg' out && grep -qx 'logs/mix_clat.1.svg' out ||
	die "log charts not named"
"$PY" - <<'PYEOF' || die "the log charts do not match the logs"
import sys
import xml.etree.ElementTree as ET
for log, div, lab in (('mix_bw.1', 1, 'bandwidth (KiB/s)'), ('mix_clat.1', 1e3, 'latency (log scale)')):
    want = {}
    for l in open(log + '.log'):
        f = [x.strip() for x in l.split(',')]
        v = float(f[1]) / div
        want.setdefault(int(f[2]), []).append((float(f[0]) / 1e3, v if div == 1 or v > 0 else None))
    blocks = open('logs/%s.dat' % log).read().split('\n\n\n')
    if len(blocks) != len(want):
        sys.exit('%s: %d blocks for %d directions' % (log, len(blocks), len(want)))
    for b, q in zip(blocks, sorted(want)):
        rows = [r.split() for r in b.strip().split('\n') if not r.startswith('#')]
        got = [(float(t), None if v == '?' else float(v)) for t, v in rows]
        if len(got) != len(want[q]) or any(abs(a[0] - b[0]) > 1e-6 or
                (a[1] is None) != (b[1] is None) or
                (a[1] is not None and abs(a[1] - b[1]) > 1e-6 * max(1, b[1]))
                for a, b in zip(got, want[q])):
            sys.exit('%s direction %d: %s, expected %s' % (log, q, got[:3], want[q][:3]))
    txt = ' '.join(ET.parse('logs/%s.svg' % log).getroot().itertext())
    for w in (lab, 'over time', 'log %s.log' % log, 'read', 'write'):
        if w not in txt:
            sys.exit('%s.svg lacks %r' % (log, w))
PYEOF

# A per-I/O latency log (no log_avg_msec): also its p99 per window, the
# nearest-rank p99 of the window's lines, recomputed here.
run --name=pio --rw=randrw --bs=4k --size=4m --filename=f.dat \
	--runtime=300ms --time_based --write_lat_log=pio
expect_rc 0
run plot --outdir=logs pio_clat.1.log pio_lat.1.log
expect_rc 0
grep -qx 'logs/pio_clat.1-p99.svg' out || die "no p99 chart of the per-I/O log"
"$PY" - <<'PYEOF' || die "the p99 over time does not match the log"
import math, re, sys
import xml.etree.ElementTree as ET
txt = open('logs/pio_clat.1-p99.dat').read()
win = float(re.search(r'windows of ([0-9.]+) ms', txt).group(1))
end = max(float(l.split(',')[0]) for l in open('pio_clat.1.log'))
if not (end / win <= 40 and end / win > 4):
    sys.exit('window %g ms for a %g ms log' % (win, end))
samples = {}
for l in open('pio_clat.1.log'):
    f = [x.strip() for x in l.split(',')]
    samples.setdefault(int(f[2]), {}).setdefault(math.floor(float(f[0]) / win), []).append(int(f[1]))
blocks = txt.split('\n\n\n')
if len(blocks) != len(samples):
    sys.exit('%d blocks for %d directions' % (len(blocks), len(samples)))
for b, q in zip(blocks, sorted(samples)):
    rows = [r.split() for r in b.strip().split('\n') if not r.startswith('#')]
    ws = sorted(samples[q])
    if len(rows) != len(ws):
        sys.exit('direction %d: %d windows, expected %d' % (q, len(rows), len(ws)))
    for r, w in zip(rows, ws):
        v = sorted(samples[q][w])
        p99 = v[math.ceil(0.99 * len(v)) - 1] / 1e3
        if abs(float(r[0]) - (w + 1) * win / 1e3) > 1e-6 or \
           abs(float(r[1]) - p99) > 1e-6 * p99 or int(r[2]) != len(v):
            sys.exit('direction %d window %d: %s, expected p99 %f of %d' % (q, w, r, p99, len(v)))
t = ' '.join(ET.parse('logs/pio_clat.1-p99.svg').getroot().itertext())
for want in ('p99 over time', 'p99 latency (log scale)', 'one line per I/O'):
    if want not in t:
        sys.exit('p99 chart lacks %r' % want)
PYEOF
exit 0
