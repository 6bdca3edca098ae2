#!/bin/sh
# filesize=LO-HI (files of several sizes) with the random patterns
# (random_distribution, bssplit, blockalign, percentage_random, rw=MODE:N),
# which fio accepts: checked against outside truths.
# - New files: every pread64/pwrite64 strace sees on each file lies inside
#   that file (its size from stat), every file gets I/O; with
#   random_distribution=zoned:60/10:40/90 about 60% of each file's I/Os fall
#   in its own first tenth (fio's zones are of each file's size); a bssplit
#   size larger than the smallest file never appears. fio runs each job too.
# - Files of 1 MiB already there: no byte past HI (the largest region) and
#   no file size changes (cksum), some byte inside does.
# - Files already in the range (48k to 240k) keep their sizes: with
#   offset=8k every I/O strace sees lies in [8k, the file's size), and
#   the first 8k and the sizes do not change.
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null 2>&1 || skip "needs strace"

CLI_DIR="$top/tests/cli" "$PY" - "$IORIG" "$T" <<'PYEOF'
import collections, hashlib, os, shutil, subprocess, sys

sys.path.insert(0, os.environ["CLI_DIR"])
import iotrace  # noqa: E402

iorig, tdir = sys.argv[1:3]
K = 1024
NF = 4
have_fio = shutil.which("fio") is not None


def fail(msg):
    sys.exit("FAILED: " + msg)


CASES = [
    ["--rw=randwrite", "--random_distribution=zipf:1.2"],
    ["--rw=randread", "--random_distribution=pareto:0.3"],
    ["--rw=randwrite", "--random_distribution=normal:10"],
    ["--rw=randwrite", "--random_distribution=zoned:60/10:40/90"],
    ["--rw=randread", "--random_distribution=zoned_abs:50/8k:50/8k"],
    ["--rw=randwrite", "--bssplit=4k/50:16k/30:1m/20"],
    ["--rw=randread", "--bsrange=4k-8k", "--blockalign=2k"],
    ["--rw=randwrite", "--percentage_random=50"],
    ["--rw=randread", "--percentage_random=50", "--norandommap=1"],
    ["--rw=randwrite:3"],
    ["--rw=read:-8k"],
    ["--rw=write:4k"],
]

for n, case in enumerate(CASES):
    d = "%s/n%d" % (tdir, n)
    os.mkdir(d)
    job = ["--name=r", "--directory=" + d, "--nrfiles=%d" % NF,
           "--filesize=32k-256k", "--bs=4k", "--ioengine=sync",
           "--randseed=%d" % (n + 3), "--loops=4"] + case
    names = ["%s/r.0.%d" % (d, i) for i in range(NF)]
    if "read" in case[0]:
        # Laid out first (its pwrite64 calls are not the job's): the
        # same seed and names give the same sizes.
        subprocess.run([iorig] + job[:-len(case)] + ["--rw=write",
                                                     "--loops=1"],
                       capture_output=True, check=True)
    r, ios = iotrace.strace_pio([iorig] + job, d + ".st", names)
    what = "iorig " + " ".join(job)
    if r.returncode:
        fail("%s: exit %d\n%s" % (what, r.returncode, r.stderr[-1500:]))
    size = [os.path.getsize(x) for x in names]
    if len(set(size)) < 2:
        fail("%s: files of one size %s: the case tests nothing" %
             (what, size))
    per = collections.Counter()
    first = collections.Counter()
    for f, o, ln in ios:
        if o < 0 or o + ln > size[f]:
            fail("%s: I/O [%d, %d) outside %s (%d bytes)" %
                 (what, o, o + ln, names[f], size[f]))
        per[f] += 1
        first[f] += o < size[f] // 10
        if ln > min(size):
            fail("%s: an I/O of %d bytes, the smallest file has %d" %
                 (what, ln, min(size)))
    if len(per) != NF:
        fail("%s: I/O on %d of %d files" % (what, len(per), NF))
    if "zoned:" in case[-1]:
        for f in range(NF):
            if size[f] >= 128 * K and \
                    not 0.5 < first[f] / per[f] < 0.7:
                fail("%s: %s (%d bytes): %d of %d I/Os in its first "
                     "tenth, expected about 60%%" %
                     (what, names[f], size[f], first[f], per[f]))
    if have_fio:
        fd = d + "-fio"
        os.mkdir(fd)
        f = subprocess.run(["fio", "--ioengine=null", "--output=/dev/null"]
                           + [o for o in job if not o.startswith(
                               ("--directory", "--ioengine"))] +
                           ["--directory=" + fd], capture_output=True,
                           text=True)
        if f.returncode:
            fail("fio refuses %s: %s" % (" ".join(case), f.stderr[-500:]))

