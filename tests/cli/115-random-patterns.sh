#!/bin/sh
# Random patterns against outside truths: the offsets and lengths of the
# pread64/pwrite64 calls iorig makes, as strace sees them, and fio on the
# same job (its write_iolog).
# - bssplit: over 20000 reads each size's share is within 1 point of the
#   one asked for, and of fio's share on the same job within 2 points.
# - zipf:1.2, pareto:0.2, normal: the share of I/Os that the hottest 1%
#   and 10% of blocks get is near fio's (6 points: fio approximates zipf)
#   and for zipf's top 1% within 1.5 points of the law (the top 10%
#   by sampled counts is biased up); zoned: the share of
#   each zone within 1 point of the request, and within 2 of fio's.
# - rw=read:4k reads every other block, as fio does (same offsets);
#   rw=read:-8k goes backwards; rw=randread:4 issues runs of 4 blocks.
# - blockalign=1k: every offset a multiple of 1k, some not of 4k;
#   blockalign larger than the region: exit 2 naming it, nothing laid
#   out (fio 3.33 runs it without I/O).
# - allrandrepeat=1: two runs write the same bytes; without, they differ.
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null 2>&1 || skip "needs strace"
command -v fio >/dev/null 2>&1 || skip "needs fio (the outside truth)"
head -c 16777216 /dev/urandom >f.dat

CLI_DIR="$top/tests/cli" "$PY" - "$IORIG" "$T" <<'PYEOF'
import collections, os, subprocess, sys

sys.path.insert(0, os.environ["CLI_DIR"])
import iotrace  # noqa: E402

iorig, tdir = sys.argv[1:3]
F = tdir + "/f.dat"
MB16 = 16 << 20


def fail(msg):
    sys.exit("FAILED: " + msg)


def iorig_ios(opts):
    """(offset, length) of every pread64/pwrite64 of iorig on F."""
    r, out = iotrace.strace_pio(
        [iorig, "--name=j", "--filename=" + F, "--ioengine=sync",
         "--output-format=json"] + opts, tdir + "/st")
    if r.returncode:
        fail("iorig %s: exit %d\n%s" % (" ".join(opts), r.returncode,
                                          r.stderr[-1500:]))
    return out


def fio_ios(opts, loops=1):
    """fio's I/Os: whole loops of the region (number_ios x loops, the
    bound of iorig's runs, is dropped), from a fresh log (fio appends)."""
    log = tdir + "/fio.log"
    if os.path.exists(log):
        os.unlink(log)
    opts = [o for o in opts if not o.startswith("--number_ios=") and
            o != "--loops=1000"] + ["--loops=%d" % loops]
    cmd = ["fio", "--name=j", "--filename=" + F, "--ioengine=null",
           "--disk_util=0", "--write_iolog=" + log,
           "--output=/dev/null"] + opts
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        fail("fio %s: exit %d\n%s" % (" ".join(opts), r.returncode,
                                        r.stderr[-1500:]))
    return iotrace.fio_iolog(log)


def tail(ios, n):
    if len(ios) < n:
        fail("%d I/Os seen, expected %d: %s" % (len(ios), n, ios[-3:]))
    return ios[-n:]


def shares(ios, key):
    c = collections.Counter(key(io) for io in ios)
    return {k: 100.0 * v / len(ios) for k, v in c.items()}


