#!/bin/sh
# --minimal / --output-format=terse with --terse-version=2..5: fio's
# semicolon-separated line, field for field. Against fio 3.x on the same
# job: the same number of fields and, at every position, the same kind of
# field (whole number, decimal, "N%", "P%=us", name); against iorig's own
# fio-json of the same (deterministic) run: the values at the positions
# fio's HOWTO gives them.
# lane: parallel
. "$(dirname "$0")/lib.sh"

dd if=/dev/zero of="$T/f" bs=1M count=8 2>/dev/null
# number_ios: the same counts on every run, both tools
set -- --name=t --filename="$T/f" --size=8m --rw=randrw --bs=4k \
	--ioengine=psync --number_ios=1000 --randrepeat=1

for v in 2 3 4 5; do
	run --minimal --terse-version=$v "$@"
	expect_rc 0
	cp "$T/out" "$T/i$v.txt"
	if command -v fio >/dev/null 2>&1; then
		fio "$@" --minimal --terse-version=$v >"$T/f$v.txt" 2>/dev/null ||
			die "fio failed"
	fi
done
run --output-format=terse "$@"
expect_rc 0
cmp -s "$T/out" /dev/null && die "--output-format=terse wrote nothing"
[ "$(tr -cd ';' <"$T/out" | wc -c)" -eq "$(tr -cd ';' <"$T/i3.txt" | wc -c)" ] ||
	die "--output-format=terse is not --minimal --terse-version=3"
# Both from one run: fio-json first (the formats' order), then the line.
run --output-format=terse,fio-json "$@"
expect_rc 0
grep '^3;' "$T/out" >"$T/both3.txt" || die "no terse line with fio-json"
grep -v '^3;' "$T/out" >"$T/fio-json.json"

"$PY" - "$T" <<'PYEOF' || die "terse fields"
import json, os, re, sys
t = sys.argv[1]

def kind(x):
    if re.fullmatch(r"\d+", x): return "int"
    if re.fullmatch(r"\d+\.\d+", x): return "real"
    if re.fullmatch(r"[\d.]+%", x): return "pct"
    if re.fullmatch(r"[\d.]+%=\d+", x): return "pctl"
    return "str"

def fields(path):
    lines = open(path).read().rstrip("\n").split("\n")
    return lines[0].split(";")

# Field counts (with one disk) as fio's HOWTO has them
want = {2: 161, 3: 130, 4: 171, 5: 189}
have_fio = os.path.exists(t + "/f3.txt")
for v in (2, 3, 4, 5):
    i = fields("%s/i%d.txt" % (t, v))
    ndisk = 0 if v == 2 else 1
    # the job is on a file: one disk (none in a container without one)
    assert len(i) in (want[v], want[v] - 9 * ndisk), (v, len(i))
    assert i[0] == str(v), i[0]
    if not have_fio:
        continue
    f = fields("%s/f%d.txt" % (t, v))
    assert len(f) == len(i), (v, len(f), len(i))
    for k, (a, b) in enumerate(zip(f, i)):
        ka, kb = kind(a), kind(b)
        # fio prints a share of 100 as "100.0%"; a version field is a name
        assert ka == kb, (v, k + 1, a, b)

# Values at the HOWTO's positions (v3, 1-based): 3 jobname, 6 read_kb,
# 7 read bw, 9 read runtime, 18..37 read clat percentiles, 47 write_kb
i = fields(t + "/both3.txt")
j = json.load(open(t + "/fio-json.json"))["jobs"][0]
assert i[2] == "t" and i[3] == "0" and i[4] == "0", i[:5]
assert int(i[5]) == j["read"]["io_kbytes"], (i[5], j["read"]["io_kbytes"])
assert int(i[46]) == j["write"]["io_kbytes"], (i[46], j["write"]["io_kbytes"])
assert int(i[5]) + int(i[46]) == 1000 * 4, "1000 I/Os of 4 KiB"
for k in range(17, 37):
    assert re.fullmatch(r"[\d.]+%=\d+|0%=0", i[k]), (k + 1, i[k])
assert i[17].startswith("1.000000%="), i[17]
# the percentiles are the fio-json ones in us
p = j["read"]["clat_ns"]["percentile"]
assert int(i[17].split("=")[1]) == p["1.000000"] // 1000, (i[17], p)
assert int(i[8]) == j["read"]["runtime"], (i[8], j["read"]["runtime"])
# fio's terse bandwidth: from the whole ms of the runtime
r = j["read"]
assert int(i[6]) == r["io_bytes"] * 1000 // r["runtime"] // 1024, (i[6], r)
# 89: read bw agg, a per cent; 92.. cpu, depths (iodepth 1: 100%)
assert i[43].endswith("%"), i[43]
assert i[87].endswith("%") and i[88].endswith("%"), i[87:89]
assert i[92] == "100.0%", i[92:99]
PYEOF

# A bad version
run --terse-version=6 "$@"
expect_rc 2
expect_in err "terse-version"
expect_in err "expected 2, 3, 4 or 5"
echo ok
