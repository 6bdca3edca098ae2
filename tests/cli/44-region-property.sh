#!/bin/sh
# Property: whatever the mix of files (filename=a:b:c, nrfiles>1), offsets,
# sizes, block sizes (fixed, bs=R-W, bs=R,W, bsrange=, bssplit=), modes
# (trims too; with and without the random map, with verify=,
# random_distribution=, percentage_random=, blockalign=, rw=MODE:N,
# zonemode=strided zones, numjobs clones with offset_increment=), engines
# and direct=0/1, a job never touches a
# byte outside [offset, offset +
# size / nfiles) of each of its files (with filesize=LO-HI, cases of
# several files whose regions each have a length of their own: outside
# [offset, HI)). Every file is bigger than the region
# and filled with known data first; afterwards every byte before and after
# each region is compared with what was there (and the file's size too);
# a job that only reads changes no byte at all, and one that only writes
# changes some byte inside a region (so a run that did nothing fails).
# With root, one file of some cases is a loop device.
#
# IORIG_PROP_CASES cases (150 by default, make fuzz runs more) from the
# seed IORIG_PROP_SEED (fixed by default): a failure prints the case and
# the seed that gives it back. The sanitizer run (slower) does 50 other
# cases, from seed 4400.
# lane: parallel
. "$(dirname "$0")/lib.sh"

if [ -n "${IORIG_SAN:-}" ]; then
	CASES=${IORIG_PROP_CASES:-50}
	SEED=${IORIG_PROP_SEED:-4400}
else
	CASES=${IORIG_PROP_CASES:-150}
	SEED=${IORIG_PROP_SEED:-44}
fi

# Engines and O_DIRECT that work here; the test covers what it can.
engines=""
for e in sync libaio io_uring pthread; do
	run --name=p --filename=probe.dat --size=64k --rw=write \
		--ioengine=$e
	[ "$rc" -eq 0 ] && engines="$engines $e"
done
rm -f probe.dat
[ -n "$engines" ] || die "no engine runs here"
direct=0
have_odirect . && direct=1

# A loop device when root (its bytes outside the region are checked like a
# file's), else none: the cases with a device are then left out.
dev=""
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null 2>&1; then
	head -c 4194304 /dev/urandom >disk.img
	if dev=$(losetup -f --show disk.img 2>/dev/null) && [ -b "$dev" ]; then
		trap 'losetup -d "$dev" 2>/dev/null; cd /; rm -rf "$T"' EXIT
		trap 'exit 1' INT TERM HUP
	else
		dev=""
	fi
fi
[ -n "$dev" ] || echo "note: no loop device (needs root and losetup);" \
	"block device cases left out"

"$PY" - "$IORIG" "$CASES" "$SEED" "$direct" "$dev" $engines <<'EOF'
import os, random, subprocess, sys

iorig, cases, seed, can_direct, dev = sys.argv[1:6]
engines = sys.argv[6:]
cases, seed, can_direct = int(cases), int(seed), can_direct == "1"
KB = 1024
FSIZE = 1024 * KB               # every file: bigger than any region
rng = random.Random(seed)


def fill(path, n):
    data = rng.randbytes(n)
    with open(path, "r+b" if path.startswith("/dev/") else "wb") as f:
        f.write(data)
    return data


def bs_spec(unit):
    """A block size option and the largest bs_min of both directions."""
    def size():
        return unit * rng.choice([1, 1, 2, 3, 4, 8, 16])
    kind = rng.randrange(6)
    a, b = sorted((size(), size()))
    c, d = sorted((size(), size()))
    if kind == 0:
        return "--bs=%d" % a, a
    if kind == 1:
        return "--bs=%d-%d" % (a, c), max(a, c)   # fio: read-write
    if kind == 2:
        return "--bs=%d,%d" % (a, c), max(a, c)
    if kind == 3:
        return "--bsrange=%d-%d" % (a, b), a
    if kind == 4:
        return "--bsrange=%d-%d,%d-%d" % (a, b, c, d), max(a, c)
    # bssplit: multiples of the smallest, per direction or for both
    if rng.random() < 0.5:
        return "--bssplit=%d/30:%d/:%d/20" % (a, 2 * a, 8 * a), a
    return "--bssplit=%d/50:%d/50,%d/" % (a, 4 * a, c), max(a, c)