# bssplit
N = 20000
job = ["--rw=randread", "--size=16m", "--norandommap=1",
       "--bssplit=4k/10:64k/50:32k/40", "--number_ios=%d" % (N // 1000), "--loops=1000"]
mine = shares(tail(iorig_ios(job), N), lambda io: io[1])
theirs = shares(fio_ios(job, 50), lambda io: io[1])
for bs, want in ((4096, 10), (65536, 50), (32768, 40)):
    got = mine.get(bs, 0)
    if abs(got - want) > 1:
        fail("bssplit: %d bytes in %.2f%% of reads, asked %d%%" %
             (bs, got, want))
    if abs(got - theirs.get(bs, 0)) > 2:
        fail("bssplit: %d bytes in %.2f%% of reads, fio %.2f%%" %
             (bs, got, theirs.get(bs, 0)))
if set(mine) != {4096, 32768, 65536}:
    fail("bssplit: sizes %s" % sorted(mine))


def hot(ios, nblocks, frac):
    c = collections.Counter(off // 4096 for off, _ in ios)
    top = sorted(c.values(), reverse=True)[:max(1, int(nblocks * frac))]
    return 100.0 * sum(top) / len(ios)


# skewed laws over 4096 blocks of 4k: the popularity profile
N = 10000
for dist in ("zipf:1.2", "pareto:0.2", "normal"):
    job = ["--rw=randread", "--size=16m", "--random_distribution=" + dist,
           "--number_ios=%d" % (N // 1000), "--loops=1000"]
    mine = tail(iorig_ios(job), N)
    theirs = fio_ios(job, 3)
    for frac in (0.01, 0.10):
        a, b = hot(mine, 4096, frac), hot(theirs, 4096, frac)
        # fio approximates zipf (65% for the top 1% here, the law 69%)
        if abs(a - b) > 6:
            fail("%s: the hottest %d%% of blocks get %.1f%% of reads, "
                 "with fio %.1f%%" % (dist, frac * 100, a, b))
        if dist.startswith("zipf") and frac == 0.01:
            k = max(1, int(4096 * frac))
            law = 100 * sum(i ** -1.2 for i in range(1, k + 1)) / \
                sum(i ** -1.2 for i in range(1, 4097))
            if abs(a - law) > 1.5:
                fail("zipf:1.2: the hottest %d blocks get %.1f%% of reads,"
                     " the law %.1f%%" % (k, a, law))

# zoned: share per zone
N = 20000
zones = [(60, 10), (30, 20), (8, 30), (2, 40)]
job = ["--rw=randread", "--size=16m", "--number_ios=%d" % (N // 1000), "--loops=1000",
       "--random_distribution=zoned:" +
       ":".join("%d/%d" % z for z in zones)]


def zone_of(io):
    at = 0
    for i, (_, r) in enumerate(zones):
        at += r * MB16 // 100
        if io[0] < at:
            return i
    return -1


mine = shares(tail(iorig_ios(job), N), zone_of)
theirs = shares(fio_ios(job, 5), zone_of)
for i, (a, _) in enumerate(zones):
    if abs(mine.get(i, 0) - a) > 1 or abs(mine.get(i, 0) -
                                          theirs.get(i, 0)) > 2:
        fail("zoned: zone %d has %.2f%% of reads, asked %d%%, fio %.2f%%"
             % (i, mine.get(i, 0), a, theirs.get(i, 0)))

# rw=read:4k: fio's offsets exactly
job = ["--rw=read:4k", "--size=256k", "--bs=4k"]
a = [o for o, _ in tail(iorig_ios(job), 64)]
b = [o for o, _ in fio_ios(job)]
if a != b:
    fail("rw=read:4k: offsets %s, fio %s" % (a[:20], b[:20]))
# read:-8k: backwards, each block once
a = [o for o, _ in tail(iorig_ios(["--rw=read:-8k", "--size=256k"]), 64)]
if a != [4096 * i for i in range(63, -1, -1)]:
    fail("rw=read:-8k: offsets %s" % a[:20])
# randread:4 with the map: runs of 4 blocks
a = [o for o, _ in tail(iorig_ios(["--rw=randread:4", "--size=1m",
                                    "--number_ios=256"]), 256)]
runs = sum(1 for i in range(0, 256, 4)
           if a[i + 1:i + 4] == [a[i] + 4096 * k for k in (1, 2, 3)])
if runs < 60:
    fail("rw=randread:4: %d of 64 runs sequential: %s" % (runs, a[:16]))
# blockalign
a = [o for o, _ in tail(iorig_ios(["--rw=randread", "--size=1m",
                                    "--ba=1k", "--number_ios=1",
                                    "--loops=500"]), 500)]
if any(o % 1024 for o in a) or all(o % 4096 == 0 for o in a):
    fail("blockalign=1k: offsets %s" % a[:20])
PYEOF
[ $? -eq 0 ] || exit 1

# allrandrepeat: the bytes written repeat from run to run
w() {
	run --name=w --filename="$1" --size=256k --rw=write $2
	expect_rc 0
}
w a.dat --allrandrepeat=1; w b.dat --allrandrepeat=1
cmp -s a.dat b.dat || die "allrandrepeat=1: two runs wrote different data"
w c.dat; w d.dat
cmp -s c.dat d.dat && die "allrandrepeat=0: two runs wrote the same data"

# blockalign larger than the region: no offset fits (fio runs the job
# without I/O); iorig refuses it when planning, naming blockalign, before
# any file is laid out
run --name=b --filename=ba.dat --size=64k --rw=randread --bs=4k \
	--blockalign=128k
expect_rc 2
expect_in err "option 'blockalign': .*131072 \(read\) is larger than the region of each file \(65536 bytes\)"
[ ! -e ba.dat ] || die "blockalign refused, but ba.dat was laid out"
if command -v fio >/dev/null 2>&1; then
	fio --name=b --filename=fba.dat --size=64k --rw=randread --bs=4k \
		--blockalign=128k --output-format=json >fio.json 2>/dev/null ||
		die "fio refused blockalign larger than the region"
	[ "$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["jobs"][0]["read"]["total_ios"])' fio.json)" = 0 ] ||
		die "fio did I/O with blockalign larger than the region"
fi
# at most the region: runs, every offset a multiple of it (0 here)
run --name=b --filename=ba.dat --size=64k --rw=randread --bs=4k \
	--blockalign=64k --number_ios=8 --output-format=json
expect_rc 0
exit 0
