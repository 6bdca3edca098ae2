#!/bin/sh
# iorig merge of many members: exact figures in bounded memory. Three
# results of one job (null engine, reads and writes, different sizes and
# seeds, so their figures differ) given 200 times in turn. Outside truth:
# the members' own JSON documents, summed and pooled here in Python: each
# merged direction's counts are the sum of the members', each merged
# histogram's buckets the sum of theirs (count, min, max too), the cluster
# rows are each member's own ios, bytes, runtime and IOPS, the spread's
# min, median and max are those of the members' IOPS and the slowest is
# the first member of the least, and each member's own figures in the
# cluster part (what the merge keeps of it: its histograms' every
# bucket) are those of its document. Memory: the merge's peak RSS, from
# wait4's rusage, stays under 48 MB for the 200 members, in text and in
# json (a merge that kept each member's whole figures, 650 KB a job, took
# 142 MB here, 151 MB for the json document held whole); nothing here
# is timed.
# lane: parallel
. "$(dirname "$0")/lib.sh"

i=0
for s in 64m 128m 32m; do
	run --name=m --ioengine=null --rw=randrw --bs=4k --size=$s \
		--randseed=$((i + 7)) --number_ios=$((20000 + 7000 * i)) \
		--output-format=json
	expect_rc 0
	cp "$T/out" "$T/r$i.json" || die "cp"
	i=$((i + 1))
done
n=200
mkdir m || die "mkdir"
i=0
while [ $i -lt $n ]; do
	# m/000.json ... in the order the shell's glob gives them
	ln -s "../r$((i % 3)).json" "m/$(printf %03d $i).json" || die "ln"
	i=$((i + 1))
done

"$PY" - "$IORIG" "$n" <<'PYEOF' || die "the merge of $n members"
import glob, json, os, statistics, subprocess, sys
iorig, n = sys.argv[1], int(sys.argv[2])
files = sorted(glob.glob("m/*.json"))
assert len(files) == n
bad = []

def merge(fmt):
    """iorig merge of the files; its output and peak RSS (KB, wait4)."""
    with open("merged." + fmt, "wb") as out:
        p = subprocess.Popen([iorig, "merge", "--output-format=" + fmt] +
                             files, stdout=out, stderr=subprocess.PIPE)
        err = p.stderr.read()
        _, status, ru = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0 or err:
        sys.exit("merge --output-format=%s failed: %s" % (fmt, err))
    return ru.ru_maxrss

# A sanitizer build's memory is the sanitizer's (shadow, quarantine):
# the bound is the plain build's; the figures are checked in both.
limit = float("inf") if os.environ.get("IORIG_SAN") else 48 * 1024
rss = merge("text")
if rss > limit:
    bad.append("peak RSS %d KB for %d members (bound 48 MB)" % (rss, n))
# the JSON lists every member's own histograms: written one member at
# a time, never the whole document in memory
rss_json = merge("json")
if rss_json > limit:
    bad.append("peak RSS %d KB for %d members in json (bound 48 MB)" %
               (rss_json, n))
merged = json.load(open("merged.json"))
mem = [json.load(open(f)) for f in files]

def pooled(hs):
    b = {}
    for h in hs:
        for lo, hi, c in h["buckets"]:
            b[(lo, hi)] = b.get((lo, hi), 0) + c
    live = [h for h in hs if h["count"]]
    return (b, sum(h["count"] for h in hs),
            min(h["min"] for h in live) if live else None,
            max(h["max"] for h in live) if live else None)

def hist_of(h):
    return ({(lo, hi): c for lo, hi, c in h["buckets"]}, h["count"],
            h["min"] if h["count"] else None,
            h["max"] if h["count"] else None)

for ji, job in enumerate(merged["jobs"]):
    for d in ("read", "write"):
        mine = [m["jobs"][ji][d] for m in mem]
        x = job[d]
        if not x["ios"]:
            bad.append("%s: no I/O merged" % d)
        for k in ("ios", "io_bytes", "errors", "short_ios"):
            if x[k] != sum(y[k] for y in mine):
                bad.append("%s.%s %s != the members' sum %s" %
                           (d, k, x[k], sum(y[k] for y in mine)))
        for k in ("iops", "bw_bytes"):
            want = sum(y[k] for y in mine)
            if abs(x[k] - want) > 1e-9 * want:
                bad.append("%s.%s %s != the members' sum %s" %
                           (d, k, x[k], want))
        for hk in ("slat_ns", "clat_ns", "lat_ns"):
            if hist_of(x[hk]) != pooled([y[hk] for y in mine]):
                bad.append("%s.%s is not the members' pooled histogram" %
                           (d, hk))
        cd = merged["cluster"]["jobs"][ji][d]
        rows = cd["members"]
        if len(rows) != n:
            bad.append("%s: %d member rows" % (d, len(rows)))
            continue
        for i, (r, y, f) in enumerate(zip(rows, mine, files)):
            want = (f, y["ios"], y["io_bytes"], y["iops"],
                    mem[i]["jobs"][ji]["runtime_ns"])
            got = (r["label"], r["ios"], r["io_bytes"], r["iops"],
                   r["runtime_ns"])
            if got != want:
                bad.append("%s row %d: %s, its document says %s" %
                           (d, i, got, want))
                break
        iops = [y["iops"] for y in mine]
        sp = cd["iops_spread"]
        slow = files[iops.index(min(iops))]
        want = (min(iops), statistics.median(iops), max(iops), slow)
        got = (sp["min"], sp["median"], sp["max"], sp["slowest"])
        if got != want:
            bad.append("%s iops spread %s, the members' %s" %
                       (d, got, want))
        # each member's own figures, as the cluster part keeps them
        for i, cm in enumerate(merged["cluster"]["members"]):
            own = cm["jobs"][ji][d]
            for hk in ("clat_ns", "lat_ns"):
                if hist_of(own[hk]) != hist_of(mine[i][hk]):
                    bad.append("member %d's own %s.%s is not its "
                               "document's" % (i, d, hk))
                    break
if merged["cluster"]["nmembers"] != n:
    bad.append("nmembers %s" % merged["cluster"]["nmembers"])
if bad:
    sys.exit("\n".join(bad[:20]))
print("ok: %d members merged exactly, peak RSS %d KB (json: %d KB)" %
      (n, rss, rss_json))
PYEOF
echo "ok: $n members merged exactly in bounded memory"
