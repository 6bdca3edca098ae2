#!/bin/sh
# --output-format=json+: fio's JSON layout with "bins" in every latency
# object that has percentiles, read by fio's own tools/
# fio_jsonplus_clat2csv (which checks its CSV against the bins with
# --validate), summed to total_ios as that tool sums them, and shaped as
# fio 3.x's json+ of the same job (same keys at every level).
# lane: parallel
. "$(dirname "$0")/lib.sh"

dd if=/dev/zero of="$T/f" bs=1M count=16 2>/dev/null
set -- --name=p --filename="$T/f" --size=16m --rw=randrw --bs=4k \
	--ioengine=psync --number_ios=2000 --lat_percentiles=1
run --output-format=json+ "$@"
expect_rc 0
cp "$T/out" "$T/plus.json"
"$PY" - "$T/plus.json" <<'PYEOF' || die "json+ bins"
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
for d in ("read", "write"):
    n = j[d]["total_ios"]
    assert n > 0, (d, n)
    for lat in ("clat_ns", "lat_ns"):
        o = j[d][lat]
        b = o["bins"]
        assert all(k.isdigit() for k in b), list(b)[:5]
        assert all(isinstance(v, int) and v > 0 for v in b.values())
        assert sum(b.values()) == n == o["N"], (d, lat, sum(b.values()), n)
        keys = sorted(int(k) for k in b)
        # each bin's value lies in its bucket: within [min, max] up to
        # the bucket's width (under 1%)
        assert keys[0] >= o["min"] * 0.99 and keys[-1] <= o["max"] * 1.01, \
            (keys[0], keys[-1], o["min"], o["max"])
        # the median from the bins is the percentile object's, as close
        # as one bucket
        acc, med = 0, None
        for k in keys:
            acc += b[str(k)]
            if acc >= n / 2:
                med = k
                break
        p50 = o["percentile"]["50.000000"]
        assert abs(med - p50) <= 0.02 * p50 + 2, (med, p50)
    assert "bins" not in j[d]["slat_ns"], "no slat percentiles, no bins"
PYEOF

# fio-json, the same run without bins
run --output-format=fio-json "$@"
expect_rc 0
expect_not_in out '"bins"'

# fio's own reader
# (Debian's fio package installs it; FIO_SRC names a fio source tree)
tool=$(command -v fio_jsonplus_clat2csv 2>/dev/null)
[ -n "${FIO_SRC:-}" ] && tool=$FIO_SRC/tools/fio_jsonplus_clat2csv
if [ -n "$tool" ] && [ -f "$tool" ]; then
	"$PY" "$tool" "$T/plus.json" "$T/csv" >"$T/tool.out" 2>&1 ||
		{ cat "$T/tool.out"; die "fio_jsonplus_clat2csv failed"; }
	"$PY" "$tool" --validate "$T/plus.json" "$T/csv" >"$T/tool.out" 2>&1 ||
		{ cat "$T/tool.out"; die "fio_jsonplus_clat2csv --validate"; }
	# its last row: the cumulative count of read clat is total_ios
	"$PY" - "$T/csv_job0" "$T/plus.json" <<'PYEOF' || die "CSV totals"
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1]), skipinitialspace=True))
head, body = rows[0], rows[1:]
col = head.index("read_clat_ns_cumulative")
last = max(int(r[col]) for r in body if r[col])
n = json.load(open(sys.argv[2]))["jobs"][0]["read"]["total_ios"]
assert last == n, (last, n)
PYEOF
else
	echo "note: no $tool, fio's reader not run"
fi

# The shape of fio's json+ on the same job: the same keys everywhere
# (options, percentile and bins keys aside, which hold values).
if command -v fio >/dev/null 2>&1; then
	fio "$@" --output-format=json+ >"$T/fio.json" 2>/dev/null ||
		die "fio failed"
	CLI_DIR="$top/tests/cli" "$PY" - "$T/fio.json" "$T/plus.json" <<'PYEOF' || die "shape against fio"
import json
import os, sys
sys.path.insert(0, os.environ["CLI_DIR"])
from jsonshape import keys  # noqa: E402
f = json.load(open(sys.argv[1]))["jobs"][0]
i = json.load(open(sys.argv[2]))["jobs"][0]
a, b = keys(f), keys(i)
assert a == b, ("fio only", sorted(a - b), "iorig only", sorted(b - a))
PYEOF
else
	echo "note: no fio, shape not compared"
fi
echo ok
