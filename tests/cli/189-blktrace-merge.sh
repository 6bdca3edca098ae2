#!/bin/sh
# merge_blktrace_file / merge_blktrace_scalars / merge_blktrace_iters:
# traces written with Python's struct (one little-endian with pdus and
# completions, one big-endian, one with discards) are merged by iorig;
# - the merged file is byte for byte what a Python model of fio's
#   documented merge writes (queue events of reads, writes and discards;
#   times scaled by the trace's percent; pass k after k times the trace's
#   last time; earliest first, ties to the trace named first; native byte
#   order, pdus dropped), with and without scalars and iters;
# - --merge-blktrace-only writes it and makes no call on the target;
# - the I/Os iorig replays from the merge (strace) are those fio 3.33
#   replays from iorig's merged file (fio 3.33's own merge writes an empty
#   file: "iolog short read");
# - errors exit 2 and leave an existing merged file as it was: a count of
#   scalars other than the traces', a file that is no blktrace, a bad
#   record midway (named); A:B without merge_blktrace_file (fio gives
#   the logs to clones in turn, which iorig does not do).
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null 2>&1 || skip "needs strace"
command -v fio >/dev/null 2>&1 || skip "needs fio (Debian fio 3.33)"
head -c 1048576 /dev/urandom >f.dat

"$PY" - "$IORIG" "$T" <<'PYEOF'
import re, struct, subprocess, sys

iorig, tdir = sys.argv[1:3]
F = tdir + "/f.dat"
M = tdir + "/merged.bin"
CALL = re.compile(r"^(pread64|pwrite64|fsync|fdatasync)\((\d+)"
                  r"(?:, [^,]*, (\d+), (\d+))?")
FMT = "IIQQIIIIIHH"
Q, C = 1, 8 | (1 << 7 << 16)
R, W, FL, DS = 1 << 16, 2 << 16, 4 << 16, 1 << 29
NOTE = 1 << 26


def rec(seq, t, sector, nbytes, action, pdu=b"", e="<", magic=0x65617407):
    return struct.pack(e + FMT, magic, seq, t, sector, nbytes, action, 99,
                       (8 << 20) | 16, 0, 0, len(pdu)) + pdu


def fail(msg):
    sys.exit("FAILED: " + msg)


def parse(data, e):
    """[(fields, pdu)]"""
    out, i = [], 0
    while i < len(data):
        f = list(struct.unpack(e + FMT, data[i:i + 48]))
        out.append((f, data[i + 48:i + 48 + f[10]]))
        i += 48 + f[10]
    return out


def model(traces, scalars=None, iters=None):
    """fio's documented merge of [(bytes, endian)]"""
    heads = []
    for k, (data, e) in enumerate(traces):
        recs = [f for f, _ in parse(data, e)]
        length = recs[-1][2]
        ev = [f for f in recs if f[5] & 0xffff == 1 and f[5] & (R | W | DS)]
        sc = scalars[k] if scalars else 100
        seq = []
        for p in range(iters[k] if iters else 1):
            for f in ev:
                g = list(f)
                g[2] = (f[2] + p * length) * sc // 100
                g[10] = 0
                seq.append(g)
        heads.append(seq)
    out = b""
    while any(heads):
        k = min((h[0][2], k) for k, h in enumerate(heads) if h)[1]
        out += struct.pack("<" + FMT, *heads[k].pop(0))
    return out


def traced(cmd, ok=True):
    tr = tdir + "/st"
    r = subprocess.run(["strace", "-f", "-qq", "-s0", "-P", F, "-e",
                        "trace=pread64,pwrite64,fsync,fdatasync", "-o",
                        tr] + cmd, capture_output=True, text=True)
    if ok and r.returncode:
        fail("%s: exit %d\n%s" % (" ".join(cmd), r.returncode,
                                   r.stderr[-1500:]))
    out = []
    for line in open(tr):
        m = CALL.search(re.sub(r"^\d+ +", "", line))
        if m:
            out.append((m.group(1), int(m.group(4) or 0),
                        int(m.group(3) or 0)))
    return r, out


def write(name, data):
    with open(tdir + "/" + name, "wb") as f:
        f.write(data)
    return tdir + "/" + name


A = b"".join([rec(1, 1000000, 0, 4096, Q | R, e="<"),
              rec(2, 1000500, 0, 4096, C | R, b"done", e="<"),
              rec(3, 2000000, 8, 8192, Q | W, b"pdu!", e="<"),
              rec(4, 2100000, 0, 0, 1 | NOTE, b"name\0", e="<"),
              rec(5, 3000000, 0, 0, Q | FL, e="<"),   # dropped by merges
              rec(6, 4000000, 24, 4096, Q | R, e="<"),
              rec(7, 4500000, 24, 4096, C | R, e="<")])
