#!/bin/sh
# iorig merge writes every format of the run (the list is the one the
# refusal of an unknown format names, so a new format is tested here as
# soon as it is in the table), and a merged result saved as JSON reads
# back into the same merged result: iorig report of it gives the merge's
# bytes in each format. Outside truth per format: the members' own JSON
# results (the table's op/s is the sum of their IOPS, its reqs the sum of
# their I/Os; each terse member line holds its member's KiB, the "All
# clients" line their sum; json+'s member bins add up to the member's
# clat count; the page shows the summed IOPS) and Debian's fio 3.33 as a
# client of two fio servers on this host: the terse lines' field count
# and the json+ entries' keys are fio's own.
# lane: parallel
. "$(dirname "$0")/lib.sh"

for s in 4 2 1; do
	run --name=m --ioengine=psync --rw=randread --bs=4k --size=${s}m \
		--filename="$T/t$s.dat" --output-format=json
	expect_rc 0
	cp "$T/out" "$T/r$s.json" || die "cp"
done

run merge --output-format=nope r4.json r2.json
expect_rc 2
fmts=$(sed -n "s/.*is not a report format (expected \(.*\))$/\1/p" err |
	sed 's/,//g; s/ or / /')
[ -n "$fmts" ] || die "no format list in: $(cat err)"
n=0
for f in $fmts; do
	run merge --output-format="$f" r4.json r2.json r1.json
	expect_rc 0
	expect_empty err
	[ -s out ] || die "merge in $f wrote nothing"
	cp out "merged.$f"
	n=$((n + 1))
done
[ "$n" -ge 7 ] || die "only $n formats: $fmts"
for f in $fmts; do
	run report --output-format="$f" merged.json
	expect_rc 0
	cmp -s out "merged.$f" || die "the merged JSON reported in $f is not" \
		"the merge's $f: $(diff "merged.$f" out | head -20)"
done
echo "ok: $n formats, and the merged JSON reads back in each"

# The figures of each format against the members' own results.
"$PY" - r4.json r2.json r1.json <<'PYEOF' || die "a format's figures are not the members'"
import json, re, sys
mem = [json.load(open(p)) for p in sys.argv[1:]]
bad = []
iops = sum(m["jobs"][0]["read"]["iops"] for m in mem)
ios = sum(m["jobs"][0]["read"]["ios"] for m in mem)
kib = [m["jobs"][0]["read"]["io_bytes"] >> 10 for m in mem]
t = [l.split() for l in open("merged.table") if not l.startswith("#")]
head, row = t[0], t[1]
if abs(float(row[head.index("op/s")]) - iops) > 0.5 or \
   int(row[head.index("reqs")]) != ios:
    bad.append("table %s: op/s %s reqs %s, members' %s %s" % (row, row[head.index("op/s")], row[head.index("reqs")], iops, ios))
lines = [l.rstrip("\n").split(";") for l in open("merged.terse")]
if [l[2] for l in lines] != ["m"] * 3 + ["All clients"]:
    bad.append("terse names %s" % [l[2] for l in lines])
if [int(l[5]) for l in lines] != kib + [sum(kib)]:
    bad.append("terse KiB %s, members' %s" % ([l[5] for l in lines], kib))
if any(len(l) != len(lines[0]) for l in lines):
    bad.append("terse lines of %s fields" % [len(l) for l in lines])
p = json.load(open("merged.json+"))["client_stats"]
for c, m in zip(p, mem):
    h = c["read"]["clat_ns"]
    if sum(h["bins"].values()) != m["jobs"][0]["read"]["clat_ns"]["count"] or h["N"] != sum(h["bins"].values()):
        bad.append("json+ member bins %s" % sum(h["bins"].values()))
if "bins" in p[-1]["read"]["clat_ns"] or p[-1]["read"]["total_ios"] != ios:
    bad.append("json+ All clients %s" % p[-1]["read"])
