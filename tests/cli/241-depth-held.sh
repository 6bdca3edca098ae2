#!/bin/sh
# The depth asked is the depth held (issue 23): on a device that is the
# bottleneck (a loop device throttled to 4000 reads a second by the
# cgroup v1 blkio throttle, 1000 for the pthread pool), the time-averaged
# number of I/Os in flight is at least 95% of iodepth for libaio,
# io_uring and the pthread pool at QD 4, 32 and 128, as the kernel sees
# it: from the syscall tracepoints
# (io_submit's entries add what they hand over, io_getevents' returns
# take away), io_uring's own
# (io_uring_submit_req, io_uring_complete of the job's rings), and the
# pool threads' pread64 entries and exits. The report's depth_mean agrees
# with the tracepoints' figure. iodepth_batch_submit=8 at QD32 does not
# make the block layer merge 4 KiB sequential writes (the loop device's
# own merge count in /sys/block/loopN/stat: at most 25%, and no more than
# fio 3.33's on the same job plus 2 points), and a job whose I/Os complete
# inside the submitting call (cached buffered reads) gets the warning
# depth_not_held, which the throttled ones never get.
# lane: serial (the hand-off between threads must not wait for a CPU)
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip "needs root for tracefs and the blkio throttle"
throttle_trace t241 syscalls/sys_enter_io_submit \
	syscalls/sys_exit_io_submit syscalls/sys_exit_io_getevents \
	syscalls/sys_enter_pread64 syscalls/sys_exit_pread64 \
	io_uring/io_uring_submit_req io_uring/io_uring_complete
echo "$mm 4000" >"$BLKIO/blkio.throttle.read_iops_device" ||
	skip "cannot throttle $dev"
echo "$mm 4000" >"$BLKIO/blkio.throttle.write_iops_device" ||
	skip "cannot throttle $dev"

# depth.py TRACE TGID KIND: the time-averaged I/Os in flight of process
# TGID over the whole trace (first submission to last completion) and
# over its middle 80% (the queue full, not filling or draining).
export CLI_DIR="$top/tests/cli"
cat >depth.py <<'EOF'
import os, re, sys
sys.path.insert(0, os.environ["CLI_DIR"])
from inflight import Rings, events, mean, middle  # noqa: E402
path, tgid, kind = sys.argv[1], sys.argv[2], sys.argv[3]
ev, rings, asked = [], Rings(tgid), {}
for tid, tg, t, name, rest in events(path):
    d = 0
    if kind == 'uring':
        d = rings.delta(tg, name, rest)
    elif tg != tgid:
        continue
    elif kind == 'aio':
        # in flight from the entry into io_submit (a call may block
        # while the device takes the batch), less what it refused
        r = re.match(r'\(ctx_id: \S+, nr: (0x[0-9a-f]+)', rest)
        if name == 'sys_io_submit' and r:
            asked[tid] = int(r.group(1), 16)
            d = asked[tid]
        r = re.match(r'\s*-> (0x[0-9a-f]+)', rest)
        if r:
            n = int(r.group(1), 16)
            d = n - asked.pop(tid, 0) if name == 'sys_io_submit' else -n
    elif name == 'sys_pread64':
        d = -1 if '->' in rest else 1
    if d:
        ev.append((t, d))
ev.sort(key=lambda e: e[0])
if len(ev) < 20:
    print("0 0")
    sys.exit()
print("%.3f %.3f" % (mean(ev, ev[0][0], ev[-1][0]), middle(ev)))
EOF

