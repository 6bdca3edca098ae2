#!/bin/sh
# read_iolog= replays fio's iolog, checked from outside with strace
# (pread64/pwrite64/fsync/fdatasync on the file, with their times):
# - a log fio 3.33 wrote (write_iolog, randrw with fsync): iorig's calls
#   are the log's I/Os, in order, and its fsyncs the log's syncs;
# - a version 3 log with I/Os 100 ms apart: the calls are >= 90 ms apart;
#   replay_time_scale=200 halves the gaps; replay_no_stall=1 drops them
#   (times: the serial lane);
# - replay_redirect=OTHER: the same offsets land on OTHER, none on the
#   log's file; replay_scale=2 halves the offsets; replay_align=8k aligns
#   them down; replay_skip=write replays only the reads;
# - a version 2 log (no times; a "wait" line of 100 ms);
# - iorig's own write_iolog replayed by iorig: the same calls again;
# - an I/O outside the file's region (size=): the job fails before any
#   I/O, saying so; a file that is no iolog: exit 2.
# lane: paced
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null 2>&1 || skip "needs strace"
head -c 1048576 /dev/urandom >f.dat
head -c 1048576 /dev/urandom >o.dat

"$PY" - "$IORIG" "$T" <<'PYEOF'
import os, re, shutil, subprocess, sys

iorig, tdir = sys.argv[1:3]
F, O = tdir + "/f.dat", tdir + "/o.dat"
CALL = re.compile(r"^(\d+\.\d+) (pread64|pwrite64|fsync|fdatasync)\((\d+)"
                  r"(?:, [^,]*, (\d+), (\d+))?")


def fail(msg):
    sys.exit("FAILED: " + msg)


def traced(cmd, path=F, ok=True):
    """[(time_s, call, offset, len)] on path under strace"""
    tr = tdir + "/st"
    r = subprocess.run(["strace", "-f", "-qq", "-ttt", "-s0", "-P", path,
                        "-e", "trace=pread64,pwrite64,fsync,fdatasync",
                        "-o", tr] + cmd, capture_output=True, text=True)
    if ok and r.returncode:
        fail("%s: exit %d\n%s" % (" ".join(cmd), r.returncode,
                                   r.stderr[-1500:]))
    out = []
    for line in open(tr):
        line = re.sub(r"^\d+ +", "", line)
        m = CALL.search(line)
        if m:
            out.append((float(m.group(1)), m.group(2),
                        int(m.group(5) or 0), int(m.group(4) or 0)))
    return r, out


def calls(c):
    return [x[1:] for x in c]


def log_ios(path):
    name = {"read": "pread64", "write": "pwrite64", "sync": "fsync",
            "datasync": "fdatasync"}
    out = []
    for ln in open(path).read().splitlines()[1:]:
        w = ln.split()
        if len(w) == 5 and w[2] in name:
            rw = w[2] in ("read", "write")
            out.append((name[w[2]], int(w[3]) if rw else 0,
                        int(w[4]) if rw else 0))
    return out


def replay(log, *opts, path=F, ok=True):
    return traced([iorig, "--name=r", "--read_iolog=" + log,
                   "--output=/dev/null"] + list(opts), path, ok)


# fio's log
if shutil.which("fio"):
    flog = tdir + "/fio.log"
    r = subprocess.run(["fio", "--name=w", "--filename=" + F, "--size=1m",
                        "--bs=4k", "--rw=randrw", "--fsync=8",
                        "--number_ios=200", "--write_iolog=" + flog,
                        "--output=/dev/null"], capture_output=True)
    if r.returncode:
        fail("fio: %s" % r.stderr[-500:])
    want = log_ios(flog)
    _, got = replay(flog, "--replay_no_stall=1")
    if calls(got) != want or len(want) < 150:
        fail("fio's log: %d entries, %d calls; first differences %s" %
             (len(want), len(got), [(a, b) for a, b in
                                    zip(want, calls(got)) if a != b][:3]))

# timing
log3 = tdir + "/t3.log"
with open(log3, "w") as f:
    f.write("fio version 3 iolog\n0 %s add\n1 %s open\n" % (F, F))
    for i in range(5):
        f.write("%d %s read %d 4096\n" % (1000 + i * 100000, F, i * 8192))
    f.write("500000 %s close\n" % F)