B = b"".join([rec(1, 1500000, 100, 4096, Q | W, b"xy", e=">"),
              rec(2, 2000000, 108, 4096, Q | R, e=">"),
              rec(3, 3500000, 116, 512, Q | W, e=">")])
D = b"".join([rec(1, 500000, 400, 8192, Q | W),
              rec(2, 700000, 400, 4096, Q | W | DS),
              rec(3, 900000, 416, 4096, Q | W)])
E = b"".join([rec(1, 600000, 600, 4096, Q | W, b"e" * 9, e=">"),
              rec(2, 650000, 600, 4096, C | W, e=">"),
              rec(3, 800000, 608, 4096, Q | W | DS, e=">")])
Z = b"".join([rec(1, 0, 700, 4096, Q | R), rec(2, 0, 708, 4096, Q | R)])
a, b, d = write("a.bin", A), write("b.bin", B), write("d.bin", D)
e, z = write("e.bin", E), write("z.bin", Z)


def merge_only(files, *opts, ok=True):
    return traced([iorig, "--merge-blktrace-only", "--name=m",
                   "--read_iolog=" + ":".join(files),
                   "--merge_blktrace_file=" + M, "--replay_redirect=" + F]
                  + list(opts), ok)


for files, traces, sc, it in (
        ([a, b], [(A, "<"), (B, ">")], None, None),
        ([a, b], [(A, "<"), (B, ">")], [50, 100], [3, 1]),
        ([e, d], [(E, ">"), (D, "<")], [200, 75], [3, 2]),
        ([b, a], [(B, ">"), (A, "<")], [100, 33.9], [1, 2.5]),
        ([a, z], [(A, "<"), (Z, "<")], [100, 100], [1, 3])):
    opts = []
    if sc:
        opts = ["--merge_blktrace_scalars=" + ":".join(map(str, sc)),
                "--merge_blktrace_iters=" + ":".join(map(str, it))]
    r, c = merge_only(files, *opts)
    got = open(M, "rb").read()
    want = model(traces, sc and [int(x) for x in sc],
                 it and [int(x) for x in it])
    if got != want:
        fail("merge %s %s: %d bytes, the model %d; records %s / %s" %
             (files, opts, len(got), len(want),
              [f[2] for f, _ in parse(got, "<")],
              [f[2] for f, _ in parse(want, "<")]))
    if c:
        fail("--merge-blktrace-only made %d calls on the file" % len(c))

# the merge, replayed: iorig's calls are fio's on iorig's merged file
opts = ["--merge_blktrace_scalars=50:100", "--merge_blktrace_iters=2:1"]
_, got = traced([iorig, "--name=m", "--read_iolog=%s:%s" % (a, b),
                 "--merge_blktrace_file=" + M, "--replay_redirect=" + F,
                 "--replay_no_stall=1", "--output=/dev/null"] + opts)
if open(M, "rb").read() != model([(A, "<"), (B, ">")], [50, 100], [2, 1]):
    fail("the replayed merge is not the model's")
_, want = traced(["fio", "--name=r", "--read_iolog=" + M,
                  "--replay_redirect=" + F, "--ioengine=psync",
                  "--replay_no_stall=1", "--output=/dev/null"])
if got != want or len(got) != 9:
    fail("replay of the merge: iorig %s, fio %s" % (got, want))

# errors: exit 2, the merged file as it was
for files, opts, msg in (
        ([a, b], ["--merge_blktrace_scalars=50:100:25"],
         "merge_blktrace_scalars.*3 values for the 2 traces"),
        ([a, b], ["--merge_blktrace_iters=2"],
         "merge_blktrace_iters.*1 values for the 2 traces"),
        ([a, write("t.log", b"fio version 3 iolog\n")], [],
         "t.log: not a blktrace trace"),
        ([a, write("bad.bin", B[:98] + b"\0" * 4 + B[102:])], [],
         "bad.bin: record 3 .*bad magic")):
    write("merged.bin", b"previous")
    r, c = merge_only(files, *opts, ok=False)
    if r.returncode != 2 or not re.search(msg, r.stderr) or c or \
            open(M, "rb").read() != b"previous":
        fail("%s %s: exit %d, %s" % (files, opts, r.returncode,
                                     r.stderr[-400:]))
r = subprocess.run([iorig, "--name=m", "--read_iolog=%s:%s" % (a, b),
                    "--replay_redirect=" + F, "--parse-only"],
                   capture_output=True, text=True)
if r.returncode != 2 or "names several logs" not in r.stderr:
    fail("A:B without merge_blktrace_file: exit %d %s" %
         (r.returncode, r.stderr[-300:]))
print("ok")
PYEOF
rc=$?
[ $rc -eq 0 ] || exit $rc
