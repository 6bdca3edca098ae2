#!/bin/sh
# lane: parallel
# The wire form an MPI rank sends rank 0 (src/result/wire.c) carries all
# that the fold reads of a member: `iorig merge` with IORIG_MERGE_WIRE=1
# (each member after the first folded from its wire form) writes the same
# bytes as the merge of the results read from their files, in every
# format, with cluster and rank: checks. Outside truth: the merge of the
# files (whose figures tests 170 and 235 check against the members'
# own). Members that differ in all the wire form carries: sizes (counts,
# histograms), two reporting groups, targets (a file per member), first
# errors (ENOSPC on a full tmpfs, continue_on_error), warnings (buffered
# writes), CPU and wall time.
. "$(dirname "$0")/lib.sh"

tmpfs_mount "$T/m" 1m
truncate -s 4m m/sparse || die "truncate"
i=0
for t in f0:10m f1:11m m/sparse:4m; do
	run --name=w --filename=${t%:*} --size=${t#*:} --rw=write --bs=4k \
		--continue_on_error=write --name=r --stonewall \
		--filename=${t%:*} --size=512k --rw=randread --bs=4k \
		--output-format=json
	[ $rc = 0 ] || [ $i = 2 ] || die "member $i: exit $rc"
	cp "$T/out" "$T/r$i.json" || die "cp"
	i=$((i + 1))
done
"$PY" - r0.json r1.json r2.json <<'PYEOF' || die "the members are not what this test needs"
import json, sys
d = [json.load(open(p)) for p in sys.argv[1:]]
errs = [x["jobs"][0]["write"].get("first_error") is not None for x in d]
if errs != [False, False, True]:
    print("write errors %r: expected one member with ENOSPC" % errs)
    sys.exit(1)
if not any(x.get("warnings") for x in d):
    print("no member has a warning")
    sys.exit(1)
PYEOF

for f in text json fio-json json+ terse table html junit openmetrics; do
	for w in 0 1; do
		IORIG_MERGE_WIRE=$w "$IORIG" merge --output-format=$f \
			--check='read.iops>=1' --check='rank:write.errors<=0' \
			"$T"/r0.json "$T"/r1.json "$T"/r2.json >"$T/m$w.$f" \
			2>"$T/err"
		rc=$?
		[ $rc = 3 ] || die "$f: exit $rc, expected 3 (rank 2's errors)"
	done
	cmp -s "$T/m0.$f" "$T/m1.$f" ||
		die "$f: the wire form's merge differs: $(diff "$T/m0.$f" "$T/m1.$f" | head -5)"
done
exit 0
