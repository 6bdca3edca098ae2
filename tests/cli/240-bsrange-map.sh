#!/bin/sh
# The random map with sizes that vary (bsrange, bssplit, read and write
# sizes that differ): every block of the smallest size is done exactly
# once per pass, I/Os cut short where the next block was done already, as
# fio does. Outside truths: the pread64/pwrite64 calls iorig makes on the
# file (strace), fio's write_iolog on the same job, and, as root, the
# requests a loop device is given (tracefs block_rq_issue) by iorig and by
# fio with direct=1.
# - randread bsrange=4k-128k over 32 MiB: each 4k block read once, the
#   mean I/O 40-52 KiB (cut at done blocks; 66 KiB uncut) and within 4 KiB
#   of fio's mean (fio: 44-47 KiB), fio's log also each block once.
# - bssplit=4k/25:16k/25:64k/50, loops=2: each block twice; only those
#   sizes or cut ones (multiples of 4k); a bssplit size larger than the
#   file (1m) is never issued.
# - bsrange=4k-10k: a 10k I/O takes part of its third block, which no
#   other I/O then reads (fio's rule): every block touched once, the
#   job's bytes less than the region, and the loop ends there (not in a
#   second pass); fio's log the same.
# - randrw with bs=4k,16k: reads and writes share the map, each 4k block
#   done once (fio indexes its map by each direction's own size and
#   misses some: see the manual's DIFFERENCES FROM FIO).
# - randtrimwrite bsrange=4k-10k loops=2: each block written twice.
# - norandommap=1 repeats blocks (the check can fail).
# lane: parallel
. "$(dirname "$0")/lib.sh"

strace_works || skip "needs strace that may trace here"
command -v fio >/dev/null 2>&1 || skip "needs fio (the outside truth)"
mkrand f.dat 33554432

CLI_DIR="$top/tests/cli" "$PY" - "$IORIG" "$T" <<'PYEOF' || exit 1
import collections, json, os, subprocess, sys

sys.path.insert(0, os.environ["CLI_DIR"])
import iotrace  # noqa: E402

iorig, tdir = sys.argv[1:3]
F = tdir + "/f.dat"
U = 4096


def fail(msg):
    sys.exit("FAILED: " + msg)


def iorig_ios(opts):
    """(offset, length) of iorig's pread64/pwrite64 on F, and its JSON."""
    r, out = iotrace.strace_pio(
        [iorig, "--name=j", "--filename=" + F, "--ioengine=psync",
         "--output-format=json"] + opts, tdir + "/st", [F])
    if r.returncode:
        fail("iorig %s: exit %d\n%s" % (" ".join(opts), r.returncode,
                                          r.stderr[-1500:]))
    return [(o, n) for _, o, n in out], json.loads(r.stdout)["jobs"][0]


def fio_ios(opts):
    log = tdir + "/fio.log"
    if os.path.exists(log):
        os.unlink(log)
    cmd = ["fio", "--name=j", "--filename=" + F, "--ioengine=null",
           "--write_iolog=" + log, "--output=/dev/null"] + opts
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        fail("fio %s: exit %d\n%s" % (" ".join(opts), r.returncode,
                                        r.stderr[-1500:]))
    return iotrace.fio_iolog(log)


