#!/bin/sh
# zonemode=zbd on zoned null_blk devices made here (128 MiB, 8 MiB zones
# of 6 MiB capacity, the first zone conventional, at most 3 zones open),
# iorig on one and fio 3.33 on another made alike, the same jobs: the
# zones (write pointers, conditions by blkzone) and the I/O counts must
# be the same. A sequential write over the conventional zone and four
# sequential ones jumps from each zone's capacity to the next zone; a
# read reads what is below the write pointers; the device's
# open zone limit (3) is the job's without max_open_zones, a larger
# max_open_zones is refused, and taken with ignore_zone_limits; zone_reset_threshold=0 with
# zone_reset_frequency=1 resets a zone before every write (fio's count
# of resets). The devices are removed at the end.
. "$(dirname "$0")/../lib.sh"
need blkzone util-linux
FIO=/usr/bin/fio
[ -x $FIO ] || skip "no $FIO (Debian's fio)"
attrs="size=128 blocksize=4096 memory_backed=0 zoned=1 zone_size=8
	zone_capacity=6 zone_nr_conv=1 zone_max_open=3"
nullb_pair z $attrs
[ "$(cat /sys/block/zi/queue/max_open_zones)" = 3 ] ||
	skip "null_blk without zone_max_open"
common="--direct=1 --ioengine=psync --zonemode=zbd --bs=256k"

# 1. Sequential writes over 40 MiB from 0: 8 MiB in the conventional
# zone, 6 MiB in each of zones 1-4; the pass ends at the region's end,
# 32 MiB written (fio's meaning: size= bounds the walk, not the bytes).
both w --offset=0 --size=40M --rw=write
za=$(zones_of $a 16384 5)
zb=$(zones_of $b 16384 5)
[ "$za" = "$zb" ] || die "zones 1-5: iorig's '$za', fio's '$zb'"
[ "$za" = "12288:fu 12288:fu 12288:fu 12288:fu 0:em" ] ||
	die "zones 1-5 after the write: '$za'"
set -- $(jvals "$T/w.i" "j['write']['ios']" \
	"@$T/w.f" "j['write']['total_ios']")
iw=$1 fw=$2
[ "$iw" = "$fw" ] && [ "$iw" = 128 ] ||
	die "writes: iorig $iw, fio $fw, expected 128"
zbd_check $a "$T/w.i" >"$T/c1"
echo "ok: sequential write: zones 1-5 '$za' as fio's; $iw writes;" \
	"$(cat "$T/c1")"

# 2. A read of zones 1-5: what lies below the write pointers, 24 MiB.
both r --offset=8M --size=40M --rw=read
set -- $(jvals "$T/r.i" "j['read']['ios']" \
	"@$T/r.f" "j['read']['total_ios']")
ir=$1 fr=$2
[ "$ir" = "$fr" ] && [ "$ir" = 96 ] ||
	die "reads: iorig $ir, fio $fr, expected 96"
echo "ok: read: $ir reads of the data below the write pointers (fio $fr)"

# 3. The device's open zone limit: random writes over zones 6-13.
both rw --offset=48M --size=64M --io_size=32M --rw=randwrite
set -- $(jvals "$T/rw.i" "j['zbd']['max_open_zones']" \
	"j['zbd']['max_open_seen']" "j['write']['errors']" "j['write']['ios']" \
	"@$T/rw.f" "j['error']" "j['write']['total_ios']")
lim=$1 seen=$2 e=$3,$5 c=$4,$6
[ "$lim" = 3 ] && [ "$seen" -le 3 ] && [ "$e" = "0,0" ] &&
	[ "$c" = "128,128" ] ||
	die "random writes: limit $lim, $seen open, errors $e, writes $c"
zbd_check $a "$T/rw.i" >"$T/c3"
echo "ok: random writes: the device's limit $lim, at most $seen open;" \
	"writes (iorig,fio) $c; $(cat "$T/c3")"
expect_refused 'max_open_zones' --filename=$a $common --name=m \
	--offset=48M --size=64M --rw=randwrite --max_open_zones=4
$FIO --filename=$b $common --name=m --offset=48M --size=64M \
	--rw=randwrite --max_open_zones=4 >"$T/fm" 2>&1 &&
	grep -q 'err= 0' "$T/fm" && die "fio took max_open_zones=4 > 3"
echo "ok: max_open_zones=4 on a device that allows 3: refused (fio too)"
# ignore_zone_limits: the job's own limit alone, above the device's (the
# device closes zones itself: no error for either tool).
blkzone reset -o $((6 * 16384)) -c 8 $a && blkzone reset -o $((6 * 16384)) \
	-c 8 $b || die "blkzone reset"
both ig --offset=48M --size=64M --io_size=16M --rw=randwrite \
	--max_open_zones=5 --ignore_zone_limits=1
set -- $(jvals "$T/ig.i" "j['zbd']['max_open_zones']" \
	"j['zbd']['max_open_seen']" "j['write']['errors']" \
	"@$T/ig.f" "j['error']")
lim=$1 seen=$2 e=$3,$4
[ "$lim" = 5 ] && [ "$seen" -gt 3 ] && [ "$seen" -le 5 ] && [ "$e" = "0,0" ] ||
	die "ignore_zone_limits: limit $lim, $seen open, errors $e"
echo "ok: ignore_zone_limits=1: max_open_zones=5 kept ($seen open at" \
	"most), no error (fio neither)"

# 4. zone_reset_threshold=0, zone_reset_frequency=1: each write resets
# its zone first (the first finds it empty: no reset); a sequential job
# stays in zone 14 (fio's meaning): 16 writes, 15 resets.
"$IORIG" --filename=$a $common --name=z --offset=112M --size=8M \
	--io_size=4M --rw=write --zone_reset_threshold=0 \
	--zone_reset_frequency=1 --output-format=json >"$T/z.i" 2>"$T/z.ie" ||
	die "iorig: $(cat "$T/z.ie")"
za=$(zones_of $a $((14 * 16384)) 2)
ri=$(jvals "$T/z.i" "j['zbd']['zone_resets']")
$FIO --filename=$b $common --name=z --offset=112M --size=8M --io_size=4M \
	--rw=write --zone_reset_threshold=0 --zone_reset_frequency=1 \
	>"$T/z.txt" 2>&1 || die "fio: $(cat "$T/z.txt")"
zb=$(zones_of $b $((14 * 16384)) 2)
rf=$(sed -n 's/.*; \([0-9]*\) zone resets.*/\1/p' "$T/z.txt" | head -n 1)
[ "$za" = "$zb" ] && [ "$ri" = "$rf" ] && [ "$ri" = 15 ] ||
	die "reset each write: zones iorig '$za' fio '$zb', resets $ri / $rf"
echo "ok: zone_reset_frequency=1: zones '$za' as fio's, $ri resets" \
	"(fio $rf)"