def gaps(c):
    return [b[0] - a[0] for a, b in zip(c, c[1:])]


# The log's times are a timetable from the first I/O, as fio keeps it (a
# late I/O shortens the wait before the next): call k is never early, at
# k gaps after the first, and not later than `late`.
def on_time(c, gap, late):
    spans = [x[0] - c[0][0] for x in c[1:]]
    return all(k * gap - 0.005 <= s <= k * gap + late
               for k, s in enumerate(spans, 1)), spans


_, c = replay(log3)
if calls(c) != [("pread64", i * 8192, 4096) for i in range(5)]:
    fail("v3 log: calls %s" % calls(c))
ok, spans = on_time(c, 0.1, 0.1)
if not ok:
    fail("v3 log: calls at %s s from the first, expected every 0.1 s" % spans)
_, c = replay(log3, "--replay_time_scale=200")
ok, spans = on_time(c, 0.05, 0.04)
if not ok:
    fail("replay_time_scale=200: calls at %s s from the first, expected every 0.05 s" % spans)
_, c = replay(log3, "--replay_no_stall=1")
if max(gaps(c)) > 0.04:
    fail("replay_no_stall: gaps %s" % gaps(c))

# redirect, scale, align, skip
_, c = replay(log3, "--replay_no_stall=1", "--replay_redirect=" + O,
              path=O)
if calls(c) != [("pread64", i * 8192, 4096) for i in range(5)]:
    fail("replay_redirect: calls on the other file %s" % calls(c))
_, c = replay(log3, "--replay_no_stall=1", "--replay_redirect=" + O)
if c:
    fail("replay_redirect: %d calls on the log's file" % len(c))
_, c = replay(log3, "--replay_no_stall=1", "--replay_scale=2")
if [x[2] for x in c] != [i * 4096 for i in range(5)]:
    fail("replay_scale=2: offsets %s" % [x[2] for x in c])
_, c = replay(log3, "--replay_no_stall=1", "--replay_scale=3",
              "--replay_align=4k")
if [x[2] for x in c] != [(i * 8192 // 3) & ~4095 for i in range(5)]:
    fail("replay_align=4k: offsets %s" % [x[2] for x in c])
mixed = tdir + "/m.log"
with open(mixed, "w") as f:
    f.write("fio version 3 iolog\n")
    for i in range(6):
        f.write("%d %s %s %d 4096\n" % (i, F, ("read", "write")[i % 2],
                                        i * 4096))
_, c = replay(mixed, "--replay_skip=write")
if calls(c) != [("pread64", i * 4096, 4096) for i in (0, 2, 4)]:
    fail("replay_skip=write: %s" % calls(c))

# version 2, with a wait
log2 = tdir + "/t2.log"
with open(log2, "w") as f:
    f.write("fio version 2 iolog\n%s add\n%s open\n%s read 0 4096\n"
            "%s wait 100000 0\n%s write 4096 8192\n%s close\n" %
            ((F,) * 6))
_, c = replay(log2)
if calls(c) != [("pread64", 0, 4096), ("pwrite64", 4096, 8192)] or \
        gaps(c)[0] < 0.09:
    fail("v2 log: %s, gaps %s" % (calls(c), gaps(c)))

# iorig's own log, replayed
own = tdir + "/own.log"
_, first = traced([iorig, "--name=w", "--filename=" + F, "--size=1m",
                   "--bs=4k", "--rw=randrw", "--fdatasync=5",
                   "--write_iolog=" + own,
                   "--output=/dev/null"])
_, again = replay(own, "--replay_no_stall=1")
if calls(again) != calls(first) or len(first) < 250:
    fail("iorig's own log: %d calls replayed, %d made" %
         (len(again), len(first)))

# refusals
r, c = replay(log3, "--size=16k", ok=False)
if r.returncode != 1 or c or "outside the job's region" not in r.stderr:
    fail("I/O outside the region: exit %d, %d calls, %s" %
         (r.returncode, len(c), r.stderr[-300:]))
r, c = replay(F, ok=False)
if r.returncode != 2 or "not fio's iolog" not in r.stderr:
    fail("not an iolog: exit %d %s" % (r.returncode, r.stderr[-300:]))
print("ok")
PYEOF
