#!/bin/sh
# interval= in a long run: memory stays flat. The report keeps at most 256
# samples per clone (a long run's are folded, adjacent pairs merged, so
# each covers 2, 4, ... intervals) and the stream, which carries every
# interval, frees what it has written. The truth is the kernel's peak RSS
# of the process (getrusage of the child): a run three times as long must
# not need more memory. The old code kept ~3 KB per interval per clone:
# 600 more intervals of 4 clones, ~7 MB more.
. "$(dirname "$0")/lib.sh"

# peak_kb ARGS...: runs iorig with ARGS (stdout in $T/out), prints its
# peak RSS in KiB; rc is its exit code.
peak_kb() {
	"$PY" - "$IORIG" "$@" <<'PYEOF'
import resource, subprocess, sys
with open("out", "wb") as out:
    rc = subprocess.run(sys.argv[1:], stdout=out,
                        stderr=subprocess.DEVNULL).returncode
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, rc)
PYEOF
}

JOB="--name=soak --ioengine=null --rw=randread --bs=4k --size=1m
	--time_based --interval=10ms --numjobs=4 --output-format=json"

for stream in "" "--stream=s.jsonl"; do
	set -- $(peak_kb $JOB --runtime=3 $stream)
	short=$1 rc=$2
	expect_rc 0
	rm -f s.jsonl
	set -- $(peak_kb $JOB --runtime=9 $stream)
	long=$1 rc=$2
	expect_rc 0
	echo "peak RSS${stream:+ with $stream}: 3 s ${short} KiB, 9 s ${long} KiB"
	[ $((long - short)) -lt 3072 ] ||
		die "peak RSS grew by $((long - short)) KiB from 3 s to 9 s" \
			"of interval=10ms${stream:+ with $stream}"
	# The report: at most 256 samples a clone, back to back, and they
	# add up to the totals.
	expect_json "all(len(j['intervals']) <= 256 for j in d['jobs'])"
	expect_json "all(sum(i['read']['ios'] for i in j['intervals']) == j['read']['ios'] for j in d['jobs'])"
	expect_json "all(all(a['end_ns'] == b['start_ns'] for a, b in zip(j['intervals'], j['intervals'][1:])) for j in d['jobs'])"
	expect_json "all(abs(j['intervals'][-1]['end_ns'] - j['runtime_ns']) < 1e6 for j in d['jobs'])"
	[ -n "$stream" ] || continue
	# The stream: every interval of every clone, about 900 each.
	"$PY" - "$T/out" s.jsonl <<'PYEOF' || die "the stream lacks intervals"
import json, sys, collections
d = json.load(open(sys.argv[1]))
n = collections.Counter()
ios = collections.Counter()
for line in open(sys.argv[2]):
    x = json.loads(line)
    n[x["clone"]] += 1
    ios[x["clone"]] += x["read"]["ios"]
for j in d["jobs"]:
    c = j["clone"]
    want = -(-j["runtime_ns"] // 10000000)
    if abs(n[c] - want) > 1 or ios[c] != j["read"]["ios"]:
        sys.exit("clone %d: %d lines, %d ios; want %d lines, %d ios"
                 % (c, n[c], ios[c], want, j["read"]["ios"]))
PYEOF
done
exit 0
