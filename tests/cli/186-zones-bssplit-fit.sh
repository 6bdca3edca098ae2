#!/bin/sh
# zonemode=strided with bssplit sizes that do not all fit (the region
# property test, seed 777, once failed at run time with "cannot lay out
# I/Os of 0 bytes"), against outside truths: the pread64/pwrite64 calls
# iorig makes (strace), fio's write_iolog on the same job, the file's bytes.
# - A zone (1m) larger than the job's region (96k) and a bssplit size
#   (256k) larger than the region: the job runs; like fio's, its I/Os are
#   all of the sizes that fit, in the region, and the 256k size is never
#   drawn (fio: it never fits); with three sizes the two that fit keep
#   their proportion (1:2). The same without zones.
# - A write job of that kind changes no byte outside its region.
# - A zone smaller than the largest size (fio's own example: zonesize=16k,
#   bssplit up to 64k): fio's I/Os then run over the zones and the bytes
#   zoneskip= skips, so iorig refuses it at parse time: exit 2, the
#   option named, nothing run.
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null 2>&1 || skip "needs strace"
command -v fio >/dev/null 2>&1 || skip "needs fio (the outside truth)"
head -c 1048576 /dev/urandom >f.dat

CLI_DIR="$top/tests/cli" "$PY" - "$IORIG" "$T" <<'PYEOF'
import collections, hashlib, os, subprocess, sys

sys.path.insert(0, os.environ["CLI_DIR"])
import iotrace  # noqa: E402

iorig, tdir = sys.argv[1:3]
F = tdir + "/f.dat"
K = 1024
REG = 96 * K


def fail(msg):
    sys.exit("FAILED: " + msg)


def iorig_ios(opts):
    r, out = iotrace.strace_pio(
        [iorig, "--name=j", "--filename=" + F, "--ioengine=sync",
         "--size=%d" % REG] + opts, tdir + "/st", [F])
    if r.returncode:
        fail("iorig %s: exit %d\n%s" % (" ".join(opts), r.returncode,
                                          r.stderr[-1500:]))
    return [io[1:] for io in out]


def fio_ios(opts):
    log = tdir + "/fio.log"
    if os.path.exists(log):
        os.unlink(log)
    r = subprocess.run(["fio", "--name=j", "--filename=" + F,
                        "--ioengine=null", "--size=%d" % REG,
                        "--disk_util=0", "--write_iolog=" + log,
                        "--output=/dev/null"] + opts,
                       capture_output=True, text=True)
    if r.returncode:
        fail("fio %s: exit %d\n%s" % (" ".join(opts), r.returncode,
                                        r.stderr[-1500:]))
    return iotrace.fio_iolog(log)


ZONES = ["--zonemode=strided", "--zonesize=1m", "--zoneskip=64k"]
for zones in (ZONES, []):
    job = ["--rw=randread", "--bssplit=4k/50:256k/50"] + zones
    a, b = iorig_ios(job + ["--loops=4"]), fio_ios(job)
    if not a or not b:
        fail("%s: %d I/Os, fio %d" % (" ".join(job), len(a), len(b)))
    if {n for _, n in a} != {4096} or {n for _, n in b} != {4096}:
        fail("%s: sizes %s, fio's %s, expected 4k only" %
             (" ".join(job), sorted({n for _, n in a}),
              sorted({n for _, n in b})))
    for o, n in a:
        if o + n > REG:
            fail("%s: I/O [%d, %d) past the region" % (" ".join(job), o,
                                                       o + n))
    # Three sizes: 4k and 32k fit (1:2), 256k does not.
    job = ["--rw=randread", "--bssplit=4k/20:32k/40:256k/40",
           "--norandommap=1", "--number_ios=3000", "--loops=1000"] + zones
    a = iorig_ios(job)
    c = collections.Counter(n for _, n in a)
    if set(c) != {4096, 32768} or not 1.6 < c[32768] / c[4096] < 2.5:
        fail("%s: sizes %s, expected 4k and 32k, 1:2" %
             (" ".join(job), dict(c)))
    if any(o + n > REG for o, n in a):
        fail("%s: an I/O past the region" % " ".join(job))
    b = fio_ios(job[:2] + zones)
    if not b or max(n for _, n in b) > 32768:
        fail("fio %s: sizes %s" % (" ".join(job), sorted({n for _, n in b})))

# Writes: nothing outside [0, REG) changes.
old = open(F, "rb").read()
iorig_ios(["--rw=randwrite", "--bssplit=4k/30:8k/30:512k/40",
           "--loops=3"] + ZONES)
new = open(F, "rb").read()
if len(new) != len(old) or new[REG:] != old[REG:]:
    fail("randwrite: bytes past the region changed (sha1 %s, was %s)" %
         (hashlib.sha1(new[REG:]).hexdigest(),
          hashlib.sha1(old[REG:]).hexdigest()))
if new[:REG] == old[:REG]:
    fail("randwrite: nothing written")

# A zone smaller than a size: fio runs over zone ends into skipped bytes.
job = ["--rw=randread", "--zonemode=strided", "--zonesize=16k",
       "--zoneskip=16k", "--bssplit=4k/50:64k/50"]
b = fio_ios(job[:1] + ["--size=8m"] + job[1:])
if not any(o % (32 * K) + n > 16 * K for o, n in b):
    fail("fio kept every I/O in a zone: the refusal is to be revisited")
r = subprocess.run([iorig, "--name=j", "--filename=" + F, "--size=1m"] + job,
                   capture_output=True, text=True)
if r.returncode != 2 or "zonesize" not in r.stderr or \
        "cannot hold" not in r.stderr or r.stdout:
    fail("zonesize=16k, 64k blocks: exit %d, expected 2 naming zonesize: %s"
         % (r.returncode, r.stderr))
print("ok")
PYEOF
[ $? -eq 0 ] || exit 1
exit 0
