#!/bin/sh
# rate_iops= against a device of known speed: a loop device whose reads the
# block layer throttles to 500 IOPS (cgroup blkio, or io.max with cgroup
# v2 only). The truth is outside iorig: the throttle's capacity, the
# device's read count in /sys/block/*/stat, and the time of each read's
# system call as strace sees it.
# - Below capacity (200 IOPS): the reads go at 200 per second within 1%,
#   by strace's clock; poisson gaps pass a Kolmogorov-Smirnov test against
#   the exponential distribution of mean 5 ms, and linear gaps (the
#   control, so that the test can fail) do not.
# - Above capacity (1000 IOPS): the report says the rate was missed, the
#   device did 500 IOPS, and sched_lat (from when each read was due) is
#   far above lat (from its issue) and grows with the runtime.
# - A device that completes nothing while the job runs (throttled to 1
#   read a second): the rate is missed, the reads due and never issued
#   are the backlog and the first of them sets the lag (the one read
#   issued, on time, once made the report say the rate was met).
# - rate_iops_min above the device's 500 IOPS fails the job (after fio's
#   2 s settle period); below, not.
# lane: serial (its 1000 IOPS asked of the throttled 500 came out
# outside 400-650 once in CI run 48's paced lane, three tests at a time,
# and it failed once in 21 rounds four at a time: its device throttle's
# slices are not to be shared)
. "$(dirname "$0")/lib.sh"
py_serve

command -v strace >/dev/null 2>&1 || skip "needs strace"
loop_disk disk.img 16
mm=$(lsblk -dno MAJ:MIN "$dev" 2>/dev/null | tr -d ' ')
[ -n "$mm" ] || skip "cannot read the major:minor of $dev"

# A cgroup that holds the device to 500 read IOPS, removed at exit;
# limit N holds it to N.
cg=
limit() {
	if [ -e "$cg/blkio.throttle.read_iops_device" ]; then
		echo "$mm $1" >"$cg/blkio.throttle.read_iops_device"
	else
		echo "$mm riops=$1" >"$cg/io.max"
	fi || die "cannot throttle $dev to $1 IOPS"
}
if [ -e /sys/fs/cgroup/blkio/blkio.throttle.read_iops_device ]; then
	cg=/sys/fs/cgroup/blkio/iorig-rate.$$
	mkdir "$cg" 2>/dev/null || skip "cannot make a blkio cgroup"
	echo "$mm 500" >"$cg/blkio.throttle.read_iops_device" 2>/dev/null ||
		{ rmdir "$cg"; skip "blkio throttling refused $mm"; }
elif grep -qw io /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	cg=/sys/fs/cgroup/iorig-rate.$$
	echo +io >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
	mkdir "$cg" 2>/dev/null || skip "cannot make a cgroup v2 group"
	echo "$mm riops=500" >"$cg/io.max" 2>/dev/null ||
		{ rmdir "$cg"; skip "io.max refused $mm"; }
else
	skip "no cgroup blkio or io controller to throttle a device"
fi
trap 'losetup -d "$dev" 2>/dev/null; rmdir "$cg" 2>/dev/null; cd /; rm -rf "$T"' EXIT

# throttled CALL ARGS...: iorig in the throttled cgroup, its CALL system
# calls (pread64, io_submit) traced; stdout in $T/out, the trace in
# $T/trace.
throttled() {
	_call=$1
	shift
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" \
		strace -f --seccomp-bpf -qq -ttt -e trace="$_call" \
		-o "$T/trace" "$IORIG" --name=r --filename="$dev" --direct=1 \
		--rw=randread --bs=4k --output-format=json "$@" \
		>"$T/out" 2>"$T/err"
	rc=$?
}

reads() {
	dev_stat "$dev" 1
}

# gaps.py TRACE MEAN: the traced calls that issued one read (pread64 of
# 4096 bytes, io_submit of 1) -> how many, their rate, the KS distance of
# their gaps to the exponential distribution of mean MEAN s, and the
# critical distance at the 1% level. The rate is the least-squares slope
# of the reads' times against their count, not the first and last read's
# span alone: in a CI run the span's rate was 202.6 where iorig's own
# count was within 1% of 200, as a first read 19 ms late gives (the
# reads due meanwhile then go at once, as linear asks).
cat >gaps.py <<'EOF'
import math, re, sys
t = sorted(float(l.split()[1]) for l in open(sys.argv[1])
           if re.search(r'(pread64\(.*= 4096|io_submit\(.*= 1)$', l.strip()))
mean = float(sys.argv[2])
g = sorted(b - a for a, b in zip(t, t[1:]))
n = len(g)
d = max(max((i + 1) / n - (1 - math.exp(-x / mean)),
            (1 - math.exp(-x / mean)) - i / n) for i, x in enumerate(g))
mi, mt = (len(t) - 1) / 2, sum(t) / len(t)
slope = (sum((i - mi) * (x - mt) for i, x in enumerate(t)) /
         sum((i - mi) ** 2 for i in range(len(t))))
