#!/bin/sh
# Invoked as fio (a symlink named fio, or fio-*): `fio --version` is what
# KDiskMark (src/benchmark.cpp: the string begins "fio-") and fio-plot's
# bench_fio (checks.py: "fio-3" in it) look for, and a 3.x version number
# comes first; KDiskMark's two command lines (src/helper.cpp: prepare with
# create_only=1, then the measured job) run, and their JSON is fio's
# layout: the same keys with the same JSON types (int apart from float)
# as Debian's fio 3.33 writes for the same command line, and the figures
# KDiskMark reads (jobs[0].error, read/write bw, iops, clat_ns.mean)
# where it reads them; kubestr's `fio --directory DIR JOBFILE` likewise.
# lane: parallel
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/bin" "$T/fio" "$T/io"
ln -s "$IORIG" "$T/bin/fio"
ln -s "$IORIG" "$T/bin/fio-3.33"
ln -s "$IORIG" "$T/bin/fiox"
ver=$(sed -n 1p "$top/VERSION" 2>/dev/null)

# --version, under each name
for n in fio fio-3.33; do
	"$T/bin/$n" --version >"$T/out" 2>"$T/err"
	rc=$?
	expect_rc 0
	expect_empty err
	[ "$(wc -l <"$T/out")" -eq 1 ] || die "$n --version: one line expected"
	expect_in out '^fio-3\.[0-9]+ \(iorig [0-9]+\.[0-9]+\.[0-9]+\)$'
	[ -z "$ver" ] || expect_in out "\\(iorig $ver\\)\$"
	# KDiskMark: QString::simplified().indexOf("fio-") == 0
	"$PY" - "$T/out" <<'EOF' || die "$n --version: what tools parse"
import re, sys
s = " ".join(open(sys.argv[1]).read().split())
assert s.index("fio-") == 0, s                  # KDiskMark
assert "fio-3" in s and "fio-2" not in s, s     # bench_fio
m = re.match(r"fio-(\d+)\.(\d+)", s)            # a version comparison
assert m and (int(m[1]), int(m[2])) >= (3, 0), s
assert s.split()[0].split("-")[1].replace(".", "").isdigit(), s
EOF
done
# The same prefix as Debian's fio, when it is here (the outside truth).
if command -v fio >/dev/null 2>&1; then
	real=$(fio --version)
	case $real in
	fio-3.*) ;;
	*) die "Debian's fio says '$real', not fio-3.*" ;;
	esac
fi
# Another name is iorig as ever.
for n in fiox; do
	"$T/bin/$n" --version >"$T/out" 2>"$T/err"
	rc=$?
	expect_rc 0
	expect_in out '^iorig [0-9]'
done
run --version
expect_in out '^iorig [0-9]'

# shape FIO.json IORIG.json: the same keys at every level with the same
# JSON types (the values of options, percentiles and bins aside).
shape() {
	CLI_DIR="$top/tests/cli" "$PY" - "$1" "$2" <<'EOF' || die "shape of $2 against fio's $1"
import json
import os, sys
sys.path.insert(0, os.environ["CLI_DIR"])
from jsonshape import keys  # noqa: E402
f = json.load(open(sys.argv[1]))
i = json.load(open(sys.argv[2]))
# fio prints every double with decimals (0.000000), so a reader typed
# as Go is (kubestr: int64 bw, float32 iops) fails on the other kind;
# disk_util depends on the devices under the files.
for d in (f, i):
    d.pop("disk_util", None)
a, b = keys(f, kind=True), keys(i, kind=True)
assert len(a) > 100, sorted(a)
assert a == b, ("fio only", sorted(a - b), "iorig only", sorted(b - a))
assert len(f["jobs"]) == len(i["jobs"]), (len(f["jobs"]), len(i["jobs"]))
EOF
}

have_fio=
command -v fio >/dev/null 2>&1 && have_fio=1

# KDiskMark's prepare step (helper.cpp prepareBenchmarkFile): the file
# exists, empty, before fio runs (QTemporaryFile).
kdm_prepare() {
	: >"$1"
	"$2" --output-format=json --create_only=1 --filename="$1" --size=8m \
		--zero_buffers=0 --name=prepare
}
kdm_prepare "$T/io/bench.tmp" "$T/bin/fio" >"$T/out" 2>"$T/err"
rc=$?
expect_rc 0
[ "$(stat -c %s "$T/io/bench.tmp")" -eq 8388608 ] ||
	die "create_only=1 did not lay out 8 MiB: $(stat -c %s "$T/io/bench.tmp")"
expect_json 'd["fio version"].startswith("fio-3.")'
expect_json 'len(d["jobs"]) == 1 and d["jobs"][0]["error"] == 0' \
	"KDiskMark fails on an empty jobs array or an error"
cp "$T/out" "$T/prep.json"
if [ -n "$have_fio" ]; then
	kdm_prepare "$T/fio/bench.tmp" fio >"$T/fprep.json" 2>/dev/null ||
		die "fio failed on KDiskMark's prepare line"
	shape "$T/fprep.json" "$T/prep.json"
fi

