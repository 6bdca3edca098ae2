#!/bin/sh
# iorig plot: the sweep chart of jobs/kaio-vs-pthread.job shortened (as
# tests/cli/25: runtime 50ms, a 4 MiB file), one line per engine over the
# ten request sizes, op/s and CPU us per I/O as the JSON rows say; the
# comparison of two results against a --baseline (bars per job, the
# baseline a dashed line), its data the results' figures; bad input
# (missing file, not JSON, JSON of another kind, unknown option, bad
# --format) and a missing gnuplot: exit 2, a message naming the file or
# what to install, nothing drawn. fio's JSON of the same job is drawn as
# fio wrote it (its bins, percentiles, IOPS), and iorig's result compared
# with it draws the same latency, clat (fio's bins are clat's); the
# comparison's p99 is of the latency the histograms draw, in the unit
# its axis names.
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v gnuplot >/dev/null 2>&1 || skip "needs gnuplot (gnuplot-nox)"
sed -E -e 's/^[[:space:]]*runtime[[:space:]]*=.*/runtime=50ms/' \
	-e 's/^[[:space:]]*size[[:space:]]*=.*/size=4m/' \
	"$top/jobs/kaio-vs-pthread.job" >k.job
grep -q '^runtime=50ms' k.job && grep -q '^size=4m' k.job ||
	die "the job file has no runtime= or size= line to shorten"
have_odirect "$T" ||
	sed -i -E 's/^[[:space:]]*direct[[:space:]]*=.*/direct=0/' k.job
run --output-format=json k.job
expect_rc 0
cp out k.json
run --name=base --rw=randread --bs=4k --size=2m --filename=f.dat \
	--runtime=200ms --time_based --output-format=json
expect_rc 0
cp out base.json
run --name=base --rw=randread --bs=4k --size=2m --filename=f.dat \
	--runtime=200ms --time_based --iodepth=4 --ioengine=libaio \
	--output-format=json
expect_rc 0
cp out new.json

run plot --outdir=o k.json
expect_rc 0
grep -qx 'o/sweep.svg' out || die "no sweep chart named"
[ "$(grep -c -- '-read-lat.svg$' out)" -eq 20 ] ||
	die "expected 20 latency charts (one per sweep point)"
"$PY" - k.json <<'PYEOF' || die "the sweep chart does not match the result"
import json, sys
import xml.etree.ElementTree as ET
d = json.load(open(sys.argv[1]))
txt = ' '.join(ET.parse('o/sweep.svg').getroot().itertext())
for want in ('op/s and CPU per I/O against request size', 'request size (bytes, log scale)',
             'op/s (I/O operations per second)', 'CPU per I/O (µs, user + system)',
             'ioengine=kaio', 'ioengine=pthread', 'job study', 'host ' + d['host']['hostname'],
             '512', '1k', '256k'):
    if want not in txt:
        sys.exit('sweep.svg lacks %r' % want)
blocks = [b for b in open('o/sweep.dat').read().split('\n\n\n')]
if len(blocks) != 2:
    sys.exit('%d blocks, expected 2 (kaio, pthread)' % len(blocks))
for b, eng in zip(blocks, ('kaio', 'pthread')):
    lines = b.strip().split('\n')
    if lines[-11] != '# ioengine=' + eng:
        sys.exit('block header %r' % lines[-11])
    rows = [l.split() for l in lines[-10:]]
    jobs = [j for j in d['jobs'] if j['sweep_point'].startswith('ioengine=%s ' % eng)]
    jobs.sort(key=lambda j: int(j['options']['bs']))
    if [int(r[0]) for r in rows] != [int(j['options']['bs']) for j in jobs]:
        sys.exit('%s sizes %s' % (eng, [r[0] for r in rows]))
    if [int(r[0]) for r in rows] != [512 << k for k in range(10)]:
        sys.exit('%s sizes are not 512..256k' % eng)
    for r, j in zip(rows, jobs):
        s = j['summary']
        if abs(float(r[1]) - s['iops']) > 1e-6 * s['iops'] or \
           abs(float(r[2]) - s['us_per_io']) > 1e-6 * s['us_per_io']:
            sys.exit('%s bs=%s: %s, expected %s %s' % (eng, r[0], r, s['iops'], s['us_per_io']))
PYEOF

run plot --outdir=c --baseline=base.json new.json base.json
expect_rc 0
for n in compare-read-iops compare-read-bw compare-read-p99 new-base-read-lat \
	base-base-read-lat; do
	grep -qx "c/$n.svg" out || die "$n.svg not named"
