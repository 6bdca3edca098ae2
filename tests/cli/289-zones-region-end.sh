#!/bin/sh
# zonemode=strided where the zones do not tile the region: a new 2 MiB
# file (size=2m), zonesize=192k zonerange=256k zoneskip=128k, so zone 5
# (at 1920k) passes the file's end. fio 3.33 writes zones 0-4 and the
# 128k of zone 5 the file holds, then ends the job at the first write
# that would pass the file's end (its bounds check, not a zone rule):
# 272 writes of the 512 size=2m asks, exit 0, no word. iorig cuts zone 5
# at the region's end as fio does, walks it again from its start until
# zonesize is done there (as in any zone smaller than zonesize), then
# goes on from zone 0 (as fio does when a zone starts past the end)
# until the job's size is done: 512 writes, the first 272 fio's offsets
# (strace against fio's write_iolog), 16 more in zone 5, then zone 0 on,
# none outside the region. The
# same with random offsets, where fio ends once a zone's random map is
# spent before zonesize (zonesize=100k with 16k blocks: 6 blocks fit the
# zone, 6.25 are asked): fio 6 writes, iorig 128 (2m), each in its zone.
# man/iorig.1, DIFFERENCES FROM FIO, says why.
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null 2>&1 || skip "needs strace"
[ -x /usr/bin/fio ] || skip "needs /usr/bin/fio (Debian's fio 3.33)"

CLI_DIR="$top/tests/cli" "$PY" - "$IORIG" "$T" <<'PYEOF' ||
import json, os, subprocess, sys

sys.path.insert(0, os.environ["CLI_DIR"])
import iotrace  # noqa: E402

iorig, tdir = sys.argv[1:3]
F = tdir + "/f"
K = 1024


def fail(msg):
    sys.exit("FAILED: " + msg)


def fresh():
    if os.path.exists(F):
        os.unlink(F)


def fio(job):
    """fio 3.33 on a new file: its writes in JSON, and its iolog."""
    fresh()
    log = tdir + "/fio.log"
    if os.path.exists(log):
        os.unlink(log)
    r = subprocess.run(["/usr/bin/fio", "--name=z", "--filename=" + F,
                        "--size=2m", "--write_iolog=" + log,
                        "--output-format=json"] + job,
                       capture_output=True, text=True)
    if r.returncode:
        fail("fio %s: exit %d: %s" % (job, r.returncode, r.stderr[-800:]))
    d = json.loads(r.stdout[r.stdout.index("{"):])
    return d["jobs"][0]["write"]["total_ios"], iotrace.fio_iolog(log)


def mine(job, bs):
    """iorig on a new file: its pwrite64 calls (offset, length) after
    those that lay the file out first (of another size than bs)."""
    fresh()
    r, ios = iotrace.strace_pio([iorig, "--name=z", "--filename=" + F,
                                 "--size=2m"] + job, tdir + "/st")
    if r.returncode:
        fail("iorig %s: exit %d: %s" % (job, r.returncode,
                                         r.stderr[-800:]))
    lay = [i for i, (_, n) in enumerate(ios) if n != bs]
    if lay != list(range(len(lay))):
        fail("iorig %s: writes of another size than %d among the job's: "
             "%s" % (job, bs, [ios[i] for i in lay][:8]))
    return ios[len(lay):]


zones = ["--zonemode=strided", "--zonesize=192k", "--zonerange=256k",
         "--zoneskip=128k"]
job = ["--rw=write", "--bs=4k"] + zones
n, theirs = fio(job)
if n != 272 or len(theirs) != 272 or sum(theirs[-1]) != 2048 * K:
    fail("fio 3.33: %d writes, the last %s; expected 272, the last ending "
         "at the file's end (2048k)" % (n, theirs[-1:]))
ios = mine(job, 4 * K)
if len(ios) != 512:
    fail("iorig: %d writes; expected 512 of 4k" % len(ios))
if ios[:272] != theirs:
    fail("iorig's first 272 writes are not fio's: %s, fio's %s"
         % (ios[:8], theirs[:8]))
# zone 5 holds 128k of its 192k: walked again from its start for the
# other 64k (16 writes), as a zone smaller than zonesize is
if ios[272:288] != ios[240:256] or ios[288:] != ios[:224] or \
        any(o + n > 2048 * K for o, n in ios):
    fail("iorig after zone 5's cut: %s; expected 16 writes from 1920k, "
         "then zones 0-4 again" % ios[272:292])
print("ok: sequential: fio 3.33 272 writes (it stops at the file's end),"
      " iorig 512, the first 272 fio's, 16 more in zone 5, then zone 0 on")

job = ["--rw=randwrite", "--bs=16k", "--zonemode=strided",
       "--zonesize=100k"]
n, theirs = fio(job)
if n != 6:
    fail("fio 3.33 randwrite zonesize=100k bs=16k: %d writes; expected 6 "
         "(a zone's map spent)" % n)
ios = mine(job, 16 * K)
if len(ios) != 128:
    fail("iorig randwrite: %d writes of 16k; expected 128 (2m)" % len(ios))
for o, n in ios:
    z = o // (100 * K) * 100 * K
    if n != 16 * K or o + n > z + 100 * K:
        fail("iorig randwrite: %d+%d leaves its zone" % (o, n))
print("ok: random: fio 3.33 6 writes (a zone's map spent), iorig 128, "
      "each in its zone")
PYEOF
	die "zones at the region's end"
