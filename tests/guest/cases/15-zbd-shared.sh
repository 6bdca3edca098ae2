#!/bin/sh
# zonemode=zbd, several jobs on the same zones of a host-managed zoned
# null_blk device (128 MiB, 8 MiB zones, at most 3 open), which refuses
# a write anywhere but at a zone's write pointer and a fourth open zone:
# iorig on one device, fio 3.33 on another made alike, the same jobs.
# numjobs=4 random writers (libaio, iodepth 4) sharing 8 zones and their
# open zone limit, 4 times 16 MiB with zone resets: no error, as fio; at
# most 3 zones open at once; the zones blkzone reports after are those
# the job that ended last reports. Two jobs of their own on overlapping
# zones: no error. Zone counts take the device's zone size: size=2z
# offset=10z writes zones 10-11 full, as fio. zoneskip=1z writes the even
# zones, as fio. The devices are removed at the end.
. "$(dirname "$0")/../lib.sh"
need blkzone util-linux
FIO=/usr/bin/fio
[ -x $FIO ] || skip "no $FIO (Debian's fio)"
attrs="size=128 blocksize=4096 memory_backed=0 zoned=1 zone_size=8
	zone_nr_conv=0 zone_max_open=3"
nullb_pair zs $attrs
[ "$(cat /sys/block/zsi/queue/max_open_zones)" = 3 ] ||
	skip "null_blk without zone_max_open"
common="--direct=1 --zonemode=zbd"

# sums FILE: "writes errors" over the jobs (iorig's JSON or fio's)
sums() {
	"$PY" -S - "$1" <<'PYEOF'
import json, sys
J = json.load(open(sys.argv[1]))['jobs']
w = sum(j['write'].get('total_ios', j['write'].get('ios', 0)) for j in J)
e = sum(j['write'].get('errors', 0) if 'errors' in j['write'] else
        j.get('error', 0) for j in J)
print(w, e)
PYEOF
}
# each FILE: "job:writes" for each job (iorig's JSON or fio's), to say
# which one fell short
each() {
	"$PY" -S - "$1" <<'PYEOF'
import json, sys
J = json.load(open(sys.argv[1]))['jobs']
print(' '.join('%s:%d' % (j.get('name', j.get('jobname')), j['write'].get(
    'total_ios', j['write'].get('ios', 0))) for j in J))
PYEOF
}
# after DEV FILE: whether one job's zones after are what blkzone says
after() {
	blkzone report "$1" >"$T/bz" 2>"$T/bz.err" ||
		die "blkzone report $1: $(cat "$T/bz.err")"
	"$PY" -S - "$T/bz" "$2" <<'PYEOF'
import json, re, sys
bz = {}
for l in open(sys.argv[1]):
    m = re.search(r'start: (0x[0-9a-f]+), len (0x[0-9a-f]+), cap '
                  r'(0x[0-9a-f]+), wptr (0x[0-9a-f]+).*zcond:\s*\d+\((\w+)\)',
                  l)
    if m:
        s, n, c, w = (int(m.group(i), 16) * 512 for i in range(1, 5))
        bz[s] = (c if m.group(5) == 'fu' else w, m.group(5))
J = json.load(open(sys.argv[2]))['jobs']
ok = [i for i, j in enumerate(J)
      if all(bz[q['start']] == (q['wp_after'], q['cond_after'])
             for q in j['zbd']['zones'])]
print(len(ok), max(j['zbd']['max_open_seen'] for j in J),
      sum(j['zbd']['zone_resets'] for j in J))
PYEOF
}

# 1. numjobs=4 random writers over zones 0-7, 16 MiB each.
both r --offset=0 --size=64M --io_size=16M --bs=64k --rw=randwrite \
	--numjobs=4 --ioengine=libaio --iodepth=4
si=$(sums "$T/r.i") sf=$(sums "$T/r.f")
[ "$si" = "1024 0" ] && [ "$sf" = "1024 0" ] ||
	die "numjobs=4: (writes errors) iorig $si, fio $sf"
set -- $(after $a "$T/r.i")
[ "$1" -ge 1 ] && [ "$2" -le 3 ] ||
	die "numjobs=4: $1 jobs' zones after as blkzone's, $2 open at most"
echo "ok: numjobs=4 random writers: writes, errors $si (fio $sf); at most" \
	"$2 zones open, $3 resets; the last job's zones are blkzone's"

# 2. Two jobs of their own on zones 2-5 and 4-7 (sequential, random).
xy="--output-format=json --ioengine=libaio --iodepth=4 --bs=64k"
"$IORIG" --filename=$a $common $xy \
	--name=x --offset=16M --size=32M --io_size=16M --rw=write \
	--name=y --offset=32M --size=32M --io_size=16M --rw=randwrite \
	>"$T/xy.i" 2>"$T/xy.ie" || die "iorig: $(cat "$T/xy.ie")"
$FIO --filename=$b $common $xy \
	--name=x --offset=16M --size=32M --io_size=16M --rw=write \
	--name=y --offset=32M --size=32M --io_size=16M --rw=randwrite \
	>"$T/xy.f" 2>"$T/xy.fe" || die "fio: $(cat "$T/xy.fe")"
si=$(sums "$T/xy.i") sf=$(sums "$T/xy.f")
[ "$si" = "512 0" ] && [ "$sf" = "512 0" ] ||
	die "two jobs: (writes errors) iorig $si ($(each "$T/xy.i")), fio" \
	    "$sf ($(each "$T/xy.f"))"
echo "ok: two jobs on overlapping zones: writes, errors $si (fio $sf)"

# 3. Zone counts in the device's zones.
blkzone reset $a && blkzone reset $b || die "blkzone reset"
both c --offset=10z --size=2z --bs=1m --rw=write --ioengine=psync
za=$(zones_of $a $((9 * 16384)) 4)
zb=$(zones_of $b $((9 * 16384)) 4)
[ "$za" = "$zb" ] && [ "$za" = "0:em 16384:fu 16384:fu 0:em" ] ||
	die "offset=10z size=2z: zones 9-12 iorig '$za', fio '$zb'"
echo "ok: offset=10z size=2z: zones 9-12 '$za', as fio's"

# 4. zoneskip=1z over the whole device: the even zones written, twice
# (a full zone reset before it is written again), the odd ones skipped,
# as fio.
blkzone reset $a && blkzone reset $b || die "blkzone reset"
both k --size=16z --zoneskip=1z --bs=1m --rw=write --ioengine=psync
za=$(zones_of $a 0 16)
zb=$(zones_of $b 0 16)
si=$(sums "$T/k.i") sf=$(sums "$T/k.f")
[ "$za" = "$zb" ] && [ "$si" = "128 0" ] && [ "$si" = "$sf" ] ||
	die "zoneskip=1z: zones iorig '$za', fio '$zb'; (writes errors)" \
	    "iorig $si, fio $sf"
case "$za" in
"16384:fu 0:em 16384:fu 0:em 16384:fu 0:em 16384:fu 0:em "*) ;;
*) die "zoneskip=1z: zones '$za'" ;;
esac
echo "ok: zoneskip=1z: writes, errors $si (fio $sf); the zones as fio's" \
	"(even ones full, odd ones empty)"
