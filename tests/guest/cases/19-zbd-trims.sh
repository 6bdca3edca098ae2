#!/bin/sh
# Trims under zonemode=zbd (fio 3.33's meaning): a trim of a zone with a
# write pointer is that zone's reset (BLKRESETZONE), whole, the trim
# block size being the zone size; a random trim of an empty zone goes to
# the nearest zone holding data, and the job ends when none holds any.
# On zoned null_blk devices made here (as case 11's: 8 MiB zones of
# 6 MiB capacity, the first conventional, 3 open at most; null_blk takes
# no discard in zoned mode, so a trim sent as a discard fails there) and
# on the NVMe zoned namespace, iorig and fio 3.33 run the same jobs on
# zones made alike: the zones after them (blkzone: write pointers and
# conditions), the trims and the resets must be the same. A trim
# block size other than the zone size, or a range of them, is refused
# as fio refuses it.
. "$(dirname "$0")/../lib.sh"
need blkzone util-linux
FIO=/usr/bin/fio
[ -x $FIO ] || skip "no $FIO (Debian's fio)"
attrs="size=128 blocksize=4096 memory_backed=0 zoned=1 zone_size=8
	zone_capacity=6 zone_nr_conv=1 zone_max_open=3"
nullb_pair zt $attrs
common="--direct=1 --ioengine=psync --zonemode=zbd"

# n FILE EXPR: EXPR on the JSON's first job (j)
n() {
	"$PY" -S -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]; print(eval(sys.argv[2]))' "$1" "$2"
}

# 1. Zones 1-5 written full (6 MiB each), then a sequential trim of
# zones 1-3: three resets, zones 1-3 empty, 4-5 full.
both w --offset=8M --size=40M --bs=256k --rw=write
both t --offset=8M --size=24M --bs=8M --rw=trim
za=$(zones_of $a 16384 5)
zb=$(zones_of $b 16384 5)
[ "$za" = "$zb" ] || die "zones 1-5: iorig's '$za', fio's '$zb'"
[ "$za" = "0:em 0:em 0:em 12288:fu 12288:fu" ] ||
	die "zones 1-5 after the trim of 1-3: '$za'"
set -- $(jvals "$T/t.i" "j['trim']['ios']" "j['zbd']['zone_resets']" \
	"j['trim']['errors']" "@$T/t.f" "j['trim']['total_ios']" "j['error']")
c=$1,$4 r=$2 e=$3,$5
[ "$c" = "3,3" ] && [ "$r" = 3 ] && [ "$e" = "0,0" ] ||
	die "sequential trim: trims (iorig,fio) $c, resets $r, errors $e"
zbd_check $a "$T/t.i" >"$T/c1"
echo "ok: sequential trim of zones 1-3: zones 1-5 '$za' as fio's;" \
	"trims $c, $r resets; $(cat "$T/c1")"

# 2. Random trims over zones 1-5, io_size three zones: the empty zones
# send them to the two holding data, and the third finds none (the job
# ends): two trims, two resets, every zone empty (fio the same; fio
# prints its resets on its write line only, which a trimming job has
# not: blkzone's zones are the witness).
both rt --offset=8M --size=40M --bs=8M --rw=randtrim --io_size=24M
za=$(zones_of $a 16384 5)
zb=$(zones_of $b 16384 5)
[ "$za" = "$zb" ] && [ "$za" = "0:em 0:em 0:em 0:em 0:em" ] ||
	die "zones 1-5 after random trims: iorig's '$za', fio's '$zb'"
set -- $(jvals "$T/rt.i" "j['trim']['ios']" "j['zbd']['zone_resets']" \
	"@$T/rt.f" "j['trim']['total_ios']")
c=$1,$3 r=$2
[ "$c" = "2,2" ] && [ "$r" = 2 ] ||
	die "random trims: trims (iorig,fio) $c, iorig's resets $r"
echo "ok: random trims: zones 1-5 '$za' as fio's; trims $c, $r resets"

# 3. The conventional zone: a trim there is a discard (fio's too), which
# zoned null_blk does not take (EOPNOTSUPP): both fail the job.
"$IORIG" --filename=$a $common --name=ct --offset=0 --size=8M --bs=8M \
	--rw=trim --output-format=json >"$T/ct.i" 2>"$T/ct.ie" &&
	die "iorig: a discard on zoned null_blk succeeded"
e=$(n "$T/ct.i" "(j['trim']['errors'], j['trim']['first_error']['errno'])")
[ "$e" = "(1, 95)" ] || die "conventional zone's trim: errors $e"
$FIO --filename=$b $common --name=ct --offset=0 --size=8M --bs=8M \
	--rw=trim >"$T/ct.f" 2>&1 && die "fio: a discard on zoned null_blk succeeded"
grep -q 'Operation not supported' "$T/ct.f" ||
	die "fio's conventional trim: $(cat "$T/ct.f")"
echo "ok: a trim of the conventional zone is a discard, EOPNOTSUPP on" \
	"zoned null_blk (iorig: 1 error, errno 95; fio too)"

# 4. Refused as fio refuses them: a trim block size that is not the
# zone size, and a range of them.
expect_refused 'bs' --filename=$a $common --name=b --offset=8M \
	--size=40M --rw=trim --bs=4M
$FIO --filename=$b $common --name=b --offset=8M --size=40M --rw=trim \
	--bs=4M >"$T/fb" 2>&1 && die "fio took a trim of 4M on 8M zones"
expect_refused 'bsrange' --filename=$a $common --name=b --offset=8M \
	--size=40M --rw=trim --bsrange=4M-8M
echo "ok: trim bs=4M on 8 MiB zones, bsrange=4M-8M: refused (fio too)"

# 5. The NVMe zoned namespace (16 MiB zones): iorig writes zones 10-11
# and trims zone 10, fio the same on zones 12-13 and 12.
dev=$(nvme_ns 2)
on_exit "blkzone reset $dev"
nv="--filename=$dev $common --bs=1M"
# Each tool's write and trim are two jobs of one run, the trim after the
# write (stonewall): a fio start costs about a second in the emulator.
run $nv --output-format=json --name=w --offset=160M --size=32M --rw=write \
	--name=t --stonewall --offset=160M --size=16M --bs=16M --rw=trim
expect_rc 0
cp "$T/out" "$T/ni"
$FIO $nv --output-format=json --name=w --offset=192M --size=32M --rw=write \
	--name=t --stonewall --offset=192M --size=16M --bs=16M --rw=trim \
	>"$T/nf2" 2>"$T/nf2e" || die "fio: $(cat "$T/nf2e")"
set -- $(jvals "$T/ni" "d['jobs'][1]['trim']['ios']" \
	"d['jobs'][1]['zbd']['zone_resets']" \
	"@$T/nf2" "d['jobs'][1]['trim']['total_ios']")
ti=$1 ri=$2 tf=$3
set -- $(zones_of "$dev" $((10 * 32768)) 4)
[ "$1 $2" = "$3 $4" ] || die "iorig's zones 10-11 '$1 $2', fio's 12-13 '$3 $4'"
case "$1 $2" in 0:em\ *:fu) ;; *) die "zones 10-11 after: '$1 $2'" ;; esac
[ "$ti" = 1 ] && [ "$ri" = 1 ] && [ "$tf" = 1 ] ||
	die "NVMe trim: iorig $ti trims $ri resets, fio $tf trims"
echo "ok: NVMe zoned namespace: zones 10-11 '$1 $2' as fio's 12-13;" \
	"trims (iorig,fio) $ti,$tf, $ri reset"
