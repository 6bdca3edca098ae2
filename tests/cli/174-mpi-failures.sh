#!/bin/sh
# iorig-mpi failures never hang and name the rank and host:
# - a rank whose target cannot be created (found before the run): every
#   rank stops before writing anything, each saying which rank failed;
# - a rank whose target cannot be opened when its wait group starts
#   (made immutable after the plan, while the first group runs): the
#   group runs nowhere, the other ranks' files of that group are not
#   touched, and the message names rank 1 and the reason;
# - a rank killed with SIGKILL mid-run: mpirun ends the job within
#   seconds, non-zero, naming the rank;
# - SIGINT at mpirun: the ranks stop as on one machine (SIGTERM from
#   mpirun) and rank 0 still writes the partial cluster report.
# Its times are bounds far from what it takes (15 s, 30 s) and it waits
# for events (a rank's handler, its file), not for a time: the parallel
# lane, one mpirun at a time (passed twice at a load of 15 on 2 CPUs).
# lane: parallel
# lock: mpi
. "$(dirname "$0")/lib.sh"
. "$top/tests/cli/mpi.sh"
host=$(hostname)

# 1. Rank 1's directory does not exist.
mkdir d0 d2
cat >job1 <<JOB
[j]
ioengine=psync
rw=write
bs=4k
size=1m
filename=$T/d\${RANK}/f
JOB
t0=$(now_ms)
mpi_run 3 job1
[ $(($(now_ms) - t0)) -lt 30000 ] || die "took $(($(now_ms) - t0)) ms"
[ "$rc" -ne 0 ] || die "a rank failed and the run exited 0"
expect_in err "d1/f.*directory .*does not exist"
expect_in err "^iorig: nothing was run: rank 1 \\($host\\) failed: .*d1/f"
[ "$(grep -c 'nothing was run' "$T/err")" = 1 ] || die "said by more than rank 0"
expect_dir_empty d0
expect_dir_empty d2
expect_empty out

# A bad --check is a usage error before anything runs.
mpi_run 2 --check='read.iopz>=1' job1
expect_rc 2
expect_in err "option 'check'.*iopz"
expect_dir_empty d0
expect_empty out

# 2. Rank 1's second-group file becomes immutable after the plan.
if ! { : >probe && chattr +i probe 2>/dev/null && chattr -i probe; }; then
	echo "note: chattr +i does not work in $T: part 2 left out"
else
	for i in 0 1; do head -c 1048576 /dev/zero >g.$i; done
	cat >job2 <<JOB
[first]
ioengine=psync
rw=write
bs=4k
size=1m
filename=$T/f.\${RANK}
time_based
runtime=1s
[second]
stonewall
ioengine=psync
rw=write
bs=4k
size=1m
filename=$T/g.\${RANK}
JOB
	before=$(sum_range g.0 0 1048576)
	trap 'chattr -i "$T/g.1" 2>/dev/null; cd /; rm -rf "$T"' EXIT
	t0=$(now_ms)
	(mpi_run 2 job2; echo $rc >rc2) &
	n=0
	while [ ! -e f.1 ] && [ $n -lt 400 ]; do sleep 0.05; n=$((n + 1)); done
	[ -e f.1 ] || die "the first group never started"
	chattr +i g.1 || die "chattr +i"
	wait
	rc=$(cat rc2)
	[ $(($(now_ms) - t0)) -lt 30000 ] || die "took $(($(now_ms) - t0)) ms"
	chattr -i g.1
	[ "$rc" -ne 0 ] || die "rank 1 could not open its file and the run exited 0"
	expect_in err "job 'second': not run: rank 1 \\($host\\) failed: job 'second': .*g\\.1.*(not permitted|EPERM)"
	[ "$(sum_range g.0 0 1048576)" = "$before" ] ||
		die "rank 0 wrote its second-group file though rank 1 failed"
fi

# 3. Rank 1 killed mid-run.
cat >job3 <<JOB
[j]
ioengine=null
rw=randread
bs=4k
size=64m
time_based
runtime=30s
JOB
(mpi_run 3 job3; echo $rc >rc3) &
# The rank-1 process: its environment (NUL-separated) says so. Killed
# once it runs its job: iorig catches SIGTERM then (bit 15 of SigCgt),
# and a moment after (rather than a fixed 1.5 s from the start, which a
# loaded machine's MPI start-up can outlast).
victim=""
n=0
while [ -z "$victim" ] && [ $n -lt 200 ]; do
	sleep 0.05
	n=$((n + 1))
	for p in $(pgrep -f "^$IORIG_MPI job3"); do
		tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null |
			grep -qx 'OMPI_COMM_WORLD_RANK=1' && victim=$p
	done
done
[ -n "$victim" ] || die "no rank 1 process found"
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
sleep 0.3
t0=$(now_ms)
kill -9 "$victim"
wait
rc=$(cat rc3)
took=$(($(now_ms) - t0))
[ "$took" -lt 15000 ] || die "mpirun took $took ms after a rank was killed"
[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] || die "exit $rc after a rank was killed"
expect_in err "rank 1 .*on node $host .*signal 9"
[ -z "$(pgrep -f "^$IORIG_MPI job3")" ] || die "ranks left running"

# 4. SIGINT at mpirun: the partial cluster report, all ranks in it.
# Open MPI sends SIGCONT, then after odls_base_sigkill_timeout SIGTERM,
# then as long again SIGKILL: 1 s by default is short for a loaded
# machine to gather and write; 3 s here.
# The signal comes once both ranks' jobs run (their files have data),
# not during MPI_Init, which a loaded machine can stretch past a second
# (a fixed sleep of 1.5 s, then 4 s, was too short once each).
# (Not --progress to see it: a rank writing to stderr after mpirun's
# SIGINT dies on the closed pipe before its report.)
cat >job4 <<JOB
[j]
ioengine=psync
rw=write
bs=4k
size=16m
time_based
runtime=30s
filename=$T/s.\${RANK}
JOB
# timeout --foreground: without it timeout passes the SIGINT on to mpirun
# and to its own process group, mpirun included, so mpirun could get it
# twice, and a second SIGINT makes mpirun quit at once (no report, rc 1
# within 20 ms: 2 of 15 runs), as a user's second Ctrl-C would.
timeout --foreground -k 5 60 mpirun --mca odls_base_sigkill_timeout 3 \
	-np 2 "$IORIG_MPI" --output-format=json \
	--output="$T/partial.json" job4 >"$T/out" 2>"$T/err" &
mp=$!
n=0
while { [ ! -s s.0 ] || [ ! -s s.1 ]; } && [ $n -lt 600 ]; do
	sleep 0.05; n=$((n + 1))
done
[ -s s.0 ] && [ -s s.1 ] || die "the ranks' jobs never started"
sleep 0.5
t0=$(now_ms)
kill -INT $mp
wait $mp
took=$(($(now_ms) - t0))
[ "$took" -lt 15000 ] || die "mpirun took $took ms after SIGINT"
[ -s partial.json ] || die "no partial cluster report after SIGINT"
"$PY" - partial.json <<'PYEOF' || die "the partial report after SIGINT"
import json, sys
c = json.load(open(sys.argv[1]))
ms = c["cluster"]["members"]
assert len(ms) == 2, len(ms)
assert all(m["interrupted"] for m in ms), [m["interrupted"] for m in ms]
assert c["jobs"][0]["write"]["ios"] > 0
# Stopped early: far less than the 30 s runtime.
assert all(m["wall_ns"] < 20e9 for m in ms), [m["wall_ns"] for m in ms]
PYEOF
