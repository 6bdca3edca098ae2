#!/bin/sh
# iorig-mpi under mpirun with 1, 2 and 4 ranks on this machine. Each rank
# runs the job on its own file (${RANK} in the job file); rank 0 writes
# the cluster report. Outside truth: the ranks' own JSON results
# (--rank-output, written by each rank before the gather) and the job's
# sizes. The cluster histograms hold every rank's I/Os (count = the sum
# of the ranks' = ranks x size/bs) in the sum of their buckets; each
# cluster percentile falls in the pooled bucket of its rank ceil(p/100*n);
# the figures equal `iorig merge` of the ranks' files (the gather is the
# same path); the per-rank rows are the ranks' own and add up to the
# aggregate; each rank's target is its own (the substitutions).
# Counts, bytes and documents, no time: the parallel lane, one mpirun
# at a time (4 ranks oversubscribe 2 CPUs).
# lane: parallel
# lock: mpi
. "$(dirname "$0")/lib.sh"
. "$top/tests/cli/mpi.sh"

cat >job <<JOB
[global]
ioengine=psync
bs=4k
size=2m
[w]
rw=write
filename=$T/f.\${RANK}.of.\${NRANKS}.\${LOCAL_RANK}.\${HOSTNAME}
[r]
stonewall
rw=randread
filename=$T/f.\${RANK}.of.\${NRANKS}.\${LOCAL_RANK}.\${HOSTNAME}
JOB
host=$(hostname)

for n in 1 2 4; do
	rm -f "$T"/f.* "$T"/rank.*
	mpi_run $n --output-format=json --rank-output="$T/rank" job
	expect_rc 0
	cp "$T/out" "$T/cluster$n.json" || die "cp"
	# Each rank wrote its own file: ${RANK}, ${NRANKS}, ${LOCAL_RANK}
	# (one host: the same as the rank) and ${HOSTNAME}.
	i=0
	while [ $i -lt $n ]; do
		[ "$(fsize "$T/f.$i.of.$n.$i.$host")" = 2097152 ] ||
			die "rank $i did not write f.$i.of.$n.$i.$host"
		[ -s "$T/rank.$i.json" ] || die "no rank.$i.json"
		i=$((i + 1))
	done
	[ ! -e "$T/rank.$n.json" ] || die "rank.$n.json: more ranks than $n"
	"$IORIG" merge --output-format=json "$T"/rank.*.json >"$T/merged.json" \
		2>"$T/err" || die "iorig merge of the ranks' results failed"
	"$PY" - "$T/cluster$n.json" "$T/merged.json" "$n" "$host" \
		"$T"/rank.*.json <<'PYEOF' || die "$n ranks: the cluster figures are not the ranks' pooled ones"
import json, sys
from fractions import Fraction
c = json.load(open(sys.argv[1]))
m = json.load(open(sys.argv[2]))
n = int(sys.argv[3])
host = sys.argv[4]
ranks = [json.load(open(p)) for p in sorted(sys.argv[5:],
         key=lambda p: int(p.split(".")[-2]))]
bad = []
cl = c["cluster"]
if cl["nmembers"] != n or len(ranks) != n:
    bad.append("members %d, ranks %d, expected %d" % (cl["nmembers"], len(ranks), n))
for i, mem in enumerate(cl["members"]):
    if mem["rank"] != i or mem["label"] != "rank %d (%s)" % (i, host) or mem["host"] != host:
        bad.append("member %d: %r" % (i, mem["label"]))
    if not mem["start_skew_ns"] >= 0:
        bad.append("member %d: start skew %r" % (i, mem["start_skew_ns"]))
# Each rank's largest delay over the two groups behind the earliest.
if n == 1 and cl["members"][0]["start_skew_ns"] != 0:
    bad.append("one rank, start skew %r" % cl["members"][0]["start_skew_ns"])
if max(x["start_skew_ns"] for x in cl["members"]) >= 10e9:
    bad.append("start skews of 10 s or more")
if cl["start_skew_max_ns"] != max(x["start_skew_ns"] for x in cl["members"]):
    bad.append("start_skew_max_ns is not the members' largest")
ios_expected = {"w": ("write", 512), "r": ("read", 512)}
for k, job in enumerate(c["jobs"]):
    d, per_rank = ios_expected[job["name"]]
    h = job[d]["clat_ns"]
    rh = [r["jobs"][k][d]["clat_ns"] for r in ranks]
    if h["count"] != sum(x["count"] for x in rh) or h["count"] != n * per_rank:
        bad.append("%s: count %d, ranks' %r, expected %d" % (job["name"], h["count"], [x["count"] for x in rh], n * per_rank))
    pooled = {}
    for x in rh:
        for lo, hi, cnt in x["buckets"]:
            pooled[(lo, hi)] = pooled.get((lo, hi), 0) + cnt
    mine = {(lo, hi): cnt for lo, hi, cnt in h["buckets"]}
    if mine != pooled:
        bad.append("%s: buckets are not the ranks' summed" % job["name"])
    order = sorted(pooled)
    for key, v in h["percentiles"].items():
        rk = max(1, -((-Fraction(key) * h["count"]) // 100))
        seen = 0
        for lo, hi in order:
            seen += pooled[(lo, hi)]
            if seen >= rk:
                break
        if not (min(lo, h["min"]) <= v <= max(hi, h["max"]) and
                (lo <= v <= hi or rk in (1, h["count"]))):
            bad.append("%s p%s=%d not in the pooled bucket [%d,%d] of rank %d" % (job["name"], key, v, lo, hi, rk))
    if job[d] != m["jobs"][k][d]:
        bad.append("%s: %s differs from iorig merge of the ranks' files" % (job["name"], d))
    cd = cl["jobs"][k][d]
    rows = cd["members"]
    for i, row in enumerate(rows):
        own = ranks[i]["jobs"][k][d]
        if row["ios"] != own["ios"] or row["io_bytes"] != own["io_bytes"] or abs(row["iops"] - own["iops"]) > 1e-6 * own["iops"]:
            bad.append("%s: row %d is not rank %d's own" % (job["name"], i, i))
    if sum(r["ios"] for r in rows) != job[d]["ios"] or job[d]["ios"] != n * per_rank:
        bad.append("%s: rows' ios do not add up to %d" % (job["name"], job[d]["ios"]))
    if sum(r["io_bytes"] for r in rows) != job[d]["io_bytes"]:
        bad.append("%s: rows' bytes do not add up" % job["name"])
    if abs(sum(r["iops"] for r in rows) - job[d]["iops"]) > 1e-6 * job[d]["iops"]:
        bad.append("%s: aggregate iops %r is not the ranks' sum" % (job["name"], job[d]["iops"]))
    hr = cd["hosts"]
    if len(hr) != 1 or hr[0]["host"] != host or hr[0]["members"] != n or hr[0]["ios"] != n * per_rank:
        bad.append("%s: host rows %r" % (job["name"], hr))
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PYEOF
done

# The text report (the default) comes from rank 0 alone.
mpi_run 2 job
expect_rc 0
expect_in out '^cluster: 2 members on 1 host'
[ "$(grep -c '^cluster:' "$T/out")" = 1 ] || die "more than one cluster report"
