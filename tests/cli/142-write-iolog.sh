#!/bin/sh
# write_iolog= writes fio's iolog version 3, checked from outside:
# - the read/write lines are, in order, the pread64/pwrite64 calls strace
#   sees iorig make (offset, length), and its sync lines its fsync calls;
# - fio 3.33 replays the log (read_iolog=) with the same calls, in the
#   same order, and the same number of fsyncs;
# - clone 1 of numjobs=2 writes FILE.1, which fio replays as well;
# - a second run appends (fio's meaning): the first run's lines stay.
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null 2>&1 || skip "needs strace"
command -v fio >/dev/null 2>&1 || skip "needs fio (the outside truth)"
head -c 1048576 /dev/urandom >f.dat

"$PY" - "$IORIG" "$T" <<'PYEOF'
import os, re, subprocess, sys

iorig, tdir = sys.argv[1:3]
F = tdir + "/f.dat"
PIO = re.compile(r"p(read|write)64\((\d+), [^,]*, (\d+), (\d+)\)\s+= (\d+)")


def fail(msg):
    sys.exit("FAILED: " + msg)


def traced(cmd, name):
    """(list of (dir, offset, len) on F (strace -P), fsync count) under strace,
    a file per thread (-ff: no interleaved, unfinished lines); with one
    thread doing I/O the list is in its order"""
    tr = tdir + "/" + name + ".st"
    r = subprocess.run(["strace", "-ff", "-qq", "-s0", "-P", F, "-e",
                        "trace=pread64,pwrite64,fsync", "-o", tr] +
                       cmd, capture_output=True, text=True)
    if r.returncode:
        fail("%s: exit %d\n%s" % (" ".join(cmd), r.returncode,
                                   r.stderr[-1500:]))
    files = sorted(tdir + "/" + f for f in os.listdir(tdir)
                   if f.startswith(name + ".st."))
    ios, syncs = [], 0
    for fn in files:
        for line in open(fn):
            m = PIO.search(line)
            if m:
                ios.append((m.group(1), int(m.group(4)), int(m.group(3))))
            elif "fsync(" in line and "= 0" in line:
                syncs += 1
        os.unlink(fn)
    return ios, syncs


def parse_log(path):
    lines = open(path).read().splitlines()
    if not lines or lines[0] != "fio version 3 iolog":
        fail("%s: first line %r" % (path, lines[:1]))
    ios, syncs, acts = [], 0, []
    for ln in lines[1:]:
        w = ln.split()
        if not w[0].isdigit() or w[1] != F:
            fail("%s: bad line %r" % (path, ln))
        if len(w) == 3:
            acts.append(w[2])
        elif w[2] in ("read", "write"):
            ios.append((w[2], int(w[3]), int(w[4])))
        elif w[2] == "sync":
            syncs += 1
        else:
            fail("%s: unexpected line %r" % (path, ln))
    return ios, syncs, acts


def replay(log, name):
    return traced(["fio", "--name=r", "--read_iolog=" + log,
                   "--ioengine=psync", "--replay_no_stall=1",
                   "--disk_util=0", "--output=/dev/null"], name)


log = tdir + "/io.log"
job = [iorig, "--name=j", "--filename=" + F, "--ioengine=sync",
       "--rw=randrw", "--bs=4k", "--bsrange=4k-16k", "--size=1m",
       "--fsync=8", "--write_iolog=" + log, "--output=/dev/null"]
seen, syncs = traced(job, "iorig")
ios, lsyncs, acts = parse_log(log)
if ios != seen:
    fail("log has %d I/Os, strace saw %d; first differences %s" %
         (len(ios), len(seen),
          [(a, b) for a, b in zip(ios, seen) if a != b][:3]))
if len(ios) < 100 or lsyncs != syncs or not syncs:
    fail("%d I/Os, %d sync lines, %d fsyncs seen" % (len(ios), lsyncs,
                                                      syncs))
if acts != ["add", "open", "close"]:
    fail("file lines %s" % acts)
fio_ios, fio_syncs = replay(log, "fio")
if fio_ios != seen or fio_syncs != syncs:
    fail("fio's replay: %d I/Os (%d differ), %d fsyncs; iorig %d, %d" %
         (len(fio_ios), sum(a != b for a, b in zip(fio_ios, seen)),
          fio_syncs, len(seen), syncs))

# numjobs=2: the second clone's own file, replayable
for p in (log, log + ".1"):
    os.unlink(p) if os.path.exists(p) else None
seen2, _ = traced(job + ["--numjobs=2", "--fsync=0"], "two")
a, _, _ = parse_log(log)
b, _, _ = parse_log(log + ".1")
if sorted(a + b) != sorted(seen2) or not a or not b:
    fail("numjobs=2: logs %d + %d I/Os, strace %d" % (len(a), len(b),
                                                      len(seen2)))
fb, _ = replay(log + ".1", "fio1")
if fb != b:
    fail("fio's replay of clone 1's log differs")

# appended, as fio does
before = open(log).read()
traced(job + ["--fsync=0"], "again")
after = open(log).read()
if not after.startswith(before) or after.count("fio version 3 iolog") != 2:
    fail("second run did not append")
print("ok: %d I/Os and %d syncs logged, replayed by fio identically" %
      (len(ios), syncs))
PYEOF
