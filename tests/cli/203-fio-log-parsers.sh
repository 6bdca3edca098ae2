#!/bin/sh
# fio's log parsers, which Debian's fio package does not ship, reading
# iorig's logs as they read fio's: tools/fiologparser.py (-s: the sum of
# the jobs' samples per second) and tools/hist/fiologparser_hist.py (the
# percentiles of each interval's histogram). An optional extra: set
# IORIG_FIO_SRC to a fio source tree (fio's tools/ under it) to run it;
# fiologparser_hist.py also needs pandas (Debian's python3-pandas).
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v fio >/dev/null 2>&1 || die "no fio: the Makefile's deps install it"

[ -n "${IORIG_FIO_SRC:-}" ] ||
	skip "IORIG_FIO_SRC is not set (a fio source tree, for its tools/)"
F=$IORIG_FIO_SRC/tools
[ -f "$F/fiologparser.py" ] && [ -f "$F/hist/fiologparser_hist.py" ] ||
	skip "IORIG_FIO_SRC=$IORIG_FIO_SRC has no tools/fiologparser.py and tools/hist/fiologparser_hist.py"
"$PY" -c 'import pandas, numpy' 2>/dev/null ||
	skip "fiologparser_hist.py needs pandas and numpy (python3-pandas)"

# 1000 reads a second for 2.2 s, logged every 200 ms.
run --name=t --ioengine=null --rw=randread --bs=4k --size=64m \
	--time_based --runtime=2200ms --rate_iops=1000 --write_iops_log=t \
	--write_hist_log=t --log_hist_msec=200 --log_avg_msec=200 \
	--output-format=json --output=t.json
expect_rc 0
ios=$(jsonf t.json 'd["jobs"][0]["read"]["ios"]')

# The control: the tree's parser reads the log Debian's fio 3.33 writes
# (fio 3.33's own fiologparser.py does not: it expects 4 columns).
fio --name=f --ioengine=null --rw=randread --bs=4k --size=64m \
	--time_based --runtime=600ms --rate_iops=1000 --write_iops_log=f \
	--log_avg_msec=200 >/dev/null 2>&1 || die "fio failed"
"$PY" "$F/fiologparser.py" -s f_iops.1.log >/dev/null 2>&1 ||
	skip "$F/fiologparser.py cannot read fio 3.33's own log (a later fio's tools read it)"
"$PY" "$F/fiologparser.py" -s t_iops.1.log >"$T/flp" 2>&1 ||
	die "fiologparser.py: $(cat "$T/flp")"
# One line a second of the run, each "TIME, IOPS": about 1000.
"$PY" - "$T/flp" "$ios" <<'PYEOF' || die "fiologparser.py: $(cat "$T/flp")"
import sys
rows = [l.split(", ") for l in open(sys.argv[1]) if l.strip()]
assert len(rows) >= 2, rows
for t, v in rows[:2]:
    assert 900 <= float(v) <= 1100, (t, v)
PYEOF

# fiologparser_hist.py on iorig's histogram log and on fio's of the
# same job: as many intervals, as many samples (within 5%), the
# percentiles in order and inside the run's clat range.
fio --name=f --ioengine=null --rw=randread --bs=4k --size=64m \
	--time_based --runtime=2200ms --rate_iops=1000 --write_hist_log=f \
	--log_hist_msec=200 >/dev/null 2>&1 || die "fio failed"
for w in t f; do
	"$PY" "$F/hist/fiologparser_hist.py" ${w}_clat_hist.1.log >"$T/h.$w" 2>&1 ||
		die "fiologparser_hist.py on $w: $(cat "$T/h.$w")"
done
"$PY" - "$T/h.t" "$T/h.f" t.json <<'PYEOF' || die "fiologparser_hist.py: $(cat "$T/h.t" "$T/h.f")"
import json, sys
def table(p):
    lines = [l.strip() for l in open(p) if l.strip()]
    head = [c.strip() for c in lines[0].split(",")]
    assert head[:2] == ["end-time", "samples"], head
    return head, [[float(c) for c in l.split(",")] for l in lines[1:]]
h, t = table(sys.argv[1])
hf, f = table(sys.argv[2])
assert h == hf, (h, hf)
assert len(t) == len(f) >= 2, (len(t), len(f))
nt, nf = sum(r[1] for r in t), sum(r[1] for r in f)
assert abs(nt - nf) <= 0.05 * nf, (nt, nf)
c = json.load(open(sys.argv[3]))["jobs"][0]["read"]["clat_ns"]
for r in t:
    if r[1] == 0:
        continue
    lo, hi = r[2], r[-1]
    assert lo <= r[4] <= hi, r                      # min <= median <= max
    # the bins' values are ns, each within a bin width (<= 1/64) of its own
    assert c["min"] * 0.95 <= lo and hi <= c["max"] * 1.05, (r, c["min"], c["max"])
PYEOF
echo "ok: fio's log parsers read iorig's logs"
