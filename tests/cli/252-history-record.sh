#!/bin/sh
# --history=FILE.db (issue 25 §3): each run is recorded, and what is
# recorded is read back by outside readers (python3's sqlite3 module and
# Debian's sqlite3 CLI), compared with the same run's JSON result: the
# host, kernel, command, the job's options (non-default ones, their
# SHA-256 recomputed here), target and device, every figure (rates,
# counts, latency percentiles and means), the latency histograms bucket
# by bucket, the stored JSON result byte for byte. The schema's version
# and application id, WAL mode, PRAGMA integrity_check. The same job with
# another block size is another job (another hash), a changed check= is
# not. `iorig history list|show|compare --json` against the rows. The
# HTML report's trend charts (live, and iorig report --history) carry the
# rows' values.
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v sqlite3 >/dev/null 2>&1 ||
	skip "needs the sqlite3 CLI (Debian package sqlite3; make deps installs it)"
"$PY" -c 'import sqlite3' 2>/dev/null || skip "needs python3's sqlite3 module"

pl=1:5:10:25:50:75:90:95:99:99.5:99.9:99.99
job() {
	run --output-format=json --history="$T/h.db" --name=hj \
		--filename="$T/f" --size=4m --rw=randrw --runtime=300ms \
		--time_based --lat_percentiles=1 --slat_percentiles=1 \
		--percentile_list=$pl --ioengine=libaio --iodepth=2 "$@"
}

job --bs=4k
expect_rc 0
cp out r1.json
job --bs=4k --check='read.iops>=1'
expect_rc 0
cp out r2.json
job --bs=8k
expect_rc 0
cp out r3.json

[ "$(sqlite3 h.db 'PRAGMA integrity_check')" = ok ] ||
	die "integrity_check: $(sqlite3 h.db 'PRAGMA integrity_check')"
[ "$(sqlite3 h.db 'PRAGMA journal_mode')" = wal ] || die "not in WAL mode"
[ "$(sqlite3 h.db 'PRAGMA user_version')" = 1 ] || die "user_version"
[ "$(sqlite3 h.db 'PRAGMA application_id')" = 1768911463 ] ||
	die "application_id is not 0x696f7267 ('iorg')"
[ "$(sqlite3 h.db 'SELECT count(*) FROM runs')" = 3 ] || die "3 runs"

"$PY" - <<'PYEOF' || die "the rows against the runs' JSON"
import hashlib, json, sqlite3
db = sqlite3.connect("file:h.db?mode=ro", uri=True)
db.row_factory = sqlite3.Row
runs = db.execute("SELECT * FROM runs ORDER BY id").fetchall()
hashes = []
for k, r in enumerate(runs):
    text = open("r%d.json" % (k + 1)).read()
    d = json.loads(text)
    # the stored result is the run's JSON document, byte for byte (the
    # report ends with a newline the stored one has too)
    assert r["result_json"] == text, "run %d: result_json differs" % r["id"]
    assert r["host"] == d["host"]["hostname"], r["host"]
    assert r["kernel"] == d["host"]["kernel"]
    assert r["started"] == d["time"], (r["started"], d["time"])
    assert r["exit_code"] == 0 and r["signal"] is None
    assert r["command"] == " ".join(d["command_line"]), r["command"]
    assert r["iorig_version"] == d["iorig_version"]
    units = db.execute("SELECT * FROM units WHERE run_id = ? ORDER BY idx",
                       (r["id"],)).fetchall()
    assert len(units) == len(d["jobs"]) == 1, len(units)
    u, j = units[0], d["jobs"][0]
    assert u["job"] == j["name"] and u["clone"] == j["clone"]
    assert u["ran"] == 1 and u["measured"] == 1 and u["error"] is None
    assert u["runtime_ns"] == j["runtime_ns"]
    # the options: name=value lines of the JSON's effective options,
    # every given one among them, check= never; the hash is their SHA-256
    opts = u["options"]
    assert hashlib.sha256(opts.encode()).hexdigest() == u["options_hash"]
    lines = dict(l.split("=", 1) for l in opts.splitlines())
    for name, val in lines.items():
        assert j["options"][name] == val, (name, val, j["options"][name])
    for name in ("name", "filename", "size", "rw", "runtime", "ioengine",
                 "iodepth", "lat_percentiles", "percentile_list"):
        assert name in lines, (name, opts)
    assert "check" not in lines
    hashes.append(u["options_hash"])
    t = j["targets"][0]
    dev = t["device"] or {}
    assert u["target"] == t["path"]
    assert u["device"] == dev.get("name"), (u["device"], dev)
    assert u["device_model"] == (dev.get("model") or "")
    assert u["device_firmware"] == dev.get("firmware")
    figs = dict(db.execute("SELECT metric, value FROM figures WHERE "
                           "unit_id = ?", (u["id"],)).fetchall())
    def close(a, b, what):
        assert abs(a - b) <= 1e-9 * max(1, abs(b)), (what, a, b)
    for dn in ("read", "write"):
        jd = j[dn]
        close(figs[dn + ".iops"], jd["iops"], dn + ".iops")
        close(figs[dn + ".bw"], jd["bw_bytes"], dn + ".bw")
        close(figs[dn + ".ios"], jd["ios"], dn + ".ios")
        close(figs[dn + ".io_bytes"], jd["io_bytes"], dn + ".io_bytes")
        close(figs[dn + ".errors"], jd["errors"], dn + ".errors")
        for kind in ("slat", "clat", "lat"):
            h = jd[kind + "_ns"]
            for st in ("min", "max", "mean", "stddev"):
                close(figs["%s.%s.%s" % (dn, kind, st)], h[st],
                      "%s.%s.%s" % (dn, kind, st))
            assert len(h["percentiles"]) == 12, h["percentiles"]
            for p, v in h["percentiles"].items():
                close(figs["%s.%s.p%s" % (dn, kind, p)], v,
                      "%s.%s.p%s" % (dn, kind, p))
            row = db.execute("SELECT * FROM histograms WHERE unit_id = ? "
                             "AND direction = ? AND kind = ?",
                             (u["id"], dn, kind)).fetchone()
            assert row is not None, (dn, kind)
            assert json.loads(row["buckets"]) == h["buckets"], (dn, kind)
            assert row["count"] == h["count"] and \
                row["overflow"] == h["overflow"]
            assert row["min_ns"] == h["min"] and row["max_ns"] == h["max"]
            close(row["mean_ns"], h["mean"], "mean_ns")
            assert sum(b[2] for b in h["buckets"]) + h["overflow"] == \
                h["count"] and h["count"] == jd["ios"] or kind == "slat"
    close(figs["runtime"], j["runtime_ns"], "runtime")
    close(figs["cpu.us_per_io"], j["summary"]["us_per_io"], "us_per_io")
    assert figs["read.ios"] > 0 and figs["write.ios"] > 0
