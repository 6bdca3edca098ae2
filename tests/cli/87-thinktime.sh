#!/bin/sh
# thinktime and its options, with fio's meaning, against outside truths:
# - the stalls are the worker's sleeps that strace sees (thinktime=37ms:
#   one sleep of about 37 ms each): after every thinktime_blocks I/Os,
#   the last one included, as fio stalls (sync: 10 I/Os, blocks=1 -> 10
#   stalls, blocks=3 -> 3; libaio iodepth=4, issue, blocks=4 -> 2);
# - the stalls are in the runtime and reported: 10 x 100 ms takes at
#   least a second of the process's wall clock, runtime_ns >= think_ns
#   ~ 1 s, and the I/Os' latencies do not include them;
# - thinktime_spin spins: the process's user CPU time (getrusage of the
#   child) rises by the spin, and not without it;
# - thinktime_iotime stalls by time; runtime= cuts a stall short, and a
#   signal ends one at once;
# - thinktime_* without thinktime, and more spin than think, warn.
# lane: paced
. "$(dirname "$0")/lib.sh"

mkrand f.dat 1048576

# ---- 10 stalls of 100 ms: in the runtime, reported, not in latencies ----
t0=$(now_ms)
run --name=t --filename=f.dat --size=1m --bs=4k --rw=write \
	--thinktime=100ms --number_ios=10 --output-format=json
t1=$(now_ms)
expect_rc 0
[ $((t1 - t0)) -ge 1000 ] || die "10 stalls of 100 ms took $((t1 - t0)) ms"
json_is "d['jobs'][0]['write']['ios']" 10
expect_json "1.0e9 <= d['jobs'][0]['think_ns'] <= 1.3e9" "think_ns ~ 1 s"
expect_json "d['jobs'][0]['runtime_ns'] >= d['jobs'][0]['think_ns']"
expect_json "d['jobs'][0]['runtime_ns'] <= ($t1 - $t0) * 1e6" \
	"runtime within the wall clock"
expect_json "d['jobs'][0]['write']['clat_ns']['max'] < 50e6" \
	"the stalls are not in the latencies"
expect_json "d['jobs'][0]['write']['iops'] < 10.5" "IOPS over the runtime"
json_is "d['groups'][0]['think_ns'] == d['jobs'][0]['think_ns']" True
# thinktime's bare numbers are microseconds, as in fio.
run --name=t --filename=f.dat --size=1m --thinktime=1500 --parse-only
expect_rc 0
expect_in out '^  thinktime=1500us$'
# The text report says how much of the runtime was thinking: 5 stalls
# of 20 ms, and as think_ns above, up to 30% more (each sleep's
# overshoot: 114 ms once with three other timing tests beside it).
run --name=t --filename=f.dat --size=1m --bs=4k --rw=read \
	--thinktime=20ms --number_ios=5
expect_rc 0
expect_in out '^  of the runtime: think 1[0-2][0-9]\.[0-9]{2}ms$'

# ---- the stalls, counted by strace ----
if strace_works; then
	# stalls ARGS...: runs iorig under strace with thinktime=17ms;
	# prints the sleeps of ~17 ms (one a stall: a stall sleeps in steps
	# of 20 ms at most, and the main thread sleeps 20 ms steps; the
	# clock's calibration sleeps to a deadline, TIMER_ABSTIME, whose
	# nanoseconds may be anything).
	stalls() {
		strace -f -e trace=nanosleep,clock_nanosleep -o st.log \
			"$IORIG" --name=s --filename=f.dat --size=1m --bs=4k \
			--thinktime=17ms --output-format=json "$@" >out 2>err
		rc=$?
		expect_rc 0
		grep -v TIMER_ABSTIME st.log |
			grep -Ec 'nanosleep\(.*tv_nsec=1[67][0-9]{6}\}'
	}
	n=$(stalls --rw=write --number_ios=10)
	[ "$n" = 10 ] || die "blocks=1, 10 I/Os: $n stalls, expected 10"
	n=$(stalls --rw=randread --number_ios=10 --thinktime_blocks=3)
	[ "$n" = 3 ] || die "blocks=3, 10 I/Os: $n stalls, expected 3"
	n=$(stalls --rw=read --number_ios=10 --thinktime_blocks=3 \
		--thinktime_blocks_type=issue)
	[ "$n" = 3 ] || die "blocks=3 (issue), 10 I/Os: $n stalls, expected 3"
	run --name=p --filename=f.dat --size=64k --ioengine=libaio \
		--direct=1 --output-format=json
	if [ "$rc" -eq 0 ]; then
		n=$(stalls --rw=write --number_ios=10 --ioengine=libaio \
			--iodepth=4 --direct=1 --thinktime_blocks=4 \
			--thinktime_blocks_type=issue)
		[ "$n" = 2 ] || die "libaio, issue, blocks=4: $n stalls, not 2"
		n=$(stalls --rw=write --number_ios=10 --ioengine=libaio \
			--iodepth=4 --direct=1 --thinktime_blocks_type=issue)
		[ "$n" = 10 ] || die "libaio, issue, blocks=1: $n stalls, not 10"
	else
		echo "note: libaio cannot run here; its stall counts not checked"
	fi
