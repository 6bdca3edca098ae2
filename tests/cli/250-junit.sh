#!/bin/sh
# --output-format=junit read by a real JUnit reader (Debian's
# python3-junitparser), checked against iorig's own JSON of the same run
# (--output-format=json,junit, one after the other as fio writes several
# formats): a suite per job, its "ran" case, a case per check with the
# job's runtime as its time, a failing check's message giving value and
# threshold in the check's unit, an errored job's <error>, an n/a check
# skipped, the headline figures as properties, names with XML's special
# characters and a byte that is no UTF-8 read back intact. The same
# document from the saved JSON (iorig report) and from a merge (iorig
# merge --check), checked against the merged JSON.
# lane: parallel
. "$(dirname "$0")/lib.sh"

"$PY" -c 'import junitparser' 2>/dev/null ||
	skip "needs python3-junitparser (Debian package; make deps installs it)"

odd='b<&"'"'"'µ'
run --output-format=json,junit \
	--name=a --ioengine=psync --rw=randread --bs=4k --size=2m \
	--filename="$T/a.dat" --check='a:read.lat.p99<=1ns' \
	--check='a:read.iops>=1' \
	--name="$odd" --ioengine=null --rw=write --bs=4k --size=1m
expect_rc 3
cp out run.out

"$PY" - run.out <<'PYEOF' || die "junit against the JSON of the same run"
import json, re, sys
from junitparser import JUnitXml, Failure, Error, Skipped
s = open(sys.argv[1], "rb").read().decode("utf-8", "surrogateescape")
d, n = json.JSONDecoder().raw_decode(s)
x = s[n:].lstrip()
assert x.startswith("<?xml"), x[:80]
open("run.xml", "wb").write(x.encode("utf-8", "surrogateescape"))
xml = JUnitXml.fromfile("run.xml")
suites = list(xml)
names = [su.name for su in suites]
assert names == ["a", 'b<&"\'µ'], names
assert (xml.tests, xml.failures, xml.errors, xml.skipped) == (4, 1, 0, 0), \
    (xml.tests, xml.failures, xml.errors, xml.skipped)
ja, jb = d["jobs"]
a, b = suites
cases = list(a)
assert [c.name for c in cases] == ["a: ran", "a: read.lat.p99<=1ns",
                                   "a: read.iops>=1"], [c.name for c in cases]
rt = ja["runtime_ns"] / 1e9
for c in cases:
    assert abs(c.time - rt) < 2e-6, (c.name, c.time, rt)
assert cases[0].is_passed and cases[2].is_passed
f = cases[1].result
assert len(f) == 1 and isinstance(f[0], Failure), f
chk = [c for c in d["checks"] if c["expr"] == "a:read.lat.p99<=1ns"][0]
assert chk["pass"] is False
m = re.fullmatch(r"read\.lat\.p99 ([0-9.]+) (ns|µs|ms|s) > 1 ns", f[0].message)
assert m, f[0].message
scale = {"ns": 1, "µs": 1e3, "ms": 1e6, "s": 1e9}[m.group(2)]
v = float(m.group(1)) * scale
assert abs(v - chk["value"]) <= 0.005 * chk["value"], (v, chk["value"])
props = {p.name: p.value for p in a.properties()}
assert props["job"] == "a" and props["engine"] == ja["options"]["ioengine"], props
assert props["target"].endswith("/a.dat"), props
assert int(props["ios"]) == ja["read"]["ios"] == 512, props
assert abs(float(props["read.iops"]) - ja["read"]["iops"]) <= 1e-9 * ja["read"]["iops"]
assert abs(float(props["read.bw"]) - ja["read"]["bw_bytes"]) <= 1e-9 * ja["read"]["bw_bytes"]
assert float(props["read.lat.p99"]) == chk["value"], (props, chk)
# no checks: one case, the job ran
bc = list(b)
assert [c.name for c in bc] == ['b<&"\'µ: ran'] and bc[0].is_passed
assert abs(bc[0].time - jb["runtime_ns"] / 1e9) < 2e-6
assert {p.name: p.value for p in b.properties()}["write.iops"]
print("ok: run", file=sys.stderr)
PYEOF

# The saved JSON reads back into the same document.
"$PY" -c 'import json,sys
s = open(sys.argv[1]).read()
d, n = json.JSONDecoder().raw_decode(s)
open("run.json", "w").write(s[:n])' run.out
run report --output-format=junit run.json
expect_rc 0
cmp -s out run.xml || die "iorig report gives another document: $(diff run.xml out | head)"

# A job that failed: <error> with its message; an n/a check: <skipped>;
# a name that is no UTF-8 (the byte as U+FFFD).
[ -f /proc/version ] || skip "needs /proc/version"
run --output-format=junit --check='write.iops>=1' \
	--name=bad --filename=/proc/version --size=1m \
	--name="$(printf 'r\377')" --ioengine=null --rw=read --size=1m
expect_rc 1
"$PY" - "$T/out" <<'PYEOF' || die "the failed job's error"
import sys
from junitparser import JUnitXml, Error, Skipped, Failure
xml = JUnitXml.fromfile(sys.argv[1])
bad, r = list(xml)
c = list(bad)
assert c[0].name == "bad: ran", c[0].name
e = c[0].result
assert len(e) == 1 and isinstance(e[0], Error) and "/proc/version" in e[0].message, e
rc = list(r)
assert r.name == "r\ufffd", r.name
assert rc[0].is_passed and rc[1].name == "r\ufffd: write.iops>=1", rc[1].name
assert len(rc[1].result) == 1 and isinstance(rc[1].result[0], Skipped), rc[1].result
assert bad.errors == 1 and r.skipped == 1 and xml.errors == 1, (bad.errors, r.skipped)
PYEOF

# Merged results: one suite per job of the merge, the merge's checks.
for s in 2 1; do
	run --name=m --ioengine=psync --rw=randread --bs=4k --size=${s}m \
		--filename="$T/m$s.dat" --output-format=json
	expect_rc 0
	cp out m$s.json
done
run merge --output-format=json m2.json m1.json
expect_rc 0
cp out merged.json
run merge --output-format=junit --check='read.iops>=1000g' \
	--check='read.ios>=768' --check='rank:read.ios>=512' m2.json m1.json
expect_rc 3
"$PY" - "$T/out" merged.json <<'PYEOF' || die "the merged junit"
import json, sys
from junitparser import JUnitXml, Failure
xml = JUnitXml.fromfile(sys.argv[1])
d = json.load(open(sys.argv[2]))
(m,) = list(xml)
c = list(m)
assert [x.name for x in c] == ["m: ran", "m: read.iops>=1000g",
                               "m: read.ios>=768",
                               "m: read.ios>=512 (m2.json:0)",
                               "m: read.ios>=512 (m1.json:0)"], [x.name for x in c]
assert isinstance(c[1].result[0], Failure) and c[2].is_passed
# rank: each member's own I/Os (512 and 256)
assert c[3].is_passed and c[4].result[0].message == "read.ios 256 < 512", c[4].result
iops = d["jobs"][0]["read"]["iops"]
msg = c[1].result[0].message
assert msg.startswith("read.iops ") and msg.endswith(" < 1.00T"), msg
props = {p.name: p.value for p in m.properties()}
assert abs(float(props["read.iops"]) - iops) <= 1e-9 * iops, (props, iops)
assert int(props["ios"]) == 768 == d["jobs"][0]["read"]["ios"], props
PYEOF
echo ok