# Files already there, bigger than HI: nothing past HI changes.
HI = 256 * K
for n, case in enumerate(CASES):
    if "write" not in case[0]:
        continue
    d = "%s/o%d" % (tdir, n)
    os.mkdir(d)
    names = ["%s/r.0.%d" % (d, i) for i in range(NF)]
    old = []
    for x in names:
        b = os.urandom(1024 * K)
        open(x, "wb").write(b)
        old.append(b)
    job = ["--name=r", "--directory=" + d, "--nrfiles=%d" % NF,
           "--filesize=32k-%d" % HI, "--bs=4k", "--randseed=%d" % n,
           "--loops=2"] + case
    r = subprocess.run([iorig] + job, capture_output=True, text=True)
    if r.returncode:
        fail("%s: exit %d\n%s" % (" ".join(job), r.returncode,
                                    r.stderr[-1500:]))
    changed = False
    for x, b in zip(names, old):
        new = open(x, "rb").read()
        if len(new) != len(b) or new[HI:] != b[HI:]:
            fail("%s: %s changed past %d (cksum %s, was %s)" %
                 (" ".join(job), x, HI, hashlib.sha1(new[HI:]).hexdigest(),
                  hashlib.sha1(b[HI:]).hexdigest()))
        changed |= new[:HI] != b[:HI]
    if not changed:
        fail("%s: nothing written" % " ".join(job))
# Files already in the range keep their sizes: with offset=8k each region
# is [8k, its size), known from outside; strace sees every I/O inside it,
# and the first 8k and the sizes stay as they were.
SIZES = [48 * K, 100 * K, 160 * K, 240 * K]
for n, case in enumerate(CASES):
    d = "%s/k%d" % (tdir, n)
    os.mkdir(d)
    names = ["%s/r.0.%d" % (d, i) for i in range(NF)]
    old = []
    for x, sz in zip(names, SIZES):
        b = os.urandom(sz)
        open(x, "wb").write(b)
        old.append(b)
    job = ["--name=r", "--directory=" + d, "--nrfiles=%d" % NF,
           "--filesize=32k-256k", "--offset=8k", "--bs=4k",
           "--ioengine=sync", "--randseed=%d" % n, "--loops=2"] + case
    r, ios = iotrace.strace_pio([iorig] + job, d + ".st", names)
    what = "iorig " + " ".join(job)
    if r.returncode:
        fail("%s: exit %d\n%s" % (what, r.returncode, r.stderr[-1500:]))
    seen = set()
    for f, o, ln in ios:
        if o < 8 * K or o + ln > SIZES[f]:
            fail("%s: I/O [%d, %d) outside [8k, %d) of %s" %
                 (what, o, o + ln, SIZES[f], names[f]))
        seen.add(f)
    if len(seen) != NF:
        fail("%s: I/O on %d of %d files" % (what, len(seen), NF))
    for x, b in zip(names, old):
        new = open(x, "rb").read()
        if len(new) != len(b) or new[:8 * K] != b[:8 * K]:
            fail("%s: %s changed before offset or in size" % (what, x))
print("ok")
PYEOF
[ $? -eq 0 ] || exit 1
exit 0
