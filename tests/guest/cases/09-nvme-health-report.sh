#!/bin/sh
# Device identity and health in the report (beyond fio): one run of three
# jobs in one phase, on namespace 1's block device (psync, direct), on
# namespace 2's char device (zoned) and on namespace 3's (PI, pi_act=1)
# through io_uring_cmd. The report's `nvme` list names each namespace as
# the controller identifies it (nvme-cli's id-ctrl and id-ns, read here
# too), and the health log's changes during the run equal the I/Os the
# jobs report and the controller's own counters read around the run by
# nvme-cli (the write guard's reads come from a page cache held (fd 3)
# and not dropped (invalidate=0), warmed by a first run);
# `--check health.media_errors==0 --check health.critical_warning==0`
# pass; the saved JSON validates against doc/iorig-json.schema.json and
# reads back into the text and HTML reports with the same figures.
# Leaves 80-81 MiB of namespace 1 written.
. "$(dirname "$0")/../lib.sh"
need nvme nvme-cli
blk=$(nvme_ns 1)
exec 3<"$blk"
job="--group_reporting=0 \
--name=blk --filename=$blk --ioengine=psync --direct=1 --invalidate=0 \
--rw=randrw \
--bs=4k --size=1m --offset=80m \
--name=zoned --filename=/dev/ng0n2 --ioengine=io_uring_cmd --rw=read \
--bs=4k --size=64k --offset=0 \
--name=pi --filename=/dev/ng0n3 --ioengine=io_uring_cmd --rw=read \
--bs=4k --size=1m --offset=0 --pi_act=1 --iodepth=4"
chk="--check health.media_errors==0 --check health.critical_warning==0"

run --name=warm --filename=$blk --rw=write --size=4k --offset=80m \
	--ioengine=psync --direct=1 --invalidate=0
expect_rc 0
smart_log a
run $job $chk --output-format=json
expect_rc 0
smart_log b
cp "$T/out" "$T/r.json"
nvme id-ctrl /dev/nvme0 -o json >"$T/ctrl.json" || die "nvme id-ctrl"
for i in 1 2 3; do
	nvme id-ns /dev/nvme0 -n $i -o json >"$T/ns$i.json" || die "nvme id-ns $i"
done
"$IORIG" report --output-format=text "$T/r.json" >"$T/r.txt" 2>"$T/err" || die "iorig report"
"$IORIG" report --html "$T/r.json" >"$T/r.html" 2>"$T/err" ||
	die "iorig report --html"

"$PY" - "$T" "$top/doc/iorig-json.schema.json" \
	"$((b_host_read_commands - a_host_read_commands))" \
	"$((b_host_write_commands - a_host_write_commands))" \
	"$((b_data_units_read - a_data_units_read))" \
	"$((b_data_units_written - a_data_units_written))" <<'PYEOF' ||
import json, sys
t, schema, rd, wr, dur, duw = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:])
d = json.load(open(f"{t}/r.json"))
ctrl = json.load(open(f"{t}/ctrl.json"))
bad = []
def want(c, what):
    if not c:
        bad.append(what)
try:
    from jsonschema import Draft202012Validator
    errs = list(Draft202012Validator(json.load(open(schema))).iter_errors(d))
    want(not errs, f"schema: {[e.message for e in errs[:3]]}")
except ImportError:
    print("note: no jsonschema here: the schema is not checked")
jobs = {j["name"]: j for j in d["jobs"]}
reads = sum(j["read"]["ios"] for j in jobs.values())
writes = sum(j["write"]["ios"] for j in jobs.values())
want(reads + writes == 256 + 16 + 256, f"the jobs did {reads} + {writes} I/Os")
nv = {x["name"]: x for x in d["nvme"]}
want(sorted(nv) == ["nvme0n1", "nvme0n2", "nvme0n3"], f"nvme: {sorted(nv)}")
for name, x in sorted(nv.items()):
    i = int(name[-1])
    ns = json.load(open(f"{t}/ns{i}.json"))
    f = ns["lbafs"][ns["flbas"] & 0xF]
    ident = (x["model"], x["serial"], x["firmware"], x["nsid"], x["blocks"],
             x["lba_size"], x["metadata_size"], x["extended_lba"],
             x["pi_type"], x["zoned"])
    truth = (ctrl["mn"].strip(), ctrl["sn"].strip(), ctrl["fr"].strip(), i,
             ns["nsze"], 1 << f["ds"], f["ms"], bool(ns["flbas"] & 0x10),
             ns["dps"] & 7, i == 2)
    want(ident == truth, f"{name}: identity {ident}, nvme-cli says {truth}")
    dl = x["health_delta"]
    got = (dl["host_read_commands"], dl["host_write_commands"],
           dl["data_units_read"], dl["data_units_written"])
    want(got == (reads, writes, dur, duw),
         f"{name}: health_delta {got}; the jobs reported {reads} reads and "
         f"{writes} writes, nvme-cli's smart-log moved {(rd, wr, dur, duw)}")
    want((rd, wr) == (reads, writes),
         f"nvme-cli's smart-log moved {(rd, wr)} around the run")
    want(dl["media_errors"] == 0 and x["health_after"]["critical_warning"]
         == 0, f"{name}: media errors or a critical warning")
    print(f"ok: {name} {x['target']}: {ident}; during the run host read "
          f"commands +{got[0]}, write +{got[1]}, data units read +{got[2]}, "
          f"written +{got[3]}")
for n, j in jobs.items():
    want(j["health"] == {"media_errors": 0, "error_log_entries": 0,
                         "critical_warning": 0, "percentage_used":
                         nv["nvme0n1"]["health_after"]["percentage_used"]},
         f"job {n}: health {j['health']}")
cks = [(c["job"], c["metric"], c["pass"]) for c in d["checks"]]
want(len(cks) == 6 and all(c[2] is True for c in cks), f"checks: {cks}")
txt = open(f"{t}/r.txt").read()
want(f"host read commands +{reads}, host write commands +{writes}" in txt,
     "the text report does not give the run's command counts")
html = open(f"{t}/r.html").read()
want("<h3>NVMe devices</h3>" in html and ctrl["sn"].strip() in html,
     "the HTML report has no NVMe section")
for b in bad:
    print("FAILED:", b)
if not bad:
    print(f"ok: {reads} reads and {writes} writes reported, as the "
          "controller counted them; checks", cks)
sys.exit(1 if bad else 0)
PYEOF
	die "the report's NVMe identity and health are not the controller's"
grep -A4 '^NVMe devices' "$T/r.txt"
# An NVMe char device is described as its namespace's block device.
grep '^  target /dev/ng0n2' "$T/r.txt" | grep -q 'nvme0n2' ||
	die "the text report's target line of /dev/ng0n2:" \
	    "$(grep '^  target /dev/ng0n2' "$T/r.txt")"
grep '^  target ' "$T/r.txt"