done
"$PY" - base.json new.json <<'PYEOF' || die "the comparison does not match the results"
import json, sys
import xml.etree.ElementTree as ET
b, n = (json.load(open(f))['jobs'][0]['read'] for f in sys.argv[1:3])
UNITS = {'ns': 1, 'µs': 1e3, 'ms': 1e6, 's': 1e9}
def p99(x):
    # the latency the histograms draw (lat), its reported p99, else the
    # upper edge of the bucket that holds it; in ns
    h = x['lat_ns']
    if '99' in h['percentiles']:
        return h['percentiles']['99']
    c = 0
    for lo, hi, k in h['buckets']:
        c += k
        if c >= 0.99 * h['count']:
            return hi
for m, f in (('iops', lambda x: x['iops']), ('bw', lambda x: x['bw_bytes'] / 1048576), ('p99', None)):
    txt = ' '.join(ET.parse('c/compare-read-%s.svg' % m).getroot().itertext())
    for want in ('against the baseline', 'baseline base', 'new', 'job'):
        if want not in txt:
            sys.exit('compare-read-%s.svg lacks %r' % (m, want))
    lines = open('c/compare-read-%s.dat' % m).read().split('\n')
    rows = [l for l in lines if l and not l.startswith('#')]
    if len(rows) != 1:
        sys.exit('%d rows' % len(rows))
    v = rows[0].split()
    if v[1] != '"base"':
        sys.exit('job %s' % v[1])
    for got, x in zip(v[2:], (b, n, b)):
        if m == 'p99':
            unit = [l for l in lines if l.startswith('# p99 ')][0]
            if 'p99 lat (' not in txt or unit[2:] not in txt:
                sys.exit('p99 chart does not say lat and its unit: %r' % unit)
            w = p99(x) / UNITS[unit.split('(')[-1].rstrip(')')]
        else:
            w = f(x)
        if abs(float(got) - w) > 1e-6 * w:
            sys.exit('%s: %s, expected %s' % (m, got, w))
gp = open('c/compare-read-iops.gp').read()
if 'with vectors nohead' not in gp or 'dashtype 2' not in gp:
    sys.exit('no dashed baseline')
PYEOF

# fio's own result (json+, with its latency bins) of the same job, beside
# iorig's: fio's histogram, percentiles and figures are what fio wrote.
if command -v fio >/dev/null 2>&1; then
	fio --name=base --rw=randread --bs=4k --size=2m --filename=f.dat \
		--runtime=200ms --time_based --output-format=json+ \
		--output=fio.json >/dev/null 2>&1 || die "fio failed"
	run plot --outdir=f fio.json base.json
	expect_rc 0
	grep -qx 'f/fio-base-read-lat.svg' out || die "no chart of fio's result"
	grep -qx 'f/compare-read-iops.svg' out || die "no comparison with fio"
	"$PY" - fio.json base.json <<'PYEOF' || die "fio's charts do not match fio's JSON"
import json, math, re, sys
f = json.load(open(sys.argv[1]))['jobs'][0]['read']
i = json.load(open(sys.argv[2]))['jobs'][0]['read']
rows = [l.split() for l in open('f/fio-base-read-lat.dat').read().split('\n\n\n')[0].split('\n')
        if l and not l.startswith('#')]
N = f['clat_ns']['N']
if '%d I/Os' % N not in open('f/fio-base-read-lat.svg').read():
    sys.exit("fio's chart does not give fio's %d I/Os" % N)
bins, zero = {}, 0
for v, n in f['clat_ns']['bins'].items():
    if int(v) == 0:
        zero += n
        continue
    k = math.floor(math.log10(int(v) / 1e3) * 20)
    bins[k] = bins.get(k, 0) + n
want = [100.0 * bins[k] / N for k in sorted(bins)]
if len(rows) != len(want) or any(abs(float(r[2]) - w) > 1e-4 for r, w in zip(rows, want)):
    sys.exit('fio bins differ')
gp = open('f/fio-base-read-lat.gp').read()
for p in ('50', '99', '99.9'):
    w = f['clat_ns']['percentile']['%f' % float(p)] / 1e3
    m = re.search(r"set label 'p%s [0-9.]+ (ns|µs|ms|s)' at ([0-9.]+)," % re.escape(p), gp)
    if not m or abs(float(m.group(2)) - w) > 1e-3:
        sys.exit('fio p%s mark %s, fio says %f' % (p, m and m.group(2), w))
# compared with fio's (clat only), iorig's result is drawn as clat too
t = open('f/base-base-read-lat.svg').read()
if 'base: read clat (completion latency)' not in t:
    sys.exit("iorig's histogram beside fio's is not clat")
