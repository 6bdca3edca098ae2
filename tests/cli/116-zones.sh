#!/bin/sh
# zonemode=strided against outside truths: the offsets of the
# pread64/pwrite64 calls iorig makes (strace) and fio's write_iolog on the
# same job.
# - Sequential, zonesize < zonerange (a part of each zone) and
#   zonesize > zonerange (each zone walked several times), reads and
#   writes: the same offsets as fio, in the same order.
# - zonesize alone (fio's older form, which fio 3.33 refuses) is strided:
#   the same offsets as fio's zonemode=strided job.
# - Random with the map: each zone's run of I/Os stays in the zone and
#   repeats no block, and the zones come in fio's order; bsrange with
#   norandommap: every I/O ends inside its zone.
# - Refused with exit 2, nothing run: zbd on a file without zonesize (the
#   size of the zones it would emulate; tests/cli/267 and the guest's
#   cases run zbd), zonemode=none
#   with zonesize and strided without it (fio refuses both too), zones over
#   several files, a zone smaller than a block.
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null 2>&1 || skip "needs strace"
command -v fio >/dev/null 2>&1 || skip "needs fio (the outside truth)"
head -c 1048576 /dev/urandom >f.dat

CLI_DIR="$top/tests/cli" "$PY" - "$IORIG" "$T" <<'PYEOF'
import os, subprocess, sys

sys.path.insert(0, os.environ["CLI_DIR"])
import iotrace  # noqa: E402

iorig, tdir = sys.argv[1:3]
F = tdir + "/f.dat"


def fail(msg):
    sys.exit("FAILED: " + msg)


def iorig_ios(opts, n):
    """(offset, length) of the last n pread64/pwrite64 of iorig on F."""
    r, out = iotrace.strace_pio(
        [iorig, "--name=j", "--filename=" + F, "--ioengine=sync",
         "--size=1m"] + opts, tdir + "/st")
    if r.returncode:
        fail("iorig %s: exit %d\n%s" % (" ".join(opts), r.returncode,
                                          r.stderr[-1500:]))
    if len(out) < n:
        fail("%s: %d I/Os seen, expected %d" % (" ".join(opts), len(out), n))
    return out[-n:]


def fio_ios(opts):
    log = tdir + "/fio.log"
    if os.path.exists(log):
        os.unlink(log)
    cmd = ["fio", "--name=j", "--filename=" + F, "--ioengine=null",
           "--size=1m", "--disk_util=0", "--write_iolog=" + log,
           "--output=/dev/null"] + opts
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        fail("fio %s: exit %d\n%s" % (" ".join(opts), r.returncode,
                                        r.stderr[-1500:]))
    return iotrace.fio_iolog(log)


def zoned(zs, zr, skip):
    return ["--zonemode=strided", "--zonesize=%d" % zs,
            "--zonerange=%d" % zr, "--zoneskip=%d" % skip]


K = 1024
# Sequential: the same offsets as fio.
for rw, zs, zr, skip in (("read", 64 * K, 128 * K, 128 * K),
                         ("write", 256 * K, 64 * K, 192 * K),
                         ("read", 48 * K, 48 * K, 16 * K)):
    job = ["--rw=" + rw, "--bs=4k"] + zoned(zs, zr, skip)
    b = fio_ios(job)
    a = iorig_ios(job, len(b))
    if len(b) != 256 or a != b:
        fail("%s: offsets %s, fio's %s" % (" ".join(job), a[:20], b[:20]))
# The older form: zonesize alone is strided.
a = iorig_ios(["--rw=read", "--bs=4k", "--zonesize=64k",
               "--zoneskip=64k"], 256)
b = fio_ios(["--rw=read", "--bs=4k"] + zoned(64 * K, 64 * K, 64 * K))
if a != b:
    fail("zonesize alone: offsets %s, fio's strided %s" % (a[:20], b[:20]))

# Random with the map: runs of zonesize / bs I/Os, each in one zone.
job = ["--rw=randread", "--bs=4k"] + zoned(64 * K, 128 * K, 128 * K)
for who, ios in (("iorig", iorig_ios(job, 256)), ("fio", fio_ios(job))):
    zones = []
    for i in range(0, 256, 16):
        run = [o for o, _ in ios[i:i + 16]]
        z = run[0] // (256 * K)
        if any(o // (256 * K) != z or o % (256 * K) >= 128 * K or
               o % 4096 for o in run) or len(set(run)) != 16:
            fail("%s randread: a run leaves its zone or repeats a "
                 "block: %s" % (who, run))
        zones.append(z)
    if who == "iorig":
        mine = zones
    elif zones != mine:
        fail("randread: zones %s, fio's %s" % (mine, zones))
# bsrange, no map, zones past the end (1m / 384k): I/Os end in their zone.
job = ["--rw=randwrite", "--bsrange=4k-16k", "--norandommap=1",
       "--number_ios=2000", "--loops=100"] + zoned(40 * K, 384 * K, 0)
ios = iorig_ios(job, 2000)
for o, n in ios:
    z = o // (384 * K) * 384 * K
    if o + n > min(z + 384 * K, 1 << 20) or n % 4096 or n > 16 * K:
        fail("bsrange: I/O [%d, %d) leaves its zone" % (o, o + n))
if len({o // (384 * K) for o, _ in ios}) != 3:
    fail("bsrange: not every zone visited")

# Refusals: exit 2; fio refuses those it knows too.
for opts, fio_too, word in (
        (["--zonemode=zbd"], True, "zoned block device"),
        (["--zonemode=none", "--zonesize=64k"], True, "zonemode=none"),
        (["--zonemode=strided"], True, "needs zonesize"),
        (["--zonesize=64k", "--nrfiles=2"], False, "one file"),
        (["--zonesize=2k"], False, "cannot hold")):
    r = subprocess.run([iorig, "--name=j", "--filename=" + F, "--bs=4k",
                        "--rw=read", "--size=1m"] + opts,
                       capture_output=True, text=True)
    if r.returncode != 2 or word not in r.stderr or r.stdout:
        fail("%s: exit %d, expected 2 naming '%s': %s" %
             (" ".join(opts), r.returncode, word, r.stderr))
    if fio_too:
        f = subprocess.run(["fio", "--name=j", "--filename=" + F,
                            "--ioengine=null", "--size=1m",
                            "--output=/dev/null"] + opts,
                           capture_output=True, text=True)
        if f.returncode == 0:
            fail("fio accepts %s" % " ".join(opts))
print("ok")
PYEOF
[ $? -eq 0 ] || exit 1
exit 0
