#!/bin/sh
# iorig merge: N results merged exactly. Outside truth: the members' own
# JSON results, pooled independently here in Python. The merged
# histograms hold the sum of the members' buckets (count = the sum of
# theirs); every merged percentile is the one of the pooled buckets,
# computed here from scratch with the rank ceil(p/100*n) taken on the
# exact decimal p; ios and bytes add up, iops and bw are the sum of the
# members' rates, per-member and per-host rows are the members' own
# figures and add up to the aggregate; last done is all I/O over the
# longest run. A single member merges into itself (same percentiles as
# its run printed). The merged document validates against the schema.
# The fio-json layout has the keys of fio's own client mode (fio servers
# on this host and a client of two, when fio is here).
# lane: parallel
. "$(dirname "$0")/lib.sh"

# Three runs of one job on targets of different sizes (per-member
# options), so the members differ in I/Os, runtime and latency.
for s in 8 4 2; do
	run --name=m --ioengine=psync --rw=randread --bs=4k --size=${s}m \
		--filename="$T/t$s.dat" --output-format=json
	expect_rc 0
	cp "$T/out" "$T/r$s.json" || die "cp"
done
run merge --output-format=json r8.json r4.json r2.json
expect_rc 0
expect_empty err
cp "$T/out" "$T/merged.json" || die "cp"

"$PY" - "$T/merged.json" r8.json r4.json r2.json <<'PYEOF' || die "the merged figures are not the pooled ones"
import json, sys
from fractions import Fraction
merged = json.load(open(sys.argv[1]))
mem = [json.load(open(p)) for p in sys.argv[2:]]
bad = []

def pooled(hs):
    b = {}
    for h in hs:
        for lo, hi, c in h["buckets"]:
            assert b.get(lo, (hi, 0))[0] == hi
            b[lo] = (hi, b.get(lo, (hi, 0))[1] + c)
    n = sum(h["count"] for h in hs)
    live = [h for h in hs if h["count"]]
    mn = min(h["min"] for h in live) if live else 0
    mx = max(h["max"] for h in live) if live else 0
    return b, n, mn, mx