v = [l.split() for l in open('f/compare-read-iops.dat') if not l.startswith('#')][0]
if abs(float(v[2]) - f['iops']) > 1e-6 * f['iops'] or abs(float(v[3]) - i['iops']) > 1e-6 * i['iops']:
    sys.exit('compare iops %s, fio %s iorig %s' % (v, f['iops'], i['iops']))
PYEOF
fi

# Two jobs of one name: two charts, the second named -2.
printf '[global]\nfilename=f.dat\nsize=2m\nrw=randread\nruntime=50ms\ntime_based\n[a]\n[a]\nbs=8k\n' >dup.job
run --output-format=json dup.job
expect_rc 0
cp out dup.json
run plot --outdir=d dup.json
expect_rc 0
grep -qx 'd/a-read-lat.svg' out && grep -qx 'd/a-read-lat-2.svg' out ||
	die "two jobs of one name did not get two charts"
grep -q "$(jsonf dup.json "d['jobs'][1]['read']['ios']") I/Os" \
	d/a-read-lat-2.svg || die "a-read-lat-2 is not the second job's"

# Refused: exit 2, the file named, nothing drawn.
refused() {
	expect_rc 2
	expect_in err "$1"
	expect_empty out
	[ ! -e bad ] || [ -z "$(ls -A bad)" ] || die "drew on bad input"
}
run plot --outdir=bad missing.json
refused 'missing\.json.*expected an iorig JSON result'
echo 'not json' >nj.json
run plot --outdir=bad nj.json
refused 'nj\.json.*expected an iorig JSON result'
echo '{"version": 3, "jobs": []}' >other.json
run plot --outdir=bad other.json
refused 'other\.json: not an iorig JSON result: expected the output of iorig --output-format=json'
echo '[1, 2]' >arr.json
run plot --outdir=bad arr.json
refused 'arr\.json: not an iorig JSON result'
echo '{"iorig_version": "0.1.0", "jobs": [3]}' >odd.json
run plot --outdir=bad odd.json
refused 'odd\.json: jobs\[0\] is not a job'
printf '100, 5, 0, 4096, 0\nhello\n' >g_bw.1.log
run plot --outdir=bad g_bw.1.log
refused "g_bw\\.1\\.log:2: expected 'time_ms, value, direction"
printf '100, 5, 7, 4096, 0\n' >d_iops.1.log
run plot --outdir=bad d_iops.1.log
refused "d_iops\\.1\\.log:1: expected"
printf '100, 0, 4096, 1, 2, 3\n' >h_clat_hist.1.log
run plot --outdir=bad h_clat_hist.1.log
refused 'h_clat_hist\.1\.log: not a log iorig plot draws'
run plot --outdir=bad nolog.log
refused 'nolog\.log: not a log iorig plot draws'
run plot --outdir=bad missing_bw.1.log
refused 'missing_bw\.1\.log: cannot open'
run plot --outdir=bad --baseline=missing.json base.json
refused 'missing\.json'
run plot --outdir=bad --color=red base.json
refused "unknown option '--color=red'"
run plot --outdir=bad --format=jpg base.json
refused "option 'format': 'jpg': expected svg or png"
run plot
expect_rc 2
expect_in err 'usage: iorig plot'

# Hostile but JSON: a job name and sweep point that would end a line of
# the script (gnuplot's system command), 300 characters long, values of
# the wrong types: drawn, no command run, file names that fit NAME_MAX.
"$PY" - base.json <<'PYEOF' || die "cannot make evil.json"
import json, sys
d = json.load(open(sys.argv[1]))
j = d['jobs'][0]
j['name'] = "e'\nsystem 'touch PWNED'\n\"" + 'x' * 300
j['sweep_point'] = 'a\nsystem "touch PWNED"'
j['read']['clat_ns']['buckets'].append('junk')
j['read']['lat_ns'] = {'count': 'x', 'buckets': {}}
j['intervals'] = [None, 3]
d['host'] = []
json.dump(d, open('evil.json', 'w'))
PYEOF
run plot --outdir=ev evil.json base.json
expect_rc 0
[ ! -e PWNED ] && [ ! -e ev/PWNED ] || die "the job name ran a command"
[ "$(grep -c 'ev/evil-e' out)" -eq 1 ] || die "expected the latency chart of evil"
for f in ev/*; do
	[ "${#f}" -lt 250 ] || die "file name too long: $f"
done

# No gnuplot on PATH: exit 2, saying what to install.
PATH=/nonexistent "$IORIG" plot --outdir=np base.json >out 2>err
rc=$?
expect_rc 2
expect_in err 'gnuplot is not installed: install gnuplot-nox'
[ ! -e np/base-read-lat.svg ] || die "a chart without gnuplot"
exit 0