def times(ios, size):
    """{times a 4k block was touched: blocks} over [0, size)."""
    cnt = [0] * (size // U)
    for off, n in ios:
        if off + n > size:
            fail("an I/O past the region: %d+%d" % (off, n))
        for b in range(off // U, (off + n + U - 1) // U):
            cnt[b] += 1
    return dict(collections.Counter(cnt))


def mean_kib(ios):
    return sum(n for _, n in ios) / len(ios) / 1024.0


def each(what, ios, size, k):
    t = times(ios, size)
    if t != {k: size // U}:
        fail("%s: blocks by times done %s, expected all %d %d time(s)" %
             (what, sorted(t.items()), size // U, k))


# bsrange=4k-128k over 32 MiB, one pass
S = 32 << 20
job = ["--rw=randread", "--size=32m", "--bsrange=4k-128k"]
mine, j = iorig_ios(job)
each("randread bsrange=4k-128k", mine, S, 1)
theirs = fio_ios(job)
each("fio randread bsrange=4k-128k", theirs, S, 1)
a, b = mean_kib(mine), mean_kib(theirs)
if not 40 <= a <= 52 or abs(a - b) > 4:
    fail("bsrange=4k-128k: mean I/O %.1f KiB, fio %.1f KiB" % (a, b))
if j["read"]["io_bytes"] != S:
    fail("bsrange: io_bytes %d, expected %d" % (j["read"]["io_bytes"], S))
print("bsrange=4k-128k: %d reads, mean %.1f KiB (fio %d, %.1f KiB), each"
      " 4k block once" % (len(mine), a, len(theirs), b))

# bssplit, two loops
job = ["--rw=randread", "--size=32m", "--bssplit=4k/25:16k/25:64k/50",
       "--loops=2"]
mine, j = iorig_ios(job)
each("bssplit loops=2", mine, S, 2)
odd = [n for _, n in mine if n % U]
if odd:
    fail("bssplit: lengths not of 4k blocks: %s" % odd[:5])
if j["read"]["io_bytes"] != 2 * S or j.get("loops", 2) != 2:
    fail("bssplit loops=2: io_bytes %d, loops %s" %
         (j["read"]["io_bytes"], j.get("loops")))
theirs = fio_ios(job)
each("fio bssplit loops=2", theirs, S, 2)
whole = 100.0 * sum(1 for _, n in mine if n in (4096, 16384, 65536)) / \
    len(mine)
print("bssplit: %d reads, mean %.1f KiB (fio %d, %.1f KiB), %.0f%% uncut"
      % (len(mine), mean_kib(mine), len(theirs), mean_kib(theirs), whole))
mine, j = iorig_ios(["--rw=randread", "--size=1m",
                     "--bssplit=4k/50:1m/50"])
each("bssplit=4k/50:1m/50 over 1 MiB", mine, 1 << 20, 1)
if max(n for _, n in mine) >= 1 << 20:
    fail("bssplit: 1m issued on a 1 MiB file")

# bsrange=4k-10k: parts of blocks left, the loop ends with the map
S = 8 << 20
job = ["--rw=randread", "--size=8m", "--bsrange=4k-10k"]
mine, j = iorig_ios(job)
each("bsrange=4k-10k", mine, S, 1)
moved = sum(n for _, n in mine)
if j["read"]["io_bytes"] != moved or moved >= S:
    fail("bsrange=4k-10k: io_bytes %d, strace %d, region %d" %
         (j["read"]["io_bytes"], moved, S))
if j.get("loops", 1) != 1:
    fail("bsrange=4k-10k: %s loops, expected 1" % j.get("loops"))
theirs = fio_ios(job)
each("fio bsrange=4k-10k", theirs, S, 1)
b = sum(n for _, n in theirs)
if abs(moved - b) > S // 50:
    fail("bsrange=4k-10k: %d bytes moved, fio %d" % (moved, b))
print("bsrange=4k-10k: %d of %d bytes (fio %d)" % (moved, S, b))

# reads and writes of different sizes share the map
mine, j = iorig_ios(["--rw=randrw", "--size=8m", "--bs=4k,16k"])
each("randrw bs=4k,16k", mine, S, 1)
if not {n for _, n in mine} >= {4096, 16384}:
    fail("randrw bs=4k,16k: sizes %s" % sorted({n for _, n in mine}))

# randtrimwrite: every block trimmed, then written, once a loop
mine, j = iorig_ios(["--rw=randtrimwrite", "--size=8m", "--bsrange=4k-10k",
                     "--loops=2"])
each("randtrimwrite bsrange=4k-10k loops=2 (writes)", mine, S, 2)
if j["trim"]["io_bytes"] != j["write"]["io_bytes"]:
    fail("randtrimwrite: trims %d bytes, writes %d" %
         (j["trim"]["io_bytes"], j["write"]["io_bytes"]))

# without the map blocks repeat: the check above can fail
mine, j = iorig_ios(["--rw=randread", "--size=8m", "--bsrange=4k-128k",
                     "--norandommap=1"])
t = times(mine, S)
if t.get(0, 0) < S // U // 10 or not any(k >= 2 for k in t):
    fail("norandommap=1: blocks by times done %s" % sorted(t.items()))
PYEOF

# The block layer's view: a loop device read with direct=1, each request
# as block_rq_issue sees it, by iorig and by fio.
[ "$(id -u)" -eq 0 ] || skip "the block trace part unchecked: not root"
tracing
if [ ! -w "$TR/instances" ] ||
	[ ! -f "$TR/events/block/block_rq_issue/format" ]; then
	echo "block trace part skipped: no tracefs instances/block_rq_issue"
	exit 0
fi
loop_disk d.img 16
I=$TR/instances/iorig-t240-$$
mkdir "$I" || skip "the block trace part unchecked: no trace instance"
trap 'echo 0 >"$I/events/block/block_rq_issue/enable" 2>/dev/null; rmdir "$I" 2>/dev/null; losetup -d "$dev" 2>/dev/null; cd /; rm -rf "$T"' EXIT
mm=$(lsblk -ndo MAJ:MIN "$dev" | tr -d ' ')
echo "dev == $(( (${mm%:*} << 20) | ${mm#*:} ))" \
	>"$I/events/block/block_rq_issue/filter"
echo 8192 >"$I/buffer_size_kb" 2>/dev/null
echo 1 >"$I/events/block/block_rq_issue/enable"
command -v udevadm >/dev/null 2>&1 && udevadm settle 2>/dev/null

for tool in "$IORIG" fio; do
	: >"$I/trace"
	"$tool" --name=b --filename="$dev" --direct=1 --ioengine=psync \
		--rw=randread --bsrange=4k-128k --size=16m >"$T/out" \
		2>"$T/err" || die "$tool on $dev: failed"
	cp "$I/trace" "$T/trace.$(basename "$tool")"
done
"$PY" - "$T/trace.$(basename "$IORIG")" "$T/trace.fio" <<'PYEOF' || exit 1
import collections, re, sys

U, S = 4096, 16 << 20
res = []
for path in sys.argv[1:]:
    cnt, ios = [0] * (S // U), []
    for line in open(path):
        m = re.search(r" (\d+) \(\) (\d+) \+ (\d+) ", line)
        if not m:
            continue
        off, n = int(m.group(2)) * 512, int(m.group(3)) * 512
        ios.append(n)
        for b in range(off // U, (off + n + U - 1) // U):
            cnt[b] += 1
    t = dict(collections.Counter(cnt))
    if not ios or t != {1: S // U}:
        sys.exit("FAILED: %s: blocks by times read %s" %
                 (path, sorted(t.items())))
    res.append((len(ios), sum(ios) / len(ios) / 1024.0))
(a, am), (b, bm) = res
if abs(am - bm) > 6:
    sys.exit("FAILED: block layer: mean request %.1f KiB, fio %.1f KiB" %
             (am, bm))
print("block layer, 16 MiB: iorig %d requests of %.1f KiB, fio %d of %.1f"
      " KiB, each 4k block once" % (a, am, b, bm))
PYEOF
