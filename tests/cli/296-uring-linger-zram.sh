#!/bin/sh
# io_uring's linger chosen by its trial where it pays (issue 26 §1;
# src/worker/depth.c): zram takes no request without blocking, so each
# read is done by io_uring's io-wq worker thread, and where that thread
# shares a CPU with the job's, a wait for one completion costs a context
# switch per I/O. There lingering (a full queue's wait asks the kernel
# for an eighth of the queue, or all of it, with no timer) completes
# 40-100% more I/Os per second, and the job's trial must find
# it: pinned to one CPU (taskset -c 1), and unpinned while another
# process keeps CPU 0 busy (the case that fell to 0.51 of fio's
# t/io_uring when lingering went by the job's CPUs). Checked from the
# kernel's syscalls tracepoint (a trace instance of this test's own, the
# lines of its iorig picked by thread group id): lingering waits (more
# than one asked) cover most of the run, the time
# from each waiting
# io_uring_enter to the next counted as its kind, and the job waits at
# most once per four I/Os. 4 KiB random O_DIRECT reads, QD32, of a zram
# device of this test's own (hot_add), filled with random data.
# lane: serial (a trace instance of the machine's syscalls; timing)
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip "needs root for tracefs and zram"
command -v taskset >/dev/null 2>&1 || skip "needs taskset (util-linux)"
ncpu=$(getconf _NPROCESSORS_ONLN)
[ "$ncpu" -ge 2 ] || skip "needs 2 CPUs, this machine has $ncpu"
tracing
E=events/syscalls/sys_enter_io_uring_enter
[ -w "$TR/instances" ] || skip "no writable tracefs instances at $TR"
[ -d "$TR/$E" ] || skip "no $E tracepoint"
[ -e /sys/class/zram-control ] || modprobe zram >/dev/null 2>&1
ZC=/sys/class/zram-control
[ -r "$ZC/hot_add" ] || skip "no zram (module zram, $ZC)"
I=$TR/instances/iorig-t296-$$
zn= busy=
trap '[ -z "$busy" ] || kill $busy 2>/dev/null
	echo 0 >"$I/$E/enable" 2>/dev/null; rmdir "$I" 2>/dev/null
	[ -z "$zn" ] || echo "$zn" >"$ZC/hot_remove" 2>/dev/null
	cd /; rm -rf "$T"' EXIT
zn=$(cat "$ZC/hot_add") || skip "cannot add a zram device"
z=/dev/zram$zn
echo 256M >/sys/block/zram$zn/disksize || die "cannot size $z"
dd if=/dev/urandom of="$z" bs=1M count=256 oflag=direct status=none ||
	die "cannot fill $z"
mkdir "$I" || skip "cannot make a trace instance"
echo 1 >"$I/options/record-tgid"
echo 8192 >"$I/buffer_size_kb"
echo "min_complete > 0" >"$I/$E/filter"

export CLI_DIR="$top/tests/cli"
# an.py TRACE TGID: the waiting io_uring_enter calls of TGID, those that
# linger, and the share of the run that lingering waits cover
cat >an.py <<'EOF'
import os, re, sys
sys.path.insert(0, os.environ["CLI_DIR"])
from inflight import events, linger_share  # noqa: E402
path, tgid = sys.argv[1], sys.argv[2]
waits = []
for _, tg, t, name, rest in events(path):
    if name == 'sys_io_uring_enter' and tg == tgid:
        mc = int(re.search(r'min_complete: (\w+)', rest).group(1), 0)
        waits.append((t, mc > 1))
waits.sort(key=lambda w: w[0])
print(len(waits), sum(w[1] for w in waits), "%.3f" % linger_share(waits))
EOF

# run PREFIX... -- : the job under PREFIX, traced; an.py's figures, then
# the reads the report counts, then its IOPS
run() {
	prefix_of "$@"
	: >"$I/trace"
	echo 1 >"$I/$E/enable"
	bg_pid $pre "$IORIG" --name=z --filename="$z" --ioengine=io_uring \
		--rw=randread --bs=4k --direct=1 --iodepth=32 --runtime=3s \
		--time_based --output-format=json
	echo 0 >"$I/$E/enable"
	cat "$I/trace" >tr.txt
	echo "$("$PY" an.py tr.txt $pid)" \
		"$(json 'd["jobs"][0]["read"]["ios"]')" \
		"$(json 'int(d["jobs"][0]["read"]["iops"])')" \
		"$(json '([w["message"].split("the whole queue) ")[1].split("%")[0]
			   for w in d["warnings"]
			   if w["code"] == "depth_not_held" and
			   "the whole queue) " in w["message"]] or ["-"])[0]')"
}
# check WHAT WAITS LINGERING SHARE IOS IOPS WARNED (the share in
# depth_not_held's message, in %, when the report warned: to agree with
# the trace's within 5 points)
# (A sanitizer build's user-space cost shrinks what lingering gains, so
# its trial's choice beside a busy CPU is not the product's: 0.49 of the
# run in one CI pass of two. There the busy case's figures are printed,
# and only that the trial ran is checked: IORIG_SAN, as tests 190, 201.)
check() {
	echo "$1: $2 waits ($3 lingering, covering $4 of the run) for $5 I/Os, $6 IOPS; depth_not_held says ${7}%"
	[ "$7" = - ] || "$PY" -c 'import sys
sys.exit(abs(float(sys.argv[1]) / 100 - float(sys.argv[2])) > 0.05)' "$7" "$4" ||
		die "$1: depth_not_held says the waits lingered $7% of the time, the trace $4 of the run"
	if [ -n "${IORIG_SAN:-}" ] && [ -n "${busy:-}" ]; then
		[ "$3" -ge 1 ] || die "$1: no lingering wait (no trial)"
		return 0
	fi
	"$PY" -c 'import sys; sys.exit(float(sys.argv[1]) < 0.5)' "$4" ||
		die "$1: lingering covers only $4 of the run"
	[ $(($2 * 4)) -le "$5" ] ||
		die "$1: $2 waits for $5 I/Os, expected at most one per 4"
}
check "zram, taskset -c 1" $(run taskset -c 1 --)
taskset -c 0 sh -c 'while :; do :; done' &
busy=$!
check "zram, unpinned, CPU 0 busy" $(run --)
kill $busy
busy=
echo "ok: on zram the trial lingers most of the run, pinned and unpinned beside a busy CPU"
