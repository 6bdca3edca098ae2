#!/bin/sh
# lane: parallel
# Rank 0 reads each rank's wire form into the same units and groups, kept
# zero between reads: only the words that are not zero are written, then
# cleared again (src/result/wire.c, result_wire_done). A word one member
# has and the next has not must not stay: `iorig merge` with
# IORIG_MERGE_WIRE=1 (each member after the first read from its wire
# form, through one reader) writes the same bytes as the merge of the
# files, with the member that has errors (ENOSPC on a full tmpfs,
# continue_on_error: first errors, error counts, its engine's name) and a
# warning between members that have none, and a last member whose
# histograms and counts are smaller than those before it. Outside truth:
# the merge of the results read from their files (tests 170 and 235
# check those against the members' own).
. "$(dirname "$0")/lib.sh"

tmpfs_mount "$T/m" 1m
truncate -s 4m m/sparse || die "truncate"
i=0
for t in f0:6m m/sparse:4m f1:7m f2:1m; do
	run --name=w --filename=${t%:*} --size=${t#*:} --rw=write --bs=4k \
		--continue_on_error=write --name=r --stonewall \
		--filename=${t%:*} --size=256k --rw=randread --bs=4k \
		--output-format=json
	[ $rc = 0 ] || [ $i = 1 ] || die "member $i: exit $rc"
	cp "$T/out" "$T/r$i.json" || die "cp"
	i=$((i + 1))
done
"$PY" - r0.json r1.json r2.json r3.json <<'PYEOF' || die "the members are not what this test needs"
import json, sys
d = [json.load(open(p)) for p in sys.argv[1:]]
errs = [x["jobs"][0]["write"].get("first_error") is not None for x in d]
if errs != [False, True, False, False]:
    print("write errors %r: expected member 1 alone with ENOSPC" % errs)
    sys.exit(1)
PYEOF

for f in text json json+ table; do
	for w in 0 1; do
		IORIG_MERGE_WIRE=$w "$IORIG" merge --output-format=$f \
			"$T"/r0.json "$T"/r1.json "$T"/r2.json "$T"/r3.json \
			>"$T/m$w.$f" 2>"$T/err"
		rc=$?
		[ $rc = 0 ] || die "$f: exit $rc: $(head -3 "$T/err")"
	done
	cmp -s "$T/m0.$f" "$T/m1.$f" ||
		die "$f: the wire form's merge differs: $(diff "$T/m0.$f" "$T/m1.$f" | head -5)"
done
# member 1 alone has first errors among the members' own figures
"$PY" - "$T/m1.json" <<'PYEOF' || die "a member after the errors has them"
import json, sys
d = json.load(open(sys.argv[1]))
def find(o, path=""):
    if isinstance(o, dict):
        for k, v in o.items():
            yield from find(v, path + "/" + k)
            if k == "first_error" and v is not None:
                yield path
    elif isinstance(o, list):
        for i, v in enumerate(o):
            yield from find(v, "%s[%d]" % (path, i))
hits = [h for h in find(d) if h.startswith("/cluster/members")]
if hits != ["/cluster/members[1]/jobs[0]/write"]:
    print("members' first errors at %r: expected member 1's alone" % hits)
    sys.exit(1)
PYEOF
exit 0