# a changed check= is the same job; another bs is another
assert hashes[0] == hashes[1] != hashes[2], hashes
PYEOF

# iorig history reads the same rows
run history list --json h.db
expect_rc 0
cp out list.json
run history show --json h.db 2
expect_rc 0
cp out show.json
run history compare --json h.db 1 2
expect_rc 0
cp out cmp.json
run history show --result h.db 3
expect_rc 0
cmp -s out r3.json || die "history show --result is not run 3's JSON"
"$PY" - <<'PYEOF' || die "iorig history against the rows"
import json, sqlite3
db = sqlite3.connect("file:h.db?mode=ro", uri=True)
l = json.load(open("list.json"))
ids = [r["id"] for r in l["runs"]]
assert ids == [r[0] for r in db.execute("SELECT id FROM runs ORDER BY id")]
assert l["runs"][0]["jobs"] == "hj" and l["schema_version"] == 1
s = json.load(open("show.json"))["run"]
assert s["id"] == 2 and len(s["units"]) == 1
u = s["units"][0]
figs = dict(db.execute("SELECT metric, value FROM figures f JOIN units u "
                       "ON u.id = f.unit_id WHERE u.run_id = 2"))
assert u["figures"] == figs, "show's figures are not the rows'"
assert len(u["histograms"]) == 6
c = json.load(open("cmp.json"))
assert (c["run_a"], c["run_b"]) == (1, 2)
cu = c["units"][0]
assert cu["same_options"] is True and cu["same_device_model"] is True
r1 = json.load(open("r1.json"))["jobs"][0]["read"]["iops"]
r2 = json.load(open("r2.json"))["jobs"][0]["read"]["iops"]
f = cu["figures"]["read.iops"]
assert abs(f["a"] - r1) < 1e-6 * r1 and abs(f["b"] - r2) < 1e-6 * r2, f
assert abs(f["change_pct"] - (r2 - r1) / r1 * 100) < 1e-6, f
PYEOF
run history compare h.db 2 3
expect_rc 0
expect_in out 'options differ'
expect_in out 'read.iops'
run history show h.db 9
expect_rc 2
expect_in err 'no such run'
# The HTML report's trend: the same job's runs in the history (runs 1, 2
# and this one, the 4th; not run 3 of another bs), this run last; and
# from a saved result (run 1's) with iorig report --history.
job --bs=4k --output-format=json,html
expect_rc 0
cp out r4.both
run report --html --history="$T/h.db" -o saved.html r1.json
expect_rc 0
"$PY" - <<'PYEOF' || die "the trend against the rows"
import json, re, sqlite3
db = sqlite3.connect("file:h.db?mode=ro", uri=True)
both = open("r4.both").read()
i = both.index("<!DOCTYPE html>")
d4, page = json.loads(both[:i]), both[i:]
def charts(page):
    return {m: (list(map(float, v.split(","))), r.split(","))
            for m, v, r in re.findall(r'<svg class="trend"[^>]*data-metric='
                                      r'"([^"]+)" data-values="([^"]+)" '
                                      r'data-runs="([^"]+)"', page)}
def fig(run, metric):
    return db.execute("SELECT value FROM figures f JOIN units u ON u.id = "
                      "f.unit_id WHERE u.run_id = ? AND f.metric = ?",
                      (run, metric)).fetchone()[0]
live = charts(page)
want = {"read.iops", "read.bw", "read.lat.mean", "read.lat.p99",
        "write.iops", "write.bw", "write.lat.mean", "write.lat.p99",
        "cpu.us_per_io"}
assert set(live) == want, sorted(live)
v, runs = live["read.iops"]
assert runs == ["1", "2", "this"], runs
assert v[:2] == [fig(1, "read.iops"), fig(2, "read.iops")], v
assert abs(v[2] - d4["jobs"][0]["read"]["iops"]) <= 1e-9 * v[2], v
v, runs = live["write.lat.p99"]
assert v[:2] == [fig(1, "write.lat.p99"), fig(2, "write.lat.p99")], v
saved = charts(open("saved.html").read())
v, runs = saved["read.iops"]
assert runs == ["2", "4", "this"], runs
r1 = json.load(open("r1.json"))["jobs"][0]["read"]["iops"]
assert v[:2] == [fig(2, "read.iops"), fig(4, "read.iops")], v
assert abs(v[2] - r1) <= 1e-9 * r1, (v, r1)
PYEOF
echo "ok: runs recorded as their JSON says, read back by sqlite3 and iorig history; the HTML trend draws them"