def one(case):
    direct = can_direct and rng.random() < 0.4
    unit = 4096 if direct else rng.choice([512, 512, 1024, 4096])
    bsopt, bsmin = bs_spec(unit)
    rw = rng.choice(["read", "write", "randread", "randwrite", "rw",
                     "randrw", "randwrite", "randrw", "trim", "randtrim",
                     "trimwrite", "randtrimwrite"])
    eng = rng.choice(engines)
    nfiles = rng.randint(1, 4)
    use_nrfiles = nfiles > 1 and rng.random() < 0.3
    # Trims on a device discard whole 512-byte sectors: aligned cases.
    use_dev = bool(dev) and not use_nrfiles and rng.random() < 0.25 and \
        ("trim" not in rw or direct)
    if use_nrfiles:
        names = ["j.0.%d" % i for i in range(nfiles)]
    else:
        names = ["c%d-f%d.dat" % (case, i) for i in range(nfiles)]
        if use_dev:
            names[rng.randrange(nfiles)] = dev
    # The offset: in 4k for direct, anywhere (even odd) otherwise; at most
    # 256k, and the region of a file at most 400k: it ends well inside.
    if direct:
        off = 4096 * rng.randint(0, 64)
    else:
        off = rng.choice([0, unit * rng.randint(0, 256 * KB // unit),
                          rng.randint(0, 256 * KB)])
    # Per file, rarely a bs multiple; iorig rounds it down to a multiple
    # of the smallest bs, so 2 * bsmin keeps a block of each direction.
    per = rng.randint(2 * bsmin, 400 * KB)
    if direct:
        per = per // 512 * 512
    size = per * nfiles
    per = size // nfiles                   # as the manual splits size=
    opts = ["--name=j", "--rw=" + rw, bsopt, "--ioengine=" + eng,
            "--offset=%d" % off, "--size=%d" % size,
            "--direct=%d" % direct, "--iodepth=%d" % rng.choice([1, 4, 16]),
            "--loops=%d" % rng.choice([1, 2]), "--randseed=%d" % case,
            "--allow-destructive"]
    # filesize=LO-HI: each file a size of its own, at most HI (rounded
    # down to a block), the region from offset to it (fio's meaning: an
    # offset past LO is refused), with the random patterns and bssplit too.
    frange = nfiles > 1 and rng.random() < 0.2
    if frange:
        lo = off + rng.randint(2 * bsmin, 200 * KB)
        hi = rng.randint(lo, off + 400 * KB)
        per = hi - off
        opts[5] = "--filesize=%d-%d" % (lo, hi)
    if use_nrfiles:
        opts += ["--nrfiles=%d" % nfiles, "--directory=."]
    else:
        opts += ["--filename=" + ":".join(names)]
    if rw in ("write", "randwrite") and rng.random() < 0.2:
        # Verification numbers blocks across the files: one write size.
        opts[2] = "--bs=%d" % bsmin
        opts.append("--verify=" + rng.choice(["crc32c", "xxh3"]))
    elif rw.startswith("rand") and rng.random() < 0.3:
        opts.append("--norandommap=1")
    if rw in ("rw", "randrw"):
        opts.append("--rwmixread=%d" % rng.choice([0, 30, 50, 90, 100]))
    # Which file each I/O goes to (issue 12, layout family 2).
    if nfiles > 1 and rng.random() < 0.5:
        kinds = ["roundrobin", "roundrobin:3", "sequential", "random",
                 "random:2"]
        # The skewed kinds rewrite blocks in a pass: not with verify=.
        if not any(o.startswith("--verify") for o in opts):
            kinds += ["zipf:1.2", "pareto:0.3:0.5", "normal:20"]
        opts.append("--file_service_type=" + rng.choice(kinds))
        if rng.random() < 0.3:
            opts.append("--openfiles=%d" % rng.randint(1, nfiles))
    # Random patterns (issue 12): laws, alignment, rw=MODE:N.
    if not any(o.startswith("--verify") for o in opts):
        if rw.startswith("rand") and rng.random() < 0.5:
            opts.append(rng.choice([
                "--random_distribution=zipf:1.1",
                "--random_distribution=pareto:0.3:0.9",
                "--random_distribution=normal:5",
                "--random_distribution=zoned:50/10:30/30:20/",
                "--percentage_random=%d" % rng.choice([0, 60]),
                "--ba=%d" % unit, "--random_generator=lfsr"]))
        if rng.random() < 0.2:
            if rw.startswith("rand"):
                opts[1] += ":%d" % rng.randint(1, 5)
                if rng.random() < 0.5:
                    opts.append("--rw_sequencer=identical")
            else:
                opts[1] += ":%s%d" % (rng.choice(["", "-"]),
                                      unit * rng.randint(1, 4))
    # Zones (zonemode=strided): one file; a zone holds the largest block
    # (16 units for ranges, 128 for bssplit) and may pass the region's end;
    # the region may be shorter than a bssplit size (never drawn then).
    if nfiles == 1 and not any(o.startswith("--verify") for o in opts) \
            and rng.random() < 0.3:
        if bsopt.startswith("--bssplit") and rng.random() < 0.3:
            per = size = rng.randint(2 * bsmin, 4 * bsmin) // unit * unit
            opts[5] = "--size=%d" % size
        zr = unit * rng.choice([128, 200, 256, 512])
        zs = rng.choice([zr // 2, zr, 3 * zr])
        if rng.random() < 0.3:
            opts += ["--zonesize=%d" % max(zs, zr)]     # fio's older form
        else:
            opts += ["--zonemode=strided", "--zonesize=%d" % zs,
                     "--zonerange=%d" % zr,
                     "--zoneskip=%d" % rng.choice([0, unit, zr, 3 * zr])]
    # offset_increment (issue 12, opt-a): clones of a filename= job, each
    # region further on; checked: nothing outside their union. A
    # percentage is of the file's size (a device's is bigger: bytes then).
    span = 0
    if not use_nrfiles and not frange and \
            not any(o.startswith("--verify") for o in opts) and \
            rng.random() < 0.2:
        nj = rng.randint(2, 3)
        if not use_dev and rng.random() < 0.5:
            pct = rng.choice([3, 5, 7])
            opts += ["--offset_increment=%d%%" % pct,
                     "--offset_align=%d" % unit]
            inc = FSIZE * pct // 100
            last = off + (nj - 1) * inc
            span = -(-last // unit) * unit - off     # rounded up to unit
        else:
            inc = unit * rng.randint(0, 150 * KB // unit)
            opts += ["--offset_increment=%d" % inc]
            span = (nj - 1) * inc
        opts += ["--numjobs=%d" % nj]
    before = {n: fill(n, FSIZE) for n in dict.fromkeys(names)}
    r = subprocess.run([iorig] + opts, capture_output=True, text=True)
    what = "case %d (IORIG_PROP_SEED=%d): iorig %s" % (case, seed,
                                                       " ".join(opts))
    if r.returncode != 0:
        sys.exit("FAILED: exit %d, expected 0: %s\n%s" %
                 (r.returncode, what, r.stderr[-2000:]))
    end = off + span + per
    # A mixed job over a small region may draw no write at all.
    reads_only = rw in ("read", "randread") or "--rwmixread=100" in opts
    writes = rw in ("write", "randwrite") or "trim" in rw
    wrote = False
    for n, old in before.items():
        with open(n, "rb") as f:
            new = f.read(FSIZE + 1)
        if not n.startswith("/dev/") and len(new) != FSIZE:
            sys.exit("FAILED: %s is %d bytes, was %d: %s" %
                     (n, len(new), FSIZE, what))
        new = new[:FSIZE]               # a device goes on
        for lo, hi in ((0, off), (end, FSIZE)):
            if new[lo:hi] != old[lo:hi]:
                at = next(i for i in range(lo, hi) if new[i] != old[i])
                sys.exit("FAILED: %s changed at byte %d, outside its "
                         "region [%d, %d): %s" % (n, at, off, end, what))
        if new[off:end] != old[off:end]:
            if reads_only:
                at = next(i for i in range(off, end) if new[i] != old[i])
                sys.exit("FAILED: a job that only reads changed %s at "
                         "byte %d: %s" % (n, at, what))
            wrote = True
    if writes and not wrote:
        sys.exit("FAILED: a job that writes changed nothing: %s" % what)
    for n in names:
        if not n.startswith("/dev/") and os.path.exists(n):
            os.unlink(n)


for case in range(cases):
    one(case)
print("%d cases, seed %d, engines:%s, direct %s, device %s" %
      (cases, seed, " ".join([""] + engines), "yes" if can_direct else "no",
       dev or "none"))
EOF
[ $? -eq 0 ] || exit 1
exit 0
