#!/bin/sh
# The queue depth distributions (fio's iodepth_level, iodepth_submit,
# iodepth_complete; iorig's iodepth counts), against the system calls the
# job made (strace): every io_submit is one submit count, every
# io_getevents that returned I/Os one complete count; and against fio's
# maps for a synchronous engine, where both tools must give the same.
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null 2>&1 || skip "needs strace (the outside truth)"
dd if=/dev/zero of="$T/f" bs=1M count=16 2>/dev/null
have_odirect "$T" || skip "no O_DIRECT in $T"

set -- --name=qd --filename="$T/f" --size=16m --rw=randread --bs=4k \
	--ioengine=libaio --direct=1 --iodepth=8 --number_ios=4000
strace -f -qq -e trace=io_submit,io_getevents -o "$T/trace" \
	"$IORIG" --output-format=json "$@" >"$T/out" 2>"$T/err"
rc=$?
expect_rc 0
"$PY" - "$T/out" "$T/trace" <<'PYEOF' || die "depth counts against strace"
import json, re, sys
u = json.load(open(sys.argv[1]))["jobs"][0]
dd = u["iodepth"]
submits = reaps = submitted = 0
for line in open(sys.argv[2]):
    m = re.search(r"(io_submit|io_getevents)\(.*\)\s*=\s*(-?\d+)", line)
    if not m:
        continue
    n = int(m.group(2))
    if m.group(1) == "io_submit" and n > 0:
        submits += 1
        submitted += n
    elif m.group(1) == "io_getevents" and n > 0:
        reaps += 1
ios = u["read"]["ios"]
assert ios == 4000, ios
assert submitted == ios, (submitted, ios)
assert sum(dd["submit"]) == submits, (dd["submit"], submits)
assert sum(dd["complete"]) == reaps, (dd["complete"], reaps)
assert sum(dd["level"]) == ios, (dd["level"], ios)
assert dd["submit"][0] == 0 and dd["complete"][0] == 0, dd
# never more than iodepth=8 in flight (bucket 8-15 the last used)
assert sum(dd["level"][4:]) == 0, dd
PYEOF

# fio-json gives the same counts as shares under fio's keys.
run --output-format=fio-json "$@"
expect_rc 0
"$PY" - "$T/out" <<'PYEOF' || die "fio-json depth maps"
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
assert list(j["iodepth_level"]) == ["1", "2", "4", "8", "16", "32", ">=64"]
for k in ("iodepth_submit", "iodepth_complete"):
    assert list(j[k]) == ["0", "4", "8", "16", "32", "64", ">=64"], j[k]
for k in ("iodepth_level", "iodepth_submit", "iodepth_complete"):
    assert all(isinstance(v, float) for v in j[k].values()), j[k]
    # shares under 0.1 show as 0.1, as fio's: a little over 100 at most
    assert 99.9 <= sum(j[k].values()) <= 100.0 + 0.1 * 7, j[k]
assert j["iodepth_level"]["16"] == 0.0, j["iodepth_level"]
PYEOF

# A synchronous engine: every I/O at depth 1, one per call; fio says so.
set -- --name=sync --filename="$T/f" --size=16m --rw=read --bs=4k \
	--ioengine=psync --number_ios=2000
run --output-format=fio-json "$@"
expect_rc 0
cp "$T/out" "$T/iorig.json"
if command -v fio >/dev/null 2>&1; then
	fio "$@" --output-format=json >"$T/fio.json" 2>/dev/null ||
		die "fio failed"
else
	echo "note: no fio, comparing with fio's documented values only"
	cp "$T/iorig.json" "$T/fio.json"
fi
"$PY" - "$T/iorig.json" "$T/fio.json" <<'PYEOF' || die "psync against fio"
import json, sys
i = json.load(open(sys.argv[1]))["jobs"][0]
f = json.load(open(sys.argv[2]))["jobs"][0]
for k in ("iodepth_level", "iodepth_submit", "iodepth_complete"):
    assert i[k] == f[k], (k, i[k], f[k])
assert i["iodepth_level"]["1"] == 100.0 and i["iodepth_submit"]["4"] == 100.0
PYEOF
echo ok
