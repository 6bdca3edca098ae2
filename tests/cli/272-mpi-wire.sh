#!/bin/sh
# iorig-mpi's rank 0 folds each rank's wire form (its figures as packed
# words, no JSON) and writes the same cluster report as the fold of the
# ranks' JSON documents. Outside truth: the ranks' own results
# (--rank-output) merged by `iorig merge`, and the JSON path kept behind
# IORIG_MPI_GATHER=1. Both MPI paths must give the merge's document but
# for what names a rank or depends on the start skew (merge knows
# neither): labels, ranks, the slowest and first/last members, skews,
# first/last done, the common window. Two jobs in two groups on files
# (targets), sizes that differ by rank, a failing exec_postrun (a warning
# per rank; buffered writes' warning depended on the disk's writeback
# and on other tests writing beside this one). Then a rank whose job differs (iodepth): both paths refuse with
# the same message naming the first such rank, exit 1, no report.
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
[w]
rw=write
size=1\${RANK}m
filename=$T/f.\${RANK}
[r]
stonewall
exec_postrun=false
rw=randread
size=2m
filename=$T/f.\${RANK}
JOB

for path in wire gather; do
	rm -f "$T"/f.* "$T"/rank.*
	if [ $path = gather ]; then
		IORIG_MPI_GATHER=1 mpi_run 4 --output-format=json \
			--rank-output="$T/rank" job
	else
		mpi_run 4 --output-format=json --rank-output="$T/rank" job
	fi
	expect_rc 0
	cp "$T/out" "$T/$path.json" || die "cp"
	"$IORIG" merge --output-format=json "$T"/rank.0.json "$T"/rank.1.json \
		"$T"/rank.2.json "$T"/rank.3.json >"$T/merged.json" ||
		die "iorig merge of the ranks' results failed"
	"$PY" - "$T/$path.json" "$T/merged.json" <<'PYEOF' || die "$path: the cluster report is not the merge of the ranks' results"
import json, sys
c = json.load(open(sys.argv[1]))
m = json.load(open(sys.argv[2]))
skip = {"label", "rank", "slowest", "member", "start_skew_ns",
        "start_skew_max_ns", "common_window_ns", "first_done", "last_done"}
bad = []
def diff(a, b, path):
    if type(a) != type(b):
        bad.append("%s: %r against %r" % (path, a, b))
    elif isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k in skip:
                continue
            if k not in a or k not in b:
                bad.append("%s/%s: in one only" % (path, k))
            else:
                diff(a[k], b[k], path + "/" + k)
    elif isinstance(a, list):
        if len(a) != len(b):
            bad.append("%s: %d against %d items" % (path, len(a), len(b)))
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, "%s[%d]" % (path, i))
    elif a != b:
        bad.append("%s: %r against %r" % (path, a, b))
diff(c, m, "")
cl = c["cluster"]
if cl["nmembers"] != 4 or [x["rank"] for x in cl["members"]] != [0, 1, 2, 3]:
    bad.append("members %r" % [x["label"] for x in cl["members"]])
# the ranks' own figures differ (sizes): the check above is not of copies
ios = [x["jobs"][0]["write"]["ios"] for x in cl["members"]]
if ios != [2560 + 256 * i for i in range(4)]:
    bad.append("members' write ios %r" % ios)
if not c.get("warnings"):
    bad.append("no warnings: the ranks' were not carried")
for b in bad[:20]:
    print(b)
sys.exit(1 if bad else 0)
PYEOF
done

# A rank's job differs: the same refusal on both paths.
cat >job2 <<JOB
[j]
ioengine=null
rw=read
bs=4k
size=1m
iodepth=1\${RANK}
JOB
for path in wire gather; do
	if [ $path = gather ]; then
		IORIG_MPI_GATHER=1 mpi_run 3 job2
	else
		mpi_run 3 job2
	fi
	expect_rc 1
	[ ! -s "$T/out" ] || die "$path: a report of jobs that differ"
	grep '^iorig: ' "$T/err" | grep -v '^iorig: warning' >"$T/why.$path"
	h=$(hostname)
	[ "$(cat "$T/why.$path")" = "iorig: the cluster report: rank 1 ($h): option 'iodepth': job 'j' differs: iodepth=10 in rank 0 ($h), iodepth=11 in rank 1 ($h) (only targets, sizes, offsets, seeds and CPUs may differ between members)" ] ||
		die "$path: refused with: $(cat "$T/why.$path")"
done
cmp -s "$T/why.wire" "$T/why.gather" ||
	die "the paths refuse differently: $(cat "$T/why.wire") / $(cat "$T/why.gather")"
exit 0
