#!/bin/sh
# read_iolog= of a binary blktrace trace (struct blk_io_trace records,
# written here with Python's struct), checked from outside with strace
# (pread64/pwrite64/fsync/ioctl BLKDISCARD on the file or device):
# - a trace with pdus, completions, a notify event, a flush and a
#   zero-byte read: iorig's calls are fio 3.33's calls on the same trace
#   (same offsets, lengths, directions, order), in both byte orders;
#   replay_scale/replay_align/replay_skip as fio too; a trace whose
#   furthest I/O does not end on a 4 KiB boundary;
# - writes and discards on a loop device named by the trace's device
#   number (no replay_redirect): the same BLKDISCARDs as fio's;
# - queue events 100 ms apart: the calls are >= 90 ms apart;
#   replay_time_scale=50 doubles the gaps; replay_no_stall=1 drops them;
# - bad traces (a truncated record, a bad magic or version midway, a pdu
#   past the end, a device not in /dev): exit 2 naming the record, no
#   call made on the file.
# Not in the parallel lane: it measures the gaps between calls; nor in
# the paced one: beside test 244 or 42 the 100 ms gaps came out 79 to
# 125 ms in 2 runs of 6.
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null 2>&1 || skip "needs strace"
command -v fio >/dev/null 2>&1 || skip "needs fio (Debian fio 3.33)"
head -c 1048576 /dev/urandom >f.dat
# a loop device for the discards, when one can be attached
dev=
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null 2>&1; then
	head -c 4194304 /dev/zero >disk.img
	dev=$(losetup -f --show disk.img 2>/dev/null) || dev=
	[ -b "$dev" ] || dev=
	[ -n "$dev" ] &&
		trap 'losetup -d "$dev" 2>/dev/null; cd /; rm -rf "$T"' EXIT
fi

"$PY" - "$IORIG" "$T" "$dev" <<'PYEOF'
import os, re, struct, subprocess, sys

iorig, tdir, dev = sys.argv[1:4]
F = tdir + "/f.dat"
CALL = re.compile(r"^(\d+\.\d+) (pread64|pwrite64|fsync|fdatasync)"
                  r"\((\d+)(?:, [^,]*, (\d+), (\d+))?")
DISCARD = re.compile(r"ioctl\(\d+, BLKDISCARD, \[(\d+), (\d+)\]\)")

Q, C = 1, 8 | (1 << 7 << 16)          # queue; a completion
R, W, FL = 1 << 16, 2 << 16, 4 << 16  # read, write, flush categories
DS, NOTE, SYNC = 1 << 29, 1 << 26, 8 << 16
DEV = (7 << 20) | 0x7ff               # 7:2047, no such loop device here


def rec(seq, t, sector, nbytes, action, pdu=b"", e="<", magic=0x65617407,
        dev=DEV):
    return struct.pack(e + "IIQQIIIIIHH", magic, seq, t, sector, nbytes,
                       action, 4321, dev, 1, 0, len(pdu)) + pdu


def fail(msg):
    sys.exit("FAILED: " + msg)


def traced(cmd, ok=True, path=F):
    """[(time_s, call, offset, len)] on path under strace"""
    tr = tdir + "/st"
    r = subprocess.run(["strace", "-f", "-qq", "-ttt", "-s0", "-P", path,
                        "-e", "trace=pread64,pwrite64,fsync,fdatasync,"
                        "ioctl", "-o", tr] + cmd, capture_output=True,
                       text=True)
    if ok and r.returncode:
        fail("%s: exit %d\n%s" % (" ".join(cmd), r.returncode,
                                   r.stderr[-1500:]))
    out = []
    for line in open(tr):
        line = re.sub(r"^\d+ +", "", line)
        m = DISCARD.search(line)
        if m:
            out.append((float(line.split()[0]), "discard",
                        int(m.group(1)), int(m.group(2))))
            continue
        m = CALL.search(line)
        if m:
            out.append((float(m.group(1)), m.group(2),
                        int(m.group(5) or 0), int(m.group(4) or 0)))
    return r, out


def calls(c):
    return [x[1:] for x in c]


def write(name, recs):
    with open(tdir + "/" + name, "wb") as f:
        f.write(b"".join(recs))
    return tdir + "/" + name


def iorig_run(trace, *opts, ok=True):
    return traced([iorig, "--name=r", "--read_iolog=" + trace,
                   "--replay_redirect=" + F, "--output=/dev/null"] +
                  list(opts), ok)


def fio_run(trace, *opts):
    return traced(["fio", "--name=r", "--read_iolog=" + trace,
                   "--replay_redirect=" + F, "--ioengine=psync",
                   "--output=/dev/null"] + list(opts))


def mixed(e):
    return [
        rec(1, 1000000, 8, 4096, Q | R, e=e),
        rec(2, 1100000, 8, 4096, C | R, b"complete", e=e),
        rec(3, 2000000, 64, 8192, Q | W | SYNC, b"xyz", e=e),
        rec(4, 2500000, 0, 0, 1 | NOTE, b"proc\0", e=e),
        rec(5, 3000000, 200, 4096, Q | R, e=e),
        rec(6, 3100000, 300, 0, Q | R, e=e),      # zero bytes: skipped
        rec(7, 3500000, 0, 0, Q | FL, e=e),       # flush: fsync
        rec(8, 4000000, 17, 1536, Q | W, e=e),
        rec(9, 4100000, 1000, 65536, Q | W, b"p" * 40, e=e),
        rec(10, 4200000, 40, 4096, Q | R, e=e),
    ]


