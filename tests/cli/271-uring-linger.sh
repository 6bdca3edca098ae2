#!/bin/sh
# io_uring's lingering wait (issue 26 §1; src/worker/depth.c,
# src/engines/ring.h): a full queue's wait may ask the kernel for more
# of the I/Os in flight, with no timer: an eighth of them (for part) or
# all; the job's trial
# (depth.c) decides as it runs whether it does, by what lingering is
# worth, not by the job's CPUs (where it is worth it, zram: test 296).
# Checked against the kernel's own tracepoints (a trace instance of this
# test's own, the lines of its iorig picked by thread group id), on a
# device that is the limit (a loop device throttled to 4000 reads a
# second by the cgroup v1 blkio throttle), pinned with taskset -c 0 at
# QD 4 and 32 and unpinned at QD 32: the depth held, from
# io_uring_submit_req and io_uring_complete, is at least 95% of iodepth
# pinned and 99% unpinned, and lingering waits (asking for more than
# one) cover at most half of a 2 s run (the time from each waiting
# io_uring_enter to the next counted as its kind): lingering gains
# nothing there, so it is kept to the trial's epochs, and none once an
# epoch was mostly a gap, as the throttle's 100 ms slices make them (no
# lingering wait at all in each run here, 31.93-31.96 of QD32 held;
# with a short linger in every trial, 31.91-31.96, lingering 0.20 of
# the run). No wait carries EXT_ARG: no wait has a timer.
# lane: paced (a trace instance of its own, read by tgid; timing)
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip "needs root for tracefs and the blkio throttle"
command -v taskset >/dev/null 2>&1 || skip "needs taskset (util-linux)"
throttle_trace t271 syscalls/sys_enter_io_uring_enter \
	io_uring/io_uring_submit_req io_uring/io_uring_complete
echo "$mm 4000" >"$BLKIO/blkio.throttle.read_iops_device" ||
	skip "cannot throttle $dev"
E=syscalls/sys_enter_io_uring_enter
echo "min_complete > 0" >"$I/events/$E/filter"

# an.py TRACE TGID: the waiting io_uring_enter calls of TGID (all; with
# EXT_ARG; asking for more than one), the share of the run
# that lingering waits cover, the I/Os it submitted, and the
# time-averaged I/Os in flight of its rings over the middle 80% of the
# trace (the queue full, not filling or draining)
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
        waits.append((t, fl, mc))
        continue
    d = rings.delta(tg, name, rest)
    subs += d > 0
    if d:
        ev.append((t, d))
ev.sort(key=lambda e: e[0])
waits.sort(key=lambda w: w[0])
ext = sum(1 for w in waits if w[1] & 8)
lw = [(t, mc > 1) for t, fl, mc in waits]
mid = middle(ev) if len(ev) >= 20 else 0.0
print(len(waits), ext, sum(w[1] for w in lw), "%.3f" % linger_share(lw),
      subs, "%.3f" % mid)
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

# device-bound, pinned and not: the depth held, the trial made
EVS="$E io_uring/io_uring_submit_req io_uring/io_uring_complete"
for c in "taskset -c 0:4:95" "taskset -c 0:32:95" ":32:99"; do
	pre=${c%%:*} qd=${c#*:} pct=${qd#*:} qd=${qd%%:*}
	how=${pre:-unpinned}
	# shellcheck disable=SC2086 # the prefix's words
	set -- $(traced $pre -- --name=h --filename="$dev" --direct=1 \
		--iodepth=$qd --runtime=2000ms --time_based)
	jd=$(json 'd["jobs"][0]["read"]["depth_mean"]')
	echo "throttled, $how, QD$qd: $1 waits ($3 lingering, covering $4" \
		"of the run), $5 I/Os, in flight $6 (depth_mean $jd)"
	"$PY" -c 'import sys; qd, m, p = map(float, sys.argv[1:]); sys.exit(m < p / 100 * qd)' \
		$qd "$6" $pct ||
		die "throttled, $how, QD$qd: $6 in flight, below $pct% of $qd"
	"$PY" -c 'import sys; sys.exit(float(sys.argv[1]) > 0.5)' "$4" ||
		die "throttled, $how, QD$qd: lingering covers $4 of the" \
		    "run, where it gains nothing"
	[ "$2" -eq 0 ] || die "$2 waits with EXT_ARG: a lingering wait has no timer"
	w=$(json 'len([w for w in d["warnings"] if w["code"] == "depth_not_held"])')
	[ "$w" = 0 ] || die "throttled, $how, QD$qd: warned depth_not_held"
done
echo "ok: on a device that is the limit, pinned or not, the trial" \
	"lingers only in its epochs, and the depth is held"
