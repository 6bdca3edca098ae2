#!/bin/sh
# SIGTERM to one rank only: that rank stops as one machine does (its
# figures up to the signal, marked interrupted), the others run their
# full time, and the cluster report still comes, with every rank in it;
# the exit status says the run was stopped. Outside truth: the job's
# runtime and when the signal was sent.
. "$(dirname "$0")/lib.sh"
. "$top/tests/cli/mpi.sh"
cat >job <<JOB
[j]
ioengine=null
rw=randread
bs=4k
size=64m
time_based
runtime=2s
JOB
t0=$(now_ms)
(mpi_run 2 --output-format=json job; echo $rc >rc) &
victim=""
n=0
while [ -z "$victim" ] && [ $n -lt 100 ]; do
	sleep 0.1
	n=$((n + 1))
	for p in $(pgrep -f "^$IORIG_MPI --output-format=json job"); do
		tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null |
			grep -qx 'OMPI_COMM_WORLD_RANK=1' && victim=$p
	done
done
[ -n "$victim" ] || die "no rank 1 process found"
# Signal only once the rank catches SIGTERM (bit 15 of SigCgt): on a busy
# machine MPI's start-up can take longer than any fixed sleep, and a
# signal before iorig's handler is a kill, not a stop.
n=0
until [ $n -ge 200 ] || "$PY" -c '
import sys
for l in open("/proc/%s/status" % sys.argv[1]):
    if l.startswith("SigCgt:"):
        sys.exit(0 if int(l.split()[1], 16) >> 14 & 1 else 1)
sys.exit(1)' "$victim" 2>/dev/null; do
	sleep 0.05
	n=$((n + 1))
done
[ $n -lt 200 ] || die "rank 1 never caught SIGTERM"
sleep 0.5
kill -TERM "$victim"
sent=$(($(now_ms) - t0))
wait
rc=$(cat rc)
took=$(($(now_ms) - t0))
[ "$took" -lt 20000 ] || die "took $took ms"
[ "$rc" -ne 0 ] || die "a rank was stopped and the run exited 0"
"$PY" - "$T/out" "$sent" <<'PYEOF' || die "the report with rank 1 stopped"
import json, sys
c = json.load(open(sys.argv[1]))
sent_ms = int(sys.argv[2])
m = c["cluster"]["members"]
assert [x["interrupted"] for x in m] == [False, True], [x["interrupted"] for x in m]
rt = [x["jobs"][0]["runtime_ns"] / 1e9 for x in m]
# rank 0 ran its 2 s; rank 1 stopped at the signal, well before.
assert 1.9 <= rt[0] <= 2.5, rt
assert rt[1] < 1.8 and rt[1] < sent_ms / 1000.0, (rt, sent_ms)
assert c["jobs"][0]["read"]["ios"] == sum(x["jobs"][0]["read"]["ios"] for x in m)
PYEOF
