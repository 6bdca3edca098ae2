#!/bin/sh
# io_uring's linger decided by a trial as the job runs, not by its CPUs
# (issue 26 §1; src/worker/depth.c): a job that is not pinned lingers in
# a full queue's wait (min_wait, IORING_ENTER_EXT_ARG, 6.12+) only while
# lingering completes clearly more I/Os per second than waiting for one.
# Checked against the kernel's own tracepoints (a trace instance of this
# test's own, the lines of its iorig picked by thread group id), on a
# device that is the limit (a loop device throttled to 4000 reads a
# second by the cgroup v1 blkio throttle), unpinned, QD 32: the trial
# happens (some waits linger) yet the depth held, from
# io_uring_submit_req and io_uring_complete, is at least 99% of iodepth,
# and lingering waits cover at most half of the run (the time from each
# waiting io_uring_enter to the next counted as its kind): lingering
# gains nothing there. Where it does gain (zram) is test 296's.
# On a kernel without min_wait (before 6.12) no wait may carry EXT_ARG.
# lane: serial (a trace instance of the machine's syscalls; timing)
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip "needs root for tracefs and the blkio throttle"
throttle_trace t295 syscalls/sys_enter_io_uring_enter \
	io_uring/io_uring_submit_req io_uring/io_uring_complete
echo "$mm 4000" >"$BLKIO/blkio.throttle.read_iops_device" ||
	skip "cannot throttle $dev"
E=syscalls/sys_enter_io_uring_enter
echo "min_complete > 0" >"$I/events/$E/filter"

# an.py TRACE TGID: the waiting io_uring_enter calls of TGID (all; with
# EXT_ARG asking for more than one), the share of the run that lingering
# waits cover, the I/Os it submitted, and the time-averaged I/Os in
# flight of its rings over the middle 80% of the trace
export CLI_DIR="$top/tests/cli"
cat >an.py <<'EOF'
import os, re, sys
sys.path.insert(0, os.environ["CLI_DIR"])
from inflight import Rings, events, linger_share, middle  # noqa: E402
path, tgid = sys.argv[1], sys.argv[2]
ev, rings, waits = [], Rings(tgid), []
subs = 0
for _, tg, t, name, rest in events(path):
    if name == 'sys_io_uring_enter':
        if tg != tgid:
            continue
        mc = int(re.search(r'min_complete: (\w+)', rest).group(1), 0)
        fl = int(re.search(r'flags: (\w+)', rest).group(1), 0)
        waits.append((t, bool(fl & 8) and mc > 1))
        continue
    d = rings.delta(tg, name, rest)
    subs += d > 0
    if d:
        ev.append((t, d))
ev.sort(key=lambda e: e[0])
waits.sort(key=lambda w: w[0])
mid = middle(ev) if len(ev) >= 20 else 0.0
print(len(waits), sum(w[1] for w in waits),
      "%.3f" % linger_share(waits), subs, "%.3f" % mid)
EOF

# traced PREFIX... -- ARGS: iorig ARGS under PREFIX, traced (the events
# in $EVS); the analysis of an.py, then the reads the report counts
traced() {
	prefix_of "$@"
	shift $npre
	for _e in $EVS; do echo 1 >"$I/events/$_e/enable"; done
	: >"$I/trace"
	echo 1 >"$I/tracing_on"
	bg_pid $pre "$IORIG" --ioengine=io_uring --rw=randread --bs=4k \
		--output-format=json "$@"
	echo 0 >"$I/tracing_on"
	for _e in $EVS; do echo 0 >"$I/events/$_e/enable"; done
	cat "$I/trace" >tr.txt
	[ -z "${KEEP:-}" ] || cp tr.txt "$KEEP.$pid"
	echo "$("$PY" an.py tr.txt $pid)" \
		"$(json 'd["jobs"][0]["read"]["ios"]')"
}
kv=$(uname -r | awk -F. '{ print $1 * 1000 + $2 }')
mw=0
[ "$kv" -lt 6012 ] || mw=1

# device-bound, unpinned: the depth held, the trial made
EVS="$E io_uring/io_uring_submit_req io_uring/io_uring_complete"
set -- $(traced -- --name=h --filename="$dev" --direct=1 --iodepth=32 \
	--runtime=1500ms --time_based)
jd=$(json 'd["jobs"][0]["read"]["depth_mean"]')
echo "throttled, unpinned, QD32: $1 waits ($2 lingering, covering $3 of the run), $4 I/Os, in flight $5 (depth_mean $jd)"
"$PY" -c 'import sys; m = float(sys.argv[1]); sys.exit(m < 0.99 * 32)' \
	"$5" || die "throttled: $5 in flight, below 99% of 32"
w=$(json 'len([w for w in d["warnings"] if w["code"] == "depth_not_held"])')
[ "$w" = 0 ] || die "throttled: warned depth_not_held"
if [ "$mw" = 1 ]; then
	[ "$2" -ge 1 ] || die "throttled: no lingering wait (no trial)"
	"$PY" -c 'import sys; sys.exit(float(sys.argv[1]) > 0.5)' "$3" ||
		die "throttled: lingering covers $3 of the run, where it gains nothing"
else
	[ "$2" -eq 0 ] || die "no min_wait, yet $2 waits with EXT_ARG"
fi

echo "ok: unpinned on a device that is the limit, the trial is made and 99% of the depth held"