# KDiskMark's measured job (helper.cpp startBenchmarkTest), with the
# numbers of its default SEQ1M Q8T1 read and RND4K Q1T1 write, shrunk.
kdm_run() {
	f=$1 exe=$2 rw=$3 bs=$4 qd=$5
	"$exe" --output-format=json --ioengine=libaio --randrepeat=0 \
		--refill_buffers=1 --end_fsync=1 --direct=1 --rwmixread=70 \
		--filename="$f" --name="$rw" --size=8m --zero_buffers=0 \
		--bs="${bs}k" --runtime=5 --rw="$rw" --iodepth="$qd" \
		--numjobs=1 --group_reporting
}
for job in "read 1024 8" "randwrite 4 1"; do
	set -- $job
	kdm_run "$T/io/bench.tmp" "$T/bin/fio" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	expect_rc 0
	cp "$T/out" "$T/i-$1.json"
	dir=read
	[ "$1" = randwrite ] && dir=write
	# What KDiskMark reads (Benchmark::parseResult), as it reads it:
	# bw as an int (toInt() of a double is 0), iops and clat_ns.mean as
	# doubles; the whole 8 MiB moved (size= without time_based).
	"$PY" - "$T/out" "$dir" <<'EOF' || die "$1: what KDiskMark reads"
import json, sys
d = json.load(open(sys.argv[1]))
j = d["jobs"][0]
x = j[sys.argv[2]]
assert j["error"] == 0, j["error"]
assert isinstance(x["bw"], int) and x["bw"] > 0, x["bw"]
assert isinstance(x["iops"], float) and x["iops"] > 0, x["iops"]
assert isinstance(x["clat_ns"]["mean"], float), x["clat_ns"]
assert 0 < x["clat_ns"]["mean"] <= x["lat_ns"]["mean"], x
assert x["io_bytes"] == 8 << 20, x["io_bytes"]
assert x["bw"] == x["bw_bytes"] // 1024, x
# iops comes from the nanosecond runtime, "runtime" is its whole ms
# (truncated): the true runtime lies in [runtime, runtime + 1) ms.
lo = x["iops"] * x["runtime"] / 1000
hi = x["iops"] * (x["runtime"] + 1) / 1000
assert lo - 0.5 <= x["total_ios"] <= hi + 0.5, (x["iops"], x["runtime"])
EOF
	if [ -n "$have_fio" ]; then
		kdm_prepare "$T/fio/bench.tmp" fio >/dev/null 2>&1
		kdm_run "$T/fio/bench.tmp" fio "$@" >"$T/f-$1.json" \
			2>/dev/null || die "fio failed on KDiskMark's job"
		shape "$T/f-$1.json" "$T/i-$1.json"
		# The same work: fio moved the same bytes in as many I/Os.
		"$PY" - "$T/f-$1.json" "$T/i-$1.json" "$dir" <<'EOF' ||
import json, sys
f = json.load(open(sys.argv[1]))["jobs"][0][sys.argv[3]]
i = json.load(open(sys.argv[2]))["jobs"][0][sys.argv[3]]
assert (f["io_bytes"], f["total_ios"]) == (i["io_bytes"], i["total_ios"]), \
    (f["io_bytes"], f["total_ios"], i["io_bytes"], i["total_ios"])
EOF
			die "$1: not the work fio does"
	fi
done

# kubestr's run (pkg/fio/fio.go): fio --directory DIR JOBFILE
# --output-format=json, its default job file (fio_jobs.go) shrunk; it
# unmarshals "global options" as strings and the jobs as Go types.
mkdir -p "$T/kd"
cat >"$T/kube.fio" <<'EOF'
[global]
randrepeat=0
verify=0
ioengine=libaio
direct=1
gtod_reduce=1
[job1]
name=read_iops
bs=4K
iodepth=8
size=4m
readwrite=randread
time_based
ramp_time=100ms
runtime=300ms
[job2]
name=write_iops
bs=4K
iodepth=8
size=4m
readwrite=randwrite
time_based
ramp_time=100ms
runtime=300ms
EOF
"$T/bin/fio" --directory "$T/kd" "$T/kube.fio" --output-format=json \
	>"$T/out" 2>"$T/err"
rc=$?
expect_rc 0
cp "$T/out" "$T/i-kube.json"
expect_json 'd["global options"]["directory"] == "'"$T/kd"'"'
expect_json 'all(isinstance(v, str) for v in d["global options"].values())'
expect_json '[j["jobname"] for j in d["jobs"]] == ["read_iops", "write_iops"]'
expect_json 'd["jobs"][0]["read"]["iops"] > 0 and d["jobs"][1]["write"]["iops"] > 0'
# fio names the file after the section ([job1]), not name=
[ -f "$T/kd/job1.0.0" ] || die "--directory DIR: no job1.0.0 in DIR, as fio makes"
if [ -n "$have_fio" ]; then
	rm -f "$T/kd/"*
	fio --directory "$T/kd" "$T/kube.fio" --output-format=json \
		>"$T/f-kube.json" 2>/dev/null || die "fio failed on kubestr's job"
	shape "$T/f-kube.json" "$T/i-kube.json"
fi

# As iorig (not invoked as fio), json is iorig's own layout, and fio's
# name for it (fio-json) still works; invoked as fio, iorig-json is it.
run --output-format=json --name=a --ioengine=null --size=64k
expect_json '"iorig_version" in d and "fio version" not in d'
"$T/bin/fio" --output-format=iorig-json --name=a --ioengine=null \
	--size=64k >"$T/out" 2>"$T/err"
rc=$?
expect_rc 0
expect_json '"iorig_version" in d'
[ -n "$have_fio" ] || echo "note: no fio, shapes not compared"
exit 0