le = write("le.bin", mixed("<"))
be = write("be.bin", mixed(">"))
_, want = fio_run(le, "--replay_no_stall=1")
if [x[0] for x in calls(want)] != ["pread64", "pwrite64", "pread64",
                                   "fsync", "pwrite64", "pwrite64",
                                   "pread64"]:
    fail("fio's calls are not the trace's: %s" % calls(want))
for trace in (le, be):
    _, got = iorig_run(trace, "--replay_no_stall=1")
    if calls(got) != calls(want):
        fail("%s: iorig %s, fio %s" % (trace, calls(got), calls(want)))
_, fbe = fio_run(be, "--replay_no_stall=1")
if calls(fbe) != calls(want):
    fail("fio reads the big-endian trace otherwise: %s" % calls(fbe))
for opts in (["--replay_scale=3", "--replay_align=4k"],
             ["--replay_skip=read"], ["--replay_skip=sync,write"]):
    _, want = fio_run(le, "--replay_no_stall=1", *opts)
    _, got = iorig_run(le, "--replay_no_stall=1", *opts)
    if calls(got) != calls(want) or not got:
        fail("%s: iorig %s, fio %s" % (opts, calls(got), calls(want)))

# the furthest I/O ends off a 4 KiB boundary (traces are in sectors)
odd = write("odd.bin", [rec(1, 1000, 1, 512, Q | W),
                        rec(2, 2000, 9, 1536, Q | R)])
_, want = fio_run(odd, "--replay_no_stall=1")
_, got = iorig_run(odd, "--replay_no_stall=1")
if calls(got) != calls(want) or len(got) != 2:
    fail("odd end: iorig %s, fio %s" % (calls(got), calls(want)))

# writes and discards, on a loop device found by the trace's device
# number (no replay_redirect): fio 3.33 discards a regular file with
# BLKDISCARD, which fails
if dev:
    rdev = os.stat(dev).st_rdev
    ddev = (os.major(rdev) << 20) | os.minor(rdev)
    trim = write("trim.bin", [
        rec(1, 1000, 0, 65536, Q | W, dev=ddev),
        rec(2, 2000, 16, 8192, Q | W | DS, b"d", dev=ddev),
        rec(3, 3000, 128, 4096, Q | W, dev=ddev),
        rec(4, 4000, 128, 4096, Q | DS, dev=ddev),
    ])
    _, want = traced(["fio", "--name=r", "--read_iolog=" + trim,
                      "--ioengine=psync", "--replay_no_stall=1",
                      "--output=/dev/null"], path=dev)
    _, got = traced([iorig, "--name=r", "--read_iolog=" + trim,
                     "--replay_no_stall=1", "--output=/dev/null"],
                    path=dev)
    if calls(got) != calls(want) or \
            [x[0] for x in calls(got)] != ["pwrite64", "discard",
                                           "pwrite64", "discard"]:
        fail("discards: iorig %s, fio %s" % (calls(got), calls(want)))
else:
    print("no loop device: the discards are not compared")

# timing: queue events 100 ms apart (completions between add nothing)
tt = []
for i in range(4):
    tt.append(rec(2 * i, 10**9 + i * 10**8, i * 8, 4096, Q | R))
    tt.append(rec(2 * i + 1, 10**9 + i * 10**8 + 5 * 10**7, i * 8, 4096,
                  C | R))
timed = write("timed.bin", tt)


def gaps(c):
    return [b[0] - a[0] for a, b in zip(c, c[1:])]


_, c = iorig_run(timed)
if calls(c) != [("pread64", i * 4096, 4096) for i in range(4)]:
    fail("timed trace: %s" % calls(c))
if min(gaps(c)) < 0.09 or max(gaps(c)) > 0.5:
    fail("timed trace: gaps %s, expected 0.1 s" % gaps(c))
_, c = iorig_run(timed, "--replay_time_scale=50")
if min(gaps(c)) < 0.18:
    fail("replay_time_scale=50: gaps %s, expected 0.2 s" % gaps(c))
_, c = iorig_run(timed, "--replay_no_stall=1")
if max(gaps(c)) > 0.05:
    fail("replay_no_stall=1: gaps %s" % gaps(c))

# bad traces: exit 2 naming the record, nothing done
good = mixed("<")
cases = [
    ("truncated", b"".join(good)[:-20], "record 10 .*truncated: 28 of"),
    ("magic", b"".join(good[:4] + [rec(5, 1, 1, 512, Q | R,
                                       magic=0x12345607)] + good[5:]),
     "record 5 .*bad magic 0x12345607"),
    ("version", b"".join(good[:2] + [rec(3, 1, 1, 512, Q | R,
                                         magic=0x65617406)]),
     "record 3 .*unknown version 0x65617406"),
    ("pdu", b"".join(good[:6]) + rec(7, 9, 0, 0, Q | FL, b"x" * 10)[:-4],
     "record 7 .*pdu of 10 bytes runs past the end"),
]
for name, data, msg in cases:
    p = write(name + ".bin", [data])
    r, c = iorig_run(p, ok=False)
    if r.returncode != 2 or c or not re.search(msg, r.stderr) or \
            p not in r.stderr:
        fail("%s: exit %d, %d calls: %s" % (name, r.returncode, len(c),
                                            r.stderr[-400:]))
r, c = traced([iorig, "--name=r", "--read_iolog=" + le,
               "--output=/dev/null"], ok=False)
if r.returncode != 2 or c or "device 7:2047 is not in /dev" not in r.stderr:
    fail("no such device: exit %d %s" % (r.returncode, r.stderr[-300:]))
print("ok")
PYEOF
rc=$?
[ $rc -eq 0 ] || exit $rc
