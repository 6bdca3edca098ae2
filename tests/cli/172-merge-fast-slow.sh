#!/bin/sh
# Cluster percentiles are those of the pooled I/Os, never an average of
# the members' percentiles: one fast member (2048 reads of a loop device)
# and one slow (64 reads of a loop device throttled to 100 reads/s by the
# blkio cgroup), the same job on targets of different sizes. Outside
# truth: the devices' own read counts (/sys/block/loopN/stat) are the
# members' I/Os; the pooled buckets (computed here) give every merged
# percentile, and the merged p99 is far (2x) from the mean of the
# members' p99s (the throttle stalls a few reads for up to 100 ms: the
# slow member's p99 is one of those, the cluster's is not). Cluster checks read the cluster figures, rank: checks
# each member's; a failed one gives exit 3 and names the member; the
# slowest member is named.
# lane: paced
. "$(dirname "$0")/lib.sh"

BLKIO=/sys/fs/cgroup/blkio/blkio.throttle.read_iops_device
[ -w "$BLKIO" ] || skip "needs the blkio throttle ($BLKIO)"
loop_disk fast.img 10
fast=$dev
loop_disk slow.img 4
slow=$dev
mm=$(lsblk -dno MAJ:MIN "$slow" | tr -d ' ')
trap 'echo "$mm 0" >"$BLKIO"; losetup -d "$fast" "$slow" 2>/dev/null; cd /; rm -rf "$T"' EXIT
echo "$mm 100" >"$BLKIO" || skip "cannot throttle $slow"

reads() {	# reads DEV: reads completed
	dev_stat "$1" 1
}
# Direct 4k reads past the zeroed first MiB: 2048 fast ones, 64 slow.
for m in fast:8m:2048 slow:256k:64; do
	name=${m%%:*}
	size=${m#*:}
	want=${size#*:}
	size=${size%:*}
	eval d=\$$name
	r0=$(reads "$d")
	run --name=m --ioengine=psync --direct=1 --rw=randread --bs=4k \
		--offset=1m --size="$size" --filename="$d" --output-format=json
	expect_rc 0
	cp "$T/out" "$T/$name.json" || die "cp"
	n=$(($(reads "$d") - r0))
	got=$(json "d['jobs'][0]['read']['ios']")
	[ "$got" -eq "$want" ] && [ "$n" -ge "$want" ] &&
		[ "$n" -le $((want + 6)) ] ||
		die "$name: $got I/Os reported, $n reads on $d ($want expected)"
done

run merge --output-format=json fast.json slow.json
expect_rc 0
cp "$T/out" merged.json
"$PY" - merged.json fast.json slow.json <<'PYEOF' || die "the merged p99 is not the pooled one"
import json, sys
from fractions import Fraction
m, f, s = (json.load(open(p)) for p in sys.argv[1:])
hf, hs = f["jobs"][0]["read"]["clat_ns"], s["jobs"][0]["read"]["clat_ns"]
b = {}
for h in (hf, hs):
    for lo, hi, c in h["buckets"]:
        b[lo] = (hi, b.get(lo, (hi, 0))[1] + c)
n = hf["count"] + hs["count"]
mn, mx = min(hf["min"], hs["min"]), max(hf["max"], hs["max"])
def pct(p):
    r = max(1, min(n, -((-Fraction(p) * n) // 100)))
    if r == n: return mx
    if r == 1: return mn
    seen = 0
    for lo in sorted(b):
        seen += b[lo][1]
        if seen >= r:
            return min(max(lo + (b[lo][0] - lo) // 2, mn), mx)
mc = m["jobs"][0]["read"]["clat_ns"]
ok = mc["count"] == n == 2112
ok = ok and all(v == pct(k) for k, v in mc["percentiles"].items())
for k in ("99",):
    avg = (hf["percentiles"][k] + hs["percentiles"][k]) / 2
    print("p%s: fast %d ns, slow %d ns, their mean %d ns, merged %d ns"
          % (k, hf["percentiles"][k], hs["percentiles"][k], avg,
             mc["percentiles"][k]))
    ok = ok and not avg / 2 <= mc["percentiles"][k] <= avg * 2
sys.exit(0 if ok else 1)
PYEOF

# Checks: the cluster's max latency (the slow member's: its 64 reads
# took at least 0.5 s in all) fails; rank: fails only the slow member;
# exit 3.
run merge fast.json slow.json --check='read.clat.max<=5ms' \
	--check='rank:read.iops>=1000' --check='read.ios==2112'
expect_rc 3
expect_in out '^ *FAIL +cluster m: read\.clat\.max<=5ms'
expect_in out '^ *PASS +fast\.json m: read\.iops>=1000'
expect_in out '^ *FAIL +slow\.json m: read\.iops>=1000'
expect_in out '^ *PASS +cluster m: read\.ios==2112  2112, threshold 2112'
expect_in out '^checks: 2 passed, 2 failed, 0 n/a'
expect_in out 'slowest slow\.json'
run merge fast.json slow.json --check='rank:read.ios>=64' \
	--check='write.iops>=1'
expect_rc 0
expect_in out '^ *n/a +cluster m: write\.iops>=1'
echo "ok: pooled, not averaged"