print(len(t), 1 / slope, d, 1.63 / math.sqrt(n))
EOF

# check_gaps: the traced reads; how many, their rate, the KS distance.
check_gaps() {
	set -- $("$PY" gaps.py "$T/trace" 0.005)
	n=$1 rate=$2 ks_d=$3 ks_crit=$4
}

R="d['jobs'][0]['read']"

# Below capacity, linear: 200 reads a second, evenly.
before=$(reads)
throttled pread64 --rate_iops=200 --runtime=1500ms --time_based
expect_rc 0
json_is "$R['rate']['met']" True
json_is "$R['rate']['target_iops']" 200.0
json_is "$R['rate']['backlog_ios']" 0
expect_json "abs($R['iops'] - 200) <= 2" "achieved within 1% of 200"
json_is "$R['ios']" $(($(reads) - before))
check_gaps
[ "$n" -ge 295 ] || die "linear: strace saw $n reads, expected about 300"
"$PY" -c "import sys; sys.exit(abs($rate - 200) > 2)" ||
	die "linear: strace saw $rate reads/s, expected 200 within 1%"
"$PY" -c "import sys; sys.exit($ks_d <= $ks_crit)" ||
	die "linear gaps passed as exponential (KS D $ks_d <= $ks_crit)"

# Below capacity, poisson: exponential gaps of mean 5 ms. Through libaio
# with room in the queue, a read is issued when it falls due whatever is
# in flight.
# A true exponential fails a 1% test once in a hundred runs, and a loaded
# machine delays some calls: a second try (both failing: 1 in 10^4).
for try in 1 2; do
	throttled io_submit --rate_iops=200 --rate_process=poisson \
		--runtime=1500ms --time_based --ioengine=libaio --iodepth=16
	expect_rc 0
	json_is "$R['rate']['process']" poisson
	json_is "$R['rate']['met']" True
	check_gaps
	[ "$n" -ge 200 ] ||
		die "poisson: strace saw $n reads, expected about 300"
	"$PY" -c "import sys; sys.exit($ks_d > $ks_crit)" && break
	[ "$try" = 2 ] &&
		die "poisson gaps fail the KS test twice: D $ks_d > $ks_crit"
done

# Above capacity: 1000 a second asked of a 500 IOPS device. Twice, for
# 0.5 s and 1 s: the wait for a turn grows with time, the service does
# not.
for t in 500 1000; do
	before=$(reads)
	throttled pread64 --rate_iops=1000 --runtime=${t}ms --time_based
	expect_rc 0
	json_is "$R['rate']['met']" False
	expect_json "$R['rate']['backlog_ios'] > 0" "a backlog at the end"
	json_is "$R['ios']" $(($(reads) - before))
	# 500 a second, give or take the slice (50 reads) blk-throttle
	# lets through at the start of a short run.
	expect_json "400 <= $R['iops'] <= 650" "the device's 500 IOPS"
	# blk-throttle lets reads through in bursts, one slice (100 ms) at
	# a time: a read's service is short or up to a slice, its wait for
	# a turn grows by half a second a second.
	expect_json "$R['sched_lat_ns']['mean'] > 10 * $R['clat_ns']['mean']" \
		"sched_lat far above clat (= lat)"
	eval "sched_$t=\$(json \"$R['sched_lat_ns']['percentiles']['99']\")"
	eval "lat_$t=\$(json \"$R['clat_ns']['percentiles']['99']\")"
done
"$PY" -c "import sys; sys.exit(not $sched_1000 > 1.6 * $sched_500)" ||
	die "sched_lat p99 did not grow with time: $sched_500 then $sched_1000"
"$PY" -c "import sys; sys.exit(not $lat_1000 < 2 * $lat_500 + 1e6)" ||
	die "lat p99 grew with time: $lat_500 then $lat_1000"

# A device that completes nothing in the job's 500 ms: its one read in
# flight holds the only slot, so of the 50 reads due only the first is
# issued, on time.
limit 1
throttled pread64 --rate_iops=100 --runtime=500ms --time_based
limit 500
expect_rc 0
json_is "$R['ios']" 1
json_is "$R['rate']['met']" False
expect_json "45 <= $R['rate']['backlog_ios'] <= 50" \
	"the 49 reads due after the first, never issued"
expect_json "0.45e9 <= $R['rate']['lag_ns'] <= 0.5e9" \
	"the first of them late by the run, less its 10 ms"

# rate_iops_min above what the device can do fails the job after fio's 2 s
# settle period and the first rate_cycle; below it, the job goes on (test
# 244 compares with fio 3.33).
throttled pread64 --rate_iops_min=800 --rate_cycle=200ms --runtime=3s \
	--time_based
expect_rc 1
expect_json "'below rate_iops_min 800' in d['jobs'][0]['error']['message']"
expect_json "2.1e9 < d['jobs'][0]['runtime_ns'] < 2.7e9" \
	"stopped after the settle period and a cycle or two"
throttled pread64 --rate_iops_min=300 --runtime=3500ms --time_based
expect_rc 0