page = open("merged.html").read()
if "%.1f" % iops not in page or not page.endswith("</html>\n"):
    bad.append("the page lacks %.1f IOPS" % iops)
for b in bad:
    print("FAILED:", b)
sys.exit(1 if bad else 0)
PYEOF

# fio's client layouts: two fio servers on this host, a client of both.
command -v fio >/dev/null 2>&1 || die "no fio: the Makefile's deps install it"
# Ports of its own: 170's servers take 20000-40000, this test's
# 41000-51000, so the two, side by side in the parallel lane, never meet.
port=$((41000 + $$ % 10000))
fio --server=127.0.0.1,$port >/dev/null 2>&1 &
s1=$!
fio --server=127.0.0.1,$((port + 1)) >/dev/null 2>&1 &
s2=$!
printf '[m]\nioengine=psync\nsize=256k\nrw=randread\nfilename=%s\n' \
	"$T/c.dat" >c.fio
for i in $(seq 50); do
	[ "$(ss -Hltn "( sport = :$port or sport = :$((port + 1)) )" |
		wc -l)" -ge 2 ] && break
	sleep 0.1
done
ok=
for i in 1 2 3 4 5; do
	timeout 30 fio --client=127.0.0.1,$port c.fio \
		--client=127.0.0.1,$((port + 1)) c.fio --output-format=terse \
		>fio.terse 2>fio.err &&
	timeout 30 fio --client=127.0.0.1,$port c.fio \
		--client=127.0.0.1,$((port + 1)) c.fio --output-format=json+ \
		>fio.jsonp 2>>fio.err &&
		[ "$(grep -c 'All clients' fio.terse)" = 1 ] &&
		{ ok=1; break; }
	sleep 0.5
done
kill "$s1" "$s2" 2>/dev/null
wait "$s1" "$s2" 2>/dev/null
[ -n "$ok" ] || die "fio's client runs failed: $(cat fio.err)"
run merge --output-format=json+ r4.json r2.json
expect_rc 0
cp out ours.jsonp
run merge --output-format=terse r4.json r2.json
expect_rc 0
cp out ours.terse
CLI_DIR="$top/tests/cli" "$PY" - <<'PYEOF' || die "fio's client layouts"
import json, os, sys
sys.path.insert(0, os.environ["CLI_DIR"])
from jsonshape import keys
bad = []
# terse: fio's job lines (disk lines of its servers aside), field for
# field in number, names in order
fio = [l.rstrip("\n").split(";") for l in open("fio.terse") if l.startswith("3;")]
ours = [l.rstrip("\n").split(";") for l in open("ours.terse")]
if [l[2] for l in fio] != [l[2] for l in ours]:
    bad.append("terse names %s, fio's %s" % ([l[2] for l in ours], [l[2] for l in fio]))
if [len(l) for l in fio] != [len(l) for l in ours]:
    bad.append("terse fields %s, fio's %s" % ([len(l) for l in ours], [len(l) for l in fio]))
if ours[-1][17] != "0%=0" or fio[-1][17] != "0%=0":
    bad.append("All clients has percentiles")
f = json.load(open("fio.jsonp"))["client_stats"]
o = json.load(open("ours.jsonp"))["client_stats"]
for what, a, b in (("member", o[0], f[0]), ("All clients", o[-1], f[-1])):
    for k in ("hostname", "port"):
        a.pop(k, None), b.pop(k, None)
    x, y = keys(a, kind=True), keys(b, kind=True)
    if x != y:
        bad.append("json+ %s: fio only %s, iorig only %s" % (what, sorted(y - x)[:8], sorted(x - y)[:8]))
    if ("bins" in a["read"]["clat_ns"]) != ("bins" in b["read"]["clat_ns"]):
        bad.append("json+ %s: bins %s, fio's %s" % (what, "bins" in a["read"]["clat_ns"], "bins" in b["read"]["clat_ns"]))
for b in bad:
    print("FAILED:", b)
sys.exit(1 if bad else 0)
PYEOF
echo "ok: merged in every format"