# held ENGINE QD KIND EVENTS...: 4 KiB random reads traced, half a second
# of them (a second for the pthread pool, whose start of up to 128
# threads the trace's whole-run figure counts: half a second put it 9
# below depth_mean at QD128 on a loaded machine, and two at QD128, whose
# drain at 1000 a second is an eighth of a second); checks the depth
# held and that depth_mean agrees with the trace. The pool's device
# takes 1000 reads a second, not 4000: each of its I/Os is handed from
# the pool thread that ends it to the job thread and back to a pool
# thread, two wake-ups of a sleeping thread, which took 53 us (median;
# 66 mean, from pread64's exit to the next entry) on a host whose
# wake-ups were slow, so that the pool held 3.76 of QD4 at 4000 a second
# (1 ms in flight per I/O) and 3.94-3.95 at 1000; it once held 3.88-3.90
# at 4000 on a faster one. What the test is for, an engine that keeps
# fewer I/Os queued than asked (issue 23: QD24 held for QD32), fails at
# either rate; the wake-up's cost is the machine's.
held() {
	_eng=$1 _qd=$2 _kind=$3
	_rt=500ms _iops=4000
	[ "$_eng" != pthread ] || _rt=1s _iops=1000
	[ "$_eng" != pthread ] || [ "$_qd" -lt 128 ] || _rt=2s
	echo "$mm $_iops" >"$BLKIO/blkio.throttle.read_iops_device"
	shift 3
	for _e in "$@"; do echo 1 >"$I/events/$_e/enable"; done
	: >"$I/trace"
	echo 1 >"$I/tracing_on"
	"$IORIG" --name=h --filename="$dev" --ioengine="$_eng" --direct=1 \
		--rw=randread --bs=4k --iodepth="$_qd" --runtime=$_rt \
		--time_based --output-format=json >"$T/out" 2>"$T/err" &
	_p=$!
	wait $_p || die "$_eng QD$_qd: iorig failed"
	echo 0 >"$I/tracing_on"
	for _e in "$@"; do echo 0 >"$I/events/$_e/enable"; done
	cat "$I/trace" >tr.txt
	[ -z "$KEEP" ] || cp tr.txt "$KEEP.$_eng.$_qd"
	set -- $("$PY" depth.py tr.txt $_p $_kind)
	_jd=$(json 'd["jobs"][0]["read"]["depth_mean"]')
	_w=$(json 'len([w for w in d["warnings"] if w["code"] == "depth_not_held"])')
	echo "$_eng QD$_qd: trace $1 (middle $2), depth_mean $_jd"
	"$PY" - "$_qd" "$1" "$2" "$_jd" "$_eng" <<'EOF' || die "$_eng QD$_qd: trace $1 (middle $2), depth_mean $_jd"
import os, sys
qd, whole, mid, rep = (float(x) for x in sys.argv[1:5])
pct = 0.95
assert mid >= pct * qd, "held less than %d%% of %d" % (pct * 100, qd)
tol = 0.05 * qd + 0.2
if os.environ.get("IORIG_SAN"):
    # the sanitizer build starts 128 pool threads slowly: the trace's
    # whole-run figure counts that ramp, which depth_mean may weigh
    # differently; it must lie between the whole run and its middle
    assert min(whole, mid) - tol <= rep <= max(whole, mid) + tol, \
        "depth_mean outside the trace's whole run and middle"
else:
    assert abs(rep - whole) <= tol, "depth_mean and trace differ"
EOF
	[ "$_w" = 0 ] || die "$_eng QD$_qd: warned depth_not_held"
}

for qd in ${QDS:-4 32 128}; do
	held libaio $qd aio syscalls/sys_enter_io_submit \
		syscalls/sys_exit_io_submit \
		syscalls/sys_exit_io_getevents
	held io_uring $qd uring io_uring/io_uring_submit_req \
		io_uring/io_uring_complete
	held pthread $qd pool syscalls/sys_enter_pread64 \
		syscalls/sys_exit_pread64
done

# merged WRITES+MERGES of the loop device's stat: the share merged (%)
n=$(basename "$dev")
wstat() { set -- $(cat /sys/block/"$n"/stat); echo "$5 $6"; }
merged() {
	_a=$(wstat)
	"$@" --name=m --filename="$dev" --ioengine=libaio --direct=1 \
		--rw=write --bs=4k --iodepth=32 --iodepth_batch_submit=8 \
		--runtime=500ms --time_based >"$T/out" 2>"$T/err" ||
		die "$*: failed"
	set -- $_a $(wstat)
	echo $((($4 - $2) * 1000 / ($3 - $1 + $4 - $2)))
}
mi=$(merged "$IORIG")
echo "iodepth_batch_submit=8: iorig merged $((mi / 10)).$((mi % 10))%"
# (the throttle's own dispatch merges a few: 8% here, as under fio; iorig
# merged 87% when it refilled eight slots per call)
[ "$mi" -le 250 ] || die "iodepth_batch_submit=8: $mi per mille merged"
if command -v fio >/dev/null 2>&1; then
	mf=$(merged fio --thread)
	echo "iodepth_batch_submit=8: fio merged $((mf / 10)).$((mf % 10))%"
	[ "$mi" -le $((mf + 20)) ] ||
		die "iorig merged $mi per mille, fio $mf"
fi

# Cached buffered reads complete inside io_uring_enter: no queue builds,
# and the report says so.
echo "$mm 0" >"$BLKIO/blkio.throttle.read_iops_device"
"$IORIG" --name=lay --filename=f.dat --size=8m --rw=write --bs=1m \
	>/dev/null 2>&1 || die "layout failed"
run --name=c --filename=f.dat --size=8m --ioengine=io_uring --rw=randread \
	--bs=4k --iodepth=32 --invalidate=0 --loops=4 --output-format=json
expect_rc 0
expect_json 'd["jobs"][0]["read"]["depth_mean"] < 0.9 * 32' \
	"cached reads: depth_mean below 90% of 32"
expect_json '[w for w in d["warnings"] if w["code"] == "depth_not_held"]' \
	"the warning depth_not_held"
echo "ok: depth held at 95% of QD 4/32/128 for libaio, io_uring and pthread; depth_mean agrees; no merging at iodepth_batch_submit=8"