else
	echo "note: no strace: stall counts not checked"
fi

# ---- thinktime_spin burns CPU, a plain stall does not ----
# cpu ARGS...: "USER JOB_USER": iorig's user CPU seconds as
# getrusage(RUSAGE_CHILDREN) has it, and as its report does.
cpu() {
	"$PY" -c 'import json, resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
u = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
j = json.loads(r.stdout)["jobs"][0]["cpu"]["user_ns"] / 1e9 if r.returncode == 0 else -1
print("%.3f %.3f" % (u, j))' \
		$rt "$IORIG" --name=c --filename=f.dat --size=1m --bs=4k \
		--number_ios=3 --thinktime=150ms --output-format=json "$@"
}
# The spin is by the clock: on a busy machine the thread gets less CPU
# than that, so only half of it is asked for.
# On a machine loaded by other work even that can fail (a busy loop got
# a third of its wall time under a load of 13): the spinning run gets a
# real-time priority when it can (root), and up to three tries.
rt=
chrt -f 1 true 2>/dev/null && rt="chrt -f 1"
seen=
for try in 1 2 3; do
	u=$(cpu --thinktime_spin=150ms)
	seen="$seen $u;"
	"$PY" -c "import sys; u, j = map(float, '$u'.split()); sys.exit(not (u >= 0.22 and j >= 0.22 and j <= u + 0.01))" &&
		break
	[ "$try" = 3 ] &&
		die "3 stalls spinning 150 ms each: user CPU (process, job) of three tries:$seen expected ~0.45"
done
# The sleeping stalls add no CPU to the same run without them: the
# program's own start (0.1 s of user CPU under the sanitizers) is
# measured, not assumed.
rt=
u=$(cpu)
u0=$(cpu --thinktime=0)
"$PY" -c "import sys; u, u0 = float('$u'.split()[0]), float('$u0'.split()[0]); sys.exit(not (u - u0 < 0.1))" ||
	die "sleeping stalls: user CPU $u s against $u0 s without stalls, expected ~0 more"

# ---- thinktime_iotime: stalls by time; runtime cuts a stall short ----
# 0.5 s: I/O 0.15 s, stall 0.1 s, I/O 0.15 s, stall 0.1 s (the end).
run --name=i --filename=f.dat --size=1m --bs=4k --rw=randread \
	--time_based --runtime=500ms --thinktime=100ms \
	--thinktime_iotime=150ms --output-format=json
expect_rc 0
expect_json "0.15e9 <= d['jobs'][0]['think_ns'] <= 0.25e9" "two stalls of 0.1 s"
expect_json "0.48e9 <= d['jobs'][0]['runtime_ns'] <= 0.7e9"
t0=$(now_ms)
run --name=i --filename=f.dat --size=1m --bs=4k --time_based \
	--runtime=300ms --thinktime=10s --output-format=json
t1=$(now_ms)
expect_rc 0
[ $((t1 - t0)) -lt 2000 ] || die "runtime=300ms: a 10 s stall took $((t1 - t0)) ms"
expect_json "0.25e9 <= d['jobs'][0]['think_ns'] <= 0.4e9"
# A signal ends a stall.
"$IORIG" --name=i --filename=f.dat --size=1m --thinktime=30s \
	--output-format=json >out 2>err &
pid=$!
sleep 0.5
t0=$(now_ms)
kill -INT $pid
wait_gone $pid 3
t1=$(now_ms)
[ $((t1 - t0)) -lt 1000 ] || die "SIGINT in a stall: $((t1 - t0)) ms to exit"
json_is "d['interrupted']" True

# ---- warnings ----
run --name=w --filename=f.dat --size=1m --thinktime_blocks=4 \
	--parse-only
expect_rc 0
expect_in err "warning: .*job 'w': thinktime_blocks has no effect without thinktime"
run --name=w --filename=f.dat --size=64k --thinktime=1ms \
	--thinktime_spin=2ms --number_ios=2 --output-format=json
expect_rc 0
expect_json "[w['code'] for w in d['warnings']] == ['thinktime_spin_clamped']"
echo "ok"