def pct(b, n, mn, mx, key):
    p = Fraction(key)
    r = max(1, min(n, -((-p * n) // 100)))
    if r == n:
        return mx
    if r == 1:
        return mn
    seen = 0
    for lo in sorted(b):
        hi, c = b[lo]
        seen += c
        if seen >= r:
            return min(max(lo + (hi - lo) // 2, mn), mx)
    return mx

for ji, job in enumerate(merged["jobs"]):
    for d in ("read", "write", "trim"):
        mine = [m["jobs"][ji][d] for m in mem]
        x = job[d]
        for k in ("ios", "io_bytes", "errors"):
            if x[k] != sum(y[k] for y in mine):
                bad.append("%s.%s %s != sum %s" % (d, k, x[k], sum(y[k] for y in mine)))
        for k in ("iops", "bw_bytes"):
            want = sum(y[k] for y in mine)
            if abs(x[k] - want) > 1e-9 * max(1, want):
                bad.append("%s.%s %s != sum of rates %s" % (d, k, x[k], want))
        for hk in ("slat_ns", "clat_ns", "lat_ns"):
            b, n, mn, mx = pooled([y[hk] for y in mine])
            h = x[hk]
            if h["count"] != n:
                bad.append("%s.%s count %s != %s" % (d, hk, h["count"], n))
            if {lo: (hi, c) for lo, hi, c in h["buckets"]} != b:
                bad.append("%s.%s buckets are not the pooled ones" % (d, hk))
            if n and (h["min"], h["max"]) != (mn, mx):
                bad.append("%s.%s min/max" % (d, hk))
            mean = sum(y[hk]["mean"] * y[hk]["count"] for y in mine) / n if n else 0
            if abs(h["mean"] - mean) > 1e-6 * max(1, mean):
                bad.append("%s.%s mean %s != pooled %s" % (d, hk, h["mean"], mean))
            for key, v in h["percentiles"].items():
                want = pct(b, n, mn, mx, key)
                if v != want:
                    bad.append("%s.%s p%s %s != pooled %s" % (d, hk, key, v, want))
        if d == "read":
            if not x["clat_ns"]["percentiles"]:
                bad.append("no clat percentiles")
            c = merged["cluster"]["jobs"][ji][d]
            rows = c["members"]
            for r, y, m in zip(rows, mine, mem):
                if (r["ios"], r["io_bytes"]) != (y["ios"], y["io_bytes"]) or \
                   abs(r["iops"] - y["iops"]) > 1e-6 * y["iops"]:
                    bad.append("row %s is not its member's" % r["label"])
                b1, n1, mn1, mx1 = pooled([y["clat_ns"]])
                if r["clat_p99_ns"] != y["clat_ns"]["percentiles"]["99"]:
                    bad.append("row %s p99 %s != its run's %s" % (r["label"], r["clat_p99_ns"], y["clat_ns"]["percentiles"]["99"]))
            if abs(sum(r["iops"] for r in rows) - x["iops"]) > 1e-6 * x["iops"]:
                bad.append("rows do not add up to the aggregate")
            hs = c["hosts"]
            if len(hs) != 1 or hs[0]["ios"] != x["ios"] or hs[0]["members"] != 3:
                bad.append("host row %s" % hs)
            ld = c["last_done"]
            longest = max(m["jobs"][ji]["runtime_ns"] for m in mem)
            if ld["at_ns"] != longest or abs(ld["iops"] - x["ios"] * 1e9 / longest) > 1e-6 * ld["iops"]:
                bad.append("last done %s (longest run %s)" % (ld, longest))
            fd = c["first_done"]
            shortest = min(m["jobs"][ji]["runtime_ns"] for m in mem)
            # The member whose run was shortest (on a loaded machine
            # not always the smallest target's).
            first = min(range(len(mem)),
                        key=lambda i: mem[i]["jobs"][ji]["runtime_ns"])
            if fd["at_ns"] != shortest or fd["member"] != sys.argv[2 + first]:
                bad.append("first done %s" % fd)
            if c["iops_spread"]["min"] != min(y["iops"] for y in mine) or \
               c["iops_spread"]["slowest"] != rows[[r["iops"] for r in rows].index(min(r["iops"] for r in rows))]["label"]:
                bad.append("spread %s" % c["iops_spread"])
if merged["cluster"]["nmembers"] != 3 or [m["label"] for m in merged["cluster"]["members"]] != ["r8.json", "r4.json", "r2.json"]:
    bad.append("members %s" % merged["cluster"]["members"])
if [t["path"] for t in merged["jobs"][0]["targets"]] != [m["jobs"][0]["targets"][0]["path"] for m in mem]:
    bad.append("targets are not every member's")
for b in bad:
    print("FAILED:", b)
sys.exit(1 if bad else 0)
PYEOF

# The text report prints the same merged percentiles and names members.
run merge r8.json r4.json r2.json
expect_rc 0
p99=$("$PY" -c 'import json; print(json.load(open("merged.json"))["jobs"][0]["read"]["clat_ns"]["percentiles"]["99"])')
expect_in out '^cluster: 3 members on 1 host'
expect_in out 'slowest r[842]\.json'
"$PY" - "$T/out" "$p99" <<'PYEOF' || die "the text p99 is not the JSON's ($p99 ns)"
import re, sys
t = open(sys.argv[1]).read()
m = re.search(r" p99=([0-9.]+)(ns|us|ms|s) ", t)
f = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[m.group(2)]
v, want = float(m.group(1)) * f, float(sys.argv[2])
sys.exit(0 if abs(v - want) <= max(0.006 * want, 1) else 1)
PYEOF

# --output=FILE: the report there, nothing on stdout; two formats.
run merge --output=both.txt --output-format=text,json r8.json r4.json
expect_rc 0
expect_empty out
grep -q '^cluster: 2 members on 1 host' both.txt || die "no text report in both.txt"
grep -q '"nmembers": 2' both.txt || die "no JSON report in both.txt"

# One member: its own figures again (percentiles as its run printed).
run merge --output-format=json r4.json
expect_rc 0
"$PY" - "$T/out" r4.json <<'PYEOF' || die "a single member does not merge into itself"
import json, sys
m, r = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
for d in ("read", "write"):
    a, b = m["jobs"][0][d], r["jobs"][0][d]
    for k in ("ios", "io_bytes", "iops", "bw_bytes", "runtime_ns", "clat_ns", "lat_ns", "slat_ns"):
        if a[k] != b[k]:
            print("FAILED:", d, k, a[k] if not isinstance(a[k], dict) else "", b[k] if not isinstance(b[k], dict) else "")
            sys.exit(1)
PYEOF

# fio's client-mode layout: an entry per member and job with its
# hostname, then "All clients" with the merged figures. Outside truth for
# the layout: Debian's fio 3.33 (the Makefile installs it), two fio
# servers on this host and a client of both; the keys and JSON types
# must be fio's at every level, entry for entry.
run merge --output-format=fio-json r8.json r4.json r2.json
expect_rc 0
cp "$T/out" "$T/ours.json"
command -v fio >/dev/null 2>&1 || die "no fio: the Makefile's deps install it"
# Ports of its own (235's are 41000-51000): see there.
port=$((20000 + $$ % 20000))
fio --server=127.0.0.1,$port >/dev/null 2>&1 &
s1=$!
fio --server=127.0.0.1,$((port + 1)) >/dev/null 2>&1 &
s2=$!
printf '[m]\nioengine=psync\nsize=256k\nrw=randread\nfilename=%s\n' \
	"$T/c.dat" >c.fio
# Both servers listening first (a loaded machine starts them slowly);
# then a client run whose document has both members and "All clients".
for i in $(seq 50); do
	[ "$(ss -Hltn "( sport = :$port or sport = :$((port + 1)) )" |
		wc -l)" -ge 2 ] && break
	sleep 0.1
done
ok=
for i in 1 2 3 4 5; do
	timeout 30 fio --client=127.0.0.1,$port c.fio \
		--client=127.0.0.1,$((port + 1)) c.fio --output-format=json \
		>fio-client.json 2>fio-client.err &&
		[ "$(jsonf fio-client.json 'len(d["client_stats"])')" = 3 ] &&
		{ ok=1; break; }
	sleep 0.5
done
kill "$s1" "$s2" 2>/dev/null
wait "$s1" "$s2" 2>/dev/null
[ -n "$ok" ] || die "fio's client run failed: $(cat fio-client.err)"
CLI_DIR="$top/tests/cli" "$PY" - ours.json merged.json fio-client.json r8.json <<'PYEOF' || die "the fio client layout"
import json, os, sys
sys.path.insert(0, os.environ["CLI_DIR"])
from jsonshape import keys
ours, merged = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
fio, r8 = json.load(open(sys.argv[3])), json.load(open(sys.argv[4]))
cs = ours["client_stats"]
bad = []
if [c["jobname"] for c in cs] != ["m", "m", "m", "All clients"]:
    bad.append("entries %s" % [c["jobname"] for c in cs])
allc = cs[-1]
mr = merged["jobs"][0]["read"]
if allc["read"]["total_ios"] != mr["ios"] or \
   allc["read"]["clat_ns"]["N"] != mr["clat_ns"]["count"] or \
   allc["read"]["clat_ns"]["max"] != mr["clat_ns"]["max"]:
    bad.append("All clients is not the merged job")
if sum(c["read"]["total_ios"] for c in cs[:-1]) != mr["ios"]:
    bad.append("the members' entries do not add up")
# A member's percentiles are its own run's.
own = r8["jobs"][0]["read"]["clat_ns"]["percentiles"]
if cs[0]["read"]["clat_ns"]["percentile"]["99.000000"] != own["99"]:
    bad.append("member percentiles %s, its run's %s" % (cs[0]["read"]["clat_ns"]["percentile"], own))
if abs(sum(allc["latency_us"].values()) + sum(allc["latency_ns"].values()) + sum(allc["latency_ms"].values()) - 100) > 0.5:
    bad.append("the latency maps do not add up to 100%%")
# fio 3.33's layout, key for key and type for type.
if list(fio) != list(ours):
    bad.append("top-level keys %s, fio's %s" % (list(ours), list(fio)))
fc = fio["client_stats"]
if fc[-1]["jobname"] != "All clients":
    bad.append("fio's last entry is %s" % fc[-1]["jobname"])
for what, a, b in (("member", cs[0], fc[0]), ("All clients", cs[-1], fc[-1])):
    for k in ("hostname", "port"):      # values differ, keys must not
        if (k in a) != (k in b):
            bad.append("%s entry: %s in %s only" % (what, k, "iorig's" if k in a else "fio's"))
        a.pop(k, None), b.pop(k, None)
    x, y = keys(a, kind=True), keys(b, kind=True)
    if x != y:
        bad.append("%s entry: fio only %s, iorig only %s" % (what, sorted(y - x), sorted(x - y)))
    if list(a) != list(b):
        bad.append("%s entry: key order %s, fio's %s" % (what, list(a), list(b)))
for k in ("global options", "timestamp", "time", "disk_util"):
    if type(ours[k]) is not type(fio[k]):
        bad.append("%s is a %s, fio's a %s" % (k, type(ours[k]).__name__, type(fio[k]).__name__))
for b in bad:
    print("FAILED:", b)
sys.exit(1 if bad else 0)
PYEOF

# A first member whose document lacks engine_setup (an older or edited
# result): the merged report takes the next member's, which is freed
# after its fold (the merge kept pointers into it; ASan, valgrind).
run --name=es --ioengine=io_uring --filename=es.dat --size=256k \
	--output-format=json
expect_rc 0
cp out es1.json
"$PY" - <<'PYEOF' || die "cannot make a member without engine_setup"
import json
d = json.load(open("es1.json"))
for j in d["jobs"]:
    j.pop("engine_setup", None)
json.dump(d, open("es0.json", "w"))
PYEOF
run merge --output-format=json es0.json es1.json
expect_rc 0
"$PY" - es1.json out <<'PYEOF' || die "the merged engine_setup is not the second member's"
import json, sys
want = json.load(open(sys.argv[1]))["jobs"][0]["engine_setup"]
got = json.load(open(sys.argv[2]))["jobs"][0].get("engine_setup")
assert want and got == want, (want, got)
PYEOF

# The cluster document is an iorig report: it validates against the schema.
if "$PY" -c 'from jsonschema import Draft202012Validator' 2>/dev/null; then
	"$PY" - "$top/doc/iorig-json.schema.json" merged.json <<'PYEOF' || die "the merged document does not validate"
import json, sys
from jsonschema import Draft202012Validator
v = Draft202012Validator(json.load(open(sys.argv[1])))
errs = list(v.iter_errors(json.load(open(sys.argv[2]))))
for e in errs[:5]:
    print("FAILED:", "/".join(map(str, e.absolute_path)), e.message[:200])
sys.exit(1 if errs else 0)
PYEOF
else
	echo "note: no jsonschema here: the schema part is left out"
fi
echo "ok: merged exactly"
